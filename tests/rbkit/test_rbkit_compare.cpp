// rbkit compare (rbkit/compare.h): the per-frame rows of the cpu_sample stacks against stackprof's
// own --text report of the profile fixtures/rbkit/cpu-workload.rbkit carries, and the object and GC
// deltas against the generator of leak-synthetic.rbkit (rbkit_frames.py leak), counted by hand.
// tests/cli/cli_stacks.sh compares two different captures from the CLI.
#include <catch2/catch.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "core/query.h"
#include "rbkit/rbkit_capture.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;
using nlohmann::json;

namespace {

json compare(const std::string& a, const std::string& b) {
  auto sa = open_capture(fixture(a)), sb = open_capture(fixture(b));
  return sb->query("compare.with", {{"other", sa->query("compare.side", json::object())}});
}

}  // namespace

TEST_CASE("rbkit compare: per-frame rows are stackprof --text's, on both sides", "[rbkit][compare]") {
  json c = compare("rbkit/cpu-workload.rbkit", "rbkit/cpu-workload.rbkit");
  auto want = stackprof_text_rows(read_file(fixture("rbkit/cpu-workload.text.txt")));
  REQUIRE(want.size() == 19);
  CHECK(c["totals"] == json({{"a", 147}, {"b", 147}, {"delta", 0}}));
  std::multiset<std::tuple<std::string, double, double>> got_a, got_b;
  for (const auto& f : c["frames"]) {
    got_a.emplace(f["name"], f["self_a"], f["total_a"]);
    got_b.emplace(f["name"], f["self_b"], f["total_b"]);
    CHECK(f["total_delta_pct"] == 0.0);
  }
  CHECK(got_a == want);
  CHECK(got_b == want);
  CHECK(c["tree"].is_object());
}

TEST_CASE("rbkit compare: objects created per second and GC cycles, counted from the generator", "[rbkit][compare]") {
  // leak-synthetic.rbkit (rbkit_frames.py leak): 40 seconds from t0, 100 objects a second: k < 5
  // Order, odd k String (48 of 5..99), even k Hash (47) -> Order 200, String 1920, Hash 1880; a GC
  // cycle in seconds 4, 9, ..., 39 (8), each gc_start -> gc_end_s 30 ms. Its timestamps run from the
  // handshake (t0 - 500 ms) to the last gc_end_s (t0 + 39950 + 30 ms): a span of 40.48 s.
  // cpu-workload.rbkit traces no objects and no GC.
  json c = compare("rbkit/cpu-workload.rbkit", "rbkit/leak-synthetic.rbkit");
  CHECK(c["frames_omitted"] == "capture B has no cpu_sample stacks (rbkit's CPU profiling was off or sent no frames)");
  CHECK_FALSE(c.contains("frames"));
  const json& r = c["rbkit"];
  CHECK(r["span_s"]["b"].get<double>() == Approx(40.48));
  CHECK(r["objects_created"] == json({{"a", 0.0}, {"b", 4000.0}, {"delta", 4000.0}}));
  CHECK(r["objects_per_s"]["a"] == 0.0);
  CHECK(r["objects_per_s"]["b"].get<double>() == Approx(4000 / 40.48));
  CHECK(r["objects_per_s"]["delta_percent"].is_null());  // from 0
  CHECK(r["gc_cycles"]["b"] == 8.0);
  CHECK(r["gc_cycles"]["delta"] == 8.0);
  CHECK(r["gc_total_ms"]["b"].get<double>() == Approx(240));
  CHECK(r["gc_max_ms"]["b"].get<double>() == Approx(30));
  REQUIRE(r["classes"].size() == 3);
  CHECK(r["classes"][0]["class"] == "String");
  CHECK(r["classes"][0]["created_b"] == 1920.0);
  CHECK(r["classes"][1]["class"] == "Hash");
  CHECK(r["classes"][1]["created_b"] == 1880.0);
  CHECK(r["classes"][2]["class"] == "Order");
  CHECK(r["classes"][2]["per_s_b"].get<double>() == Approx(200 / 40.48));
  CHECK(r["classes"][2]["per_s_delta"].get<double>() == Approx(200 / 40.48));

  // the other way round: the capture with objects is A, and the rates fall to 0 (-100 %)
  json back = compare("rbkit/leak-synthetic.rbkit", "rbkit/cpu-workload.rbkit");
  CHECK(back["frames_omitted"] ==
        "capture A has no cpu_sample stacks (rbkit's CPU profiling was off or sent no frames)");
  CHECK(back["rbkit"]["objects_per_s"]["delta_percent"] == -100.0);
  CHECK(back["rbkit"]["gc_per_s"]["delta_percent"] == -100.0);
}

TEST_CASE("rbkit cpu samples: each run of samples lasts the gaps to the samples before it", "[rbkit][stacks]") {
  // Durations are the time since the previous cpu_sample in µs (the first lasts none), so over the
  // whole capture they add up to its last sample's time minus its first's (the report's t_ms).
  // tests/cli/cli_stacks.sh checks each run's duration against the capture decoded in Python.
  json report;
  auto set = open_capture(fixture("rbkit/cpu-workload.rbkit"), &report);
  json tree = set->query("stacks.tree", json::object());
  REQUIRE(tree["durations"].is_array());
  CHECK(tree["durations"].size() == tree["samples"]["stack"].size());
  CHECK(tree["durations"][0] == 0);
  double sum = 0;
  for (const auto& d : tree["durations"]) sum += d.get<double>();
  const json& t = report["cpu_samples"]["t_ms"];
  REQUIRE(t.size() == 147);
  CHECK(sum == Approx((t.back().get<double>() - t.front().get<double>()) * 1000));
  CHECK(sum > 0);
}
