// The tracing tables (tracing/tables.cpp, docs/TABLES.md) of real corpus captures and of a printf
// stream built here, against counts read off the files by hand (in the comments) or recomputed
// from the file's own text.
#include <catch2/catch.hpp>

#include "support.h"
#include "tracing/trace_model.h"

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

TEST_CASE("tracing tables: a stream stamped by strftime() is on wall-clock time, text and JSON alike",
          "[tracing][tables][timeline]") {
  // fixtures/tracing/bpftrace-strftime-dd.txt (make_bpftrace_strftime.sh): 35 read_ns and 35 write_ns
  // lines (grep -c), the first "2026-11-28T11:04:44.167015+0000 read_ns 7821", the last
  // "2026-11-28T11:04:44.170106+0000 write_ns 527"; GNU date gives their Unix-epoch nanoseconds:
  // `date -d 2026-11-28T11:04:44.167015+0000 +%s%N` = 1795863884167015000, the last 1795863884170106000.
  json t = file_rows(fixture("tracing/bpftrace-strftime-dd.txt"), "events");
  REQUIRE(t["total"] == 70);
  CHECK(cell(t, 0, "probe") == "read_ns");
  CHECK(cell(t, 0, "value") == 7821);
  CHECK(cell(t, 0, "ts") == "2026-11-28T11:04:44.167015Z");
  CHECK(cell(t, 69, "ts") == "2026-11-28T11:04:44.170106Z");
  gcscope::InputSet set;
  const std::string text = read_file(fixture("tracing/bpftrace-strftime-dd.txt"));
  set.begin_file("dd.txt");
  set.feed(reinterpret_cast<const uint8_t*>(text.data()), text.size());
  set.end_file();
  set.finish();
  json line = set.query("timeline.series", json::object());
  CHECK(line["clock"] == "epoch");
  CHECK(line["t0"].get<double>() == Approx(1795863884.167015).epsilon(1e-15));
  CHECK(line["t1"].get<double>() == Approx(1795863884.170106).epsilon(1e-15));
  // The JSON twin (another run of the same script): 35 and 35 printf events, the first at
  // 2026-11-28T11:04:44.622273+0000.
  json j = file_rows(fixture("tracing/bpftrace-strftime-dd.ndjson"), "events");
  REQUIRE(j["total"] == 70);
  CHECK(cell(j, 0, "ts") == "2026-11-28T11:04:44.622273Z");
  CHECK(cell(j, 0, "value") == 7202);
}

TEST_CASE("tracing: ISO 8601 date-times as strftime() prints them, within nanoseconds since 1970", "[tracing]") {
  // The parsing itself is core/iso_datetime.h's (tests/core/test_iso_datetime.cpp); here, the range an
  // unsigned count of epoch nanoseconds holds.
  uint64_t ns = 0;
  // GNU date: date -u -d "2026-11-28T11:04:44.167015+0000" +%s%N
  CHECK(gcscope::tracing::iso_datetime_ns("2026-11-28T11:04:44.167015+0000 read_ns 1", ns) == 31);
  CHECK(ns == 1795863884167015000ull);
  // before 1970, past 2262 (2^63 ns), and 1970-01-01T00:00 at +01:00 (an hour before the epoch)
  for (const char* out : {"1969-12-31T23:59:59", "9999-12-31T23:59:59", "1970-01-01T00:00:00+01:00"})
    CHECK(gcscope::tracing::iso_datetime_ns(out, ns) == 0);
}
