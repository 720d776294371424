// The tracing tables (tracing/tables.cpp, docs/TABLES.md) of real corpus captures and of a printf
// stream built here, against counts read off the files by hand (in the comments) or recomputed
// from the file's own text.
#include <catch2/catch.hpp>

#include "support.h"

using namespace gcscope::test;
using nlohmann::json;

namespace {
// The rows of one table of an input set made of `path`, as the query protocol returns them.
json table_rows(const std::vector<NamedBytes>& files, const std::string& table, json options = json::object()) {
  gcscope::InputSet set(options);
  for (const auto& f : files) {
    set.begin_file(f.path);
    set.feed(reinterpret_cast<const uint8_t*>(f.bytes.data()), f.bytes.size());
    set.end_file();
  }
  set.finish();
  return set.query("table.rows", {{"name", table}, {"limit", 100000}});
}
json file_rows(const std::string& path, const std::string& table) {
  return table_rows({{path, read_file(path)}}, table);
}

// Cell `column` of row `r`.
const json& cell(const json& t, size_t r, const std::string& column) {
  for (size_t c = 0; c < t["columns"].size(); ++c)
    if (t["columns"][c]["name"] == column) return t["rows"][r][c];
  throw std::runtime_error("no column " + column);
}
}  // namespace

TEST_CASE("tracing tables: maps of bpftrace's count/sum/min/max/avg/stats (det_aggs.txt)",
          "[tracing][tables][corpus]") {
  // det_aggs.txt prints @avg[y] -7, @avg[x] 12, @c[y] 1, @c[x] 2, @max[x] 9, @min[x] 2,
  // @stats[x] count 2 average 6 total 12, @stats[y] 1/7/7, @sum[x] 7: 9 entries.
  std::string path = corpus("trace/bpftrace-0.17-det/det_aggs.txt");
  json t = file_rows(path, "maps");
  REQUIRE(t["total"] == 9);
  CHECK(cell(t, 0, "input") == path);
  CHECK(cell(t, 0, "map") == "@avg");
  CHECK(cell(t, 0, "key") == "y");
  CHECK(cell(t, 0, "value") == -7);
  CHECK(cell(t, 3, "map") == "@c");
  CHECK(cell(t, 3, "value") == 2);
  bool saw_stats_x = false;
  for (size_t r = 0; r < t["rows"].size(); ++r)
    if (cell(t, r, "map") == "@stats" && cell(t, r, "key") == "x") {
      saw_stats_x = true;
      CHECK(cell(t, r, "kind") == "stats");
      CHECK(cell(t, r, "value").is_null());
      CHECK(cell(t, r, "count") == 2);
      CHECK(cell(t, r, "average") == 6);
      CHECK(cell(t, r, "total") == 12);
    }
  CHECK(saw_stats_x);
  CHECK(file_rows(path, "histogram_bins")["total"] == 0);
  CHECK(file_rows(path, "events")["total"] == 0);
}

TEST_CASE("tracing tables: histogram bins as printed, text and JSON alike (det_hist_keyed)",
          "[tracing][tables][corpus]") {
  // @[bpftrace]: [2, 4) 1; @[curl]: (..., 0) 1, [0] 1, [1] 0, [2, 4) ... [512, 1K) 0 except
  // [256, 512) 1, [1K, 2K) 2: 1 + 13 buckets.
  for (const char* rel :
       {"trace/bpftrace-0.17-det/det_hist_keyed.txt", "trace/bpftrace-0.17-det/det_hist_keyed.ndjson"}) {
    INFO(rel);
    json t = file_rows(corpus(rel), "histogram_bins");
    REQUIRE(t["total"] == 14);
    CHECK(cell(t, 0, "key") == "bpftrace");
    CHECK(cell(t, 0, "lo") == 2);
    CHECK(cell(t, 0, "hi") == 3);  // inclusive
    CHECK(cell(t, 0, "count") == 1);
    CHECK(cell(t, 1, "key") == "curl");
    CHECK(cell(t, 1, "bin") == 0);
    CHECK(cell(t, 1, "lo").is_null());  // (..., 0): unbounded below
    CHECK(cell(t, 1, "hi") == -1);
    CHECK(cell(t, 2, "lo") == 0);
    CHECK(cell(t, 2, "hi") == 0);
    CHECK(cell(t, 13, "lo") == 1024);
    CHECK(cell(t, 13, "hi") == 2047);
    CHECK(cell(t, 13, "count") == 2);
    json maps = file_rows(corpus(rel), "maps");
    REQUIRE(maps["total"] == 2);
    CHECK(cell(maps, 1, "kind") == "hist");
    CHECK(cell(maps, 1, "count") == 5);
  }
}

TEST_CASE("tracing tables: stacks of folded perf script output, weights as in the file", "[tracing][tables]") {
  // Recompute from the folded text itself: each line is "stack count"; identical stacks sum.
  std::string path = fixture("tracing/perf-script-ruby.folded.txt");
  std::map<std::string, double> expected;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    size_t sp = line.rfind(' ');
    expected[line.substr(0, sp)] += std::stod(line.substr(sp + 1));
  }
  json t = file_rows(path, "stacks");
  REQUIRE(t["total"] == expected.size());
  for (size_t r = 0; r < t["rows"].size(); ++r) {
    std::string folded = cell(t, r, "folded");
    INFO(folded);
    REQUIRE(expected.count(folded));
    CHECK(cell(t, r, "weight") == expected[folded]);
    CHECK(cell(t, r, "stack_id") == r);
    CHECK(cell(t, r, "root") == folded.substr(0, folded.find(';')));
    CHECK(cell(t, r, "leaf") == folded.substr(folded.rfind(';') + 1));
    CHECK(cell(t, r, "depth") == std::count(folded.begin(), folded.end(), ';') + 1);
  }
}

TEST_CASE("tracing tables: a printf event stream is one row per event, times on the capture's clock",
          "[tracing][tables]") {
  // bpftrace printf("%llu %s %llu\n", nsecs, probe, latency): 3 index events at 1.5 s, 2.5 s and
  // 3.25 s of the traced machine's uptime.
  std::string text =
      "Attaching 1 probe...\n"
      "1500000000 usdt:my_controller:index 1200\n"
      "2500000000 usdt:my_controller:index 3400\n"
      "3250000000 usdt:my_controller:index 56000\n";
  json t = table_rows({{"stream.txt", text}}, "events");
  REQUIRE(t["total"] == 3);
  CHECK(cell(t, 0, "input") == "stream.txt");
  CHECK(cell(t, 0, "probe") == "usdt:my_controller:index");
  CHECK(cell(t, 2, "value") == 56000);
  CHECK(cell(t, 1, "t_s") == 2.5);
  CHECK(cell(t, 0, "ts").is_null());  // uptime stamps, no boot time given
  // With the boot's wall-clock time, 2024-05-01T12:00:00Z, the events have absolute times.
  json timed = table_rows({{"stream.txt", text}}, "events", {{"boot_epoch_s", 1714564800}});
  CHECK(cell(timed, 0, "ts") == "2024-05-01T12:00:01.500Z");
  CHECK(cell(timed, 2, "ts") == "2024-05-01T12:00:03.250Z");
  // Unix-epoch nanoseconds (bpftrace's nsecs(sw_tai), or a printed walltime) are absolute already.
  json epoch = table_rows({{"epoch.txt", "Attaching 1 probe...\n1714564800250000000 usdt:p:q 7\n"}}, "events");
  CHECK(cell(epoch, 0, "ts") == "2024-05-01T12:00:00.250Z");
}
