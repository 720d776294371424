// Following a GC log as it grows (InputSet option "follow", JvmAnalyzer::snapshot): bytes arrive in
// pieces cut anywhere, a report is asked between pieces, and every report equals the single-shot
// analysis of the complete lines read so far. A rotated file starts the next member of the set.
//
// Hand counts of fixtures/jvm/jdk17-g1.log (JDK 17, G1; fixtures/jvm/generate.sh):
//   grep -cE 'GC\([0-9]+\) Pause.*ms$' jdk17-g1.log                          → 27 pauses
//     (24 Pause Young, 1 Pause Remark, 1 Pause Cleanup, 1 Pause Full)
//   grep -E 'GC\([0-9]+\) Pause.*ms$' jdk17-g1.log | grep -oE '[0-9.]+ms$' | tr -d ms | paste -sd+ | bc
//                                                                             → 38.614 ms in all
//   the same lines up to and including GC(9)'s                                → 10 pauses
// and of fixtures/jvm/jdk17-serial-mixed-stdout.log (Serial, uptimes up to 27 s, application lines
// between the GC lines):
//   grep -cE 'GC\([0-9]+\) Pause.*ms$' jdk17-serial-mixed-stdout.log             → 138 pauses
//   the same sum as above                                                     → 7141.241 ms
//   those before GC(70)'s line (at 13.201 s)                                  → 70 pauses
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "support.h"

using namespace gcscope::test;
using nlohmann::json;

namespace {

constexpr int kHandPauses = 27;
constexpr double kHandTotalMs = 38.614;

json resolved(gcscope::InputSet& set) {
  json doc = set.finish();
  gcscope::raw_json::resolve(doc);
  return doc;
}

// Feeds `bytes` cut at `cuts` (ascending offsets), asking for a report after every piece; returns
// the last report.
json follow_in_pieces(const std::string& bytes, const std::vector<size_t>& cuts) {
  gcscope::InputSet set(json{{"follow", true}});
  set.begin_file("gc.log");
  size_t from = 0;
  json doc;
  for (size_t k = 0; k <= cuts.size(); ++k) {
    const size_t to = k < cuts.size() ? cuts[k] : bytes.size();
    set.feed(reinterpret_cast<const uint8_t*>(bytes.data()) + from, to - from);
    from = to;
    doc = resolved(set);
  }
  return doc;
}

std::vector<size_t> every(size_t step, size_t size) {
  std::vector<size_t> cuts;
  for (size_t at = step; at < size; at += step) cuts.push_back(at);
  return cuts;
}

void require_same_pauses(const json& followed, const json& single) {
  const json& a = report_of(followed, "jvm-gc-log");
  const json& b = report_of(single, "jvm-gc-log");
  REQUIRE(a["pauses"]["count"] == b["pauses"]["count"]);
  REQUIRE(a["pauses"]["total_s"] == b["pauses"]["total_s"]);
  REQUIRE(a["pauses"]["max_s"] == b["pauses"]["max_s"]);
  REQUIRE(a["pauses"]["p99_s"] == b["pauses"]["p99_s"]);
  REQUIRE(a["events"]["total"] == b["events"]["total"]);
  REQUIRE(a["findings"].size() == b["findings"].size());
}

}  // namespace

TEST_CASE("follow: a G1 log fed in pieces cut anywhere reports what one read of it reports", "[jvm][follow]") {
  const std::string log = read_file(fixture("jvm/jdk17-g1.log"));
  const json single = analyze_bytes({{"gc.log", log}});
  const json& r = report_of(single, "jvm-gc-log");
  REQUIRE(r["pauses"]["count"] == kHandPauses);
  REQUIRE(r["pauses"]["total_s"].get<double>() == Approx(kHandTotalMs / 1000).margin(1e-9));

  std::mt19937 rng(32);
  std::vector<size_t> random_cuts;
  for (size_t at = 0;;) {
    at += 1 + rng() % 3000;
    if (at >= log.size()) break;
    random_cuts.push_back(at);
  }
  for (const auto& cuts : {every(997, log.size()), every(4096, log.size()), random_cuts}) {
    const json followed = follow_in_pieces(log, cuts);
    require_same_pauses(followed, single);
    REQUIRE(report_of(followed, "jvm-gc-log")["pauses"]["count"] == kHandPauses);
    REQUIRE(followed["follow"]["bytes"] == log.size());
    REQUIRE(followed["follow"]["files"] == 1);
  }
}

