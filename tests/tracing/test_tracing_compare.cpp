// Comparisons of two tracing captures (tracing/compare.h, `gcscope compare A B`): per-probe deltas
// and per-stack weight deltas, on real corpus captures whose expected figures are worked out by hand
// in the comments from the files themselves (and the bpftrace programs in
// bpftrace-0.17-det/programs.tsv). tests/node/tracing_compare_engine.test.js checks the same figures
// through two live sessions of the wasm module (compare.side, then compare.with), as the page asks them.
#include <catch2/catch.hpp>

#include "support.h"
#include "tracing/compare_rows.h"
#include "tracing/compare.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()
using nlohmann::json;

namespace {
json first_report(const std::string& rel) {
  json doc = analyze_paths({corpus(rel)});
  REQUIRE(doc["reports"].size() == 1);
  return doc["reports"][0];
}
}  // namespace

TEST_CASE("tracing compare: two bpftrace histogram captures (text vs JSON) give calls deltas and bucket-bound deltas",
          "[tracing][corpus]") {
  // A: det_hist_keyed.txt = @["bpftrace"] = hist(2); @["curl"] = hist(-1), hist(0), hist(511), hist(1024), hist(1025)
  //   bpftrace: 1 value in [2, 4) -> p50 = p90 = p99 = [2, 3]
  //   curl: 5 values: (..., 0) 1, [0] 1, [256, 512) 1, [1K, 2K) 2; nearest rank p50 = 3rd -> [256, 511],
  //         p90 = ceil(4.5) = 5th -> [1024, 2047], p99 = 5th -> [1024, 2047]
  // B: det_lhist_keyed.ndjson = @stats["bpftrace"] = lhist(2), lhist(1000); @stats["curl"] = lhist(50) (0..100 step 10)
  //   bpftrace: [0, 10) 1, [100, ...) 1 -> p50 = 1st -> [0, 9], p90 = p99 = 2nd -> [100, null]
  //   curl: [50, 60) 1 -> p50 = p90 = p99 = [50, 59]
  json a = first_report("trace/bpftrace-0.17-det/det_hist_keyed.txt");
  json b = first_report("trace/bpftrace-0.17-det/det_lhist_keyed.ndjson");
  CHECK(a["format"] == "bpftrace-text");
  CHECK(b["format"] == "bpftrace-json");
  json cmp = gcscope::tracing::compare_reports(a, b);
  CHECK(cmp["kind"] == "tracing");
  CHECK(cmp["a"]["format"] == "bpftrace-text");
  CHECK(cmp["b"]["format"] == "bpftrace-json");
  REQUIRE(cmp["probes"].size() == 2);
  CHECK(cmp["probes"][0]["probe"] == "bpftrace");  // a's order (text order of det_hist_keyed.txt)
  CHECK(cmp["probes"][1]["probe"] == "curl");

  const json& bt = probe_row(cmp, "bpftrace");
  CHECK(bt["in"] == "both");
  CHECK(bt["exact_a"] == false);
  CHECK(bt["exact_b"] == false);
  CHECK(bt["calls"]["a"] == 1);
  CHECK(bt["calls"]["b"] == 2);
  CHECK(bt["calls"]["delta"] == 1);
  CHECK(bt["calls"]["delta_percent"] == 100.0);
  CHECK(bt["total"]["delta"].is_null());  // histograms give no totals
  CHECK(bt["p50"]["a"] == json::array({2, 3}));
  CHECK(bt["p50"]["b"] == json::array({0, 9}));
  CHECK(bt["p50"]["delta"].is_null());  // buckets: only bounds
  // p50_b - p50_a in [0 - 3, 9 - 2]
  CHECK(bt["p50"]["delta_bounds"] == json::array({-3, 7}));
  // p90: [100, unbounded) - [2, 3] -> [100 - 3, unbounded)
  CHECK(bt["p90"]["delta_bounds"] == json::array({97, nullptr}));
  CHECK(bt["p99"]["delta_bounds"] == json::array({97, nullptr}));

  const json& curl = probe_row(cmp, "curl");
  CHECK(curl["calls"]["a"] == 5);
  CHECK(curl["calls"]["b"] == 1);
  CHECK(curl["calls"]["delta"] == -4);
  CHECK(curl["calls"]["delta_percent"] == -80.0);
  CHECK(curl["p50"]["a"] == json::array({256, 511}));
  CHECK(curl["p50"]["b"] == json::array({50, 59}));
  // [50 - 511, 59 - 256]
  CHECK(curl["p50"]["delta_bounds"] == json::array({-461, -197}));
  // [50 - 2047, 59 - 1024]
  CHECK(curl["p90"]["delta_bounds"] == json::array({-1997, -965}));
  CHECK(curl["p99"]["delta_bounds"] == json::array({-1997, -965}));

  // no stacks on either side
  CHECK(cmp["stacks"]["common"] == 0);
  CHECK(cmp["stacks"]["rows"].empty());
}

