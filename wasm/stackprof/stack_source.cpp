#include "stack_source.h"

namespace gcscope::stackprof {

std::string sample_unit(const Profile& p) { return p.mode == "object" ? "allocations" : "samples"; }

profile::StackModel stack_model(const Profile& p) {
  profile::StackModel m;
  m.unit = sample_unit(p);
  m.frames.reserve(p.frames.size());
  for (size_t i = 0; i < p.frames.size(); ++i) {
    const Frame& f = p.frames[i];
    profile::Frame pf;
    pf.name = f.name;
    if (f.has_file) pf.file = f.file;
    pf.line = f.line_kind == LineKind::Int ? f.line : profile::kNoLine;
    // stackprof reports each frame id as its own frame, even where name, file and line agree
    // (one method compiled twice): so does the model. Frames are one per frame id.
    pf.id = i + 1;
    m.add_frame(std::move(pf));
  }
  if (!p.has_raw) return m;
  bool timed =
      p.has_deltas && static_cast<int64_t>(p.raw_timestamp_deltas.size()) == p.raw_weight_total && p.mode != "object";
  size_t k = 0;
  // Consecutive records share prefixes: the previous record's path of nodes is reused before any
  // hash lookup.
  std::vector<uint32_t> prev_frames;
  std::vector<int32_t> prev_nodes;
  for (size_t r = 0; r + 1 < p.stack_begin.size(); ++r) {
    uint32_t b = p.stack_begin[r], e = p.stack_begin[r + 1];
    size_t depth = e - b, common = 0;
    while (common < depth && common < prev_frames.size() && prev_frames[common] == p.stack_frames[b + common]) ++common;
    prev_frames.resize(common);
    prev_nodes.resize(common);
    for (size_t d = common; d < depth; ++d) {
      uint32_t fr = p.stack_frames[b + d];
      prev_nodes.push_back(m.child(d == 0 ? -1 : prev_nodes[d - 1], fr));
      prev_frames.push_back(fr);
    }
    int32_t node = depth == 0 ? -1 : prev_nodes[depth - 1];
    int64_t w = p.record_weight[r];
    m.add_sample(node, static_cast<double>(w));
    if (timed) {
      int64_t sum = 0;
      for (int64_t j = 0; j < w; ++j) sum += p.raw_timestamp_deltas[k++];
      m.sample_duration.push_back(static_cast<double>(sum));
    }
  }
  return m;
}

}  // namespace gcscope::stackprof
