// A TuneMyGC payload's timeline (method "timeline.series", rubygc/timeline.cpp) against figures
// counted by hand from the payloads' samples (GC.stat columns by the header's key names; sample
// indexes count the payload's samples from 0, the header excluded):
//  - rt16_rack_app_tiny_seed.json (agent 1.0.53, epoch timestamps), 9 samples: minor_gc_count is 38
//    up to sample 6 (GC_CYCLE_STARTED, ts 1795257974.0500152) and 39 from sample 7 (PROCESSING_ENDED,
//    ts 1795257974.0792837), where `time` goes 472 -> 474 ms; major_gc_count stays 10;
//    heap_live_slots peaks at 667243 (sample 6); total_allocated_objects 2580122 -> 2739083.
//  - rec31_steady.json (gcscope's recorder, monotonic clock), 248 samples: minor_gc_count rises by
//    one at samples 18, 63, 106, 145, 182 and 219 (14 -> 20), each from the PROCESSING_STARTED just
//    before; `time` rises by one at samples 18 and 63 (with the counter) and at 112, 155, 201 and
//    246 (after the GCs of 106, 145, 182 and 219: 22 -> 28 in all), so each band holds 1 ms;
//    heap_live_slots peaks at 89471; total_allocated_objects 161068 -> 379261.
//  - rec31_malloc.json (four threads): the counters go down 31 (minor), 7 (major) and 40 (allocated)
//    times where a thread's sample was written late; their highest values are 35, 8 and 80949 from
//    9, 3 and 66378 at the first sample.
//  - rt16_first6_columns.json (fixtures/rubygc/cut_columns.py): rt16 with the first 6 GC.stat columns
//    of its header and samples (count ... heap_available_slots); heap_live_slots was column 6,
//    total_allocated_objects 14, minor_gc_count 18 and major_gc_count 19.
#include <catch2/catch.hpp>
#include <string>

#include "../jvm/jvm_session.h"
#include "core/timeline.h"
#include "rubygc/queries.h"

using nlohmann::json;

