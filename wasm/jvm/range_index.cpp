// Building the range index (range_index.h) and answering a range's KPIs from it.
#include "jvm/range_index.h"

#include <algorithm>

#include "jvm/column_scan.h"

namespace gcscope::jvm {
namespace {

constexpr int64_t kNull = IntColumn::kNull;

// A running sum of absolute values that says whether it still fits in int64: while it does, any
// sum of any of the terms, in any order, is exact.
struct AbsSum {
  uint64_t sum = 0;
  bool fits = true;
  void add(int64_t v) {
    const uint64_t a = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    if (__builtin_add_overflow(sum, a, &sum) || sum > static_cast<uint64_t>(INT64_MAX)) fits = false;
  }
};

// Whether every sum a range question makes of the columns is exact in any order.
bool sums_fit(const GcColumns& c) {
  AbsSum paused, allocated, old_kb, phase_ns, durations, stopped;
  const GcColumns::Events& e = c.events;
  Reader pa(e.paused), al(e.allocated), ob(e.pool_before[kOld]), oa(e.pool_after[kOld]);
  for (size_t i = 0; i < e.size(); ++i) {
    paused.add(pa(i)), allocated.add(al(i));
    for (int64_t v : {ob(i), oa(i)})
      if (v != kNull) old_kb.add(v);
  }
  Reader pn(e.phase_ns);
  for (size_t i = 0; i < e.phase_ns.size(); ++i)
    if (const int64_t v = pn(i); v != kNull) phase_ns.add(v);
  Reader d(c.pauses.duration);
  for (size_t i = 0; i < c.pauses.size(); ++i) durations.add(d(i));
  Reader st(c.safepoints.stopped);
  for (size_t i = 0; i < c.safepoints.size(); ++i)
    if (const int64_t v = st(i); v != kNull) stopped.add(v);
  // (promotion adds differences of two old-generation sizes: within the sum of their sizes)
  for (const AbsSum* s : {&paused, &allocated, &old_kb, &phase_ns, &durations, &stopped})
    if (!s->fits) return false;
  return true;
}

// Every row with a time: what a block of the index adds up.
Span timed_rows() {
  Span s;
  s.test = true, s.lo = kNull + 1, s.hi = INT64_MAX;
  return s;
}

// Adds the rows of `span` to `s`: whole blocks of `rows` rows from `blocks`, the rest by `scan`.
template <typename Totals, typename Scan>
void sum_by_blocks(const std::vector<Totals>& blocks, size_t rows, const Span& span, Totals& s, Scan&& scan) {
  const size_t b0 = (span.begin + rows - 1) / rows, b1 = span.end / rows;
  if (b0 >= b1) return scan(span.begin, span.end);
  scan(span.begin, b0 * rows);
  for (size_t b = b0; b < b1; ++b) s.merge(blocks[b]);
  scan(b1 * rows, span.end);
}

}  // namespace

RangeIndex::RangeIndex(const GcAggregator& a) {
  exact = sums_fit(a.cols_);
  if (exact) add_totals(a), add_durations(a.cols_.pauses);
  add_event_chart(a.cols_.events);
  add_pause_chart(a.cols_.pauses);
}

void RangeIndex::add_totals(const GcAggregator& a) {
  const Span all = timed_rows();
  const GcColumns& c = a.cols_;
  for (size_t at = 0; at < c.events.size(); at += kRows)
    a.scan_events(at, std::min(at + kRows, c.events.size()), all, events.emplace_back());
  for (size_t at = 0; at < c.pauses.size(); at += kRows)
    a.scan_pauses(at, std::min(at + kRows, c.pauses.size()), all, pauses.emplace_back(), nullptr);
  for (size_t at = 0; at < c.safepoints.size(); at += kRows)
    a.scan_safepoints(at, std::min(at + kRows, c.safepoints.size()), all, safepoints.emplace_back());
}

void RangeIndex::add_durations(const GcColumns::Pauses& p) {
  // The durations of the pauses with a time, in row order; each becomes its rank among the distinct
  // ones (8 bytes a pause held while building, not 16 for sorted (duration, position) pairs).
  std::vector<int64_t> durations;
  durations.reserve(p.size());
  Reader t(p.t), duration(p.duration);
  for (size_t i = 0; i < p.size(); ++i) {
    if (i % kRows == 0) timed_before.push_back(durations.size());
    if (t(i) == kNull) untimed_pauses = true;
    else durations.push_back(duration(i));
  }
  timed_before.push_back(durations.size());
  distinct = durations;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  distinct.shrink_to_fit();
  std::vector<uint32_t> codes(durations.size());
  for (size_t i = 0; i < durations.size(); ++i)
    codes[i] =
        static_cast<uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), durations[i]) - distinct.begin());
  durations = {};
  unsigned bits = 0;
  while (bits < 32 && (size_t{1} << bits) < distinct.size()) ++bits;
  duration_ranks = WaveletMatrix(codes, bits);
}

size_t RangeIndex::timed_position(const GcColumns::Pauses& p, size_t row) const {
  if (!untimed_pauses) return row;
  const size_t block = row / kRows;
  size_t n = timed_before[block];
  Reader t(p.t);
  for (size_t i = block * kRows; i < row; ++i) n += t(i) != kNull;
  return n;
}

