// The tracing.* questions (tracing/trace_model.h) and the report's slowest_probes and event counts,
// on inputs written here whose answers are worked out by hand in the comments.
#include <catch2/catch.hpp>

#include "core/query.h"
#include "support.h"

using namespace gcscope;
using nlohmann::json;

namespace {

struct Session {
  std::unique_ptr<InputSet> set;
  json report;
};

Session open(const std::string& name, const std::string& bytes) {
  Session s{std::make_unique<InputSet>(json::object()), {}};
  s.set->begin_file(name);
  s.set->feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  s.set->end_file();
  json doc = s.set->finish();
  raw_json::resolve(doc);
  s.report = doc.at("reports").at(0);
  return s;
}

// bpftrace -f json of the capture recipe: "<ns> <probe> <duration>" printf lines.
// index: durations 1000 × i ns for i = 1..100 (one every 10 ms from 1.01 s); show: 10 × 5000 ns.
std::string stream() {
  std::string s = "{\"type\": \"attached_probes\", \"data\": {\"probes\": 2}}\n";
  for (int i = 1; i <= 100; ++i) {
    s += "{\"type\": \"printf\", \"data\": \"" + std::to_string(1000000000LL + i * 10000000LL) +
         " usdt:/proc/7/root/tmp/my_controller-AbCdEf.so:my_controller:index " + std::to_string(i * 1000) + "\\n\"}\n";
    if (i % 10 == 0)
      s += "{\"type\": \"printf\", \"data\": \"" + std::to_string(1000000000LL + i * 10000000LL) +
           " usdt:/proc/7/root/tmp/my_controller-AbCdEf.so:my_controller:show 5000\\n\"}\n";
  }
  return s;
}

}  // namespace

TEST_CASE("tracing.histogram bins an event stream exactly over any range", "[tracing][query]") {
  Session s = open("stream.ndjson", stream());
  // [1000, 100999] in 10 bins of 10000: bin j holds i = 10j+1 .. 10j+10, ten values each.
  json h =
      s.set->query("tracing.histogram", {{"probe", "my_controller:index"}, {"lo", 1000}, {"hi", 100999}, {"bins", 10}});
  CHECK(h.at("width") == 10000);
  REQUIRE(h.at("bins").size() == 10);
  for (const auto& b : h.at("bins")) CHECK(b.at("count") == 10);
  CHECK(h.at("bins").at(3).at("lo") == 31000);
  CHECK(h.at("bins").at(3).at("hi") == 40999);
  // Zoomed to [50000, 59999] in 5 bins of 2000: 50000..59000 are 10 values, 2 a bin; 49 below, 41 above.
  json z = s.set->query("tracing.histogram",
                        {{"probe", "my_controller:index"}, {"lo", "50000"}, {"hi", 59999}, {"bins", 5}});
  CHECK(z.at("width") == 2000);
  for (const auto& b : z.at("bins")) CHECK(b.at("count") == 2);
  CHECK(z.at("below") == 49);
  CHECK(z.at("above") == 41);
  // By default the whole range of the values: [1000, 100000] in 40 bins.
  json d = s.set->query("tracing.histogram", {{"probe", "my_controller:index"}});
  CHECK(d.at("lo") == 1000);
  CHECK(d.at("hi") == 100000);
  uint64_t total = 0;
  for (const auto& b : d.at("bins")) total += b.at("count").get<uint64_t>();
  CHECK(total == 100);
  CHECK_THROWS_WITH(s.set->query("tracing.histogram", {{"probe", "nope"}}), Catch::Contains("no event stream"));
  CHECK_THROWS_WITH(s.set->query("tracing.histogram", {{"probe", "my_controller:index"}, {"lo", 9}, {"hi", 8}}),
                    Catch::Contains("'hi'"));
}

TEST_CASE("tracing.probe gives one probe's row, histograms and event rate", "[tracing][query]") {
  Session s = open("stream.ndjson", stream());
  json p = s.set->query("tracing.probe", {{"probe", "my_controller:show"}});
  CHECK(p.at("row").at("calls") == 10);
  CHECK(p.at("row").at("p99") == 5000);
  CHECK(p.at("events").at("count") == 10);
  // show fires at 1.1 s, 1.2 s, … 2.0 s: one 1 s bin from its first event holds 10.
  CHECK(p.at("events").at("rate").at("count") == json::array({10}));
  REQUIRE(p.at("histograms").size() == 1);
  CHECK(p.at("histograms").at(0).at("total") == 10);
  CHECK(s.report.at("histograms").at(p.at("histograms").at(0).at("index").get<size_t>()).at("key") ==
        "my_controller:show");
  CHECK_THROWS_WITH(s.set->query("tracing.probe", {{"probe", "my_controller:nope"}}),
                    Catch::Contains("no probe named"));
}

TEST_CASE("slowest_probes ranks by p99, then by mean", "[tracing]") {
  Session s = open("stream.ndjson", stream());
  const json& slow = s.report.at("slowest_probes");
  REQUIRE(slow.size() == 2);
  CHECK(slow.at(0).at("probe") == "my_controller:index");  // p99 99000 ns
  CHECK(slow.at(0).at("by") == "p99");
  CHECK(slow.at(0).at("value") == 99000);
  CHECK(slow.at(1).at("probe") == "my_controller:show");  // p99 5000 ns
  // Histograms only: a bucket's lower bound ranks it. Here @us[b] lies in [8, 16) and @us[a] in [2, 4).
  std::string hist =
      "Attaching 1 probe...\n\n@us[a]: \n[2, 4)                 5 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n\n"
      "@us[b]: \n[8, 16)                3 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n\n";
  json by_bucket = open("hist.txt", hist).report.at("slowest_probes");
  REQUIRE(by_bucket.size() == 2);
  CHECK(by_bucket.at(0).at("probe") == "b");
  CHECK(by_bucket.at(0).at("value") == json::array({8, 15}));
}

TEST_CASE("bpftrace JSON: events are what the probes printed, the tool's records are counted apart", "[tracing]") {
  // As bpftrace 0.17 writes them (src/output.cpp): 1 attached_probes, 3 printf, 1 time, a map
  // printout, two lost_events records (12 + 30 events dropped), 1 warnf.
  std::string s =
      "{\"type\": \"attached_probes\", \"data\": {\"probes\": 1}}\n"
      "{\"type\": \"printf\", \"data\": \"a\\n\"}\n"
      "{\"type\": \"printf\", \"data\": \"b\\n\"}\n"
      "{\"type\": \"lost_events\", \"data\": {\"events\": 12}}\n"
      "{\"type\": \"time\", \"data\": \"10:00:01\\n\"}\n"
      "{\"type\": \"printf\", \"data\": \"c\\n\"}\n"
      "{\"type\": \"lost_events\", \"data\": {\"events\": 30}}\n"
      "{\"type\": \"warnf\", \"data\": \"careful\"}\n"
      "{\"type\": \"map\", \"data\": {\"@calls\": {\"x\": 3}}}\n";
  json r = open("capture.ndjson", s).report;
  CHECK(r.at("events") == 4);  // 3 printf + 1 time
  CHECK(r.at("lost_events") == 42);
  CHECK(r.at("event_types").at("attached_probes") == 1);
  CHECK(r.at("event_types").at("lost_events") == 2);
  CHECK(r.at("event_types").at("map") == 1);
  CHECK(r.at("attached_probes") == 1);
}
