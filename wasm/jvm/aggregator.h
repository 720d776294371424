// GcAggregator: the sink both JVM log parsers emit into, and the live session the page and the CLI
// ask questions of once the report is written.
//
// It keeps every event, every pause and every safepoint, exactly, in compact columns (IntColumn:
// blocks of 256 values coded against their minimum and common step; ~40 B per G1 event with its
// pools and phases, ~15 B per pause with its collection's GC number, type and cause, ~7 B per
// safepoint), in time order (TimeOrder puts the records, which logs print when they end, back in
// the order they started). Every question about a time range — the KPIs (summary), the chart
// series decimated to a pixel width (series), a page of the event table (events_page), the tables
// (tables.cpp) — is answered from these columns, and the report's whole-log figures are the answer
// for the whole range, so the two cannot differ. The findings read running tallies kept as the
// events arrive.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/tables.h"
#include "jvm/gc_event.h"
#include "jvm/int_column.h"

namespace gcscope::jvm {

// Records waiting for their place in time order. Logs print a record when it ends, so a concurrent
// cycle arrives after the pauses that started while it ran (a G1 cycle after ~20 of them): records
// wait in a window of the latest kWindow, sorted by start time, and leave it in that order. A record
// with no time keeps its place in arrival order. One that arrives later than the window reaches (a
// cycle spanning hundreds of events) leaves it out of order, and `late()` says the columns need
// sorting at the end. The window stays small enough for the processor's cache: the rows leave it
// while they are still there.
template <typename Row>
class TimeOrder {
 public:
  static constexpr size_t kWindow = 512;

  // The slot the next record is written into (its fields keep what the slot held before, so a
  // vector in it keeps its capacity); add() then puts it in order.
  Row& next() {
    if (slots_.empty()) {
      slots_.resize(kWindow + 1);
      for (uint32_t i = 0; i <= kWindow; ++i) free_.push_back(i);
    }
    return slots_[free_.back()];
  }
  template <typename Emit>
  void add(Emit&& emit) {
    const uint32_t slot = free_.back();
    free_.pop_back();
    const int64_t t = slots_[slot].t;
    if (t != IntColumn::kNull) last_key_ = t;
    auto it = order_.end();
    while (it != order_.begin() && std::prev(it)->first > last_key_) --it;
    order_.insert(it, {last_key_, slot});
    if (order_.size() > kWindow) pop(emit);
  }
  template <typename Emit>
  void flush(Emit&& emit) {
    while (!order_.empty()) pop(emit);
    slots_ = {}, free_ = {};
  }
  bool late() const { return late_; }

 private:
  template <typename Emit>
  void pop(Emit& emit) {
    const auto [key, slot] = order_.front();
    if (key < emitted_key_) late_ = true;
    emitted_key_ = key;
    order_.pop_front();
    emit(slots_[slot]);
    free_.push_back(slot);
  }
  std::vector<Row> slots_;
  std::vector<uint32_t> free_;
  std::deque<std::pair<int64_t, uint32_t>> order_;  // (start time, slot), in time order
  int64_t last_key_ = IntColumn::kNull + 1, emitted_key_ = IntColumn::kNull + 1;
  bool late_ = false;
};

struct Span;        // the rows of a stream a question reads (column_scan.h)
class EventFilter;  // the events a page question reads (event_pages.cpp)
struct RangeIndex;  // per-block totals of the columns (range_index.h)

// Pauses per power-of-two bucket of milliseconds: bucket e holds durations in (2^(e-1), 2^e] ms;
// durations up to 1 µs count as 1 µs.
class PauseHistogram {
 public:
  static int bucket(int64_t ns);
  void add(int e, uint64_t n);
  void merge(const PauseHistogram& o) {
    for (size_t k = 0; k < o.count_.size(); ++k)
      if (o.count_[k]) add(o.lo_ + static_cast<int>(k), o.count_[k]);
  }
  // (e, count) for every e from the shortest pause's bucket to the longest's, e ascending.
  std::vector<std::pair<int, uint64_t>> buckets() const;

