// Placeholder for the legacy (JDK <= 8) parser's factory until wasm/jvm/legacy/ lands on this
// branch. MERGE NOTE: delete this file when the legacy parser (which defines make_legacy_parser)
// is merged; the duplicate symbol at link time says so if forgotten.
#include "jvm/log_parser.h"

namespace gcscope::jvm {

std::unique_ptr<LogParser> make_legacy_parser(GcEventSink&, uint32_t) { return nullptr; }

}  // namespace gcscope::jvm
