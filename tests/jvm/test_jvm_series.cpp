// The report's series (wasm/jvm/aggregator.cpp): exact packed pause columns, per-event buckets
// (exact while the log has at most GcAggregator::kMaxBuckets events, decimated past that) with the
// per-generation/region figures, and the bounded safepoint buckets.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jvm/aggregator.h"
#include "packed_column.h"
#include "support.h"

using nlohmann::json;

namespace gcscope::test {
namespace {

json jvm_report(const std::string& path) { return report_of(analyze_paths({path}), "jvm-gc-log"); }

// Index of the event bucket whose first event has this GC id (exact series).
size_t event_with_gc_id(const json& r, int64_t id) {
  const json& ids = r["series"]["events"]["gc_id"];
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] == id) return i;
  FAIL("no event with GC id " << id);
  return 0;
}

}  // namespace

TEST_CASE("jvm series: pauses are exact, packed, and add up to the summary", "[jvm][series]") {
  json r = jvm_report(fixture("jvm/jdk17-g1.log"));
  const json& p = r["series"]["pauses"];
  REQUIRE(p["encoding"] == "packed");
  // Hand count of the fixture: 27 "GC(n) Pause … ms" lines, 38.614 ms in total.
  REQUIRE(p["count"] == 27);
  auto t = unpack(p["t_us"].get<std::string>(), 27, true);
  auto d = unpack(p["duration_us"].get<std::string>(), 27, false);
  auto name = unpack(p["name"].get<std::string>(), 27, false);
  auto cause = unpack(p["cause"].get<std::string>(), 27, false);
  REQUIRE(t.size() == 27);
  int64_t total_us = 0;
  for (const auto& v : d) total_us += *v;
  CHECK(total_us == 38614);
  // Line 20: "[0.028s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)",
  // line 33: "... GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->1M(34M) 1.777ms".
  CHECK(*t[0] == 28000);
  CHECK(*d[0] == 1777);
  CHECK(r["series"]["names"][static_cast<size_t>(*name[0])] == "Pause Young");
  CHECK(r["series"]["causes"][static_cast<size_t>(*cause[0])] == "G1 Evacuation Pause");
  // Line 232: "[0.085s][info][gc,start    ] GC(14) Pause Full (System.gc())", 2.729 ms (line 248); its
  // type is SystemGC (GCToolKit's name), so its pause kind is "Pause SystemGC".
  bool full = false;
  for (size_t i = 0; i < 27; ++i)
    if (*t[i] == 85000 && r["series"]["names"][static_cast<size_t>(*name[i])] == "Pause SystemGC") {
      CHECK(*d[i] == 2729);
      CHECK(r["series"]["causes"][static_cast<size_t>(*cause[i])] == "System.gc()");
      full = true;
    }
  CHECK(full);
  // Times never go back within a member.
  for (size_t i = 1; i < 27; ++i) CHECK(*t[i] >= *t[i - 1]);
}

TEST_CASE("jvm series: eden, survivor, old, humongous and metaspace per event (unified G1)", "[jvm][series]") {
  json r = jvm_report(fixture("jvm/jdk17-g1.log"));
  const json& e = r["series"]["events"];
  REQUIRE(e["events_per_bucket"] == 1);  // 37 events: one per bucket
  CHECK_FALSE(e.contains("count"));
  // "Heap Region Size: 1M" (line 8), so regions are 1024 KiB each. GC(4), lines 91-96:
  //   Eden regions: 16->0(15) / Survivor regions: 2->2(3) / Old regions: 4->6 / Humongous regions: 0->0
  //   Metaspace: 80K(320K)->80K(320K) NonClass: ...
  size_t i = event_with_gc_id(r, 4);
  CHECK(e["eden_before_kb"][i] == 16 * 1024);
  CHECK(e["eden_after_kb"][i] == 0);
  CHECK(e["survivor_before_kb"][i] == 2 * 1024);
  CHECK(e["survivor_after_kb"][i] == 2 * 1024);
  CHECK(e["old_before_kb"][i] == 4 * 1024);
  CHECK(e["old_after_kb"][i] == 6 * 1024);
  CHECK(e["humongous_before_kb"][i] == 0);
  CHECK(e["metaspace_before_kb"][i] == 80);
  CHECK(e["metaspace_after_kb"][i] == 80);
  // GC(14) Pause Full (System.gc()), lines 245-249: "Humongous regions: 5->0", "Old regions: 21->9".
  size_t f = event_with_gc_id(r, 14);
  CHECK(e["humongous_before_kb"][f] == 5 * 1024);
  CHECK(e["humongous_after_kb"][f] == 0);
  CHECK(e["old_before_kb"][f] == 21 * 1024);
  CHECK(e["old_after_kb"][f] == 9 * 1024);
  // Allocation between collections: GC(4) starts at 22M, GC(3) left 6M (lines 81, 97).
  CHECK(e["allocated_kb"][i] == (22 - 6) * 1024);
}

