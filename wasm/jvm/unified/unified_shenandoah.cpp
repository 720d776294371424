// Shenandoah in unified logs: a collection is a cycle of concurrent phases and short pauses with
// no summary line (it ends when a later GC id starts); its cause is the "Trigger: …" line printed
// before it. Degenerated and full collections are stop-the-world pauses of their own.
#include "core/text_scan.h"
#include "jvm/unified/unified_parser.h"

namespace gcscope::jvm::unified {

// "Initialize Shenandoah heap: 250M initial, 7168K min, 3991M max" → the initial heap; a max after
// a '/' ("… 250M / 4G") → the max heap.
void UnifiedParser::on_shenandoah_init(std::string_view msg) {
  set_collector(Collector::kShenandoah);
  size_t p = msg.find(':');
  if (p == std::string_view::npos) return;
  p = text::skip_ws(msg, p + 1);
  int64_t kb;
  if (log_text::parse_size_kb(msg, p, kb) && diary_.initial_heap_kb < 0) diary_.initial_heap_kb = kb;
  size_t slash = msg.find('/', p);
  if (slash != std::string_view::npos) {
    size_t q = text::skip_ws(msg, slash + 1);
    if (log_text::parse_size_kb(msg, q, kb) && diary_.max_heap_kb < 0) diary_.max_heap_kb = kb;
  }
}

// "Trigger: Average GC time (27.84 ms) is above …": the reason for the next cycle.
void UnifiedParser::on_trigger(std::string_view msg) {
  pending_trigger_.assign(msg.data() + 9, msg.size() - 9);
  diary_.set_flag("GC_CAUSE", Tri::kTrue);
}

// The pending trigger becomes the cause of `s` as a short phrase: up to the first " (" or ".".
void UnifiedParser::take_trigger(Slot& s) {
  if (pending_trigger_.empty()) return;
  std::string_view t = pending_trigger_;
  if (text::contains(t, "System.gc()")) t = "System.gc()";    // "Explicit GC request (System.gc())"
  else if (text::starts_with(t, "Learning")) t = "Learning";  // "Learning 2 of 5. Free (…) is below …"
  else if (text::starts_with(t, "Free (") || text::starts_with(t, "Free:")) t = "Free below threshold";
  size_t cut = t.find(" (");
  if (cut != std::string_view::npos && cut > 0) t = t.substr(0, cut);
  size_t dot = t.find(". ");
  if (dot != std::string_view::npos) t = t.substr(0, dot);
  s.cause.assign(t.data(), t.size());
  pending_trigger_.clear();
}

// "Pause Full" and "Pause Degenerated GC (…)": the only Shenandoah pauses outside a cycle.
GcType UnifiedParser::shenandoah_pause_type(Slot& s, std::string_view kind, bool system_gc) {
  if (kind == "Full") return system_gc ? GcType::SystemGC : GcType::Full;
  if (text::starts_with(kind, "Degenerated")) {
    s.ev.flags |= kDegenerated;
    return GcType::Shenandoah;
  }
  return GcType::Unknown;
}

}  // namespace gcscope::jvm::unified
