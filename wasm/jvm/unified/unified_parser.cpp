// The unified parser's dispatcher: decorations, the slots of open collections, the first-word
// dispatch of every message, and the lines all collectors print (header, safepoints, CPU times,
// metaspace, phase times). See unified_parser.h.
#include "jvm/unified/unified_parser.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "core/text_scan.h"
#include "jvm/unified/unified_values.h"

namespace gcscope::jvm {

namespace unified {

using log_text::parse_size_kb;
using text::starts_with;

namespace {

const char* collector_name(Collector c) {
  switch (c) {
    case Collector::kSerial: return "Serial";
    case Collector::kParallel: return "Parallel";
    case Collector::kCms: return "CMS";
    case Collector::kG1: return "G1";
    case Collector::kZgc: return "ZGC";
    case Collector::kZgcGenerational: return "ZGC (generational)";
    case Collector::kShenandoah: return "Shenandoah";
    case Collector::kEpsilon: return "Epsilon";
    default: return "unknown";
  }
}

}  // namespace

void Slot::reset(int64_t gc_id, uint64_t ord, uint32_t member) {
  used = true;
  complete = false;
  cycle = false;
  id = gc_id;
  order = ord;
  ev.type = GcType::Unknown;
  ev.stop_the_world = true;
  ev.uptime_s = ev.wall_epoch_ms = ev.duration_s = kUnknown;
  ev.gc_id = gc_id;
  ev.cause = {};
  ev.heap = ev.young = ev.eden = ev.survivor = ev.old = ev.metaspace = ev.humongous = PoolSizes{};
  ev.user_s = ev.sys_s = ev.real_s = kUnknown;
  ev.flags = 0;
  ev.first_line = 0;
  ev.member = member;
  ev.phases.clear();
  ev.pauses_within.clear();
  cause.clear();
  arena.clear();
  phase_spans.clear();
  phase_secs.clear();
  pauses.clear();
}

UnifiedParser::UnifiedParser(GcEventSink& sink, uint32_t member) : sink_(&sink), member_(member) {
  diary_.unified = Tri::kTrue;
  diary_.set_flag("UNIFIED_LOGGING", Tri::kTrue);
  slots_.resize(6);
}

// The collector, guessed from markers anywhere in the head; a "Using …" line still decides.
void UnifiedParser::hint_head(std::string_view head) {
  struct Marker {
    const char* text;
    Collector c;
  };
  static const Marker kMarkers[] = {
      {"] Using G1", Collector::kG1},
      {"] Using Parallel", Collector::kParallel},
      {"] Using Serial", Collector::kSerial},
      {"] Using Concurrent Mark Sweep", Collector::kCms},
      {"] Using The Z Garbage Collector", Collector::kZgc},
      {"] Using Shenandoah", Collector::kShenandoah},
      {"] Using Epsilon", Collector::kEpsilon},
      {"Eden regions: ", Collector::kG1},
      {"Pause Young (Normal)", Collector::kG1},
      {"G1 Evacuation Pause", Collector::kG1},
      {"PSYoungGen: ", Collector::kParallel},
      {"ParOldGen: ", Collector::kParallel},
      {"DefNew: ", Collector::kSerial},
      {"Tenured: ", Collector::kSerial},
      {"ParNew: ", Collector::kCms},
      {"Concurrent Sweep", Collector::kCms},
      {"Concurrent Abortable Preclean", Collector::kCms},
      {" y: Young Generation", Collector::kZgcGenerational},
      {" Y: Young Generation", Collector::kZgcGenerational},
      {"Major Collection (", Collector::kZgcGenerational},
      {"Minor Collection (", Collector::kZgcGenerational},
      {"Garbage Collection (", Collector::kZgc},
      {"Pause Mark Start", Collector::kZgc},
      {"Pause Init Mark", Collector::kShenandoah},
      {"Pause Final Evac", Collector::kShenandoah},
      {"Pause Init Update Refs", Collector::kShenandoah},
      {"Pause Degenerated GC", Collector::kShenandoah},
      {"Concurrent reset", Collector::kShenandoah},
  };
  for (const auto& m : kMarkers)
    if (head.find(m.text) != std::string_view::npos) {
      collector_ = m.c;
      collector_hinted_ = true;
      return;
    }
}

void UnifiedParser::feed_line(std::string_view line, uint64_t line_no) {
  line_no_ = line_no;
  if (line.empty()) return;
  std::string_view msg;
  if (!read_decorations(line, msg)) {
    sink_->on_unparsed(member_, line_no, line);
    return;
  }
  if (text::is_space(msg[0]) && text::trim(msg).empty()) return;
  // "GC(n) " prefix
  int64_t id = -1;
  if (starts_with(msg, "GC(")) {
    size_t p = 3;
    uint64_t v;
    if (text::parse_u64(msg, p, v) && p < msg.size() && msg[p] == ')') {
      id = static_cast<int64_t>(v);
      msg = msg.substr(p + 1);
      if (!msg.empty() && msg[0] == ' ') msg.remove_prefix(1);
    }
  }
  flush_for_line(id);
  if (id >= 0) handle_gc_line(id, msg);
  else handle_plain_line(msg, line);
}

void UnifiedParser::finish() {
  // Flush in the order the collections started.
  for (;;) {
    Slot* first = nullptr;
    for (auto& s : slots_)
      if (s.used && (!first || s.order < first->order)) first = &s;
    if (!first) break;
    emit(*first);
  }
  finalize_diary();
}

// ---- decorations --------------------------------------------------------------------------

// The line's stamps: an uptime decoration, else a time decoration relative to the member's first
// one; a line without either has none.
inline bool UnifiedParser::read_decorations(std::string_view line, std::string_view& msg) {
  decorations::Unified d;
  if (!decorations::split(line, d, nanos_, msg)) {
    tags_ = {};
    return false;
  }
  tags_ = d.tags;
  if (!d.level.empty()) level_ = d.level;
  if (!std::isnan(d.wall_ms)) {
    line_wall_ = d.wall_ms;
    if (std::isnan(first_wall_)) first_wall_ = d.wall_ms;
  } else {
    line_wall_ = kUnknown;
  }
  if (!std::isnan(d.uptime_s)) {
    line_uptime_ = d.uptime_s;
    if (std::isnan(diary_.first_uptime_s)) diary_.first_uptime_s = d.uptime_s;
    diary_.last_uptime_s = d.uptime_s;
  } else if (!std::isnan(d.wall_ms)) {
    line_uptime_ = (d.wall_ms - first_wall_) / 1000.0;  // time-only decorations: relative to the first line
    if (std::isnan(diary_.first_uptime_s)) diary_.first_uptime_s = line_uptime_;
    diary_.last_uptime_s = line_uptime_;
  } else {
    line_uptime_ = kUnknown;
  }
  return true;
}

// ---- slots ------------------------------------------------------------------------------

Slot& UnifiedParser::new_slot(int64_t id) {
  Slot* free_slot = nullptr;
  for (auto& s : slots_)
    if (!s.used) {
      free_slot = &s;
      break;
    }
  if (!free_slot) {  // all busy: the oldest collection is over for practical purposes
    Slot* oldest = &slots_[0];
    for (auto& s : slots_)
      if (s.order < oldest->order) oldest = &s;
    emit(*oldest);
    free_slot = oldest;
  }
  free_slot->reset(id, ++order_, member_);
  free_slot->ev.first_line = line_no_;
  return *free_slot;
}

// The ZGC/Shenandoah cycle of this id, opened (with the pending Shenandoah trigger as its cause)
// when this line is its first.
Slot& UnifiedParser::cycle_slot(int64_t id) {
  if (Slot* s = find_slot(id, true)) return *s;
  Slot& s = new_slot(id);
  s.cycle = true;
  take_trigger(s);
  return s;
}

// A finished collection is emitted at the first line that is not one of its own.
inline void UnifiedParser::flush_for_line(int64_t id) {
  for (auto& s : slots_) {
    if (!s.used) continue;
    if (s.complete && s.id != id) emit(s);
    else if (s.cycle && id > s.id && !s.complete && collector_ == Collector::kShenandoah) emit(s);
  }
}

void UnifiedParser::emit(Slot& s) {
  if (!s.used) return;
  s.used = false;
  GcEvent& ev = s.ev;
  if (ev.type == GcType::Unknown && s.pauses.empty() && s.phase_secs.empty() && !ev.heap.present()) return;
  if (s.cycle && ev.type == GcType::Unknown) {
    ev.type = collector_ == Collector::kShenandoah ? GcType::Shenandoah : GcType::ZGCFull;
    ev.stop_the_world = false;
  }
  ev.cause = s.cause;
  ev.phases.clear();
  for (size_t i = 0; i < s.phase_spans.size(); ++i)
    ev.phases.emplace_back(std::string_view(s.arena).substr(s.phase_spans[i].first, s.phase_spans[i].second),
                           s.phase_secs[i]);
  ev.pauses_within.clear();
  for (const auto& p : s.pauses) {
    GcEvent::Pause pz;
    pz.name = std::string_view(s.arena).substr(p.off, p.len);
    pz.uptime_s = p.t;
    pz.duration_s = p.d;
    pz.line = p.line;
    ev.pauses_within.push_back(pz);
  }
  if (std::isnan(ev.uptime_s) && !s.pauses.empty()) ev.uptime_s = s.pauses.front().t;
  sink_->on_event(ev);
}

// An event of one line (standalone_, filled by the caller), not kept in a slot.
void UnifiedParser::emit_standalone() { sink_->on_event(standalone_); }

// ---- lines without GC id ------------------------------------------------------------------

inline void UnifiedParser::handle_plain_line(std::string_view msg, std::string_view line) {
  switch (msg[0]) {
    case 'U':
      if (starts_with(msg, "Using ")) return on_using(msg.substr(6));
      break;
    case 'V':
      if (starts_with(msg, "Version: ")) {
        if (diary_.jvm_version.empty()) diary_.jvm_version = std::string(text::trim(msg.substr(9)));
        return;
      }
      break;
    case 'H':
    case 'M':
      if (on_heap_setting(msg)) return;
      break;
    case 'I':
      if (starts_with(msg, "Initial Capacity: ")) return size_setting(msg.substr(18), diary_.initial_heap_kb);
      if (starts_with(msg, "Initializing The Z Garbage Collector")) return set_collector(Collector::kZgc);
      if (starts_with(msg, "Initialize Shenandoah heap")) return on_shenandoah_init(msg);
      break;
    case 'S':
      if (starts_with(msg, "Safepoint \"")) return on_safepoint_jdk17(msg);
      break;
    case 'T':
      if (starts_with(msg, "Total time for which application threads were stopped: ")) return on_stopped_time(msg);
      if (starts_with(msg, "Trigger: ")) return on_trigger(msg);
      break;
    case 'E':
      if (starts_with(msg, "Entering safepoint region: ")) {
        pending_operation_.assign(msg.data() + 27, msg.size() - 27);
        return;
      }
      break;
    case 'L':
      if (starts_with(msg, "Leaving safepoint region")) return;
      break;
    case 'A':
      if (starts_with(msg, "Application time: ")) {
        size_t p = 18;
        double s;
        if (text::parse_decimal(msg, p, s, true)) sink_->on_application_time(member_, line_uptime_, s);
        diary_.set_flag("APPLICATION_CONCURRENT_TIME", Tri::kTrue);
        return;
      }
      if (starts_with(msg, "Allocation Stall (")) return on_stall(msg, false);
      break;
    case 'R':
      if (starts_with(msg, "Relocation Stall (")) return on_stall(msg, true);
      break;
    case 'j':
      if (starts_with(msg, "jvm_args: ")) {  // [arguments] logger
        diary_.command_line = std::string(text::trim(msg.substr(10)));
        return;
      }
      break;
    case 'C':
      if (starts_with(msg, "Concurrent String Deduplication")) return on_string_dedup(msg);
      if (starts_with(msg, "CommandLine flags: ") || starts_with(msg, "Command Line: ")) {
        diary_.command_line = std::string(text::trim(msg.substr(msg.find(':') + 1)));
        return;
      }
      if (starts_with(msg, "Cancelling GC: ")) return;
      break;
    default: break;
  }
  // Anything else from the gc loggers we do not model (init banners, CDS, stats tables, …) is
  // expected noise; a line from a logger outside gc/safepoint is worth listing.
  if (!tags_.empty() &&
      (starts_with(tags_, "gc") || starts_with(tags_, "safepoint") || starts_with(tags_, "stringdedup")))
    return;
  sink_->on_unparsed(member_, line_no_, line);
}

// "Heap Max Capacity: 256M", "Heap Region Size: 1M", "Heap address: …, size: 256 MB", "Max Capacity: …"
// (the heap banner lines); true when the line is one.
bool UnifiedParser::on_heap_setting(std::string_view msg) {
  if (starts_with(msg, "Max Capacity: ")) {
    size_setting(msg.substr(14), diary_.max_heap_kb);
    return true;
  }
  if (!starts_with(msg, "Heap")) return false;
  if (starts_with(msg, "Heap Max Capacity: ")) size_setting(msg.substr(19), diary_.max_heap_kb);
  else if (starts_with(msg, "Heap Initial Capacity: ")) size_setting(msg.substr(23), diary_.initial_heap_kb);
  else if (starts_with(msg, "Heap Region Size: ") || starts_with(msg, "Heap region size: "))
    size_setting(msg.substr(18), diary_.region_size_kb);
  else if (starts_with(msg, "Heap address:")) {
    size_t p = msg.find("size: ");
    if (p != std::string_view::npos && diary_.max_heap_kb < 0) {
      p += 6;
      double mb;
      if (text::parse_decimal(msg, p, mb)) diary_.max_heap_kb = static_cast<int64_t>(mb * 1024);
    }
  }
  return true;
}

void UnifiedParser::size_setting(std::string_view v, int64_t& out) {
  size_t p = 0;
  v = text::trim(v);
  int64_t kb;
  if (parse_size_kb(v, p, kb)) out = kb;
}

void UnifiedParser::on_using(std::string_view what) {
  what = text::trim(what);
  if (starts_with(what, "G1")) set_collector(Collector::kG1);
  else if (starts_with(what, "Parallel")) set_collector(Collector::kParallel);
  else if (starts_with(what, "Serial")) set_collector(Collector::kSerial);
  else if (starts_with(what, "Concurrent Mark Sweep")) set_collector(Collector::kCms);
  else if (starts_with(what, "The Z Garbage Collector")) set_collector(Collector::kZgc);
  else if (starts_with(what, "Shenandoah")) set_collector(Collector::kShenandoah);
  else if (starts_with(what, "Epsilon")) set_collector(Collector::kEpsilon);
}

void UnifiedParser::set_collector(Collector c) {
  if (collector_ == c) return;
  if (collector_hinted_) {  // a guess from the head gives way to what the log says
    collector_hinted_ = false;
    collector_ = c;
    return;
  }
  if (collector_ == Collector::kZgc && c == Collector::kZgcGenerational) {
    collector_ = c;
    return;
  }
  if (collector_ != Collector::kUnknown && collector_ != Collector::kZgc) return;  // first one wins
  collector_ = c;
}

void UnifiedParser::on_safepoint_jdk17(std::string_view msg) {
  // Safepoint "G1CollectForAllocation", Time since last: 13953536 ns, Reaching safepoint: 2433 ns,
  // Cleanup: 3075 ns, At safepoint: 1869887 ns, Total: 1875395 ns
  SafepointEvent sp;
  size_t q = msg.find('"', 11);
  sp.operation = msg.substr(11, q == std::string_view::npos ? 0 : q - 11);
  sp.uptime_s = line_uptime_;
  sp.wall_epoch_ms = line_wall_;
  sp.line = line_no_;
  sp.member = member_;
  size_t p = msg.find("Reaching safepoint: ");
  if (p != std::string_view::npos) {
    p += 20;
    double s;
    if (parse_duration(msg, p, s)) sp.reaching_s = s;
  }
  p = msg.find("Total: ");
  if (p != std::string_view::npos) {
    p += 7;
    double s;
    if (parse_duration(msg, p, s)) sp.stopped_s = s;
  }
  diary_.set_flag("APPLICATION_STOPPED_TIME", Tri::kTrue);
  diary_.set_flag("APPLICATION_CONCURRENT_TIME", Tri::kTrue);
  if (!std::isnan(sp.uptime_s) && !std::isnan(sp.stopped_s)) sp.uptime_s -= sp.stopped_s;
  sink_->on_safepoint(sp);
}

void UnifiedParser::on_stopped_time(std::string_view msg) {
  SafepointEvent sp;
  size_t p = 56;
  double s;
  if (text::parse_decimal(msg, p, s, true)) sp.stopped_s = s;
  size_t q = msg.find("Stopping threads took: ");
  if (q != std::string_view::npos) {
    q += 23;
    if (text::parse_decimal(msg, q, s, true)) sp.reaching_s = s;
  }
  sp.operation = pending_operation_;
  sp.uptime_s = line_uptime_;
  if (!std::isnan(sp.uptime_s) && !std::isnan(sp.stopped_s)) sp.uptime_s -= sp.stopped_s;
  sp.wall_epoch_ms = line_wall_;
  sp.line = line_no_;
  sp.member = member_;
  diary_.set_flag("APPLICATION_STOPPED_TIME", Tri::kTrue);
  sink_->on_safepoint(sp);
  pending_operation_.clear();
}

// "Concurrent String Deduplication 189/6248.0B (new), … 0.065ms of 0.071ms"
void UnifiedParser::on_string_dedup(std::string_view msg) {
  double d;
  std::string_view rest;
  if (!trailing_duration(msg, d, rest)) return;
  GcEvent& ev = standalone_;
  ev = GcEvent{};
  ev.type = GcType::ConcurrentStringDeduplication;
  ev.stop_the_world = false;
  ev.uptime_s = line_uptime_ - d;
  ev.duration_s = d;
  ev.first_line = line_no_;
  ev.member = member_;
  ev.phases.emplace_back("Concurrent String Deduplication", d);
  emit_standalone();
}

// ---- lines with GC id ---------------------------------------------------------------------

inline void UnifiedParser::handle_gc_line(int64_t id, std::string_view msg) {
  if (msg.empty()) return;
  if (!read_generation(msg)) return;
  note_tags();
  switch (msg[0]) {
    case 'P':
      if (starts_with(msg, "Pause ")) return on_pause(id, msg);
      if (starts_with(msg, "PSYoungGen: ")) return on_pool(id, msg.substr(12), Collector::kParallel, 'y');
      if (starts_with(msg, "ParOldGen: ")) return on_pool(id, msg.substr(11), Collector::kParallel, 'o');
      if (starts_with(msg, "ParNew: ")) return on_pool(id, msg.substr(8), Collector::kCms, 'y');
      if (starts_with(msg, "PSOldGen: ")) return on_pool(id, msg.substr(10), Collector::kParallel, 'o');
      break;
    case 'C':
      if (starts_with(msg, "Concurrent ")) return on_concurrent(id, msg);
      if (starts_with(msg, "CMS: ")) return on_pool(id, msg.substr(5), Collector::kCms, 'o');
      break;
    case 'G':
      if (starts_with(msg, "Garbage Collection (")) return on_zgc_cycle(id, msg, GcType::ZGCFull);
      break;
    case 'M':
      if (starts_with(msg, "Major Collection (")) return on_zgc_cycle(id, msg, GcType::ZGCMajor);
      if (starts_with(msg, "Minor Collection (")) return on_zgc_cycle(id, msg, GcType::ZGCMinor);
      if (starts_with(msg, "Metaspace: ")) return on_metaspace(id, msg.substr(11));
      break;
    case 'E':
      if (starts_with(msg, "Eden regions: ")) return on_regions(id, msg.substr(14), 'e');
      if (starts_with(msg, "Evacuation Failure")) return mark(id, kEvacuationFailure);
      break;
    case 'S':
      if (starts_with(msg, "Survivor regions: ")) return on_regions(id, msg.substr(18), 's');
      break;
    case 'O':
      if (starts_with(msg, "Old regions: ")) return on_regions(id, msg.substr(13), 'o');
      break;
    case 'H':
      if (starts_with(msg, "Humongous regions: ")) return on_regions(id, msg.substr(19), 'h');
      break;
    case 'D':
      if (starts_with(msg, "DefNew: ")) return on_pool(id, msg.substr(8), Collector::kSerial, 'y');
      break;
    case 'T':
      if (starts_with(msg, "Tenured: ")) return on_pool(id, msg.substr(9), Collector::kSerial, 'o');
      if (starts_with(msg, "To-space exhausted")) return mark(id, kToSpaceExhausted | kEvacuationFailure);
      break;
    case 'U':
      if (starts_with(msg, "User=")) return on_cpu(id, msg);
      break;
    default: break;
  }
  if (tags_phases_) return on_phase_line(id, msg);
  // ZGC's per-cycle heap table ("Capacity:", "Used:" at Mark Start … Relocate End) and
  // "Heap before/after GC invocations=" are what -XX:+PrintHeapAtGC used to print.
  std::string_view trimmed = text::trim_left(msg);
  if (starts_with(trimmed, "Capacity:")) return on_zgc_capacity(id, trimmed);
  if (starts_with(msg, "Heap before GC") || starts_with(msg, "Heap after GC")) saw_heap_at_gc_ = true;
}

inline void UnifiedParser::note_tags() {
  if (tags_.empty()) {
    tags_phases_ = false;
    return;
  }
  // A log uses a few dozen tag sets over and over: decide each (tag set, level) once, including
  // whether it is a phases tag set (asked of every GC line). Lines of one tag set come in runs (a
  // pause's phases), so the last one seen is tried first.
  const char level_mark = static_cast<char>(level_.size() + '0');
  auto same = [&](const SeenTagSet& seen) {
    return seen.level_mark == level_mark && seen.tags.size() == tags_.size() && seen.tags[0] == tags_[0] &&
           std::memcmp(seen.tags.data(), tags_.data(), tags_.size()) == 0;
  };
  if (last_seen_tags_ < seen_tags_.size() && same(seen_tags_[last_seen_tags_])) {
    tags_phases_ = seen_tags_[last_seen_tags_].phases;
    return;
  }
  for (size_t i = 0; i < seen_tags_.size(); ++i)
    if (same(seen_tags_[i])) {
      last_seen_tags_ = i;
      tags_phases_ = seen_tags_[i].phases;
      return;
    }
  tags_phases_ = text::contains(tags_, "phases");
  if (seen_tags_.size() < 64) seen_tags_.push_back({std::string(tags_), level_mark, tags_phases_});
  if (tags_ != "gc" && tags_ != "gc,start" && tags_ != "safepoint") saw_details_ = true;
  if (text::contains(tags_, "age")) saw_age_ = true;
  if (text::contains(tags_, "ref")) saw_ref_ = true;
  if (text::contains(tags_, "ergo")) saw_ergo_ = true;
  if (text::contains(tags_, "cpu")) saw_cpu_ = true;
  if (text::contains(tags_, "remset")) saw_rset_ = true;
  if (tags_ == "gc,heap" && level_ == "debug") saw_heap_at_gc_ = true;
}

void UnifiedParser::mark(int64_t id, uint32_t flag) {
  Slot* s = find_slot(id);
  if (!s) s = &new_slot(id);
  s->ev.flags |= flag;
}

void UnifiedParser::infer_collector_from_pause(std::string_view name) {
  if (collector_ != Collector::kUnknown) return;
  if (starts_with(name, "Pause Young (Normal)") || starts_with(name, "Pause Young (Mixed)") ||
      starts_with(name, "Pause Young (Concurrent Start)") || starts_with(name, "Pause Young (Prepare Mixed)") ||
      text::contains(name, "G1 ") || starts_with(name, "Pause Cleanup"))
    collector_ = Collector::kG1;
  else if (starts_with(name, "Pause Init Mark") || starts_with(name, "Pause Final Mark") ||
           starts_with(name, "Pause Degenerated") || starts_with(name, "Pause Init Update") ||
           starts_with(name, "Pause Final Update") || starts_with(name, "Pause Final Roots"))
    collector_ = Collector::kShenandoah;
  else if (starts_with(name, "Pause Mark Start") || starts_with(name, "Pause Mark End") ||
           starts_with(name, "Pause Relocate Start"))
    collector_ = Collector::kZgc;
}

// "Pause Young (Normal) (G1 Evacuation Pause)" (start) or "… 6M->1M(34M) 1.777ms" (summary).
// ZGC and Shenandoah pauses (but Shenandoah's full and degenerated collections) belong to a cycle;
// every other pause is a collection of its own.
void UnifiedParser::on_pause(int64_t id, std::string_view msg) {
  double dur = kUnknown;
  std::string_view rest = msg;
  bool has_dur = trailing_duration(msg, dur, rest);  // a start line has no duration
  PoolSizes heap;
  std::string_view name_part = rest;
  bool has_heap = has_dur && trailing_heap(rest, heap, name_part);
  infer_collector_from_pause(name_part);

  bool shen_full = collector_ == Collector::kShenandoah &&
                   (starts_with(name_part, "Pause Full") || starts_with(name_part, "Pause Degenerated"));
  if (concurrent_collector() && !shen_full) {
    if (!has_dur) return;
    Slot& s = cycle_slot(id);
    auto span = s.intern(name_part, generation_);
    s.pauses.push_back({span.first, span.second, line_uptime_ - dur, dur, line_no_});
    if (std::isnan(s.ev.uptime_s)) {
      s.ev.uptime_s = line_uptime_ - dur;
      s.ev.wall_epoch_ms = std::isnan(line_wall_) ? kUnknown : line_wall_ - dur * 1000;
    }
    return;
  }

  Slot* s = find_slot(id);
  if (s && (s->complete || s->cycle)) s = nullptr;  // a new pause in the same id (G1 Remark then Cleanup)
  if (shen_full) {
    Slot* cyc = find_slot(id, true);
    if (cyc && starts_with(name_part, "Pause Degenerated")) cyc->ev.flags |= kDegenerated;
  }
  if (!s) {
    s = &new_slot(id);
    if (!has_dur) {
      s->ev.uptime_s = line_uptime_;
      s->ev.wall_epoch_ms = line_wall_;
    }
  }
  if (!has_dur) return;  // start line: the summary follows
  classify_pause(*s, name_part);
  s->ev.duration_s = dur;
  if (has_heap) s->ev.heap = heap;
  if (std::isnan(s->ev.uptime_s)) {
    s->ev.uptime_s = line_uptime_ - dur;
    s->ev.wall_epoch_ms = std::isnan(line_wall_) ? kUnknown : line_wall_ - dur * 1000;
  }
  s->complete = true;
}

// Sets type/cause/flags of a pause from "Pause <Name> (qualifier) (cause)".
void UnifiedParser::classify_pause(Slot& s, std::string_view name_part) {
  std::string_view body = name_part.substr(6);  // after "Pause "
  size_t paren = body.find(" (");
  std::string_view kind = paren == std::string_view::npos ? body : body.substr(0, paren);
  // Parenthesised groups, balanced: "(System.gc())".
  std::string_view groups[4];
  int ngroups = 0;
  size_t p = paren == std::string_view::npos ? body.size() : paren + 1;
  while (p < body.size() && ngroups < 4) {
    if (body[p] == ' ') {
      ++p;
      continue;
    }
    size_t close;
    if (body[p] != '(' || !balanced_group(body, p, groups[ngroups], close)) break;
    ++ngroups;
    p = close + 1;
  }
  std::string_view qualifier, cause;
  if (kind == "Young") {
    if (ngroups >= 2) qualifier = groups[0], cause = groups[ngroups - 1];
    else if (ngroups == 1) {
      std::string_view g = groups[0];
      if (g == "Normal" || g == "Mixed" || g == "Concurrent Start" || g == "Prepare Mixed" || g == "Initial Mark")
        qualifier = g;
      else cause = g;
    }
  } else if (kind == "Full" || kind == "Initial Mark" || kind == "Mixed") {
    if (ngroups >= 1) cause = groups[ngroups - 1];
  }
  if (!cause.empty()) {
    s.cause.assign(cause.data(), cause.size());
    diary_.set_flag("GC_CAUSE", Tri::kTrue);
  } else if (!pending_trigger_.empty() && collector_ == Collector::kShenandoah) {
    take_trigger(s);
  }
  const bool system_gc = cause == "System.gc()";
  GcType t = GcType::Unknown;
  switch (collector_) {
    case Collector::kG1:
    case Collector::kUnknown: t = g1_pause_type(kind, qualifier, system_gc); break;
    case Collector::kParallel:
    case Collector::kSerial:
    case Collector::kCms: t = generational_pause_type(collector_, kind, system_gc); break;
    case Collector::kShenandoah: t = shenandoah_pause_type(s, kind, system_gc); break;
    default: break;
  }
  if (t == GcType::Unknown) t = GcType::GC;
  s.ev.type = t;
  s.ev.stop_the_world = true;
  if (s.cause == "G1 Humongous Allocation") s.ev.flags |= kHumongousAllocation;
  if (s.cause == "GCLocker Initiated GC") s.ev.flags |= kGcLocker;
  if (s.cause == "Allocation Stall") s.ev.flags |= kAllocationStall;
}

// "Concurrent Mark 28.646ms", "Concurrent Mark (11.013s, 11.034s) 21.3ms", "Concurrent reset 0.046ms":
// a phase of the ZGC/Shenandoah cycle, else a concurrent event of its own (G1, CMS).
void UnifiedParser::on_concurrent(int64_t id, std::string_view msg) {
  if (msg == "Concurrent Mark Abort") return on_concurrent_mark_abort(id);
  double dur;
  std::string_view rest;
  if (!trailing_duration(msg, dur, rest)) return;  // start line
  PoolSizes heap;
  std::string_view name = rest;
  trailing_heap(rest, heap, name);  // Shenandoah "Concurrent cleanup 16M->16M(32M) 0.013ms"
  // Strip "(11.013s, 11.034s)" (JDK 11 G1) and "(unload classes)" qualifiers from the phase name.
  size_t paren = name.find(" (");
  std::string_view phase = paren == std::string_view::npos ? name : name.substr(0, paren);
  if (concurrent_collector()) return add_cycle_phase(id, phase, dur, heap);

  std::string_view p = phase.substr(11);  // after "Concurrent "
  GcType t = collector_ == Collector::kCms ? cms_concurrent_type(p) : g1_concurrent_type(p);
  // G1 "Concurrent Mark Cycle" (17) / "Concurrent Cycle" (11): the whole cycle. Other phases
  // ("Concurrent Mark From Roots", "Concurrent Preclean", …) are ConcurrentPhase events; GCToolKit
  // emits neither, so they are left out of comparisons with its counts.
  if (t == GcType::Unknown && (p == "Mark Cycle" || p == "Cycle")) t = GcType::Concurrent_Cycle;
  if (t == GcType::G1GCConcurrentMark) mark_ended_id_ = id;
  GcEvent& ev = standalone_;
  ev = GcEvent{};
  if (t == GcType::Concurrent_Cycle && abort_id_ == id) ev.flags |= kConcurrentMarkAbort;
  ev.type = t == GcType::Unknown ? GcType::ConcurrentPhase : t;
  ev.stop_the_world = false;
  ev.uptime_s = line_uptime_ - dur;
  ev.wall_epoch_ms = std::isnan(line_wall_) ? kUnknown : line_wall_ - dur * 1000;
  ev.duration_s = dur;
  ev.gc_id = id;
  ev.first_line = line_no_;
  ev.member = member_;
  if (heap.present()) ev.heap = heap;
  ev.phases.clear();
  ev.phases.emplace_back(phase, dur);
  emit_standalone();
}

// A concurrent phase of a ZGC/Shenandoah cycle (opened at its first phase, stamped at its start).
void UnifiedParser::add_cycle_phase(int64_t id, std::string_view phase, double dur, const PoolSizes& heap) {
  Slot* s = find_slot(id, true);
  if (!s) {
    s = &new_slot(id);
    s->cycle = true;
    s->ev.uptime_s = line_uptime_ - dur;
    s->ev.wall_epoch_ms = line_wall_;
    take_trigger(*s);
  }
  auto span = s->intern(phase, generation_);
  s->phase_spans.push_back(span);
  s->phase_secs.push_back(dur);
  if (heap.present()) {  // Shenandoah: occupancy around the cycle's concurrent phases
    PoolSizes& h = s->ev.heap;
    if (h.before_kb < 0) h.before_kb = heap.before_kb;
    h.after_kb = heap.after_kb;
    h.committed_kb = std::max(h.committed_kb, heap.committed_kb);
  }
}

// G1 "  Pre Evacuate Collection Set: 0.1ms", Parallel/Serial full "Marking Phase 1.234ms",
// ZGC "Young Generation 60M(62%)->62M(65%) 0.019s" (ZGC's "Concurrent …" and "Pause …" lines are
// handled above).
void UnifiedParser::on_phase_line(int64_t id, std::string_view msg) {
  size_t indent = 0;
  while (indent < msg.size() && msg[indent] == ' ') ++indent;
  if (indent > 2) return;  // sub-phases (debug level) would double count
  double dur;
  std::string_view rest;
  if (!trailing_duration(msg.substr(indent), dur, rest)) return;
  if (!rest.empty() && rest.back() == ':') rest.remove_suffix(1);
  PoolSizes heap;
  std::string_view without_heap;
  if (trailing_heap(rest, heap, without_heap)) rest = without_heap;
  rest = text::trim(rest);
  if (rest.empty()) return;
  Slot* s = find_slot(id);
  if (!s) return;
  auto span = s->intern(rest, generation_);
  s->phase_spans.push_back(span);
  s->phase_secs.push_back(dur);
}

// "Metaspace: 76K(320K)->76K(320K) NonClass: …" (17) / "Metaspace: 5147K->5147K(1056768K)" (11) /
// ZGC "Metaspace: 0M used, 0M committed, 1088M reserved"
void UnifiedParser::on_metaspace(int64_t id, std::string_view v) {
  Slot* s = find_slot(id);
  if (!s) return;
  if (leading_transition(v, s->ev.metaspace)) return;
  size_t p = 0;
  int64_t used;
  if (parse_size_kb(v, p, used) && starts_with(v.substr(p), " used")) {
    s->ev.metaspace.after_kb = used;
    size_t c = v.find(", ", p);
    if (c != std::string_view::npos) {
      size_t q = c + 2;
      int64_t committed;
      if (parse_size_kb(v, q, committed)) s->ev.metaspace.committed_kb = committed;
    }
  }
}

// "User=0.00s Sys=0.00s Real=0.00s"
void UnifiedParser::on_cpu(int64_t id, std::string_view v) {
  saw_cpu_ = true;
  Slot* s = find_slot(id);
  if (!s) return;
  size_t p = 5;
  double u, sy, r;
  if (!parse_duration(v, p, u)) return;
  size_t q = v.find("Sys=", p);
  if (q == std::string_view::npos) return;
  q += 4;
  if (!parse_duration(v, q, sy)) return;
  size_t w = v.find("Real=", q);
  if (w == std::string_view::npos) return;
  w += 5;
  if (!parse_duration(v, w, r)) return;
  s->ev.user_s = u, s->ev.sys_s = sy, s->ev.real_s = r;
}

void UnifiedParser::finalize_diary() {
  if (collector_ != Collector::kUnknown) diary_.collectors.emplace_back(collector_name(collector_));
  auto tri = [](bool b) { return b ? Tri::kTrue : Tri::kFalse; };
  bool g1 = collector_ == Collector::kG1,
       z = collector_ == Collector::kZgc || collector_ == Collector::kZgcGenerational;
  diary_.set_flag("G1GC", tri(g1));
  diary_.set_flag("ZGC", tri(z));
  diary_.set_flag("SHENANDOAH", tri(collector_ == Collector::kShenandoah));
  diary_.set_flag("SERIAL", tri(collector_ == Collector::kSerial));
  diary_.set_flag("DEFNEW", tri(collector_ == Collector::kSerial));
  diary_.set_flag("PARALLELGC", tri(collector_ == Collector::kParallel));
  diary_.set_flag("PARALLELOLDGC", tri(collector_ == Collector::kParallel));
  diary_.set_flag("CMS", tri(collector_ == Collector::kCms));
  diary_.set_flag("PARNEW", tri(collector_ == Collector::kCms));
  diary_.set_flag("ICMS", Tri::kFalse);
  diary_.set_flag("EPSILON", tri(collector_ == Collector::kEpsilon));
  diary_.set_flag("GC_DETAILS", tri(saw_details_));
  diary_.set_flag("GC_CAUSE", Tri::kFalse);  // stays true when a cause was seen
  diary_.set_flag("TENURING_DISTRIBUTION", tri(saw_age_));
  diary_.set_flag("PRINT_HEAP_AT_GC", tri(saw_heap_at_gc_));
  diary_.set_flag("APPLICATION_STOPPED_TIME", Tri::kFalse);
  diary_.set_flag("APPLICATION_CONCURRENT_TIME", Tri::kFalse);
  diary_.set_flag("ADAPTIVE_SIZING", tri(saw_ergo_));
  diary_.set_flag("PRINT_REFERENCE_GC", tri(saw_ref_));
  diary_.set_flag("PRINT_CPU_TIMES", tri(saw_cpu_));
  diary_.set_flag("RSET_STATS", tri(saw_rset_));
  // Legacy-only flags are known to be false in a unified log.
  for (const char* f : {"JDK70", "PRE_JDK70_40", "JDK80", "CMS_DEBUG_LEVEL_1", "MAX_TENURING_THRESHOLD_VIOLATION",
                        "TLAB_DATA", "PRINT_PROMOTION_FAILURE", "PRINT_FLS_STATISTICS"})
    diary_.set_flag(f, Tri::kFalse);
}

}  // namespace unified

std::unique_ptr<LogParser> make_unified_parser(GcEventSink& sink, uint32_t member) {
  return std::make_unique<unified::UnifiedParser>(sink, member);
}

}  // namespace gcscope::jvm
