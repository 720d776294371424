#include "jvm/rotation.h"

#include <algorithm>
#include <cmath>

#include "core/civil_date.h"
#include "core/text_scan.h"

namespace gcscope::jvm {

namespace {

using text::is_digit;

bool two(std::string_view s, size_t p, int& v) {
  if (p + 2 > s.size() || !is_digit(s[p]) || !is_digit(s[p + 1])) return false;
  v = (s[p] - '0') * 10 + (s[p + 1] - '0');
  return true;
}

// "2021-11-22T23:21:05.123+0100" or "2016-08-30 20:35:29" at s[p] -> epoch ms (time zone applied when present).
bool wall_at(std::string_view s, size_t p, double& ms) {
  if (p + 19 > s.size()) return false;
  int y1, y2, mo, d, h, mi, se;
  if (!two(s, p, y1) || !two(s, p + 2, y2) || s[p + 4] != '-' || !two(s, p + 5, mo) || s[p + 7] != '-' ||
      !two(s, p + 8, d) || (s[p + 10] != 'T' && s[p + 10] != ' ') || !two(s, p + 11, h) || s[p + 13] != ':' ||
      !two(s, p + 14, mi) || s[p + 16] != ':' || !two(s, p + 17, se))
    return false;
  size_t q = p + 19;
  int frac = 0;
  if (q < s.size() && (s[q] == '.' || s[q] == ',')) {
    ++q;
    int nd = 0;
    while (q < s.size() && is_digit(s[q])) {
      if (nd < 3) frac = frac * 10 + (s[q] - '0'), ++nd;
      ++q;
    }
    while (nd++ < 3) frac *= 10;
  }
  int tz = 0;
  int th, tm;
  if (q + 5 <= s.size() && (s[q] == '+' || s[q] == '-') && two(s, q + 1, th) && two(s, q + 3, tm))
    tz = (th * 60 + tm) * (s[q] == '-' ? -1 : 1);
  int64_t days = civil::days_from_civil(y1 * 100 + y2, static_cast<unsigned>(mo), static_cast<unsigned>(d));
  ms = static_cast<double>((((days * 24 + h) * 60 + mi) * 60 + se - tz * 60)) * 1000.0 + frac;
  return true;
}

// One line: its wall stamp and uptime, in either log family.
void stamps_of_line(std::string_view line, double& wall_ms, double& uptime_s) {
  wall_ms = -1;
  uptime_s = -1;
  if (line.empty()) return;
  if (line[0] == '[') {
    // Unified decorations: "[2021-…][0.013s][info]…", "[12ms]", "[0.013s]"
    size_t p = 0;
    for (int i = 0; i < 6 && p < line.size() && line[p] == '['; ++i) {
      size_t close = line.find(']', p);
      if (close == std::string_view::npos) return;
      std::string_view d = line.substr(p + 1, close - p - 1);
      double w;
      if (wall_at(d, 0, w)) wall_ms = w;
      else if (!d.empty() && is_digit(d[0])) {
        size_t q = 0;
        double v;
        if (text::parse_decimal(d, q, v, true)) {
          std::string_view unit = d.substr(q);
          if (unit == "s") uptime_s = v;
          else if (unit == "ms") uptime_s = v / 1000.0;
          else if (unit == "ns") uptime_s = v / 1e9;
        }
      }
      p = close + 1;
    }
    return;
  }
  size_t p = 0;
  double w;
  if (wall_at(line, 0, w)) {
    wall_ms = w;
    size_t colon = line.find(": ", 19);
    if (colon == std::string_view::npos || colon > 30) return;
    p = colon + 2;
  }
  size_t q = p;
  double v;
  if (q < line.size() && is_digit(line[q]) && text::parse_decimal(line, q, v, true) && q < line.size() &&
      line[q] == ':')
    uptime_s = v;
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
