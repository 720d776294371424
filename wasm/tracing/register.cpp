// Registers the tracing domain's analyzers: bpftrace text and JSON output, BCC tool output, folded
// stacks and perf script. DTrace aggregations are identified as bpftrace-text (quantize, count
// tables) or folded-stacks (stack aggregations) and handled there.
#include "core/analyzer.h"
#include "tracing/analyzers.h"
#include "tracing/compare.h"
#include "tracing/trace_model.h"
#include "tracing/probe.h"

namespace gcscope {

void register_tracing(FormatRegistry& registry) {
  // Every tracing capture compares with every other: per probe and per stack.
  auto compare = [](const nlohmann::json& a, const nlohmann::json& b) { return tracing::compare_reports(a, b); };
  auto add = [&](const char* id, auto make, const char* title, std::vector<Probe> probes) {
    FormatHandler h;
    h.id = id;
    h.title = title;
    h.make = make;
    h.methods = tracing::TraceData::query_methods();
    h.compare_family = "tracing";
    h.compare = compare;
    h.sum_sides = tracing::sum_sides;
    h.memory_per_input_byte = 0.4;
    h.probes = std::move(probes);
    registry.add(std::move(h));
  };
  using namespace probe_rank;
  add("bpftrace-text", tracing::make_bpftrace_text, "bpftrace output",
      {{kToolOutput - 20, tracing::probe_bpftrace_listing},
       {kToolOutput + 10, tracing::probe_bpftrace_text},
       {kToolOutput + 30, tracing::probe_dtrace_aggregation}});
  add("bpftrace-json", tracing::make_bpftrace_json, "bpftrace JSON output",
      {{kJson + 10, tracing::probe_bpftrace_json}});
  add("bcc-output", tracing::make_bcc_output, "BCC tool output",
      {{kToolOutput - 10, tracing::probe_tplist_listing}, {kToolOutput + 20, tracing::probe_bcc_output}});
  add("folded-stacks", tracing::make_folded_stacks, "Folded stacks",
      {{kToolOutput + 40, tracing::probe_folded_stacks}, {kToolOutput + 50, tracing::probe_dtrace_stacks}});
  add("perf-script", tracing::make_perf_script, "perf script output", {{kToolOutput, tracing::probe_perf_script}});
}

}  // namespace gcscope