TEST_CASE("jvm series: young generation per event (legacy ParNew)", "[jvm][series]") {
  json r = jvm_report(corpus("jvm/gctoolkit/preunified/cms/parnew/details/GCLog_CMSCollection.log"));
  const json& e = r["series"]["events"];
  // Line 1: "2014-11-29T06:23:55.892+0000: 126.838: [GC 126.838: [ParNew: 5033216K->74618K(5662336K),
  // 0.1352100 secs] 5033216K->74618K(16148096K), 0.1353170 secs]"
  REQUIRE(e["t"][0].get<double>() == Approx(126.838));
  CHECK(e["young_before_kb"][0] == 5033216);
  CHECK(e["young_after_kb"][0] == 74618);
  CHECK(e["heap_before_kb"][0] == 5033216);
  CHECK(e["heap_committed_kb"][0] == 16148096);
}

TEST_CASE("jvm series: a corrupt region count is not a figure (fuzz find: count x region size overflowed)", "[jvm][series]") {
  // fixtures/jvm/jdk17-g1.log with GC(0)'s "Eden regions: 6->0(12)" (line 27) replaced by a count no
  // heap can hold (2^62 + 1: times 1024 KiB it wraps to 1024 in 64 bits); GC(1)'s line 43
  // "Eden regions: 12->0(17)" is left as it is.
  std::string log = read_file(fixture("jvm/jdk17-g1.log"));
  const std::string line27 = "GC(0) Eden regions: 6->0(12)";
  size_t at = log.find(line27);
  REQUIRE(at != std::string::npos);
  log.replace(at, line27.size(), "GC(0) Eden regions: 4611686018427387905->0(12)");
  json r = report_of(analyze_bytes({{"corrupt-eden.log", log}}), "jvm-gc-log");
  const json& e = r["series"]["events"];
  size_t g0 = event_with_gc_id(r, 0), g1 = event_with_gc_id(r, 1);
  CHECK(e["eden_before_kb"][g0].is_null());
  CHECK(e["eden_before_kb"][g1] == 12 * 1024);
  CHECK(r["events"]["total"] == report_of(analyze_paths({fixture("jvm/jdk17-g1.log")}), "jvm-gc-log")["events"]["total"]);
}

TEST_CASE("jvm series: a pause stamped past 2^53 us is clamped, the delta column does not overflow (fuzz find)", "[jvm][series]") {
  // timemillis decorations only: uptime is taken relative to the first line. The second stamp is
  // a corrupt 18-digit value (5.07e17 ms, ~5.07e14 s after the first line): s x 1e6 has no int64
  // value (llround gave INT64_MIN and the next delta overflowed, UBSan in the fuzz build). It is
  // written as 2^53 us, the largest the page reads exactly; the pauses around it are exact.
  const std::string log =
      "[1795264040013ms][info][gc] GC(0) Pause Young (Allocation Failure) 19M->11M(30M) 0.942ms\n"
      "[507263995264040309ms][info][gc] GC(1) Pause Young (Allocation Failure) 20M->12M(30M) 0.974ms\n"
      "[1795264041013ms][info][gc] GC(2) Pause Young (Allocation Failure) 12M->10M(30M) 0.617ms\n";
  json r = report_of(analyze_bytes({{"corrupt-stamp.log", log}}), "jvm-gc-log");
  const json& p = r["series"]["pauses"];
  REQUIRE(p["count"] == 3);
  auto t = unpack(p["t_us"].get<std::string>(), 3, true);
  auto d = unpack(p["duration_us"].get<std::string>(), 3, false);
  // Pause start = line time - duration: -942 us, 1 s - 617 us, and the clamped stamp.
  CHECK(*t[0] == -942);
  CHECK(*t[1] == 1000000 - 617);
  CHECK(*t[2] == int64_t(1) << 53);
  CHECK(*d[0] == 942);
  CHECK(*d[1] == 617);
  CHECK(*d[2] == 974);
}

