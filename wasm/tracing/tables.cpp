#include "tracing/tables.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

namespace gcscope::tracing {

namespace {

using tables::Column;
using tables::RowWriter;
using tables::Schema;
using tables::Type;

// bpftrace integers span u64 and i64; an int64 column holds what fits, the rest is null with its
// decimal text in the row's text column.
bool fits_int64(const Int& v) { return v.neg ? v.mag <= (uint64_t{1} << 63) : v.mag < (uint64_t{1} << 63); }
int64_t as_int64(const Int& v) {
  return v.neg ? static_cast<int64_t>(uint64_t{0} - v.mag) : static_cast<int64_t>(v.mag);
}
std::string decimal(const Int& v) { return (v.neg ? "-" : "") + std::to_string(v.mag); }
RowWriter& int_cell(RowWriter& w, const Int& v) { return fits_int64(v) ? w.i64(as_int64(v)) : w.null(); }

const Schema& events_schema() {
  static const Schema s{
      "events",
      "One row per event of an event stream (printf lines \"[ts] name value\", JSON printf events), in the capture's order per probe.",
      {{"input", Type::kString, "", "the capture file (or archive member) the event came from"},
       {"probe", Type::kString, "", "the event's name as printed (a probe, or a label)"},
       {"value", Type::kInt64, "", "the printed value (nanoseconds for latency probes)"},
       {"t_s", Type::kFloat64, "s",
        "the printed timestamp in seconds of the capture's clock (bpftrace nsecs: since boot); null without one"},
       {"ts", Type::kTimestamp, "",
        "absolute time: timestamps past 2001 are read as Unix-epoch nanoseconds; others need --set boot_epoch_s=S (the boot's wall-clock time)"}}};
  return s;
}

const Schema& maps_schema() {
  static const Schema s{
      "maps",
      "One row per entry of each printout of each map (a map printed every interval has several snapshots).",
      {{"input", Type::kString, "", "the capture file the map was printed in"},
       {"map", Type::kString, "", "the map's name as printed (\"@bytes\")"},
       {"kind", Type::kString, "", "map (keyed integers or strings), scalar, stats, hist or tseries"},
       {"snapshot", Type::kInt64, "", "0 for the map's first printout, 1 for its second, ..."},
       {"key", Type::kString, "", "the entry's key as printed (null for a map without keys)"},
       {"value", Type::kInt64, "", "an integer entry's value (null for other kinds or beyond the int64 range)"},
       {"text", Type::kString, "",
        "a string or JSON entry's value, an integer beyond int64 as decimal text, a tseries as JSON"},
       {"count", Type::kInt64, "", "stats: the count; hist: the number of values counted"},
       {"average", Type::kInt64, "", "stats: the average"},
       {"total", Type::kInt64, "", "stats: the total"},
       {"line", Type::kInt64, "", "1-based line of the entry (text output), null when unknown"}}};
  return s;
}

const Schema& bins_schema() {
  static const Schema s{"histogram_bins",
                        "One row per bucket of each hist()/lhist() (and DTrace quantize) entry, as printed.",
                        {{"input", Type::kString, "", "the capture file the histogram was printed in"},
                         {"map", Type::kString, "", "the histogram map's name"},
                         {"key", Type::kString, "", "the entry's key (null for a histogram without keys)"},
                         {"snapshot", Type::kInt64, "", "the map's printout, 0 for the first"},
                         {"bin", Type::kInt64, "", "the bucket's position in the histogram, from 0"},
                         {"lo", Type::kInt64, "", "the bucket's lowest value (null: unbounded below)"},
                         {"hi", Type::kInt64, "", "the bucket's highest value, inclusive (null: unbounded above)"},
                         {"count", Type::kInt64, "", "values counted in the bucket"}}};
  return s;
}

const Schema& stacks_schema() {
  static const Schema s{
      "stacks",
      "One row per distinct stack (folded stacks, perf script, stack maps, Ruby caller lines), weights summed.",
      {{"input", Type::kString, "", "the capture file the stack came from"},
       {"stack_id", Type::kInt64, "", "the stack's index in the capture (first seen first)"},
       {"weight", Type::kFloat64, "", "the stack's weight in weight_unit (samples, counts, ...)"},
       {"weight_unit", Type::kString, "", "what a weight counts"},
       {"depth", Type::kInt64, "", "frames in the stack"},
       {"root", Type::kString, "", "the outermost frame"},
       {"leaf", Type::kString, "", "the innermost frame (where the sample was taken)"},
       {"folded", Type::kString, "", "the frames root first, joined with ';' (FlameGraph's folded form)"},
       {"truncated", Type::kBool, "", "true when a string limit cut the stack's text"}}};
  return s;
}

}  // namespace

double epoch_ms_of(uint64_t ts_ns, double boot_epoch_s) {
  constexpr uint64_t kEpochNsFloor =
      1000000000000000000ULL;  // 10^18 ns: later than any monotonic clock reading of a running machine
  if (ts_ns >= kEpochNsFloor) return static_cast<double>(ts_ns) / 1e6;
  if (std::isfinite(boot_epoch_s)) return boot_epoch_s * 1e3 + static_cast<double>(ts_ns) / 1e6;
  return std::numeric_limits<double>::quiet_NaN();
}

namespace {

void write_events(const TraceData& d, const std::string& input, tables::RowSink& sink) {
  RowWriter w(events_schema(), sink);
  for (const auto& s : d.series()) {
    // A stream's timestamps belong to its values only when every line had one.
    bool timed = s.timestamps.size() == s.values.size();
    for (size_t i = 0; i < s.values.size(); ++i) {
      uint64_t v = s.values[i];
      w.str(input).str(s.name).i64_or_null(static_cast<int64_t>(v), v <= uint64_t(INT64_MAX));
      if (timed) w.f64(static_cast<double>(s.timestamps[i]) / 1e9).ts_ms(epoch_ms_of(s.timestamps[i], d.boot_epoch_s));
      else w.null().null();
      w.end_row();
    }
  }
}

void write_map_entry(RowWriter& w, const MapBlock& m, const MapEntry& e) {
  const MapValue& v = e.value;
  switch (v.kind) {
    case MapValue::kInt: int_cell(w, v.i).str_or_null(decimal(v.i), !fits_int64(v.i)).null().null().null(); break;
    case MapValue::kString: w.null().str(v.s).null().null().null(); break;
    case MapValue::kJson:
      w.null().str(v.j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)).null().null().null();
      break;
    case MapValue::kStats:
      w.null().null();
      int_cell(w, v.stats.count);
      int_cell(w, v.stats.average);
      int_cell(w, v.stats.total);
      break;
    case MapValue::kHist:
      w.null()
          .null()
          .i64_or_null(static_cast<int64_t>(v.hist.total), v.hist.total <= uint64_t(INT64_MAX))
          .null()
          .null();
      break;
    case MapValue::kTseries: {
      nlohmann::json points = nlohmann::json::array();
      for (const auto& p : v.points)
        points.push_back({p.label, p.present ? nlohmann::json(p.value) : nlohmann::json()});
      w.null().str(points.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)).null().null().null();
      break;
    }
  }
  (void)m;
  w.i64_or_null(e.line, e.line >= 0);
}

