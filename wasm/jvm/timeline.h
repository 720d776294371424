// The JVM log's timeline (core/timeline.h, method "timeline.series"): every pause as a band, on
// wall-clock time where the log prints it (each pause's uptime plus its member's clock offset, as the
// pauses table's ts), else on JVM uptime.
#pragma once
#include <nlohmann/json.hpp>

#include "jvm/aggregator.h"

namespace gcscope::jvm {

nlohmann::json pause_timeline(const GcAggregator& aggregator, const nlohmann::json& args);

}  // namespace gcscope::jvm
