#include "stackprof/tables.h"

#include <unordered_map>

namespace gcscope::stackprof {

namespace {

using tables::RowWriter;
using tables::Schema;
using tables::Type;

const Schema& frames_schema() {
  static const Schema s{
      "frames",
      "One row per frame of the profile's frame table (of the sum, for several dumps), in the dump's order, with "
      "stackprof's own counts (what stackprof --text prints).",
      {{"input", Type::kString, "", "the dump (several dumps summed: their paths joined with \" + \")"},
       {"frame_id", Type::kInt64, "", "the frame's position in the frame table, from 0"},
       {"frame_key", Type::kString, "",
        "stackprof's id of the frame as the dump writes it (a number; a SHA-256 in hex for a sum)"},
       {"name", Type::kString, "", "the method's label (\"Object#fib\", \"block in <main>\"), null when absent"},
       {"file", Type::kString, "", "the source file, null when absent"},
       {"line", Type::kInt64, "", "the first line of the method, null for C frames"},
       {"self_samples", Type::kInt64, "",
        "samples taken in the frame itself (allocations in object mode): stackprof's SAMPLES"},
       {"total_samples", Type::kInt64, "",
        "samples with the frame anywhere on the stack (allocations in object mode): stackprof's TOTAL"}}};
  return s;
}

const Schema& samples_schema() {
  static const Schema s{
      "samples",
      "One row per raw record of the profile (collected with raw: true), in the dump's order: consecutive samples "
      "of one stack are one record.",
      {{"input", Type::kString, "", "the dump the record came from"},
       {"sample", Type::kInt64, "", "the record's position among the set's records, from 0"},
       {"stack_id", Type::kInt64, "", "the record's stack (stacks.stack_id)"},
       {"weight", Type::kInt64, "", "samples in the record (allocations in object mode)"},
       {"t_s", Type::kFloat64, "s",
        "when the record's first sample was taken, in seconds since its dump's profile started "
        "(raw_timestamp_deltas summed); null in object mode or without deltas"},
       {"duration_s", Type::kFloat64, "s",
        "the time the record's samples stand for (their raw_timestamp_deltas); null as t_s"}}};
  return s;
}

// The columns of tracing's stacks (a table name means one schema), with what they are for stackprof.
const Schema& stacks_schema() {
  static const Schema s{
      "stacks",
      "One row per distinct stack of the profile's raw records, weights summed.",
      {{"input", Type::kString, "", "the dump (several dumps summed: their paths joined with \" + \")"},
       {"stack_id", Type::kInt64, "", "the stack's index in the profile (first seen first)"},
       {"weight", Type::kFloat64, "", "the stack's weight in weight_unit"},
       {"weight_unit", Type::kString, "", "samples, or allocations in object mode"},
       {"depth", Type::kInt64, "", "frames in the stack"},
       {"root", Type::kString, "", "the outermost frame"},
       {"leaf", Type::kString, "", "the innermost frame (where the sample was taken)"},
       {"folded", Type::kString, "", "the frames' names root first, joined with ';' (FlameGraph's folded form)"},
       {"truncated", Type::kBool, "", "always false: stackprof's raw stacks are kept whole"}}};
  return s;
}

std::string whole_input(const TableSource& src) {
  std::string out;
  for (const auto& p : src.paths) out += (out.empty() ? "" : " + ") + p;
  return out;
}

// Dense stack ids over the model's samples: the leaf node of each distinct stack, first seen first.
struct StackIds {
  std::vector<int32_t> node_of;  // stack id -> leaf node (-1: the empty stack)
  std::vector<double> weight;    // stack id -> summed weight
  std::vector<int64_t> of_sample;
};

StackIds stack_ids(const profile::StackModel& m) {
  StackIds ids;
  std::unordered_map<int32_t, int64_t> id_of;
  ids.of_sample.reserve(m.sample_node.size());
  for (size_t r = 0; r < m.sample_node.size(); ++r) {
    auto [it, fresh] = id_of.emplace(m.sample_node[r], static_cast<int64_t>(ids.node_of.size()));
    if (fresh) {
      ids.node_of.push_back(m.sample_node[r]);
      ids.weight.push_back(0);
    }
    ids.weight[static_cast<size_t>(it->second)] += m.sample_weight[r];
    ids.of_sample.push_back(it->second);
  }
  return ids;
}

void write_frames(const TableSource& src, tables::RowSink& sink) {
  RowWriter w(frames_schema(), sink);
  const Profile& p = *src.profile;
  std::string input = whole_input(src);
  for (size_t i = 0; i < p.frames.size(); ++i) {
    const Frame& f = p.frames[i];
    if (f.placeholder) continue;
    w.str(input).i64(static_cast<int64_t>(i)).str(p.key_text(f.key));
    w.str_or_null(f.name, f.has_name).str_or_null(f.file, f.has_file);
    w.i64_or_null(f.line, f.line_kind == LineKind::Int).i64(f.self).i64(f.total).end_row();
  }
}

void write_samples(const TableSource& src, tables::RowSink& sink) {
  RowWriter w(samples_schema(), sink);
  const Profile& p = *src.profile;
  if (!p.has_raw) return;
  StackIds ids = stack_ids(*src.model);
  bool timed =
      p.has_deltas && static_cast<int64_t>(p.raw_timestamp_deltas.size()) == p.raw_weight_total && p.mode != "object";
  std::string one = whole_input(src);
  size_t part = 0, k = 0;  // the record's dump; its first sample's index in raw_timestamp_deltas
  int64_t clock_us = 0;    // the dump's profile clock before the record
  for (size_t r = 0; r < p.record_weight.size(); ++r) {
    while (part < src.parts.size() && r >= src.parts[part].end) {
      ++part;
      clock_us = 0;
    }
    bool parted = part < src.parts.size();
    int64_t weight = p.record_weight[r];
    w.str(parted ? src.parts[part].name : one).i64(static_cast<int64_t>(r)).i64(ids.of_sample[r]).i64(weight);
    if (!timed) {
      w.null().null().end_row();
      continue;
    }
    int64_t first = clock_us + p.raw_timestamp_deltas[k], span = 0;
    for (int64_t j = 0; j < weight; ++j) span += p.raw_timestamp_deltas[k++];
    clock_us += span;
    w.f64(static_cast<double>(first) / 1e6).f64(static_cast<double>(span) / 1e6).end_row();
  }
}

void write_stacks(const TableSource& src, tables::RowSink& sink) {
  RowWriter w(stacks_schema(), sink);
  if (!src.profile->has_raw) return;
  const profile::StackModel& m = *src.model;
  StackIds ids = stack_ids(m);
  std::string input = whole_input(src), folded;
  std::vector<uint32_t> path;
  for (size_t id = 0; id < ids.node_of.size(); ++id) {
    path.clear();
    if (ids.node_of[id] >= 0) m.path_of(ids.node_of[id], path);
    folded.clear();
    for (uint32_t f : path) folded += (folded.empty() ? "" : ";") + m.frames[f].name;
    bool any = !path.empty();
    w.str(input).i64(static_cast<int64_t>(id)).f64(ids.weight[id]).str(m.unit).i64(static_cast<int64_t>(path.size()));
    w.str_or_null(any ? std::string_view(m.frames[path.front()].name) : std::string_view(), any);
    w.str_or_null(any ? std::string_view(m.frames[path.back()].name) : std::string_view(), any);
    w.str(folded).boolean(false).end_row();
  }
}

}  // namespace

std::vector<tables::Schema> profile_tables() { return {frames_schema(), samples_schema(), stacks_schema()}; }

bool write_profile_table(const TableSource& source, const std::string& name, tables::RowSink& sink) {
  if (name == "frames") write_frames(source, sink);
  else if (name == "samples") write_samples(source, sink);
  else if (name == "stacks") write_stacks(source, sink);
  else return false;
  return true;
}

}  // namespace gcscope::stackprof