TEST_CASE("tracing compare: a capture against itself in another format has zero deltas everywhere",
          "[tracing][corpus]") {
  // stacks/live: perf_script_ruby.txt (perf script) and perf_script_ruby.folded.txt (its folding by
  // FlameGraph's stackcollapse-perf.pl): 10 distinct stacks, 13 samples x 10101010 ns = 131313130 each
  json a = first_report("trace/stacks/live/perf_script_ruby.txt");
  json b = first_report("trace/stacks/live/perf_script_ruby.folded.txt");
  CHECK(a["format"] == "perf-script");
  CHECK(b["format"] == "folded-stacks");
  json cmp = gcscope::tracing::compare_reports(a, b);
  const json& s = cmp["stacks"];
  CHECK(s["a"]["unique"] == 10);
  CHECK(s["b"]["unique"] == 10);
  CHECK(s["a"]["total_weight"] == 131313130);
  CHECK(s["b"]["total_weight"] == 131313130);
  CHECK(s["common"] == 10);
  CHECK(s["only_a"] == 0);
  CHECK(s["only_b"] == 0);
  REQUIRE(s["rows"].size() == 10);
  for (const auto& r : s["rows"]) {
    CHECK(r["delta"] == 0);
    CHECK(r["share_delta"] == 0.0);
  }
  // all deltas tie at 0: rows by stack text; "ruby;[libruby-3.1.so.3.1.2]" sorts first ('[' < ']')
  CHECK(s["rows"][0]["stack"] == "ruby;[libruby-3.1.so.3.1.2]");
  CHECK(s["rows"][0]["a"] == 10101010);
}

TEST_CASE("tracing compare: per-stack weight deltas between two foldings of the dd capture", "[tracing][corpus]") {
  // A: perf-dd-stacks-01.txt folded by gcscope like stackcollapse-perf.pl's defaults (no annotations);
  // B: FlameGraph's perf-dd-stacks-01-collapsed-all.txt (--all: kernel frames get "_[k]").
  // B: 10 samples x 10101010 = 101010100 in 9 stacks. A: the same 10 plus the file's last sample
  // ("dd;[unknown];system_call"), which stackcollapse-perf.pl drops for want of a final blank line
  // (see the perf script test in test_tracing_corpus.cpp): 11 x 10101010 = 111111110 in 10 stacks.
  // The two stacks without kernel frames are the same text ("dd;[unknown];[dd]", "dd;[unknown];read",
  // 10101010 each); the 7 others differ by "_[k]" -> 2 common, 8 only in A, 7 only in B, 17 rows.
  json a = first_report("trace/stacks/flamegraph-tests/perf-dd-stacks-01.txt");
  json b = first_report("trace/stacks/flamegraph-tests/perf-dd-stacks-01-collapsed-all.txt");
  json cmp = gcscope::tracing::compare_reports(a, b);
  const json& s = cmp["stacks"];
  CHECK(s["a"]["total_weight"] == 111111110);
  CHECK(s["b"]["total_weight"] == 101010100);
  CHECK(s["a"]["unique"] == 10);
  CHECK(s["b"]["unique"] == 9);
  CHECK(s["common"] == 2);
  CHECK(s["only_a"] == 8);
  CHECK(s["only_b"] == 7);
  REQUIRE(s["rows"].size() == 17);
  // largest |delta|: the two 20202020 stacks (fsnotify;__srcu_read_unlock), a's text first
  // ("system_call;" < "system_call_[k]" since ';' < '_')
  const json& r0 = s["rows"][0];
  CHECK(r0["stack"] == "dd;[unknown];write;system_call;sys_write;vfs_write;fsnotify;__srcu_read_unlock");
  CHECK(r0["a"] == 20202020);
  CHECK(r0["b"].is_null());
  CHECK(r0["delta"] == -20202020);
  CHECK(r0["share_a"].get<double>() == Approx(100.0 * 2 / 11));  // 20202020 / 111111110 = 2/11
  CHECK(r0["share_delta"].get<double>() == Approx(-100.0 * 2 / 11));
  const json& r1 = s["rows"][1];
  CHECK(r1["stack"] ==
        "dd;[unknown];write;system_call_[k];sys_write_[k];vfs_write_[k];fsnotify_[k];__srcu_read_unlock_[k]");
  CHECK(r1["a"].is_null());
  CHECK(r1["delta"] == 20202020);
  CHECK(r1["share_b"].get<double>() == Approx(20.0));  // 20202020 / 101010100
  // the common stacks come last (|delta| 0), in text order
  CHECK(s["rows"][15]["stack"] == "dd;[unknown];[dd]");
  CHECK(s["rows"][15]["delta"] == 0);
  CHECK(s["rows"][16]["stack"] == "dd;[unknown];read");
  json cut = gcscope::tracing::compare_reports(a, b, 5);
  CHECK(cut["stacks"]["rows"].size() == 5);
  CHECK(cut["stacks"]["rows_omitted"] == 12);
}

