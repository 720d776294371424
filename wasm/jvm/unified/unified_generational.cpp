// Serial, Parallel and CMS in unified logs: their pause kinds, CMS's concurrent phases and the
// young/old pool lines ("PSYoungGen: …", "DefNew: …", "ParNew: …", "Tenured: …", "CMS: …").
#include "jvm/unified/unified_parser.h"
#include "jvm/unified/unified_values.h"

namespace gcscope::jvm::unified {

// "Pause Young" and "Pause Full" of the three collectors; CMS's "Pause Initial Mark" and "Pause Remark".
GcType generational_pause_type(Collector c, std::string_view kind, bool system_gc) {
  switch (c) {
    case Collector::kParallel:
      if (kind == "Young") return GcType::PSYoungGen;
      if (kind == "Full") return system_gc ? GcType::SystemGC : GcType::PSFull;
      break;
    case Collector::kSerial:
      if (kind == "Young") return GcType::DefNew;
      if (kind == "Full") return system_gc ? GcType::SystemGC : GcType::FullGC;
      break;
    case Collector::kCms:
      if (kind == "Young") return GcType::ParNew;
      if (kind == "Full") return system_gc ? GcType::SystemGC : GcType::FullGC;
      if (kind == "Initial Mark") return GcType::InitialMark;
      if (kind == "Remark") return GcType::Remark;
      break;
    default: break;
  }
  return GcType::Unknown;
}

// The phase after "Concurrent " in a CMS log.
GcType cms_concurrent_type(std::string_view p) {
  if (p == "Mark") return GcType::ConcurrentMark;
  if (p == "Preclean") return GcType::Concurrent_Preclean;
  if (p == "Abortable Preclean") return GcType::Abortable_Preclean;
  if (p == "Sweep") return GcType::Concurrent_Sweep;
  if (p == "Reset") return GcType::Concurrent_Reset;
  return GcType::Unknown;
}

// "PSYoungGen: 18424K(18432K)->996K(20480K) Eden: …" / "ParNew: 17393K->2175K(19648K)" /
// "Tenured: 2072K(21888K)->2926K(21888K)"; `which` is 'y' (young) or 'o' (old). A pool line names
// the collector of a log whose collector is not known yet.
void UnifiedParser::on_pool(int64_t id, std::string_view v, Collector c, char which) {
  saw_details_ = true;
  if (collector_ == Collector::kUnknown) collector_ = c;
  Slot* s = find_slot(id);
  if (!s) return;
  // First transition only (PSYoungGen lines continue with Eden/From figures).
  PoolSizes ps;
  if (!leading_transition(v, ps)) return;
  // JDK 17 prints "before(cap)->after(cap)": trailing_heap kept the after capacity.
  if (which == 'y') s->ev.young = ps;
  else s->ev.old = ps;
  if (which != 'y') return;
  labelled_transition(v, "Eden: ", s->ev.eden);
  labelled_transition(v, "From: ", s->ev.survivor);
}

}  // namespace gcscope::jvm::unified
