// Registers the JVM GC log analyzer (unified and legacy logs, one analyzer per input set so the
// members of a rotating set are analysed together).
#include "core/analyzer.h"
#include "core/identify.h"
#include "jvm/compare.h"

namespace gcscope {
namespace jvm {
std::unique_ptr<Analyzer> make_jvm_analyzer(const AnalyzeOptions& options);
}

void register_jvm(FormatRegistry& registry) {
  registry.add({format_id::kJvmGcLog, /*accepts_many_members=*/true, jvm::make_jvm_analyzer, "JVM GC log",
                {}, "jvm", [](const nlohmann::json& a, const nlohmann::json& b) { return jvm::compare_reports(a, b); }});
}

}  // namespace gcscope
