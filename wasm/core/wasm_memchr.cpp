// memchr for the WebAssembly build with SIMD (-msimd128): 16 bytes per step.
//
// Why: every std::string_view::find in libc++ looks for its first byte with memchr, and the scanners
// call it directly; emscripten links musl's memchr, a loop over 4-byte words (size_t is 32 bits in
// wasm32), which was ~21 % of the legacy JVM parser's time in V8. A definition in the program takes
// precedence over the libc archive member (the linker only pulls memchr.o from libc.a for a symbol
// nobody else defines), so all of the core's finds use this one. Natively, and in a wasm build without
// SIMD, nothing is defined here and the C library's memchr is used.
#if defined(__wasm_simd128__)
#include <stddef.h>
#include <stdint.h>
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
#endif
