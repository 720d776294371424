#include "jvm/timeline.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/timeline.h"
#include "jvm/wall_clock.h"

namespace gcscope::jvm {

nlohmann::json pause_timeline(const GcAggregator& aggregator, const nlohmann::json& args) {
  timeline::Range range = timeline::range_of(args);
  const GcColumns& c = aggregator.columns();
  const GcColumns::Pauses& p = c.pauses;
  // Wall-clock time when any event printed it; pauses of a member without it are then left out.
  const bool wall = c.events.wall_ms.any_value();
  WallClock clock(c);
  const std::vector<std::string> no_paths;
  MemberRuns runs(c.pause_members, no_paths);
  Reader t(p.t), duration(p.duration);
  std::vector<double> start(p.size(), NAN);
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < p.size(); ++i) {
    const uint32_t member = runs.member(i);
    const int64_t ns = t(i), d = duration(i);
    if (ns == IntColumn::kNull) continue;
    start[i] = wall ? clock.epoch_ms(member, ns) / 1e3 : static_cast<double>(ns) / 1e9;
    if (std::isnan(start[i])) continue;
    lo = std::min(lo, start[i]);
    hi = std::max(hi, start[i] + (d == IntColumn::kNull ? 0 : static_cast<double>(d) / 1e9));
  }
  if (lo <= hi) range.default_to(lo, hi);
  timeline::Bands bands("GC pauses", "ms", range);
  for (size_t i = 0; i < p.size(); ++i) {
    if (std::isnan(start[i])) continue;
    const int64_t d = duration(i);
    const double ms = d == IntColumn::kNull ? NAN : static_cast<double>(d) / 1e6;
    bands.add(start[i], ms / 1e3, ms);
  }
  nlohmann::json series = nlohmann::json::array();
  series.push_back(bands.take());
  return timeline::answer(wall ? "epoch" : "own", wall ? "wall-clock time" : "JVM uptime", range, std::move(series));
}

}  // namespace gcscope::jvm
