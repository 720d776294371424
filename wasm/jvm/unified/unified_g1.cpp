// G1 in unified logs: pause kinds, concurrent phases, region counts. GCToolKit's names for the
// event types (UnifiedG1GCParser), so that counts compare 1:1.
#include <cmath>
#include <cstdint>

#include "core/text_scan.h"
#include "jvm/unified/unified_parser.h"

namespace gcscope::jvm::unified {

// "Pause Young (Normal|Prepare Mixed)" → Young, "(Mixed)" → Mixed, "(Concurrent Start)" and JDK 9-11
// "Pause Initial Mark" → G1GCYoungInitialMark, "Pause Full" → Full (SystemGC for System.gc()),
// "Pause Remark", "Pause Cleanup". Also used while the collector is unknown.
GcType g1_pause_type(std::string_view kind, std::string_view qualifier, bool system_gc) {
  if (kind == "Young") {
    if (qualifier == "Mixed") return GcType::Mixed;
    if (qualifier == "Concurrent Start" || qualifier == "Initial Mark") return GcType::G1GCYoungInitialMark;
    return GcType::Young;
  }
  if (kind == "Initial Mark") return GcType::G1GCYoungInitialMark;
  if (kind == "Mixed") return GcType::Mixed;  // JDK 9 "Pause Mixed (G1 Evacuation Pause)"
  if (kind == "Full") return system_gc ? GcType::SystemGC : GcType::Full;
  if (kind == "Remark") return GcType::G1GCRemark;
  if (kind == "Cleanup") return GcType::G1GCCleanup;
  return GcType::Unknown;
}

// The phase after "Concurrent " (also for collectors other than CMS that print such lines).
GcType g1_concurrent_type(std::string_view p) {
  if (p == "Mark") return GcType::G1GCConcurrentMark;
  if (p == "Scan Root Regions") return GcType::ConcurrentRootRegionScan;
  if (p == "Clear Claimed Marks") return GcType::ConcurrentClearClaimedMarks;
  // GCToolKit types its G1ConcurrentRebuildRememberedSets event as G1GCConcurrentCleanup
  // (UnifiedG1GCParserTest counts it there); followed so counts compare 1:1.
  if (p == "Rebuild Remembered Sets") return GcType::G1GCConcurrentCleanup;
  if (p == "Cleanup for Next Mark") return GcType::ConcurrentCleanupForNextMark;
  if (p == "Undo Cycle") return GcType::G1GCConcurrentUndoCycle;
  if (p == "Create Live Data") return GcType::ConcurrentCreateLiveData;
  if (p == "Complete Cleanup") return GcType::ConcurrentCompleteCleanup;
  if (p == "String Deduplication") return GcType::ConcurrentStringDeduplication;
  return GcType::Unknown;
}

// "Concurrent Mark Abort". JDK 11 aborts the mark itself ("Concurrent Mark (t)" never ends): that
// mark is counted, as GCToolKit does. JDK 17 prints the abort after the mark ended (the cycle is cut
// short during rebuild): nothing new to count, but the cycle carries the flag.
void UnifiedParser::on_concurrent_mark_abort(int64_t id) {
  abort_id_ = id;
  if (mark_ended_id_ == id) return;
  GcEvent& ev = standalone_;
  ev = GcEvent{};
  ev.type = GcType::G1GCConcurrentMark;
  ev.stop_the_world = false;
  ev.uptime_s = line_uptime_;
  ev.wall_epoch_ms = line_wall_;
  ev.gc_id = id;
  ev.first_line = line_no_;
  ev.member = member_;
  ev.flags = kConcurrentMarkAbort;
  emit_standalone();
}

// "Eden regions: 6->0(12)" (also Survivor, Old, Humongous): region counts times the region size.
void UnifiedParser::on_regions(int64_t id, std::string_view v, char which) {
  saw_details_ = true;
  set_collector(Collector::kG1);
  Slot* s = find_slot(id);
  if (!s) return;
  size_t p = 0;
  uint64_t before, after, cap = 0;
  if (!text::parse_u64(v, p, before) || !text::starts_with(v.substr(p), "->")) return;
  p += 2;
  if (!text::parse_u64(v, p, after)) return;
  bool has_cap = p < v.size() && v[p] == '(' && (++p, text::parse_u64(v, p, cap));
  int64_t r = diary_.region_size_kb > 0 ? diary_.region_size_kb : 1024;
  // Region counts beyond what a heap can hold come from corrupt lines: not figures (and their
  // product with the region size would overflow).
  const auto max_regions = static_cast<uint64_t>(INT64_MAX / r);
  if (before > max_regions || after > max_regions || (has_cap && cap > max_regions)) return;
  PoolSizes ps;
  ps.before_kb = static_cast<int64_t>(before) * r;
  ps.after_kb = static_cast<int64_t>(after) * r;
  if (has_cap) ps.committed_kb = static_cast<int64_t>(cap) * r;
  switch (which) {
    case 'e': s->ev.eden = ps; break;
    case 's': s->ev.survivor = ps; break;
    case 'o': s->ev.old = ps; break;
    case 'h': s->ev.humongous = ps; break;
  }
}

}  // namespace gcscope::jvm::unified
