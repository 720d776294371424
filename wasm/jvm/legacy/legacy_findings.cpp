#include "jvm/legacy/legacy_findings.h"

#include <cstdio>
#include <cstring>

namespace gcscope::jvm {

namespace {

bool flag_true(const Diary& d, const char* name) {
  for (const auto& f : d.flags)
    if (f.first == name) return f.second == Tri::kTrue;
  return false;
}

std::string secs(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

bool old_is(const GcEvent& e, const char* pool) { return e.old_pool && std::strcmp(e.old_pool, pool) == 0; }

bool is_full_type(GcType t) {
  return t == GcType::FullGC || t == GcType::SystemGC || t == GcType::ConcurrentModeFailure ||
         t == GcType::ConcurrentModeInterrupted || t == GcType::Full || t == GcType::PSFull;
}

}  // namespace

void LegacyFindingsAccumulator::add(const GcEvent& e) {
  switch (e.type) {
    case GcType::ConcurrentModeFailure: cmf_.note(e); break;
    case GcType::ConcurrentModeInterrupted: cmi_.note(e); break;
    case GcType::ParNewPromotionFailed: promotion_failed_.note(e); break;
    case GcType::SystemGC: system_gc_.note(e); break;
    default: break;
  }
  if (e.type == GcType::ParNew || e.type == GcType::DefNew || e.type == GcType::PSYoungGen || e.type == GcType::Young)
    ++young_;
  // A ParNew promotion failure is its own event (ParNewPromotionFailed) followed by the old collection of the
  // same record, which carries the flag too: count the record once.
  if ((e.flags & kPromotionFailed) && e.type != GcType::ParNewPromotionFailed) {
    const bool parnew_record = e.young_pool && std::strcmp(e.young_pool, "ParNew") == 0;
    if (!parnew_record) promotion_failed_.note(e);
  }
  if (e.flags & kGcLocker) gc_locker_.note(e);
  if (e.flags & (kToSpaceExhausted | kEvacuationFailure)) evacuation_failure_.note(e);
  if (e.flags & kGcOverheadLimit) overhead_limit_.note(e);
  if (e.flags & kHumongousAllocation) humongous_.note(e);
  // Serial full collections asked for explicitly (System.gc(), heap inspection/dump) are reported as explicit
  // collections, not as the collector falling back to its serial old collector.
  bool explicit_cause = e.type == GcType::SystemGC || e.cause == "System" || e.cause == "System.gc()" ||
                        e.cause == "Heap Inspection Initiated GC" || e.cause == "Heap Dump Initiated GC";
  if (is_full_type(e.type) && !explicit_cause) {
    if (old_is(e, "PSOldGen")) serial_old_parallel_.note(e);
    else if (old_is(e, "CMS")) cms_serial_full_.note(e);
    else if (e.type == GcType::Full || (e.type == GcType::SystemGC && !e.old_pool && e.eden.present()))
      g1_full_.note(e);
  }
}

// Findings raised by events: which tally, and the message built from its count and pause total.
// One row per finding, in the order the report lists them.
struct LegacyFindingsAccumulator::EventFinding {
  const char* id;
  const char* severity;
  Seen LegacyFindingsAccumulator::*seen;
  std::string (*message)(const Seen&);
};

const LegacyFindingsAccumulator::EventFinding LegacyFindingsAccumulator::kEventFindings[] = {
    {"cms_concurrent_mode_failure", "error", &LegacyFindingsAccumulator::cmf_,
     [](const Seen& s) {
       return std::to_string(s.count) +
              " concurrent mode failure(s): the old generation filled before the CMS cycle "
              "finished, and a single-threaded full collection took over (" +
              secs(s.total_s) +
              " of pauses). Start "
              "CMS earlier (-XX:CMSInitiatingOccupancyFraction with -XX:+UseCMSInitiatingOccupancyOnly) or give the old "
              "generation more room.";
     }},
    {"cms_concurrent_mode_interrupted", "warning", &LegacyFindingsAccumulator::cmi_,
     [](const Seen& s) {
       return std::to_string(s.count) +
              " CMS cycle(s) interrupted by an explicit full collection (System.gc() or a "
              "heap dump). -XX:+ExplicitGCInvokesConcurrent keeps System.gc() concurrent.";
     }},
    {"promotion_failed", "error", &LegacyFindingsAccumulator::promotion_failed_,
     [](const Seen& s) {
       return std::to_string(s.count) +
              " promotion failure(s): a young collection could not copy "
              "survivors into the old generation (fragmentation or a full old generation) and fell back to a full "
              "collection. Enlarge the old generation, lower the tenuring of large objects, or start CMS earlier.";
     }},
    {"gc_locker", "warning", &LegacyFindingsAccumulator::gc_locker_,
     [](const Seen& s) {
       return std::to_string(s.count) +
              " collection(s) initiated or forced by the GC locker: JNI critical "
              "sections held off a collection that then ran late (\"GC locker: Trying a full collection because "
              "scavenge failed\" is a full collection caused by this).";
     }},
    {"serial_old_with_parallel_young", "error", &LegacyFindingsAccumulator::serial_old_parallel_,
     [](const Seen& s) {
       return std::to_string(s.count) +
              " full collection(s) of PSOldGen: the Parallel collector is "
              "running its single-threaded old collector. -XX:+UseParallelOldGC (the default since JDK 7u4) makes full "
              "collections parallel.";
     }},
    {"cms_serial_full_gc", "error", &LegacyFindingsAccumulator::cms_serial_full_,
     [](const Seen& s) {
       return std::to_string(s.count) + " full collection(s) of the CMS generation (" + secs(s.total_s) +
              "): CMS falls back to a serial, stop-the-world mark-sweep-compact. Find "
              "their cause (System.gc(), promotion failure, metaspace/perm exhaustion) before tuning CMS itself.";
     }},
    {"g1_serial_full_gc", "error", &LegacyFindingsAccumulator::g1_full_,
     [](const Seen& s) {
       return std::to_string(s.count) + " G1 full collection(s) (" + secs(s.total_s) +
              "): in JDK 8 they "
              "are single-threaded. Leave G1 more headroom (heap size, -XX:InitiatingHeapOccupancyPercent).";
     }},
    {"g1_evacuation_failure", "error", &LegacyFindingsAccumulator::evacuation_failure_,
     [](const Seen& s) {
       return std::to_string(s.count) +
              " G1 pause(s) with to-space exhausted/overflow: no free "
              "regions left to copy into, an expensive pause that often leads to a full collection. Raise "
              "-XX:G1ReservePercent or the heap size.";
     }},
    {"gc_overhead_limit", "error", &LegacyFindingsAccumulator::overhead_limit_,
     [](const Seen&) {
       return std::string(
           "The JVM reported \"GC time would exceed GCTimeLimit\": it spends nearly all its time collecting and is "
           "about to throw OutOfMemoryError (GC overhead limit exceeded). The live set does not fit the heap.");
     }},
    {"g1_humongous_allocations", "warning", &LegacyFindingsAccumulator::humongous_,
     [](const Seen& s) {
       return std::to_string(s.count) +
              " G1 pause(s) caused by humongous allocations (objects of half a "
              "region or more). A larger -XX:G1HeapRegionSize turns them into ordinary allocations.";
     }},
    {"explicit_gc", "warning", &LegacyFindingsAccumulator::system_gc_,
     [](const Seen& s) {
       return std::to_string(s.count) +
              " explicit full collection(s) (System.gc()): "
              "-XX:+DisableExplicitGC, or -XX:+ExplicitGCInvokesConcurrent with CMS/G1.";
     }},
};

namespace {

// Findings about how the log was written, from the diary's flags: raised when every flag in `set`
// is true, every flag in `unset` is not, and (with needs_young) the log has young collections.
struct ConfigFinding {
  const char* id;
  const char* severity;
  const char* set;       // nullptr: no condition
  const char* unset[2];  // nullptr: no condition
  bool needs_young;
  const char* message;
};

constexpr ConfigFinding kConfigFindings[] = {
    {"icms_in_use",
     "warning",
     "ICMS",
     {nullptr, nullptr},
     false,
     "Incremental CMS (-XX:+CMSIncrementalMode) is in use: it was meant for one- or two-CPU machines, is "
     "deprecated in JDK 8 and removed in JDK 9."},
    {"application_stopped_time_missing",
     "info",
     nullptr,
     {"APPLICATION_STOPPED_TIME", nullptr},
     true,
     "The log has no safepoint times: add -XX:+PrintGCApplicationStoppedTime to see every stop of the "
     "application, not only the GC pauses."},
    {"print_gc_details_missing",
     "warning",
     nullptr,
     {"GC_DETAILS", "G1GC"},
     true,
     "The log was written without -XX:+PrintGCDetails: generations, causes and phases are missing, so most "
     "analyses are not possible."},
    {"print_heap_at_gc",
     "info",
     "PRINT_HEAP_AT_GC",
     {nullptr, nullptr},
     false,
     "-XX:+PrintHeapAtGC doubles the log size for little benefit over -XX:+PrintGCDetails."},
    {"print_fls_statistics",
     "info",
     "PRINT_FLS_STATISTICS",
     {nullptr, nullptr},
     false,
     "-XX:PrintFLSStatistics is a CMS fragmentation debugging option; it makes the log much larger."},
    {"print_reference_gc",
     "info",
     "PRINT_REFERENCE_GC",
     {nullptr, nullptr},
     false,
     "-XX:+PrintReferenceGC is a debugging option that makes the log larger."},
    {"print_application_concurrent_time",
     "info",
     "APPLICATION_CONCURRENT_TIME",
     {nullptr, nullptr},
     false,
     "-XX:+PrintGCApplicationConcurrentTime adds a line between every two safepoints and little information."},
    {"print_promotion_failure",
     "info",
     "PRINT_PROMOTION_FAILURE",
     {nullptr, nullptr},
     false,
     "-XX:+PrintPromotionFailure is a debugging option."},
};

}  // namespace

void LegacyFindingsAccumulator::merge(const LegacyFindingsAccumulator& o) {
  for (const auto& f : kEventFindings) (this->*f.seen).merge(o.*f.seen);
  young_ += o.young_;
}

std::vector<LegacyFinding> LegacyFindingsAccumulator::finish(const Diary& diary) const {
  std::vector<LegacyFinding> out;
  for (const auto& f : kEventFindings) {
    const Seen& seen = this->*f.seen;
    if (!seen.count) continue;
    LegacyFinding lf;
    lf.id = f.id;
    lf.severity = f.severity;
    lf.message = f.message(seen);
    lf.first_line = seen.first_line, lf.member = seen.member, lf.count = seen.count;
    out.push_back(std::move(lf));
  }
  for (const auto& f : kConfigFindings) {
    if (f.set && !flag_true(diary, f.set)) continue;
    if ((f.unset[0] && flag_true(diary, f.unset[0])) || (f.unset[1] && flag_true(diary, f.unset[1]))) continue;
    if (f.needs_young && young_ == 0) continue;
    LegacyFinding lf;
    lf.id = f.id;
    lf.severity = f.severity;
    lf.message = f.message;
    out.push_back(std::move(lf));
  }
  return out;
}

std::vector<LegacyFinding> legacy_findings(const std::vector<GcEvent>& events, const Diary& diary) {
  LegacyFindingsAccumulator acc;
  for (const auto& e : events) acc.add(e);
  return acc.finish(diary);
}

}  // namespace gcscope::jvm