void write_maps(const TraceData& d, const std::string& input, tables::RowSink& sink, bool bins) {
  RowWriter w(bins ? bins_schema() : maps_schema(), sink);
  std::map<std::string, int64_t> snapshot_of;
  for (const auto& m : d.maps) {
    int64_t snap = snapshot_of[m.name]++;
    for (const auto& e : m.entries) {
      if (!bins) {
        w.str(input).str(m.name).str(m.kind).i64(snap).str_or_null(e.key, e.has_key);
        write_map_entry(w, m, e);
        w.end_row();
        continue;
      }
      if (e.value.kind != MapValue::kHist) continue;
      const auto& buckets = e.value.hist.buckets;
      for (size_t b = 0; b < buckets.size(); ++b) {
        const Bucket& k = buckets[b];
        w.str(input).str(m.name).str_or_null(e.key, e.has_key).i64(snap).i64(static_cast<int64_t>(b));
        if (k.has_lo) int_cell(w, k.lo);
        else w.null();
        if (k.has_hi) int_cell(w, k.hi);
        else w.null();
        w.i64_or_null(static_cast<int64_t>(k.count), k.count <= uint64_t(INT64_MAX)).end_row();
      }
    }
  }
}

void write_stacks(const TraceData& d, const std::string& input, tables::RowSink& sink) {
  RowWriter w(stacks_schema(), sink);
  const StackTable& t = d.stacks;
  for (size_t i = 0; i < t.unique(); ++i) {
    const auto& frames = t.frames_of(i);
    bool any = !frames.empty();
    w.str(input)
        .i64(static_cast<int64_t>(i))
        .f64(t.weight(i))
        .str(d.stack_weight_unit)
        .i64(static_cast<int64_t>(frames.size()));
    w.str_or_null(any ? t.frame_name(frames.front()) : std::string_view(), any);
    w.str_or_null(any ? t.frame_name(frames.back()) : std::string_view(), any);
    w.str(t.folded(i)).boolean(t.is_truncated(i)).end_row();
  }
}

}  // namespace

std::vector<tables::Schema> trace_tables() { return {events_schema(), maps_schema(), bins_schema(), stacks_schema()}; }

bool write_trace_table(const TraceData& data, const std::string& input, const std::string& name,
                       tables::RowSink& sink) {
  if (name == "events") write_events(data, input, sink);
  else if (name == "maps") write_maps(data, input, sink, false);
  else if (name == "histogram_bins") write_maps(data, input, sink, true);
  else if (name == "stacks") write_stacks(data, input, sink);
  else return false;
  return true;
}

}  // namespace gcscope::tracing
