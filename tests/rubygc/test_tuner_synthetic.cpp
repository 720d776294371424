// Hand-built payloads for what the corpus does not cover: interleaved threads (units paired per thread
// id, layout 8-thread-last with null on the main thread) and Ruby 2.1's GC.stat names. Every expected
// number below is counted by hand from the payload written in the test.
#include <catch2/catch.hpp>
#include <map>

#include "support.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()
using nlohmann::json;

namespace {
// [ts, peak_rss, rss, EVENT, [count, heap_available_slots, heap_live_slots, total_allocated_objects], info, meta,
// thread]
json sample(double ts, const char* ev, int64_t count, int64_t alloc, json thread, json meta = nullptr) {
  return json::array({ts,
                      1000,
                      1000,
                      ev,
                      json::array({count, 1000, 500, alloc}),
                      {{"major_by", nullptr}, {"gc_by", "newobj"}},
                      meta,
                      thread});
}
json tuner(const json& payload) { return report_of(analyze_bytes({{"p.json", payload.dump()}}), "tunemygc-payload"); }
}  // namespace

TEST_CASE("rubygc synthetic: units are paired per thread id when threads interleave", "[rubygc]") {
  json header =
      json::array({nullptr,
                   "3.1.2",
                   "0.0",
                   json::object(),
                   "1.0.71",
                   json::array(),
                   {{"HEAP_PAGE_OBJ_LIMIT", 409}},
                   json::array({"count", "heap_available_slots", "heap_live_slots", "total_allocated_objects"}),
                   "manual",
                   "host",
                   1,
                   2});
  json p = json::array({header});
  p.push_back(sample(0.0, "BOOTED", 5, 100, nullptr, {{"T_STRING", 10}}));
  p.push_back(sample(1.0, "PROCESSING_STARTED", 5, 100, 11));        // A starts
  p.push_back(sample(1.5, "PROCESSING_STARTED", 5, 150, 22));        // B starts
  p.push_back(sample(2.0, "PROCESSING_ENDED", 6, 400, 11));          // A ends: 300 allocs, 1 GC, 1000 ms
  p.push_back(sample(2.25, "PROCESSING_STARTED", 6, 410, nullptr));  // main starts
  p.push_back(sample(3.0, "PROCESSING_ENDED", 6, 650, 22));          // B ends: 500 allocs, 1 GC, 1500 ms
  p.push_back(sample(3.5, "PROCESSING_ENDED", 6, 700, nullptr));     // main ends: 290 allocs, 0 GC, 1250 ms
  p.push_back(sample(4.0, "TERMINATED", 6, 710, nullptr, {{"T_STRING", 12}}));
  json r = tuner(p);
  CHECK(r["verdict"]["status"] == 200);
  CHECK(r["layout"] == "8-thread-last");
  const json& c = r["units_of_work"]["columns"];
  REQUIRE(c["allocations"].size() == 3);
  CHECK(c["allocations"] == json::array({300, 500, 290}));  // ordered by start
  CHECK(c["duration_ms"] == json::array({1000.0, 1500.0, 1250.0}));
  CHECK(c["gcs"] == json::array({1, 1, 0}));
  CHECK(c["thread"] == json::array({"11", "22", nullptr}));
  CHECK(r["units_of_work"]["with_gc_pct"] == Approx(66.7));
  CHECK(r["object_types"]["terminated"]["T_STRING"] == 12);
}

