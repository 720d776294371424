// JSON string bodies, decoded once for every JSON reader in gcscope (stackprof JSON dumps,
// ObjectSpace.dump_all lines, bpftrace -f json events). Each reader has its own notion of what a
// bad string means for its format; they share the decoding so that escapes, surrogate pairs and
// lone surrogates are handled the same way everywhere.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace gcscope::json {

inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Four hex digits at p (the caller checked they are present); -1 when one is not a hex digit.
inline int32_t hex4(const char* p) {
  int32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    int h = hex_value(p[i]);
    if (h < 0) return -1;
    v = v << 4 | h;
  }
  return v;
}

inline void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

enum class StringStatus {
  kOk,
  kUnterminated,      // the input ends before the closing quote (or inside an escape)
  kBadEscape,         // a backslash followed by something JSON does not define
  kBadUnicodeEscape,  // \u not followed by four hex digits
  kControlChar,       // a raw byte below 0x20 (only when the caller asks for strict JSON)
};

// Decodes the string body starting at `p` (just after the opening quote), ending before `end`.
// kOk: `p` is just past the closing quote; `out` views the input itself when the string has no
// escape (the common case: no copy), else `scratch`, where the escapes were decoded.
// Any other status: `p` points at the offending byte (or at `end`), for the caller's error offset.
// A lone surrogate becomes U+FFFD so that the text stays valid UTF-8 for the page.
inline StringStatus decode_string(const char*& p, const char* end, std::string_view& out, std::string& scratch,
                                  bool reject_control = false) {
  const char* q = p;
  auto plain = [&](char c) {
    return c != '"' && c != '\\' && !(reject_control && static_cast<unsigned char>(c) < 0x20);
  };
  while (q < end && plain(*q)) ++q;
  if (q < end && *q == '"') {
    out = std::string_view(p, static_cast<size_t>(q - p));
    p = q + 1;
    return StringStatus::kOk;
  }
  scratch.assign(p, static_cast<size_t>(q - p));
  while (q < end) {
    char c = *q;
    if (c == '"') {
      out = scratch;
      p = q + 1;
      return StringStatus::kOk;
    }
    if (c != '\\') {
      if (!plain(c)) {
        p = q;
        return StringStatus::kControlChar;
      }
      const char* r = q;
      while (r < end && plain(*r)) ++r;
      scratch.append(q, static_cast<size_t>(r - q));
      q = r;
      continue;
    }
    if (end - q < 2) break;
    char e = q[1];
    switch (e) {
      case '"': scratch.push_back('"'); break;
      case '\\': scratch.push_back('\\'); break;
      case '/': scratch.push_back('/'); break;
      case 'b': scratch.push_back('\b'); break;
      case 'f': scratch.push_back('\f'); break;
      case 'n': scratch.push_back('\n'); break;
      case 'r': scratch.push_back('\r'); break;
      case 't': scratch.push_back('\t'); break;
      case 'u': {
        if (end - q < 6) {
          p = end;
          return StringStatus::kUnterminated;
        }
        int32_t cp = hex4(q + 2);
        if (cp < 0) {
          p = q + 2;
          while (hex_value(*p) >= 0) ++p;  // point at the digit that is not one
          return StringStatus::kBadUnicodeEscape;
        }
        q += 6;
        uint32_t code = static_cast<uint32_t>(cp);
        // A high surrogate pairs with a following \u low surrogate; anything else after it is left
        // for the next iteration and the high surrogate alone becomes U+FFFD.
        if (code >= 0xD800 && code < 0xDC00 && end - q >= 6 && q[0] == '\\' && q[1] == 'u') {
          int32_t lo = hex4(q + 2);
          if (lo >= 0xDC00 && lo < 0xE000) {
            code = 0x10000 + ((code - 0xD800) << 10) + (static_cast<uint32_t>(lo) - 0xDC00);
            q += 6;
          }
        }
        if (code >= 0xD800 && code < 0xE000) code = 0xFFFD;
        append_utf8(scratch, code);
        continue;
      }
      default: p = q + 1; return StringStatus::kBadEscape;
    }
    q += 2;
  }
  p = end;
  return StringStatus::kUnterminated;
}

}  // namespace gcscope::json
