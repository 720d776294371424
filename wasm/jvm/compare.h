// Compare two analyses (two logs, two sets, or two time ranges once analyzed): the KPIs of each report
// side by side with their deltas. Used by `gcscope compare A B`; the web compare view can call the
// same function on the two documents it already has.
#pragma once
#include <nlohmann/json.hpp>

namespace gcscope::jvm {

// The numeric KPI fields of a report, flattened to dotted keys: everything numeric under "pauses",
// "heap", "rates" (objects, recursively; arrays are per-event data and skipped), plus
// "throughput_percent", "percent_paused" and "events.total".
nlohmann::json kpis_of(const nlohmann::json& report);

// {"a": {"inputs", "format"}, "b": {...}, "kpis": [{"key", "a", "b", "delta", "delta_percent"}]}.
// A key missing on one side has null there and null deltas; delta = b - a, delta_percent = 100*(b-a)/|a|
// (null when a is 0). Keys are in sorted order.
nlohmann::json compare_reports(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace gcscope::jvm
