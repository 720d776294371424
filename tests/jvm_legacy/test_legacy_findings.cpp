// Legacy-only findings on real logs that trigger them and on logs that must not.
#include <catch2/catch.hpp>
#include <set>

#include "jvm/legacy/legacy_findings.h"
#include "legacy_support.h"

using namespace gcscope;
using namespace gcscope::test;
using namespace gcscope::jvm;

namespace {
std::vector<LegacyFinding> findings_of(const std::string& rel) {
  LegacyRun run;
  run_legacy(run, decode_members(corpus("jvm/" + rel)));
  return legacy_findings(run.sink.events, run.diary);
}
const LegacyFinding* find(const std::vector<LegacyFinding>& fs, const std::string& id) {
  for (const auto& f : fs)
    if (f.id == id) return &f;
  return nullptr;
}
}  // namespace

TEST_CASE("findings: concurrent mode failures and promotion failures of a CMS log", "[jvm-legacy][findings][corpus]") {
  // 1073_1.log: 90 lines print "concurrent mode failure" (grep -c); 6 more ParNew+[CMS: records are counted
  // as concurrent mode failures like GCToolKit does (see the parser) -> 96; 20 "promotion failed" lines.
  auto fs = findings_of("gctoolkit/preunified/cms/parnew/details/1073_1.log");
  const auto* cmf = find(fs, "cms_concurrent_mode_failure");
  REQUIRE(cmf);
  CHECK(cmf->count == 96);
  CHECK(cmf->severity == "error");
  CHECK(cmf->first_line == 91);  // "364.157: [GC 364.157: [ParNew: …][CMSbailing out to foreground collection"
  const auto* pf = find(fs, "promotion_failed");
  REQUIRE(pf);
  CHECK(pf->count == 20);
  CHECK(pf->first_line == 462);
  CHECK_FALSE(find(fs, "icms_in_use"));
  CHECK_FALSE(find(fs, "g1_evacuation_failure"));
}

TEST_CASE("findings: iCMS in use, and not on plain CMS", "[jvm-legacy][findings][corpus]") {
  CHECK(find(findings_of("gctoolkit/preunified/icms/details/par.icms.wd.nt.log"), "icms_in_use"));
  CHECK_FALSE(find(findings_of("gctoolkit/preunified/cms/parnew/details/GCLog_CMSCollection.log"), "icms_in_use"));
}

TEST_CASE("findings: Parallel young with the serial old collector", "[jvm-legacy][findings][corpus]") {
  // dataset1: PSYoungGen with PSOldGen full collections (garbagecat: ERROR_SERIAL_GC_PARALLEL).
  auto fs = findings_of("garbagecat/dataset1.txt");
  REQUIRE(find(fs, "serial_old_with_parallel_young"));
  // ParOldGen logs do not raise it.
  CHECK_FALSE(
      find(findings_of("gctoolkit/preunified/ps/details/tenuring/gccause/170/ps.cause.tenuring.details.v17051.log"),
           "serial_old_with_parallel_young"));
}

TEST_CASE("findings: GC locker forced collection", "[jvm-legacy][findings][corpus]") {
  // dataset119: "GC locker: Trying a full collection because scavenge failed" before a full collection.
  auto fs = findings_of("garbagecat/dataset119.txt");
  const auto* f = find(fs, "gc_locker");
  REQUIRE(f);
  CHECK(f->count >= 1);
  CHECK_FALSE(find(findings_of("gctoolkit/preunified/cms/parnew/details/GCLog_CMSCollection.log"), "gc_locker"));
}

TEST_CASE("findings: G1 evacuation failure and GC overhead limit", "[jvm-legacy][findings][corpus]") {
  // dataset144: two "(to-space exhausted)" young pauses cut by concurrent phases.
  auto g1 = findings_of("garbagecat/dataset144.txt");
  REQUIRE(find(g1, "g1_evacuation_failure"));
  // dataset9: Parallel full collection printing "GC time would exceed GCTimeLimit of 98%".
  REQUIRE(find(findings_of("garbagecat/dataset9.txt"), "gc_overhead_limit"));
  CHECK_FALSE(find(findings_of("gctoolkit/preunified/g1gc/details/170_51mastermind.log"), "g1_evacuation_failure"));
}

TEST_CASE("findings: logging configuration", "[jvm-legacy][findings][corpus]") {
  // 530_gc.log was written without -XX:+PrintGCDetails and without safepoint times.
  auto fs = findings_of("gctoolkit/preunified/cms/530_gc.log");
  CHECK(find(fs, "print_gc_details_missing"));
  CHECK(find(fs, "application_stopped_time_missing"));
  // psyg.cms.wd.nt.log has PrintHeapAtGC and PrintGCApplicationStoppedTime.
  auto ps = findings_of("gctoolkit/preunified/ps/details/psyg.cms.wd.nt.log");
  CHECK(find(ps, "print_heap_at_gc"));
  CHECK_FALSE(find(ps, "application_stopped_time_missing"));
  CHECK_FALSE(find(ps, "print_gc_details_missing"));
}
