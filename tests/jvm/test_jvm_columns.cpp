// The JVM session's storage (wasm/jvm/int_column.h, aggregator.h): every value reads back exactly,
// compactly, in time order whatever order the log printed the records in, and members merge into
// the figures one aggregator over all of them gives. Expected values: hand arithmetic over
// synthetic streams written down below, and the same log analyzed whole.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "core/raw_json.h"
#include "jvm/aggregator.h"
#include "jvm_session.h"

using nlohmann::json;

namespace gcscope::test {
namespace {

using gcscope::jvm::GcAggregator;
using gcscope::jvm::IntColumn;

// `n` young pauses of (i % 1000) + 1 µs, 10 ms apart, each its own event, of member `member`
// starting at pause `from`.
void feed(GcAggregator& agg, uint32_t member, size_t from, size_t n) {
  jvm::GcEvent e;
  e.type = jvm::GcType::Young;
  e.cause = (member % 2) ? "G1 Evacuation Pause" : "Allocation Failure";
  e.member = member;
  for (size_t i = from; i < from + n; ++i) {
    e.uptime_s = static_cast<double>(i) * 0.01;
    e.duration_s = static_cast<double>(i % 1000 + 1) * 1e-6;
    e.first_line = i + 1;
    agg.on_event(e);
  }
}

json whole(GcAggregator& agg) {
  json r;
  agg.write_report(r);
  raw_json::resolve(r);
  return r;
}

}  // namespace

TEST_CASE("jvm columns: every value reads back exactly, nulls and extremes included", "[jvm][columns]") {
  std::mt19937_64 rng(29);
  std::vector<int64_t> want;
  IntColumn c;
  for (size_t i = 0; i < 100000; ++i) {
    int64_t v;
    switch (i % 7) {
      case 0: v = IntColumn::kNull; break;             // not printed
      case 1: v = static_cast<int64_t>(rng()); break;  // anything
      case 2: v = INT64_MAX; break;
      case 3: v = IntColumn::kNull + 1; break;                                      // the smallest value
      case 4: v = static_cast<int64_t>(i) * 1000000; break;                         // a ms grid in ns
      default: v = static_cast<int64_t>(rng() % 4096) * 1024 - 2048 * 1024; break;  // sizes in M, some negative
    }
    if (i >= 60000) v = (i / 300) % 3 ? static_cast<int64_t>(i) * 3 : IntColumn::kNull;  // whole null blocks
    want.push_back(v);
    c.push(v);
  }
  REQUIRE(c.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i)
    if (c[i] != want[i]) FAIL("value " << i << ": " << c[i] << " instead of " << want[i]);
  std::vector<int64_t> got(want.size());
  c.decode(0, want.size(), got.data());
  CHECK(got == want);
  std::vector<int64_t> part(1000);
  c.decode(65500, 66500, part.data());  // across blocks and 64 KiB chunks of words
  CHECK(std::equal(part.begin(), part.end(), want.begin() + 65500));
  IntColumn d;
  d.push(7);
  d.append(c);
  REQUIRE(d.size() == want.size() + 1);
  CHECK(d[0] == 7);
  for (size_t i : {size_t{0}, size_t{255}, size_t{256}, size_t{59999}, size_t{99999}}) CHECK(d[i + 1] == want[i]);
  CHECK(c.any_value());
  IntColumn nulls;
  for (int i = 0; i < 1000; ++i) nulls.push(IntColumn::kNull);
  CHECK_FALSE(nulls.any_value());
}

// A block whose values sit on the previous block's grid of 1,000,000 but one, off the grid by a
// multiple of 64 (the grid's power-of-two part): the grid must not be kept for that block. (The
// time of 929_def.cms.wd.wt.log's concurrent mode failure, 37.5713941 s after 37.568 s stamps,
// read back as 40.0879765 s before.)
TEST_CASE("jvm columns: a value off the grid by a multiple of its power of two reads back exactly", "[jvm][columns]") {
  IntColumn c;
  std::vector<int64_t> values;
  for (int64_t i = 0; i < 256; ++i) values.push_back(1'000'000'000 + i * 1'000'000);
  for (int64_t i = 0; i < 256; ++i) values.push_back(2'000'000'000 + i * 1'000'000);
  values[256 + 5] = 2'000'000'000 + 5'000'064;  // 5,000,064 = 64 * 78,126: not a multiple of 15,625
  for (int64_t v : values) c.push(v);
  for (size_t i = 0; i < values.size(); ++i) CHECK(c[i] == values[i]);
}

TEST_CASE("jvm columns: values on a grid take the bits of their spread, not 64", "[jvm][columns]") {
  // A million pause starts 10 ms apart (in ns) with µs jitter: each block of 256 spans 2.56 s on a
  // 1 µs grid, 2.56e6 steps: 22 bits. Heap sizes in M (multiples of 1024 KiB) up to 4 G: 12 bits.
  IntColumn t, heap;
  for (int64_t i = 0; i < 1000000; ++i) {
    t.push(i * 10000000 + (i * 7919 % 1000) * 1000);
    heap.push((i * 2654435761 % 4096) * 1024);
  }
  CHECK(t.bytes() < 1000000 * 22 / 8 * 11 / 10);  // 22 bits a value, and 10 % for block headers
  CHECK(heap.bytes() < 1000000 * 2);
}

TEST_CASE("jvm columns: records printed after later ones are put in time order", "[jvm][columns]") {
  // 10,000 young pauses 10 ms apart, then one concurrent cycle that started at 5 ms (printed at its
  // end, 9,000 events later: beyond the window of recent records), then one that started at 99.995 s
  // (within it).
  GcAggregator agg;
  feed(agg, 0, 0, 10000);
  jvm::GcEvent cycle;
  cycle.type = jvm::GcType::Concurrent_Cycle;
  cycle.stop_the_world = false;
  cycle.uptime_s = 0.005;
  cycle.duration_s = 90.0;
  cycle.first_line = 5;
  agg.on_event(cycle);
  cycle.uptime_s = 99.985;
  cycle.first_line = 99990;
  agg.on_event(cycle);
  const json r = whole(agg);
  CHECK(r["events"]["total"] == 10002);
  const auto& t = agg.columns().events.t;
  for (size_t i = 1; i < t.size(); ++i)
    if (t[i] < t[i - 1]) FAIL("event " << i << " is before event " << i - 1);
  CHECK(t[1] == 5000000);          // the late cycle, second
  CHECK(t[10000] == 99985000000);  // the other between the last two pauses
  // Its first page and a range count it where it started.
  CHECK(agg.events_page({})["rows"][1]["type"] == "Concurrent_Cycle");
  CHECK(agg.summary(0.001, 0.006)["events"]["total"] == 1);
}

TEST_CASE("jvm columns: percentiles are exact (synthetic stream)", "[jvm][columns]") {
  // 300,000 pauses: every duration from 1 to 1,000 µs exactly 300 times. Nearest rank of the sorted
  // values: index r holds r / 300 + 1 µs, so p50 = index 149,999 -> 500 µs, p90 = 269,999 -> 900 µs,
  // p99 = 296,999 -> 990 µs, p99.9 = 299,699 -> 999 µs, min 1 µs, max 1,000 µs; total 300 x 500,500 µs.
  GcAggregator agg;
  feed(agg, 0, 0, 300000);
  const json r = whole(agg);
  // (The mean, 500.5 µs, is a rounding tie at the report's precision: compared with a margin.)
  CHECK(r["pauses"]["mean_s"].get<double>() == Approx(0.0005005).margin(0.6e-6));
  const json want = {{"count", 300000},
                     {"total_s", 150.15},
                     {"min_s", 0.000001},
                     {"max_s", 0.001},
                     {"mean_s", r["pauses"]["mean_s"]},
                     {"p50_s", 0.0005},
                     {"p90_s", 0.0009},
                     {"p99_s", 0.00099},
                     {"p999_s", 0.000999}};
  CHECK(r["pauses"] == want);
  // The pauses of [1000 s, 1999.99 s]: indexes 100,000-199,999, the same 1..1,000 µs 100 times each.
  const json range = agg.summary(1000, 1999.99)["pauses"];
  CHECK(range["count"] == 100000);
  CHECK(range["p50_s"] == 0.0005);
  CHECK(range["p99_s"] == 0.00099);
  CHECK(range["total_s"] == 50.05);
}

TEST_CASE("jvm columns: merged members give the figures of one aggregator over both", "[jvm][columns]") {
  // Member 0: 2,000 pauses, member 1: 3,000 (the stream above, continued).
  GcAggregator one, a, b;
  feed(one, 0, 0, 2000);
  feed(one, 1, 2000, 3000);
  feed(a, 0, 0, 2000);
  feed(b, 1, 2000, 3000);
  a.flush(), b.flush();
  a.merge_from(b);
  const json want = whole(one), got = whole(a);
  for (const char* k : {"pauses", "causes", "phases", "pause_kinds", "events", "findings", "heap", "rates"}) {
    INFO(k);
    CHECK(got[k] == want[k]);
  }
  CHECK(got["pauses"]["count"] == 5000);
  CHECK(a.columns().event_members == std::vector<std::pair<size_t, uint32_t>>{{0, 0}, {2000, 1}});
  CHECK(a.summary(20, 49.99)["pauses"] == one.summary(20, 49.99)["pauses"]);
}

TEST_CASE("jvm columns: a rotating set with restarts keeps every run (members overlap in time)",
          "[jvm][columns][corpus]") {
  // Every segment starts near uptime 0 (five JVM runs); with all_runs=true every run is kept. A
  // range then holds the events of every run in it.
  const std::string dir = corpus("jvm/gctoolkit/rolling/jdk14/rollinglogs/");
  std::vector<std::string> runs;
  for (const char* m : {"short_restart_4.log.1", "short_restart_4.log.2", "short_restart_4.log.3",
                        "short_restart_4.log.4", "short_restart_4.log"})
    runs.push_back(dir + m);
  JvmSession all(runs, json{{"all_runs", true}});
  int64_t in_range = 0;
  for (const auto& p : runs)
    in_range += JvmSession({p}).ask("jvm.summary", {{"t0", 0}, {"t1", 1}})["pauses"]["count"].get<int64_t>();
  CHECK(all.report()["pauses"]["count"] == 65 + 45 + 3 + 120 + 288);
  CHECK(all.ask("jvm.summary", {{"t0", 0}, {"t1", 1}})["pauses"]["count"] == in_range);
  // The event table: every event once.
  CHECK(all.ask("jvm.events", {{"limit", 1}})["total"] == all.report()["events"]["total"]);
}

}  // namespace gcscope::test
