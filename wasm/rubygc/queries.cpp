// Questions about one payload's timeline after its report (core/query.h): the samples of a time
// range decimated to a pixel width, and the figures of a range (units of work, GCs and their reasons,
// GC time, heap, RSS), computed from the samples the analyzer kept.
#include "queries.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "core/query.h"
#include "core/timeline.h"
#include "tuner_run.h"

namespace gcscope::rubygc {

using nlohmann::json;

namespace {

// Samples [lo, hi) whose time since the first sample lies in [t0, t1].
std::pair<size_t, size_t> sample_range(const Payload& p, double t0, double t1) {
  const double base = p.n ? p.ts[0] : 0;
  size_t lo = 0, hi = p.n;
  while (lo < p.n && p.ts[lo] - base < t0) ++lo;
  while (hi > lo && p.ts[hi - 1] - base > t1) --hi;
  return {lo, hi};
}

double seconds(double v) { return std::round(v * 1e6) / 1e6; }

// rubygc.timeline {t0?, t1?, width?}: every sample of the range, or for more than two per pixel, two
// rows per pixel: each series' minimum at the pixel's first sample and its maximum at its last (a
// spike between survives the decimation).
json timeline(const Payload& p, const json& args) {
  const double t0 = query_args::number(args, "t0", 0), t1 = query_args::number(args, "t1", INFINITY);
  const int64_t width = query_args::integer(args, "width", 1000, 1, 100000);
  auto [lo, hi] = sample_range(p, t0, t1);
  const double base = p.n ? p.ts[0] : 0;
  const auto series = counter_series(p);
  json t = json::array(), cols = json::object();
  for (auto& s : series) cols[s.name] = json::array();
  const size_t count = hi - lo;
  const bool decimate = count > 2 * static_cast<size_t>(width);
  if (!decimate) {
    for (size_t i = lo; i < hi; ++i) {
      t.push_back(seconds(p.ts[i] - base));
      for (auto& s : series) cols[s.name].push_back(s.value(i));
    }
  } else {
    const double span = std::max(p.ts[hi - 1] - p.ts[lo], 1e-9);
    size_t i = lo;
    for (int64_t px = 0; px < width && i < hi; ++px) {
      const double end = p.ts[lo] + span * static_cast<double>(px + 1) / static_cast<double>(width);
      size_t j = i;
      while (j < hi && (p.ts[j] <= end || px + 1 == width)) ++j;
      if (j == i) continue;
      t.push_back(seconds(p.ts[i] - base));
      t.push_back(seconds(p.ts[j - 1] - base));
      for (auto& s : series) {
        int64_t mn = s.value(i), mx = mn;
        for (size_t k = i; k < j; ++k) mn = std::min(mn, s.value(k)), mx = std::max(mx, s.value(k));
        cols[s.name].push_back(mn);
        cols[s.name].push_back(mx);
      }
      i = j;
    }
  }
  return {{"t0", t0},         {"t1", std::isinf(t1) ? json(nullptr) : json(t1)},
          {"samples", count}, {"decimated", decimate},
          {"t", t},           {"series", cols}};
}

json min_max(size_t lo, size_t hi, const std::function<int64_t(size_t)>& value) {
  if (lo >= hi) return nullptr;
  int64_t mn = value(lo), mx = mn;
  for (size_t i = lo; i < hi; ++i) mn = std::min(mn, value(i)), mx = std::max(mx, value(i));
  return {{"min", mn}, {"max", mx}};
}

// rubygc.range {t0, t1}: the figures of the units of work that start in the range and of its samples.
json range(const Payload& p, const json& args) {
  const double t0 = query_args::number(args, "t0", 0), t1 = query_args::number(args, "t1", INFINITY);
  if (t1 < t0) throw QueryError("argument 't1' must not be before 't0'");
  auto [lo, hi] = sample_range(p, t0, t1);
  const StatColumns& c = p.col;
  const double base = p.n ? p.ts[0] : 0;
  std::vector<int64_t> durations_us, allocs;
  int64_t gcs = 0, minor = 0, major = 0, gc_ms = 0;
  double unit_ms = 0;
  std::map<std::string, int64_t> majors_by;
  for (const Unit& u : pair_units(p).units) {
    double start = p.ts[u.start] - base;
    if (start < t0 || start > t1) continue;
    const double ms = (p.ts[u.end] - p.ts[u.start]) * 1000.0;
    durations_us.push_back(static_cast<int64_t>(std::llround(ms * 1000)));
    if (const auto a = p.gain(u.start, u.end, c.total_allocated)) allocs.push_back(*a);
    gcs += p.gain(u.start, u.end, c.count).value_or(0);
    int64_t ma = p.gain(u.start, u.end, c.major).value_or(0);
    minor += p.gain(u.start, u.end, c.minor).value_or(0);
    major += ma;
    if (ma > 0) majors_by[p.major_by[u.end] == kMajorNone ? "unknown" : major_by_name(p.major_by[u.end])] += ma;
    gc_ms += p.gain(u.start, u.end, c.time).value_or(0);
    unit_ms += ms;
  }
  json units = {{"count", durations_us.size()},
                {"duration_ms_p50", percentile(durations_us, 50) / 1000.0},
                {"duration_ms_p95", percentile(durations_us, 95) / 1000.0},
                {"allocations_p50", percentile(allocs, 50)},
                {"allocations_p95", percentile(allocs, 95)},
                {"gcs", gcs},
                {"minor", minor},
                {"major", major},
                {"majors_by", majors_by},
                {"gc_time_ms", c.time >= 0 ? json(gc_ms) : json(nullptr)},
                {"gc_time_share_pct",
                 c.time >= 0 && unit_ms > 0 ? json(r1(100.0 * static_cast<double>(gc_ms) / unit_ms)) : json(nullptr)}};
  int64_t rise = 0;
  if (hi > lo) {
    int64_t top = p.at(lo, c.count);
    for (size_t i = lo; i < hi; ++i) top = std::max(top, p.at(i, c.count));
    rise = top - p.at(lo, c.count);
  }
  return {{"t0", t0},
          {"t1", std::isinf(t1) ? json(nullptr) : json(t1)},
          {"samples", hi - lo},
          {"units", units},
          {"gc_count_rise", rise},
          {"heap_available_slots",
           c.heap_available >= 0 ? min_max(lo, hi, [&p](size_t i) { return p.heap_available(i); }) : json(nullptr)},
          {"heap_live_slots",
           c.heap_live >= 0 ? min_max(lo, hi, [&p](size_t i) { return p.heap_live(i); }) : json(nullptr)},
          {"rss_bytes", min_max(lo, hi, [&p](size_t i) { return p.rss[i]; })}};
}

}  // namespace

const std::vector<std::string>& payload_query_methods() {
  static const std::vector<std::string> methods = {"rubygc.process", "rubygc.timeline", "rubygc.range",
                                                   timeline::kMethod};
  return methods;
}

json payload_query(const Payload& p, const std::string& method, const json& args) {
  if (p.n == 0) throw QueryError("this payload has no samples to ask about (see its verdict)");
  if (method == "rubygc.timeline") return timeline(p, args);
  if (method == "rubygc.range") return range(p, args);
  if (method == timeline::kMethod) return payload_timeline(p, args);
  throw QueryError("unknown method '" + method + "'");
}

}  // namespace gcscope::rubygc
