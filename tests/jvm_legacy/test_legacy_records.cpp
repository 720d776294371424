// The legacy parser's records field by field (values read off the log lines quoted in each test), the
// stitching of interleaved and split records, and robustness: chunking, truncation, garbage.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "legacy_support.h"

using namespace gcscope;
using namespace gcscope::test;
using gcscope::jvm::GcType;

namespace {
LegacyRun run_text(const std::string& text, size_t chunk = 1 << 20) {
  LegacyRun run;
  run_legacy(run, {{"inline.log", text}}, chunk);
  return run;
}
const jvm::GcEvent& first_of(const LegacyRun& run, GcType t) {
  for (const auto& e : run.sink.events)
    if (e.type == t) return e;
  throw std::runtime_error(std::string("no event of type ") + jvm::gc_type_name(t));
}
}  // namespace

TEST_CASE("legacy records: ParNew with every field", "[jvm-legacy][records]") {
  // 1073_1.log line 1.
  auto run = run_text(
      "69.603: [GC 69.603: [ParNew: 209792K->8391K(235968K), 0.0168412 secs] 209792K->8391K(1022400K), 0.0169706 secs] "
      "[Times: user=0.08 sys=0.03, real=0.02 secs] \n");
  const auto& e = first_of(run, GcType::ParNew);
  CHECK(e.uptime_s == Approx(69.603));
  CHECK(e.duration_s == Approx(0.0169706));
  CHECK(e.young.before_kb == 209792);
  CHECK(e.young.after_kb == 8391);
  CHECK(e.young.committed_kb == 235968);
  CHECK(e.heap.before_kb == 209792);
  CHECK(e.heap.after_kb == 8391);
  CHECK(e.heap.committed_kb == 1022400);
  CHECK(e.user_s == Approx(0.08));
  CHECK(e.sys_s == Approx(0.03));
  CHECK(e.real_s == Approx(0.02));
  CHECK(e.first_line == 1);
  CHECK(std::string(e.young_pool) == "ParNew");
  CHECK(run.stats.unparsed == 0);
}

