// Per-line samples next to the source (--method, --file), against the real stackprof 0.2.21 CLI run
// while the profiled program was on disk: fixtures/stackprof/source_lines.rb profiles itself into
// source-lines.dump and keeps the CLI's reports next to it. Our reports read the same file (matched
// by path suffix, as the page does: the dump holds the absolute path of the generating machine).
#include <catch2/catch.hpp>

#include <algorithm>

#include "stackprof/profile.h"
#include "stackprof/reports.h"
#include "support.h"

using namespace gcscope::stackprof;
using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()

namespace {

Profile load_fixture() {
  std::string bytes = read_file(fixture("stackprof/source-lines.dump"));
  DumpLoader loader;
  for (size_t off = 0; off < bytes.size(); off += 1000)
    loader.feed(bytes.data() + off, std::min<size_t>(1000, bytes.size() - off));
  Profile p;
  std::vector<Problem> problems;
  REQUIRE(loader.finish(p, problems));
  return p;
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t nl = s.find('\n', pos);
    size_t end = nl == std::string::npos ? s.size() : nl + 1;
    out.push_back(s.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

// The source file of the fixture for any path ending in /source_lines.rb.
bool fixture_source(const std::string& file, std::vector<std::string>& lines) {
  const std::string suffix = "/source_lines.rb";
  if (file.size() < suffix.size() || file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
    return false;
  lines = lines_of(read_file(fixture("stackprof/source_lines.rb")));
  return true;
}

}  // namespace

TEST_CASE("stackprof: --method shows the source with stackprof's per-line samples", "[stackprof]") {
  Profile p = load_fixture();
  for (auto [golden_name, name] : {std::pair{"format_row", "Report#format_row"},
                                   {"render", "Report#render"},
                                   {"build_rows", "Object#build_rows"}}) {
    INFO(name);
    std::string golden = read_file(fixture(std::string("stackprof/source-lines.method-") + golden_name + ".txt"));
    std::string ours, err;
    Out out(&ours);
    REQUIRE(print_method(p, out, std::string("\\A") + name + "\\z", fixture_source, err));
    out.flush();
    // The code part (source lines and their counts) byte for byte; callers/callees with equal
    // weights come in Ruby's unstable sort order, so the whole report is compared as a multiset.
    size_t code_ours = ours.find("  code:\n"), code_golden = golden.find("  code:\n");
    REQUIRE(code_ours != std::string::npos);
    REQUIRE(code_golden != std::string::npos);
    CHECK(ours.substr(code_ours) == golden.substr(code_golden));
    auto a = lines_of(ours), b = lines_of(golden);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);
  }
  // A line the golden shows (Report#format_row, line 22): 792 samples on the stack, none self.
  std::string s, err;
  Out out(&s);
  REQUIRE(print_method(p, out, "\\AReport#format_row\\z", fixture_source, err));
  out.flush();
  CHECK(s.find("  792  (133.1%)                   |    22  |     cells = row[:values].map { |v| v.to_s.rjust(6) }\n") !=
        std::string::npos);
}

TEST_CASE("stackprof: --file prints the whole file annotated, byte for byte", "[stackprof]") {
  Profile p = load_fixture();
  std::string ours;
  Out out(&ours);
  print_file(p, out, "source_lines.rb", fixture_source);
  out.flush();
  CHECK(ours == read_file(fixture("stackprof/source-lines.file.txt")));
  // No file matches: nothing printed (stackprof prints nothing either).
  std::string none;
  Out out2(&none);
  print_file(p, out2, "no_such_file.rb", fixture_source);
  out2.flush();
  CHECK(none.empty());
  // The file matches but its source is not on disk: SOURCE UNAVAILABLE, as source_display rescues.
  std::string missing;
  Out out3(&missing);
  print_file(p, out3, "source_lines.rb", nullptr);
  out3.flush();
  CHECK(missing == "        SOURCE UNAVAILABLE\n");
}

TEST_CASE("stackprof: String#dump quoting of --flamegraph (checked against ruby -e 'puts s.dump')", "[stackprof]") {
  // ruby 3.1: "é\x01\#{x}\#@x\#$y #a\u{1F600}\x7f\e\v".dump, "\xff".dump
  CHECK(ruby_dump("\xc3\xa9\x01#{x}#@x#$y #a\xf0\x9f\x98\x80\x7f\x1b\x0b") ==
        "\"\\u00E9\\x01\\#{x}\\#@x\\#$y #a\\u{1F600}\\x7F\\e\\v\"");
  CHECK(ruby_dump("\xff") == "\"\\xFF\"");
  CHECK(ruby_dump("block in <main>") == "\"block in <main>\"");
  CHECK(ruby_dump("a\"b\\c\n") == "\"a\\\"b\\\\c\\n\"");
}