TEST_CASE("tracing compare: exact event streams give exact percentile deltas, probes on one side only", "[tracing]") {
  // Two printf streams (the capture recipe's exact stream) built here:
  //   A: index = 1000, 2000, ..., 10000 ns (10 calls, total 55000, mean 5500, p50 5th = 5000,
  //      p90 9th = 9000, p99 10th = 10000); show = 7000 ns once
  //   B: index = 1500, 3000, ..., 15000 ns (x1.5: total 82500, mean 8250, p50 7500, p90 13500,
  //      p99 15000) and 2 more calls of 20000 ns -> 12 calls, total 122500, mean 10208.33..,
  //      p50 6th = 9000, p90 ceil(10.8) = 11th = 20000, p99 12th = 20000; create = 100 ns once
  auto line = [](const std::string& probe, int ns, int i) {
    return "{\"type\": \"printf\", \"data\": \"" + std::to_string(1000000000LL + i * 1000000LL) +
           " usdt:/proc/7/root/tmp/my_controller-AbCdEf.so:my_controller:" + probe + " " + std::to_string(ns) +
           "\\n\"}\n";
  };
  std::string sa, sb;
  for (int i = 1; i <= 10; ++i) sa += line("index", i * 1000, i);
  sa += line("show", 7000, 11);
  for (int i = 1; i <= 10; ++i) sb += line("index", i * 1500, i);
  sb += line("index", 20000, 11) + line("index", 20000, 12) + line("create", 100, 13);
  json a = analyze_bytes({{"a.ndjson", sa}})["reports"][0];
  json b = analyze_bytes({{"b.ndjson", sb}})["reports"][0];
  json cmp = gcscope::tracing::compare_reports(a, b);
  REQUIRE(cmp["probes"].size() == 3);
  const json& idx = probe_row(cmp, "my_controller:index");
  CHECK(idx["in"] == "both");
  CHECK(idx["exact_a"] == true);
  CHECK(idx["calls"]["delta"] == 2);
  CHECK(idx["calls"]["delta_percent"].get<double>() == Approx(20.0));
  CHECK(idx["total"]["delta"] == 67500);  // 122500 - 55000
  CHECK(idx["mean"]["delta"].get<double>() == Approx(122500.0 / 12 - 5500));
  CHECK(idx["min"]["delta"] == 500);    // 1500 - 1000
  CHECK(idx["max"]["delta"] == 10000);  // 20000 - 10000
  CHECK(idx["p50"]["delta"] == 4000);   // 9000 - 5000
  CHECK(idx["p90"]["delta"] == 11000);  // 20000 - 9000
  CHECK(idx["p99"]["delta"] == 10000);  // 20000 - 10000
  CHECK(idx["p50"]["delta_bounds"] == json::array({4000, 4000}));
  const json& show = probe_row(cmp, "my_controller:show");
  CHECK(show["in"] == "a");
  CHECK(show["calls"]["a"] == 1);
  CHECK(show["calls"]["b"].is_null());
  CHECK(show["calls"]["delta"].is_null());
  const json& create = probe_row(cmp, "my_controller:create");
  CHECK(create["in"] == "b");
  CHECK(create["p50"]["b"] == 100);
}

