// The chart series of a time range for a chart of a given pixel width (GcAggregator::series): the
// heap before/after/committed, the pause time of each event and the pools of the heap chart, and
// the pause durations of the pause chart. A range with at most two records per pixel column gives
// every record; a longer one gives, per pixel column, a row of the minima of each figure at the time
// of its first record and a row of the maxima at the time of its last, so a spike of one event
// among thousands is still drawn.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/raw_json.h"
#include "jvm/aggregator.h"
#include "jvm/column_scan.h"

namespace gcscope::jvm {
namespace {

using nlohmann::json;
constexpr int64_t kNull = IntColumn::kNull;

// The smallest and largest time of a stream (kNull when none).
std::pair<int64_t, int64_t> time_bounds(const IntColumn& t, bool sorted) {
  int64_t lo = kNull, hi = kNull;
  if (sorted) {
    for (size_t i = 0; i < t.size() && lo == kNull; ++i) lo = t[i];
    for (size_t i = t.size(); i-- > 0 && hi == kNull;) hi = t[i];
    return {lo, hi};
  }
  Reader r(t);
  for (size_t i = 0; i < t.size(); ++i) {
    const int64_t v = r(i);
    if (v == kNull) continue;
    if (lo == kNull || v < lo) lo = v;
    if (hi == kNull || v > hi) hi = v;
  }
  return {lo, hi};
}

// One chart: its records' times and figures, every record or the per-pixel minima and maxima.
class ChartRows {
 public:
  ChartRows(size_t figures, bool decimate, int64_t lo, int64_t hi, int width)
      : n_(figures), decimate_(decimate), lo_(lo), hi_(hi), width_(static_cast<size_t>(width)) {
    if (decimate_) {
      first_.assign(width_, kNull), last_.assign(width_, kNull), count_.assign(width_, 0);
      min_.assign(width_ * n_, kNull), max_.assign(width_ * n_, kNull);
    }
  }
  void add(int64_t t, const int64_t* values) {
    if (!decimate_) {
      t_.push_back(t);
      rows_.insert(rows_.end(), values, values + n_);
      return;
    }
    const double span = static_cast<double>(hi_ - lo_);
    size_t col = span > 0 ? static_cast<size_t>(static_cast<double>(t - lo_) / span * static_cast<double>(width_)) : 0;
    col = std::min(col, width_ - 1);
    if (count_[col]++ == 0) first_[col] = t;
    last_[col] = t;
    for (size_t k = 0; k < n_; ++k) {
      const int64_t v = values[k];
      if (v == kNull) continue;
      int64_t& mn = min_[col * n_ + k];
      int64_t& mx = max_[col * n_ + k];
      if (mn == kNull || v < mn) mn = v;
      if (mx == kNull || v > mx) mx = v;
    }
  }
  // {"t": [...], name: [...]...}; `seconds[k]` writes figure k as seconds (it is in ns).
  json take(const std::vector<const char*>& names, const std::vector<bool>& seconds) {
    if (decimate_) unfold();
    else if (!std::is_sorted(t_.begin(), t_.end())) by_time();  // members that overlap in time
    const size_t rows = t_.size();
    json out = json::object();
    raw_json::ArrayWriter t(rows);
    for (int64_t v : t_) t.number(static_cast<double>(v) / 1e9);
    out["t"] = t.take();
    for (size_t k = 0; k < n_; ++k) {
      raw_json::ArrayWriter a(rows);
      for (size_t r = 0; r < rows; ++r) {
        const int64_t v = rows_[r * n_ + k];
        if (v == kNull) a.null();
        else if (seconds[k]) a.number(static_cast<double>(v) / 1e9);
        else a.integer(v);
      }
      out[names[k]] = a.take();
    }
    return out;
  }

 private:
  // The pixel columns as rows: one per column of one record, else its minima then its maxima.
  void unfold() {
    for (size_t c = 0; c < width_; ++c) {
      if (!count_[c]) continue;
      t_.push_back(first_[c]);
      rows_.insert(rows_.end(), min_.begin() + static_cast<std::ptrdiff_t>(c * n_),
                   min_.begin() + static_cast<std::ptrdiff_t>((c + 1) * n_));
      if (count_[c] == 1) continue;
      t_.push_back(last_[c]);
      rows_.insert(rows_.end(), max_.begin() + static_cast<std::ptrdiff_t>(c * n_),
                   max_.begin() + static_cast<std::ptrdiff_t>((c + 1) * n_));
    }
  }
  void by_time() {
    std::vector<size_t> order(t_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return t_[a] < t_[b]; });
    std::vector<int64_t> t, rows;
    for (size_t i : order) {
      t.push_back(t_[i]);
      rows.insert(rows.end(), rows_.begin() + static_cast<std::ptrdiff_t>(i * n_),
                  rows_.begin() + static_cast<std::ptrdiff_t>((i + 1) * n_));
    }
    t_ = std::move(t), rows_ = std::move(rows);
  }
  size_t n_;
  bool decimate_;
  int64_t lo_, hi_;
  size_t width_;
  std::vector<int64_t> first_, last_, min_, max_;
  std::vector<uint64_t> count_;
  std::vector<int64_t> t_, rows_;
};

}  // namespace

