// rbkit.range (the page's zoom) and the report's leak reading, on the real capture of the shared
// corpus: window counts from fixtures/rbkit/real_stock_windows.truth.json (decoded by a msgpack
// reader of its own, fixtures/rbkit/rbkit_frames.py) and totals from the corpus truth.
#include <catch2/catch.hpp>

#include "core/query.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;
using nlohmann::json;

namespace {
struct Session {
  std::unique_ptr<InputSet> set;
  json report;
};
Session open(const std::string& path) {
  Session s{std::make_unique<InputSet>(json::object()), {}};
  std::string bytes = read_file(path);
  s.set->begin_file(path);
  s.set->feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  s.set->end_file();
  json doc = s.set->finish();
  raw_json::resolve(doc);
  s.report = report_of(doc, "rbkit-capture");
  return s;
}
}  // namespace

TEST_CASE("rbkit.range: a zoomed window's figures are the events in it", "[rbkit][query][corpus]") {
  Session s = open(corpus("heap/rbkit/real_stock_threaddeath.rbkit"));
  json truth = read_json(fixture("rbkit/real_stock_windows.truth.json"));
  json corpus_truth = read_json(corpus("heap/expected/rbkit_real_stock_threaddeath.truth.json"));
  for (const auto& w : truth.at("windows")) {
    INFO(w.dump());
    // A window of whole seconds [s0, s1]: t1 anywhere inside the last second.
    json r = s.set->query("rbkit.range", {{"t0", w.at("s0")}, {"t1", w.at("s1").get<double>() + 0.999}});
    CHECK(r.at("objects").at("created") == w.at("created"));
    CHECK(r.at("objects").at("destroyed") == w.at("destroyed"));
  }
  // The whole capture: the corpus truth's totals, its 11 complete GC cycles and the live count at the end.
  const json& whole = truth.at("windows").at(0);
  json all = s.set->query("rbkit.range", {{"t0", whole.at("s0")}, {"t1", whole.at("s1").get<double>() + 0.999}});
  CHECK(all.at("objects").at("created") == corpus_truth.at("objects").at("obj_created"));
  CHECK(all.at("gc").at("cycles") == corpus_truth.at("gc").at("start_to_end_s_pairs"));
  CHECK(all.at("objects").at("live_at_end") == corpus_truth.at("objects").at("live_created_in_capture_at_end"));
  CHECK(all.at("objects").at("live_at_start") == 0);
  // Seconds 10-19 of the capture: 3 GC cycles start there, all of them complete.
  const json& mid = truth.at("windows").at(1);
  json m = s.set->query("rbkit.range", {{"t0", mid.at("s0")}, {"t1", mid.at("s1").get<double>() + 0.999}});
  CHECK(m.at("gc").at("cycles") == mid.at("gc_start"));
  CHECK(m.at("timeline").at("t").size() == 10);
  // Two adjacent windows add up, and the live count carries over from one to the next.
  json a = s.set->query("rbkit.range", {{"t0", whole.at("s0")}, {"t1", mid.at("s0").get<double>() - 0.001}});
  json b = s.set->query("rbkit.range", {{"t0", mid.at("s0")}, {"t1", whole.at("s1").get<double>() + 0.999}});
  CHECK(a.at("objects").at("created").get<uint64_t>() + b.at("objects").at("created").get<uint64_t>() ==
        all.at("objects").at("created").get<uint64_t>());
  CHECK(b.at("objects").at("live_at_start") == a.at("objects").at("live_at_end"));
  CHECK_THROWS_WITH(s.set->query("rbkit.range", {{"t0", 5}, {"t1", 4}}), Catch::Contains("'t1'"));
  CHECK_THROWS_WITH(s.set->query("rbkit.range", {{"t0", 5}}), Catch::Contains("'t1'"));
}

TEST_CASE("rbkit leak reading: steady after warm-up is no leak, a kept share of objects is one",
          "[rbkit][query][corpus]") {
  // The real capture: the live curve climbs for ~6 s, then stays between 9,500 and 11,800.
  json steady = open(corpus("heap/rbkit/real_stock_threaddeath.rbkit")).report.at("leak");
  CHECK(steady.at("verdict") == "stable");
  CHECK(steady.at("mean_live").get<double>() > 9500);
  CHECK(steady.at("mean_live").get<double>() < 11800);
  // The synthetic leak keeps 5 Order objects a second for 40 s (fixtures/rbkit/rbkit_frames.py):
  // over the second half (seconds 20-39) the trend is 5 a second, 300 a minute.
  json leak = open(fixture("rbkit/leak-synthetic.rbkit")).report.at("leak");
  CHECK(leak.at("verdict") == "growing");
  CHECK(leak.at("per_minute") == 300);
  CHECK(leak.at("classes").at(0).at("class") == "Order");
  CHECK(leak.at("classes").at(0).at("live_at_end") == 200);
  // Too short a capture to tell: the first 12 messages of the real one (2 seconds).
  json short_one = open(fixture("rbkit/stock-server-first12.rbkit")).report.at("leak");
  CHECK(short_one.at("verdict") == "not enough data");
}
