// The tracing domain's report model, shared by the five analyzers (bpftrace text/JSON, BCC, folded
// stacks, perf script). Everything a view needs is computed here once: maps as printed, histograms
// with percentile *buckets* (log2/linear buckets cannot give more), per-probe latency tables (exact
// when the input is an event stream), a columnar stack table for the flame graph, rates over time and
// a tracer-overhead estimate.
//
// bpftrace prints u64 and i64 values; anything beyond 2^53 is written to the report as a string so
// that the page (JSON.parse) never rounds it.
#pragma once
#include <cstdint>
#include <deque>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profile/stack_queries.h"

namespace gcscope::tracing {

// The frame of a sample whose stack has no frame: what perf script prints for a frame it cannot
// name, which stackcollapse-perf.pl keeps as is.
inline constexpr std::string_view kNoStackFrame = "[unknown]";

// An exact bpftrace integer: the full u64 range and the full i64 range.
struct Int {
  uint64_t mag = 0;
  bool neg = false;
  double as_double() const { return neg ? -static_cast<double>(mag) : static_cast<double>(mag); }
  bool operator<(const Int& o) const {
    if (neg != o.neg) return neg;
    return neg ? mag > o.mag : mag < o.mag;
  }
  bool operator==(const Int& o) const { return mag == o.mag && (neg == o.neg || mag == 0); }
};
// Parses a whole string "-42" / "18446744073709551615"; false when it is not an integer or overflows.
bool parse_int(std::string_view s, Int& out);
nlohmann::json int_json(Int v);  // number when |v| <= 2^53, else its decimal string
nlohmann::json u64_json(uint64_t v);

struct Bucket {
  bool has_lo = true, has_hi = true;  // false: "(..., x)" underflow / "[x, ...)" overflow
  Int lo, hi;                         // hi INCLUSIVE
  uint64_t count = 0;
};

struct Histogram {
  std::vector<Bucket> buckets;
  uint64_t total = 0;
  bool valid = true;        // false when the buckets overlap or go backwards: no percentiles then
  bool headerless = false;  // rows printed without a "@name:" header
};

struct Stats {
  Int count, average, total;
};

struct TseriesPoint {
  std::string label;
  bool present = true;
  double value = 0;
};

struct MapValue {
  enum Kind { kInt, kString, kJson, kStats, kHist, kTseries } kind = kInt;
  Int i;
  std::string s;
  nlohmann::json j;
  Stats stats;
  Histogram hist;
  std::vector<TseriesPoint> points;
};

struct MapEntry {
  bool has_key = false;
  std::string key;
  MapValue value;
  int64_t line = -1;
};

// One printout of one map (a map printed every interval appears several times: snapshots).
struct MapBlock {
  std::string name;
  std::string kind;  // "map" (keyed ints/strings), "scalar", "stats", "hist", "tseries"
  std::vector<MapEntry> entries;
  int64_t line = -1;
  bool partial = false;  // cut off by the end of the input
  // A map of stacks (a key of it is a multi-line stack) counts its empty key ("@[]: N", samples with
  // no frame) as a stack too; the weight of empty keys printed before its first stack waits here.
  bool holds_stacks = false;
  double stackless_weight = 0;
};

// Hash of a whole stack text for the stack index: exact for short texts, 16 sampled 8-byte words
// (plus the length) for long ones. Equal texts hash equal, so it is a valid hash; the map's equality
// check still compares every byte. Folded lines repeat a few thousand distinct stacks of up to a few
// KiB, and hashing every byte of every line was the largest cost of reading them.
struct StackTextHash {
  size_t operator()(std::string_view s) const noexcept;
};

// Frame-name table + stacks as frame-index arrays (root first) + weights: the flame graph model.
class StackTable {
 public:
  // `frames` root first. Identical stacks are merged.
  void add(const std::vector<std::string_view>& frames, double weight, bool truncated = false);
  // Fast path for folded lines: the whole "a;b;c" text is the identity of the stack.
  void add_folded(std::string_view stack_text, double weight);
  size_t unique() const { return weights_.size(); }
  double total_weight() const { return total_; }
  size_t truncated() const { return truncated_count_; }
  uint64_t samples() const { return samples_; }
  nlohmann::json to_json(const std::string& weight_unit) const;
  // "a;b;c" of stack i (tests and the top-stacks table).
  std::string folded(size_t i) const;
  double weight(size_t i) const { return weights_[i]; }
  // Stack i: its frame indexes (root first), a frame's name, whether a string limit cut it.
  const std::vector<uint32_t>& frames_of(size_t i) const { return stacks_[i]; }
  std::string_view frame_name(uint32_t frame) const { return frame_names_[frame]; }
  uint32_t frame_count() const { return static_cast<uint32_t>(frame_names_.size()); }
  bool is_truncated(size_t i) const { return truncated_[i] != 0; }

