// The byte scanners of core/byte_find.h (and, in the wasm build with SIMD, the program's memchr and
// memcmp from core/wasm_string_ops.cpp) against a plain byte loop, at every start alignment and length around the
// 8- and 16-byte steps, and the line splitter on lines longer than one step cut at every chunk size.
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "core/byte_find.h"
#include "core/line_splitter.h"

namespace {
const char* naive_find(const char* p, const char* end, const std::string& set) {
  for (; p < end; ++p)
    if (set.find(*p) != std::string::npos) return p;
  return nullptr;
}
}  // namespace

TEST_CASE("byte_find: find_byte, find_any and memchr agree with a byte loop at every offset and length") {
  // 80 bytes of filler with the searched bytes (and a high byte, 0xFF) at known places.
  std::string buf(80, 'x');
  buf[3] = '\n';
  buf[20] = '[';
  buf[37] = '\n';
  buf[38] = ']';
  buf[50] = '\xff';
  buf[63] = '{';
  buf[79] = '\n';
  const char* b = buf.data();
  int checked = 0;
  for (size_t start = 0; start <= buf.size(); ++start) {
    for (size_t len = 0; start + len <= buf.size(); ++len) {
      const char* p = b + start;
      const char* e = p + len;
      INFO("start " << start << " len " << len);
      REQUIRE(gcscope::bytes::find_byte(p, e, '\n') == naive_find(p, e, "\n"));
      REQUIRE(gcscope::bytes::find_byte(p, e, '\xff') == naive_find(p, e, "\xff"));
      REQUIRE((gcscope::bytes::find_any<'[', ']'>(p, e)) == naive_find(p, e, "[]"));
      REQUIRE((gcscope::bytes::find_any<'[', ']', '{', '\n'>(p, e)) == naive_find(p, e, "[]{\n"));
      REQUIRE(std::memchr(p, '\n', len) == naive_find(p, e, "\n"));
      REQUIRE(std::memchr(p, 0xff, len) == naive_find(p, e, "\xff"));
      ++checked;
    }
  }
  CHECK(checked == 81 * 82 / 2);
  // Hand-checked anchors: the first '\n' from 0 is byte 3, from 4 byte 37; nothing after byte 79.
  CHECK(gcscope::bytes::find_byte(b, b + 80, '\n') == b + 3);
  CHECK(gcscope::bytes::find_byte(b + 4, b + 80, '\n') == b + 37);
  CHECK((gcscope::bytes::find_any<']', '{'>(b, b + 80)) == b + 38);
  CHECK(gcscope::bytes::find_byte(b + 80, b + 80, '\n') == nullptr);
}

TEST_CASE("line splitter: lines longer than a 16-byte step come out whole at every chunk size") {
  // Lines of 0, 1, 15, 16, 17, 31, 33 and 100 bytes (hand-chosen around the scan steps), one CRLF.
  const std::vector<size_t> lengths = {0, 1, 15, 16, 17, 31, 33, 100};
  std::string input;
  std::vector<std::string> expected;
  for (size_t i = 0; i < lengths.size(); ++i) {
    std::string line(lengths[i], static_cast<char>('a' + i));
    expected.push_back(line);
    input += line;
    input += i == 4 ? "\r\n" : "\n";
  }
  REQUIRE(input.size() == 213 + 8 + 1);
  for (size_t chunk : {size_t(1), size_t(2), size_t(7), size_t(15), size_t(16), size_t(17), size_t(63), input.size()}) {
    INFO("chunk size " << chunk);
    gcscope::LineSplitter s;
    std::vector<std::string> got;
    std::vector<uint64_t> offsets;
    auto on = [&](std::string_view l, uint64_t n, uint64_t off) {
      CHECK(n == got.size() + 1);
      got.emplace_back(l);
      offsets.push_back(off);
    };
    for (size_t i = 0; i < input.size(); i += chunk) s.feed(input.data() + i, std::min(chunk, input.size() - i), on);
    s.finish(on);
    CHECK(got == expected);
    // Offsets: each line starts after the previous one and its newline (the CRLF line is one byte longer).
    REQUIRE(offsets.size() == 8);
    CHECK(offsets[5] == 1 + 2 + 16 + 17 + 19);  // 55
    CHECK(offsets[7] == offsets[6] + 34);
  }
}

TEST_CASE("memcmp: sign and zero agree with a byte loop at every offset, length and differing byte") {
  // Two 40-byte buffers equal but for one byte (set in turn at every position, both ways, including
  // bytes >= 0x80, which memcmp compares as unsigned char): covers the 8-byte steps and the tail.
  auto naive = [](const unsigned char* a, const unsigned char* b, size_t n) {
    for (size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  };
  auto sign = [](int v) { return (v > 0) - (v < 0); };
  unsigned char a[40], b[40];
  for (int i = 0; i < 40; ++i) a[i] = b[i] = static_cast<unsigned char>('a' + i % 26);
  int checked = 0;
  for (size_t diff = 0; diff <= 40; ++diff) {
    for (unsigned char v :
         {static_cast<unsigned char>(0x00), static_cast<unsigned char>(0x7a), static_cast<unsigned char>(0xff)}) {
      unsigned char x[40], y[40];
      std::memcpy(x, a, 40);
      std::memcpy(y, b, 40);
      if (diff < 40) y[diff] = v;
      for (size_t start = 0; start < 9; ++start)
        for (size_t len = 0; start + len <= 40; ++len) {
          INFO("diff " << diff << " value " << int(v) << " start " << start << " len " << len);
          REQUIRE(sign(std::memcmp(x + start, y + start, len)) == naive(x + start, y + start, len));
          REQUIRE(sign(std::memcmp(y + start, x + start, len)) == naive(y + start, x + start, len));
          ++checked;
        }
    }
  }
  // Hand-checked anchors: 'b' - 'a' in the 9th byte (second word) is positive; 0xff sorts after 'a'.
  CHECK(std::memcmp("abcdefghb", "abcdefgha", 9) > 0);
  CHECK(std::memcmp("a\xff", "aa", 2) > 0);
  CHECK(checked > 10000);
}
