// The time stamps and decorations in front of JVM GC log lines, in both dialects:
//  - unified logging (-Xlog, JDK 9+): "[uptime][time][level][tags][pid][tid] message", any subset of
//    the decorations in any order, or none (-Xlog:…::none);
//  - legacy (-XX:+PrintGCDateStamps / PrintGCTimeStamps / PrintGCID, JDK <= 8):
//    "<datestamp>: <uptime>: #<gcid>: [GC …", each part optional.
// The one reader of these stamps: the unified and legacy parsers read every line's stamps here,
// identification's JVM probe (probe.cpp) tells the dialects apart by what split() and read_legacy()
// find in a line, and the rotation planner (rotation.cpp) reads each member's first stamps here.
// Allocation-free and inline: the parsers call these once per line.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/text_scan.h"
#include "jvm/gc_event.h"
#include "jvm/log_text.h"

namespace gcscope::jvm::decorations {

// ---- unified logging ---------------------------------------------------------------------------

// The bytes of a tags decoration ("gc,heap,exit", "safepoint", "gc,phases,start").
struct TagChars {
  bool table[256] = {};
  constexpr TagChars() : table() {
    for (int c = 'a'; c <= 'z'; ++c) table[c] = true;
    for (int c = '0'; c <= '9'; ++c) table[c] = true;
    table[static_cast<unsigned char>(',')] = table[static_cast<unsigned char>('+')] =
        table[static_cast<unsigned char>('_')] = true;
  }
};
inline bool is_tag_char(char c) {
  static constexpr TagChars kTagChars;
  return kTagChars.table[static_cast<unsigned char>(c)];
}

// The level words -Xlog prints: info, debug, trace, error, develop, warning.
inline bool is_level_word(std::string_view t) {
  switch (t.size()) {
    case 4: return t == "info";
    case 5: return t == "debug" || t == "trace" || t == "error";
    case 7: return t == "develop" || t == "warning";
    default: return false;
  }
}

// What the decorations of one unified line say. Level and tags are views into the line.
struct Unified {
  double uptime_s = kUnknown;  // uptime, uptimemillis, uptimenanos, timenanos (see ns_origin)
  double wall_ms = kUnknown;   // time, utctime, timemillis
  std::string_view level;      // empty when the line has no level decoration
  std::string_view tags;       // empty when the line has no tags decoration
};

// The clock a member's timenanos stamps count from: System.nanoTime() has an arbitrary origin
// (often the machine's uptime), uptimenanos counts from JVM start. Decided on the first nanosecond
// stamp of a member (more than 1000 s means timenanos) and then subtracted from every stamp.
struct NanosOrigin {
  double origin = -1;
};

// One decoration token (the text between '[' and ']', trailing padding allowed): fills the field
// of `out` it is; false when it is none of uptime, time, level, tags, pid or tid.
inline bool read_token(std::string_view tok, Unified& out, NanosOrigin& nanos) {
  if (tok.empty()) return false;
  std::string_view t = tok.back() == ' ' ? text::trim_right(tok) : tok;  // "[gc,start    ]"
  if (t.empty()) return false;
  if (text::is_digit(t[0])) {
    if (t.size() >= 19 && t[4] == '-') {
      // "2026-11-21T12:09:42.549+0000" (or with a space, or "+00:00")
      size_t p = 0;
      return log_text::parse_iso_timestamp(t, p, out.wall_ms, /*allow_space_separator=*/true);
    }
    size_t p = 0;
    double v;
    if (!log_text::log_decimal(t, p, v)) return false;
    std::string_view unit = t.substr(p);
    if (unit == "s") {
      out.uptime_s = v;
      return true;
    }
    if (unit == "ms") {
      if (v > 1e11) out.wall_ms = v;  // timemillis vs uptimemillis
      else out.uptime_s = v / 1e3;
      return true;
    }
    if (unit == "ns") {
      if (nanos.origin < 0) nanos.origin = v > 1e12 ? v : 0;
      out.uptime_s = (v - nanos.origin) / 1e9;
      return true;
    }
    return unit.empty() || unit == "t";  // pid / tid
  }
  switch (t[0]) {
    case 'i':
      if (t == "info") {
        out.level = t;
        return true;
      }
      break;
    case 'd':
      if (t == "debug" || t == "develop") {
        out.level = t;
        return true;
      }
      break;
    case 't':
      if (t == "trace") {
        out.level = t;
        return true;
      }
      break;
    case 'w':
      if (t == "warning") {
        out.level = t;
        return true;
      }
      break;
    case 'e':
      if (t == "error") {
        out.level = t;
        return true;
      }
      break;
    default: break;
  }
  // tags: lowercase words joined by ','
  for (char c : t)
    if (!is_tag_char(c)) return false;
  out.tags = t;
  return true;
}

// The default decorations "[0.078s][info][gc,start    ] " read token by token in their exact shape;
// returns where the general loop of split() carries on (0 when the line does not start that way).
// The arithmetic is read_token's, so both paths give the same stamps.
[[gnu::always_inline]] inline size_t read_default_shape(std::string_view line, Unified& out) {
  if (line.size() <= 3 || line[0] != '[' || !text::is_digit(line[1])) return 0;
  size_t q = 1;
  double v;
  if (!log_text::log_decimal(line, q, v) || q + 1 >= line.size() || line[q] != 's' || line[q + 1] != ']') return 0;
  out.uptime_s = v;
  size_t p = q + 2;
  if (line.size() - p < 6 || std::memcmp(line.data() + p, "[info]", 6) != 0) return p;
  out.level = std::string_view(line.data() + p + 1, 4);
  p += 6;
  // A line may end right after "[info]".
  q = p < line.size() ? p + 1 : p;
  while (q < line.size() && is_tag_char(line[q])) ++q;
  const size_t tag_end = q;
  // JDK 17 pads the tags to a common width ("[gc,heap        ]"): eight spaces at a time.
  while (line.size() - q >= 8 && std::memcmp(line.data() + q, "        ", 8) == 0) q += 8;
  while (q < line.size() && line[q] == ' ') ++q;
  // A tag set starts with a letter; a level word in third place is left to the general loop.
  if (q < line.size() && line[q] == ']' && line[p] == '[' && tag_end > p + 1 && line[p + 1] >= 'a' &&
      !is_level_word(line.substr(p + 1, tag_end - p - 1))) {
    out.tags = line.substr(p + 1, tag_end - p - 1);
    p = q + 1;
  }
  return p;
}

// Splits a unified line into its decorations and its message. False when the line starts with '['
// but no decoration (a legacy "[GC (Allocation Failure) …" record): not a unified line. A line
// without any decoration is all message (-Xlog:…::none).
[[gnu::always_inline]] inline bool split(std::string_view line, Unified& out, NanosOrigin& nanos,
                                         std::string_view& message) {
  out = Unified{};
  size_t p = read_default_shape(line, out);
  bool any = p > 0;
  while (p < line.size() && line[p] == '[') {
    // Decoration tokens are short: a plain loop beats a memchr call here.
    size_t close = p + 1;
    while (close < line.size() && line[close] != ']') ++close;
    if (close >= line.size()) break;
    std::string_view tok = line.substr(p + 1, close - p - 1);
    // A token that is none of the kinds (hostname "[app-1.example]") still is a decoration when
    // another one follows right after it.
    if (!read_token(tok, out, nanos) &&
        !(close + 1 < line.size() && line[close + 1] == '[' && tok.find(' ') == std::string_view::npos))
      break;
    any = true;
    p = close + 1;
  }
  if (any) {
    if (p < line.size() && line[p] == ' ') ++p;
    message = line.substr(p);
    return true;
  }
  if (!line.empty() && line[0] == '[') return false;
  message = line;
  return true;
}

// ---- legacy -------------------------------------------------------------------------------------

// What the stamps in front of a legacy line say.
struct Legacy {
  double uptime_s = kUnknown;  // -XX:+PrintGCTimeStamps "12.345: "
  double wall_ms = kUnknown;   // -XX:+PrintGCDateStamps "2014-06-25T12:34:56.789+0200: "
};

// "2014-06-25T12:34:56.789+0200" (PrintGCDateStamps) at s[p]; advances p past it. Legacy logs put
// other text where unified decorations may have a space instead of the 'T', so only 'T' is read.
inline bool read_datestamp(std::string_view s, size_t& p, double& epoch_ms) {
  return log_text::parse_iso_timestamp(s, p, epoch_ms, /*allow_space_separator=*/false);
}

// Reads the "<datestamp>: <uptime>: #<gcid>: " stamps at s[p] (each optional, in this order or not,
// the space after each colon optional) into out; returns where the line's text after them starts.
// A clock "HH:MM:SS" is not read as stamps: its numbers are no uptime.
inline size_t read_legacy(std::string_view s, size_t p, Legacy& out) {
  for (int round = 0; round < 3; ++round) {
    size_t q = p;
    double wall;
    // (read_datestamp needs "YYYY-" and 19 bytes: checked here first, as most lines start with an uptime)
    if (q + 19 <= s.size() && s[q + 4] == '-' && text::is_digit(s[q]) && read_datestamp(s, q, wall)) {
      if (q + 1 < s.size() && s[q] == ':' && s[q + 1] == ' ') {
        out.wall_ms = wall;
        p = q + 2;
        continue;
      }
      if (q < s.size() && s[q] == ':') {  // "...+0100:" directly followed by something
        out.wall_ms = wall;
        p = q + 1;
        continue;
      }
      return p;
    }
    q = p;
    double up;
    // A number whose colon a digit follows starts a clock ("07:19:42,943 INFO", an application's
    // line), whose hours are no JVM uptime.
    if (q < s.size() && text::is_digit(s[q]) && log_text::log_decimal(s, q, up) && q < s.size() && s[q] == ':' &&
        !(q + 1 < s.size() && text::is_digit(s[q + 1]))) {
      out.uptime_s = up;
      p = q + 1;
      if (p < s.size() && s[p] == ' ') ++p;
      continue;
    }
    if (p < s.size() && s[p] == '#') {  // -XX:+PrintGCID "#12: "
      q = p + 1;
      uint64_t id;
      if (text::parse_u64(s, q, id) && q + 1 < s.size() && s[q] == ':') {
        p = q + 1;
        if (p < s.size() && s[p] == ' ') ++p;
        continue;
      }
    }
    break;
  }
  return p;
}

// Where the legacy stamps that end right before s[pos] begin, for a record printed into the middle
// of another line ("...CMS2010-04-21T00:00:37.413+0100: 19027.970: [CMS-concurrent-mark" -> the
// position of "2010"); pos when no stamp ends there.
inline size_t legacy_start_before(std::string_view s, size_t pos) {
  size_t start = pos;
  for (int round = 0; round < 3; ++round) {
    size_t q = start;
    if (q >= 2 && s[q - 1] == ' ' && s[q - 2] == ':') q -= 2;
    else if (q >= 1 && s[q - 1] == ':') q -= 1;
    else break;
    size_t e = q;
    while (q > 0 && (text::is_digit(s[q - 1]) || s[q - 1] == '.' || s[q - 1] == ',')) --q;
    if (q == e) break;  // no digits before the colon: not a stamp
    // Extend over a datestamp "YYYY-MM-DDTHH:MM:SS.mmm+ZZZZ" ending at e.
    if (q >= 1 && (s[q - 1] == '+' || s[q - 1] == '-') && e - q == 4 && q >= 24) {
      size_t d = q - 1 - 23;  // start of "YYYY"
      double wall;
      size_t t = d;
      if (read_datestamp(s, t, wall) && t == e) q = d;
    }
    if (q > 0 && s[q - 1] == '#') --q;
    start = q;
  }
  return start;
}

}  // namespace gcscope::jvm::decorations
