// Parser for HotSpot unified logging (-Xlog:gc*, JDK 9+): Serial, Parallel, CMS (9-13), G1, ZGC
// (single-generation and generational), Shenandoah, Epsilon. Internal to wasm/jvm/unified/; the
// analyzer creates it through make_unified_parser() (jvm/log_parser.h).
//
// A unified line is `[decoration]...[decoration] message` (jvm/decorations.h). The message is
// dispatched on its first word (unified_parser.cpp); what a message means for one collector family
// lives in that family's file: unified_g1.cpp, unified_generational.cpp (Serial, Parallel, CMS),
// unified_zgc.cpp, unified_shenandoah.cpp.
//
// A collection is spread over several lines that share a `GC(n)` id and may interleave with another
// id (a G1 concurrent cycle runs while young pauses happen), so open collections are kept in a few
// reusable slots keyed by id. A pause is complete at its summary line ("Pause Young (...) 6M->1M(34M)
// 1.777ms") but still takes the `User=… Sys=… Real=…` line that follows it, so it is emitted at the
// first later line that belongs to another id. ZGC/Shenandoah cycles collect their pauses and
// concurrent phases and are emitted at the cycle's summary line (ZGC) or when a later id starts
// (Shenandoah prints no summary).
//
// No per-line allocation: slots, cause strings and phase-name arenas are reused.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jvm/decorations.h"
#include "jvm/log_parser.h"

// What feed_line does for every line, folded into it: g++ inlines such member functions of a class
// shared by several files less readily than functions local to one file.
#define GCSCOPE_LINE_STEP [[gnu::always_inline]] inline

namespace gcscope::jvm::unified {

enum class Collector : uint8_t {
  kUnknown,
  kSerial,
  kParallel,
  kCms,
  kG1,
  kZgc,
  kZgcGenerational,
  kShenandoah,
  kEpsilon
};

// One open collection: a pause between its start and the line after its summary, or a ZGC/Shenandoah
// cycle with the pauses and phases seen so far.
struct Slot {
  bool used = false;
  bool complete = false;  // summary seen: emit at the next line of another id
  bool cycle = false;     // ZGC/Shenandoah cycle that gathers pauses and phases
  int64_t id = -1;
  uint64_t order = 0;
  GcEvent ev;
  std::string cause;
  std::string arena;  // phase and pause names, referenced by offsets until emission
  std::vector<std::pair<uint32_t, uint32_t>> phase_spans;
  std::vector<double> phase_secs;
  struct PauseRec {
    uint32_t off, len;
    double t, d;
    uint64_t line;
  };
  std::vector<PauseRec> pauses;

  void reset(int64_t gc_id, uint64_t ord, uint32_t member);
  // `generation` 'y'/'o' (generational ZGC) prefixes the name, since both generations run the
  // same phases.
  std::pair<uint32_t, uint32_t> intern(std::string_view name, char generation = 0) {
    auto off = static_cast<uint32_t>(arena.size());
    if (generation == 'y') arena.append("Young: ");
    else if (generation == 'o') arena.append("Old: ");
    arena.append(name.data(), name.size());
    return {off, static_cast<uint32_t>(arena.size() - off)};
  }
};

// The event type of a stop-the-world pause "Pause <kind> (qualifier) (cause)", per collector family.
GcType g1_pause_type(std::string_view kind, std::string_view qualifier, bool system_gc);
GcType generational_pause_type(Collector c, std::string_view kind, bool system_gc);
// The event type of a concurrent phase "Concurrent <phase> …" (Unknown: a plain ConcurrentPhase).
GcType g1_concurrent_type(std::string_view phase);
GcType cms_concurrent_type(std::string_view phase);

class UnifiedParser final : public LogParser {
 public:
  UnifiedParser(GcEventSink& sink, uint32_t member);

  Diary& diary() override { return diary_; }
  std::unique_ptr<LogParser> clone(GcEventSink& sink) const override {
    auto copy = std::make_unique<UnifiedParser>(*this);
    copy->sink_ = &sink;
    return copy;
  }
  void hint_head(std::string_view head) override;
  void feed_line(std::string_view line, uint64_t line_no) override;
  void finish() override;

