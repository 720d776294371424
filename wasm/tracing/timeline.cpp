#include "tracing/timeline.h"

#include <algorithm>
#include <cmath>

#include "core/timeline.h"
#include "tracing/tables.h"

namespace gcscope::tracing {

namespace {
// Event streams drawn; the rest are named in `left_out`.
constexpr size_t kMaxStreams = 20;
// A timestamp at or past 10^18 ns is Unix-epoch nanoseconds already (epoch_ms_of's rule).
constexpr uint64_t kEpochNsFloor = 1000000000000000000ULL;
}  // namespace

nlohmann::json event_timeline(const TraceData& data, const nlohmann::json& args) {
  timeline::Range range = timeline::range_of(args);
  // The capture's streams whose every event has a timestamp (the events table's t_s).
  std::vector<const EventSeries*> timed;
  for (const EventSeries& s : data.series())
    if (!s.values.empty() && s.timestamps.size() == s.values.size()) timed.push_back(&s);
  // Wall-clock time when the first timestamp gives it: every timestamp of a capture is of one clock.
  const bool wall = !timed.empty() && std::isfinite(epoch_ms_of(timed.front()->timestamps.front(), data.boot_epoch_s));
  // Whole seconds and the fraction apart, so an epoch-nanosecond stamp keeps its digits.
  auto seconds = [&](uint64_t ns) {
    const double own = static_cast<double>(ns / 1000000000) + static_cast<double>(ns % 1000000000) / 1e9;
    if (!wall || ns >= kEpochNsFloor) return own;
    return data.boot_epoch_s + own;
  };
  double lo = INFINITY, hi = -INFINITY;
  for (const EventSeries* s : timed)
    for (uint64_t ns : s->timestamps) lo = std::min(lo, seconds(ns)), hi = std::max(hi, seconds(ns));
  if (lo <= hi) range.default_to(lo, hi);
  nlohmann::json series = nlohmann::json::array(), left_out = nlohmann::json::array();
  for (const EventSeries* s : timed) {
    if (series.size() == kMaxStreams) {
      left_out.push_back(s->name);
      continue;
    }
    timeline::Line line(s->name, "as printed (ns for latencies)", timeline::Line::Kind::kMax, range);
    for (size_t i = 0; i < s->values.size(); ++i)
      line.add(seconds(s->timestamps[i]), static_cast<double>(s->values[i]));
    series.push_back(line.take());
  }
  nlohmann::json out = timeline::answer(wall ? "epoch" : "own", wall ? "wall-clock time" : "the capture's timestamps",
                                        range, std::move(series));
  out["left_out"] = std::move(left_out);
  return out;
}

}  // namespace gcscope::tracing
