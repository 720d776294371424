// Scanning helpers shared by the unified and legacy JVM log parsers: the numbers, sizes and date
// stamps both dialects print. Hand-written, allocation-free, for hot paths.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/iso_datetime.h"
#include "core/text_scan.h"

// The scanners below inline into every caller in wasm: out of line, clang passes p and the result
// through linear memory, a cost on every number the parsers read. Natively g++ decides, as forcing
// it does not pay there.
#if defined(__wasm__)
#define GCSCOPE_SCAN_INLINE [[gnu::always_inline]] inline
#else
#define GCSCOPE_SCAN_INLINE inline
#endif

namespace gcscope::jvm::log_text {

// The run of decimal digits at [d, end): accumulates them into v (v = v * 10^k + digits), adds their
// number to count and returns the first byte after them. Two digits per step: the numbers of GC logs
// have 1-9 digits, too few for 8-bytes-at-a-time (SWAR) steps to pay.
GCSCOPE_SCAN_INLINE const char* read_digits(const char* d, const char* end, uint64_t& v, int& count) {
  const char* const start = d;
  uint64_t x = v;
  // Two digits per step (half the loop's compares and branches), the odd last byte of the text alone.
  for (;;) {
    if (end - d >= 2) {
      const unsigned a = static_cast<unsigned>(d[0] - '0');
      if (a >= 10) break;
      const unsigned b = static_cast<unsigned>(d[1] - '0');
      if (b >= 10) {
        x = x * 10 + a;
        ++d;
        break;
      }
      x = x * 100 + (a * 10 + b);
      d += 2;
      continue;
    }
    if (d < end) {
      const unsigned a = static_cast<unsigned>(*d - '0');
      if (a < 10) x = x * 10 + a, ++d;
    }
    break;
  }
  v = x;
  count += static_cast<int>(d - start);
  return d;
}

namespace detail {
// The cold halves of log_decimal / parse_size_kb, kept out of line so that the hot halves inline into
// the parsers (an out-of-line call passes p and the result through memory, which costs most in wasm).
[[gnu::noinline]] inline bool long_decimal(std::string_view s, size_t& p, double& out) {
  return text::parse_decimal(s, p, out, true);
}
}  // namespace detail

// The decimals of GC logs ("0.0169706", "1207,770"): unsigned, '.' or ',' separator, no exponent.
// Digits are accumulated as one integer and divided once (the general text::parse_decimal does more
// per digit); more than 18 digits in all go to text::parse_decimal.
GCSCOPE_SCAN_INLINE bool log_decimal(std::string_view s, size_t& p, double& out) {
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9,
                                      1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};
  const char* const begin = s.data();
  const char* const end = begin + s.size();
  uint64_t v = 0;
  int digits = 0;
  const char* q = read_digits(begin + p, end, v, digits);
  if (digits == 0 || digits > 18) return detail::long_decimal(s, p, out);
  int frac = 0;
  if (end - q >= 2 && (*q == '.' || *q == ',') && static_cast<unsigned>(q[1] - '0') < 10) {
    q = read_digits(q + 1, end, v, frac);
    if (digits + frac > 18) return detail::long_decimal(s, p, out);
  }
  // v < 10^18 < 2^63: the signed conversion is exact and a single instruction (unsigned is not, in wasm).
  out = static_cast<double>(static_cast<int64_t>(v)) / kPow10[frac];
  p = static_cast<size_t>(q - begin);
  return true;
}

// The ISO 8601 date-time at s[p] (core/iso_datetime.h: "YYYY-MM-DDThh:mm:ss.fff+hhmm", "+hh:mm",
// "Z", a ',' before the fraction) → epoch milliseconds (with the sub-millisecond digits as a fraction);
// advances p past it. A space instead of the 'T' is accepted only when asked (unified decorations),
// since legacy logs put other text there.
inline bool parse_iso_timestamp(std::string_view s, size_t& p, double& epoch_ms, bool allow_space_separator) {
  iso8601::DateTime t;
  const size_t n = iso8601::parse_date_time(s, p, t, allow_space_separator);
  if (n == 0) return false;
  epoch_ms = static_cast<double>(t.epoch_s) * 1000.0 + static_cast<double>(t.nanos) / 1e6;
  p += n;
  return true;
}

namespace detail {
// "12.5M", "0.0B", "135282 K", "6MB": the sizes with a unit other than a plain "K".
[[gnu::noinline]] inline bool size_with_unit(std::string_view s, size_t& p, int64_t& kb) {
  size_t q = p;
  double v;
  if (!log_decimal(s, q, v)) return false;
  if (q < s.size() && s[q] == ' ' && q + 1 < s.size() && (s[q + 1] == 'K' || s[q + 1] == 'M')) ++q;
  if (q >= s.size()) return false;
  double mult;
  switch (s[q]) {
    case 'B': mult = 1.0 / 1024.0; break;
    case 'K': mult = 1.0; break;
    case 'M': mult = 1024.0; break;
    case 'G': mult = 1024.0 * 1024.0; break;
    case 'T': mult = 1024.0 * 1024.0 * 1024.0; break;
    default: return false;
  }
  ++q;
  if (q < s.size() && s[q] == 'B') ++q;  // "KB"/"MB" in some Shenandoah lines
  // No heap holds 2^63 KiB: a larger figure is a corrupt line, not a size (and would not fit int64).
  const double rounded = v * mult + 0.5;
  if (!(rounded >= 0 && rounded < 9.0e18)) return false;
  kb = static_cast<int64_t>(rounded);
  p = q;
  return true;
}
}  // namespace detail

// A size at s[p] → KiB: "209792K" (fast path), "12.5M", "0.0B", "1G", "135282 K", "6MB"; advances p.
GCSCOPE_SCAN_INLINE bool parse_size_kb(std::string_view s, size_t& p, int64_t& kb) {
  {  // fast path: the generational collectors print whole KiB ("209792K")
    uint64_t v = 0;
    int digits = 0;
    const size_t q = static_cast<size_t>(read_digits(s.data() + p, s.data() + s.size(), v, digits) - s.data());
    if (digits > 0 && q < s.size() && s[q] == 'K' && (q + 1 >= s.size() || s[q + 1] != 'B')) {
      kb = static_cast<int64_t>(v);
      p = q + 1;
      return true;
    }
  }
  return detail::size_with_unit(s, p, kb);
}

}  // namespace gcscope::jvm::log_text
