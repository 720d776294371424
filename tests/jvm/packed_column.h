// Decodes a packed column of the JVM report (wasm/jvm/aggregator.cpp, PackedColumn) independently of
// the view's decoder: comma-separated integers, an empty field for null; with `delta` each is the
// difference to the previous non-null value; "v*n" stands for n copies of v.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gcscope::test {

inline std::vector<std::optional<int64_t>> unpack(const std::string& text, size_t count, bool delta) {
  std::vector<std::optional<int64_t>> out;
  size_t p = 0;
  int64_t prev = 0;
  while (out.size() < count) {
    size_t comma = text.find(',', p);
    std::string field = text.substr(p, comma == std::string::npos ? std::string::npos : comma - p);
    p = comma == std::string::npos ? text.size() : comma + 1;
    if (field.empty()) {
      out.emplace_back();
      continue;
    }
    size_t star = field.find('*');
    int64_t v = std::stoll(field.substr(0, star));
    if (delta) v += prev, prev = v;
    int64_t run = star == std::string::npos ? 1 : std::stoll(field.substr(star + 1));
    for (int64_t r = 0; r < run; ++r) out.emplace_back(v);
  }
  out.resize(count);
  return out;
}

// The same, for columns without nulls.
inline std::vector<int64_t> unpack_ints(const std::string& text, size_t count, bool delta) {
  std::vector<int64_t> out;
  out.reserve(count);
  for (const auto& v : unpack(text, count, delta)) out.push_back(v ? *v : INT64_MIN);
  return out;
}

}  // namespace gcscope::test
