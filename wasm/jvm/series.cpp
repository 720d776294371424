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
#include "jvm/range_index.h"

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
  // The pixel column of time t.
  size_t column(int64_t t) const {
    const double span = static_cast<double>(hi_ - lo_);
    const size_t col =
        span > 0 ? static_cast<size_t>(static_cast<double>(t - lo_) / span * static_cast<double>(width_)) : 0;
    return std::min(col, width_ - 1);
  }
  void add(int64_t t, const int64_t* values) {
    if (!decimate_) {
      t_.push_back(t);
      rows_.insert(rows_.end(), values, values + n_);
      return;
    }
    const size_t col = column(t);
    if (count_[col]++ == 0) first_[col] = t;
    last_[col] = t;
    extend(col, values, values);
  }
  // `count` records between times first and last, all in one pixel column, with these extremes.
  void add_block(int64_t first, int64_t last, uint32_t count, const int64_t* mins, const int64_t* maxs) {
    const size_t col = column(first);
    if (count_[col] == 0) first_[col] = first;
    count_[col] += count;
    last_[col] = last;
    extend(col, mins, maxs);
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
  void extend(size_t col, const int64_t* mins, const int64_t* maxs) {
    for (size_t k = 0; k < n_; ++k) {
      int64_t& mn = min_[col * n_ + k];
      int64_t& mx = max_[col * n_ + k];
      if (mins[k] != kNull && (mn == kNull || mins[k] < mn)) mn = mins[k];
      if (maxs[k] != kNull && (mx == kNull || maxs[k] > mx)) mx = maxs[k];
    }
  }
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

// The rows a chart reads one at a time: those of a block of the index that is not wholly in the
// span or whose records fall in more than one pixel column (each figure decoded for these rows only).
constexpr size_t kChunk = RangeIndex::kChartRows;

// The heap chart's records of `span`, figures `chosen` (indices of chart_figure_columns): a whole
// block of the index at once when its records fall in one pixel column, else row by row.
void add_event_rows(const GcColumns::Events& e, const Span& span, const std::vector<size_t>& chosen,
                    const RangeIndex* index, ChartRows& rows) {
  const std::vector<const IntColumn*> columns = chart_figure_columns(e);
  const size_t n = chosen.size();
  std::vector<int64_t> buffer(n * kChunk), t(kChunk), v(n), mins(n), maxs(n);
  for (size_t at = span.begin; at < span.end;) {
    const size_t b = at / kChunk, stop = std::min(span.end, (b + 1) * kChunk);
    if (index && at == b * kChunk && stop == (b + 1) * kChunk) {
      const RangeIndex::ChartBlock& block = index->event_blocks[b];
      if (block.count == 0 || rows.column(block.first) == rows.column(block.last)) {
        for (size_t k = 0; k < n; ++k)
          mins[k] = index->event_min[b * kChartFigures + chosen[k]],
          maxs[k] = index->event_max[b * kChartFigures + chosen[k]];
        if (block.count) rows.add_block(block.first, block.last, block.count, mins.data(), maxs.data());
        at = stop;
        continue;
      }
    }
    e.t.decode(at, stop, t.data());
    for (size_t k = 0; k < n; ++k) columns[chosen[k]]->decode(at, stop, buffer.data() + k * kChunk);
    for (size_t r = 0; r < stop - at; ++r) {
      if (t[r] == kNull || !span.in(t[r])) continue;
      bool any = false;  // a record with no heap or pool figure is not drawn on the heap chart
      for (size_t k = 0; k < n; ++k) {
        v[k] = buffer[k * kChunk + r];
        if (chosen[k] != kChartPause && v[k] != kNull) any = true;
      }
      if (!any) continue;
      if (v[kChartPause] == 0) v[kChartPause] = kNull;  // no pause mark for a concurrent event
      rows.add(t[r], v.data());
    }
    at = stop;
  }
}

// The pause chart's records of `span`, the same way.
void add_pause_rows(const GcColumns::Pauses& p, const Span& span, const RangeIndex* index, ChartRows& rows) {
  std::vector<int64_t> t(kChunk), d(kChunk);
  for (size_t at = span.begin; at < span.end;) {
    const size_t b = at / kChunk, stop = std::min(span.end, (b + 1) * kChunk);
    if (index && at == b * kChunk && stop == (b + 1) * kChunk) {
      const RangeIndex::ChartBlock& block = index->pause_blocks[b];
      if (block.count == 0 || rows.column(block.first) == rows.column(block.last)) {
        if (block.count)
          rows.add_block(block.first, block.last, block.count, &index->pause_min[b], &index->pause_max[b]);
        at = stop;
        continue;
      }
    }
    p.t.decode(at, stop, t.data());
    p.duration.decode(at, stop, d.data());
    for (size_t r = 0; r < stop - at; ++r)
      if (t[r] != kNull && span.in(t[r])) rows.add(t[r], &d[r]);
    at = stop;
  }
}

}  // namespace

json GcAggregator::series(double t0, double t1, int width, const std::optional<std::vector<std::string>>& asked) const {
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
  const Span es = span_of(e.t, cols_.events_sorted, r0, r1), ps = span_of(p.t, cols_.pauses_sorted, r0, r1);
  // A range question reads the index's blocks (the report's whole-log chart does not build it).
  const RangeIndex* index = std::isnan(t0) && std::isnan(t1) ? nullptr : range_index();

  // Heap chart: heap figures, the event's pause time, and the pools the log printed.
  std::vector<const char*> names = {"heap_before_kb", "heap_after_kb", "heap_committed_kb", "pause_s"};
  std::vector<bool> in_seconds = {false, false, false, true};
  std::vector<size_t> chosen = {0, 1, 2, kChartPause};
  std::vector<std::string> pool_names;
  json pools = json::array();
  for (int k = 0; k < kPoolCount; ++k) {
    if (!e.pool_before[k].any_value() && !e.pool_after[k].any_value()) continue;
    if (asked && std::find(asked->begin(), asked->end(), pool_name(k)) == asked->end()) continue;
    pools.push_back(pool_name(k));
    pool_names.push_back(std::string(pool_name(k)) + "_before_kb");
    pool_names.push_back(std::string(pool_name(k)) + "_after_kb");
    chosen.push_back(4 + 2 * static_cast<size_t>(k)), chosen.push_back(5 + 2 * static_cast<size_t>(k));
  }
  for (const auto& n : pool_names) names.push_back(n.c_str()), in_seconds.push_back(false);
  const bool decimated = lo != kNull && (es.end - es.begin > 2 * static_cast<size_t>(width));
  ChartRows heap(chosen.size(), decimated, lo, hi, width);
  add_event_rows(e, es, chosen, decimated && cols_.events_sorted ? index : nullptr, heap);
  out["events"] = heap.take(names, in_seconds);

  const bool pauses_decimated = lo != kNull && (ps.end - ps.begin > 2 * static_cast<size_t>(width));
  ChartRows pause(1, pauses_decimated, lo, hi, width);
  add_pause_rows(p, ps, pauses_decimated && cols_.pauses_sorted ? index : nullptr, pause);
  out["pauses"] = pause.take({"duration_s"}, {true});
  out["pauses_decimated"] = pauses_decimated;
  out["decimated"] = decimated;
  out["pools"] = std::move(pools);
  return out;
}

}  // namespace gcscope::jvm
