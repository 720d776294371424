// `gcscope compare`: KPI extraction and deltas, on hand-written reports (values computed by hand in the
// comments) and end to end through the pipeline on two corpus logs.
#include <catch2/catch.hpp>

#include "jvm/compare.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;

namespace {
const nlohmann::json* row(const nlohmann::json& cmp, const std::string& key) {
  for (const auto& r : cmp["kpis"])
    if (r["key"] == key) return &r;
  return nullptr;
}
}  // namespace

TEST_CASE("compare: KPI fields are flattened and diffed", "[jvm-legacy][compare]") {
  nlohmann::json a = {
      {"format", "jvm-gc-log"},
      {"inputs", {"before.log"}},
      {"pauses", {{"count", 100}, {"total_ms", 2500.0}, {"max_ms", 80.0}, {"p99_ms", {{"young", 40.0}}}}},
      {"throughput_percent", 97.5},
      {"percent_paused", 2.5},
      {"heap", {{"max_after_gc_kb", 1000}}},
      {"rates", {{"allocation_mb_s", 50.0}}},
      {"events", {{"total", 120}, {"by_type", {{"ParNew", 100}}}}},
      {"series", {{"t", {1, 2, 3}}}},  // per-event data: not a KPI
      {"jvm_version", "1.8.0_20"}};
  nlohmann::json b = a;
  b["inputs"] = {"after.log"};
  b["pauses"]["count"] = 80;      // 80 - 100 = -20, -20 %
  b["pauses"]["max_ms"] = 120.0;  // +40, +50 %
  b["pauses"]["p99_ms"]["young"] = 30.0;
  b["throughput_percent"] = 99.0;  // +1.5
  b["heap"]["max_after_gc_kb"] = 0;
  b["rates"].erase("allocation_mb_s");
  b["rates"]["promotion_mb_s"] = 5.0;
  auto kpis = jvm::kpis_of(a);
  CHECK(kpis.size() == 9);  // pauses.{count,total_ms,max_ms,p99_ms.young}, throughput, paused, heap, rate, events.total
  CHECK(kpis["pauses.p99_ms.young"] == 40.0);
  CHECK_FALSE(kpis.contains("events.by_type.ParNew"));
  CHECK_FALSE(kpis.contains("series.t"));

  auto cmp = jvm::compare_reports(a, b);
  CHECK(cmp["a"]["inputs"][0] == "before.log");
  CHECK(cmp["b"]["inputs"][0] == "after.log");
  const auto* count = row(cmp, "pauses.count");
  REQUIRE(count);
  CHECK((*count)["delta"].get<double>() == -20);
  CHECK((*count)["delta_percent"].get<double>() == Approx(-20.0));
  CHECK((*row(cmp, "pauses.max_ms"))["delta_percent"].get<double>() == Approx(50.0));
  CHECK((*row(cmp, "throughput_percent"))["delta"].get<double>() == Approx(1.5));
  CHECK((*row(cmp, "heap.max_after_gc_kb"))["delta"].get<double>() == -1000);
  // Only on one side: null on the other, no delta.
  const auto* alloc = row(cmp, "rates.allocation_mb_s");
  REQUIRE(alloc);
  CHECK((*alloc)["b"].is_null());
  CHECK((*alloc)["delta"].is_null());
  CHECK((*row(cmp, "rates.promotion_mb_s"))["a"].is_null());
  // a == 0: no percentage.
  nlohmann::json z = {{"pauses", {{"count", 0}}}}, z2 = {{"pauses", {{"count", 5}}}};
  auto c0 = jvm::compare_reports(z, z2);
  CHECK(c0["kpis"][0]["delta"] == 5.0);
  CHECK(c0["kpis"][0]["delta_percent"].is_null());
}

TEST_CASE("compare: two logs through the pipeline", "[jvm-legacy][compare][corpus]") {
  auto doc_a = analyze_paths({corpus("jvm/gctoolkit/preunified/cms/530_gc.log")});
  auto doc_b = analyze_paths({corpus("jvm/gctoolkit/preunified/cms/713_gc.log")});
  auto cmp = jvm::compare_reports(report_of(doc_a, "jvm-gc-log"), report_of(doc_b, "jvm-gc-log"));
  CHECK(cmp["a"]["format"] == "jvm-gc-log");
  CHECK(cmp["b"]["inputs"][0].get<std::string>().find("713_gc.log") != std::string::npos);
  // Every row the analyzer's report yields has both sides and b - a as its delta.
  for (const auto& r : cmp["kpis"])
    if (!r["a"].is_null() && !r["b"].is_null())
      CHECK(r["delta"].get<double>() == Approx(r["b"].get<double>() - r["a"].get<double>()));
}

TEST_CASE("compare: legacy logs through the JVM analyzer carry GCToolKit's totals", "[jvm-legacy][compare][corpus]") {
  // A = the DefNew/CMS log: GCToolKit's end-to-end total pause 208.922 s (manifest, gctoolkit.integration)
  // over 19,114 DefNew + 26 initial marks + 26 remarks = 19,166 pauses.
  auto doc_a = analyze_paths({corpus("jvm/gctoolkit/preunified/cms/defnew/details/defnew.log")});
  auto doc_b = analyze_paths({corpus("jvm/gctoolkit/preunified/cms/parnew/details/1073_1.log")});
  auto cmp = jvm::compare_reports(report_of(doc_a, "jvm-gc-log"), report_of(doc_b, "jvm-gc-log"));
  const auto* total = row(cmp, "pauses.total_s");
  REQUIRE(total);
  CHECK((*total)["a"].get<double>() == Approx(208.922).margin(0.001));
  const auto* count = row(cmp, "pauses.count");
  REQUIRE(count);
  CHECK((*count)["a"].get<double>() == 19166);
  CHECK((*total)["delta"].get<double>() == Approx((*total)["b"].get<double>() - 208.922351).margin(1e-6));
}