TEST_CASE("tracing compare: integers beyond 2^53 give exact deltas (as strings)", "[tracing][corpus]") {
  // det_bigints: @big = sum(9007199254740993) (2^53 + 1), @maxu["u"] = 2^64 - 1; against an empty
  // map side the delta is null; against itself it is exactly 0
  json a = first_report("trace/bpftrace-0.17-det/det_bigints.ndjson");
  json doc = analyze_bytes({{"x.ndjson", "{\"type\": \"map\", \"data\": {\"@sum\": {\"u\": 9007199254740995}}}\n"}});
  json b = doc["reports"][0];
  // a's "u" row comes from @maxu (max* -> max): 18446744073709551615; b's from @sum (sum -> total)
  json cmp = gcscope::tracing::compare_reports(a, b);
  const json& u = probe_row(cmp, "u");
  CHECK(u["max"]["a"] == "18446744073709551615");
  CHECK(u["max"]["delta"].is_null());
  CHECK(u["total"]["b"] == "9007199254740995");
  json self = gcscope::tracing::compare_reports(b, b);
  CHECK(probe_row(self, "u")["total"]["delta"] == 0);
  json doc2 = analyze_bytes({{"y.ndjson", "{\"type\": \"map\", \"data\": {\"@sum\": {\"u\": 9007199254740993}}}\n"}});
  json cmp2 = gcscope::tracing::compare_reports(doc2["reports"][0], b);
  CHECK(probe_row(cmp2, "u")["total"]["delta"] == 2);  // 9007199254740995 - 9007199254740993, exact
}

TEST_CASE("tracing compare: the same Rails app traced with aggregation maps, then with hist()", "[tracing][corpus]") {
  // A: malformed/bt_text_with_stderr_mixed.txt: @count/@avg/@min/@max/@stats/@sum keyed by probe name
  //   (create: @count 143, @avg 5413799, @stats total 774173322; index: 650; show: 632;
  //   default_url_options: 670; current_user: 1396). No percentiles.
  // B: malformed/bt_text_bar_count_mismatch.txt: @ns[...] = hist(): calls = the bucket counts summed
  //   create 207 + 1 = 208 (p50 = 104th, p99 = 206th: both in [4M, 8M) = [4194304, 8388607]);
  //   index 2 + 9450 + 22 + 8 = 9482; show 4 + 118 + 13 + 132 + 322 + 343 + 15 + 2 = 949;
  //   default_url_options 2 + 93 + 651 + 245 + 8 + 0 + 1 = 1000; current_user 57 + 1819 + 140 + 10 + 1 + 4 + 1 = 2032
  json a = first_report("trace/malformed/bt_text_with_stderr_mixed.txt");
  json b = first_report("trace/malformed/bt_text_bar_count_mismatch.txt");
  json cmp = gcscope::tracing::compare_reports(a, b);
  REQUIRE(cmp["probes"].size() == 5);
  const json& create = probe_row(cmp, "create");
  CHECK(create["calls"]["a"] == 143);
  CHECK(create["calls"]["b"] == 208);
  CHECK(create["calls"]["delta"] == 65);
  CHECK(create["calls"]["delta_percent"].get<double>() == Approx(100.0 * 65 / 143));
  CHECK(create["mean"]["a"] == 5413799);
  CHECK(create["mean"]["delta"].is_null());  // B has no mean
  CHECK(create["total"]["a"] == 774173322);
  CHECK(create["p50"]["b"] == json::array({4194304, 8388607}));
  CHECK(create["p99"]["b"] == json::array({4194304, 8388607}));
  CHECK(create["p50"]["delta_bounds"].is_null());  // A has no percentile
  CHECK(create["exact_a"].is_null());
  CHECK(create["exact_b"] == false);
  CHECK(probe_row(cmp, "index")["calls"]["delta"] == 8832);               // 9482 - 650
  CHECK(probe_row(cmp, "show")["calls"]["delta"] == 317);                 // 949 - 632
  CHECK(probe_row(cmp, "default_url_options")["calls"]["delta"] == 330);  // 1000 - 670
  CHECK(probe_row(cmp, "current_user")["calls"]["delta"] == 636);         // 2032 - 1396
}