 private:
  int lo_ = 0;
  std::vector<uint64_t> count_;  // count_[k]: bucket lo_ + k
};

// Pools with per-event figures, in this order.
enum Pool { kYoung, kEden, kSurvivor, kOld, kHumongous, kMetaspace, kPoolCount };
inline const char* pool_name(int p) {
  static const char* const kNames[kPoolCount] = {"young", "eden", "survivor", "old", "humongous", "metaspace"};
  return kNames[p];
}

// Orders a report's findings by severity: "error", then "warning", then "info" (any other after),
// each group in the order it was written, so a reader meets the most serious first.
void rank_findings(nlohmann::json& findings);

// The stored flags of an event: GcEventFlag bits, and whether it stopped the world.
constexpr int64_t kStwFlag = int64_t{1} << 31;

// Every event, pause and safepoint, in time order within each member, members in rank order.
// Times and durations in nanoseconds, sizes in KiB, kNull where the log did not print a figure.
struct GcColumns {
  struct Events {
    IntColumn t, wall_ms, duration, paused, type, flags, cause, heap_before, heap_after, heap_committed, allocated,
        line, gc_id;
    IntColumn pool_before[kPoolCount], pool_after[kPoolCount];
    // Phases of the events, event by event: phase_end[i] is one past event i's last row.
    IntColumn phase_end, phase_name, phase_ns;
    size_t size() const { return t.size(); }
  } events;
  // A pause's gc_id, type and cause are those of the event it belongs to (the collection itself, or
  // the concurrent cycle it paused in).
  struct Pauses {
    IntColumn t, duration, name, line, gc_id, type, cause;
    size_t size() const { return t.size(); }
  } pauses;
  struct Safepoints {
    IntColumn t, stopped, reaching;
    size_t size() const { return t.size(); }
  } safepoints;
  // (first row, member) for each run of rows of one member: events, pauses, safepoints.
  std::vector<std::pair<size_t, uint32_t>> event_members, pause_members, safepoint_members;
  // Whether each stream is in time order over all its rows (false when members overlap in time: a
  // set of several JVM runs, each starting near uptime 0).
  bool events_sorted = true, pauses_sorted = true, safepoints_sorted = true;

  size_t bytes() const;
  size_t event_bytes() const;
  size_t pause_bytes() const;
  size_t safepoint_bytes() const;
};

// The arguments of a page of the event table (GcAggregator::events_page).
struct EventPageQuery {
  size_t offset = 0, limit = 100;
  std::string sort = "t";  // a column of the rows (see events_page)
  bool desc = false;
  std::string filter;  // case-insensitive text in the type, the cause or the kind
  double t0 = NAN, t1 = NAN;
};

class GcAggregator final : public GcEventSink {
 public:
  GcAggregator() { std::fill(std::begin(type_pause_name_), std::end(type_pause_name_), UINT32_MAX); }

  void on_event(const GcEvent& event) override;
  void on_safepoint(const SafepointEvent& event) override;
  void on_unparsed(uint32_t member, uint64_t line, std::string_view text) override;
  void on_application_time(uint32_t member, double uptime_s, double seconds) override;
  void on_stall(uint32_t member, uint64_t line, double uptime_s, double seconds, bool relocation) override;

  // A member's (merged) diary; the first one with a value wins for scalar fields.
  void merge_diary(const Diary& d);
  // The diary the parser is filling while it feeds us (nullptr when none): the configured max heap
  // is read from it at each event (it comes from the log's header, before the events).
  void set_live_diary(const Diary* d) { live_diary_ = d; }
  // The unified/legacy verdict and what was identified but not parsed, per member.
  void note_member(const std::string& path, const char* dialect, bool parsed);

