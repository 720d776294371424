// The number scanners both JVM parsers share (jvm/log_text.h), which get tuned for speed: read_digits must
// give what the definition gives (the reference below: v = v * 10 + digit per digit, modulo 2^64) for every
// run length, at every distance from the end of the text, and stop at every kind of byte next to the digit
// range ('/' and ':' are '0' - 1 and '9' + 1; 0x80+ bytes wrap when '0' is subtracted). (An eight-bytes-per-
// step version, checked by this test, measured no faster natively or in V8 on the benchmark log.)
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>

#include "jvm/log_text.h"

using namespace gcscope::jvm;

namespace {
const char* reference_digits(const char* d, const char* end, uint64_t& v, int& count) {
  while (d < end && *d >= '0' && *d <= '9') {
    v = v * 10 + static_cast<uint64_t>(*d - '0');
    ++d;
    ++count;
  }
  return d;
}
}  // namespace

TEST_CASE("jvm log_text: read_digits matches a digit-by-digit loop for every length and stop byte", "[jvm][log_text]") {
  const char stops[] = {'/', ':', '.', 'K', ' ', '\0', static_cast<char>(0x80), static_cast<char>(0xB9), '0' - 2};
  const std::string digits = "98765432109876543210987654321";  // 29 digits: past 2^64, which wraps in both
  for (size_t len = 0; len <= digits.size(); ++len) {
    for (char stop : stops) {
      for (size_t tail = 0; tail <= 10; ++tail) {  // bytes after the stop byte: 8-byte steps vs the last bytes
        for (int with_stop = 0; with_stop < 2; ++with_stop) {
          std::string text = "x" + digits.substr(0, len);
          if (with_stop) text += stop;
          text += std::string(tail, '7');
          const char* b = text.data() + 1;
          const char* e = text.data() + text.size();
          uint64_t v1 = 42, v2 = 42;  // a value carried in, as log_decimal does for the fraction
          int c1 = 3, c2 = 3;
          const char* r1 = log_text::read_digits(b, e, v1, c1);
          const char* r2 = reference_digits(b, e, v2, c2);
          INFO("len " << len << " stop " << int(stop) << " tail " << tail << " with_stop " << with_stop);
          REQUIRE(r1 == r2);
          REQUIRE(v1 == v2);
          REQUIRE(c1 == c2);
        }
      }
    }
  }
}

TEST_CASE("jvm log_text: decimals and sizes of GC log lines", "[jvm][log_text]") {
  struct Dec {
    const char* text;
    double value;  // the correctly rounded double of the literal
    size_t end;
  };
  const Dec decs[] = {{"0.0282030 secs]", 0.0282030, 9},
                      {"4.942: [GC", 4.942, 5},
                      {"1207,770 ms", 1207.770, 8},
                      {"11499.878210", 11499.878210, 12},
                      {"0.08 sys=0.01,", 0.08, 4},
                      {"123456.123456789x", 123456.123456789, 16},
                      {"7.", 7.0, 1},
                      {"3.5", 3.5, 3}};
  for (const Dec& d : decs) {
    size_t p = 0;
    double v = -1;
    INFO(d.text);
    REQUIRE(log_text::log_decimal(d.text, p, v));
    CHECK(v == d.value);
    CHECK(p == d.end);
  }
  size_t p = 0;
  double v;
  CHECK_FALSE(log_text::log_decimal("secs", p, v));

  struct Size {
    const char* text;
    int64_t kb;
    size_t end;
  };
  const Size sizes[] = {{"209792K->7385K(235968K)", 209792, 7},
                        {"1546688K)", 1546688, 8},
                        {"12.5M", 12800, 5},
                        {"0.0B(20.0M)", 0, 4},
                        {"135282 K", 135282, 8},
                        {"6MB", 6144, 3},
                        {"1G", 1048576, 2}};
  for (const Size& s : sizes) {
    size_t q = 0;
    int64_t kb = -2;
    INFO(s.text);
    REQUIRE(log_text::parse_size_kb(s.text, q, kb));
    CHECK(kb == s.kb);
    CHECK(q == s.end);
  }
}

TEST_CASE("jvm log_text: a size no heap can hold is not a size (fuzz find: 1.9e22 KiB cast to int64)",
          "[jvm][log_text]") {
  // The CI fuzz smoke fed "...T" sizes of ~10^22 KiB: the double-to-int64 conversion was undefined.
  size_t q = 0;
  int64_t kb = -2;
  CHECK_FALSE(log_text::parse_size_kb("17387000000000.5T", q, kb));
  CHECK(q == 0);
  CHECK(kb == -2);
  // The largest sizes a log can print still parse: 8 TiB = 8,589,934,592 KiB (hand count: 8 x 1024^3).
  CHECK(log_text::parse_size_kb("8T", q, kb));
  CHECK(kb == 8589934592LL);
}
