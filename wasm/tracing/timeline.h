// A tracing capture's timeline (core/timeline.h, method "timeline.series"): each event stream with
// timestamps ("[ts] name value" printf lines, JSON printf events) as a line of its values (the
// maximum per pixel column), on wall-clock time where its timestamps give it (epoch nanoseconds, or
// nsecs since boot with the boot_epoch_s option), else on the capture's own clock.
#pragma once
#include <nlohmann/json.hpp>

#include "tracing/trace_model.h"

namespace gcscope::tracing {

nlohmann::json event_timeline(const TraceData& data, const nlohmann::json& args);

}  // namespace gcscope::tracing
