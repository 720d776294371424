#include "jvm/rotation.h"

#include <algorithm>
#include <cmath>

#include "core/text_scan.h"
#include "jvm/decorations.h"

namespace gcscope::jvm {

namespace {

using text::is_digit;

// One line's wall-clock stamp and uptime (-1 when absent), in either dialect, read as the parsers
// read them (jvm/decorations.h). Nanosecond stamps count from 0: ordering members needs no origin.
void stamps_of_line(std::string_view line, double& wall_ms, double& uptime_s) {
  wall_ms = -1;
  uptime_s = -1;
  if (line.empty()) return;
  double wall = kUnknown, uptime = kUnknown;
  if (line[0] == '[') {
    decorations::Unified d;
    decorations::NanosOrigin from_zero;
    from_zero.origin = 0;
    std::string_view message;
    if (!decorations::split(line, d, from_zero, message)) return;
    wall = d.wall_ms;
    uptime = d.uptime_s;
  } else {
    decorations::Legacy d;
    decorations::read_legacy(line, 0, d);
    wall = d.wall_ms;
    uptime = d.uptime_s;
  }
  if (!std::isnan(wall)) wall_ms = wall;
  if (!std::isnan(uptime)) uptime_s = uptime;
}

}  // namespace

void scan_segment_head(std::string_view head, SegmentHead& out) {
  size_t pos = 0;
  int lines = 0;
  while (pos < head.size() && lines < 5000) {
    size_t nl = head.find('\n', pos);
    std::string_view line = head.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    double w, u;
    stamps_of_line(line, w, u);
    if (w >= 0 && out.first_wall_ms < 0 && u >= 0) out.first_wall_ms = w;
    if (u >= 0) {
      out.first_uptime_s = u;
      if (w >= 0) out.first_wall_ms = w;
      return;
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
    ++lines;
  }
}

bool is_live_segment(std::string_view name) {
  size_t slash = name.find_last_of('/');
  if (slash != std::string_view::npos) name = name.substr(slash + 1);
  if (text::ends_with(name, ".gz")) name.remove_suffix(3);
  if (text::ends_with(name, ".current")) return true;
  size_t dot = name.find_last_of('.');
  if (dot == std::string_view::npos) return true;
  std::string_view last = name.substr(dot + 1);
  if (last.empty()) return true;
  for (char c : last)
    if (!is_digit(c)) return true;
  return false;
}

RotationPlan plan_rotation(const std::vector<SegmentHead>& segs, bool all_runs) {
  RotationPlan plan;
  const size_t n = segs.size();
  for (size_t i = 0; i < n; ++i) plan.order.push_back(i);
  if (n == 0) return plan;

  bool all_wall = std::all_of(segs.begin(), segs.end(), [](const SegmentHead& s) { return s.first_wall_ms >= 0; });
  plan.ordered_by_wall_clock = all_wall;
  auto fresh = [&](size_t i) { return segs[i].first_uptime_s >= 0 && segs[i].first_uptime_s <= kFreshRunUptimeS; };

  if (all_wall) {
    // Wall clock orders every segment, across restarts too; a restart is where uptime goes back.
    std::stable_sort(plan.order.begin(), plan.order.end(),
                     [&](size_t a, size_t b) { return segs[a].first_wall_ms < segs[b].first_wall_ms; });
    plan.runs.push_back({});
    for (size_t k = 0; k < n; ++k) {
      size_t i = plan.order[k];
      bool back = k > 0 && segs[i].first_uptime_s >= 0 && segs[plan.order[k - 1]].first_uptime_s >= 0 &&
                  segs[i].first_uptime_s < segs[plan.order[k - 1]].first_uptime_s;
      if (k > 0 && (back || fresh(i))) plan.runs.push_back({});
      plan.runs.back().push_back(i);
    }
  } else {
    // Uptime alone: segments of one run are ordered by it. Several segments starting near uptime 0 are
    // several runs, which uptime cannot order: the run holding the live file (gc.log, *.current) is the
    // latest; older runs are kept in name order.
    std::stable_sort(plan.order.begin(), plan.order.end(), [&](size_t a, size_t b) {
      double ua = segs[a].first_uptime_s < 0 ? 1e300 : segs[a].first_uptime_s;
      double ub = segs[b].first_uptime_s < 0 ? 1e300 : segs[b].first_uptime_s;
      return ua < ub;
    });
    std::vector<size_t> starts;
    for (size_t i : plan.order)
      if (fresh(i)) starts.push_back(i);
    if (starts.size() <= 1) {
      plan.runs.push_back(plan.order);
    } else {
      // Assign each non-start segment to the run of the live file when it has one, else to the first run.
      size_t live_start = starts.back();
      for (size_t i : starts)
        if (is_live_segment(segs[i].name)) live_start = i;
      std::vector<size_t> latest, older_starts;
      for (size_t i : starts)
        if (i != live_start) older_starts.push_back(i);
      std::sort(older_starts.begin(), older_starts.end(),
                [&](size_t a, size_t b) { return segs[a].name > segs[b].name; });
      for (size_t i : older_starts) plan.runs.push_back({i});
      for (size_t i : plan.order)
        if (!fresh(i) || i == live_start) latest.push_back(i);
      plan.runs.push_back(latest);
      plan.order.clear();
      for (const auto& r : plan.runs) plan.order.insert(plan.order.end(), r.begin(), r.end());
    }
  }
  plan.restart_detected = plan.runs.size() > 1;
  if (all_runs || !plan.restart_detected) {
    plan.selected = plan.order;
  } else {
    plan.selected = plan.runs.back();
  }
  plan.note = std::string("segments ordered by their first ") + (all_wall ? "wall-clock stamp" : "uptime stamp");
  if (plan.restart_detected) {
    plan.note += "; JVM restart detected (" + std::to_string(plan.runs.size()) + " runs)";
    if (!all_runs) plan.note += ", only the latest run is analyzed (all_runs=true keeps every run)";
  }
  return plan;
}

}  // namespace gcscope::jvm
