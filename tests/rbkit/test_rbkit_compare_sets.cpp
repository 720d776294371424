// Sets of rbkit captures on one side of a comparison (compare.side {set: true}, `gcscope compare
// DIR B`; rbkit::sum_sides): the cpu samples of a capture counted twice are stackprof --text's rows
// doubled, and a set's span, objects, GC cycles and classes are the sums of hand counts of its
// captures (fixtures/rbkit/count_figures.rb, over the msgpack gem's decoding). Profile sides written
// by hand show which sides profile::sum_profile_sides leaves out of a sum (other unit, other mode).
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "core/query.h"
#include "profile/compare.h"
#include "rbkit/rbkit_capture.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;
using nlohmann::json;

namespace {

json side_of(InputSet& set, bool whole_set) { return set.query("compare.side", {{"set", whole_set}}); }

// A one-frame profile side written by hand: w units of frame `name`.
json hand_side(const char* name, const char* unit, const char* mode, double w) {
  return json{{"kind", "profile"},
              {"unit", unit},
              {"mode", mode},
              {"samples", w},
              {"frames",
               {{"name", json::array({name})},
                {"file", json::array({""})},
                {"line", json::array({nullptr})},
                {"self", json::array({w})},
                {"total", json::array({w})}}},
              {"tree", {{"parent", json::array({-1})}, {"frame", json::array({0})}, {"self", json::array({w})}}}};
}

}  // namespace

TEST_CASE("rbkit compare of sets: a capture counted twice is stackprof --text doubled", "[rbkit][compare]") {
  const std::string cpu = fixture("rbkit/cpu-workload.rbkit");
  auto a = open_captures({{"one/cpu-workload.rbkit", cpu}, {"two/cpu-workload.rbkit", cpu}});
  auto b = open_captures({{"cpu-workload.rbkit", cpu}});
  json c = b->query("compare.with", {{"other", side_of(*a, true)}, {"set", true}});
  auto want = stackprof_text_rows(read_file(fixture("rbkit/cpu-workload.text.txt")));
  REQUIRE(want.size() == 19);
  CHECK(c["a"]["set"] == json({{"captures", 2}, {"not_summed", json::array()}}));
  CHECK_FALSE(c["b"].contains("set"));
  CHECK(c["totals"] == json({{"a", 294}, {"b", 147}, {"delta", -147}}));
  std::multiset<std::tuple<std::string, double, double>> half_a, got_b;
  for (const auto& f : c["frames"]) {
    half_a.emplace(f["name"], f["self_a"].get<double>() / 2, f["total_a"].get<double>() / 2);
    got_b.emplace(f["name"], f["self_b"], f["total_b"]);
    CHECK(f["total_delta_pct"].get<double>() == Approx(0).margin(1e-9));
  }
  CHECK(half_a == want);
  CHECK(got_b == want);
  CHECK(c["rbkit"]["objects_created"]["a"] == 0.0);
  // without {set: true} the first capture alone is side A
  json first = b->query("compare.with", {{"other", side_of(*a, false)}});
  CHECK(first["totals"]["a"] == 147);
}