 private:
  // unified_parser.cpp: decorations, slots, dispatch, the lines every collector prints. The
  // functions every line goes through are inlined into feed_line (defined there, used only there).
  GCSCOPE_LINE_STEP bool read_decorations(std::string_view line, std::string_view& msg);
  Slot* find_slot(int64_t id, bool cycle_only = false) {
    Slot* best = nullptr;
    for (auto& s : slots_)
      if (s.used && s.id == id && (!cycle_only || s.cycle) && (!best || s.order > best->order)) best = &s;
    return best;
  }
  Slot& new_slot(int64_t id);
  Slot& cycle_slot(int64_t id);
  GCSCOPE_LINE_STEP void flush_for_line(int64_t id);
  void emit(Slot& s);
  void emit_standalone();
  GCSCOPE_LINE_STEP void handle_plain_line(std::string_view msg, std::string_view line);
  bool on_heap_setting(std::string_view msg);
  void size_setting(std::string_view v, int64_t& out);
  void on_using(std::string_view what);
  void set_collector(Collector c);
  void on_safepoint_jdk17(std::string_view msg);
  void on_stopped_time(std::string_view msg);
  void on_string_dedup(std::string_view msg);
  GCSCOPE_LINE_STEP void handle_gc_line(int64_t id, std::string_view msg);
  GCSCOPE_LINE_STEP void note_tags();
  void mark(int64_t id, uint32_t flag);
  void infer_collector_from_pause(std::string_view name);
  void on_pause(int64_t id, std::string_view msg);
  void classify_pause(Slot& s, std::string_view name_part);
  void on_concurrent(int64_t id, std::string_view msg);
  void add_cycle_phase(int64_t id, std::string_view phase, double dur, const PoolSizes& heap);
  void on_phase_line(int64_t id, std::string_view msg);
  void on_metaspace(int64_t id, std::string_view v);
  void on_cpu(int64_t id, std::string_view v);
  void finalize_diary();
  bool concurrent_collector() const {
    return collector_ == Collector::kZgc || collector_ == Collector::kZgcGenerational ||
           collector_ == Collector::kShenandoah;
  }

  // unified_g1.cpp
  void on_regions(int64_t id, std::string_view v, char which);
  void on_concurrent_mark_abort(int64_t id);

  // unified_generational.cpp (Serial, Parallel, CMS)
  void on_pool(int64_t id, std::string_view v, Collector c, char which);

  // unified_zgc.cpp
  bool read_generation(std::string_view& msg);
  void on_zgc_cycle(int64_t id, std::string_view msg, GcType type);
  void on_zgc_capacity(int64_t id, std::string_view trimmed);
  void on_stall(std::string_view msg, bool relocation);

  // unified_shenandoah.cpp
  void on_shenandoah_init(std::string_view msg);
  void on_trigger(std::string_view msg);
  void take_trigger(Slot& s);
  GcType shenandoah_pause_type(Slot& s, std::string_view kind, bool system_gc);

  GcEventSink* sink_;
  uint32_t member_;
  Diary diary_;
  Collector collector_ = Collector::kUnknown;
  bool collector_hinted_ = false;
  std::vector<Slot> slots_;
  uint64_t order_ = 0;
  uint64_t line_no_ = 0;
  int64_t max_id_ = -1;
  double line_uptime_ = kUnknown, line_wall_ = kUnknown, first_wall_ = kUnknown;
  std::string_view tags_, level_;  // level_ stays that of the last line that had one
  decorations::NanosOrigin nanos_;
  char generation_ = 0;
  struct SeenTagSet {
    std::string tags;
    char level_mark;  // '0' + the level word's length
    bool phases;      // the tag set has "phases": the line is a phase time
  };
  std::vector<SeenTagSet> seen_tags_;
  size_t last_seen_tags_ = 0;
  bool tags_phases_ = false;  // of the current line (note_tags)
  int64_t mark_ended_id_ = -1, abort_id_ = -1;
  std::string pending_trigger_, pending_operation_;
  GcEvent standalone_;
  bool saw_details_ = false, saw_age_ = false, saw_ref_ = false, saw_ergo_ = false, saw_cpu_ = false, saw_rset_ = false,
       saw_heap_at_gc_ = false;
};

}  // namespace gcscope::jvm::unified
