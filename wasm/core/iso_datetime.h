// ISO 8601 date-times as logs and tracers print them ("YYYY-MM-DDThh:mm:ss.ffffff+hhmm"), read into
// seconds since the Unix epoch and nanoseconds: the one parser of the JVM decorations (time, utctime,
// PrintGCDateStamps) and of the tracing events (bpftrace strftime()).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/civil_date.h"
#include "core/text_scan.h"

namespace gcscope::iso8601 {

// A point in time: whole seconds since 1970-01-01T00:00:00Z (negative before it) plus nanoseconds.
struct DateTime {
  int64_t epoch_s = 0;
  uint32_t nanos = 0;  // 0 .. 999,999,999
};

namespace detail {
// Exactly n decimal digits at s[p], or -1.
inline int fixed_digits(std::string_view s, size_t p, size_t n) {
  if (p + n > s.size()) return -1;
  int v = 0;
  for (size_t i = p; i < p + n; ++i) {
    if (!text::is_digit(s[i])) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

// The zone offset at s[p] in seconds east of UTC: "Z", "+hh:mm", "+hhmm" or "+hh" (or '-'). Returns
// its length, 0 when none is there.
inline size_t zone_offset(std::string_view s, size_t p, int64_t& offset_s) {
  if (p >= s.size()) return 0;
  if (s[p] == 'Z') {
    offset_s = 0;
    return 1;
  }
  if (s[p] != '+' && s[p] != '-') return 0;
  const int hh = fixed_digits(s, p + 1, 2);
  if (hh < 0 || hh > 23) return 0;
  size_t len = 3;
  int mm = 0;
  const bool colon = p + 3 < s.size() && s[p + 3] == ':';
  const int m = fixed_digits(s, p + (colon ? 4 : 3), 2);
  if (m >= 0 && m <= 59) {
    mm = m;
    len = colon ? 6 : 5;
  }
  offset_s = (s[p] == '-' ? -1 : 1) * (hh * 3600 + mm * 60);
  return len;
}
}  // namespace detail

// The date-time "YYYY-MM-DDThh:mm:ss[.fraction][zone]" at s[p]: the fraction after '.' or ',' (its
// first 9 digits count, the rest are read and dropped), the zone as detail::zone_offset reads it (none:
// UTC; a sign without a valid offset after it is left unread). With allow_space, a space may stand for
// the 'T' (JVM utctime decorations, strftime("%Y-%m-%d %H:%M:%S")); legacy JVM logs put other text
// there, so they do not allow it. Returns the length read, 0 when there is no date-time at s[p].
inline size_t parse_date_time(std::string_view s, size_t p, DateTime& out, bool allow_space) {
  using detail::fixed_digits;
  if (p + 19 > s.size()) return 0;
  if (s[p + 4] != '-' || s[p + 7] != '-' || !(s[p + 10] == 'T' || (allow_space && s[p + 10] == ' ')) ||
      s[p + 13] != ':' || s[p + 16] != ':')
    return 0;
  const int y = fixed_digits(s, p, 4), mo = fixed_digits(s, p + 5, 2), d = fixed_digits(s, p + 8, 2);
  const int h = fixed_digits(s, p + 11, 2), mi = fixed_digits(s, p + 14, 2), sec = fixed_digits(s, p + 17, 2);
  // sec 60: a leap second, counted as the first second of the next minute (as POSIX time does).
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60)
    return 0;
  size_t q = p + 19;
  uint32_t nanos = 0;
  if (q + 1 < s.size() && (s[q] == '.' || s[q] == ',') && text::is_digit(s[q + 1])) {
    uint32_t scale = 100000000;
    for (++q; q < s.size() && text::is_digit(s[q]); ++q, scale /= 10)
      nanos += static_cast<uint32_t>(s[q] - '0') * scale;
  }
  int64_t offset_s = 0;
  q += detail::zone_offset(s, q, offset_s);
  const int64_t days = civil::days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  out.epoch_s = days * 86400 + h * 3600 + mi * 60 + sec - offset_s;
  out.nanos = nanos;
  return q - p;
}

}  // namespace gcscope::iso8601
