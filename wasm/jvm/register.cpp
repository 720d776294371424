// Registers the JVM GC log analyzer (unified and legacy logs, one analyzer per input set so the
// members of a rotating set are analysed together).
#include "core/analyzer.h"
#include "core/timeline.h"
#include "jvm/compare.h"
#include "jvm/probe.h"

namespace gcscope {
namespace jvm {
std::unique_ptr<Analyzer> make_jvm_analyzer(const AnalyzeOptions& options);
}

void register_jvm(FormatRegistry& registry) {
  FormatHandler h;
  h.id = "jvm-gc-log";
  h.title = "JVM GC log";
  h.accepts_many_members = true;  // the files of a rotating set are one log
  h.make = jvm::make_jvm_analyzer;
  h.methods = {"jvm.summary", "jvm.series", "jvm.events", "jvm.storage", timeline::kMethod};
  h.compare_family = "jvm";
  h.compare = [](const nlohmann::json& a, const nlohmann::json& b) { return jvm::compare_reports(a, b); };
  h.memory_per_input_byte = 0.15;
  h.probes = {{probe_rank::kLog, jvm::probe_gc_log}, {probe_rank::kNearMiss, jvm::probe_application_output}};
  registry.add(std::move(h));
}

}  // namespace gcscope
