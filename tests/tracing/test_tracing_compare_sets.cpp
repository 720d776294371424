// Sets of tracing captures on one side of a comparison (compare.side {set: true}, `gcscope compare
// DIR B`): the side is the sum of its captures, so a real capture split into parts compares exactly
// as the whole does; histograms are summed by hand in the comments.
#include <catch2/catch.hpp>

#include "core/input_set.h"
#include "support.h"
#include "tracing/compare_rows.h"

using namespace gcscope::test;  // corpus(), fixture(), read_file()
using nlohmann::json;

namespace {

// An input set kept open for queries, as the worker and `gcscope query` keep it.
struct Session {
  gcscope::InputSet set;
  explicit Session(const std::vector<NamedBytes>& files) {
    for (const auto& f : files) {
      set.begin_file(f.path);
      set.feed(reinterpret_cast<const uint8_t*>(f.bytes.data()), f.bytes.size());
      set.end_file();
    }
    set.finish();
  }
  json ask(const std::string& method, json args = json::object()) { return set.query(method, args); }
};

// The comparison of side a (a whole session, summed) with side b, as `gcscope compare` asks it.
json compare_sets(Session& a, Session& b) {
  json side = a.ask("compare.side", {{"set", true}});
  return b.ask("compare.with", {{"other", side}, {"set", true}});
}

// A perf script's samples (blank-line separated blocks) [from, to).
std::string perf_blocks(const std::string& text, size_t from, size_t to) {
  std::string out;
  size_t pos = 0, k = 0;
  while (pos < text.size()) {
    size_t end = text.find("\n\n", pos);
    end = end == std::string::npos ? text.size() : end + 2;
    if (k >= from && k < to) out += text.substr(pos, end - pos);
    pos = end, ++k;
  }
  return out;
}

// One printf event line of a bpftrace -f json stream: "<ts> <probe> <ns>".
std::string event(const std::string& probe, int ns, int i) {
  return "{\"type\": \"printf\", \"data\": \"" + std::to_string(1000000000LL + i * 1000000LL) +
         " usdt:/proc/7/root/tmp/my_controller-AbCdEf.so:my_controller:" + probe + " " + std::to_string(ns) +
         "\\n\"}\n";
}

}  // namespace

TEST_CASE("tracing compare of sets: a perf script split in two compares as the whole", "[tracing][corpus]") {
  const std::string path = corpus("trace/stacks/live/perf_script_ruby.txt");
  const std::string text = read_file(path);
  const std::string first = perf_blocks(text, 0, 7), rest = perf_blocks(text, 7, 1000);
  REQUIRE(!first.empty());
  REQUIRE(!rest.empty());
  const std::string folded = read_file(corpus("trace/stacks/live/perf_script_ruby.folded.txt"));
  Session whole({{"whole.perf", text}}), parts({{"p1.perf", first}, {"p2.perf", rest}});
  Session b({{"b.folded", folded.substr(0, folded.rfind('\n', folded.size() - 2) + 1)}});  // its last stack gone
  json s = compare_sets(parts, b), w = compare_sets(whole, b);
  CHECK(s["a"]["set"]["captures"] == 2);
  CHECK(s["a"]["set"]["not_summed"] == json::array());
  CHECK(s["a"]["inputs"] == json::array({"p1.perf", "p2.perf"}));
  REQUIRE(s.contains("frames"));
  CHECK(s["frames"] == w["frames"]);
  CHECK(s["totals"] == w["totals"]);
  CHECK(s["stacks"]["rows"] == w["stacks"]["rows"]);
  CHECK(s["stacks"]["a"] == w["stacks"]["a"]);
  // without set: true, the first capture alone
  json one = b.ask("compare.with", {{"other", parts.ask("compare.side")}});
  CHECK(one["stacks"]["a"]["total_weight"] != w["stacks"]["a"]["total_weight"]);
  CHECK_FALSE(one["a"].contains("set"));
}

