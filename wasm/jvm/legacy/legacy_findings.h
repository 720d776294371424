// Findings that only legacy (JDK <= 8) logs can raise: CMS failures, serial old collections where a
// parallel/concurrent collector was meant to run, GC locker stalls, iCMS, GC overhead limit, logging
// options worth changing. Pure functions of the events and the diary: feed every event to the
// accumulator (streaming, no event kept), then ask for the findings with the diary.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "jvm/gc_event.h"

namespace gcscope::jvm {

struct LegacyFinding {
  std::string id;           // stable identifier, e.g. "cms_concurrent_mode_failure"
  std::string severity;     // "error" | "warning" | "info"
  std::string message;      // one or two sentences for the user, with counts
  uint64_t first_line = 0;  // where the first occurrence is (0 = not tied to a line)
  uint32_t member = 0;
  uint64_t count = 0;  // occurrences (events) behind the finding, 0 for configuration findings
};

class LegacyFindingsAccumulator {
 public:
  void add(const GcEvent& e);
  std::vector<LegacyFinding> finish(const Diary& diary) const;
  // Adds another accumulator's counts (members of a rotating set, merged in time order: the first
  // occurrence stays the earliest one seen).
  void merge(const LegacyFindingsAccumulator& other);

 private:
  struct Seen {
    uint64_t count = 0, first_line = 0;
    uint32_t member = 0;
    double total_s = 0;
    void note(const GcEvent& e) {
      if (count++ == 0) first_line = e.first_line, member = e.member;
      if (e.duration_s == e.duration_s) total_s += e.duration_s;
    }
    void merge(const Seen& o) {
      if (!count && o.count) first_line = o.first_line, member = o.member;
      count += o.count;
      total_s += o.total_s;
    }
  };
  Seen cmf_, cmi_, promotion_failed_, gc_locker_, serial_old_parallel_, cms_serial_full_, g1_full_, evacuation_failure_,
      overhead_limit_, system_gc_, humongous_;
  uint64_t young_ = 0;
  // The table of event findings (legacy_findings.cpp): id, severity, tally, message.
  struct EventFinding;
  static const EventFinding kEventFindings[];
};

// Convenience over an event list (tests, small logs).
std::vector<LegacyFinding> legacy_findings(const std::vector<GcEvent>& events, const Diary& diary);

}  // namespace gcscope::jvm
