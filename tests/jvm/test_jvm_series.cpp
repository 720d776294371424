// Per-event and per-pause figures of the JVM session (jvm.events, jvm.summary, jvm.series): exact
// for every event whatever the log's length, with the per-generation/region figures, and robust to
// corrupt figures. Expected values: hand counts of the fixtures' lines written down below, and
// GCToolKit's figures from the corpus manifests.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "jvm_session.h"

using nlohmann::json;

namespace gcscope::test {
namespace {

// Every event of a session, in time order.
json all_events(JvmSession& s) {
  json rows = json::array();
  for (size_t offset = 0;; offset += 1000) {
    const json page = s.ask("jvm.events", {{"offset", offset}, {"limit", 1000}});
    for (const auto& r : page["rows"]) rows.push_back(r);
    if (offset + 1000 >= page["total"].get<size_t>()) break;
  }
  return rows;
}

json event_with_gc_id(const json& rows, int64_t id) {
  for (const auto& r : rows)
    if (r["gc_id"] == id) return r;
  FAIL("no event with GC id " << id);
  return json();
}

}  // namespace

TEST_CASE("jvm events: pauses are exact and add up to the summary", "[jvm][series]") {
  JvmSession s({fixture("jvm/jdk17-g1.log")});
  const json& r = s.report();
  // Hand count of the fixture: 27 "GC(n) Pause … ms" lines, 38.614 ms in total.
  REQUIRE(r["pauses"]["count"] == 27);
  CHECK(r["pauses"]["total_s"] == 0.038614);
  const json rows = all_events(s);
  REQUIRE(rows.size() == 37);
  double paused = 0;
  for (const auto& e : rows) paused += e["paused_s"].get<double>();
  CHECK(paused == Approx(0.038614).margin(1e-12));
  // Line 20: "[0.028s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)",
  // line 33: "... GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->1M(34M) 1.777ms".
  CHECK(rows[0]["t"] == 0.028);
  CHECK(rows[0]["duration_s"] == 0.001777);
  CHECK(rows[0]["type"] == "Young");
  CHECK(rows[0]["cause"] == "G1 Evacuation Pause");
  CHECK(rows[0]["line"] == 20);
  // Line 232: "[0.085s][info][gc,start    ] GC(14) Pause Full (System.gc())", 2.729 ms (line 248); its
  // type is SystemGC (GCToolKit's name), so its pause kind is "Pause SystemGC".
  const json full = event_with_gc_id(rows, 14);
  CHECK(full["t"] == 0.085);
  CHECK(full["type"] == "SystemGC");
  CHECK(full["duration_s"] == 0.002729);
  CHECK(full["cause"] == "System.gc()");
  CHECK(r["pause_kinds"]["Pause SystemGC"] == json{{"count", 1}, {"total_s", 0.002729}, {"max_s", 0.002729}});
  // GC(14) Pause Full, lines 245-249: "Humongous regions: 5->0", "Old regions: 21->9" (1M regions).
  CHECK(full["humongous_before_kb"] == 5 * 1024);
  CHECK(full["humongous_after_kb"] == 0);
  CHECK(full["old_before_kb"] == 21 * 1024);
  CHECK(full["old_after_kb"] == 9 * 1024);
  // Times never go back.
  for (size_t i = 1; i < rows.size(); ++i) CHECK(rows[i]["t"].get<double>() >= rows[i - 1]["t"].get<double>());
}

TEST_CASE("jvm events: young generation per event (legacy ParNew)", "[jvm][series][corpus]") {
  JvmSession s({corpus("jvm/gctoolkit/preunified/cms/parnew/details/GCLog_CMSCollection.log")});
  const json e = s.ask("jvm.events", {{"limit", 1}})["rows"][0];
  // Line 1: "2014-11-29T06:23:55.892+0000: 126.838: [GC 126.838: [ParNew: 5033216K->74618K(5662336K),
  // 0.1352100 secs] 5033216K->74618K(16148096K), 0.1353170 secs]"
  CHECK(e["t"] == 126.838);
  CHECK(e["young_before_kb"] == 5033216);
  CHECK(e["young_after_kb"] == 74618);
  CHECK(e["heap_before_kb"] == 5033216);
  CHECK(e["heap_committed_kb"] == 16148096);
  CHECK(e["duration_s"] == 0.135317);  // the 7 decimals the log prints read back as printed
  CHECK(e["wall_ms"].is_number());
}

TEST_CASE("jvm events: a corrupt region count is not a figure (fuzz find: count x region size overflowed)",
          "[jvm][series]") {
  // fixtures/jvm/jdk17-g1.log with GC(0)'s "Eden regions: 6->0(12)" (line 27) replaced by a count no
  // heap can hold (2^62 + 1: times 1024 KiB it wraps to 1024 in 64 bits); GC(1)'s line 43
  // "Eden regions: 12->0(17)" is left as it is.
  std::string log = read_file(fixture("jvm/jdk17-g1.log"));
  const std::string line27 = "GC(0) Eden regions: 6->0(12)";
  size_t at = log.find(line27);
  REQUIRE(at != std::string::npos);
  log.replace(at, line27.size(), "GC(0) Eden regions: 4611686018427387905->0(12)");
  const std::string path = "corrupt-eden.log";
  InputSet set;
  set.begin_file(path);
  set.feed(reinterpret_cast<const uint8_t*>(log.data()), log.size());
  set.end_file();
  json doc = set.finish();
  json rows = set.query("jvm.events", {{"limit", 100}})["rows"];
  CHECK(event_with_gc_id(rows, 0)["eden_before_kb"].is_null());
  CHECK(event_with_gc_id(rows, 1)["eden_before_kb"] == 12 * 1024);
  CHECK(report_of(doc, "jvm-gc-log")["events"]["total"] == 37);
}

TEST_CASE("jvm events: a stamp past any real uptime is clamped, the figures around it stay exact (fuzz find)",
          "[jvm][series]") {
  // timemillis decorations only: uptime is taken relative to the first line. The second stamp is
  // a corrupt 18-digit value (5.07e17 ms, ~5.07e14 s after the first line): in nanoseconds it has
  // no 64-bit value, so it is kept as 9e9 s; the pauses around it are exact.
  const std::string log =
      "[1795264040013ms][info][gc] GC(0) Pause Young (Allocation Failure) 19M->11M(30M) 0.942ms\n"
      "[507263995264040309ms][info][gc] GC(1) Pause Young (Allocation Failure) 20M->12M(30M) 0.974ms\n"
      "[1795264041013ms][info][gc] GC(2) Pause Young (Allocation Failure) 12M->10M(30M) 0.617ms\n";
  InputSet set;
  set.begin_file("corrupt-stamp.log");
  set.feed(reinterpret_cast<const uint8_t*>(log.data()), log.size());
  set.end_file();
  json doc = set.finish();
  raw_json::resolve(doc);
  CHECK(report_of(doc, "jvm-gc-log")["pauses"]["count"] == 3);
  json rows = set.query("jvm.events", {})["rows"];
  raw_json::resolve(rows);
  REQUIRE(rows.size() == 3);
  // Pause start = line time - duration: -942 us, 1 s - 617 us, and the clamped stamp.
  CHECK(rows[0]["t"] == -0.000942);
  CHECK(rows[1]["t"] == 0.999383);
  CHECK(rows[2]["t"] == 9e9);
  CHECK(rows[2]["duration_s"] == 0.000974);
  json sum = set.query("jvm.summary", {{"t0", -1}, {"t1", 1}});
  raw_json::resolve(sum);
  CHECK(sum["pauses"]["count"] == 2);
  CHECK(sum["pauses"]["total_s"] == 0.001559);
}

TEST_CASE("jvm events: a log with 19,166 pauses keeps every event, nothing is lost", "[jvm][series][corpus]") {
  // GCToolKit's end-to-end figures for this log (manifest, gctoolkit.integration): 19,114 DefNew +
  // 26 initial marks + 26 remarks = 19,166 pauses, 208.922 s in total.
  JvmSession s({corpus("jvm/gctoolkit/preunified/cms/defnew/details/defnew.log")});
  const json& r = s.report();
  REQUIRE(r["pauses"]["count"] == 19166);
  CHECK(r["pauses"]["total_s"].get<double>() == Approx(208.922).margin(0.002));
  const json rows = all_events(s);
  CHECK(rows.size() == r["events"]["total"].get<size_t>());
  double paused = 0, allocated = 0;
  int64_t max_before = 0, max_after = 0;
  for (const auto& e : rows) {
    paused += e["paused_s"].get<double>();
    allocated += e["allocated_kb"].get<double>();
    if (e["heap_before_kb"].is_number()) max_before = std::max(max_before, e["heap_before_kb"].get<int64_t>());
    if (e["heap_after_kb"].is_number()) max_after = std::max(max_after, e["heap_after_kb"].get<int64_t>());
  }
  CHECK(paused == Approx(r["pauses"]["total_s"].get<double>()).margin(1e-6));
  CHECK(max_before == r["heap"]["max_occupancy_kb"].get<int64_t>());
  CHECK(max_after == r["heap"]["max_after_gc_kb"].get<int64_t>());
  CHECK(allocated / 1024 / r["runtime_s"].get<double>() ==
        Approx(r["rates"]["allocation_mb_s"].get<double>()).epsilon(1e-6));
  // The report's first screen stays small: its series decimated, the table's first page.
  CHECK(r["series"]["decimated"] == true);
  CHECK(r["series"]["events"]["t"].size() <= 4000);
  CHECK(r["events_page"]["rows"].size() == 100);
}

TEST_CASE("jvm series: the heap chart gets the figures of the pools asked for only", "[jvm][series]") {
  JvmSession s({fixture("jvm/jdk17-g1.log")});
  const json all = s.ask("jvm.series", {{"t0", 0}, {"t1", 10}, {"width", 1000}});
  const json old = s.ask("jvm.series", {{"t0", 0}, {"t1", 10}, {"width", 1000}, {"pools", {"old"}}});
  CHECK(all["pools"].size() == 5);  // eden, survivor, old, humongous, metaspace
  CHECK(old["pools"] == json::array({"old"}));
  CHECK(old["events"].contains("old_after_kb"));
  CHECK_FALSE(old["events"].contains("eden_after_kb"));
  // GC(4) at 0.050 s: "Old regions: 4->6" with "Heap Region Size: 1M" (fixture lines 8 and 93).
  const json& t = old["events"]["t"];
  size_t at = 0;
  while (at < t.size() && t[at] != 0.05) ++at;
  REQUIRE(at < t.size());
  CHECK(old["events"]["old_after_kb"][at] == 6 * 1024);
  CHECK(old["events"]["heap_after_kb"] == all["events"]["heap_after_kb"]);
  CHECK(s.ask("jvm.series", {{"pools", json::array()}})["pools"].empty());
  CHECK_THROWS(s.ask("jvm.series", {{"pools", "old"}}));
  CHECK_THROWS_WITH(s.ask("jvm.series", {{"pools", {"eedn"}}}), Catch::Contains("no pool named 'eedn'"));
}

// 929_def.cms.wd.wt.log: records interleaved with CMS concurrent lines, and a concurrent mode
// failure timed 37.568 + 0.0033941 s, off the millisecond grid of the other times. Every time reads
// back as the log prints it, the streams are in time order, and each range's pause count equals the
// pause-kind events whose time lies in it, counted row by row from every event.
TEST_CASE("jvm ranges: times off the grid read back exactly; ranges count them", "[jvm][series][corpus]") {
  JvmSession s({corpus("jvm/gctoolkit/preunified/cms/parnew/details/tenuring/929_def.cms.wd.wt.log")});
  CHECK(s.ask("jvm.storage")["in_time_order"]["events"] == true);
  const json rows = all_events(s);
  // Lines 10152 and 10160: "37.568: [GC 37.568: [ParNew (promotion failed) ... 0.0033941 secs]" and
  // "37.676: [GC 37.676: [ParNew".
  size_t cmf = 0, parnew = 0;
  for (const auto& r : rows) {
    if (r["line"] == 10152 && r["type"] == "ConcurrentModeFailure") {
      CHECK(r["t"] == 37.5713941);
      ++cmf;
    }
    if (r["line"] == 10160) {
      CHECK(r["t"] == 37.676);
      ++parnew;
    }
  }
  CHECK(cmf == 1);
  CHECK(parnew == 1);
  for (const auto& [t0, t1] : std::vector<std::pair<double, double>>{{37.5, 38.5}, {45.0, 50.0}, {36.0, 61.0}}) {
    int64_t pauses = 0;
    for (const auto& r : rows)
      if (r["kind"] == "pause" && r["t"].is_number() && r["t"] >= t0 && r["t"] <= t1) ++pauses;
    INFO("range " << t0 << "-" << t1);
    CHECK(s.ask("jvm.summary", {{"t0", t0}, {"t1", t1}})["pauses"]["count"] == pauses);
  }
}

}  // namespace gcscope::test
