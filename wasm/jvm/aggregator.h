// GcAggregator: the sink both JVM log parsers emit into. Its memory does not grow with the number
// of events: every per-event figure goes into a fixed number of buckets of consecutive events
// (count-based decimation: while the log has at most kMaxBuckets events a bucket is one event, so
// small logs keep exact per-event data; past that, neighbouring buckets merge pairwise and keep the
// min/max/sum of each figure, so heap spikes and long pauses survive), and every summary figure is
// a running tally. The pauses are kept one by one (start, duration, kind, cause, line: 28 bytes
// each) while the log has at most kExactPauses of them, so the view recomputes every figure of a
// zoomed range exactly; they go out as packed integer text (see write_report), not as a JSON tree.
// Past that cap the pause series switches to its bounded form (pause_series.h): at most kMaxBuckets
// buckets of consecutive pauses with their histograms and per-kind/per-cause tallies, plus a
// histogram of the exact durations (microseconds) that keeps the global count, total, max and
// percentiles exact.
//
// At the end it writes the report: event counts, pause statistics and percentiles, throughput, heap,
// rates, causes, phases, safepoints, findings, unparsed-line samples and the series the web view
// recomputes every number from when the user zooms.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "jvm/gc_event.h"
#include "jvm/pause_series.h"

namespace gcscope::jvm {

// A growing column: the first 64 Ki values in a std::vector (small logs, and every fuzz input, pay
// only for what they hold), then fixed blocks of 64 Ki values: past the first block a vector's
// doubling would hold up to twice the values at its peak and copy them all at each growth; here at
// most one block is partly unused.
template <typename T>
class BlockColumn {
 public:
  void push_back(T v) {
    if (size_ < kBlock) {
      head_.push_back(v);
    } else {
      if (size_ % kBlock == 0) blocks_.emplace_back(new T[kBlock]);
      blocks_.back()[size_ % kBlock] = v;
    }
    ++size_;
  }
  T operator[](size_t i) const { return i < kBlock ? head_[i] : blocks_[i / kBlock - 1][i % kBlock]; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void append(const BlockColumn& o) {
    for (size_t i = 0; i < o.size_; ++i) push_back(o[i]);
  }
  void clear() {  // and give the memory back
    head_ = std::vector<T>();
    blocks_ = std::vector<std::unique_ptr<T[]>>();
    size_ = 0;
  }

 private:
  static constexpr size_t kBlock = size_t{1} << 16;
  std::vector<T> head_;
  std::vector<std::unique_ptr<T[]>> blocks_;
  size_t size_ = 0;
};

class GcAggregator final : public GcEventSink {
 public:
  // Event buckets (and safepoint and pause buckets) kept at most; a power of two.
  static constexpr size_t kMaxBuckets = 4096;
  // Pauses kept one by one before the pause series switches to buckets (28 MiB of columns).
  static constexpr size_t kExactPauses = size_t{1} << 20;

  GcAggregator() { std::fill(std::begin(type_pause_name_), std::end(type_pause_name_), UINT32_MAX); }

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
  // The diary the parser is filling while it feeds us (nullptr when none): the configured max heap
  // is read from it at each event (it comes from the log's header, before the events).
  void set_live_diary(const Diary* d) { live_diary_ = d; }
  // The unified/legacy verdict and what was identified but not parsed, per member.
  void note_member(const std::string& path, const char* dialect, bool parsed);

  // Appends everything another aggregator collected (its events after ours, names re-interned,
  // sums added). Rotating sets: one aggregator per member, the selected members merged at the end
  // in rank order.
  void merge_from(const GcAggregator& other);

  void write_report(nlohmann::json& report) const;
  // Without the series (option jvm_series=false): the summary only.
  void set_with_series(bool on) { with_series_ = on; }

  size_t event_count() const { return static_cast<size_t>(events_total_); }

  // Pauses kept one by one at most (option jvm_exact_pauses; default kExactPauses). Set before the
  // first event.
  void set_exact_pause_cap(size_t n) { exact_pause_cap_ = n; }
  // What the pause series holds: for the tests' bounds and the benchmark notes.
  struct PauseSeriesSize {
    bool bucketed;
    size_t pauses, exact_columns, buckets, distinct_durations, bytes;
  };
  PauseSeriesSize pause_series_size() const;