TEST_CASE("rubygc synthetic: Ruby 2.1 GC.stat names (heap_used pages x HEAP_OBJ_LIMIT)", "[rubygc]") {
  json header = json::array({nullptr,
                             "2.1.5",
                             "4.1.8",
                             json::object(),
                             "1.0.15",
                             json::array(),
                             {{"RVALUE_SIZE", 40}, {"HEAP_OBJ_LIMIT", 408}},
                             json::array({"count", "heap_used", "heap_live_slot", "total_allocated_object"}),
                             "h",
                             1,
                             2});
  auto s7 = [](double ts, const char* ev, int64_t count, int64_t pages, int64_t live, int64_t alloc) {
    return json::array({ts, 0, 0, ev, json::array({count, pages, live, alloc}), json::object(), nullptr});
  };
  json p =
      json::array({header, s7(0, "BOOTED", 12, 100, 30000, 1000), s7(1, "PROCESSING_STARTED", 12, 100, 30000, 1000),
                   s7(2, "PROCESSING_ENDED", 13, 150, 50000, 21000), s7(3, "TERMINATED", 13, 150, 50000, 21010)});
  json r = tuner(p);
  CHECK(r["verdict"]["status"] == 200);
  CHECK(r["layout"] == "7");
  CHECK(r["metrics"]["heap_available_at_boot"] == 100 * 408);
  CHECK(r["metrics"]["max_heap_available_processing"] == 150 * 408);
  // Boot took 12 GCs (>= 10): speed INIT = the working heap, 150 pages of 408 slots.
  CHECK(r["strategies"]["speed"]["RUBY_GC_HEAP_INIT_SLOTS"] == std::to_string(150 * 408));
  // 2.1 has no FREE_SLOTS_*_RATIO nor RUBY_GC_HEAP_*_INIT_SLOTS in its table.
  for (const auto& row : r["gc_variables"]) {
    CHECK(row["variable"] != "RUBY_GC_HEAP_FREE_SLOTS_GOAL_RATIO");
    CHECK(row["variable"] != "RUBY_GC_HEAP_0_INIT_SLOTS");
  }
}

TEST_CASE("rubygc synthetic: a non-default GC library and GC.config(rgengc_allow_full_mark: false), Ruby 3.4",
          "[rubygc]") {
  // The recorder's BOOTED meta on 3.4+ carries GC.config as gc_config (recorder/tunemygc_recorder.rb).
  json header =
      json::array({nullptr,
                   "3.4.1",
                   "0.0",
                   {{"RUBY_GC_LIBRARY", "mmtk"}},
                   "1.0.71",
                   json::array(),
                   {{"HEAP_PAGE_OBJ_LIMIT", 1638}, {"BASE_SLOT_SIZE", 40}},
                   json::array({"count", "heap_available_slots", "heap_live_slots", "total_allocated_objects"}),
                   "manual",
                   "host",
                   1,
                   2});
  json config = {{"gc_config", {{"implementation", "mmtk"}, {"rgengc_allow_full_mark", false}}}};
  json p = json::array({header, sample(0, "BOOTED", 5, 100, nullptr, config),
                        sample(1, "PROCESSING_STARTED", 5, 100, nullptr),
                        sample(2, "PROCESSING_ENDED", 6, 400, nullptr), sample(3, "TERMINATED", 6, 410, nullptr)});
  json r = tuner(p);
  std::map<std::string, std::string> findings;
  for (const auto& f : r["findings"]) findings[f["id"]] = f["message"];
  REQUIRE(findings.count("non_default_gc") == 1);
  CHECK(findings["non_default_gc"].find("\"mmtk\" GC") != std::string::npos);
  CHECK(findings["non_default_gc"].find("default GC only") != std::string::npos);
  CHECK(findings.count("full_mark_disabled") == 1);
  // RUBY_GC_LIBRARY is not a tuning value: linted as information, never a conflict.
  REQUIRE(r["lint"].size() == 1);
  CHECK(r["lint"][0]["status"] == "info");
  CHECK(r["conflicts"].empty());
  // On 3.1 the variable means nothing: no finding, and the lint says it is ignored.
  p[0][1] = "3.1.2";
  p[1][6] = nullptr;
  r = tuner(p);
  for (const auto& f : r["findings"]) CHECK(f["id"] != "non_default_gc");
  CHECK(r["lint"][0]["message"].get<std::string>().find("no modular GC") != std::string::npos);
}