TEST_CASE("legacy records: Parallel, date stamps, comma decimals, G1 detail block", "[jvm-legacy][records]") {
  // ps.cause.tenuring.details.v17051.log: a split young record around its tenuring table, and a full GC.
  auto ps = run_text(
      "6.561: [GC (Allocation Failure)\n"
      "Desired survivor size 11010048 bytes, new threshold 7 (max 15)\n"
      " [PSYoungGen: 66048K->9121K(76800K)] 66048K->18961K(251392K), 0.0061960 secs] [Times: user=0.03 sys=0.01, real=0.00 secs] \n"
      "30.081: [Full GC (Ergonomics) [PSYoungGen: 3072K->0K(696320K)] [ParOldGen: 173072K->123732K(226816K)] "
      "176144K->123732K(923136K) [PSPermGen: 13398K->13392K(27136K)], 0.4959220 secs] [Times: user=3.03 sys=0.03, real=0.49 secs] \n");
  const auto& y = first_of(ps, GcType::PSYoungGen);
  CHECK(y.cause == "Allocation Failure");
  CHECK(y.young.after_kb == 9121);
  CHECK(y.heap.committed_kb == 251392);
  CHECK(y.duration_s == Approx(0.0061960));
  CHECK(ps.sink.tenuring == 1);
  const auto& f = first_of(ps, GcType::FullGC);
  CHECK(f.cause == "Ergonomics");
  CHECK(f.old.before_kb == 173072);
  CHECK(f.old.after_kb == 123732);
  CHECK(f.metaspace.after_kb == 13392);
  CHECK(std::string(f.old_pool) == "ParOldGen");
  CHECK(diary_flag(ps.diary, "PARALLELGC") == jvm::Tri::kTrue);
  CHECK(diary_flag(ps.diary, "TENURING_DISTRIBUTION") == jvm::Tri::kTrue);
  CHECK(diary_flag(ps.diary, "GC_CAUSE") == jvm::Tri::kTrue);
  CHECK(diary_flag(ps.diary, "JDK70") == jvm::Tri::kTrue);  // PSPermGen

  // gc-master.log line 4031 (iCMS, date stamps with a +0100 zone, ',' decimals).
  auto icms = run_text(
      "2013-01-25T10:12:13.318+0100: 1207,770: [GC 1207,770: [ParNew: 629120K->629120K(629120K), 0,0000240 secs]1207,770: "
      "[CMS: 1270289K->696493K(1398144K), 4,3217660 secs] 1899409K->696493K(2027264K), [CMS Perm : 216443K->214985K(360736K)] "
      "icms_dc=24 , 4,3221610 secs] [Times: user=4,31 sys=0,01, real=4,32 secs] \n");
  const auto& full = first_of(icms, GcType::FullGC);
  CHECK(full.uptime_s == Approx(1207.770 + 0.0000240));
  // 2013-01-25T09:12:13.318Z = 1359105133318 ms since the epoch.
  CHECK(full.wall_epoch_ms == Approx(1359105133318.0));
  CHECK(full.duration_s == Approx(4.3221610 - 0.0000240));  // the ParNew part is its own event
  CHECK(first_of(icms, GcType::ParNew).duration_s == Approx(0.0000240));
  CHECK(full.real_s == Approx(4.32));
  CHECK(diary_flag(icms.diary, "ICMS") == jvm::Tri::kTrue);

  // G1 (JDK 7): the header line, the tenuring table, then the indented detail block.
  auto g1 = run_text(
      "24.263: [GC pause (young)\n"
      "Desired survivor size 1572864 bytes, new threshold 15 (max 15)\n"
      ", 0.0135310 secs]\n"
      "   [Parallel Time: 12.8 ms, GC Workers: 4]\n"
      "   [Eden: 24.0M(24.0M)->0.0B(30.0M) Survivors: 0.0B->3072.0K Heap: 33.6M(256.0M)->13.9M(256.0M)]\n"
      " [Times: user=0.03 sys=0.00, real=0.01 secs] \n");
  const auto& yg = first_of(g1, GcType::Young);
  CHECK(yg.duration_s == Approx(0.0135310));
  CHECK(yg.eden.before_kb == 24 * 1024);
  CHECK(yg.eden.after_kb == 0);
  CHECK(yg.eden.committed_kb == 30 * 1024);
  CHECK(yg.survivor.after_kb == 3072);
  CHECK(yg.heap.before_kb == std::llround(33.6 * 1024));
  CHECK(yg.heap.committed_kb == 256 * 1024);
  CHECK(yg.real_s == Approx(0.01));
  CHECK(g1.stats.unparsed == 0);
}