  // Puts the records still waiting for their time order into the columns (and sorts the columns
  // if a record came too late for the window). Call when the input ends, before merge_from,
  // write_report or a question; more input after it is not supported.
  void flush();
  // Appends everything another (flushed) aggregator collected: its rows after ours, names
  // re-interned, tallies added. Rotating sets: one aggregator per member, the selected members
  // merged at the end in rank order.
  void merge_from(const GcAggregator& other);
  // Becomes a copy of `other` that reads on by itself: the same rows, tallies and records waiting
  // for their time order, with name lookups over its own names and no live diary. A followed log's
  // report is written from such a copy while the original takes more lines.
  void copy_from(const GcAggregator& other);

  // The report: the whole-log summary, findings, diary and the first screen (a decimated series and
  // the first page of the event table; without them when set_with_series(false)).
  void write_report(nlohmann::json& report);
  void set_with_series(bool on) { with_series_ = on; }

  // ---- questions (queries.cpp), after flush() ----
  // Every KPI of the events, pauses and safepoints that start in [t0, t1] (NaN, NaN: the whole
  // log, records without a time included): the report's fields of the same names.
  nlohmann::json summary(double t0, double t1) const;
  // The chart series of [t0, t1] for a chart `width` pixels wide: every record when they are few;
  // else, per pixel column, a row of the minima and a row of the maxima of each figure.
  // `pools`: the pools whose figures the heap chart gets (nullopt: every pool the log printed).
  nlohmann::json series(double t0, double t1, int width,
                        const std::optional<std::vector<std::string>>& pools = std::nullopt) const;
  // One page of the event table over every event of [t0, t1] that matches the filter. The order of
  // the last question is kept, so the next page of the same order is a slice of it.
  nlohmann::json events_page(const EventPageQuery& q) const;

  // ---- tables (tables.cpp, docs/TABLES.md), after flush() ----
  // Rows of table `name` (gc_events, pauses, phases, safepoints or heap_pools), each naming its
  // member's path (`members[i]`: the path of member i); false for any other name.
  bool write_table(const std::string& name, const std::vector<std::string>& members, tables::RowSink& sink) const;

  // Builds the index range questions read (it is otherwise built by the first of them).
  void prepare() const { range_index(); }
  // What the session holds: rows and bytes of each stream and of the range index (benchmarks, tests).
  nlohmann::json storage() const;

  const GcColumns& columns() const { return cols_; }
  size_t event_count() const { return cols_.events.size(); }

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
  // An event, pause or safepoint waiting in its TimeOrder window.
  struct EventRow {
    int64_t t, wall_ms, duration, paused, heap[3], pool[kPoolCount][2], allocated, line, gc_id, flags, cause;
    uint32_t member;
    uint8_t type;
    std::vector<std::pair<uint32_t, int64_t>> phases;  // (name, ns or kNull)
  };
  struct PauseRow {
    int64_t t, duration, line, gc_id, cause;
    uint32_t name, member;
    uint8_t type;
  };
  struct SafepointRow {
    int64_t t, stopped, reaching;
    uint32_t member;
  };
  // Everything summary() reports about a time range, before rounding to JSON (queries.cpp).
  struct Totals {
    int64_t count = 0, total = 0, max = 0;
  };
  struct RangeTotals {
    double t0 = NAN, t1 = NAN;       // the range asked (NaN: whole log)
    double first = NAN, last = NAN;  // the time the figures are over (runtime = last - first)
    uint64_t events = 0;
    std::vector<uint64_t> by_type;  // per GcType
    uint64_t pauses = 0;
    int64_t pause_total = 0, pause_min = 0, pause_max = 0, p50 = 0, p90 = 0, p99 = 0, p999 = 0, median = 0;  // ns
    PauseHistogram histogram;
    std::vector<Totals> causes;  // per cause: events, their paused ns
    std::vector<Totals> kinds;   // per phase name: pauses of that kind (count, ns, max ns)
    std::vector<Totals> phases;  // per phase name: event phases and pauses
    int64_t max_before = IntColumn::kNull, max_after = IntColumn::kNull, max_committed = IntColumn::kNull,
            max_meta = IntColumn::kNull;  // KiB
    int64_t allocated_kb = 0, promoted_kb = 0;
    bool any_old = false;
    uint64_t safepoints = 0;
    int64_t sp_total = 0, sp_max = 0, reach_max = 0;  // ns
    double runtime() const;

