#include "hist_label.h"

#include "core/text_scan.h"

namespace gcscope::tracing {

bool parse_suffixed(std::string_view tok, Int& out) {
  if (tok.empty()) return false;
  int shift = 0;
  char last = tok.back();
  switch (last) {
    case 'K': shift = 10; break;
    case 'M': shift = 20; break;
    case 'G': shift = 30; break;
    case 'T': shift = 40; break;
    case 'P': shift = 50; break;
    case 'E': shift = 60; break;
    default: break;
  }
  if (shift) tok.remove_suffix(1);
  Int v;
  if (!parse_int(tok, v)) return false;
  if (shift) {
    if (v.mag > (UINT64_MAX >> shift)) return false;
    v.mag <<= shift;
  }
  out = v;
  return true;
}

Int int_minus_one(Int v) {
  if (v.neg) {
    if (v.mag < 9223372036854775808ULL) ++v.mag;
    return v;
  }
  if (v.mag == 0) return Int{1, true};
  --v.mag;
  return v;
}

size_t parse_bpftrace_label(std::string_view line, Bucket& b, std::string& bad) {
  if (line.empty()) return std::string_view::npos;
  char open = line[0];
  size_t close = line.find_first_of(")]");
  if (close == std::string_view::npos) {
    bad = std::string(line.substr(0, line.find(' ')));
    return std::string_view::npos;
  }
  std::string_view inner = line.substr(1, close - 1);
  char closing = line[close];
  size_t comma = inner.find(',');
  if (comma == std::string_view::npos) {
    // "[N]": a single value bucket
    Int v;
    if (open != '[' || closing != ']' || !parse_suffixed(text::trim(inner), v)) {
      bad = std::string(text::trim(inner));
      return std::string_view::npos;
    }
    b.has_lo = b.has_hi = true;
    b.lo = b.hi = v;
    return close + 1;
  }
  std::string_view a = text::trim(inner.substr(0, comma));
  std::string_view c = text::trim(inner.substr(comma + 1));
  if (a == "...") {
    Int hi;
    if (!parse_suffixed(c, hi)) {
      bad = std::string(c);
      return std::string_view::npos;
    }
    b.has_lo = false;
    b.has_hi = true;
    b.hi = int_minus_one(hi);
    return close + 1;
  }
  Int lo;
  if (!parse_suffixed(a, lo)) {
    bad = std::string(a);
    return std::string_view::npos;
  }
  b.has_lo = true;
  b.lo = lo;
  if (c == "...") {
    b.has_hi = false;
    return close + 1;
  }
  Int hi;
  if (!parse_suffixed(c, hi)) {
    bad = std::string(c);
    return std::string_view::npos;
  }
  b.has_hi = true;
  b.hi = closing == ')' ? int_minus_one(hi) : hi;
  return close + 1;
}

}  // namespace gcscope::tracing
