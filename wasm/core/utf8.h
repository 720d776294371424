// UTF-8 as RFC 3629 defines it: no overlong forms, no surrogates (U+D800..U+DFFF), nothing past
// U+10FFFF. Reports are JSON read by browsers, and Ruby's own String#valid_encoding? and JSON
// generator apply the same rules, so every domain validates and repairs with these functions.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace gcscope::utf8 {

// The length of the well-formed sequence that starts at s[i] (1 to 4), or 0 when none does.
inline size_t sequence_length(std::string_view s, size_t i) {
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char c = b[i];
  if (c < 0x80) return 1;
  size_t len = 0;
  unsigned char lo = 0x80, hi = 0xbf;  // the range of the second byte (the others are 80..BF)
  if (c >= 0xc2 && c <= 0xdf) len = 2;
  else if (c == 0xe0) len = 3, lo = 0xa0;  // below: overlong
  else if (c >= 0xe1 && c <= 0xec) len = 3;
  else if (c == 0xed) len = 3, hi = 0x9f;  // above: surrogates
  else if (c >= 0xee && c <= 0xef) len = 3;
  else if (c == 0xf0) len = 4, lo = 0x90;  // below: overlong
  else if (c >= 0xf1 && c <= 0xf3) len = 4;
  else if (c == 0xf4) len = 4, hi = 0x8f;  // above: past U+10FFFF
  if (len == 0 || s.size() - i < len) return 0;
  if (b[i + 1] < lo || b[i + 1] > hi) return 0;
  for (size_t k = 2; k < len; ++k)
    if (b[i + k] < 0x80 || b[i + k] > 0xbf) return 0;
  return len;
}

inline bool is_valid(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t len = sequence_length(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

// s with each byte that does not start a well-formed sequence replaced by U+FFFD, into out (cleared
// first). Returns the number of bytes replaced.
inline size_t repair(std::string_view s, std::string& out) {
  out.clear();
  out.reserve(s.size() + 8);
  size_t replaced = 0;
  for (size_t i = 0; i < s.size();) {
    const size_t len = sequence_length(s, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";
      ++replaced;
      ++i;
    } else {
      out.append(s.data() + i, len);
      i += len;
    }
  }
  return replaced;
}

inline std::string repaired(std::string_view s) {
  std::string out;
  repair(s, out);
  return out;
}

}  // namespace gcscope::utf8