    // One event, pause, phase or safepoint of the range: summarize() reads them from the columns,
    // and while the log is read emit_*() add each one to the whole log's totals.
    struct EventFigures {
      int64_t type, cause, paused, before, after, committed, meta_before, meta_after, old_before, old_after, allocated;
    };
    void add_event(const EventFigures& f);
    void add_phase(int64_t name, int64_t ns);
    void add_pause(int64_t name, int64_t ns);
    void add_safepoint(int64_t stopped, int64_t reaching);
    // Adds the figures of records that are not in this range's yet (a block of the range index).
    void merge(const RangeTotals& o);
    // The percentiles, median and extremes of the range's pause durations, from the durations
    // themselves (reordered), or from a function giving the k-th smallest (k < pauses).
    void rank_pauses(std::vector<int64_t>& durations);
    void rank_pauses_by(const std::function<int64_t(size_t)>& kth);
  };
  // The index that bounds the work of a range question (range_index.h); built on the first one.
  friend struct RangeIndex;
  const RangeIndex* range_index() const;
  // The records of rows [begin, end) of one stream that `span` holds, added to `s`.
  void scan_events(size_t begin, size_t end, const Span& span, RangeTotals& s) const;
  void scan_pauses(size_t begin, size_t end, const Span& span, RangeTotals& s, std::vector<int64_t>* durations) const;
  void scan_safepoints(size_t begin, size_t end, const Span& span, RangeTotals& s) const;
  // The same from the index: whole blocks' totals, the rows of the partial blocks at both ends.
  void sum_events(const RangeIndex& index, const Span& span, RangeTotals& s) const;
  void sum_pauses(const RangeIndex& index, const Span& span, RangeTotals& s) const;
  void sum_safepoints(const RangeIndex& index, const Span& span, RangeTotals& s) const;

  GcAggregator& operator=(const GcAggregator&) = default;  // copy_from() repairs the name lookups
  uint32_t intern_cause(std::string_view cause);
  uint32_t intern_phase(std::string_view name);
  uint32_t intern_phase_at(std::vector<uint32_t>& seen, size_t k, std::string_view name);
  void emit_event(const EventRow& row);
  void emit_pause(const PauseRow& row);
  void emit_safepoint(const SafepointRow& row);
  void sort_late_streams();
  void append_events(const GcColumns::Events& from, const std::vector<int32_t>& cause_map,
                     const std::vector<uint32_t>& phase_map);

  // queries.cpp
  void summarize(double t0, double t1, RangeTotals& out) const;
  nlohmann::json summary_json(const RangeTotals& s) const;
  // The log's time span: the diary's stamped lines, else the events' (NaN when there is none).
  std::pair<double, double> log_time_range() const;
  // event_pages.cpp
  struct PageOrder;
  PageOrder first_page_rows(EventFilter& keep, const std::string& sort, const IntColumn* column, bool desc,
                            size_t cap) const;
  nlohmann::json event_row(size_t i, const std::vector<int>& pools, bool wall) const;
  // tables.cpp
  void write_event_rows(const std::vector<std::string>& members, tables::RowSink& sink) const;
  void write_pause_rows(const std::vector<std::string>& members, tables::RowSink& sink) const;
  void write_phase_rows(const std::vector<std::string>& members, tables::RowSink& sink) const;
  void write_pool_rows(const std::vector<std::string>& members, tables::RowSink& sink) const;
  // findings.cpp
  void write_findings(nlohmann::json& out, const RangeTotals& whole) const;
  void write_trend_and_logging_findings(nlohmann::json& out, const RangeTotals& whole) const;
  // A flag of the merged diary (kUnknown when the log did not say).
  Tri diary_flag(const char* name) const;
  // Pauses longer than `limit` seconds: how many, the earliest line, the longest (findings).
  void pauses_above(double limit, uint64_t& count, uint64_t& first_line, double& worst) const;