TEST_CASE("legacy records: interleaved lines are stitched back without a preprocessing pass", "[jvm-legacy][records]") {
  // 1073_1.log lines 91-93: a CMS concurrent phase cuts a ParNew+CMS record; the record ends on the next line.
  auto run = run_text(
      "364.157: [GC 364.157: [ParNew: 235968K->235968K(235968K), 0.0000430 secs]364.157: [CMSbailing out to foreground collection\n"
      "364.261: [CMS-concurrent-mark: 1.616/1.617 secs] [Times: user=5.08 sys=0.01, real=1.63 secs] \n"
      "(concurrent mode failure): 702521K->594052K(786432K), 4.9052810 secs] 938489K->594052K(1022400K), "
      "[CMS Perm : 22623K->22606K(37688K)], 4.9054799 secs] [Times: user=5.02 sys=0.00, real=4.91 secs] \n"
      // same file, line 265: the concurrent phase sits in the middle of the line, with its own date stamp.
      "19027.501: [Full GC 19027.501: [CMS2010-04-21T00:00:37.413+0100: 19027.970: [CMS-concurrent-mark: 1.489/1.626 secs] "
      "[Times: user=5.77 sys=0.13, real=1.63 secs] \n"
      "(concurrent mode failure): 753869K->465869K(786432K), 4.5471109 secs] 989837K->465869K(1022400K), "
      "[CMS Perm : 22817K->22681K(37816K)], 4.5472629 secs] [Times: user=5.02 sys=0.00, real=4.55 secs] \n"
      // application output with a record appended to it
      "INFO some application line3.500: [GC 3.500: [ParNew: 1000K->100K(2000K), 0.0010000 secs] 5000K->4100K(9000K), 0.0011000 secs]\n");
  CHECK(run.sink.count(GcType::ConcurrentModeFailure) == 2);
  CHECK(run.sink.count(GcType::ConcurrentMark) == 2);
  CHECK(run.sink.count(GcType::ParNew) == 2);  // the young part of the first record + the appended one
  const auto& cmf = first_of(run, GcType::ConcurrentModeFailure);
  CHECK(cmf.first_line == 1);
  CHECK(cmf.old.before_kb == 702521);
  CHECK(cmf.old.after_kb == 594052);
  CHECK(cmf.heap.after_kb == 594052);
  CHECK(cmf.duration_s + 0.0000430 == Approx(4.9054799));
  const auto& mark = first_of(run, GcType::ConcurrentMark);
  CHECK_FALSE(mark.stop_the_world);
  CHECK(mark.duration_s == Approx(1.617));
  CHECK(mark.first_line == 2);
  // the second concurrent mark carries its own date stamp: 2010-04-20T23:00:37.413Z
  std::vector<const jvm::GcEvent*> marks;
  for (const auto& e : run.sink.events)
    if (e.type == GcType::ConcurrentMark) marks.push_back(&e);
  REQUIRE(marks.size() == 2);
  CHECK(marks[1]->wall_epoch_ms == Approx(1271804437413.0));
  CHECK(marks[1]->uptime_s == Approx(19027.970));
  CHECK(marks[1]->first_line == 4);
  CHECK(run.sink.unparsed == 1);  // "INFO some application line"
  CHECK(run.sink.first_unparsed[0].second == "INFO some application line");
}

TEST_CASE("legacy records: the same events whatever the chunk size", "[jvm-legacy][records][corpus]") {
  auto members = decode_members(corpus("jvm/gctoolkit/preunified/cms/parnew/details/tenuring/863_gc.log"));
  LegacyRun whole, small;
  run_legacy(whole, members, 1 << 20);
  run_legacy(small, members, 7);
  REQUIRE(whole.sink.events.size() == small.sink.events.size());
  CHECK(whole.sink.by_type == small.sink.by_type);
  for (size_t i = 0; i < whole.sink.events.size(); ++i) {
    CHECK(whole.sink.events[i].first_line == small.sink.events[i].first_line);
    CHECK(whole.sink.events[i].heap.after_kb == small.sink.events[i].heap.after_kb);
  }
}

TEST_CASE("legacy records: truncated, corrupted and hostile input never crashes nor grows",
          "[jvm-legacy][records][corpus]") {
  std::string log = decode_members(corpus("jvm/gctoolkit/preunified/cms/parnew/details/1073_1.log"))[0].bytes;
  // Truncations at arbitrary points keep what was complete before the cut.
  std::mt19937 rng(42);
  for (int k = 0; k < 20; ++k) {
    size_t cut = rng() % log.size();
    auto run = run_text(log.substr(0, cut));
    uint64_t lines_before = static_cast<uint64_t>(std::count(log.begin(), log.begin() + static_cast<long>(cut), '\n'));
    for (const auto& e : run.sink.events) CHECK(e.first_line <= lines_before + 1);
  }
  // Random byte flips.
  for (int k = 0; k < 10; ++k) {
    std::string bad = log;
    for (int j = 0; j < 2000; ++j) bad[rng() % bad.size()] = static_cast<char>(rng() % 256);
    auto run = run_text(bad);
    CHECK(run.stats.lines > 0);
  }
  // A record that never closes: 100k lines appended to it are dropped in bounded pieces, not kept.
  std::string open = "1.000: [GC 1.000: [ParNew\n";
  for (int i = 0; i < 100000; ++i) open += "[[[[ unbalanced text that never closes\n";
  auto run = run_text(open);
  CHECK(run.stats.lines == 100001);
  // Deep nesting and a megabyte-long line.
  auto deep = run_text("1.0: " + std::string(100000, '[') + "\n" + "2.0: [GC " + std::string(1 << 20, 'x') + "]\n");
  CHECK(deep.stats.lines == 2);
}

