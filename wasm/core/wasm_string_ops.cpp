// memchr and memcmp for the WebAssembly build with SIMD (-msimd128).
//
// Why: emscripten links musl's versions: memchr is a loop over 4-byte words (size_t is 32 bits in
// wasm32), and the JVM parsers search every line with it; memcmp is a loop over single bytes, and LLVM's
// wasm backend never expands a memcmp inline, not even memcmp(p, "[info]", 6): every string_view ==,
// starts_with and std::string comparison of the scanners is a call into that byte loop. A definition in the program
// takes precedence over the libc archive member (the linker only pulls memchr.o/memcmp.o from libc.a for a symbol
// nobody else defines), so all of the core's finds and compares use these. Natively, and in a wasm build without SIMD,
// nothing is defined here and the C library's functions are used.
#if defined(__wasm_simd128__)
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <wasm_simd128.h>

extern "C" void* memchr(const void* src, int c, size_t n) {
  const unsigned char* p = static_cast<const unsigned char*>(src);
  const unsigned char b = static_cast<unsigned char>(c);
  const v128_t needle = wasm_i8x16_splat(static_cast<int8_t>(b));
  while (n >= 16) {
    const uint32_t hits = wasm_i8x16_bitmask(wasm_i8x16_eq(wasm_v128_load(p), needle));
    if (hits) return const_cast<unsigned char*>(p + __builtin_ctz(hits));
    p += 16;
    n -= 16;
  }
  for (; n; --n, ++p)
    if (*p == b) return const_cast<unsigned char*>(p);
  return nullptr;
}

// 8 bytes per step; at the first differing word the first differing byte is the lowest set byte of
// the XOR (wasm is little-endian), and the result is that byte's difference, as memcmp's contract asks.
extern "C" int memcmp(const void* lhs, const void* rhs, size_t n) {
  const unsigned char* a = static_cast<const unsigned char*>(lhs);
  const unsigned char* b = static_cast<const unsigned char*>(rhs);
  while (n >= 8) {
    uint64_t x, y;
    __builtin_memcpy(&x, a, 8);  // a plain i64.load (alignment-free); __builtin_ so it is never a call
    __builtin_memcpy(&y, b, 8);
    if (x != y) {
      const unsigned k = static_cast<unsigned>(__builtin_ctzll(x ^ y)) >> 3;
      return static_cast<int>(a[k]) - static_cast<int>(b[k]);
    }
    a += 8;
    b += 8;
    n -= 8;
  }
  for (; n; --n, ++a, ++b)
    if (*a != *b) return static_cast<int>(*a) - static_cast<int>(*b);
  return 0;
}
#endif
