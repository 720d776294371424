#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/line_splitter.h"

using gcscope::LineSplitter;

namespace {
struct Line {
  std::string text;
  uint64_t number, offset;
  bool operator==(const Line& o) const { return text == o.text && number == o.number && offset == o.offset; }
};

std::vector<Line> split(const std::string& input, size_t chunk) {
  LineSplitter s;
  std::vector<Line> out;
  auto on = [&](std::string_view l, uint64_t n, uint64_t off) { out.push_back({std::string(l), n, off}); };
  for (size_t i = 0; i < input.size(); i += chunk) s.feed(input.data() + i, std::min(chunk, input.size() - i), on);
  s.finish(on);
  return out;
}
}  // namespace

TEST_CASE("line splitter yields the same lines, numbers and offsets at every chunk size") {
  // Hand-written expectation: 5 lines, CRLF stripped, empty line kept, no final newline.
  const std::string input = "alpha\r\nbeta\n\ngamma delta\nlast-without-newline";
  const std::vector<Line> expected = {
      {"alpha", 1, 0}, {"beta", 2, 7}, {"", 3, 12}, {"gamma delta", 4, 13}, {"last-without-newline", 5, 25}};
  for (size_t chunk = 1; chunk <= input.size(); ++chunk) {
    INFO("chunk size " << chunk);
    CHECK(split(input, chunk) == expected);
  }
}

TEST_CASE("line splitter counts bytes including a partial last line") {
  LineSplitter s;
  int n = 0;
  auto on = [&](std::string_view, uint64_t, uint64_t) { ++n; };
  s.feed("ab\ncd", 5, on);
  CHECK(n == 1);
  CHECK(s.has_partial_line());
  CHECK(s.bytes() == 5);
  s.finish(on);
  CHECK(n == 2);
}
