// ZGC in unified logs, single-generation (JDK 11-20) and generational (JDK 21+): a collection is a
// cycle of concurrent phases and short pauses, summed up by its "Garbage Collection (…)" /
// "Major Collection (…)" / "Minor Collection (…)" line; generational lines carry "Y: " / "O: ".
// Allocation and relocation stalls are application threads waiting for the collector.
#include <cmath>

#include "core/text_scan.h"
#include "jvm/unified/unified_parser.h"
#include "jvm/unified/unified_values.h"

namespace gcscope::jvm::unified {

// Generational ZGC's "Y: …" / "O: …" inside a Major/Minor collection: the generation is noted for
// the line and the prefix taken off. False when nothing is left of the message.
bool UnifiedParser::read_generation(std::string_view& msg) {
  generation_ = 0;
  if (msg.size() > 3 && (msg[0] == 'Y' || msg[0] == 'O' || msg[0] == 'y' || msg[0] == 'o') && msg[1] == ':' &&
      msg[2] == ' ') {
    set_collector(Collector::kZgcGenerational);
    generation_ = (msg[0] == 'Y' || msg[0] == 'y') ? 'y' : 'o';
    msg.remove_prefix(3);
    if (msg.empty()) return false;
  }
  return true;
}

// "Garbage Collection (Allocation Stall) 64M(100%)->64M(100%)" / "Major Collection (Warmup) …": the
// cycle's cause, its heap before and after, and its duration (printed by generational ZGC, else the
// time since the cycle's first line).
void UnifiedParser::on_zgc_cycle(int64_t id, std::string_view msg, GcType type) {
  if (type != GcType::ZGCFull) set_collector(Collector::kZgcGenerational);
  else set_collector(Collector::kZgc);
  size_t open = msg.find('(');
  PoolSizes heap;
  std::string_view rest = msg;
  bool summary = trailing_heap(msg, heap, rest);
  double dur = kUnknown;
  if (!summary) {
    std::string_view r2;
    if (trailing_duration(msg, dur, r2)) {  // generational: "Minor Collection (…) 64M(…)->…(…) 3.4ms"
      summary = trailing_heap(r2, heap, rest);
      if (!summary) rest = r2;
    }
  } else {
    std::string_view r2;
    double d2;
    if (trailing_duration(rest, d2, r2)) dur = d2, rest = r2;
  }
  if (!summary) {
    std::string_view d_rest;
    double d3;
    if (trailing_duration(msg, d3, d_rest)) dur = d3, summary = true, rest = d_rest;
  }
  Slot* s = find_slot(id, true);
  if (!s) {
    s = &new_slot(id);
    s->cycle = true;
    s->ev.uptime_s = line_uptime_;
    s->ev.wall_epoch_ms = line_wall_;
  }
  s->ev.type = type;
  s->ev.stop_the_world = false;
  std::string_view cause;
  size_t close;
  if (open != std::string_view::npos && balanced_group(rest, open, cause, close)) {
    s->cause.assign(cause.data(), cause.size());
    diary_.set_flag("GC_CAUSE", Tri::kTrue);
    if (s->cause == "Allocation Stall") s->ev.flags |= kAllocationStall;
  }
  if (summary) {
    if (heap.committed_kb < 0) heap.committed_kb = s->ev.heap.committed_kb;
    s->ev.heap = heap;
    if (!std::isnan(dur)) s->ev.duration_s = dur;
    else if (!std::isnan(s->ev.uptime_s)) s->ev.duration_s = line_uptime_ - s->ev.uptime_s;
    s->complete = true;
  }
}

// "Capacity: 64M (25%) …" of the cycle's heap table: the capacity at Mark Start is the committed
// heap of the cycle. (The table is what -XX:+PrintHeapAtGC used to print.)
void UnifiedParser::on_zgc_capacity(int64_t id, std::string_view trimmed) {
  saw_heap_at_gc_ = true;
  Slot* s = find_slot(id, true);
  size_t p = text::skip_ws(trimmed, 9);
  int64_t kb;
  if (s && log_text::parse_size_kb(trimmed, p, kb) && s->ev.heap.committed_kb < 0) s->ev.heap.committed_kb = kb;
}

// "Allocation Stall (thread) 12.345ms" / "Relocation Stall (thread) 0.5ms"
void UnifiedParser::on_stall(std::string_view msg, bool relocation) {
  double s;
  std::string_view rest;
  if (!trailing_duration(msg, s, rest)) return;
  sink_->on_stall(member_, line_no_, line_uptime_, s, relocation);
}

}  // namespace gcscope::jvm::unified
