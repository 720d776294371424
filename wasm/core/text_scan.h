// Small helpers for hand-written scanners over byte buffers: no allocation, no locale, no regex.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace gcscope::text {

// Always inlined: in WebAssembly a string_view argument or result of a call that is not inlined goes
// through memory, written as two 4-byte stores and read back as one 8-byte load, which the CPU cannot
// forward from the stores (a stall per call). A profile of V8's code for the legacy parser showed
// such stalls around trim_left() at every record's "[Times: …]" tail (LLVM had left the calls there).
#define GCSCOPE_TEXT_INLINE [[gnu::always_inline]] inline

// Whether n bytes at a and b are equal. Natively this is memcmp, which compilers expand inline when n
// is a constant. LLVM's WebAssembly backend never expands memcmp: every compare with a literal would be a
// call. There the bytes are compared in 8-byte words, the last (overlapping) word covering the tail, or
// in two 4-byte words, so that with the constant length of a literal the loop and branches fold away.
inline bool same_bytes(const char* a, const char* b, size_t n) {
#if defined(__wasm__)
  auto load64 = [](const char* p) {
    uint64_t w;
    __builtin_memcpy(&w, p, 8);
    return w;
  };
  auto load32 = [](const char* p) {
    uint32_t w;
    __builtin_memcpy(&w, p, 4);
    return w;
  };
  if (n >= 8) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
      if (load64(a + i) != load64(b + i)) return false;
    return i == n || load64(a + n - 8) == load64(b + n - 8);
  }
  if (n >= 4) return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
#else
  return std::memcmp(a, b, n) == 0;
#endif
}
GCSCOPE_TEXT_INLINE bool starts_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && same_bytes(s.data(), p.data(), p.size());
}
GCSCOPE_TEXT_INLINE bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && same_bytes(s.data() + s.size() - p.size(), p.data(), p.size());
}
// s == lit, with the same inline compare.
GCSCOPE_TEXT_INLINE bool equals(std::string_view s, std::string_view lit) {
  return s.size() == lit.size() && same_bytes(s.data(), lit.data(), lit.size());
}
GCSCOPE_TEXT_INLINE bool contains(std::string_view s, std::string_view p) {
  return s.find(p) != std::string_view::npos;
}
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

GCSCOPE_TEXT_INLINE std::string_view trim_left(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && is_space(s[i])) ++i;
  return s.substr(i);
}
GCSCOPE_TEXT_INLINE std::string_view trim_right(std::string_view s) {
  size_t n = s.size();
  while (n > 0 && is_space(s[n - 1])) --n;
  return s.substr(0, n);
}
GCSCOPE_TEXT_INLINE std::string_view trim(std::string_view s) { return trim_right(trim_left(s)); }
GCSCOPE_TEXT_INLINE size_t skip_ws(std::string_view s, size_t p) {
  while (p < s.size() && is_space(s[p])) ++p;
  return p;
}

// Parses an unsigned decimal at s[p...]; advances p. Returns false when no digit is there.
inline bool parse_u64(std::string_view s, size_t& p, uint64_t& out) {
  size_t start = p;
  uint64_t v = 0;
  while (p < s.size() && is_digit(s[p])) v = v * 10 + static_cast<uint64_t>(s[p++] - '0');
  out = v;
  return p > start;
}

// Parses a plain decimal number "123", "-4.56", "0,0354890" (legacy JVM logs in some locales use a
// comma) — the fast path for the numbers logs print; no exponent handling needed there.
inline bool parse_decimal(std::string_view s, size_t& p, double& out, bool allow_comma = false) {
  size_t start = p;
  bool neg = false;
  if (p < s.size() && (s[p] == '-' || s[p] == '+')) neg = s[p++] == '-';
  uint64_t ip = 0;
  size_t digits = 0;
  while (p < s.size() && is_digit(s[p])) {
    ip = ip * 10 + static_cast<uint64_t>(s[p++] - '0');
    ++digits;
  }
  double v = static_cast<double>(ip);
  if (p + 1 < s.size() && (s[p] == '.' || (allow_comma && s[p] == ',')) && is_digit(s[p + 1])) {
    ++p;
    uint64_t f = 0, div = 1;
    int fd = 0;
    while (p < s.size() && is_digit(s[p])) {
      if (fd < 18) {
        f = f * 10 + static_cast<uint64_t>(s[p] - '0');
        div *= 10;
        ++fd;
      }
      ++p;
      ++digits;
    }
    v += static_cast<double>(f) / static_cast<double>(div);
  }
  if (digits == 0) {
    p = start;
    return false;
  }
  out = neg ? -v : v;
  return true;
}

}  // namespace gcscope::text
