// The tracing captures' stacks (folded stacks, perf script, DTrace, bpftrace and BCC stack maps) as
// the shared stack model (wasm/profile/), so the stacks.* questions, the exports and the per-frame
// compare are the ones stackprof's profiles get. Frames are the stack table's frame names with the
// same indices (the report's stacks.frames and the model agree, so a frame index of the page's flame
// graph names the same frame in the engine's answers); tracers print symbols only, so no frame has a
// file or line. Each distinct stack is one sample carrying its summed weight, in first-seen order:
// stacks.folded of a folded file whose lines are distinct is that file.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "profile/stack_model.h"
#include "trace_model.h"

namespace gcscope::tracing {

profile::StackModel stack_model(const StackTable& table, const std::string& unit);
// The same model from a report's "stacks" field (what a compare side carries); a model without
// samples when the field is absent or malformed.
profile::StackModel stack_model(const nlohmann::json& stacks);

}  // namespace gcscope::tracing
