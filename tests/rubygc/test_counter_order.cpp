// GC counters that step back in a payload: a recorder's lag (threads interleaving, a GC hook written
// late) is accepted and named in a note; a restart or a second process spliced in stays a 400 naming
// the sample. The real payload is fixtures/rubygc/rec31_malloc.json (recorded by recorder/ under
// Debian's ruby with four worker threads, see generate.sh); its figures below were counted by
// fixtures/rubygc/check_payload.py, which reads the JSON without gcscope.
#include <catch2/catch.hpp>

#include "support.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()
using nlohmann::json;

namespace {

json tuner(const json& payload) { return report_of(analyze_bytes({{"p.json", payload.dump()}}), "tunemygc-payload"); }

const json* finding(const json& r, const std::string& id) {
  for (const auto& f : r["findings"])
    if (f["id"] == id) return &f;
  return nullptr;
}

// [ts, peak_rss, rss, EVENT, [count, minor_gc_count, major_gc_count], info, meta, thread]
json sample(double ts, const char* ev, int64_t count, int64_t minor, int64_t major, json thread = nullptr) {
  return json::array({ts,
                      1000,
                      1000,
                      ev,
                      json::array({count, minor, major}),
                      {{"major_by", nullptr}, {"gc_by", "newobj"}},
                      nullptr,
                      thread});
}

json payload_of(std::vector<json> samples) {
  json header = json::array({nullptr,
                             "3.1.2",
                             "0.0",
                             json::object(),
                             "1.0.71",
                             json::array(),
                             {{"HEAP_PAGE_OBJ_LIMIT", 409}},
                             json::array({"count", "minor_gc_count", "major_gc_count"}),
                             "manual",
                             "host",
                             1,
                             2});
  json p = json::array({header});
  for (auto& s : samples) p.push_back(std::move(s));
  return p;
}

}  // namespace

TEST_CASE("rubygc counters: the real malloc-heavy payload is accepted with its lagged samples named", "[rubygc]") {
  json r = report_of(analyze_paths({fixture("rubygc/rec31_malloc.json")}), "tunemygc-payload");
  INFO(r["verdict"].dump());
  REQUIRE(r["verdict"]["status"] == 200);
  const json* lag = finding(r, "lagged_samples");
  REQUIRE(lag);
  // check_payload.py: 33 samples lower than a counter written before them, 6 of them GC hook samples.
  CHECK((*lag)["evidence"]["count"] == 33);
  size_t hooks = 0;
  for (const auto& s : (*lag)["evidence"]["samples"]) hooks += s["event"].get<std::string>().rfind("GC_CYCLE_", 0) == 0;
  CHECK((*lag)["evidence"]["samples"].size() == 20);  // the first 20 are listed
  CHECK(hooks <= 6);
  // Most minor GCs while working were malloc-triggered (check_payload.py: 36 of the units with only
  // minor GCs ended on a malloc GC, of 62 minors): the malloc limits are raised (autotuner's rule).
  CHECK(r["metrics"]["minor_by_malloc"] == 36);
  CHECK(r["metrics"]["minors"] == 62);
  CHECK(r["strategies"]["speed"]["RUBY_GC_MALLOC_LIMIT"] == std::to_string(32 << 20));
  CHECK(r["strategies"]["speed"]["RUBY_GC_MALLOC_LIMIT_MAX"] == std::to_string(64 << 20));
  CHECK(r["boot_gc_count"] == 12);  // check_payload.py: count at BOOTED
}

TEST_CASE("rubygc counters: two processes spliced into one payload are still a 400 naming the sample", "[rubygc]") {
  // The malloc payload's samples, then the steady payload's (same Ruby, same GC.stat keys): the second
  // process starts again from its own BOOTED on the main thread.
  json a = read_json(fixture("rubygc/rec31_malloc.json"));
  json b = read_json(fixture("rubygc/rec31_steady.json"));
  REQUIRE(a[0][7] == b[0][7]);
  const size_t first_of_b = a.size() - 1;  // sample index of b's BOOTED in the splice
  for (size_t i = 1; i < b.size(); ++i) a.push_back(b[i]);
  json r = tuner(a);
  INFO(r["verdict"].dump());
  CHECK(r["verdict"]["status"] == 400);
  const std::string m = r["verdict"]["message"];
  CHECK(m.find("sample #" + std::to_string(first_of_b) + " ") != std::string::npos);
  CHECK(m.find("BOOTED") != std::string::npos);
  CHECK(m.find("this thread's previous sample") != std::string::npos);
  CHECK(r["verdict"]["details"]["sample"] == first_of_b);
  CHECK(r["samples"]["read_before_error"] == first_of_b);
}

TEST_CASE("rubygc counters: a GC hook sample may lag by the cycles in flight, no more", "[rubygc]") {
  // One thread: the hook read minor_gc_count inside the cycle, before Ruby bumped it; the unit's end
  // read it after. Accepted: within one GC cycle.
  json p = payload_of({sample(0, "BOOTED", 5, 4, 1), sample(1, "PROCESSING_STARTED", 5, 4, 1),
                       sample(2, "PROCESSING_ENDED", 6, 5, 1), sample(2.1, "GC_CYCLE_ENDED", 6, 4, 1),
                       sample(3, "TERMINATED", 6, 5, 1)});
  json r = tuner(p);
  CHECK(r["verdict"]["status"] == 200);
  const json* lag = finding(r, "lagged_samples");
  REQUIRE(lag);
  CHECK((*lag)["evidence"]["samples"][0]["sample"] == 3);
  CHECK((*lag)["evidence"]["samples"][0]["key"] == "minor_gc_count");
  // Two cycles behind with one thread: more than can be in flight.
  p[4][4] = json::array({4, 3, 1});
  r = tuner(p);
  CHECK(r["verdict"]["status"] == 400);
  CHECK(r["verdict"]["message"].get<std::string>().find("by 2 GC cycles, more than the 1") != std::string::npos);
}

TEST_CASE("rubygc counters: another thread's sample may overtake, the same thread's may not", "[rubygc]") {
  // Thread 7 reads count 10, thread 8 runs a GC and writes count 11 first, then thread 7 writes 10.
  json p = payload_of({sample(0, "BOOTED", 10, 8, 2), sample(1, "PROCESSING_STARTED", 10, 8, 2, 7),
                       sample(1.1, "PROCESSING_STARTED", 10, 8, 2, 8), sample(1.5, "PROCESSING_ENDED", 11, 9, 2, 8),
                       sample(1.6, "PROCESSING_ENDED", 10, 8, 2, 7), sample(2, "TERMINATED", 11, 9, 2)});
  json r = tuner(p);
  CHECK(r["verdict"]["status"] == 200);
  REQUIRE(finding(r, "lagged_samples"));
  CHECK(r["metrics"]["gcs_during_processing"] == 1);  // the highest count while working, 11, minus 10
  // The same thread going back below its own previous sample is not a lag.
  p[5][7] = 8;  // thread 8's end wrote 11, then "thread 8" writes 10
  r = tuner(p);
  CHECK(r["verdict"]["status"] == 400);
  CHECK(r["verdict"]["message"].get<std::string>().find(
            "sample #4 (payload element 5, PROCESSING_ENDED): GC.stat count = 10 is "
            "lower than 11 at sample #3, this thread's previous sample") != std::string::npos);
}