 private:
  uint32_t intern_frame(std::string_view name);
  uint32_t find_or_add(std::string_view identity, const std::vector<uint32_t>& frames, bool truncated);
  std::deque<std::string> storage_;  // stable backing for the string_view keys below
  std::unordered_map<std::string_view, uint32_t> frame_index_;
  std::unordered_map<std::string_view, uint32_t, StackTextHash> stack_index_;
  std::vector<std::string_view> frame_names_;
  std::vector<std::vector<uint32_t>> stacks_;
  std::vector<double> weights_;
  std::vector<uint8_t> truncated_;
  size_t truncated_count_ = 0;
  double total_ = 0;
  uint64_t samples_ = 0;
  std::vector<uint32_t> scratch_;
};

// Events of one name from an event stream ("<ts> <name> <value>" printf lines): exact statistics.
struct EventSeries {
  std::string name;
  std::vector<uint64_t> values;
  std::vector<uint64_t> timestamps;  // empty when the lines carry none
};

// "usdt:/proc/24205/root/tmp/my_controller-jNudzY.so:my_controller:index" -> provider/name.
struct ProbeName {
  std::string raw, provider, name;
};
bool parse_probe_name(std::string_view raw, ProbeName& out);
// The name a probe goes by in the report: provider:name for a USDT probe path, else the key itself.
std::string probe_display_name(const std::string& key);

// Does this line look like one of Ruby's caller strings ("app.rb:25:in `block in <main>'")?
bool looks_ruby_frame(std::string_view line);
// A caller string cut by bpftrace's string limit (no closing quote of the method name).
bool ruby_frame_truncated(std::string_view line);

// Everything one analyzer found; finish() turns it into report fields.
class TraceData {
 public:
  std::string tool = "bpftrace";
  std::string tool_version;  // when visible ("<= 0.23", ">= 0.24", "0.17"...)
  int64_t attached_probes = -1;
  std::vector<MapBlock> maps;
  uint64_t events = 0;       // traced events: printf output, table rows, samples (not the tool's own records)
  uint64_t lost_events = 0;  // events the tool reported lost (bpftrace's lost_events records)
  uint64_t printf_count = 0;
  std::string printf_first, printf_last;
  uint64_t stderr_lines = 0;
  std::unordered_map<std::string, uint64_t> event_types;
  nlohmann::json other_events = nlohmann::json::array();  // first few non-map, non-printf JSON events
  nlohmann::json tables = nlohmann::json::array();        // BCC tables, as printed (rows merged)
  nlohmann::json hints = nlohmann::json::array();
  StackTable stacks;
  std::string stack_weight_unit = "samples";
  nlohmann::json extra = nlohmann::json::object();  // format-specific fields

  // Event streams: "<ts> <name> <value>" / "<name> <value>" lines; ts is nanoseconds (bpftrace's
  // nsecs) or an ISO 8601 date-time (strftime("%Y-%m-%dT%H:%M:%S.%f%z", nsecs)). Returns false when
  // the line is not of that shape (then it is only counted as printf output).
  bool add_event_line(std::string_view line);
  // One event of a named series (a value in ns; ts in ns when known).
  void add_event(std::string_view name, uint64_t value, bool has_ts, uint64_t ts);
  // Consecutive Ruby caller lines printed by a stack-tracer printf form one stack.
  void add_ruby_frame_line(std::string_view line);
  void end_ruby_stack();
  bool in_ruby_stack() const { return !pending_frames_.empty(); }
  // A multi-line map key (ustack, or a Stack-tracer string used as a key) with its count.
  bool add_stack_key(std::string_view key, double weight);
  // An integer entry of map block b: a multi-line key is a stack (add_stack_key); an empty one, in a
  // map of stacks, the one-frame stack kNoStackFrame (bpftrace prints "@[]" for a kstack/ustack with
  // no frame, e.g. a kernel-stack sample taken in user mode).
  void add_map_entry_stack(MapBlock& b, std::string_view key, double weight);

  void add_probe(std::string_view raw);
  void hint(const std::string& id, const std::string& text);

  void finish(nlohmann::json& report, const nlohmann::json& options);
  // The event streams, each in the capture's order (the events table).
  const std::vector<EventSeries>& series() const { return series_; }
  // Wall-clock time of the traced machine's boot (option boot_epoch_s): bpftrace's nsecs count from
  // it, so an event's absolute time is boot + nsecs. NaN when not given.
  double boot_epoch_s = std::numeric_limits<double>::quiet_NaN();