namespace gcscope::test {
namespace {

const json& named(const json& answer, const std::string& name) {
  for (const auto& s : answer.at("series"))
    if (s.at("name") == name) return s;
  FAIL("no series named " << name);
  static const json none;
  return none;
}

json payload_samples(const std::string& rel) { return read_json(fixture(rel)); }

std::vector<std::string> series_names(const json& answer) {
  std::vector<std::string> out;
  for (const auto& s : answer.at("series")) out.push_back(s.at("name"));
  return out;
}

// A payload read as the analyzer reads a well-formed one (the fast reader, then the header's checks).
rubygc::Payload read_payload(const std::string& rel) {
  rubygc::Payload p;
  REQUIRE(rubygc::read_fast(read_file(fixture(rel)), p));
  REQUIRE(rubygc::check_header(p.doc, p).status == 200);
  return p;
}

}  // namespace

TEST_CASE("timeline: a TuneMyGC payload with wall-clock timestamps, as its samples count it", "[timeline][rubygc]") {
  JvmSession s({fixture("rubygc/rt16_rack_app_tiny_seed.json")});
  const json a = s.ask(timeline::kMethod);
  CHECK(a["clock"] == "epoch");
  CHECK(a["t0"].get<double>() == 1795257973.675634);
  CHECK(a["t1"].get<double>() == 1795257974.087835);
  const json& minor = named(a, "minor GCs");
  REQUIRE(minor["start"].size() == 1);
  CHECK(minor["start"][0].get<double>() == 1795257974.0500152);
  CHECK(minor["end"][0].get<double>() == 1795257974.0792837);
  CHECK(minor["count"][0] == 1);
  CHECK(minor["max"][0] == 2.0);
  CHECK(minor["totals"]["count"] == 1);
  CHECK(minor["totals"]["total"] == 2.0);
  CHECK(named(a, "major GCs")["totals"]["count"] == 0);
  CHECK(named(a, "heap live slots")["totals"]["count"] == 9);
  CHECK(named(a, "heap live slots")["totals"]["max"] == 667243.0);
  CHECK(named(a, "objects allocated")["totals"]["total"] == 2739083.0 - 2580122.0);
  CHECK(named(a, "objects allocated")["unit"] == "objects/s");
}

TEST_CASE("timeline: a TuneMyGC payload on a monotonic clock; a range and a narrow width", "[timeline][rubygc]") {
  const std::string path = fixture("rubygc/rec31_steady.json");
  const json samples = payload_samples("rubygc/rec31_steady.json");
  auto ts = [&samples](size_t i) { return samples.at(i + 1).at(0).get<double>(); };
  JvmSession s({path});
  const json a = s.ask(timeline::kMethod);
  CHECK(a["clock"] == "own");
  const json& minor = named(a, "minor GCs");
  const size_t rises[] = {18, 63, 106, 145, 182, 219};
  REQUIRE(minor["start"].size() == 6);
  for (size_t k = 0; k < 6; ++k) {
    CHECK(minor["start"][k].get<double>() == ts(rises[k] - 1));
    CHECK(minor["end"][k].get<double>() == ts(rises[k]));
    CHECK(minor["count"][k] == 1);
    CHECK(minor["max"][k] == 1.0);
  }
  CHECK(minor["totals"]["total"] == 28.0 - 22.0);
  CHECK(named(a, "major GCs")["totals"]["count"] == 0);
  CHECK(named(a, "heap live slots")["totals"]["count"] == 248);
  CHECK(named(a, "heap live slots")["totals"]["max"] == 89471.0);
  CHECK(named(a, "objects allocated")["totals"]["total"] == 379261.0 - 161068.0);

  // From sample 60 to sample 150: the rises at 63, 106 and 145.
  const json part = s.ask(timeline::kMethod, {{"t0", ts(60)}, {"t1", ts(150)}});
  CHECK(named(part, "minor GCs")["totals"]["count"] == 3);
  CHECK(named(part, "heap live slots")["totals"]["count"] == 91);

  // Two pixel columns: the six bands merge into at most two, still counting six GCs.
  const json narrow = s.ask(timeline::kMethod, {{"width", 2}});
  const json& merged = named(narrow, "minor GCs");
  CHECK(merged["merged"] == true);
  int64_t gcs = 0;
  for (const auto& c : merged["count"]) gcs += c.get<int64_t>();
  CHECK(gcs == 6);
  CHECK(merged["count"].size() <= 2);
}

TEST_CASE("timeline: a threaded payload's late samples add no GCs and no allocations", "[timeline][rubygc]") {
  JvmSession s({fixture("rubygc/rec31_malloc.json")});
  const json a = s.ask(timeline::kMethod);
  CHECK(named(a, "minor GCs")["totals"]["count"] == 35 - 9);
  CHECK(named(a, "major GCs")["totals"]["count"] == 8 - 3);
  CHECK(named(a, "objects allocated")["totals"]["total"] == 80949.0 - 66378.0);
}

TEST_CASE("timeline: a payload cut before heap_live_slots shows no heap or counter series", "[timeline][rubygc]") {
  JvmSession s({fixture("rubygc/rt16_first6_columns.json")});
  const json a = s.ask(timeline::kMethod);
  CHECK(a["t0"].get<double>() == 1795257973.675634);
  CHECK(a["t1"].get<double>() == 1795257974.087835);
  CHECK(series_names(a) == std::vector<std::string>{"minor GCs", "major GCs"});
  CHECK(named(a, "minor GCs")["totals"]["count"] == 0);
  CHECK(named(a, "major GCs")["totals"]["count"] == 0);
}

TEST_CASE("timeline: GC.stat columns past the samples' width give no series", "[timeline][rubygc]") {
  // The cut payload's 6-value samples with the uncut header's column indexes: heap_live_slots (6),
  // total_allocated_objects, minor_gc_count and major_gc_count lie past the samples' width.
  const rubygc::Payload full = read_payload("rubygc/rt16_rack_app_tiny_seed.json");
  rubygc::Payload cut = read_payload("rubygc/rt16_first6_columns.json");
  REQUIRE(cut.n == 9);
  REQUIRE(cut.width == 6);
  REQUIRE(full.col.heap_live == 6);
  REQUIRE(cut.col.heap_live == -1);
  cut.col = full.col;
  const json a = rubygc::payload_timeline(cut, json::object());
  CHECK(series_names(a) == std::vector<std::string>{"minor GCs", "major GCs"});
  CHECK(named(a, "minor GCs")["totals"]["count"] == 0);
  CHECK(a["t1"].get<double>() == 1795257974.087835);
}

}  // namespace gcscope::test