  // Pools with per-event figures in the series, in this order.
  enum Pool { kYoung, kEden, kSurvivor, kOld, kHumongous, kMetaspace, kPoolCount };

 private:
  // A count of occurrences and the line of the earliest one (by uptime within a member; members in
  // merge = rank order), for findings.
  struct Tally {
    uint64_t count = 0, first_line = 0;
    double first_t = kUnknown;
    void note(double t, uint64_t line) {
      if (count++ == 0 || (t < first_t)) first_t = t, first_line = line;  // NaN compares false
    }
    void merge(const Tally& o) {
      if (!count && o.count) first_t = o.first_t, first_line = o.first_line;
      count += o.count;
    }
  };
  struct PhaseCell {
    uint32_t name;
    uint32_t count;
    double total, max;
  };
  // Consecutive events of one member; figures are max (before, committed, pools), min and max
  // (heap after) or sums (pause time, allocation) over its events; NaN = not printed. Type, cause,
  // stw, line, gc id and wall time are the first event's; flags are OR-ed.
  struct Bucket {
    double t_first = kUnknown, t_last = kUnknown, wall = kUnknown, duration = kUnknown;
    double paused = 0, allocated_kb = 0;
    double heap_before = kUnknown, heap_after_min = kUnknown, heap_after_max = kUnknown, heap_committed = kUnknown;
    double pool_before[kPoolCount], pool_after[kPoolCount];
    uint64_t line = 0;
    int64_t gc_id = -1;
    uint32_t count = 0, with_after = 0, flags = 0, member = 0;
    int32_t cause = -1;
    uint8_t type = 0, stw = 0;
    std::vector<PhaseCell> phases;  // phases of its events (pauses excluded: those are exact)
    uint64_t n_events() const { return count; }
    Bucket() {
      std::fill(std::begin(pool_before), std::end(pool_before), kUnknown);
      std::fill(std::begin(pool_after), std::end(pool_after), kUnknown);
    }
    void absorb(const Bucket& o);
  };
  struct SafepointBucket {
    double t_first = kUnknown, t_last = kUnknown, total = 0, max = 0;
    uint64_t line = 0;
    uint32_t count = 0, n = 0, member = 0;
    uint64_t n_events() const { return n; }
    void absorb(const SafepointBucket& o);
  };

  uint32_t intern_cause(std::string_view cause);
  uint32_t intern_phase(std::string_view name);
  void add_phase(uint32_t idx, double seconds);
  Bucket& open_bucket();
  SafepointBucket& open_safepoint_bucket();
  void write_findings(nlohmann::json& out, double runtime_s, double pause_total, double pause_median,
                      double safepoint_total) const;
  // Pauses longer than `limit` seconds: how many, the earliest line, the longest (findings).
  void pauses_above(double limit, uint64_t& count, uint64_t& first_line, double& worst) const;
  // Bucketed pauses: the switch (the exact columns move into buckets and the histogram, then are
  // freed) and one more pause.
  void bucket_pauses();
  void add_bucketed_pause(double t, double d, uint32_t name, int32_t cause, uint32_t line, uint32_t member);
  void write_bucketed_pauses(nlohmann::json& out) const;

  // ---- events: buckets and running tallies ----
  std::vector<Bucket> buckets_;
  uint64_t per_bucket_ = 1;  // events per full bucket (doubles when the buckets are merged)
  uint64_t events_total_ = 0;
  double prev_after_ = kUnknown;  // heap after the previous event of this member (allocation)
  double allocated_kb_ = 0, promoted_kb_ = 0;
  bool any_old_ = false, any_wall_ = false;
  bool any_pool_[kPoolCount] = {};
  double ev_first_t_ = kUnknown, ev_last_end_ = kUnknown;  // time range when the diary has none
  double max_before_ = kUnknown, max_after_ = kUnknown, max_committed_ = kUnknown, max_meta_ = kUnknown;
  uint64_t cpu_events_ = 0, sys_heavy_ = 0, first_sys_heavy_line_ = 0;
  uint64_t type_counts_[static_cast<size_t>(GcType::kCount)] = {};
  uint32_t type_pause_name_[static_cast<size_t>(GcType::kCount)];
  struct CauseStat { uint64_t count = 0; double total = 0; };
  std::vector<CauseStat> cause_stats_;
  // Findings' tallies (see findings.cpp).
  Tally explicit_gc_, system_gc_, evacuation_failure_, humongous_, full_not_explicit_, full_stw_, degenerated_,
      metaspace_gc_, gclocker_, mark_aborted_, late_concurrent_, full_after_gc_;
  uint64_t stw_events_ = 0;
  std::vector<double> system_gc_times_;  // uptimes of System.gc() collections (the hourly RMI pattern)

