#include "rubygc/tables.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "core/gc_cycles_table.h"
#include "rubygc/queries.h"

namespace gcscope::rubygc {

namespace {

using tables::RowWriter;
using tables::Schema;
using tables::Type;

const Schema& samples_schema() {
  static const Schema s{
      "gc_samples",
      "One row per sample of a TuneMyGC payload (payload elements 1, 2, ...), in the payload's order.",
      {{"input", Type::kString, "", "the payload file (or archive member) the sample came from"},
       {"sample", Type::kInt64, "", "the sample's position among the payload's samples, 0 for the first"},
       {"t_s", Type::kFloat64, "s", "the sample's timestamp as the agent recorded it, in seconds"},
       {"ts", Type::kTimestamp, "",
        "absolute time: a timestamp past 2001 is Unix-epoch seconds (TuneMyGC's agent); a monotonic clock's (gcscope's recorder) is null"},
       {"event", Type::kString, "",
        "BOOTED, PROCESSING_STARTED, PROCESSING_ENDED, GC_CYCLE_STARTED, GC_CYCLE_ENDED or TERMINATED"},
       {"thread", Type::kInt64, "", "the recording thread's id (null when the payload's layout has none)"},
       {"rss_bytes", Type::kInt64, "B", "the process's resident set size"},
       {"peak_rss_bytes", Type::kInt64, "B", "the process's peak resident set size (maxrss)"},
       {"gc_count", Type::kInt64, "", "GC.stat count: GCs so far (null when this Ruby has no such key)"},
       {"minor_gc_count", Type::kInt64, "", "GC.stat minor_gc_count (null when this Ruby has no such key)"},
       {"major_gc_count", Type::kInt64, "", "GC.stat major_gc_count (null when this Ruby has no such key)"},
       {"heap_live_slots", Type::kInt64, "", "GC.stat heap_live_slots (heap_live_slot on Ruby 2.1)"},
       {"total_allocated_objects", Type::kInt64, "",
        "GC.stat total_allocated_objects (total_allocated_object on Ruby 2.1)"}}};
  return s;
}

// The fixed columns of tuner_samples, gc_samples' columns of these names (one int64 column per GC.stat
// key follows them): picked by name, so a column added to gc_samples does not shift them. Built once.
constexpr const char* kTunerFixedColumns[] = {"input", "sample", "t_s", "ts", "event", "thread"};

const std::vector<tables::Column>& tuner_fixed_columns() {
  static const std::vector<tables::Column> columns = [] {
    const Schema& g = samples_schema();
    std::vector<tables::Column> out;
    for (const char* name : kTunerFixedColumns) {
      const int k = g.find(name);
      if (k < 0) throw std::logic_error(std::string("gc_samples has no column ") + name + " for tuner_samples");
      out.push_back(g.columns[static_cast<size_t>(k)]);
    }
    return out;
  }();
  return columns;
}

const Schema& stat_schema() {
  static const Schema s{
      "gc_stat",
      "One row per GC.stat value of each sample: every key the payload's header lists, in its order.",
      {{"input", Type::kString, "", "the payload file (or archive member) the sample came from"},
       {"sample", Type::kInt64, "", "the sample's position among the payload's samples (gc_samples.sample)"},
       {"key", Type::kString, "", "the GC.stat key as the header names it (header[11])"},
       {"value", Type::kInt64, "", "its value in that sample"}}};
  return s;
}

const Schema& units_schema() {
  static const Schema s{
      "units_of_work",
      "One row per unit of work (request or job): a thread's PROCESSING_STARTED and the PROCESSING_ENDED that "
      "closed it, ordered by start. The GC and allocation figures are the GC.stat counters' change from the "
      "start sample to the end sample.",
      {{"input", Type::kString, "", "the payload file (or archive member) the unit came from"},
       {"unit", Type::kInt64, "", "the unit's position among the payload's units in start order, 0 for the first"},
       {"thread", Type::kInt64, "", "the recording thread's id (null when the payload's layout has none)"},
       {"label", Type::kString, "",
        "controller#action from the end sample's meta hash, else the start's (null without one)"},
       {"start_sample", Type::kInt64, "", "the PROCESSING_STARTED sample (gc_samples.sample)"},
       {"end_sample", Type::kInt64, "", "the PROCESSING_ENDED sample (gc_samples.sample)"},
       {"t_s", Type::kFloat64, "s", "the start's timestamp as the agent recorded it, in seconds"},
       {"end_t_s", Type::kFloat64, "s", "the end's timestamp as the agent recorded it, in seconds"},
       {"ts", Type::kTimestamp, "", "the start as an absolute time (null on a monotonic clock, as gc_samples.ts)"},
       {"end_ts", Type::kTimestamp, "", "the end as an absolute time (null on a monotonic clock)"},
       {"duration_ms", Type::kFloat64, "ms", "end_t_s - t_s"},
       {"allocations", Type::kInt64, "", "total_allocated_objects gained (null when this Ruby has no such key)"},
       {"gcs", Type::kInt64, "", "GC.stat count gained: GCs during the unit (null when this Ruby has no such key)"},
       {"minor_gcs", Type::kInt64, "", "minor_gc_count gained (null when this Ruby has no such key)"},
       {"major_gcs", Type::kInt64, "", "major_gc_count gained (null when this Ruby has no such key)"},
       {"gc_time_ms", Type::kInt64, "ms", "GC.stat time gained (Ruby >= 3.1; null before)"}}};
  return s;
}

const Schema& cycles_schema() {
  static const Schema s = tables::gc_cycles_schema(
      {/*table*/ "One row per interval between two samples in which minor_gc_count or major_gc_count rose (the GC "
                 "band of the payload's timeline), in time order; an interval where both rose has a row of each kind.",
       /*input*/ "the payload file (or archive member)",
       /*cycle*/ "the row's position in time order, from 0",
       /*t_s*/ "the timestamp of the sample written before the rise: the GCs ran after it",
       /*ts*/ "t_s as an absolute time (null on a monotonic clock, as gc_samples.ts)",
       /*duration_ms*/
       "GC.stat time gained from this interval until the next row's (a lazy sweep adds after the counter rose); "
       "null before Ruby 3.1 and for the minor row of an interval that also has a major one",
       /*mark_ms*/ "null: a payload has no per-GC marking time",
       /*sweep_ms*/ "null: a payload has no per-GC sweeping time",
       /*kind*/ "minor or major: which counter rose",
       /*gcs*/ "how far that counter rose: the GCs of this kind the interval holds",
       /*window_s*/ "the interval's length: the GCs ran between t_s and t_s + window_s"});
  return s;
}

RowWriter& stat_cell(RowWriter& w, const Payload& p, size_t i, int column) {
  return p.has(column) ? w.i64(p.at(i, column)) : w.null();
}

// A GC.stat counter's change from sample `from` to sample `to` (null without the key).
RowWriter& stat_gain(RowWriter& w, const Payload& p, size_t from, size_t to, int column) {
  const std::optional<int64_t> gained = p.gain(from, to, column);
  return gained ? w.i64(*gained) : w.null();
}

RowWriter& time_cells(RowWriter& w, double t) { return is_wall_clock(t) ? w.ts_ms(t * 1000.0) : w.null(); }

void write_cycles(const Payload& p, const std::string& input, tables::RowSink& sink) {
  RowWriter w(cycles_schema(), sink);
  int64_t cycle = 0;
  for (const GcBand& b : gc_bands(p)) {
    time_cells(w.str(input).i64(cycle++).f64(b.start), b.start).f64(b.gc_ms).null().null();
    w.str(b.major ? "major" : "minor").i64(static_cast<int64_t>(b.gcs)).f64(b.span).end_row();
  }
}

void write_units(const Payload& p, const std::string& input, tables::RowSink& sink) {
  RowWriter w(units_schema(), sink);
  const StatColumns& c = p.col;
  int64_t unit = 0;
  for (const Unit& u : pair_units(p).units) {
    const std::string label = unit_label(p, u);
    w.str(input).i64(unit++).i64_or_null(u.thread, u.thread != Payload::kNoThread).str_or_null(label, !label.empty());
    w.i64(static_cast<int64_t>(u.start)).i64(static_cast<int64_t>(u.end)).f64(p.ts[u.start]).f64(p.ts[u.end]);
    time_cells(w, p.ts[u.start]);
    time_cells(w, p.ts[u.end]);
    w.f64((p.ts[u.end] - p.ts[u.start]) * 1000.0);
    for (int column : {c.total_allocated, c.count, c.minor, c.major, c.time}) stat_gain(w, p, u.start, u.end, column);
    w.end_row();
  }
}

// The GC.stat keys that get a column of tuner_samples: the header's keys with values in every
// sample, in header order, except an empty name or one a column already has (a malformed header's
// repeat): those values stay in gc_stat only.
std::vector<size_t> key_columns(const Payload& p) {
  std::vector<size_t> out;
  std::vector<std::string> names;
  for (const auto& c : tuner_fixed_columns()) names.push_back(c.name);
  for (size_t k = 0; k < std::min(p.width, p.header.stat_keys.size()); ++k) {
    const std::string& key = p.header.stat_keys[k];
    if (key.empty() || std::find(names.begin(), names.end(), key) != names.end()) continue;
    names.push_back(key);
    out.push_back(k);
  }
  return out;
}

tables::Column tuner_key_column(const std::string& key) {
  return {key, Type::kInt64, "",
          "this GC.stat key's value in the sample (null for a payload whose Ruby has no such key)"};
}

// keys: key_columns(p).
Schema tuner_samples_schema(const Payload& p, const std::vector<size_t>& keys) {
  Schema s{kTunerSamples,
           "One row per sample of a TuneMyGC payload, in the payload's order: the sample's event and thread, then "
           "every GC.stat key of the payload's header as a column, in header order.",
           tuner_fixed_columns()};
  for (size_t k : keys) s.columns.push_back(tuner_key_column(p.header.stat_keys[k]));
  return s;
}

void write_tuner_samples(const Payload& p, const std::string& input, size_t n, tables::RowSink& sink) {
  const std::vector<size_t> keys = key_columns(p);
  const Schema schema = tuner_samples_schema(p, keys);
  RowWriter w(schema, sink);
  for (size_t i = 0; i < n; ++i) {
    w.str(input).i64(static_cast<int64_t>(i)).f64(p.ts[i]);
    time_cells(w, p.ts[i]);
    w.str(event_name(p.event[i])).i64_or_null(p.thread[i], p.thread[i] != Payload::kNoThread);
    for (size_t k : keys) w.i64(p.stat[i * p.width + k]);
    w.end_row();
  }
}

}  // namespace

std::vector<tables::Schema> payload_tables(const Payload& p) {
  return {samples_schema(), tuner_samples_schema(p, key_columns(p)), stat_schema(), units_schema(), cycles_schema()};
}

bool write_payload_table(const Payload& p, const std::string& input, const std::string& name, tables::RowSink& sink) {
  const size_t n = p.complete_samples();
  if (name == samples_schema().name) {
    RowWriter w(samples_schema(), sink);
    for (size_t i = 0; i < n; ++i) {
      w.str(input).i64(static_cast<int64_t>(i)).f64(p.ts[i]);
      time_cells(w, p.ts[i]);
      w.str(event_name(p.event[i]));
      w.i64_or_null(p.thread[i], p.thread[i] != Payload::kNoThread).i64(p.rss[i]).i64(p.peak_rss[i]);
      stat_cell(w, p, i, p.col.count);
      stat_cell(w, p, i, p.col.minor);
      stat_cell(w, p, i, p.col.major);
      stat_cell(w, p, i, p.col.heap_live);
      stat_cell(w, p, i, p.col.total_allocated);
      w.end_row();
    }
    return true;
  }
  if (name == kTunerSamples) {
    write_tuner_samples(p, input, n, sink);
    return true;
  }
  if (name == stat_schema().name) {
    RowWriter w(stat_schema(), sink);
    const size_t keys = std::min(p.width, p.header.stat_keys.size());
    for (size_t i = 0; i < n; ++i)
      for (size_t k = 0; k < keys; ++k)
        w.str(input).i64(static_cast<int64_t>(i)).str(p.header.stat_keys[k]).i64(p.stat[i * p.width + k]).end_row();
    return true;
  }
  if (name == cycles_schema().name) {
    write_cycles(p, input, sink);
    return true;
  }
  if (name == units_schema().name) {
    write_units(p, input, sink);
    return true;
  }
  return false;
}

}  // namespace gcscope::rubygc