TEST_CASE("rbkit compare of sets: objects, GC and classes are the sums of the captures'", "[rbkit][compare]") {
  const std::vector<std::string> names = {"rbkit/cpu-workload.rbkit", "rbkit/leak-synthetic.rbkit",
                                          "rbkit/stock-server-first12.rbkit"};
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& n : names) files.push_back({fixture(n), fixture(n)});
  auto set = open_captures(files);
  json answer = side_of(*set, true);
  CHECK(answer["reports"] == json({0, 1, 2}));
  const json& side = answer["side"];
  const json& r = side["rbkit"];
  // Hand counts of the three captures, decoded with the msgpack gem by fixtures/rbkit/count_figures.rb
  // (span: first to last timestamp of any message; a GC cycle: gc_start to its gc_end_s):
  // - cpu-workload: 1795256999500 to 1795257004322 ms, 4.822 s; no GC cycle; no object created
  // - leak-synthetic: 1795256999500 to 1795257039980 ms, 40.48 s; 8 GC cycles of 30 ms each; 4000
  //   objects created: String 1920, Hash 1880, Order 200
  // - stock-server-first12: 1795257121398 to 1795257124477 ms, 3.079 s; 1 GC cycle of 1702 ms (its
  //   first gc_end_s has no gc_start before it); 3152 objects created: String 1107, Hash 1104,
  //   Array 492, Order 328, Time 120, one with a nil class name
  CHECK(r["objects_created"] == 7152.0);
  CHECK(r["span_s"].get<double>() == Approx(4.822 + 40.48 + 3.079));
  CHECK(r["gc"]["cycles"] == 9.0);
  CHECK(r["gc"]["total_ms"].get<double>() == Approx(8 * 30.0 + 1702));
  CHECK(r["gc"]["max_ms"] == 1702.0);
  CHECK(r["classes"] == json({{"String", 1920.0 + 1107},
                              {"Hash", 1880.0 + 1104},
                              {"Order", 200.0 + 328},
                              {"Array", 492.0},
                              {"Time", 120.0},
                              {"(nil)", 1.0}}));
  // only cpu-workload has cpu samples: the set's are its 147
  CHECK(side["samples"] == 147);
  CHECK(side["set"] == json({{"captures", 3}, {"not_summed", json::array()}}));

  // compared with leak-synthetic alone: the set's rates are per second of all three spans
  auto leak = open_capture(fixture("rbkit/leak-synthetic.rbkit"));
  json c = leak->query("compare.with", {{"other", answer}});
  CHECK(c["rbkit"]["objects_created"] == json({{"a", 7152.0}, {"b", 4000.0}, {"delta", -3152.0}}));
  CHECK(c["rbkit"]["objects_per_s"]["a"].get<double>() == Approx(7152 / (4.822 + 40.48 + 3.079)));
  CHECK(c["rbkit"]["objects_per_s"]["b"].get<double>() == Approx(4000 / 40.48));
  CHECK(c["a"]["set"]["captures"] == 3);
  CHECK(c["frames_omitted"] == "capture B has no cpu_sample stacks (rbkit's CPU profiling was off or sent no frames)");
}

TEST_CASE("profile sides counting different units are not summed, and say so", "[profile][compare]") {
  // 3 samples of f, then 5 bytes of g, then 4 samples of f
  json f = hand_side("f", "samples", "", 3), g = hand_side("g", "bytes", "", 5), f2 = hand_side("f", "samples", "", 4);
  json notes = json::array();
  json sum = profile::sum_profile_sides({&f, &g, &f2}, {"one", "two", "three"}, notes);
  CHECK(sum["samples"] == 7);
  CHECK(sum["frames"]["name"] == json::array({"f"}));
  CHECK(sum["frames"]["self"] == json::array({7}));
  CHECK(notes == json::array({"two: its samples are not summed: it counts bytes and one samples"}));
}

TEST_CASE("profile sides of different modes are not summed, and say so", "[profile][compare]") {
  // all count samples: 3 cpu samples of f, 5 wall samples of g, 2 of h with no mode, 4 cpu samples of f
  json f = hand_side("f", "samples", "cpu", 3), g = hand_side("g", "samples", "wall", 5);
  json h = hand_side("h", "samples", "", 2), f2 = hand_side("f", "samples", "cpu", 4);
  json notes = json::array();
  json sum = profile::sum_profile_sides({&f, &g, &h, &f2}, {"one", "two", "three", "four"}, notes);
  CHECK(sum["samples"] == 9);  // 3 + 2 + 4: the wall side's 5 are left out
  CHECK(sum["mode"] == "cpu");
  std::map<std::string, double> self;
  for (size_t i = 0; i < sum["frames"]["name"].size(); ++i)
    self[sum["frames"]["name"][i]] = sum["frames"]["self"][i].get<double>();
  CHECK(self == std::map<std::string, double>{{"f", 7}, {"h", 2}});
  CHECK(notes == json::array({"two: its samples are not summed: it is a wall-mode profile and one a cpu-mode one"}));

  // a side with no mode first: the first mode named (wall) is the sum's, the cpu sides are left out
  notes = json::array();
  sum = profile::sum_profile_sides({&h, &g, &f}, {"one", "two", "three"}, notes);
  CHECK(sum["samples"] == 7);
  CHECK(sum["mode"] == "wall");
  CHECK(notes == json::array({"three: its samples are not summed: it is a cpu-mode profile and two a wall-mode one"}));
}