TEST_CASE("follow: a report mid-line counts the complete lines only, open records included", "[jvm][follow]") {
  const std::string log = read_file(fixture("jvm/jdk17-g1.log"));
  // Cut inside GC(10)'s first line: what was read holds GC(0)..GC(9) whole.
  const size_t gc10 = log.find("GC(10) ");
  REQUIRE(gc10 != std::string::npos);
  const size_t cut = gc10 + 5;
  const size_t line_start = log.rfind('\n', gc10) + 1;
  gcscope::InputSet set(json{{"follow", true}});
  set.begin_file("gc.log");
  set.feed(reinterpret_cast<const uint8_t*>(log.data()), cut);
  const json partial = resolved(set);
  REQUIRE(report_of(partial, "jvm-gc-log")["pauses"]["count"] == 10);
  require_same_pauses(partial, analyze_bytes({{"gc.log", log.substr(0, line_start)}}));
  // The session reads on from where it stopped, the held-back piece of the line first.
  set.feed(reinterpret_cast<const uint8_t*>(log.data()) + cut, log.size() - cut);
  const json whole = resolved(set);
  REQUIRE(report_of(whole, "jvm-gc-log")["pauses"]["count"] == kHandPauses);
  require_same_pauses(whole, analyze_bytes({{"gc.log", log}}));
  // The questions answer from the latest report.
  const json summary = set.query("jvm.summary", json::object());
  REQUIRE(summary["pauses"]["count"] == kHandPauses);
}

TEST_CASE("follow: a truncated file continues the log as the next member, nothing counted twice", "[jvm][follow]") {
  const std::string log = read_file(fixture("jvm/jdk17-serial-mixed-stdout.log"));
  const size_t split = log.rfind('\n', log.find("GC(70) ")) + 1;
  gcscope::InputSet set(json{{"follow", true}});
  set.begin_file("gc.log");
  set.feed(reinterpret_cast<const uint8_t*>(log.data()), split);
  REQUIRE(report_of(resolved(set), "jvm-gc-log")["pauses"]["count"] == 70);
  // copytruncate: the file restarts at size 0 and the JVM writes on (uptime 13.2 s: the same run).
  set.end_file();
  set.begin_file("gc.log");
  set.feed(reinterpret_cast<const uint8_t*>(log.data()) + split, log.size() - split);
  const json doc = resolved(set);
  const json& r = report_of(doc, "jvm-gc-log");
  REQUIRE(r["pauses"]["count"] == 138);
  REQUIRE(r["pauses"]["total_s"].get<double>() == Approx(7.141241).margin(1e-9));
  REQUIRE(r["rotation"]["restarts"] == 0);
  REQUIRE(doc["follow"]["files"] == 2);
  REQUIRE(doc["follow"]["new"]["pauses"] == 68);
  require_same_pauses(doc, analyze_bytes({{"gc.log", log}}));
}

// The G1 fixture's run lasts 0.15 s: a file that starts again with it is a fresh JVM run (its first
// stamp is within the first seconds of a run).
TEST_CASE("follow: a file replaced by a restarted JVM's log keeps the latest run only", "[jvm][follow]") {
  const std::string log = read_file(fixture("jvm/jdk17-g1.log"));
  gcscope::InputSet set(json{{"follow", true}});
  set.begin_file("gc.log");
  set.feed(reinterpret_cast<const uint8_t*>(log.data()), log.size());
  REQUIRE(report_of(resolved(set), "jvm-gc-log")["pauses"]["count"] == kHandPauses);
  set.end_file();
  set.begin_file("gc.log");
  const size_t half = log.rfind('\n', log.find("GC(10) ")) + 1;
  set.feed(reinterpret_cast<const uint8_t*>(log.data()), half);
  const json doc = resolved(set);
  const json& r = report_of(doc, "jvm-gc-log");
  REQUIRE(r["rotation"]["restarts"] == 1);
  REQUIRE(r["pauses"]["count"] == 10);
}

TEST_CASE("follow: a JDK 8 log fed in pieces reports what one read of it reports", "[jvm][follow][corpus]") {
  const std::string path = corpus("jvm/gctoolkit/preunified/ps/details/951_par.par.wd.nt.log");
  const std::string log = read_file(path);
  const json single = analyze_bytes({{"gc.log", log}});
  REQUIRE(report_of(single, "jvm-gc-log")["pauses"]["count"].get<int>() > 0);
  require_same_pauses(follow_in_pieces(log, every(1500, log.size())), single);
}