json GcAggregator::series(double t0, double t1, int width) const {
  const GcColumns::Events& e = cols_.events;
  const GcColumns::Pauses& p = cols_.pauses;
  width = std::clamp(width, 1, 20000);
  // The range drawn: as asked, else the times of the records.
  int64_t lo = std::isnan(t0) ? kNull : to_ns(t0), hi = std::isnan(t1) ? kNull : to_ns(t1);
  if (lo == kNull || hi == kNull) {
    const auto [elo, ehi] = time_bounds(e.t, cols_.events_sorted);
    const auto [plo, phi] = time_bounds(p.t, cols_.pauses_sorted);
    if (lo == kNull) lo = elo == kNull ? plo : plo == kNull ? elo : std::min(elo, plo);
    if (hi == kNull) hi = ehi == kNull ? phi : phi == kNull ? ehi : std::max(ehi, phi);
  }
  json out = {{"t0", lo == kNull ? json() : json(static_cast<double>(lo) / 1e9)},
              {"t1", hi == kNull ? json() : json(static_cast<double>(hi) / 1e9)},
              {"width", width}};
  const double r0 = lo == kNull ? NAN : static_cast<double>(lo) / 1e9,
               r1 = hi == kNull ? NAN : static_cast<double>(hi) / 1e9;

  // Heap chart: heap figures, the event's pause time, and the pools the log printed.
  std::vector<const char*> names = {"heap_before_kb", "heap_after_kb", "heap_committed_kb", "pause_s"};
  std::vector<bool> in_seconds = {false, false, false, true};
  std::vector<std::string> pool_names;
  std::vector<const IntColumn*> figures = {&e.heap_before, &e.heap_after, &e.heap_committed, &e.paused};
  json pools = json::array();
  for (int k = 0; k < kPoolCount; ++k) {
    if (!e.pool_before[k].any_value() && !e.pool_after[k].any_value()) continue;
    pools.push_back(pool_name(k));
    pool_names.push_back(std::string(pool_name(k)) + "_before_kb");
    pool_names.push_back(std::string(pool_name(k)) + "_after_kb");
    figures.push_back(&e.pool_before[k]);
    figures.push_back(&e.pool_after[k]);
  }
  for (const auto& n : pool_names) names.push_back(n.c_str()), in_seconds.push_back(false);
  const Span es = span_of(e.t, cols_.events_sorted, r0, r1);
  const bool decimated = lo != kNull && (es.end - es.begin > 2 * static_cast<size_t>(width));
  {
    ChartRows rows(figures.size(), decimated, lo, hi, width);
    Reader t(e.t);
    std::vector<Reader> readers;
    readers.reserve(figures.size());
    for (const IntColumn* c : figures) readers.emplace_back(*c);
    std::vector<int64_t> v(figures.size());
    for (size_t i = es.begin; i < es.end; ++i) {
      const int64_t ti = t(i);
      if (ti == kNull || !es.in(ti)) continue;
      bool any = false;  // a record with no heap or pool figure is not drawn on the heap chart
      for (size_t k = 0; k < figures.size(); ++k) {
        v[k] = readers[k](i);
        if (k != 3 && v[k] != kNull) any = true;
      }
      if (!any) continue;
      if (v[3] == 0) v[3] = kNull;  // no pause mark for a concurrent event
      rows.add(ti, v.data());
    }
    out["events"] = rows.take(names, in_seconds);
  }
  // Pause chart.
  {
    const Span ps = span_of(p.t, cols_.pauses_sorted, r0, r1);
    const bool dec = lo != kNull && (ps.end - ps.begin > 2 * static_cast<size_t>(width));
    ChartRows rows(1, dec, lo, hi, width);
    Reader t(p.t), d(p.duration);
    for (size_t i = ps.begin; i < ps.end; ++i) {
      const int64_t ti = t(i);
      if (ti == kNull || !ps.in(ti)) continue;
      const int64_t ns = d(i);
      rows.add(ti, &ns);
    }
    out["pauses"] = rows.take({"duration_s"}, {true});
    out["pauses_decimated"] = dec;
  }
  out["decimated"] = decimated;
  out["pools"] = std::move(pools);
  return out;
}

}  // namespace gcscope::jvm
