// The bounded pause series (wasm/jvm/pause_series.h): past the exact cap (option jvm_exact_pauses)
// the pauses go into at most 4,096 buckets with duration histograms and per-kind/per-cause tallies,
// and a histogram of the exact durations keeps the global figures exact. Expected values: the same
// log analyzed in exact mode (the default cap), the corpus manifests (GCToolKit's counts) and hand
// counts of synthetic pause streams written down below.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/raw_json.h"
#include "jvm/aggregator.h"
#include "packed_column.h"
#include "support.h"

using nlohmann::json;

namespace gcscope::test {
namespace {

using gcscope::jvm::GcAggregator;

json jvm(const std::vector<std::string>& paths, json options = json::object()) {
  return report_of(analyze_paths(paths, std::move(options)), "jvm-gc-log");
}
json capped(const std::vector<std::string>& paths, uint64_t cap, json options = json::object()) {
  options["jvm_exact_pauses"] = cap;
  return jvm(paths, std::move(options));
}

// The report without its series: every summary figure, table and finding.
json summary(json r) {
  r.erase("series");
  return r;
}

// The bucketed pause series, decoded.
struct Tallies {
  std::vector<int64_t> n, idx, count, total_us, max_us;
  std::vector<size_t> start;  // per bucket, into the flattened lists
};
struct Buckets {
  size_t nb = 0;
  uint64_t per = 0, count = 0;
  std::vector<std::optional<int64_t>> t, t_last, t_max;
  std::vector<int64_t> n, total_us, min_us, max_us, line, member, hist_n, hist_bin, hist_count;
  std::vector<size_t> hist_start;
  Tallies kinds, causes;
};

Tallies decode_tallies(const json& j, const char* idx, size_t nb) {
  Tallies t;
  t.n = unpack_ints(j["n"].get<std::string>(), nb, false);
  t.start.push_back(0);
  for (int64_t k : t.n) t.start.push_back(t.start.back() + static_cast<size_t>(k));
  const size_t m = t.start.back();
  t.idx = unpack_ints(j[idx].get<std::string>(), m, false);
  t.count = unpack_ints(j["count"].get<std::string>(), m, false);
  t.total_us = unpack_ints(j["total_us"].get<std::string>(), m, false);
  t.max_us = unpack_ints(j["max_us"].get<std::string>(), m, false);
  return t;
}

Buckets decode(const json& p) {
  REQUIRE(p["encoding"] == "buckets");
  Buckets b;
  b.nb = p["buckets"].get<size_t>();
  b.per = p["per_bucket"].get<uint64_t>();
  b.count = p["count"].get<uint64_t>();
  auto col = [&](const char* k, bool delta) { return unpack_ints(p[k].get<std::string>(), b.nb, delta); };
  b.t = unpack(p["t_us"].get<std::string>(), b.nb, true);
  b.t_last = unpack(p["t_last_us"].get<std::string>(), b.nb, true);
  b.t_max = unpack(p["t_max_us"].get<std::string>(), b.nb, true);
  b.n = col("n", false);
  b.total_us = col("total_us", false);
  b.min_us = col("min_us", false);
  b.max_us = col("max_us", false);
  b.line = col("line", true);
  b.member = col("member", false);
  b.hist_n = unpack_ints(p["hist"]["n"].get<std::string>(), b.nb, false);
  b.hist_start.push_back(0);
  for (int64_t k : b.hist_n) b.hist_start.push_back(b.hist_start.back() + static_cast<size_t>(k));
  b.hist_bin = unpack_ints(p["hist"]["bin"].get<std::string>(), b.hist_start.back(), true);
  b.hist_count = unpack_ints(p["hist"]["count"].get<std::string>(), b.hist_start.back(), false);
  b.kinds = decode_tallies(p["kinds"], "name", b.nb);
  b.causes = decode_tallies(p["causes"], "cause", b.nb);
  return b;
}

// The bin layout written in the README, computed here with log2 rather than frexp: bin 0 below
// 1 µs, bin 1 + 32 e + k for [2^e (1 + k/32), 2^e (1 + (k+1)/32)) µs.
int64_t bin_of_us(double us) {
  if (us < 1) return 0;
  int e = static_cast<int>(std::floor(std::log2(us)));
  if (std::ldexp(1.0, e) > us) --e;  // log2 rounding just below a power of two
  if (std::ldexp(1.0, e + 1) <= us) ++e;
  int k = static_cast<int>(std::floor((us / std::ldexp(1.0, e) - 1) * 32));
  return 1 + 32 * e + std::min(k, 31);
}

// The exact pauses of a report (packed encoding), in the report's order.
struct Exact {
  std::vector<std::optional<int64_t>> t;
  std::vector<int64_t> d, name, cause;
};
Exact exact_pauses(const json& p) {
  REQUIRE(p["encoding"] == "packed");
  const size_t n = p["count"].get<size_t>();
  return {unpack(p["t_us"].get<std::string>(), n, true), unpack_ints(p["duration_us"].get<std::string>(), n, false),
          unpack_ints(p["name"].get<std::string>(), n, false), unpack_ints(p["cause"].get<std::string>(), n, false)};
}

// Checks the bucketed series of `r` against its summary, and bucket by bucket against the exact
// pauses of the same log (`exact`: the default run), whose consecutive slices the buckets are when
// the log is one member in time order.
void check_buckets(const json& r, const json& exact) {
  const Buckets b = decode(r["series"]["pauses"]);
  const Exact x = exact_pauses(exact["series"]["pauses"]);
  const json& names = r["series"]["names"];
  REQUIRE(r["series"]["names"] == exact["series"]["names"]);
  REQUIRE(r["series"]["causes"] == exact["series"]["causes"]);
  CHECK(b.count == r["pauses"]["count"].get<uint64_t>());
  CHECK(b.nb <= GcAggregator::kMaxBuckets);
  uint64_t n = 0;
  int64_t total = 0, max = 0;
  size_t at = 0;  // first exact pause of the bucket
  for (size_t i = 0; i < b.nb; ++i) {
    INFO("bucket " << i);
    const auto k = static_cast<size_t>(b.n[i]);
    REQUIRE(k >= 1);
    CHECK(b.n[i] <= static_cast<int64_t>(b.per));
    n += k;
    total += b.total_us[i];
    max = std::max(max, b.max_us[i]);
    // The same pauses as the exact run's slice.
    REQUIRE(at + k <= x.d.size());
    int64_t sum = 0, lo = INT64_MAX, hi = 0;
    std::map<int64_t, std::pair<int64_t, int64_t>> kinds, causes;  // idx -> (count, max)
    for (size_t j = at; j < at + k; ++j) {
      sum += x.d[j], lo = std::min(lo, x.d[j]), hi = std::max(hi, x.d[j]);
      auto& kc = kinds[x.name[j]];
      ++kc.first, kc.second = std::max(kc.second, x.d[j]);
      auto& cc = causes[x.cause[j]];
      ++cc.first, cc.second = std::max(cc.second, x.d[j]);
    }
    CHECK(b.t[i] == x.t[at]);
    CHECK(b.t_last[i] == x.t[at + k - 1]);
    CHECK(b.min_us[i] == lo);
    CHECK(b.max_us[i] == hi);
    CHECK(std::llabs(b.total_us[i] - sum) <= static_cast<int64_t>(k + 1) / 2 + 1);  // each exact value rounded
    // The histogram holds the bucket's pauses, between the bins of its min and max.
    int64_t in_hist = 0;
    for (size_t j = b.hist_start[i]; j < b.hist_start[i + 1]; ++j) {
      in_hist += b.hist_count[j];
      CHECK(b.hist_bin[j] >= bin_of_us(static_cast<double>(lo) - 0.5));
      CHECK(b.hist_bin[j] <= bin_of_us(static_cast<double>(hi) + 0.5));
      if (j > b.hist_start[i]) CHECK(b.hist_bin[j] > b.hist_bin[j - 1]);
    }
    CHECK(in_hist == b.n[i]);
    // Per kind and per cause: the exact slice's counts and maxima.
    for (const auto* tallies : {&b.kinds, &b.causes}) {
      const auto& want = tallies == &b.kinds ? kinds : causes;
      CHECK(tallies->n[i] == static_cast<int64_t>(want.size()));
      for (size_t j = tallies->start[i]; j < tallies->start[i + 1]; ++j) {
        auto it = want.find(tallies->idx[j]);
        REQUIRE(it != want.end());
        CHECK(tallies->count[j] == it->second.first);
        CHECK(tallies->max_us[j] == it->second.second);
      }
    }
    at += k;
  }
  CHECK(at == x.d.size());
  CHECK(n == b.count);
  CHECK(static_cast<double>(total) / 1e6 == Approx(r["pauses"]["total_s"].get<double>()).margin(1e-6 * static_cast<double>(b.nb)));
  CHECK(static_cast<double>(max) / 1e6 == r["pauses"]["max_s"].get<double>());
  // Kinds summed over the buckets: the report's phase rows of the pause kinds.
  std::map<std::string, std::pair<int64_t, int64_t>> kind_sums;
  for (size_t j = 0; j < b.kinds.idx.size(); ++j) {
    auto& s = kind_sums[names[static_cast<size_t>(b.kinds.idx[j])].get<std::string>()];
    s.first += b.kinds.count[j], s.second += b.kinds.total_us[j];
  }
  for (const auto& [name, s] : kind_sums) {
    INFO(name);
    const json& ph = r["phases"][name];
    CHECK(s.first == ph["count"].get<int64_t>());
    CHECK(static_cast<double>(s.second) / 1e6 == Approx(ph["total_s"].get<double>()).margin(1e-6 * static_cast<double>(b.nb)));
  }
}

}  // namespace

TEST_CASE("jvm pause buckets: past the cap the global figures equal the exact run's", "[jvm][pause-buckets]") {
  struct Case {
    const char* rel;
    int64_t pauses;  // from the manifest (GCToolKit), -1: not asserted
  };
  // defnew.log: GCToolKit's 19,114 DefNew + 26 initial marks + 26 remarks (gctoolkit.integration);
  // parallelgc.log: 4,638 PSYoungGen + 28 PSFull (gctoolkit.parser_event_counts).
  for (const Case c : {Case{"gctoolkit/preunified/cms/defnew/details/defnew.log", 19166},
                       Case{"gctoolkit/unified/parallel/parallelgc.log", 4638 + 28},
                       Case{"generated/jdk17_g1_gc-all-safepoint_default-decorations.log", -1},
                       Case{"gctoolkit/preunified/cms/parnew/details/TC_oy579c2n5.gc.out", -1}}) {
    INFO(c.rel);
    const std::string path = corpus(std::string("jvm/") + c.rel);
    const json exact = jvm({path});
    REQUIRE(exact["series"]["pauses"]["encoding"] == "packed");
    if (c.pauses >= 0) CHECK(exact["pauses"]["count"] == c.pauses);
    const json bucketed = capped({path}, 50);
    REQUIRE(bucketed["series"]["pauses"]["encoding"] == "buckets");
    // Count, total, max, mean, p50/p90/p99/p99.9, causes, phases, findings: all the same.
    CHECK(summary(bucketed) == summary(exact));
    CHECK(bucketed["pauses"] == exact["pauses"]);
    CHECK(bucketed["findings"] == exact["findings"]);
    check_buckets(bucketed, exact);
  }
  // The defnew log's total, GCToolKit's 208.922 s (manifest), in both modes.
  json d = capped({corpus("jvm/gctoolkit/preunified/cms/defnew/details/defnew.log")}, 50);
  CHECK(d["pauses"]["total_s"].get<double>() == Approx(208.922).margin(0.002));
  // 19,166 pauses in at most 4,096 buckets: 8 per full bucket.
  CHECK(d["series"]["pauses"]["per_bucket"] == 8);
}

TEST_CASE("jvm pause buckets: per-cause tallies add up to the report's causes", "[jvm][pause-buckets]") {
  // Parallel collections are single pauses, so a cause's pause count is its event count; its paused
  // time is the sum of its pauses in both.
  const json r = capped({corpus("jvm/gctoolkit/unified/parallel/parallelgc.log")}, 50);
  const Buckets b = decode(r["series"]["pauses"]);
  const json& names = r["series"]["causes"];
  std::map<std::string, std::pair<int64_t, int64_t>> sums;
  for (size_t j = 0; j < b.causes.idx.size(); ++j) {
    REQUIRE(b.causes.idx[j] >= 0);  // every parallel collection names its cause
    auto& s = sums[names[static_cast<size_t>(b.causes.idx[j])].get<std::string>()];
    s.first += b.causes.count[j], s.second += b.causes.total_us[j];
  }
  REQUIRE(sums.size() == r["causes"].size());
  REQUIRE(sums.size() == 3);
  for (const auto& [name, s] : sums) {
    INFO(name);
    CHECK(s.first == r["causes"][name]["count"].get<int64_t>());
    CHECK(static_cast<double>(s.second) / 1e6 == Approx(r["causes"][name]["total_s"].get<double>()).margin(1e-6 * static_cast<double>(b.nb)));
  }
}

TEST_CASE("jvm pause buckets: the cap is inclusive, and a log under it is reported as before", "[jvm][pause-buckets]") {
  // Hand count of the fixture: 27 "GC(n) Pause … ms" lines.
  const std::string path = fixture("jvm/jdk17-g1.log");
  const json def = jvm({path});
  REQUIRE(def["pauses"]["count"] == 27);
  const json at = capped({path}, 27);
  CHECK(at.dump() == def.dump());  // exactly the default report
  const json over = capped({path}, 26);
  CHECK(over["series"]["pauses"]["encoding"] == "buckets");
  CHECK(summary(over) == summary(def));
  // As a string too (what --set KEY=VALUE gives when the value is quoted).
  CHECK(jvm({path}, json{{"jvm_exact_pauses", "26"}})["series"]["pauses"]["encoding"] == "buckets");
  // A value that is not a whole number is said once, as a warning at the input, and the default is used.
  for (const json& bad : {json("many"), json(-3), json(2.5)}) {
    const json doc = analyze_paths({path}, json{{"jvm_exact_pauses", bad}});
    INFO(bad.dump());
    CHECK(report_of(doc, "jvm-gc-log")["series"]["pauses"] == def["series"]["pauses"]);
    REQUIRE(doc["errors"].size() == 1);
    CHECK(doc["errors"][0]["severity"] == "warning");
    CHECK(doc["errors"][0]["message"].get<std::string>().find("jvm_exact_pauses=") == 0);
    CHECK(doc["errors"][0]["path"] == path);
  }
}

TEST_CASE("jvm pause buckets: rotating sets merge exact and bucketed members", "[jvm][pause-buckets]") {
  // gc.log.0: 2,373 pauses, gc.log.1.current: 897 (each analyzed alone). Caps: 50 (both bucketed),
  // 1,000 (one exact, one bucketed), 3,000 (both exact, their sum of 3,270 over the cap), and the
  // default (exact).
  const std::string dir = corpus("jvm/gctoolkit/streaming/rotating_directory/");
  const std::vector<std::string> set = {dir + "gc.log.1.current", dir + "gc.log.0"};
  const json exact = jvm(set);
  REQUIRE(exact["pauses"]["count"] == 2373 + 897);
  for (uint64_t cap : {50u, 1000u, 3000u}) {
    INFO("cap " << cap);
    const json r = capped(set, cap);
    CHECK(summary(r) == summary(exact));
    const Buckets b = decode(r["series"]["pauses"]);
    uint64_t n = 0;
    std::vector<uint32_t> rank;
    for (const auto& m : r["members"]) rank.push_back(m["rank"].get<uint32_t>());
    for (size_t i = 0; i < b.nb; ++i) {
      n += static_cast<uint64_t>(b.n[i]);
      // Buckets never mix members, and the members come in rank order.
      if (i) CHECK(rank[static_cast<size_t>(b.member[i - 1])] <= rank[static_cast<size_t>(b.member[i])]);
    }
    CHECK(n == 3270);
  }
  // A restart set with every run kept: five members merged, some over the cap, some under.
  const std::string rdir = corpus("jvm/gctoolkit/rolling/jdk14/rollinglogs/");
  std::vector<std::string> runs;
  for (const char* m : {"short_restart_4.log.1", "short_restart_4.log.2", "short_restart_4.log.3", "short_restart_4.log.4",
                        "short_restart_4.log"})
    runs.push_back(rdir + m);
  const json all = jvm(runs, json{{"all_runs", true}});
  for (uint64_t cap : {10u, 100u, 300u}) {
    INFO("all runs, cap " << cap);
    const json r = capped(runs, cap, json{{"all_runs", true}});
    CHECK(summary(r) == summary(all));
    CHECK(r["series"]["pauses"]["count"] == 65 + 45 + 3 + 120 + 288);
  }
}

namespace {

// A synthetic pause stream fed to the aggregator directly: `n` young pauses of (i % 1000) + 1 µs,
// 10 ms apart, each its own event, of member `member` starting at pause `from`.
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

}  // namespace

TEST_CASE("jvm pause buckets: memory is bounded and the percentiles are exact (synthetic stream)", "[jvm][pause-buckets]") {
  // 300,000 pauses: every duration from 1 to 1,000 µs exactly 300 times. Nearest rank of the sorted
  // values: index r holds r / 300 + 1 µs, so p50 = index 149,999 -> 500 µs, p90 = 269,999 -> 900 µs,
  // p99 = 296,999 -> 990 µs, p99.9 = 299,699 -> 999 µs, max 1,000 µs; total 300 x 500,500 µs.
  constexpr size_t kN = 300000;
  GcAggregator exact, bucketed;
  bucketed.set_exact_pause_cap(1000);
  feed(exact, 0, 0, kN);
  feed(bucketed, 0, 0, kN);
  const auto ze = exact.pause_series_size(), zb = bucketed.pause_series_size();
  CHECK_FALSE(ze.bucketed);
  CHECK(ze.exact_columns == kN);
  CHECK(zb.bucketed);
  CHECK(zb.pauses == kN);
  CHECK(zb.exact_columns == 0);
  CHECK(zb.buckets <= GcAggregator::kMaxBuckets);
  CHECK(zb.buckets > GcAggregator::kMaxBuckets / 4);
  CHECK(zb.distinct_durations == 1000);
  // Bucket histograms: 32 bins per power of two over 1..1,000 µs are at most ~320 bins; a bucket of
  // 128 consecutive pauses spans 128 consecutive durations. Well under the exact columns' 8.4 MB.
  CHECK(zb.bytes < 3u << 20);
  CHECK(zb.bytes * 4 < ze.exact_columns * 28);
  json re, rb;
  exact.write_report(re);
  gcscope::raw_json::resolve(re);  // as a reader of the written report sees it
  bucketed.write_report(rb);
  gcscope::raw_json::resolve(rb);  // as a reader of the written report sees it
  // (The mean, 500.5 µs, is a rounding tie at the report's precision: compared with a margin.)
  CHECK(re["pauses"]["mean_s"].get<double>() == Approx(0.0005005).margin(0.6e-6));
  const json want = {{"count", kN},      {"total_s", 150.15}, {"max_s", 0.001},   {"mean_s", re["pauses"]["mean_s"]},
                     {"p50_s", 0.0005}, {"p90_s", 0.0009},   {"p99_s", 0.00099}, {"p999_s", 0.000999}};
  CHECK(re["pauses"] == want);
  CHECK(rb["pauses"] == want);
  CHECK(summary(rb) == summary(re));

  // Twice as many pauses: the buckets stay within the same bound (they merge pairwise).
  feed(bucketed, 0, kN, kN);
  const auto z2 = bucketed.pause_series_size();
  CHECK(z2.buckets <= GcAggregator::kMaxBuckets);
  CHECK(z2.distinct_durations == 1000);
  CHECK(z2.bytes < 3u << 20);
}

TEST_CASE("jvm pause buckets: merging members in every combination of modes", "[jvm][pause-buckets]") {
  // Member 0: 2,000 pauses, member 1: 3,000 (the stream above, continued). One aggregator over
  // both with the default cap is the reference.
  GcAggregator whole;
  feed(whole, 0, 0, 2000);
  feed(whole, 1, 2000, 3000);
  json want;
  whole.write_report(want);
  gcscope::raw_json::resolve(want);  // as a reader of the written report sees it
  REQUIRE(want["pauses"]["count"] == 5000);
  struct Case {
    size_t cap0, cap1;
    const char* what;
  };
  for (const Case c : {Case{4000, 4000, "exact + exact, over the cap together"}, Case{10000, 100, "exact + bucketed"},
                       Case{100, 10000, "bucketed + exact"}, Case{100, 100, "bucketed + bucketed"}}) {
    INFO(c.what);
    GcAggregator a, b;
    a.set_exact_pause_cap(c.cap0);
    b.set_exact_pause_cap(c.cap1);
    feed(a, 0, 0, 2000);
    feed(b, 1, 2000, 3000);
    a.merge_from(b);
    json got;
    a.write_report(got);
    gcscope::raw_json::resolve(got);  // as a reader of the written report sees it
    CHECK(got["pauses"] == want["pauses"]);
    CHECK(got["causes"] == want["causes"]);
    CHECK(got["phases"] == want["phases"]);
    CHECK(got["findings"] == want["findings"]);
    const Buckets bk = decode(got["series"]["pauses"]);
    uint64_t n0 = 0, n1 = 0;
    for (size_t i = 0; i < bk.nb; ++i) (bk.member[i] == 0 ? n0 : n1) += static_cast<uint64_t>(bk.n[i]);
    CHECK(n0 == 2000);
    CHECK(n1 == 3000);
    // Member 0's buckets first, then member 1's.
    for (size_t i = 1; i < bk.nb; ++i) CHECK(bk.member[i - 1] <= bk.member[i]);
  }
}

}  // namespace gcscope::test
