#include "rubygc/tables.h"

#include <algorithm>

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

// The start of 2001 (UTC) in epoch seconds: a timestamp past it is wall-clock time (no monotonic
// clock of a machine counts 31 years), as the tracing tables read bpftrace's.
constexpr double kEpoch2001 = 978307200.0;

// Samples every column holds (a payload whose samples stopped at a problem keeps those before it).
size_t complete_samples(const Payload& p) {
  size_t n = std::min({p.n, p.ts.size(), p.event.size(), p.rss.size(), p.peak_rss.size(), p.thread.size()});
  return p.width ? std::min(n, p.stat.size() / p.width) : n;
}

RowWriter& stat_cell(RowWriter& w, const Payload& p, size_t i, int column) {
  return column < 0 || static_cast<size_t>(column) >= p.width ? w.null() : w.i64(p.at(i, column));
}

}  // namespace

std::vector<tables::Schema> payload_tables() { return {samples_schema(), stat_schema()}; }

bool write_payload_table(const Payload& p, const std::string& input, const std::string& name, tables::RowSink& sink) {
  const size_t n = complete_samples(p);
  if (name == samples_schema().name) {
    RowWriter w(samples_schema(), sink);
    for (size_t i = 0; i < n; ++i) {
      w.str(input).i64(static_cast<int64_t>(i)).f64(p.ts[i]);
      if (p.ts[i] >= kEpoch2001) w.ts_ms(p.ts[i] * 1000.0);
      else w.null();
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
  if (name == stat_schema().name) {
    RowWriter w(stat_schema(), sink);
    const size_t keys = std::min(p.width, p.header.stat_keys.size());
    for (size_t i = 0; i < n; ++i)
      for (size_t k = 0; k < keys; ++k)
        w.str(input).i64(static_cast<int64_t>(i)).str(p.header.stat_keys[k]).i64(p.stat[i * p.width + k]).end_row();
    return true;
  }
  return false;
}

}  // namespace gcscope::rubygc