TEST_CASE("tracing compare of sets: event streams split in two give the whole's exact figures", "[tracing]") {
  // A: index = 1000, 2000, ..., 10000 ns (10 calls, total 55000, mean 5500, p50 5th = 5000, p90 9th
  // = 9000, p99 10th = 10000), split 1-4 | 5-10 with show = 7000 in the second part only.
  std::string a1, a2, b;
  for (int i = 1; i <= 10; ++i) (i <= 4 ? a1 : a2) += event("index", i * 1000, i);
  a2 += event("show", 7000, 11);
  for (int i = 1; i <= 3; ++i) b += event("index", i * 3000, i);
  Session parts({{"a1.ndjson", a1}, {"a2.ndjson", a2}}), whole({{"a.ndjson", a1 + a2}}), sb({{"b.ndjson", b}});
  json s = compare_sets(parts, sb), w = compare_sets(whole, sb);
  const json& idx = probe_row(s, "my_controller:index");
  CHECK(idx["exact_a"] == true);
  CHECK(idx["calls"]["a"] == 10);
  CHECK(idx["total"]["a"] == 55000);
  CHECK(idx["mean"]["a"] == 5500);
  CHECK(idx["min"]["a"] == 1000);
  CHECK(idx["max"]["a"] == 10000);
  CHECK(idx["p50"]["a"] == 5000);
  CHECK(idx["p90"]["a"] == 9000);
  CHECK(idx["p99"]["a"] == 10000);
  CHECK(s["probes"] == w["probes"]);
  CHECK(probe_row(s, "my_controller:show")["calls"]["a"] == 1);
}

TEST_CASE("tracing compare of sets: histograms add bucket by bucket; overlapping layouts are named",
          "[tracing][corpus]") {
  const std::string hist = read_file(corpus("trace/bpftrace-0.17-det/det_hist_keyed.txt"));
  const std::string lhist = read_file(corpus("trace/bpftrace-0.17-det/det_lhist_keyed.ndjson"));
  // The capture twice: curl = (..., 0) 2, [0] 2, [256, 512) 2, [1K, 2K) 4 (10 values, nearest rank
  // p50 = 5th -> [256, 511], p90 = 9th -> [1024, 2047]); bpftrace = [2, 4) 2 -> [2, 3].
  Session twice({{"h1.txt", hist}, {"h2.txt", hist}}), one({{"h.txt", hist}});
  json c = compare_sets(twice, one);
  const json& curl = probe_row(c, "curl");
  CHECK(curl["calls"]["a"] == 10);
  CHECK(curl["calls"]["b"] == 5);
  CHECK(curl["p50"]["a"] == json::array({256, 511}));
  CHECK(curl["p90"]["a"] == json::array({1024, 2047}));
  CHECK(curl["p99"]["a"] == json::array({1024, 2047}));
  CHECK(probe_row(c, "bpftrace")["p50"]["a"] == json::array({2, 3}));
  CHECK(c["a"]["set"]["not_summed"] == json::array());

  // With the lhist capture: curl's [50, 59] lies inside log2's [32, 63] and bpftrace's [0, 9] holds
  // [2, 3]: the buckets overlap, so no percentile is summed, and the answer says why; the calls add
  // (5 + 1, 1 + 2).
  Session mixed({{"h.txt", hist}, {"l.ndjson", lhist}});
  json m = compare_sets(mixed, one);
  CHECK(probe_row(m, "curl")["calls"]["a"] == 6);
  CHECK(probe_row(m, "bpftrace")["calls"]["a"] == 3);
  CHECK(probe_row(m, "curl")["p50"]["a"].is_null());
  CHECK(m["a"]["format"] == "mixed");
  const json& notes = m["a"]["set"]["not_summed"];
  REQUIRE(notes.size() == 2);
  CHECK(notes[0] == "bpftrace: p50/p90/p99 not summed: the captures' histograms have different buckets, which overlap");
  CHECK(notes[1] == "curl: p50/p90/p99 not summed: the captures' histograms have different buckets, which overlap");
}

TEST_CASE("tracing compare of sets: stacks in different units are not added, and the answer says so", "[tracing]") {
  const std::string perf = read_file(fixture("tracing/perf-script-ruby.txt"));
  const std::string counts = "main;work 3\nmain;idle 1\n";
  Session mixed({{"p.perf", perf}, {"c.folded", counts}}), b({{"c.folded", counts}});
  json c = compare_sets(mixed, b);
  REQUIRE(c["a"]["set"]["not_summed"].size() == 1);
  CHECK(c["a"]["set"]["not_summed"][0] ==
        "stacks not summed: p.perf weighs its stacks in period and c.folded in samples");
  CHECK(c["stacks"]["a"]["unique"] == 0);
}