size_t RangeIndex::bytes() const {
  size_t n = (events.size() + pauses.size() + safepoints.size()) * sizeof(GcAggregator::RangeTotals);
  for (const auto* blocks : {&events, &pauses, &safepoints})
    for (const auto& b : *blocks)
      n += b.by_type.size() * 8 + (b.causes.size() + b.kinds.size() + b.phases.size()) * sizeof(b.causes[0]);
  n += distinct.size() * 8 + duration_ranks.bytes() + timed_before.size() * sizeof(size_t);
  n += (event_blocks.size() + pause_blocks.size()) * sizeof(ChartBlock);
  n += (event_min.size() + event_max.size() + pause_min.size() + pause_max.size()) * 8;
  return n;
}

const RangeIndex* GcAggregator::range_index() const {
  if (!range_index_) range_index_ = std::make_shared<const RangeIndex>(*this);
  return range_index_.get();
}

void GcAggregator::sum_events(const RangeIndex& index, const Span& span, RangeTotals& s) const {
  sum_by_blocks(index.events, RangeIndex::kRows, span, s, [&](size_t b, size_t e) { scan_events(b, e, span, s); });
}

void GcAggregator::sum_safepoints(const RangeIndex& index, const Span& span, RangeTotals& s) const {
  sum_by_blocks(index.safepoints, RangeIndex::kRows, span, s,
                [&](size_t b, size_t e) { scan_safepoints(b, e, span, s); });
}

// The pauses' totals by blocks; their percentiles from the wavelet matrix over the span's pauses
// (in a stream in time order, the pauses of a range are the timed rows of its span).
void GcAggregator::sum_pauses(const RangeIndex& index, const Span& span, RangeTotals& s) const {
  sum_by_blocks(index.pauses, RangeIndex::kRows, span, s,
                [&](size_t b, size_t e) { scan_pauses(b, e, span, s, nullptr); });
  const size_t first = index.timed_position(cols_.pauses, span.begin);
  s.rank_pauses_by(
      [&](size_t k) { return index.distinct[index.duration_ranks.kth_smallest(first, first + s.pauses, k)]; });
}

std::vector<const IntColumn*> chart_figure_columns(const GcColumns::Events& e) {
  std::vector<const IntColumn*> out = {&e.heap_before, &e.heap_after, &e.heap_committed, &e.paused};
  for (int k = 0; k < kPoolCount; ++k) out.push_back(&e.pool_before[k]), out.push_back(&e.pool_after[k]);
  return out;
}

// The heap chart draws an event with a time and a heap or pool figure; a pause time of 0 is no mark.
void RangeIndex::add_event_chart(const GcColumns::Events& e) {
  const std::vector<const IntColumn*> columns = chart_figure_columns(e);
  std::vector<int64_t> t(kChartRows), figures(kChartFigures * kChartRows);
  for (size_t at = 0; at < e.size(); at += kChartRows) {
    const size_t n = std::min(kChartRows, e.size() - at);
    e.t.decode(at, at + n, t.data());
    for (size_t k = 0; k < kChartFigures; ++k) columns[k]->decode(at, at + n, &figures[k * kChartRows]);
    ChartBlock& b = event_blocks.emplace_back();
    event_min.resize(event_min.size() + kChartFigures, kNull),
        event_max.resize(event_max.size() + kChartFigures, kNull);
    int64_t* mn = &event_min[event_min.size() - kChartFigures];
    int64_t* mx = &event_max[event_max.size() - kChartFigures];
    for (size_t r = 0; r < n; ++r) {
      if (t[r] == kNull) continue;
      bool drawn = false;
      for (size_t k = 0; k < kChartFigures; ++k)
        drawn = drawn || (k != kChartPause && figures[k * kChartRows + r] != kNull);
      if (!drawn) continue;
      if (b.count++ == 0) b.first = t[r];
      b.last = t[r];
      for (size_t k = 0; k < kChartFigures; ++k) {
        int64_t v = figures[k * kChartRows + r];
        if (k == kChartPause && v == 0) v = kNull;
        if (v == kNull) continue;
        if (mn[k] == kNull || v < mn[k]) mn[k] = v;
        if (mx[k] == kNull || v > mx[k]) mx[k] = v;
      }
    }
  }
}

void RangeIndex::add_pause_chart(const GcColumns::Pauses& p) {
  Reader t(p.t), duration(p.duration);
  for (size_t i = 0; i < p.size(); ++i) {
    if (i % kChartRows == 0) pause_blocks.emplace_back(), pause_min.push_back(kNull), pause_max.push_back(kNull);
    const int64_t ti = t(i), d = duration(i);
    if (ti == kNull) continue;
    ChartBlock& b = pause_blocks.back();
    if (b.count++ == 0) b.first = ti;
    b.last = ti;
    if (d == kNull) continue;
    if (pause_min.back() == kNull || d < pause_min.back()) pause_min.back() = d;
    if (pause_max.back() == kNull || d > pause_max.back()) pause_max.back() = d;
  }
}

}  // namespace gcscope::jvm
