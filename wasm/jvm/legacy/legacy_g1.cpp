// G1 in legacy logs: the pause kinds of "[GC pause (…) (young|mixed) (initial-mark)", remark and
// cleanup, the concurrent phases, and the detail block that follows a pause ("[Eden: …]", worker
// times, JDK 6's "[ 8192K->8128K(64M)]"). GCToolKit's names for the event types, so that counts
// compare 1:1.
#include "core/text_scan.h"
#include "jvm/legacy/legacy_parser.h"
#include "jvm/legacy/legacy_scan.h"

namespace gcscope::jvm {

using namespace legacy_scan;
using text::contains;
using text::starts_with;

// "[GC pause (G1 Evacuation Pause) (young)": young, mixed, or either with an initial mark.
void LegacyGcLogParser::type_g1_pause(const RecordFacts& f, GcEvent& e) {
  ev_.g1 = true;
  if (f.initial_mark_mod) e.type = f.mixed_mod ? GcType::G1GCMixedInitialMark : GcType::G1GCYoungInitialMark;
  else if (f.mixed_mod) e.type = GcType::Mixed;
  else e.type = GcType::Young;
}

// "[GC remark …" and "[GC cleanup …" (records without pools); false for any other record.
bool LegacyGcLogParser::type_g1_without_details(const RecordFacts& f, GcEvent& e) {
  if (starts_with(f.flat, "GC remark")) e.type = GcType::G1GCRemark;
  else if (starts_with(f.flat, "GC cleanup")) e.type = GcType::G1GCCleanup;
  else return false;
  ev_.g1 = true;
  return true;
}

// "[GC concurrent-mark-end, 0.0116 secs]": the phase's type and duration; false for a "-start" record
// or a phase the report does not type.
bool LegacyGcLogParser::type_g1_concurrent(std::string_view rec, GcEvent& e) {
  std::string_view name = rec.substr(15);  // after "[GC concurrent-"
  size_t stop = name.find_first_of(",]");
  std::string_view phase = name.substr(0, stop);
  if (ends_with(phase, "-start")) return false;
  ev_.g1 = true;
  if (phase == "root-region-scan-end") e.type = GcType::ConcurrentRootRegionScan;
  else if (phase == "mark-end" || phase == "mark-abort") e.type = GcType::G1GCConcurrentMark;
  else if (phase == "cleanup-end") e.type = GcType::G1GCConcurrentCleanup;
  else if (phase == "mark-reset-for-overflow") e.type = GcType::G1ConcurrentMarkResetForOverflow;
  else if (phase == "string-deduplication") e.type = GcType::ConcurrentStringDeduplication;
  else return false;
  e.duration_s = last_secs(rec);
  return true;
}

// The open event is one a G1 detail line can belong to.
bool LegacyGcLogParser::open_g1_pause() const {
  const GcType t = open_event_.type;
  return open_ && (t == GcType::Young || t == GcType::Mixed || t == GcType::G1GCYoungInitialMark || t == GcType::Full ||
                   t == GcType::G1GCMixedInitialMark || t == GcType::G1GCRemark || t == GcType::G1GCCleanup ||
                   t == GcType::SystemGC || t == GcType::FullGC);
}

// A line of the open record's detail block: its " [Times: …]" (any collector) or a G1 detail line.
void LegacyGcLogParser::attach_detail(std::string_view t) {
  if (!open_) return;
  if (starts_with(t, "[Times:")) {
    parse_times(t, open_event_);
    return;
  }
  if (starts_with(t, "[Eden: ")) {
    ev_.g1_details = true;
    ev_.g1 = true;
    size_t p = 7;
    PoolSizes eden;
    if (parse_transition(t, p, eden)) open_event_.eden = eden;
    size_t s = t.find("Survivors: ");
    if (s != std::string_view::npos) {
      PoolSizes sv;
      if (parse_transition(t, s + 11, sv)) open_event_.survivor = sv;
    }
    s = t.find("Heap: ");
    if (s != std::string_view::npos) {
      PoolSizes hp;
      if (parse_transition(t, s + 6, hp)) open_event_.heap = hp;
    }
    s = t.find("[Metaspace: ");
    if (s != std::string_view::npos) {
      ev_.metaspace = true;
      PoolSizes ms;
      if (parse_transition(t, s + 12, ms)) open_event_.metaspace = ms;
    }
    if (open_event_.type == GcType::FullGC) open_event_.type = GcType::Full;
    return;
  }
  // JDK 6 and 7 before update 2 end G1's detail block with the heap alone: "   [ 8192K->8128K(64M)]".
  if (t.size() > 3 && t[1] == ' ' && is_digit(t[2])) {
    ev_.g1_details = true;
    PoolSizes hp;
    if (parse_transition(t, 2, hp)) open_event_.heap = hp;
    return;
  }
  if (starts_with(t, "[Parallel Time:") || starts_with(t, "[GC Worker") || starts_with(t, "[Code Root") ||
      starts_with(t, "[Clear CT") || starts_with(t, "[Other:") || starts_with(t, "[Ext Root")) {
    ev_.g1_details = true;
    return;
  }
}

}  // namespace gcscope::jvm
