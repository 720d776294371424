// GCToolKit's end-to-end expectations (gctoolkit.integration records of the manifest) on legacy logs,
// computed from the legacy parser's events: counts of collections by type, total pause time, the
// estimated runtime and the share of it spent paused.
#include <catch2/catch.hpp>
#include <cmath>

#include "legacy_support.h"

using namespace gcscope;
using namespace gcscope::test;
using gcscope::jvm::GcType;

namespace {
const nlohmann::json& expectation(const std::string& path, const std::string& key) {
  static nlohmann::json m = read_json(corpus("jvm/manifest.json"));
  for (const auto& f : m["files"])
    if (f["path"] == path)
      for (const auto& e : f["expectations"])
        if (e["kind"] == "gctoolkit.integration" && e["expected"].contains(key)) return e["expected"][key];
  throw std::runtime_error("no gctoolkit.integration " + key + " for " + path);
}
double value_of(const nlohmann::json& j) { return j.is_object() ? j["value"].get<double>() : j.get<double>(); }
}  // namespace

TEST_CASE("DefNew/CMS log: GCToolKit end-to-end totals", "[jvm-legacy][manifest][corpus]") {
  const std::string path = "gctoolkit/preunified/cms/defnew/details/defnew.log";
  LegacyRun run;
  run_legacy(run, decode_members(corpus("jvm/" + path)));
  const auto& s = run.sink;
  CHECK(s.count(GcType::DefNew) ==
        expectation(path, "HeapOccupancyAfterCollectionSummary.DefNew.size").get<uint64_t>());
  CHECK(s.count(GcType::InitialMark) ==
        expectation(path, "HeapOccupancyAfterCollectionSummary.InitialMark.size").get<uint64_t>());
  CHECK(s.count(GcType::Remark) ==
        expectation(path, "HeapOccupancyAfterCollectionSummary.Remark.size").get<uint64_t>());

  // Pause total over the stop-the-world events (GCToolKit: 208.922351 s).
  double pause = 0, first = INFINITY, end = 0;
  for (const auto& e : s.events) {
    if (e.stop_the_world && !std::isnan(e.duration_s)) pause += e.duration_s;
    if (!std::isnan(e.uptime_s)) {
      first = std::min(first, e.uptime_s);
      end = std::max(end, e.uptime_s + (std::isnan(e.duration_s) ? 0.0 : e.duration_s));
    }
  }
  const auto& total = expectation(path, "PauseTimeSummary.totalPauseTime_s");
  CHECK(pause == Approx(value_of(total)).margin(total["tolerance"].get<double>()));
  // GCToolKit's runtime runs from the JVM start (uptime 0) to the end of the last event.
  const auto& runtime = expectation(path, "PauseTimeSummary.estimatedRuntime_s");
  CHECK(end == Approx(value_of(runtime)).margin(runtime["tolerance"].get<double>()));
  CHECK(static_cast<int>(pause / end * 100.0 * 1000) ==
        expectation(path, "int(PauseTimeSummary.percentPaused*1000)").get<int>());
  const auto& first_event = expectation(path, "JVMTermination.timeOfFirstEvent_s");
  CHECK(first == Approx(value_of(first_event)).margin(first_event["tolerance"].get<double>()));

  // The report says the same: its runtime runs from the first record to the end of the last one's pause
  // (test_peer_disagreements.cpp reads the two lines).
  const nlohmann::json r = report_of(analyze_paths({corpus("jvm/" + path)}), "jvm-gc-log");
  CHECK(r["runtime_s"].get<double>() == Approx(value_of(runtime)).margin(runtime["tolerance"].get<double>()));
  CHECK(r["pauses"]["total_s"].get<double>() == Approx(value_of(total)).margin(total["tolerance"].get<double>()));
}

TEST_CASE("CMS scavenge-before-remark with reference processing: one CMS cycle", "[jvm-legacy][manifest][corpus]") {
  const std::string path = "gctoolkit/preunified/cms/parnew/details/scavangeBeforeRemarkWithReference.log";
  LegacyRun run;
  run_legacy(run, decode_members(corpus("jvm/" + path)));
  const auto& s = run.sink;
  CHECK(s.count(GcType::InitialMark) == expectation(path, "CMSCycleAggregation.initialMark").get<uint64_t>());
  CHECK(s.count(GcType::Remark) == expectation(path, "CMSCycleAggregation.remark").get<uint64_t>());
  uint64_t concurrent = 0;
  for (const auto& e : s.events) concurrent += e.stop_the_world ? 0 : 1;
  CHECK(concurrent == expectation(path, "CMSCycleAggregation.concurrentEvents").get<uint64_t>());
  // The ParNew printed inside the remark record (CMSScavengeBeforeRemark) is a collection of its own.
  CHECK(s.count(GcType::ParNew) >= 1);
  CHECK(run.stats.unparsed == 0);
}