  // ---- pauses (STW events and the pauses inside concurrent cycles) ----
  // Exact mode: one entry each in the columns below while there are at most exact_pause_cap_.
  // Bucketed mode (pauses_bucketed_): the columns are empty; pause_buckets_ and pause_hist_ hold
  // everything. pause_count_, pause_total_ and pause_max_ run in both.
  size_t exact_pause_cap_ = kExactPauses;
  bool pauses_bucketed_ = false;
  uint64_t pause_count_ = 0;
  double pause_max_ = 0;
  std::vector<PauseBucket> pause_buckets_;
  uint64_t pause_per_bucket_ = 1;
  DurationHistogram pause_hist_;
  BlockColumn<double> pause_t_, pause_dur_;
  BlockColumn<uint32_t> pause_name_;  // phase-name index
  BlockColumn<int32_t> pause_cause_;  // the event's cause, -1 none
  BlockColumn<uint32_t> pause_line_;  // (saturated at 2^32-1: a finding's link only)
  std::vector<std::pair<size_t, uint32_t>> pause_members_;  // (first pause index, member) per merged member
  double pause_total_ = 0;
  uint64_t min_pause_line_ = 0;

  // ---- safepoints ----
  std::vector<SafepointBucket> sp_buckets_;
  uint64_t sp_per_bucket_ = 1;
  uint64_t sp_count_ = 0, sp_first_line_ = 0, slow_sp_ = 0, slow_sp_first_line_ = 0;
  bool have_sp_ = false;
  double sp_total_ = 0, sp_max_ = 0, reach_max_ = 0, slow_sp_worst_ = 0;
  double app_time_total_ = 0;

  // ---- stalls (ZGC) ----
  uint64_t alloc_stalls_ = 0, reloc_stalls_ = 0;
  double alloc_stall_total_ = 0, alloc_stall_max_ = 0, reloc_stall_total_ = 0;
  uint64_t first_alloc_stall_line_ = 0, first_reloc_stall_line_ = 0;

  // ---- interned names: stored once in a deque (stable addresses), looked up by string_view hash ----
  std::deque<std::string> causes_;
  std::unordered_map<std::string_view, uint32_t> cause_index_;
  std::vector<uint16_t> cause_class_;
  int32_t last_cause_ = -1;                // the previous event's cause (most repeat it)
  std::vector<uint32_t> phase_scratch_;    // phase indexes of the event being added
  // The phase index seen at each position of the previous event's phases (and pauses within): events of
  // one collector list the same phases in the same order, so a compare with the name there replaces
  // hashing it (interning was ~4 % of the unified parse in V8).
  std::vector<uint32_t> phase_at_;
  std::vector<uint32_t> pause_within_at_;
  uint32_t intern_phase_at(std::vector<uint32_t>& seen, size_t k, std::string_view name);
  std::deque<std::string> phases_;
  std::unordered_map<std::string_view, uint32_t> phase_index_;
  struct PhaseStat { uint64_t count = 0; double total = 0, max = 0; };
  std::vector<PhaseStat> phase_stats_;

  // ---- unparsed lines ----
  uint64_t unparsed_ = 0;
  struct Sample { uint32_t member; uint64_t line; std::string text; };
  std::vector<Sample> unparsed_samples_;

  Diary diary_;
  bool have_diary_ = false;
  const Diary* live_diary_ = nullptr;
  std::vector<uint32_t> member_rank_;
  nlohmann::json members_ = nlohmann::json::array();
  bool with_series_ = true;
};

}  // namespace gcscope::jvm
