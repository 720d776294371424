// Numbers of a tracing report as the compare and the sum of captures read them: a JSON number, or
// a decimal string (integers beyond 2^53 are written as strings). Integers are kept exact (int128)
// so that sums and deltas of 64-bit counters do not round.
#pragma once
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

namespace gcscope::tracing {

inline constexpr __int128 kMaxSafe128 = 9007199254740992;  // 2^53

// A report number: JSON number, or a decimal string (integers beyond 2^53 are written as strings).
// Integers are kept exact (int128) so that deltas of 64-bit counters do not round.
struct Num {
  bool ok = false;
  bool integral = false;
  __int128 i = 0;
  double d = 0;
};

inline Num num_of(const nlohmann::json& v) {
  Num n;
  if (v.is_number_unsigned()) {
    n.ok = n.integral = true;
    n.i = static_cast<__int128>(v.get<uint64_t>());
    n.d = static_cast<double>(v.get<uint64_t>());
  } else if (v.is_number_integer()) {
    n.ok = n.integral = true;
    n.i = v.get<int64_t>();
    n.d = static_cast<double>(v.get<int64_t>());
  } else if (v.is_number_float()) {
    double d = v.get<double>();
    if (!std::isfinite(d)) return n;
    n.ok = true;
    n.d = d;
    if (d == std::floor(d) && std::fabs(d) < 1e30) {
      n.integral = true;
      n.i = static_cast<__int128>(d);
    }
  } else if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    size_t p = 0;
    bool neg = false;
    if (!s.empty() && s[0] == '-') neg = true, p = 1;
    if (p >= s.size() || s.size() - p > 38) return n;
    __int128 x = 0;
    for (; p < s.size(); ++p) {
      if (s[p] < '0' || s[p] > '9') return n;
      x = x * 10 + (s[p] - '0');
    }
    n.ok = n.integral = true;
    n.i = neg ? -x : x;
    n.d = static_cast<double>(n.i);
  }
  return n;
}

inline nlohmann::json int128_json(__int128 v) {
  if (v <= kMaxSafe128 && v >= -kMaxSafe128) return nlohmann::json(static_cast<int64_t>(v));
  bool neg = v < 0;
  unsigned __int128 m = neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string digits;
  while (m) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  }
  if (neg) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

inline nlohmann::json diff_json(const Num& x, const Num& y) {  // x - y
  if (x.integral && y.integral) return int128_json(x.i - y.i);
  return x.d - y.d;
}

}  // namespace gcscope::tracing
