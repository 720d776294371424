// GcAggregator: the sink both JVM log parsers emit into. It keeps one compact column per figure
// (no object per event, no per-line strings; causes and phase names are interned) and, at the end,
// writes the report: event counts, pause statistics and percentiles, throughput, heap, rates,
// causes, phases, safepoints, findings, unparsed-line samples and the columnar series the web view
// recomputes every number from when the user zooms.
#pragma once
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <deque>
#include <map>
#include <unordered_map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "jvm/gc_event.h"

namespace gcscope::jvm {

class GcAggregator final : public GcEventSink {
 public:
  void on_event(const GcEvent& event) override;
  void on_safepoint(const SafepointEvent& event) override;
  void on_unparsed(uint32_t member, uint64_t line, std::string_view text) override;
  void on_application_time(uint32_t member, double uptime_s, double seconds) override;
  void on_stall(uint32_t member, uint64_t line, double uptime_s, double seconds, bool relocation) override;

  // Member order hook for rotating sets: rank[member] decides the order of the series (default:
  // the order the members were given). Set before write_report().
  void set_member_rank(std::vector<uint32_t> rank) { member_rank_ = std::move(rank); }
  // A member's (merged) diary; the first one with a value wins for scalar fields.
  void merge_diary(const Diary& d);
  // The unified/legacy verdict and what was identified but not parsed, per member.
  void note_member(const std::string& path, const char* dialect, bool parsed);

  void write_report(nlohmann::json& report) const;
  // Without the columnar series (option jvm_series=false): the summary only, for huge logs.
  void set_with_series(bool on) { with_series_ = on; }

  size_t event_count() const { return t_.size(); }

 private:
  uint32_t intern_cause(std::string_view cause);
  uint32_t intern_phase(std::string_view name);
  void add_phase(uint32_t idx, double seconds);
  void write_findings(nlohmann::json& out, const std::vector<size_t>& order, double runtime_s, double pause_total,
                      double safepoint_total) const;

  // Event columns.
  std::vector<double> t_, wall_, dur_, heap_before_, heap_after_, heap_committed_, old_after_, meta_after_;
  // Order-independent sums kept on the fly instead of columns (memory per event matters in wasm).
  double promoted_kb_ = 0;
  bool any_old_ = false;
  uint64_t cpu_events_ = 0, sys_heavy_ = 0, first_sys_heavy_line_ = 0;
  std::vector<uint8_t> type_, stw_;
  std::vector<int32_t> cause_;
  std::vector<uint32_t> flags_, member_;
  std::vector<uint64_t> line_;
  std::vector<int64_t> gc_id_;
  uint64_t type_counts_[static_cast<size_t>(GcType::kCount)] = {};
  uint32_t type_pause_name_[static_cast<size_t>(GcType::kCount)];
 public:
  GcAggregator() { std::fill(std::begin(type_pause_name_), std::end(type_pause_name_), UINT32_MAX); }
 private:

  // Pause columns (STW events and the pauses inside concurrent cycles).
  std::vector<double> pause_t_, pause_dur_;
  std::vector<uint32_t> pause_name_, pause_event_;  // name: phase-name index
  std::vector<uint64_t> pause_line_;

  // Safepoints.
  std::vector<double> sp_t_, sp_dur_, sp_reach_;
  std::vector<uint64_t> sp_line_;
  double app_time_total_ = 0;

  // Stalls (ZGC).
  uint64_t alloc_stalls_ = 0, reloc_stalls_ = 0;
  double alloc_stall_total_ = 0, alloc_stall_max_ = 0, reloc_stall_total_ = 0;
  uint64_t first_alloc_stall_line_ = 0, first_reloc_stall_line_ = 0;

  // Interned names.
  // Names are stored once in a deque (stable addresses) and looked up by string_view hash.
  std::deque<std::string> causes_;
  std::unordered_map<std::string_view, uint32_t> cause_index_;
  std::deque<std::string> phases_;
  std::unordered_map<std::string_view, uint32_t> phase_index_;
  struct PhaseStat { uint64_t count = 0; double total = 0, max = 0; };
  std::vector<PhaseStat> phase_stats_;

  // Unparsed lines.
  uint64_t unparsed_ = 0;
  struct Sample { uint32_t member; uint64_t line; std::string text; };
  std::vector<Sample> unparsed_samples_;

  Diary diary_;
  bool have_diary_ = false;
  std::vector<uint32_t> member_rank_;
  nlohmann::json members_ = nlohmann::json::array();
  uint64_t seq_ = 0;
  bool with_series_ = true;
};

}  // namespace gcscope::jvm
