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
  bool parnew_record = e.young_pool && std::strcmp(e.young_pool, "ParNew") == 0;
  if ((e.flags & kPromotionFailed) && e.type != GcType::ParNewPromotionFailed && !parnew_record) promotion_failed_.note(e);
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
    else if (e.type == GcType::Full || (e.type == GcType::SystemGC && !e.old_pool && e.eden.present())) g1_full_.note(e);
  }
}

void LegacyFindingsAccumulator::merge(const LegacyFindingsAccumulator& o) {
  Seen LegacyFindingsAccumulator::*all[] = {&LegacyFindingsAccumulator::cmf_, &LegacyFindingsAccumulator::cmi_,
                                            &LegacyFindingsAccumulator::promotion_failed_, &LegacyFindingsAccumulator::gc_locker_,
                                            &LegacyFindingsAccumulator::serial_old_parallel_,
                                            &LegacyFindingsAccumulator::cms_serial_full_, &LegacyFindingsAccumulator::g1_full_,
                                            &LegacyFindingsAccumulator::evacuation_failure_,
                                            &LegacyFindingsAccumulator::overhead_limit_, &LegacyFindingsAccumulator::system_gc_,
                                            &LegacyFindingsAccumulator::humongous_};
  for (auto m : all) (this->*m).merge(o.*m);
  young_ += o.young_;
}

