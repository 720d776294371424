// Where gcscope and a peer (GCToolKit, GCViewer, garbagecat) disagree on a corpus log, the lines that
// decide it, read from the corpus file and parsed on their own. Each case asserts gcscope's figure and says
// why the peer's differs. The manifest tests (test_manifest_gctoolkit.cpp, test_manifest_peers.cpp,
// tests/jvm/test_jvm_corpus.cpp) list the same differences by file, so a new one fails there.
#include <catch2/catch.hpp>
#include <cmath>
#include <initializer_list>

#include "legacy_support.h"

using namespace gcscope;
using namespace gcscope::test;
using gcscope::jvm::GcType;
using nlohmann::json;

namespace {

// The text of a corpus log (its first member when compressed).
const std::string& corpus_text(const std::string& rel) {
  static std::map<std::string, std::string> cache;
  auto it = cache.find(rel);
  if (it == cache.end()) it = cache.emplace(rel, decode_members(corpus("jvm/" + rel)).at(0).bytes).first;
  return it->second;
}

// Line n (1-based) of a corpus log, without its line end.
std::string corpus_line(const std::string& rel, size_t n) {
  const std::string& t = corpus_text(rel);
  size_t at = 0;
  for (size_t i = 1; i < n; ++i) {
    at = t.find('\n', at);
    if (at == std::string::npos) throw std::runtime_error(rel + " has fewer than " + std::to_string(n) + " lines");
    ++at;
  }
  size_t end = t.find('\n', at);
  std::string line = t.substr(at, end == std::string::npos ? std::string::npos : end - at);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

// Lines first..last of a corpus log, each ending in '\n'.
std::string corpus_lines(const std::string& rel, size_t first, size_t last) {
  std::string out;
  for (size_t n = first; n <= last; ++n) out += corpus_line(rel, n) + "\n";
  return out;
}

// The given lines of a corpus log, in that order, each ending in '\n'.
std::string corpus_lines(const std::string& rel, std::initializer_list<size_t> numbers) {
  std::string out;
  for (size_t n : numbers) out += corpus_line(rel, n) + "\n";
  return out;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

LegacyRun legacy(const std::string& name, const std::string& text) {
  LegacyRun run;
  run_legacy(run, {{name, text}});
  return run;
}

const jvm::GcEvent& only_event(const CollectingSink& s, GcType t) {
  const jvm::GcEvent* found = nullptr;
  for (const auto& e : s.events)
    if (e.type == t) {
      REQUIRE(found == nullptr);
      found = &e;
    }
  REQUIRE(found != nullptr);
  return *found;
}

json jvm_report(const std::string& name, const std::string& text) {
  return report_of(analyze_bytes({{name, text}}), "jvm-gc-log");
}

int64_t count_of(const json& report, const char* type) {
  const json& bt = report["events"]["by_type"];
  return bt.contains(type) ? bt[type].get<int64_t>() : 0;
}

}  // namespace

// ---- GCToolKit ------------------------------------------------------------------------------------

TEST_CASE("peers: jdk11_details.log counts a concurrent mark once when an abort follows its end",
          "[jvm][peers][corpus]") {
  // GCToolKit counts 198 G1GCConcurrentMark: one per "Concurrent Mark (a, b) <d>ms" end line (156) and one
  // per "Concurrent Mark Abort" line (42). In 4 cycles the abort comes after the mark has ended (it cuts the
  // remembered-set rebuild short), so GCToolKit counts those marks twice: GC(1311) starts at line 63120, ends
  // at 63610 and is aborted at 63687; GC(2129) 102182/102720/102797; GC(3035) 145497/145893/145970;
  // GC(8246) 394967/395360/395437. The log has 194 "Concurrent Mark (a)" start lines: 194 marks.
  const std::string rel = "gctoolkit/unified/g1gc/jdk11_details.log.zip";
  const size_t cycles[4][3] = {
      {63120, 63610, 63687}, {102182, 102720, 102797}, {145497, 145893, 145970}, {394967, 395360, 395437}};
  std::string text;
  for (const auto& c : cycles) {
    CHECK(contains(corpus_line(rel, c[0]), ") Concurrent Mark ("));
    CHECK(contains(corpus_line(rel, c[1]), "s) "));  // "Concurrent Mark (a, b) <d>ms": the mark's end
    CHECK(contains(corpus_line(rel, c[2]), "Concurrent Mark Abort"));
    text += corpus_lines(rel, {c[0], c[1], c[2]});
  }
  json r = jvm_report("jdk11_details.log", text);
  CHECK(count_of(r, "G1GCConcurrentMark") == 4);
}

TEST_CASE("peers: defnew.log runs until its last pause ends", "[jvm-legacy][peers][corpus]") {
  // Fixed here: a legacy record is stamped with the start of its pause and printed when the pause is over,
  // so the log covers the run from line 1 (2.193 s) to the end of the pause of line 19378 (608800.079 s +
  // 0.0086280 s). GCToolKit's estimated runtime is the same, 608797.895 s.
  const std::string rel = "gctoolkit/preunified/cms/defnew/details/defnew.log";
  json r = jvm_report("defnew.log", corpus_lines(rel, {1, 19378}));
  CHECK(r["runtime_s"].get<double>() == Approx(608800.079 + 0.0086280 - 2.193).margin(1e-9));
  CHECK(r["time_range_s"]["last"].get<double>() == Approx(608800.087628).margin(1e-9));
}

TEST_CASE("peers: BF653AA1 log ends inside a CMS concurrent mark with two ParNew collections in it",
          "[jvm-legacy][peers][corpus]") {
  // GCToolKit 5305 ParNew, the text 5307 "[ParNew" records. GCToolKit holds young collections back while a
  // CMS concurrent phase is open and publishes them when the phase ends; line 150075 starts a concurrent
  // mark that the log never ends (it stops at line 150115), so the ParNew collections of lines 150083 and
  // 150109 are never published. Both are complete records: they count.
  const std::string rel =
      "gctoolkit/preunified/cms/parnew/details/tenuring/BF653AA1-F897-4279-9570-2E4837D311E8-1405428823225.log.gz";
  CHECK(contains(corpus_line(rel, 150075), "[CMS-concurrent-mark-start]"));
  CHECK(corpus_text(rel).find("CMS-concurrent-mark:",
                              corpus_text(rel).find("60123.204: [CMS-concurrent-mark-start]")) == std::string::npos);
  LegacyRun run = legacy("bf.log", corpus_lines(rel, 150073, 150115));
  CHECK(run.sink.count(GcType::InitialMark) == 1);
  CHECK(run.sink.count(GcType::ParNew) == 2);
  CHECK(run.sink.count(GcType::ConcurrentMark) == 0);
  CHECK(run.sink.unparsed == 0);
}

TEST_CASE("peers: cms-gc-06102014 prints a promotion failure on a line of its own", "[jvm-legacy][peers][corpus]") {
  // Line 18107 opens a ParNew record into which an abortable-preclean record was cut; line 18108 goes on with
  // " (promotion failed)", line 18116 gives the ParNew's figures (141769K->140729K: the young generation could
  // not be emptied) and line 18117 the CMS collection that ends in "(concurrent mode failure)". GCToolKit
  // publishes this ParNew as an ordinary ParNew of 0.0 s (no ParNewPromotionFailed); the text says the young
  // collection failed to promote and lasted 0.3807730 s.
  const std::string rel = "gctoolkit/preunified/cms/parnew/details/tenuring/cms-gc-06102014.log.zip";
  CHECK(corpus_line(rel, 18108) == " (promotion failed)");
  LegacyRun run = legacy("cms-gc-06102014.log", corpus_lines(rel, 18106, 18117));
  const auto& young = only_event(run.sink, GcType::ParNewPromotionFailed);
  CHECK(young.duration_s == Approx(0.3807730).margin(1e-9));
  const auto& old = only_event(run.sink, GcType::ConcurrentModeFailure);
  CHECK(young.duration_s + old.duration_s == Approx(28.7750370).margin(1e-9));
  CHECK(run.sink.count(GcType::ParNew) == 0);
  CHECK(run.sink.count(GcType::Abortable_Preclean) == 1);
  CHECK(run.sink.unparsed == 0);
}

TEST_CASE("peers: gc_with_overflow.log has a full collection split by concurrent-phase lines",
          "[jvm-legacy][peers][corpus]") {
  // Line 5391 opens "[Full GC" and three G1 concurrent-phase lines follow (5391-5393: root-region-scan start
  // and end, concurrent-mark-start); the record goes on at line 5394 (reference processing, "510M->510M(512M),
  // 4.3335850 secs]") with its Eden/Heap line 5395 and [Times: … real=4.34 secs] line 5396. GCToolKit does not
  // join the parts and loses this 4.3 s collection (401 Full); the text has 402 "[Full GC" records.
  const std::string rel = "gctoolkit/preunified/g1gc/details/reference/post17040/gc_with_overflow.log";
  CHECK(contains(corpus_line(rel, 5391), "[Full GC100081.540: [GC concurrent-root-region-scan-start]"));
  LegacyRun run = legacy("gc_with_overflow.log", corpus_lines(rel, 5391, 5396));
  const auto& full = only_event(run.sink, GcType::Full);
  CHECK(full.duration_s == Approx(4.3335850).margin(1e-9));
  CHECK(full.uptime_s == Approx(100081.540).margin(1e-9));
  CHECK(run.sink.count(GcType::ConcurrentRootRegionScan) == 1);
  CHECK(run.sink.unparsed == 0);
}

TEST_CASE("peers: GCToolKit decides two diary flags before the lines that show them", "[jvm-legacy][peers][corpus]") {
  SECTION("PRINT_HEAP_AT_GC in JDK 1.4/5 spelling") {
    // Line 30 opens "{Heap before gc invocations=1:" (lower-case gc: JDK 1.4 and 5 print it so) and line 40
    // "Heap after gc invocations=1:", around the record of line 39. GCToolKit looks for "{Heap before GC
    // invocations=" only, and its diarizer sets the flag false at line 39, the first PSYoungGen record.
    for (const char* rel : {"gctoolkit/preunified/ps/details/gc_ccpcc01_late.log",
                            "gctoolkit/preunified/ps/details/par.oldpar.wd.nt.ast.log"}) {
      INFO(rel);
      CHECK(corpus_line(rel, 30) == "{Heap before gc invocations=1:");
      CHECK(corpus_line(rel, 40) == "Heap after gc invocations=1:");
      LegacyRun run = legacy("ps.log", corpus_lines(rel, 30, 49));
      CHECK(diary_flag(run.diary, "PRINT_HEAP_AT_GC") == jvm::Tri::kTrue);
      CHECK(run.sink.count(GcType::PSYoungGen) == 1);
      CHECK(run.sink.unparsed == 0);
    }
  }
  SECTION("RSET_STATS") {
    // Line 27 " Concurrent RS processed 0 cards" is the -XX:+G1SummarizeRSetStats summary (1373 of them in the
    // log). GCToolKit's diarizer counts each "G1Ergonomics (CSet Construction)" line as a collection and, once
    // it has seen more than one (lines 2-3, the first pause), sets every flag it has not seen false: RSET_STATS
    // is false before line 27 is read.
    const std::string rel = "gctoolkit/preunified/g1gc/details/adaptivesize/rset/gc1gc_details_adaptivesizing_rset.log";
    CHECK(corpus_line(rel, 27) == " Concurrent RS processed 0 cards");
    LegacyRun run = legacy("rset.log", corpus_lines(rel, 1, 27));
    CHECK(diary_flag(run.diary, "RSET_STATS") == jvm::Tri::kTrue);
  }
}

// ---- garbagecat -----------------------------------------------------------------------------------

TEST_CASE("peers: garbagecat adds G1's Other time to the pause that contains it", "[jvm][peers][corpus]") {
  SECTION("JDK 8 G1 (dataset41, dataset98)") {
    // Line 5 closes the pause of line 3: ", 0.0209631 secs]"; its detail block has "[Other: 8.2 ms]" (line 19),
    // a part of that pause (Parallel 12.6 + Clear CT 0.1 + Other 8.2 = 20.9 ms), and line 26 stops the
    // application for 0.0214826 s in all. garbagecat adds Other again (29.16 ms): more than the threads were
    // stopped. Same for the pause of line 28 (41.4530 ms, Other 12.0 at line 45, stopped 0.0419849 s at
    // line 52). garbagecat 82.616 ms; the log 62.416 ms. dataset98 is the same log 1000 s later.
    for (const char* rel : {"garbagecat/dataset41.txt", "garbagecat/dataset98.txt"}) {
      INFO(rel);
      CHECK(contains(corpus_line(rel, 5), ", 0.0209631 secs]"));
      CHECK(corpus_line(rel, 19) == "   [Other: 8.2 ms]");
      CHECK(contains(corpus_line(rel, 26), "stopped: 0.0214826 seconds"));
      CHECK(0.0209631 + 0.0082 > 0.0214826);
      CHECK(contains(corpus_line(rel, 45), "[Other: 12.0 ms]"));
      CHECK(0.0414530 + 0.0120 > 0.0419849);
      LegacyRun run = legacy("g1.log", corpus_text(rel));
      double total = 0;
      for (const auto& e : run.sink.events) total += e.stop_the_world ? e.duration_s : 0;
      CHECK(run.sink.count(GcType::Young) == 2);
      CHECK(total == Approx(0.0209631 + 0.0414530).margin(1e-9));
      CHECK(run.sink.safepoint_total_s >= total);
    }
  }
  SECTION("unified G1 (dataset182)") {
    // GC(0): "Other: 0.2ms" (line 15) inside the 5.780 ms pause of line 21, stopped 0.0059106 s (line 24);
    // GC(1): Other 0.1 ms (line 40) inside 4.858 ms (line 46), stopped 0.0049236 s (line 49). With Other added
    // twice the pause would outlast the stop. garbagecat's 24.656 ms = the 7 pauses (24.180 ms) + the four
    // young pauses' Other (0.5 ms) - the 0.024 ms cleanup of line 79, which it truncates to whole
    // milliseconds (0) and reads as microseconds.
    const std::string rel = "garbagecat/dataset182.txt";
    CHECK(contains(corpus_line(rel, 15), "Other: 0.2ms"));
    CHECK(contains(corpus_line(rel, 21), "1M->1M(4M) 5.780ms"));
    CHECK(contains(corpus_line(rel, 24), "stopped: 0.0059106 seconds"));
    CHECK(0.005780 + 0.0002 > 0.0059106);
    CHECK(contains(corpus_line(rel, 40), "Other: 0.1ms"));
    CHECK(contains(corpus_line(rel, 46), "4.858ms"));
    CHECK(contains(corpus_line(rel, 49), "stopped: 0.0049236 seconds"));
    CHECK(0.004858 + 0.0001 > 0.0049236);
    CHECK(contains(corpus_line(rel, 79), "Pause Cleanup 1M->1M(5M) 0.024ms"));
    json r = jvm_report("dataset182.txt", corpus_text(rel));
    CHECK(r["pauses"]["count"] == 7);
    CHECK(r["pauses"]["total_s"].get<double>() == Approx(0.024180).margin(1e-9));
    CHECK(std::lround((0.024180 + 0.0005 - 0.000024) * 1e6) == 24656);
  }
}

TEST_CASE("peers: a thread dump without GC records is read, every line counted as not GC output",
          "[jvm][peers][corpus]") {
  // garbagecat reads dataset234.txt (an Infinispan log line, then a thread dump: "main:" at line 2 and 15
  // "    at …(….java:N)" frames) and reports INFO_THREAD_DUMP with no GC event. Fixed here: the input was
  // refused as "not a GC log"; it is now read as JVM output with no GC record, its 17 lines listed as not GC
  // output.
  const std::string rel = "garbagecat/dataset234.txt";
  CHECK(corpus_line(rel, 2) == "main:");
  CHECK(corpus_line(rel, 3) == "    at jdk.internal.misc.Unsafe.park(Unsafe.java:-2)");
  json doc = analyze_bytes({{rel, corpus_text(rel)}});
  const json& r = report_of(doc, "jvm-gc-log");
  CHECK(r["pauses"]["count"] == 0);
  CHECK(r["unparsed"]["count"] == 17);
}

TEST_CASE("peers: GC lines inside application output are analyzed, the other lines counted", "[jvm][peers]") {
  // fixtures/jvm/jdk17-serial-mixed-stdout.log: a JDK 17 GC log (-Xlog:gc:stdout) and the application's own
  // lines and stack traces on one stdout (fixtures/jvm/generate.sh, AppWithGc.java). Counted here from the
  // file itself: the "GC(n) Pause" lines are the pauses; the lines without a "[…s][info][gc]" decoration are
  // the application's.
  const std::string text = read_file(fixture("jvm/jdk17-serial-mixed-stdout.log"));
  size_t pauses = 0, not_gc = 0, lines = 0;
  double total_ms = 0;
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? text.size() : nl + 1;
    ++lines;
    size_t tag = line.find("][info][gc] ");
    if (line.empty() || line[0] != '[' || tag == std::string::npos) {
      ++not_gc;
      continue;
    }
    if (line.find(" Pause ", tag) != std::string::npos) {
      ++pauses;
      total_ms += std::atof(line.c_str() + line.rfind(' ') + 1);
    }
  }
  REQUIRE(pauses > 50);
  REQUIRE(not_gc > 50);
  json r = jvm_report("jdk17-serial-mixed-stdout.log", text);
  CHECK(r["pauses"]["count"] == pauses);
  CHECK(r["pauses"]["total_s"].get<double>() == Approx(total_ms / 1000).margin(1e-6));
  CHECK(r["unparsed"]["count"] == not_gc);
}

// ---- GCViewer -------------------------------------------------------------------------------------

TEST_CASE("peers: JDK 1.4-6 adaptive size policy output opens the young collection record",
          "[jvm-legacy][peers][corpus]") {
  // Fixed here: "0.153: [GCAdaptiveSizePolicy::old generation size: …" (line 1 of the JDK 1.4 sample) starts a
  // young collection whose figures come three lines later (line 4: " 3054K->3065K(13056K), 0.0077290 secs]").
  // The "[GC" glued to "AdaptiveSizePolicy" was not taken for a record start, so the six young collections of
  // the sample were lost (GCViewer: 9 pauses, 0.1978746 s).
  SECTION("JDK 1.4, no details") {
    const std::string rel = "gcviewer/openjdk/SampleSun1_4_0AdaptiveSizePolicy.txt";
    LegacyRun run = legacy("1.4.txt", corpus_lines(rel, 1, 4));
    const auto& y = only_event(run.sink, GcType::Young);
    CHECK(y.duration_s == Approx(0.0077290).margin(1e-9));
    CHECK(y.heap.before_kb == 3054);
    CHECK(y.heap.after_kb == 3065);
    CHECK(y.heap.committed_kb == 13056);
    CHECK(run.sink.unparsed == 0);
  }
  SECTION("JDK 5, Parallel Scavenge") {
    // Lines 1-5: "[GCAdaptiveSizePolicy::compute_survivor_space_size_and_thresh: …", three more policy lines,
    // then " [PSYoungGen: 5437K->880K(6336K)] 5437K->5238K(64640K), 0.0045523 secs]".
    const std::string rel = "gcviewer/openjdk/SampleSun1_5_0AdaptiveSizePolicy.txt";
    LegacyRun run = legacy("1.5.txt", corpus_lines(rel, 1, 5));
    const auto& y = only_event(run.sink, GcType::PSYoungGen);
    CHECK(y.duration_s == Approx(0.0045523).margin(1e-9));
    CHECK(y.heap.before_kb == 5437);
    CHECK(y.heap.after_kb == 5238);
    CHECK(y.heap.committed_kb == 64640);
    CHECK(y.young.before_kb == 5437);
    CHECK(run.sink.unparsed == 0);
  }
}

TEST_CASE("peers: JDK 6 and early 7 G1 print the heap on a line of its own", "[jvm][peers][corpus]") {
  // Fixed here: before JDK 7u2 G1's detail block ends with "   [ 8192K->8128K(64M)]" instead of "[Eden: …
  // Heap: …]"; the heap size GCViewer asserts (getHeapAllocatedSizes().getMax()) comes from that line.
  SECTION("SampleSun1_7_0-01_G1_young.txt line 29") {
    const std::string rel = "gcviewer/openjdk/SampleSun1_7_0-01_G1_young.txt";
    CHECK(corpus_line(rel, 29) == "   [ 8192K->8128K(64M)]");
    json r = jvm_report("young.txt", corpus_lines(rel, 1, 30));
    CHECK(r["heap"]["max_size_kb"] == 64 * 1024);
    CHECK(r["heap"]["max_occupancy_kb"] == 8192);
    CHECK(r["heap"]["max_after_gc_kb"] == 8128);
  }
  SECTION("SampleSun1_6_0G1_MarkStackFull.txt line 44") {
    const std::string rel = "gcviewer/openjdk/SampleSun1_6_0G1_MarkStackFull.txt";
    CHECK(corpus_line(rel, 44) == "   [ 2764M->2700M(3985M)]");
    json r = jvm_report("markstack.txt", corpus_text(rel));
    CHECK(r["heap"]["max_size_kb"] == 3985 * 1024);
  }
  SECTION("SampleSun1_6_0G1InitialMarkMixed.txt lines 31-32: the heap line cut by a concurrent phase") {
    // Line 31 "   [[GC concurrent-mark-start]": the concurrent phase was printed right after the "[" of the
    // heap line, whose figures follow on line 32 " 7399M->4700M(10240M)]".
    const std::string rel = "gcviewer/openjdk/SampleSun1_6_0G1InitialMarkMixed.txt";
    CHECK(corpus_line(rel, 31) == "   [[GC concurrent-mark-start]");
    CHECK(corpus_line(rel, 32) == " 7399M->4700M(10240M)]");
    json r = jvm_report("mixed.txt", corpus_text(rel));
    CHECK(r["heap"]["max_size_kb"] == 10240 * 1024);
    CHECK(r["heap"]["max_after_gc_kb"] == 4700 * 1024);
    CHECK(r["unparsed"]["count"] == 0);
  }
}

TEST_CASE("peers: a ParNew that fails into a CMS collection is two pauses here, one in GCViewer",
          "[jvm-legacy][peers][corpus]") {
  // By definition (wasm/jvm/README.md, Pauses): lines 1-9 of the sample are one record, "[GC [ParNew (promotion
  // failed) …: …, 0.5939440 secs][CMS: …, 20.9698110 secs] …, 21.5649460 secs]". gcscope's pauses follow
  // GCToolKit's events: the failed ParNew (0.5939440 s) and the full CMS collection it fell back to (the
  // rest, 20.9710020 s); the total is the record's. GCViewer's longest pause is the record, 21.564946 s.
  const std::string rel = "gcviewer/openjdk/SampleSun1_7_0CMSTenuringDistributionInitiationStatistics.txt";
  CHECK(contains(corpus_line(rel, 9), ", 21.5649460 secs]"));
  json r = jvm_report("cms.txt", corpus_lines(rel, 1, 18));
  CHECK(r["pauses"]["count"] == 2);
  CHECK(r["pauses"]["total_s"].get<double>() == Approx(21.564946).margin(1e-9));
  CHECK(r["pauses"]["max_s"].get<double>() == Approx(21.564946 - 0.593944).margin(1e-9));
  CHECK(count_of(r, "ParNewPromotionFailed") == 1);
  CHECK(count_of(r, "FullGC") == 1);
}