namespace {
// A Ruby 3.3 run: BOOTED after 12 GCs (so the heap-size rule fires), then one unit per duration with
// GC.stat_heap at each unit's end: heap 0 of eden0[k] slots, heap 1 of eden1[k].
json run33(const std::vector<double>& ms, const std::vector<int64_t>& eden0, const std::vector<int64_t>& eden1) {
  json header =
      json::array({nullptr,
                   "3.3.0",
                   "0.0",
                   json::object(),
                   "1.0.71",
                   json::array(),
                   {{"HEAP_PAGE_OBJ_LIMIT", 1638}, {"BASE_SLOT_SIZE", 40}},
                   json::array({"count", "heap_available_slots", "heap_live_slots", "total_allocated_objects"}),
                   "manual",
                   "host",
                   1,
                   2});
  json p = json::array({header, sample(0, "BOOTED", 12, 100, nullptr)});
  double t = 1;
  for (size_t k = 0; k < ms.size(); ++k) {
    json heaps = {{"0", {{"slot_size", 40}, {"heap_eden_slots", eden0[k]}}},
                  {"1", {{"slot_size", 80}, {"heap_eden_slots", eden1[k]}}}};
    p.push_back(sample(t, "PROCESSING_STARTED", 12 + static_cast<int64_t>(k), 100, nullptr));
    p.push_back(sample(t + ms[k] / 1000, "PROCESSING_ENDED", 13 + static_cast<int64_t>(k), 100, nullptr,
                       {{"stat_heap", heaps}}));
    t += 1;
  }
  p.push_back(sample(t, "TERMINATED", 12 + static_cast<int64_t>(ms.size()), 100, nullptr));
  return p;
}
}  // namespace

TEST_CASE("rubygc synthetic: per-heap init slots from the units after unit time plateaued", "[rubygc]") {
  // 16 units: 100, 90, 80, 70, 60, 50 ms, then ten of 20 ms. Tails tried from unit 0, 2, 4 (n/8 steps);
  // medians of their halves: from 0, 65 then 20; from 2, 50 then 20; from 4, 20 and 20 (within 10 %).
  std::vector<double> ms = {100, 90, 80, 70, 60, 50};
  ms.resize(16, 20);
  std::vector<int64_t> eden0, eden1;
  for (int k = 0; k < 16; ++k) {
    eden0.push_back(k < 8 ? 1000 + 100 * k : (k == 10 ? 1700 : 1800));  // grows to 1800, one dip
    eden1.push_back(k == 2 ? 900 : 500);                                // large only while cold (unit 2)
  }
  json r = tuner(run33(ms, eden0, eden1));
  CHECK(r["verdict"]["status"] == 200);
  CHECK(r["plateau"]["plateaued"] == true);
  CHECK(r["plateau"]["from_unit"] == 4);
  CHECK(r["plateau"]["stat_heap_snapshots"] == 12);
  CHECK(r["plateau"]["heap_eden_slots_total_first_last"] == json::array({1400 + 500, 1800 + 500}));
  // Largest size from unit 4 on: heap 0 reaches 1800; heap 1's 900 (unit 2) is before the plateau.
  CHECK(r["strategies"]["speed"]["RUBY_GC_HEAP_0_INIT_SLOTS"] == "1800");
  CHECK(r["strategies"]["speed"]["RUBY_GC_HEAP_1_INIT_SLOTS"] == "500");

  // Unit time rising all along (10, 20 .. 160 ms; from unit 8 the halves' medians are 105 and 145): no
  // plateau, so no per-heap sizes.
  std::vector<double> rising;
  for (int k = 1; k <= 16; ++k) rising.push_back(10.0 * k);
  json r2 = tuner(run33(rising, eden0, eden1));
  CHECK(r2["plateau"]["plateaued"] == false);
  CHECK_FALSE(r2["strategies"]["speed"].contains("RUBY_GC_HEAP_0_INIT_SLOTS"));
  bool no_plateau = false;
  for (const auto& f : r2["findings"]) no_plateau = no_plateau || f["id"] == "no_plateau";
  CHECK(no_plateau);

  // Fewer than 8 units: too short to tell a trend.
  json r3 = tuner(run33({20, 20, 20}, {1000, 1000, 1000}, {500, 500, 500}));
  CHECK(r3["plateau"]["plateaued"] == false);
  CHECK(r3["plateau"]["reason"] == "fewer than 8 units of work");
}