TEST_CASE("jvm series: a log with more events than buckets is decimated, nothing is lost", "[jvm][series]") {
  // GCToolKit's end-to-end figures for this log (manifest, gctoolkit.integration): 19,114 DefNew +
  // 26 initial marks + 26 remarks = 19,166 pauses, 208.922 s in total.
  json r = jvm_report(corpus("jvm/gctoolkit/preunified/cms/defnew/details/defnew.log"));
  const json& e = r["series"]["events"];
  const size_t nb = e["t"].size();
  REQUIRE(e["events_per_bucket"].get<uint64_t>() > 1);
  CHECK(nb <= gcscope::jvm::GcAggregator::kMaxBuckets);
  CHECK(nb > gcscope::jvm::GcAggregator::kMaxBuckets / 4);
  uint64_t events = 0;
  double paused = 0, allocated = 0, max_before = 0, max_after = 0;
  for (size_t i = 0; i < nb; ++i) {
    events += e["count"][i].get<uint64_t>();
    CHECK(e["count"][i].get<uint64_t>() <= e["events_per_bucket"].get<uint64_t>());
    paused += e["pause_s"][i].get<double>();
    allocated += e["allocated_kb"][i].get<double>();
    if (!e["heap_before_kb"][i].is_null()) max_before = std::max(max_before, e["heap_before_kb"][i].get<double>());
    if (!e["heap_after_max_kb"][i].is_null()) max_after = std::max(max_after, e["heap_after_max_kb"][i].get<double>());
    if (!e["heap_after_kb"][i].is_null() && !e["heap_after_max_kb"][i].is_null())
      CHECK(e["heap_after_kb"][i].get<double>() <= e["heap_after_max_kb"][i].get<double>());
  }
  CHECK(events == r["events"]["total"].get<uint64_t>());
  CHECK(paused == Approx(208.922).margin(0.002));  // bucket sums rounded to the microsecond
  // The spikes survive: the largest figures of the buckets are the log's.
  CHECK(max_before == r["heap"]["max_occupancy_kb"].get<double>());
  CHECK(max_after == r["heap"]["max_after_gc_kb"].get<double>());
  CHECK(allocated / 1024 / r["runtime_s"].get<double>() == Approx(r["rates"]["allocation_mb_s"].get<double>()).epsilon(1e-6));
  // Pauses stay exact.
  const json& p = r["series"]["pauses"];
  REQUIRE(p["count"] == 19166);
  auto d = unpack(p["duration_us"].get<std::string>(), 19166, false);
  int64_t total_us = 0;
  for (const auto& v : d) total_us += *v;
  CHECK(total_us / 1e6 == Approx(208.922).margin(0.01));  // 19,166 values each rounded to 1 µs
  // Safepoint buckets stay bounded too.
  CHECK(r["series"]["safepoints"]["t"].size() <= gcscope::jvm::GcAggregator::kMaxBuckets);
}

TEST_CASE("jvm series: the pause column keeps every value across its vector head and fixed blocks", "[jvm][series]") {
  // 64 Ki values live in the head vector, the rest in 64 Ki blocks: 200,000 values span the head,
  // two full blocks and a partial one; append() of a column that itself crossed a block keeps order.
  gcscope::jvm::BlockColumn<uint32_t> a, b;
  for (uint32_t i = 0; i < 200000; ++i) a.push_back(i * 3u);
  REQUIRE(a.size() == 200000);
  for (size_t i : {size_t{0}, size_t{65535}, size_t{65536}, size_t{131071}, size_t{131072}, size_t{199999}})
    CHECK(a[i] == i * 3u);
  for (uint32_t i = 0; i < 70000; ++i) b.push_back(i);
  a.append(b);
  REQUIRE(a.size() == 270000);
  CHECK(a[200000] == 0u);
  CHECK(a[200000 + 65536] == 65536u);
  CHECK(a[269999] == 69999u);
}

}  // namespace gcscope::test
