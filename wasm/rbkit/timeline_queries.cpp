// The object timeline after the report: the figures of any time range (the page's zoom asks them)
// and the leak reading of the live curve.
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "rbkit/capture.h"

namespace gcscope::rbkit {

namespace {
constexpr size_t kMaxRangeBins = 4000;
constexpr size_t kRangeClasses = 50;
}  // namespace

nlohmann::json CaptureDecoder::range(double t0_s, double t1_s) const {
  const auto first_sec = static_cast<int64_t>(std::floor(t0_s)), last_sec = static_cast<int64_t>(std::floor(t1_s));
  // The stored bin holding t0 (bins start at multiples of bin_width_), through the one holding t1.
  const int64_t from = first_sec - (((first_sec % bin_width_) + bin_width_) % bin_width_);
  auto begin = bins_.lower_bound(from), end = bins_.upper_bound(last_sec);
  uint64_t created = 0, destroyed = 0, live_start = 0, live_end = 0, live_min = UINT64_MAX, live_max = 0;
  if (begin != bins_.begin()) live_start = std::prev(begin)->second.live;
  live_end = live_start;
  std::unordered_map<uint32_t, std::pair<uint64_t, uint64_t>> by_class;
  std::vector<int64_t> t;
  std::vector<uint64_t> tc, td, tl;
  const size_t count = static_cast<size_t>(std::distance(begin, end));
  const size_t per_bin = (count + kMaxRangeBins - 1) / kMaxRangeBins;  // stored bins per answered bin
  size_t k = 0;
  for (auto it = begin; it != end; ++it, ++k) {
    const TimeBin& b = it->second;
    created += b.created;
    destroyed += b.destroyed;
    live_end = b.live;
    live_min = std::min(live_min, b.live);
    live_max = std::max(live_max, b.live);
    for (const auto& x : b.by_class) {
      auto& c = by_class[x.cls];
      c.first += x.created;
      c.second += x.destroyed;
    }
    if (k % std::max<size_t>(per_bin, 1) == 0) {
      t.push_back(it->first);
      tc.push_back(0);
      td.push_back(0);
      tl.push_back(0);
    }
    tc.back() += b.created;
    td.back() += b.destroyed;
    tl.back() = b.live;
  }
  std::vector<std::pair<uint32_t, std::pair<uint64_t, uint64_t>>> classes(by_class.begin(), by_class.end());
  std::sort(classes.begin(), classes.end(), [](const auto& a, const auto& b) {
    uint64_t x = a.second.first + a.second.second, y = b.second.first + b.second.second;
    return x != y ? x > y : a.first < b.first;
  });
  nlohmann::json cls = nlohmann::json::array();
  for (size_t i = 0; i < classes.size() && i < kRangeClasses; ++i) {
    const uint32_t c = classes[i].first;
    cls.push_back({{"class", c == kBeforeCapture ? std::string("(created before the capture)") : classes_.shown(c)},
                   {"created", classes[i].second.first},
                   {"destroyed", classes[i].second.second}});
  }
  uint64_t cycles = 0;
  double total_ms = 0, max_ms = 0;
  for (const auto& c : cycles_)
    if (c.start_ms >= t0_s * 1000.0 && c.start_ms <= t1_s * 1000.0) {
      ++cycles;
      total_ms += c.end_ms - c.start_ms;
      max_ms = std::max(max_ms, c.end_ms - c.start_ms);
    }
  const uint64_t cpu = static_cast<uint64_t>(std::count_if(
      cpu_t_.begin(), cpu_t_.end(), [&](double ms) { return ms >= t0_s * 1000.0 && ms <= t1_s * 1000.0; }));
  return {{"t0", t0_s},
          {"t1", t1_s},
          {"bin_s", bin_width_ * static_cast<int64_t>(std::max<size_t>(per_bin, 1))},
          {"objects",
           {{"created", created},
            {"destroyed", destroyed},
            {"net", static_cast<int64_t>(created) - static_cast<int64_t>(destroyed)},
            {"live_at_start", live_start},
            {"live_at_end", live_end},
            {"live_min", count ? live_min : live_start},
            {"live_max", count ? live_max : live_start}}},
          {"by_class", std::move(cls)},
          {"gc",
           {{"cycles", cycles},
            {"total_ms", total_ms},
            {"mean_ms", cycles ? total_ms / static_cast<double>(cycles) : 0.0},
            {"max_ms", max_ms}}},
          {"cpu_samples", cpu},
          {"timeline", {{"t", t}, {"created", tc}, {"destroyed", td}, {"live", tl}}}};
}

// The live curve counts objects created during the capture and not yet destroyed, so it starts at 0
// and climbs until the short-lived objects die as fast as they are made: only its second half says
// whether memory keeps growing. "growing" when, over that half, the least-squares line of live
// objects rises by more than 10% of their mean AND the lowest count of the last quarter is above
// the lowest of the third (the floor between GCs rises, not only the peaks).
nlohmann::json CaptureDecoder::leak_reading(const std::vector<uint64_t>& live_by_class) const {
  nlohmann::json out = {{"rule",
                         "second half of the capture: the live-object trend (least squares) rises by more than 10% of "
                         "the mean, and the lowest live count of the last quarter is above that of the third quarter"}};
  std::vector<std::pair<double, double>> pts;
  for (const auto& [sec, b] : bins_) pts.emplace_back(static_cast<double>(sec), static_cast<double>(b.live));
  const double span = pts.empty() ? 0 : pts.back().first - pts.front().first;
  if (pts.size() < 8 || span < 4) {
    out["verdict"] = "not enough data";
    out["why"] =
        created_ ? "fewer than 8 seconds with object events" : "no obj_created events (memory profiling was off)";
    return out;
  }
  const double mid = pts.front().first + span / 2, q4 = pts.front().first + span * 3 / 4;
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, min3 = INFINITY, min4 = INFINITY;
  for (const auto& [t, y] : pts) {
    if (t < mid) continue;
    const double x = t - mid;  // seconds since the epoch squared lose every digit of a slope
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
    if (t < q4) min3 = std::min(min3, y);
    else min4 = std::min(min4, y);
  }
  const double slope = n > 1 && n * sxx != sx * sx ? (n * sxy - sx * sy) / (n * sxx - sx * sx) : 0;
  const double mean = sy / n, growth = slope * (pts.back().first - mid);
  const bool growing = growth > 0.1 * mean && min4 > min3;
  out["verdict"] = growing ? "growing" : "stable";
  out["window_s"] = {mid, pts.back().first};
  out["mean_live"] = std::round(mean);
  out["growth"] = std::round(growth);
  out["growth_pct"] = mean > 0 ? std::round(1000.0 * growth / mean) / 10.0 : 0.0;
  out["per_minute"] = std::round(slope * 60.0);
  out["floor_third_quarter"] = std::isfinite(min3) ? min3 : 0.0;
  out["floor_last_quarter"] = std::isfinite(min4) ? min4 : 0.0;
  // What is left alive: the classes with the most objects created in the capture still live.
  std::vector<uint32_t> order;
  for (uint32_t c = 0; c < live_by_class.size(); ++c)
    if (live_by_class[c]) order.push_back(c);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return live_by_class[a] != live_by_class[b] ? live_by_class[a] > live_by_class[b] : a < b;
  });
  nlohmann::json classes = nlohmann::json::array();
  for (size_t i = 0; i < order.size() && i < 5; ++i)
    classes.push_back({{"class", classes_.shown(order[i])}, {"live_at_end", live_by_class[order[i]]}});
  out["classes"] = std::move(classes);
  return out;
}

}  // namespace gcscope::rbkit
