// The query methods of the tunemygc-payload format (core/query.h), all with an optional
// {"process": i} (the payload's index in the drop; 0 for a single payload):
//   rubygc.process  {process}                → that payload's own report (a fleet's per-process detail)
//   rubygc.timeline {t0?, t1?, width?}        → samples of [t0, t1] (seconds since the first sample),
//                                               decimated to two rows per pixel past 2 x width samples
//   rubygc.range    {t0, t1}                  → units of work starting in the range (count, p50/p95
//                                               duration and allocations, GCs, majors by reason, GC time
//                                               share), GC count rise, heap and RSS min/max
// and compare.side (fleet.h) for the format's compare.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "payload.h"

namespace gcscope::rubygc {

const std::vector<std::string>& payload_query_methods();
// Answers rubygc.timeline, rubygc.range and timeline.series for one payload; QueryError otherwise.
nlohmann::json payload_query(const Payload& payload, const std::string& method, const nlohmann::json& args);
// The GCs a payload shows (timeline.cpp): an interval between two samples in which minor_gc_count
// or major_gc_count rose. `gc_ms` is the GC.stat time gained from it until the next such interval
// (NaN without that key, and for the minor GCs of an interval whose major GCs take the time).
struct GcBand {
  bool major;
  double start, span;  // the sample written before, and the time to the sample showing the rise
  uint64_t gcs;        // how far the counter rose
  double gc_ms;
  size_t sample;  // the sample showing the rise
};
std::vector<GcBand> gc_bands(const Payload& payload);
// timeline.series over one payload, on its own timestamps (epoch seconds or seconds since boot).
nlohmann::json payload_timeline(const Payload& payload, const nlohmann::json& args);

}  // namespace gcscope::rubygc
