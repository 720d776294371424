// The stackprof format: its analyzer, queries and compare live in stackprof_analyzer.cpp.
#include "core/analyzer.h"
#include "probe.h"
#include "stackprof_analyzer.h"

namespace gcscope {

void register_stackprof(FormatRegistry& registry) {
  FormatHandler h;
  h.id = "stackprof";
  h.title = "stackprof profile";
  h.accepts_many_members = true;  // several dumps are summed, as stackprof's CLI does
  h.make = [](const AnalyzeOptions&) { return stackprof::make_analyzer(); };
  h.methods = stackprof::query_methods();
  h.compare_family = "stackprof";
  h.compare = stackprof::compare_sides;
  h.memory_per_input_byte = 2.3;
  h.probes = {{probe_rank::kBinary, stackprof::probe_marshal},
              {probe_rank::kBinaryGate - 10, stackprof::refuse_other_marshal},  // after rbkit's msgpack
              {probe_rank::kJson + 30, stackprof::probe_json}};
  registry.add(std::move(h));
}

}  // namespace gcscope
