// The stackprof format: its analyzer, queries and compare live in stackprof_analyzer.cpp.
#include "core/analyzer.h"
#include "core/identify.h"
#include "stackprof_analyzer.h"

namespace gcscope {

void register_stackprof(FormatRegistry& registry) {
  FormatHandler h;
  h.id = format_id::kStackprof;
  h.title = "stackprof profile";
  h.accepts_many_members = true;  // several dumps are summed, as stackprof's CLI does
  h.make = [](const AnalyzeOptions&) { return stackprof::make_analyzer(); };
  h.methods = stackprof::query_methods();
  h.compare_family = "stackprof";
  h.compare = stackprof::compare_sides;
  h.memory_per_input_byte = 2.3;
  registry.add(std::move(h));
}

}  // namespace gcscope
