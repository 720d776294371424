// The capture's timeline (core/timeline.h, method "timeline.series"): object allocations per second
// from the per-second bins, and every GC cycle as a band (gc_start to gc_end_s; no width when the
// capture never closed it), on rbkit's clock, which is wall-clock time.
#include <algorithm>
#include <cmath>

#include "core/timeline.h"
#include "rbkit/capture.h"

namespace gcscope::rbkit {

nlohmann::json CaptureDecoder::timeline(const nlohmann::json& args) const {
  timeline::Range range = timeline::range_of(args);
  double lo = INFINITY, hi = -INFINITY;
  if (!bins_.empty())
    lo = static_cast<double>(bins_.begin()->first),
    hi = static_cast<double>(std::prev(bins_.end())->first + bin_width_);
  for (const GcCycle& c : cycles_) lo = std::min(lo, c.start_ms / 1e3), hi = std::max(hi, c.end_ms / 1e3);
  for (double start_ms : unclosed_start_ms_) lo = std::min(lo, start_ms / 1e3), hi = std::max(hi, start_ms / 1e3);
  if (trailing_open_gc_) lo = std::min(lo, open_.start_ms / 1e3), hi = std::max(hi, open_.start_ms / 1e3);
  if (lo <= hi) range.default_to(lo, hi);
  timeline::Line created("objects created", "objects/s", timeline::Line::Kind::kRate, range);
  timeline::Line destroyed("objects destroyed", "objects/s", timeline::Line::Kind::kRate, range);
  for (const auto& [second, bin] : bins_) {
    const double t = static_cast<double>(second), width = static_cast<double>(bin_width_);
    created.add(t, static_cast<double>(bin.created), width);
    destroyed.add(t, static_cast<double>(bin.destroyed), width);
  }
  timeline::Bands gc("GC cycles", "ms", range);
  for (const GcCycle& c : cycles_) gc.add(c.start_ms / 1e3, (c.end_ms - c.start_ms) / 1e3, c.end_ms - c.start_ms);
  // A gc_start never closed is a band of no width and no duration at its start.
  for (double start_ms : unclosed_start_ms_) gc.add(start_ms / 1e3, 0, NAN);
  if (trailing_open_gc_) gc.add(open_.start_ms / 1e3, 0, NAN);
  nlohmann::json series = nlohmann::json::array();
  series.push_back(gc.take());
  series.push_back(created.take());
  series.push_back(destroyed.take());
  return timeline::answer("epoch", "wall-clock time (rbkit's milliseconds)", range, std::move(series));
}

}  // namespace gcscope::rbkit
