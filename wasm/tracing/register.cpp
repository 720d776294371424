// Registers the tracing domain's analyzers: bpftrace text and JSON output, BCC tool output, folded
// stacks and perf script. DTrace aggregations are identified as bpftrace-text (quantize, count
// tables) or folded-stacks (stack aggregations) and handled there.
#include "core/analyzer.h"
#include "core/identify.h"
#include "tracing/analyzers.h"
#include "tracing/compare.h"
#include "tracing/trace_model.h"

namespace gcscope {

void register_tracing(FormatRegistry& registry) {
  // Every tracing capture compares with every other: per probe and per stack.
  auto compare = [](const nlohmann::json& a, const nlohmann::json& b) { return tracing::compare_reports(a, b); };
  auto add = [&](const char* id, auto make, const char* title) {
    FormatHandler h;
    h.id = id;
    h.title = title;
    h.make = make;
    h.methods = tracing::TraceData::query_methods();
    h.compare_family = "tracing";
    h.compare = compare;
    h.memory_per_input_byte = 0.4;
    registry.add(std::move(h));
  };
  add(format_id::kBpftraceText, tracing::make_bpftrace_text, "bpftrace output");
  add(format_id::kBpftraceJson, tracing::make_bpftrace_json, "bpftrace JSON output");
  add(format_id::kBccOutput, tracing::make_bcc_output, "BCC tool output");
  add(format_id::kFoldedStacks, tracing::make_folded_stacks, "Folded stacks");
  add(format_id::kPerfScript, tracing::make_perf_script, "perf script output");
}

}  // namespace gcscope
