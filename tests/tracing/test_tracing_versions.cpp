// bpftrace >= 0.24 text forms, taken from the real EXPECT lines of bpftrace's own runtime tests
// (corpus bpftrace-upstream/runtime-head/call.testspec, a recent master): "Attached N probes" (on
// stderr from 0.24; captured with 2>&1) and the stats() value "{ .count = N, .average = N, .total = N }".
#include <catch2/catch.hpp>

#include "support.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()
using nlohmann::json;

TEST_CASE("tracing versions: 0.24+ stats() text form and 'Attached N probes'", "[tracing][corpus]") {
  // call.testspec: NAME stats / PROG @stats = stats(1); stats(2); stats(3) / EXPECT the line below
  std::string spec = read_file(corpus("trace/bpftrace-upstream/runtime-head/call.testspec"));
  const std::string want = "EXPECT @stats: { .count = 3, .average = 2, .total = 6 }";
  size_t at = spec.find(want);
  REQUIRE(at != std::string::npos);
  std::string out = "Attached 1 probe\n" + spec.substr(at + 7, want.size() - 7) + "\n";
  json doc = analyze_bytes({{"stats-0.24.txt", out}});
  REQUIRE(doc["reports"].size() == 1);
  const json& r = doc["reports"][0];
  CHECK(r["format"] == "bpftrace-text");
  CHECK(doc["errors"].empty());
  CHECK(r["attached_probes"] == 1);
  CHECK(r["tool_version"] == ">= 0.24");
  REQUIRE(r["stats"].size() == 1);
  CHECK(r["stats"][0]["name"] == "@stats");
  CHECK(r["stats"][0]["count"] == 3);    // stats(1), stats(2), stats(3)
  CHECK(r["stats"][0]["average"] == 2);  // (1 + 2 + 3) / 3
  CHECK(r["stats"][0]["total"] == 6);
}