  // After finish(): the questions of the query protocol a tracing report answers:
  //   tracing.probe     {probe}  → {probe, row (its latency row), histograms ([{index, ...}] of the
  //                                report's histograms of that probe), events ({count, timestamps,
  //                                rate: {t0_ns, bin_s, count}} when it is an event stream)}
  //   tracing.histogram {probe, lo?, hi?, bins?}  → exact bins of an event stream's values over
  //                                [lo, hi] (default: its min and max), `bins` (1..1000, default 40)
  //                                equal integer ranges: {probe, source: "events", lo, hi, width,
  //                                bins: [{lo, hi, count}], below, above, total}
  //                     {index, lo?, hi?}  → a printed histogram's own buckets (those meeting
  //                                [lo, hi]): {index, source: "histogram", bins, total}; its values
  //                                are gone, so it cannot be binned again
  //   compare.parts     {} → {"probes": {probe: {"values": [...]} | {"buckets": [{lo, hi, count}]}}}:
  //                     what summing this capture with others needs beyond its report (compare.h,
  //                     sum_sides): an event stream's values, in capture order, or the histogram its
  //                     latency row's percentiles come from
  //   stacks.*          the shared stack questions (profile/stack_queries.h) over `stacks`
  //                     (stack_source.h); a capture without stacks says so
  // Throws QueryError for anything else.
  nlohmann::json query(const std::string& method, const nlohmann::json& args);
  static const std::vector<std::string>& query_methods();

 private:
  const EventSeries* series_of(const std::string& probe) const;
  nlohmann::json probe_detail(const std::string& probe) const;
  nlohmann::json event_bins(const std::string& probe, const EventSeries& s, const nlohmann::json& args) const;
  nlohmann::json histogram_bins(size_t index, const nlohmann::json& args) const;
  nlohmann::json slowest_probes(const nlohmann::json& latency) const;
  // Kept from finish() for the questions: the latency rows and histograms as reported, and which
  // event series each probe's display name is.
  nlohmann::json latency_ = nlohmann::json::array();
  nlohmann::json histograms_ = nlohmann::json::array();
  std::unordered_map<std::string, size_t> series_by_probe_;
  std::unordered_map<std::string, std::pair<size_t, size_t>> hist_by_probe_;  // {block, entry} in maps
  nlohmann::json compare_parts() const;
  // The stacks.* questions over `stacks`, its model built on the first of them after finish() (a
  // followed capture's stacks grow between two reports).
  nlohmann::json stack_answer(const std::string& method, const nlohmann::json& args);
  profile::StackQueries stack_queries_;
  bool stack_queries_ready_ = false;

  uint32_t series_index(std::string_view name);
  std::deque<std::string> name_storage_;
  std::unordered_map<std::string_view, uint32_t> series_index_;
  std::vector<EventSeries> series_;
  std::vector<std::string> pending_frames_;
  std::unordered_map<std::string, ProbeName> probes_;
  std::vector<std::string> probe_order_;
  nlohmann::json histograms_json(nlohmann::json& maps_out) const;
};

// Percentile helpers (exposed for tests).
// The bucket holding the p-th percentile by cumulative count (nearest rank); -1 when empty/invalid.
int percentile_bucket(const Histogram& h, int percent);
// Nearest-rank percentile of values (sorted in place).
uint64_t exact_percentile(std::vector<uint64_t>& sorted_values, int percent);

// The ISO 8601 date-time that starts s (iso8601::parse_date_time, a space allowed for the 'T'), as
// Unix-epoch nanoseconds in epoch_ns. Returns its length, 0 when s does not start with one or it is
// before 1970 or after 2262-04-11 (unsigned nanoseconds within int64's range).
size_t iso_datetime_ns(std::string_view s, uint64_t& epoch_ns);
// p50/p90/p99 (nearest rank) at once; reorders `values`.
void select_percentiles(std::vector<uint64_t>& values, uint64_t& p50, uint64_t& p90, uint64_t& p99);
// An event series' exact latency figures into `row`: calls, total, mean, min, max, p50/p90/p99
// (nearest rank; the last six only when there are values); the count per log2 bucket (65: [0],
// [1], [2, 3], ...) into `log2_counts` when given. One series or the values of several captures
// joined give the same figures for the same values.
void series_latency(const std::vector<uint64_t>& values, nlohmann::json& row,
                    std::vector<uint64_t>* log2_counts = nullptr);
// Bucket `index` of `h` as the report prints a percentile: [lo, hi] (null = unbounded); null for -1.
nlohmann::json bucket_pair(const Histogram& h, int index);

// Cost in µs of one fire of a ruby-static-tracing tracepoint, from the gem's overhead benchmark under
// bpftrace 0.17: its output never reports this cost, so overhead is estimated as fires/s x cost.
inline constexpr double kUntracedCallUs = 0.1;
inline constexpr double kTracedNothingAttachedUs = 6.0;
inline constexpr double kTracedBpftraceAttachedUs = 9.0;

}  // namespace gcscope::tracing
