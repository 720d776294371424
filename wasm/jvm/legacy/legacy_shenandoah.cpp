// Shenandoah's JDK 8 backport in legacy logs: each phase record is an event, and the lines it prints
// besides them are noted in the diary.
#include <utility>

#include "core/text_scan.h"
#include "jvm/legacy/legacy_parser.h"
#include "jvm/legacy/legacy_scan.h"

namespace gcscope::jvm {

using namespace legacy_scan;
using text::contains;
using text::starts_with;

// Shenandoah's JDK 8 backport: "Pause Init Mark (process weakrefs), 3.341 ms", "Concurrent cleanup
// 85036K->85036K(122M), 0.068 ms", "Pause Degenerated GC (Mark) 121M->19211K(122M), 9.421 ms"; the
// ", start" records only announce a phase. Each phase is a Shenandoah event named in its phases.
bool LegacyGcLogParser::parse_shenandoah(std::string_view flat, double uptime_s, double wall_ms, uint64_t first_line) {
  ev_.shenandoah = true;
  if (ends_with(text::trim_right(flat), ", start")) return true;
  GcEvent e;
  e.type = GcType::Shenandoah;
  e.uptime_s = uptime_s;
  e.wall_epoch_ms = wall_ms;
  e.first_line = first_line;
  e.member = member_;
  e.stop_the_world = starts_with(flat, "Pause ");
  e.duration_s = last_secs(flat);
  size_t name_end = flat.find(',');
  size_t arrow = flat.find("->");
  if (arrow != std::string_view::npos && arrow < name_end) {
    find_transition(flat, e.heap);
    // the name ends before the number of the transition
    size_t q = arrow;
    while (q > 0 && flat[q - 1] != ' ') --q;
    name_end = q > 0 ? q - 1 : q;
  }
  open_phase_name_.assign(text::trim(flat.substr(0, name_end)));
  if (starts_with(flat, "Pause Degenerated")) e.flags |= kDegenerated;
  if (starts_with(flat, "Pause Full")) e.flags |= kDegenerated;  // a full collection: the worst fallback
  open_cause_.clear();
  open_event_ = std::move(e);
  open_ = true;
  return true;
}

// The lines the Shenandoah backport prints besides its records: its ", [Metaspace: …]" after a pause,
// the statistics table at exit, its ergonomics and heuristics lines. False for any other line.
bool LegacyGcLogParser::take_shenandoah_line(std::string_view line) {
  if (starts_with(line, ", [Metaspace: ")) {  // Shenandoah 8 prints it after the pause, on its own line
    if (open_) {
      ev_.metaspace = true;
      find_transition(line.substr(14), open_event_.metaspace);
    }
    return true;
  }
  if (starts_with(line, "All times are wall-clock times") || starts_with(line, "GC STATISTICS:")) {
    in_shenandoah_stats_ = true;  // the statistics table printed at exit
    return true;
  }
  {
    static const char* const kShenandoahInfo[] = {"Trigger: ",
                                                  "Free: ",
                                                  "Pacer for ",
                                                  "Regions: ",
                                                  "Humongous object threshold",
                                                  "Max TLAB size",
                                                  "GC threads: ",
                                                  "Heuristics ergonomically sets",
                                                  "Shenandoah GC mode",
                                                  "Shenandoah heuristics",
                                                  "Initialize Shenandoah heap",
                                                  "Reference processing: ",
                                                  "Soft Max Heap Size",
                                                  "Cancelling GC",
                                                  "Free headroom:",
                                                  "Allocation pacing accrued:",
                                                  "all workers. Dividing",
                                                  "Adaptive CSet Selection",
                                                  "Collectable Garbage:",
                                                  "Immediate Garbage:",
                                                  "Good progress for",
                                                  "Bad progress for",
                                                  "Failed to allocate",
                                                  "Heap: ",
                                                  "Uncommitted "};
    for (const char* p : kShenandoahInfo)
      if (starts_with(line, p)) {
        ev_.shenandoah = true;
        return true;
      }
  }
  return false;
}
}  // namespace gcscope::jvm
