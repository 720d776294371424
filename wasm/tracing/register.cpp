// Registers the tracing domain's analyzers: bpftrace text and JSON output, BCC tool output, folded
// stacks and perf script. DTrace aggregations are identified as bpftrace-text (quantize, count
// tables) or folded-stacks (stack aggregations) and handled there.
#include "core/analyzer.h"
#include "core/identify.h"
#include "tracing/analyzers.h"

namespace gcscope {

void register_tracing(FormatRegistry& registry) {
  registry.add({format_id::kBpftraceText, /*accepts_many_members=*/false, tracing::make_bpftrace_text});
  registry.add({format_id::kBpftraceJson, false, tracing::make_bpftrace_json});
  registry.add({format_id::kBccOutput, false, tracing::make_bcc_output});
  registry.add({format_id::kFoldedStacks, false, tracing::make_folded_stacks});
  registry.add({format_id::kPerfScript, false, tracing::make_perf_script});
}

}  // namespace gcscope
