// The values at the end of unified log messages: a duration ("… 1.777ms") and a heap transition
// ("… 6M->1M(34M)"), read from the right so that whatever names the message stays before them.
#pragma once
#include <string_view>

#include "core/text_scan.h"
#include "jvm/gc_event.h"
#include "jvm/log_text.h"

namespace gcscope::jvm::unified {

// "<number>ms" / "s" / "us" / "ns" at s[p...] (optional space before the unit) → seconds.
// The number is read by log_decimal, as the legacy parser reads its: all its digits as one integer
// divided once by a power of ten, so "1.481" is the nearest double (the general text::parse_decimal
// adds the fraction to the integer part, which can miss it by an ulp).
inline bool parse_duration(std::string_view s, size_t& p, double& seconds) {
  double v;
  size_t q = p;
  if (!log_text::log_decimal(s, q, v)) return false;
  if (q < s.size() && s[q] == ' ') ++q;
  if (text::starts_with(s.substr(q), "ms")) seconds = v / 1e3, q += 2;
  else if (text::starts_with(s.substr(q), "us")) seconds = v / 1e6, q += 2;
  else if (text::starts_with(s.substr(q), "ns")) seconds = v / 1e9, q += 2;
  else if (q < s.size() && s[q] == 's') seconds = v, q += 1;
  else return false;
  if (q < s.size() && text::is_digit(s[q])) return false;
  p = q;
  return true;
}

// A trailing duration "… 1.777ms" at the end of s; on success `rest` is s without it.
// ("33 us", the number one word before the unit, is not one.)
inline bool trailing_duration(std::string_view s, double& seconds, std::string_view& rest) {
  s = text::trim_right(s);
  size_t unit = s.size();
  while (unit > 0 && !text::is_digit(s[unit - 1])) --unit;
  if (unit == 0 || s.size() - unit > 2) return false;
  size_t start = unit;
  while (start > 0 && (text::is_digit(s[start - 1]) || s[start - 1] == '.' || s[start - 1] == ',')) --start;
  if (start > 0 && s[start - 1] != ' ') return false;
  size_t p = start;
  if (!parse_duration(s, p, seconds) || p != s.size()) return false;
  rest = text::trim_right(s.substr(0, start));
  return true;
}

// "a->b(c)" / "aK(cK)->bK(dK)" / "64M(100%)->64M(100%)" at the end of s → sizes; on success
// `rest` is s before the transition.
inline bool trailing_heap(std::string_view s, PoolSizes& out, std::string_view& rest) {
  size_t arrow = s.rfind("->");
  if (arrow == std::string_view::npos) return false;
  size_t start = s.rfind(' ', arrow);
  start = start == std::string_view::npos ? 0 : start + 1;
  size_t p = start;
  PoolSizes ps;
  if (!log_text::parse_size_kb(s, p, ps.before_kb)) return false;
  if (p < s.size() && s[p] == '(') {  // "76K(320K)->" (JDK 17 metaspace/pools) or "64M(100%)->"
    size_t close = s.find(')', p);
    if (close == std::string_view::npos) return false;
    p = close + 1;
  }
  if (p != arrow) return false;
  p += 2;
  if (!log_text::parse_size_kb(s, p, ps.after_kb)) return false;
  if (p < s.size() && s[p] == '(') {
    size_t q = p + 1;
    int64_t c;
    if (log_text::parse_size_kb(s, q, c)) ps.committed_kb = c;
    size_t close = s.find(')', p);
    p = close == std::string_view::npos ? s.size() : close + 1;
  }
  out = ps;
  rest = text::trim_right(s.substr(0, start));
  return true;
}

// The transition that is the first word of s, as pool and metaspace lines print it before their other
// figures: "996K(20480K)->…(…) Eden: …" reads the first word only. out is written only on success.
inline bool leading_transition(std::string_view s, PoolSizes& out) {
  std::string_view rest;
  return trailing_heap(s.substr(0, s.find(' ')), out, rest);
}

// The transition right after `label` in s ("Eden: 1024K(8192K)->0K(8192K) From: …" with "Eden: ").
inline bool labelled_transition(std::string_view s, std::string_view label, PoolSizes& out) {
  size_t at = s.find(label);
  return at != std::string_view::npos && leading_transition(s.substr(at + label.size()), out);
}

// The text inside the balanced parentheses that open at s[open] ("(System.gc())" → "System.gc()");
// false when they do not close in s.
inline bool balanced_group(std::string_view s, size_t open, std::string_view& inside, size_t& close) {
  int depth = 0;
  size_t q = open;
  for (; q < s.size(); ++q) {
    if (s[q] == '(') ++depth;
    else if (s[q] == ')' && --depth == 0) break;
  }
  if (q >= s.size()) return false;
  inside = s.substr(open + 1, q - open - 1);
  close = q;
  return true;
}

}  // namespace gcscope::jvm::unified