std::vector<LegacyFinding> LegacyFindingsAccumulator::finish(const Diary& diary) const {
  std::vector<LegacyFinding> out;
  auto add = [&](const char* id, const char* severity, const Seen* seen, std::string message) {
    LegacyFinding f;
    f.id = id;
    f.severity = severity;
    f.message = std::move(message);
    if (seen) f.first_line = seen->first_line, f.member = seen->member, f.count = seen->count;
    out.push_back(std::move(f));
  };
  if (cmf_.count)
    add("cms_concurrent_mode_failure", "error", &cmf_,
        std::to_string(cmf_.count) + " concurrent mode failure(s): the old generation filled before the CMS cycle "
        "finished, and a single-threaded full collection took over (" + secs(cmf_.total_s) + " of pauses). Start "
        "CMS earlier (-XX:CMSInitiatingOccupancyFraction with -XX:+UseCMSInitiatingOccupancyOnly) or give the old "
        "generation more room.");
  if (cmi_.count)
    add("cms_concurrent_mode_interrupted", "warning", &cmi_,
        std::to_string(cmi_.count) + " CMS cycle(s) interrupted by an explicit full collection (System.gc() or a "
        "heap dump). -XX:+ExplicitGCInvokesConcurrent keeps System.gc() concurrent.");
  if (promotion_failed_.count)
    add("promotion_failed", "error", &promotion_failed_,
        std::to_string(promotion_failed_.count) + " promotion failure(s): a young collection could not copy "
        "survivors into the old generation (fragmentation or a full old generation) and fell back to a full "
        "collection. Enlarge the old generation, lower the tenuring of large objects, or start CMS earlier.");
  if (gc_locker_.count)
    add("gc_locker", "warning", &gc_locker_,
        std::to_string(gc_locker_.count) + " collection(s) initiated or forced by the GC locker: JNI critical "
        "sections held off a collection that then ran late (\"GC locker: Trying a full collection because "
        "scavenge failed\" is a full collection caused by this).");
  if (serial_old_parallel_.count)
    add("serial_old_with_parallel_young", "error", &serial_old_parallel_,
        std::to_string(serial_old_parallel_.count) + " full collection(s) of PSOldGen: the Parallel collector is "
        "running its single-threaded old collector. -XX:+UseParallelOldGC (the default since JDK 7u4) makes full "
        "collections parallel.");
  if (cms_serial_full_.count)
    add("cms_serial_full_gc", "error", &cms_serial_full_,
        std::to_string(cms_serial_full_.count) + " full collection(s) of the CMS generation (" +
        secs(cms_serial_full_.total_s) + "): CMS falls back to a serial, stop-the-world mark-sweep-compact. Find "
        "their cause (System.gc(), promotion failure, metaspace/perm exhaustion) before tuning CMS itself.");
  if (g1_full_.count)
    add("g1_serial_full_gc", "error", &g1_full_,
        std::to_string(g1_full_.count) + " G1 full collection(s) (" + secs(g1_full_.total_s) + "): in JDK 8 they "
        "are single-threaded. Leave G1 more headroom (heap size, -XX:InitiatingHeapOccupancyPercent).");
  if (evacuation_failure_.count)
    add("g1_evacuation_failure", "error", &evacuation_failure_,
        std::to_string(evacuation_failure_.count) + " G1 pause(s) with to-space exhausted/overflow: no free "
        "regions left to copy into, an expensive pause that often leads to a full collection. Raise "
        "-XX:G1ReservePercent or the heap size.");
  if (overhead_limit_.count)
    add("gc_overhead_limit", "error", &overhead_limit_,
        "The JVM reported \"GC time would exceed GCTimeLimit\": it spends nearly all its time collecting and is "
        "about to throw OutOfMemoryError (GC overhead limit exceeded). The live set does not fit the heap.");
  if (humongous_.count)
    add("g1_humongous_allocations", "warning", &humongous_,
        std::to_string(humongous_.count) + " G1 pause(s) caused by humongous allocations (objects of half a "
        "region or more). A larger -XX:G1HeapRegionSize turns them into ordinary allocations.");
  if (system_gc_.count)
    add("explicit_gc", "warning", &system_gc_,
        std::to_string(system_gc_.count) + " explicit full collection(s) (System.gc()): "
        "-XX:+DisableExplicitGC, or -XX:+ExplicitGCInvokesConcurrent with CMS/G1.");
  if (flag_true(diary, "ICMS"))
    add("icms_in_use", "warning", nullptr,
        "Incremental CMS (-XX:+CMSIncrementalMode) is in use: it was meant for one- or two-CPU machines, is "
        "deprecated in JDK 8 and removed in JDK 9.");
  if (young_ > 0 && !flag_true(diary, "APPLICATION_STOPPED_TIME"))
    add("application_stopped_time_missing", "info", nullptr,
        "The log has no safepoint times: add -XX:+PrintGCApplicationStoppedTime to see every stop of the "
        "application, not only the GC pauses.");
  if (young_ > 0 && !flag_true(diary, "GC_DETAILS") && !flag_true(diary, "G1GC"))
    add("print_gc_details_missing", "warning", nullptr,
        "The log was written without -XX:+PrintGCDetails: generations, causes and phases are missing, so most "
        "analyses are not possible.");
  if (flag_true(diary, "PRINT_HEAP_AT_GC"))
    add("print_heap_at_gc", "info", nullptr,
        "-XX:+PrintHeapAtGC doubles the log size for little benefit over -XX:+PrintGCDetails.");
  if (flag_true(diary, "PRINT_FLS_STATISTICS"))
    add("print_fls_statistics", "info", nullptr,
        "-XX:PrintFLSStatistics is a CMS fragmentation debugging option; it makes the log much larger.");
  if (flag_true(diary, "PRINT_REFERENCE_GC"))
    add("print_reference_gc", "info", nullptr, "-XX:+PrintReferenceGC is a debugging option that makes the log larger.");
  if (flag_true(diary, "APPLICATION_CONCURRENT_TIME"))
    add("print_application_concurrent_time", "info", nullptr,
        "-XX:+PrintGCApplicationConcurrentTime adds a line between every two safepoints and little information.");
  if (flag_true(diary, "PRINT_PROMOTION_FAILURE"))
    add("print_promotion_failure", "info", nullptr, "-XX:+PrintPromotionFailure is a debugging option.");
  return out;
}

std::vector<LegacyFinding> legacy_findings(const std::vector<GcEvent>& events, const Diary& diary) {
  LegacyFindingsAccumulator acc;
  for (const auto& e : events) acc.add(e);
  return acc.finish(diary);
}

}  // namespace gcscope::jvm
