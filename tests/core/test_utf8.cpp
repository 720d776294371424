// core/utf8.h and core/civil_date.h on hand-written inputs. UTF-8: each byte that does not start a
// well-formed RFC 3629 sequence is one U+FFFD, so an invalid sequence of n bytes counts n (its
// continuation bytes do not start sequences either). Dates: day counts from Python's datetime.date.
#include <catch2/catch.hpp>
#include <string>

#include "core/civil_date.h"
#include "core/utf8.h"

namespace {
const std::string R = "\xEF\xBF\xBD";  // U+FFFD

struct Case {
  const char* what;
  std::string in;
  size_t replaced;
  std::string out;
};
}  // namespace

TEST_CASE("utf8: well-formed sequences are kept, each byte of an ill-formed one becomes U+FFFD") {
  const Case cases[] = {
      {"ASCII", "abc", 0, "abc"},
      {"empty", "", 0, ""},
      {"U+00E9 (2 bytes)", "\xC3\xA9", 0, "\xC3\xA9"},
      {"U+20AC (3 bytes)", "\xE2\x82\xAC", 0, "\xE2\x82\xAC"},
      {"U+D7FF, last before the surrogates", "\xED\x9F\xBF", 0, "\xED\x9F\xBF"},
      {"U+E000, first after the surrogates", "\xEE\x80\x80", 0, "\xEE\x80\x80"},
      {"U+1F600 (4 bytes)", "\xF0\x9F\x98\x80", 0, "\xF0\x9F\x98\x80"},
      {"U+10FFFF, the last code point", "\xF4\x8F\xBF\xBF", 0, "\xF4\x8F\xBF\xBF"},
      {"overlong '/' in 2 bytes", "\xC0\xAF", 2, R + R},
      {"overlong NUL in 2 bytes", "a\xC1\x80z", 2, "a" + R + R + "z"},
      {"overlong '/' in 3 bytes", "\xE0\x80\xAF", 3, R + R + R},
      {"overlong U+07FF in 3 bytes", "\xE0\x9F\xBF", 3, R + R + R},
      {"overlong '/' in 4 bytes", "\xF0\x80\x80\xAF", 4, R + R + R + R},
      {"surrogate U+D800", "\xED\xA0\x80", 3, R + R + R},
      {"surrogate U+DFFF between letters", "x\xED\xBF\xBFy", 3, "x" + R + R + R + "y"},
      {"U+110000, past the last code point", "\xF4\x90\x80\x80", 4, R + R + R + R},
      {"lead byte F5", "\xF5\x80\x80\x80", 4, R + R + R + R},
      {"truncated 3-byte sequence at the end", "ab\xE2\x82", 2, "ab" + R + R},
      {"truncated 3-byte sequence before ASCII",
       "a\xE2\x82"
       "b",
       2, "a" + R + R + "b"},
      {"truncated 4-byte sequence at the end", "\xF0\x9F\x98", 3, R + R + R},
      {"lone continuation byte", "\x80", 1, R},
      {"byte FF", "\xFF", 1, R},
      {"a valid sequence after an invalid byte", "\xFF\xC3\xA9", 1, R + "\xC3\xA9"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    std::string out = "left over";
    CHECK(gcscope::utf8::repair(c.in, out) == c.replaced);
    CHECK(out == c.out);
    CHECK(gcscope::utf8::repaired(c.in) == c.out);
    CHECK(gcscope::utf8::is_valid(c.in) == (c.replaced == 0));
    CHECK(gcscope::utf8::is_valid(out));
  }
}

TEST_CASE("civil_date: day counts since 1970-01-01 both ways") {
  using gcscope::civil::civil_from_days;
  using gcscope::civil::days_from_civil;
  struct Day {
    int64_t y;
    unsigned m, d;
    int64_t days;
  };
  const Day days[] = {{1970, 1, 1, 0},      {1969, 12, 31, -1}, {2000, 3, 1, 11017},    {2024, 2, 29, 19782},
                      {1900, 3, 1, -25508}, {1, 1, 1, -719162}, {9999, 12, 31, 2932896}};
  for (const Day& x : days) {
    CHECK(days_from_civil(x.y, x.m, x.d) == x.days);
    int64_t y;
    unsigned m, d;
    civil_from_days(x.days, y, m, d);
    CHECK(y == x.y);
    CHECK(m == x.m);
    CHECK(d == x.d);
  }
  for (int64_t z = -800000; z <= 3000000; z += 7) {  // every weekday residue over 10,000 years
    int64_t y;
    unsigned m, d;
    civil_from_days(z, y, m, d);
    REQUIRE(days_from_civil(y, m, d) == z);
  }
}
