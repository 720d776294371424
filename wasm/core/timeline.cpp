#include "core/timeline.h"

#include <algorithm>

#include "core/query.h"
#include "core/raw_json.h"

namespace gcscope::timeline {

namespace {

using nlohmann::json;

// The pixel column of time t in a range of `width` columns.
size_t column_of(const Range& r, double t) {
  const double span = r.t1 - r.t0;
  const double at = span > 0 ? (t - r.t0) / span * r.width : 0;
  return static_cast<size_t>(std::clamp(at, 0.0, static_cast<double>(r.width - 1)));
}

// The first time of column c.
double column_start(const Range& r, size_t c) { return r.t0 + (r.t1 - r.t0) * static_cast<double>(c) / r.width; }

json numbers(const std::vector<double>& v) {
  raw_json::ArrayWriter a(v.size());
  for (double x : v) {
    if (std::isfinite(x)) a.number(x);
    else a.null();
  }
  return a.take();
}

json integers(const std::vector<uint64_t>& v) {
  raw_json::ArrayWriter a(v.size());
  for (uint64_t x : v) a.integer(static_cast<int64_t>(x));
  return a.take();
}

json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(); }

}  // namespace

void Range::default_to(double lo, double hi) {
  if (std::isnan(t0)) t0 = lo;
  if (std::isnan(t1)) t1 = hi;
}

Range range_of(const json& args) {
  Range r;
  r.t0 = query_args::number(args, "t0", NAN);
  r.t1 = query_args::number(args, "t1", NAN);
  r.width = static_cast<int>(query_args::integer(args, "width", 1000, 1, 20000));
  if (!std::isnan(r.t0) && !std::isnan(r.t1) && r.t1 < r.t0) throw QueryError("argument 't1' must not be before 't0'");
  return r;
}

// ---- Bands ----

void Bands::add(double start, double duration, double value, uint64_t items) {
  if (!r_.contains(start) || items == 0) return;
  count_ += items;
  if (std::isfinite(value)) total_ += value, max_ = std::isnan(max_) ? value : std::max(max_, value);
  const double end = start + (std::isfinite(duration) && duration > 0 ? duration : 0);
  if (!merged_) {
    items_.push_back({start, end, value, items});
    if (items_.size() > 2 * static_cast<size_t>(r_.width)) merge_all();
    return;
  }
  Item& c = items_[column_of(r_, start)];
  const bool first = c.count == 0;
  c.count += items;
  if (first) c.start = start, c.end = end, c.max = value;
  else c.start = std::min(c.start, start), c.end = std::max(c.end, end), c.max = std::fmax(c.max, value);
}

void Bands::merge_all() {
  std::vector<Item> columns(static_cast<size_t>(r_.width), Item{0, 0, NAN, 0});
  for (const Item& it : items_) {
    Item& c = columns[column_of(r_, it.start)];
    const bool first = c.count == 0;
    c.count += it.count;
    if (first) c.start = it.start, c.end = it.end, c.max = it.max;
    else c.start = std::min(c.start, it.start), c.end = std::max(c.end, it.end), c.max = std::fmax(c.max, it.max);
  }
  items_ = std::move(columns);
  merged_ = true;
}

json Bands::take() {
  if (!merged_)
    std::stable_sort(items_.begin(), items_.end(), [](const Item& a, const Item& b) { return a.start < b.start; });
  std::vector<double> start, end, max;
  std::vector<uint64_t> count;
  for (const Item& it : items_) {
    if (!it.count) continue;
    start.push_back(it.start), end.push_back(it.end), max.push_back(it.max);
    count.push_back(it.count);
  }
  return {{"name", name_},
          {"kind", "bands"},
          {"unit", unit_},
          {"merged", merged_},
          {"start", numbers(start)},
          {"end", numbers(end)},
          {"count", integers(count)},
          {"max", numbers(max)},
          {"totals", {{"count", count_}, {"total", total_}, {"max", finite_or_null(max_)}}}};
}

// ---- Line ----

void Line::add(double t, double value, double bin_s) {
  if (!r_.contains(t) || !std::isfinite(value)) return;
  ++count_;
  total_ += value;
  max_ = std::isnan(max_) ? value : std::max(max_, value);
  if (!merged_) {
    points_.push_back({t, value, bin_s > 0 ? bin_s : 1});
    if (points_.size() > 2 * static_cast<size_t>(r_.width)) merge_all();
    return;
  }
  Point& c = points_[column_of(r_, t)];
  if (std::isnan(c.t)) c.t = t, c.value = value;
  else c.value = kind_ == Kind::kMax ? std::max(c.value, value) : c.value + value;
}

void Line::merge_all() {
  std::vector<Point> columns(static_cast<size_t>(r_.width), Point{NAN, 0, 0});
  for (const Point& p : points_) {
    Point& c = columns[column_of(r_, p.t)];
    if (std::isnan(c.t)) c.t = p.t, c.value = p.value;
    else c.value = kind_ == Kind::kMax ? std::max(c.value, p.value) : c.value + p.value;
  }
  points_ = std::move(columns);
  merged_ = true;
}

json Line::take() {
  if (!merged_)
    std::stable_sort(points_.begin(), points_.end(), [](const Point& a, const Point& b) { return a.t < b.t; });
  const double column_s = (r_.t1 - r_.t0) / r_.width;
  std::vector<double> t, value;
  for (size_t i = 0; i < points_.size(); ++i) {
    const Point& p = points_[i];
    if (std::isnan(p.t)) continue;
    // A merged column is drawn at its start; a rate is its count over the column's width.
    t.push_back(merged_ ? column_start(r_, i) : p.t);
    if (kind_ == Kind::kMax) value.push_back(p.value);
    else value.push_back(p.value / (merged_ ? std::max(column_s, 1e-9) : p.bin_s));
  }
  json totals = {{"count", count_}};
  if (kind_ == Kind::kMax) totals["max"] = finite_or_null(max_);
  else totals["total"] = total_;
  return {{"name", name_},   {"kind", "line"},          {"unit", unit_},   {"merged", merged_},
          {"t", numbers(t)}, {"value", numbers(value)}, {"totals", totals}};
}

json answer(const std::string& clock, const std::string& clock_name, const Range& range, json series) {
  return {{"clock", clock},
          {"clock_name", clock_name},
          {"t0", finite_or_null(range.t0)},
          {"t1", finite_or_null(range.t1)},
          {"width", range.width},
          {"series", std::move(series)}};
}

}  // namespace gcscope::timeline
