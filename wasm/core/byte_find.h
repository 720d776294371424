// Byte search for the line scanners: the first occurrence of one byte (find_byte) or of any of two to
// four bytes (find_any) in [p, end).
//
// Why not just memchr: natively glibc's memchr is vectorized and find_byte uses it, but in WebAssembly
// musl's memchr is a loop over 4-byte words (size_t is 32 bits in wasm32), slow on the parsers' every
// line. With -msimd128 these scan 16 bytes per step (compare, then bitmask to find the
// first hit, which V8 compiles to pcmpeqb/pmovmskb); without SIMD, wasm scans 8 bytes per step with the
// SWAR zero-byte test. find_any replaces several memchr cursors over the same text (one per byte) by one
// pass; natively it uses SSE2 (the x86-64 baseline) and a plain loop elsewhere.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gcscope::bytes {

namespace detail {
// SWAR: a word with 0x80 set in each byte of x that is zero (no false positives below the first zero byte,
// so the lowest set bit is exact; little-endian: the lowest bit is the first byte).
inline uint64_t zero_bytes(uint64_t x) { return (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL; }
inline uint64_t load64(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
inline uint64_t splat64(char c) { return 0x0101010101010101ULL * static_cast<unsigned char>(c); }

template <char C, char... Rest>
inline bool is_one_of(char c) {
  if constexpr (sizeof...(Rest) == 0) return c == C;
  else return c == C || is_one_of<Rest...>(c);
}
}  // namespace detail

// The first `c` in [p, end), or nullptr.
inline const char* find_byte(const char* p, const char* end, char c) {
#if defined(__wasm_simd128__)
  const v128_t needle = wasm_i8x16_splat(c);
  while (end - p >= 16) {
    const uint32_t hits = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(p), needle));
    if (hits) return p + __builtin_ctz(hits);
    p += 16;
  }
  for (; p < end; ++p)
    if (*p == c) return p;
  return nullptr;
#elif defined(__wasm__)
  const uint64_t pattern = detail::splat64(c);
  while (end - p >= 8) {
    const uint64_t hits = detail::zero_bytes(detail::load64(p) ^ pattern);
    if (hits) return p + (__builtin_ctzll(hits) >> 3);
    p += 8;
  }
  for (; p < end; ++p)
    if (*p == c) return p;
  return nullptr;
#else
  if (p >= end) return nullptr;
  return static_cast<const char*>(std::memchr(p, c, static_cast<size_t>(end - p)));
#endif
}

// The first byte of [p, end) that is one of Cs (two to four bytes), or nullptr.
template <char... Cs>
inline const char* find_any(const char* p, const char* end) {
  static_assert(sizeof...(Cs) >= 1 && sizeof...(Cs) <= 4, "find_any: one to four bytes");
#if defined(__wasm_simd128__)
  while (end - p >= 16) {
    const v128_t block = wasm_v128_load(p);
    v128_t eq = wasm_i8x16_splat(0);
    ((eq = wasm_v128_or(eq, wasm_i8x16_eq(block, wasm_i8x16_splat(Cs)))), ...);
    const uint32_t hits = wasm_i8x16_bitmask(eq);
    if (hits) return p + __builtin_ctz(hits);
    p += 16;
  }
#elif defined(__wasm__)
  while (end - p >= 8) {
    const uint64_t w = detail::load64(p);
    uint64_t hits = 0;
    ((hits |= detail::zero_bytes(w ^ detail::splat64(Cs))), ...);
    if (hits) return p + (__builtin_ctzll(hits) >> 3);
    p += 8;
  }
#elif defined(__SSE2__)
  while (end - p >= 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i eq = _mm_setzero_si128();
    ((eq = _mm_or_si128(eq, _mm_cmpeq_epi8(block, _mm_set1_epi8(Cs)))), ...);
    const unsigned hits = static_cast<unsigned>(_mm_movemask_epi8(eq));
    if (hits) return p + __builtin_ctz(hits);
    p += 16;
  }
#endif
  for (; p < end; ++p)
    if (detail::is_one_of<Cs...>(*p)) return p;
  return nullptr;
}

}  // namespace gcscope::bytes
