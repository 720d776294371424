// The "stacks.*" methods of the query protocol (core/query.h), answered from one StackModel by any
// analyzer that has stacks (stackprof, folded stacks, perf script, bpftrace, rbkit, heap). Every
// method takes an optional "transforms" list (transforms.h) applied first; the last transformed
// model is kept, so a view asking several questions about one transform stack pays for it once.
//
//   stacks.folded   {transforms?}                → "a;b;c 12\n..." one line per sample, input order
//                                                  (stackprof --stackcollapse's text when untransformed)
//   stacks.tree     {transforms?}                → {unit, total, frames: {name, file, line, gem},
//                                                  stacks: {parent, frame}, samples: {stack, weight},
//                                                  durations}: the flame graph's model (consecutive
//                                                  samples of one stack merged)
//   stacks.frames   {transforms?, sort?: "self"|"total", filter?: REGEX, offset?, limit?}
//                                                → {unit, total, count, rows: [{frame, name, file, line,
//                                                  self, total, self_pct, total_pct}]}; total counts a
//                                                  sample once per frame; percentages of all samples
//   stacks.calls    {frame, transforms?}         → {frame, name, file, line, self, total, self_pct,
//                                                  total_pct, callers: [{frame, name, weight, pct}],
//                                                  callees: [...]}: direct callers/callees, each sample
//                                                  counted once per edge, pct of the frame's total
//   stacks.sandwich {frame, transforms?}         → {frame, total, self, callers: {parent, frame, self},
//                                                  callees: {parent, frame, self}}: the frame's callers
//                                                  (leaf = the frame, read upwards) and callees, from
//                                                  its outermost call in each sample
//   stacks.match    {regex, transforms?}         → {weight, total, frames: [indices]}: the samples whose
//                                                  stack holds a frame whose name or file matches
//                                                  (case-insensitive), and those frames
//   stacks.export   {to: "speedscope"|"pprof", transforms?}
//                                                → speedscope: the file's JSON text; pprof: the gzipped
//                                                  profile.proto as base64 (export.h)
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "export.h"
#include "stack_model.h"

namespace gcscope::profile {

// The method names above, for a FormatHandler's `methods`.
const std::vector<std::string>& stack_methods();

class StackQueries {
 public:
  StackQueries() = default;
  explicit StackQueries(StackModel base) : base_(std::move(base)) {}
  void reset(StackModel base);
  const StackModel& base() const { return base_; }
  // How exports name and split the samples (the base model's sample ranges) and pprof's types.
  void set_export_info(ExportInfo info) { export_info_ = std::move(info); }
  // Answers a "stacks.*" method; QueryError for bad arguments or an unknown method.
  nlohmann::json answer(const std::string& method, const nlohmann::json& args);
  // The base model with args["transforms"] applied (the kept one when the list is the last one asked).
  const StackModel& transformed(const nlohmann::json& args);

 private:
  nlohmann::json export_answer(const nlohmann::json& args);

  StackModel base_;
  ExportInfo export_info_;
  std::string cached_key_;
  StackModel cached_;
  std::vector<uint32_t> cached_origin_;  // per sample of cached_: its sample in base_
  bool has_cached_ = false;
};

// Answers in their own right, for tests, the CLI and other domains.
std::string folded_text(const StackModel& m);
nlohmann::json tree_json(const StackModel& m);
nlohmann::json frames_json(const StackModel& m, const nlohmann::json& args);
nlohmann::json calls_json(const StackModel& m, uint32_t frame);
nlohmann::json sandwich_json(const StackModel& m, uint32_t frame);
nlohmann::json match_json(const StackModel& m, const std::string& regex);
// Per frame: weight of the samples whose stack holds it (once per sample) and whose leaf it is.
void frame_weights(const StackModel& m, std::vector<double>& self, std::vector<double>& total);

}  // namespace gcscope::profile