TEST_CASE("legacy records: header lines, safepoints and tenuring tables", "[jvm-legacy][records][corpus]") {
  // rightmove_parse_errors.log starts with the JDK 8u31 header and "CommandLine flags: … -XX:MaxHeapSize=2147483648 …".
  LegacyRun run;
  run_legacy(run, decode_members(corpus("jvm/gctoolkit/preunified/g1gc/details/solaris/rightmove_parse_errors.log")));
  CHECK(run.diary.jvm_version.rfind("Java HotSpot(TM) 64-Bit Server VM (25.31-b07)", 0) == 0);
  CHECK(run.diary.max_heap_kb == 2147483648 / 1024);
  CHECK(run.diary.initial_heap_kb == 2147483648 / 1024);
  CHECK(run.diary.physical_memory_kb == 3145276);  // "Memory: 4k page, physical 3145276k(1637376k free)"
  CHECK(run.diary.command_line.find("CommandLine flags: -XX:GCLogFileSize=20971520") != std::string::npos);
  CHECK(diary_flag(run.diary, "JDK80") == jvm::Tri::kTrue);  // JRE (1.8.0_31-b13)
  CHECK(diary_flag(run.diary, "APPLICATION_STOPPED_TIME") == jvm::Tri::kTrue);
  // grep -c "Total time for which application threads were stopped" = 4854; "Desired survivor size" = 1056.
  CHECK(run.sink.safepoints == 4854);
  CHECK(run.sink.tenuring == 1056);
  CHECK(run.diary.first_uptime_s == Approx(1.417));  // the first stamped line (a safepoint)

  // The table's ages, from garbagecat's dataset41 line 31-33: "- age   1:   13410448 bytes,   13410448 total".
  struct TenuringSink : jvm::GcEventSink {
    std::vector<jvm::TenuringRecord> tables;
    void on_event(const jvm::GcEvent&) override {}
    void on_safepoint(const jvm::SafepointEvent&) override {}
    void on_unparsed(uint32_t, uint64_t, std::string_view) override {}
    void on_tenuring(const jvm::TenuringRecord& r) override { tables.push_back(r); }
  } sink;
  jvm::Diary diary;
  jvm::LegacyGcLogParser parser(sink, diary);
  uint64_t no = 0;
  for (const char* line : {"2015-05-04T18:08:02.119+0000: 2.847: [GC pause (G1 Evacuation Pause) (young)",
                           "Desired survivor size 8388608 bytes, new threshold 1 (max 15)",
                           "- age   1:   13410448 bytes,   13410448 total", ", 0.0414530 secs]"})
    parser.feed_line(line, ++no);
  parser.finish();
  REQUIRE(sink.tables.size() == 1);
  CHECK(sink.tables[0].desired_survivor_bytes == 8388608);
  CHECK(sink.tables[0].new_threshold == 1);
  CHECK(sink.tables[0].max_threshold == 15);
  REQUIRE(sink.tables[0].bytes_by_age.size() == 1);
  CHECK(sink.tables[0].bytes_by_age[0] == std::make_pair(1, int64_t{13410448}));
  CHECK(sink.tables[0].uptime_s == Approx(2.847));
  CHECK(sink.tables[0].line == 2);
}

TEST_CASE("legacy records: safepoint times, seconds above one included", "[jvm-legacy][records][corpus]") {
  // garbagecat dataset41: six PrintGCApplicationStoppedTime lines, the last "1.0006881 seconds";
  // 0.0001390 + 0.0002054 + 0.0214826 + 0.0004399 + 0.0419849 + 1.0006881 = 1.0649399 s.
  LegacyRun run;
  run_legacy(run, decode_members(corpus("jvm/garbagecat/dataset41.txt")));
  CHECK(run.sink.safepoints == 6);
  CHECK(run.sink.safepoint_total_s == Approx(1.0649399).epsilon(1e-9));
}
