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
  size_t sp = v.find(' ');
  std::string_view first = sp == std::string_view::npos ? v : v.substr(0, sp);
  PoolSizes ps;
  std::string_view rest;
  if (!trailing_heap(first, ps, rest)) return;
  // JDK 17 prints "before(cap)->after(cap)": trailing_heap kept the after capacity.
  if (which == 'y') s->ev.young = ps;
  else s->ev.old = ps;
  if (which != 'y' || sp == std::string_view::npos) return;
  size_t e = v.find("Eden: ");
  if (e != std::string_view::npos) {
    std::string_view ev = v.substr(e + 6);
    size_t sp2 = ev.find(' ');
    PoolSizes eden;
    if (trailing_heap(sp2 == std::string_view::npos ? ev : ev.substr(0, sp2), eden, rest)) s->ev.eden = eden;
  }
  size_t f = v.find("From: ");
  if (f != std::string_view::npos) {
    std::string_view fv = v.substr(f + 6);
    size_t sp3 = fv.find(' ');
    PoolSizes from;
    if (trailing_heap(sp3 == std::string_view::npos ? fv : fv.substr(0, sp3), from, rest)) s->ev.survivor = from;
  }
}

}  // namespace gcscope::jvm::unified