  GcColumns cols_;
  // The whole log's totals, added up as the rows reach the columns (until a merge: then the report
  // reads them from the columns).
  RangeTotals whole_totals_;
  bool whole_totals_kept_ = true;
  nlohmann::json whole_;  // summary() of the whole log, kept from write_report()
  // Per-block totals and the pause durations' wavelet matrix (null until a range question; rows
  // never change once it exists: flush, merge_from and copy_from drop it).
  mutable std::shared_ptr<const RangeIndex> range_index_;
  // The events of the last events_page() order, in that order: all of them, or the first rows of
  // the order when a page near its start was asked (a selection instead of a sort of every event).
  struct PageOrder {
    std::string key;
    std::vector<uint32_t> rows;
    size_t total = 0;  // events in the order (rows holds them all unless it is shorter)
  };
  mutable PageOrder page_order_;
  TimeOrder<EventRow> event_order_;
  TimeOrder<PauseRow> pause_order_;
  TimeOrder<SafepointRow> safepoint_order_;

  // ---- running tallies (findings, and the allocation, which follows arrival order) ----
  double prev_after_ = kUnknown;                           // heap after the previous event of this member (allocation)
  double ev_first_t_ = kUnknown, ev_last_end_ = kUnknown;  // time range when the diary has none
  uint64_t cpu_events_ = 0, sys_heavy_ = 0, first_sys_heavy_line_ = 0;
  uint32_t type_pause_name_[static_cast<size_t>(GcType::kCount)];
  Tally explicit_gc_, system_gc_, evacuation_failure_, humongous_, full_not_explicit_, full_stw_, degenerated_,
      metaspace_gc_, gclocker_, mark_aborted_, late_concurrent_, full_after_gc_;
  uint64_t stw_events_ = 0;
  std::vector<double> system_gc_times_;  // uptimes of System.gc() collections (the hourly RMI pattern)
  uint64_t min_pause_line_ = 0;

  // ---- safepoints ----
  uint64_t sp_first_line_ = 0, slow_sp_ = 0, slow_sp_first_line_ = 0;
  bool have_sp_ = false;
  double slow_sp_worst_ = 0, app_time_total_ = 0;

  // ---- stalls (ZGC) ----
  uint64_t alloc_stalls_ = 0, reloc_stalls_ = 0;
  double alloc_stall_total_ = 0, alloc_stall_max_ = 0, reloc_stall_total_ = 0;
  uint64_t first_alloc_stall_line_ = 0, first_reloc_stall_line_ = 0;

  // ---- interned names: stored once in a deque (stable addresses), looked up by string_view hash ----
  std::deque<std::string> causes_;
  std::unordered_map<std::string_view, uint32_t> cause_index_;
  std::vector<uint16_t> cause_class_;
  int32_t last_cause_ = -1;  // the previous event's cause (most repeat it)
  // The phase index seen at each position of the previous event's phases (and pauses within): events of
  // one collector list the same phases in the same order, so a compare with the name there replaces
  // hashing it, which runs for every phase of every event.
  std::vector<uint32_t> phase_at_;
  std::vector<uint32_t> pause_within_at_;
  std::deque<std::string> phases_;
  std::unordered_map<std::string_view, uint32_t> phase_index_;

  // ---- unparsed lines ----
  uint64_t unparsed_ = 0;
  struct Sample {
    uint32_t member;
    uint64_t line;
    std::string text;
  };
  std::vector<Sample> unparsed_samples_;

  Diary diary_;
  bool have_diary_ = false;
  const Diary* live_diary_ = nullptr;
  nlohmann::json members_ = nlohmann::json::array();
  bool with_series_ = true;
};

}  // namespace gcscope::jvm
