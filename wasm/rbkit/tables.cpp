// rbkit's tables: what the capture decoder keeps of a capture, as rows (events from its EventLog,
// the others from its aggregates). rbkit stamps every event
// with wall-clock milliseconds, so the capture's own clock is the Unix epoch: `t_s` is epoch
// seconds and `ts` the same instant.
#include <algorithm>
#include <cstdint>

#include "core/gc_cycles_table.h"
#include "rbkit/capture.h"

namespace gcscope::rbkit {

namespace {

using tables::RowWriter;
using tables::Schema;
using tables::Type;

const char* const kInput = "the capture file (or archive member)";

const Schema& events_schema() {
  static const Schema s{
      "rbkit_events",
      "One row per event of the capture (top-level messages and the events inside event_collections, whose "
      "wrappers are not events), in the order they were read.",
      {{"input", Type::kString, "", kInput},
       {"event", Type::kInt64, "", "the event's position in the capture, from 0"},
       {"t_s", Type::kFloat64, "s", "the event's timestamp in seconds since the Unix epoch (rbkit's clock)"},
       {"ts", Type::kTimestamp, "", "the event's timestamp"},
       {"type", Type::kString, "",
        "obj_created, obj_destroyed, gc_start, gc_end_m, gc_end_s, object_space_dump, gc_stats, handshake or "
        "cpu_sample"},
       {"object_id", Type::kInt64, "", "obj_created and obj_destroyed: the object's id; null for other events"},
       {"class", Type::kString, "",
        "obj_created: the class_name rbkit sent; obj_destroyed: that of the object's latest obj_created in the "
        "capture; null when nil, for an object created before the capture, and for other events"},
       {"correlation_id", Type::kInt64, "",
        "object_space_dump: the snapshot's correlation_id (snapshots.correlation_id), null when absent"},
       {"objects", Type::kInt64, "", "object_space_dump: the objects this chunk carried; null for other events"},
       {"frames", Type::kInt64, "", "cpu_sample: the frames of the sampled stack; null for other events"}}};
  return s;
}

const Schema& object_rates_schema() {
  static const Schema s{
      "object_rates",
      "One row per time bin (a second, coarser for captures spanning years) and class of the capture's obj_created "
      "and obj_destroyed events, in time order.",
      {{"input", Type::kString, "", kInput},
       {"t_s", Type::kFloat64, "s", "the bin's start in seconds since the Unix epoch (rbkit's clock)"},
       {"ts", Type::kTimestamp, "", "the bin's start"},
       {"bin_s", Type::kFloat64, "s",
        "the bin's width: 1, or more when the events fall in more than 100,000 distinct seconds"},
       {"class", Type::kString, "",
        "the objects' class; \"(created before the capture)\" for destroyed objects whose creation was not captured"},
       {"created", Type::kInt64, "", "obj_created events of the class in the bin"},
       {"destroyed", Type::kInt64, "", "obj_destroyed events of the class in the bin"}}};
  return s;
}

const Schema& gc_cycles_schema() {
  static const Schema s = tables::gc_cycles_schema(
      {/*table*/ "One row per gc_start event, in time order, with the gc_end_m and gc_end_s that closed its cycle.",
       /*input*/ kInput,
       /*cycle*/ "the cycle's position in time order, from 0",
       /*t_s*/ "gc_start in seconds since the Unix epoch",
       /*ts*/ "gc_start",
       /*duration_ms*/ "gc_start to gc_end_s; null for a cycle the capture never closed",
       /*mark_ms*/ "gc_start to gc_end_m (marking); null without a gc_end_m",
       /*sweep_ms*/ "gc_end_m to gc_end_s (sweeping); null without both",
       /*kind*/ "null: rbkit does not say whether a GC was minor or major",
       /*gcs*/ "1: each row is one GC",
       /*window_s*/ "null: t_s is the GC's own start"});
  return s;
}

const Schema& cpu_samples_schema() {
  static const Schema s{"cpu_samples",
                        "One row per cpu_sample event, in the capture's order, with its innermost frame.",
                        {{"input", Type::kString, "", kInput},
                         {"sample", Type::kInt64, "", "the sample's position, from 0"},
                         {"t_s", Type::kFloat64, "s", "when it was taken, in seconds since the Unix epoch"},
                         {"ts", Type::kTimestamp, "", "when it was taken"},
                         {"leaf", Type::kString, "", "the innermost frame's label, null for an empty stack"},
                         {"file", Type::kString, "", "the innermost frame's file, null when unknown"},
                         {"line", Type::kInt64, "", "the innermost frame's line, null when unknown"}}};
  return s;
}

const Schema& snapshots_schema() {
  static const Schema s{
      "snapshots",
      "One row per object_space_dump snapshot (the chunks sharing a correlation_id), in the capture's order.",
      {{"input", Type::kString, "", kInput},
       {"snapshot", Type::kInt64, "", "the snapshot's position, from 0"},
       {"correlation_id", Type::kInt64, "", "the correlation_id its chunks share, null when absent"},
       {"t_s", Type::kFloat64, "s", "its first chunk's timestamp in seconds since the Unix epoch"},
       {"ts", Type::kTimestamp, "", "its first chunk's timestamp"},
       {"chunks", Type::kInt64, "", "object_space_dump messages it came in"},
       {"objects", Type::kInt64, "", "objects read"},
       {"announced_objects", Type::kInt64, "",
        "the objects rbkit announced (complete_message_count), null when absent"},
       {"bytes", Type::kInt64, "B", "the objects' sizes summed (objects without a size count 0)"},
       {"references", Type::kInt64, "", "references the objects list"},
       {"complete", Type::kBool, "", "every announced object arrived and no chunk was cut short"}}};
  return s;
}

RowWriter& time_cells(RowWriter& w, double ms) { return w.f64(ms / 1000.0).ts_ms(ms); }

}  // namespace

std::vector<tables::Schema> CaptureDecoder::table_schemas() {
  return {events_schema(), object_rates_schema(), gc_cycles_schema(), cpu_samples_schema(), snapshots_schema()};
}

bool CaptureDecoder::write_table(const std::string& input, const std::string& name, tables::RowSink& sink) const {
  if (name == "rbkit_events") {
    RowWriter w(events_schema(), sink);
    int64_t n = 0;
    events_.for_each([&](const EventLog::Event& e) {
      time_cells(w.str(input).i64(n++), e.ts_ms).str(event_type_name(e.type));
      w.i64_or_null(static_cast<int64_t>(e.id), e.has_id && e.id <= uint64_t(INT64_MAX));
      w.str_or_null(classes_.shown(e.cls), e.cls != 0);
      w.i64_or_null(static_cast<int64_t>(e.corr), e.has_corr && e.corr <= uint64_t(INT64_MAX));
      w.i64_or_null(static_cast<int64_t>(e.count), e.has_count && e.type == kObjectSpaceDump);
      w.i64_or_null(static_cast<int64_t>(e.count), e.has_count && e.type == kCpuSample).end_row();
    });
  } else if (name == "object_rates") {
    RowWriter w(object_rates_schema(), sink);
    for (const auto& [sec, bin] : bins_)
      for (const auto& c : bin.by_class) {
        time_cells(w.str(input), static_cast<double>(sec) * 1000.0).f64(static_cast<double>(bin_width_));
        w.str(c.cls == kBeforeCapture ? std::string("(created before the capture)") : classes_.shown(c.cls));
        w.i64(c.created).i64(c.destroyed).end_row();
      }
  } else if (name == "gc_cycles") {
    // Closed cycles, then the starts no gc_end_s closed, in start order.
    std::vector<GcCycle> all = cycles_;
    for (double start : unclosed_start_ms_) all.push_back({start, -1, -1});
    if (trailing_open_gc_) all.push_back({open_.start_ms, open_.mark_end_ms, -1});
    std::stable_sort(all.begin(), all.end(),
                     [](const GcCycle& a, const GcCycle& b) { return a.start_ms < b.start_ms; });
    RowWriter w(gc_cycles_schema(), sink);
    for (size_t i = 0; i < all.size(); ++i) {
      const GcCycle& c = all[i];
      bool closed = c.end_ms >= 0, marked = c.mark_end_ms >= 0;
      time_cells(w.str(input).i64(static_cast<int64_t>(i)), c.start_ms);
      closed ? w.f64(c.end_ms - c.start_ms) : w.null();
      marked ? w.f64(c.mark_end_ms - c.start_ms) : w.null();
      closed&& marked ? w.f64(c.end_ms - c.mark_end_ms) : w.null();
      w.null().i64(1).null().end_row();
    }
  } else if (name == "cpu_samples") {
    RowWriter w(cpu_samples_schema(), sink);
    for (size_t i = 0; i < cpu_t_.size(); ++i) {
      time_cells(w.str(input).i64(static_cast<int64_t>(i)), cpu_t_[i]);
      int64_t leaf = i < cpu_leaf_.size() ? cpu_leaf_[i] : -1;
      if (leaf < 0) {
        w.null().null().null().end_row();
        continue;
      }
      const CpuFrameKey& f = frames_[static_cast<size_t>(leaf)];
      w.str(labels_.shown(f.label)).str_or_null(files_.shown(f.file), f.file != 0);
      w.i64_or_null(static_cast<int64_t>(f.line), f.line != 0 && f.line <= uint64_t(INT64_MAX)).end_row();
    }
  } else if (name == "snapshots") {
    RowWriter w(snapshots_schema(), sink);
    for (size_t i = 0; i < snapshots_.size(); ++i) {
      const Snapshot& s = snapshots_[i];
      uint64_t bytes = 0;
      for (const auto& o : s.objects) bytes += o.size_nil ? 0 : o.size;
      w.str(input)
          .i64(static_cast<int64_t>(i))
          .i64_or_null(static_cast<int64_t>(s.corr), s.has_corr && s.corr <= uint64_t(INT64_MAX));
      time_cells(w, s.first_ms).i64(static_cast<int64_t>(s.messages)).i64(static_cast<int64_t>(s.objects.size()));
      w.i64_or_null(static_cast<int64_t>(s.total), s.has_total && s.total <= uint64_t(INT64_MAX));
      w.i64(static_cast<int64_t>(bytes)).i64(static_cast<int64_t>(s.refs.size()));
      w.boolean(!s.cut_short && !s.total_conflict && (!s.has_total || s.total == s.objects.size())).end_row();
    }
  } else {
    return false;
  }
  return true;
}

}  // namespace gcscope::rbkit
