// Registers this domain's analyzers with the core. Until the domain's parser lands, its formats are
// identified only (the report carries the identification and nothing else).
#include "core/analyzer.h"
#include "core/identify.h"

namespace gcscope {

void register_rbkit(FormatRegistry& registry) {
  for (const char* id : {format_id::kRbkit})
    registry.add({id, /*accepts_many_members=*/false, make_identification_only_analyzer});
}

}  // namespace gcscope
