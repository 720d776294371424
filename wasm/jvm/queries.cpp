// The questions a JVM session answers from its columns (aggregator.h): the KPIs of a time range,
// the chart series of a range decimated to a pixel width, and pages of the event table.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/query.h"
#include "core/raw_json.h"
#include "jvm/aggregator.h"
#include "jvm/aggregator_internal.h"
#include "jvm/column_scan.h"
#include "jvm/range_index.h"

namespace gcscope::jvm {
namespace {

using nlohmann::json;
constexpr int64_t kNull = IntColumn::kNull;

// Nearest-rank index of quantile q among n sorted values.
size_t rank_of(size_t n, double q) {
  double rank = std::ceil(q * static_cast<double>(n));
  size_t i = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return std::min(i, n - 1);
}

double round6(double v) { return std::round(v * 1e6) / 1e6; }
json secs(int64_t ns) { return round6(static_cast<double>(ns) / 1e9); }
json num_or_null(double v) { return std::isnan(v) ? json() : json(v); }
json kb_or_null(int64_t v) { return v == kNull ? json() : json(v); }

bool is_young_type(int64_t t) {
  const auto g = static_cast<GcType>(t);
  return g == GcType::Young || g == GcType::PSYoungGen || g == GcType::DefNew || g == GcType::ParNew ||
         g == GcType::G1GCYoungInitialMark || g == GcType::Mixed;
}

// v[i], the vector grown to hold it (names are interned as the log is read).
template <typename V>
V& grown(std::vector<V>& v, int64_t i) {
  if (static_cast<size_t>(i) >= v.size()) v.resize(static_cast<size_t>(i) + 1);
  return v[static_cast<size_t>(i)];
}

void max_into(int64_t& m, int64_t v) {
  if (v != kNull && (m == kNull || v > m)) m = v;
}

}  // namespace

int PauseHistogram::bucket(int64_t ns) {
  int e = 0;
  const double m = std::frexp(std::max(static_cast<double>(ns) / 1e6, 1e-3), &e);
  return m == 0.5 ? e - 1 : e;  // an exact power of two is the top of the bucket below
}

void PauseHistogram::add(int e, uint64_t n) {
  if (count_.empty()) lo_ = e, count_.push_back(0);
  if (e < lo_) count_.insert(count_.begin(), static_cast<size_t>(lo_ - e), 0), lo_ = e;
  if (static_cast<size_t>(e - lo_) >= count_.size()) count_.resize(static_cast<size_t>(e - lo_) + 1, 0);
  count_[static_cast<size_t>(e - lo_)] += n;
}

std::vector<std::pair<int, uint64_t>> PauseHistogram::buckets() const {
  std::vector<std::pair<int, uint64_t>> out;
  for (size_t k = 0; k < count_.size(); ++k) out.emplace_back(lo_ + static_cast<int>(k), count_[k]);
  return out;
}

double GcAggregator::RangeTotals::runtime() const {
  if (std::isnan(first) || std::isnan(last) || last - first <= 0) return NAN;
  return last - first;
}

std::pair<double, double> GcAggregator::log_time_range() const {
  double first = diary_.first_uptime_s, last = diary_.last_uptime_s;
  if (std::isnan(first) || std::isnan(last)) first = ev_first_t_, last = ev_last_end_;
  return {first, last};
}

// ---- summary ----

namespace {
// Durations in a hostile log can be near INT64_MAX: sums saturate instead of overflowing.
int64_t saturating_add(int64_t a, int64_t b) {
  int64_t out;
  if (!__builtin_add_overflow(a, b, &out)) return out;
  return b > 0 ? INT64_MAX : INT64_MIN;
}
}  // namespace

void GcAggregator::RangeTotals::add_event(const EventFigures& f) {
  ++events;
  ++grown(by_type, f.type);
  if (f.cause >= 0) {
    Totals& c = grown(causes, f.cause);
    ++c.count, c.total = saturating_add(c.total, f.paused);
  }
  max_into(max_before, f.before);
  max_into(max_after, f.after);
  max_into(max_committed, f.committed);
  max_into(max_meta, f.meta_before);
  max_into(max_meta, f.meta_after);
  allocated_kb = saturating_add(allocated_kb, f.allocated);
  if (is_young_type(f.type) && f.old_before != kNull && f.old_after != kNull) {
    any_old = true;
    if (f.old_after > f.old_before) promoted_kb = saturating_add(promoted_kb, f.old_after - f.old_before);
  }
}

void GcAggregator::RangeTotals::add_phase(int64_t name, int64_t ns) {
  Totals& p = grown(phases, name);
  ++p.count;
  if (ns != kNull) p.total = saturating_add(p.total, ns), p.max = std::max(p.max, ns);
}

void GcAggregator::RangeTotals::add_pause(int64_t name, int64_t ns) {
  ++pauses;
  histogram.add(PauseHistogram::bucket(ns), 1);
  pause_total = saturating_add(pause_total, ns);
  for (Totals* k : {&grown(kinds, name), &grown(phases, name)})
    ++k->count, k->total = saturating_add(k->total, ns), k->max = std::max(k->max, ns);
}

void GcAggregator::RangeTotals::add_safepoint(int64_t stopped, int64_t reaching) {
  if (stopped == kNull) return;
  ++safepoints;
  sp_total = saturating_add(sp_total, stopped);
  sp_max = std::max(sp_max, stopped);
  if (reaching != kNull) reach_max = std::max(reach_max, reaching);
}

void GcAggregator::RangeTotals::merge(const RangeTotals& o) {
  events += o.events;
  for (size_t k = 0; k < o.by_type.size(); ++k)
    if (o.by_type[k]) grown(by_type, static_cast<int64_t>(k)) += o.by_type[k];
  auto add_totals = [](std::vector<Totals>& into, const std::vector<Totals>& from) {
    for (size_t k = 0; k < from.size(); ++k) {
      if (!from[k].count) continue;
      Totals& t = grown(into, static_cast<int64_t>(k));
      t.count += from[k].count, t.total = saturating_add(t.total, from[k].total), t.max = std::max(t.max, from[k].max);
    }
  };
  add_totals(causes, o.causes);
  add_totals(kinds, o.kinds);
  add_totals(phases, o.phases);
  max_into(max_before, o.max_before);
  max_into(max_after, o.max_after);
  max_into(max_committed, o.max_committed);
  max_into(max_meta, o.max_meta);
  allocated_kb = saturating_add(allocated_kb, o.allocated_kb);
  promoted_kb = saturating_add(promoted_kb, o.promoted_kb);
  any_old = any_old || o.any_old;
  pauses += o.pauses;
  pause_total = saturating_add(pause_total, o.pause_total);
  histogram.merge(o.histogram);
  safepoints += o.safepoints;
  sp_total = saturating_add(sp_total, o.sp_total);
  sp_max = std::max(sp_max, o.sp_max);
  reach_max = std::max(reach_max, o.reach_max);
}

void GcAggregator::RangeTotals::rank_pauses_by(const std::function<int64_t(size_t)>& kth) {
  const size_t n = pauses;
  if (!n) return;
  p50 = kth(rank_of(n, 0.50)), p90 = kth(rank_of(n, 0.90)), p99 = kth(rank_of(n, 0.99)), p999 = kth(rank_of(n, 0.999));
  median = kth(n / 2), pause_max = kth(n - 1), pause_min = kth(0);
}

void GcAggregator::RangeTotals::rank_pauses(std::vector<int64_t>& d) {
  const size_t n = d.size();
  if (!n) return;
  // Nearest ranks by selection in ascending order, no full sort: each selection leaves the ranks
  // above it to the right.
  std::vector<size_t> ranks = {0,    rank_of(n, 0.50), n / 2, rank_of(n, 0.90), rank_of(n, 0.99), rank_of(n, 0.999),
                               n - 1};
  std::sort(ranks.begin(), ranks.end());
  size_t lo = 0;
  for (size_t r : ranks) {
    if (r < lo) continue;  // the same rank again
    std::nth_element(d.begin() + static_cast<std::ptrdiff_t>(lo), d.begin() + static_cast<std::ptrdiff_t>(r), d.end());
    lo = r + 1;
  }
  rank_pauses_by([&](size_t k) { return d[k]; });
}

void GcAggregator::scan_events(size_t begin, size_t end, const Span& span, RangeTotals& s) const {
  const GcColumns::Events& e = cols_.events;
  Reader t(e.t), type(e.type), cause(e.cause), paused(e.paused), before(e.heap_before), after(e.heap_after),
      committed(e.heap_committed), meta_b(e.pool_before[kMetaspace]), meta_a(e.pool_after[kMetaspace]),
      old_b(e.pool_before[kOld]), old_a(e.pool_after[kOld]), allocated(e.allocated), phase_end(e.phase_end),
      phase_name(e.phase_name), phase_ns(e.phase_ns);
  size_t row = begin ? static_cast<size_t>(e.phase_end[begin - 1]) : 0;
  for (size_t i = begin; i < end; ++i) {
    const size_t rows_end = static_cast<size_t>(phase_end(i));
    if (!span.in(t(i))) {
      row = rows_end;
      continue;
    }
    s.add_event({type(i), cause(i), paused(i), before(i), after(i), committed(i), meta_b(i), meta_a(i), old_b(i),
                 old_a(i), allocated(i)});
    for (; row < rows_end; ++row) s.add_phase(phase_name(row), phase_ns(row));
  }
}

void GcAggregator::scan_pauses(size_t begin, size_t end, const Span& span, RangeTotals& s,
                               std::vector<int64_t>* durations) const {
  const GcColumns::Pauses& p = cols_.pauses;
  Reader t(p.t), duration(p.duration), name(p.name);
  for (size_t i = begin; i < end; ++i) {
    if (!span.in(t(i))) continue;
    const int64_t d = duration(i);
    s.add_pause(name(i), d);
    if (durations) durations->push_back(d);
  }
}

void GcAggregator::scan_safepoints(size_t begin, size_t end, const Span& span, RangeTotals& s) const {
  const GcColumns::Safepoints& sp = cols_.safepoints;
  Reader t(sp.t), stopped(sp.stopped), reaching(sp.reaching);
  for (size_t i = begin; i < end; ++i)
    if (span.in(t(i))) s.add_safepoint(stopped(i), reaching(i));
}

void GcAggregator::summarize(double t0, double t1, RangeTotals& s) const {
  s.t0 = t0, s.t1 = t1;
  auto [first, last] = log_time_range();
  if (!std::isnan(t0) || !std::isnan(t1)) {
    // A range covers the time of the log it overlaps.
    first = std::isnan(first) ? t0 : std::isnan(t0) ? first : std::max(first, t0);
    last = std::isnan(last) ? t1 : std::isnan(t1) ? last : std::min(last, t1);
  }
  s.first = first, s.last = last;
  const Span es = span_of(cols_.events.t, cols_.events_sorted, t0, t1),
             ps = span_of(cols_.pauses.t, cols_.pauses_sorted, t0, t1),
             ss = span_of(cols_.safepoints.t, cols_.safepoints_sorted, t0, t1);
  // A range of a stream in time order adds up the index's blocks; the whole log (which includes the
  // records without a time) and a stream out of order read every row.
  const RangeIndex* index = es.test ? range_index() : nullptr;
  if (index && !index->exact) index = nullptr;
  if (index && cols_.events_sorted) sum_events(*index, es, s);
  else scan_events(es.begin, es.end, es, s);
  if (index && cols_.pauses_sorted) {
    sum_pauses(*index, ps, s);
  } else {
    std::vector<int64_t> durations;
    durations.reserve(ps.end - ps.begin);
    scan_pauses(ps.begin, ps.end, ps, s, &durations);
    s.rank_pauses(durations);
  }
  if (index && cols_.safepoints_sorted) sum_safepoints(*index, ss, s);
  else scan_safepoints(ss.begin, ss.end, ss, s);
}

json GcAggregator::summary_json(const RangeTotals& s) const {
  json by_type = json::object();
  for (size_t i = 0; i < s.by_type.size(); ++i)
    if (s.by_type[i]) by_type[gc_type_name(static_cast<GcType>(i))] = s.by_type[i];
  const size_t n = s.pauses;
  const double total = static_cast<double>(s.pause_total) / 1e9;
  json out;
  out["events"] = {{"by_type", std::move(by_type)}, {"total", s.events}};
  out["pauses"] = {{"count", n},
                   {"total_s", round6(total)},
                   {"min_s", secs(s.pause_min)},
                   {"max_s", secs(s.pause_max)},
                   {"mean_s", n ? round6(total / static_cast<double>(n)) : 0.0},
                   {"p50_s", secs(s.p50)},
                   {"p90_s", secs(s.p90)},
                   {"p99_s", secs(s.p99)},
                   {"p999_s", secs(s.p999)}};
  json histogram = json::array();
  for (const auto& [e, count] : s.histogram.buckets())
    histogram.push_back({{"lo_ms", std::ldexp(1.0, e - 1)}, {"hi_ms", std::ldexp(1.0, e)}, {"count", count}});
  out["pause_histogram"] = std::move(histogram);
  const double runtime = s.runtime();
  out["time_range_s"] = {{"first", num_or_null(s.first)}, {"last", num_or_null(s.last)}};
  out["runtime_s"] = num_or_null(std::isnan(runtime) ? runtime : round6(runtime));
  const double percent_paused = std::isnan(runtime) ? NAN : std::min(100.0, total / runtime * 100.0);
  out["percent_paused"] = num_or_null(std::isnan(percent_paused) ? percent_paused : round6(percent_paused));
  out["throughput_percent"] = num_or_null(std::isnan(percent_paused) ? percent_paused : round6(100.0 - percent_paused));
  out["heap"] = {{"max_size_kb", kb_or_null(s.max_committed)},
                 {"max_occupancy_kb", kb_or_null(s.max_before)},
                 {"max_after_gc_kb", kb_or_null(s.max_after)},
                 {"max_metaspace_kb", kb_or_null(s.max_meta)},
                 {"configured_max_kb", diary_.max_heap_kb >= 0 ? json(diary_.max_heap_kb) : json()}};
  // Allocation = growth of the heap between collections; promotion = old-generation growth across
  // young collections; both over the runtime.
  json rates = {{"allocation_mb_s", json()}, {"promotion_mb_s", json()}};
  if (!std::isnan(runtime)) {
    rates["allocation_mb_s"] = round6(static_cast<double>(s.allocated_kb) / 1024.0 / runtime);
    if (s.any_old) rates["promotion_mb_s"] = round6(static_cast<double>(s.promoted_kb) / 1024.0 / runtime);
  }
  out["rates"] = std::move(rates);
  json causes = json::object(), kinds = json::object(), phases = json::object();
  for (size_t c = 0; c < s.causes.size(); ++c)
    if (s.causes[c].count) causes[causes_[c]] = {{"count", s.causes[c].count}, {"total_s", secs(s.causes[c].total)}};
  auto times = [](const Totals& x) {
    return json{{"count", x.count}, {"total_s", secs(x.total)}, {"max_s", secs(x.max)}};
  };
  for (size_t k = 0; k < s.kinds.size(); ++k)
    if (s.kinds[k].count) kinds[phases_[k]] = times(s.kinds[k]);
  for (size_t k = 0; k < s.phases.size(); ++k)
    if (s.phases[k].count) phases[phases_[k]] = times(s.phases[k]);
  out["causes"] = std::move(causes);
  out["pause_kinds"] = std::move(kinds);
  out["phases"] = std::move(phases);
  out["safepoints"] = {{"count", s.safepoints},
                       {"total_s", secs(s.sp_total)},
                       {"max_s", secs(s.sp_max)},
                       {"max_time_to_safepoint_s", secs(s.reach_max)}};
  return out;
}

json GcAggregator::summary(double t0, double t1) const {
  json out;
  if (std::isnan(t0) && std::isnan(t1) && whole_.is_object()) {
    out = whole_;
  } else {
    RangeTotals s;
    summarize(t0, t1, s);
    out = summary_json(s);
  }
  out["range"] = {{"t0", num_or_null(t0)}, {"t1", num_or_null(t1)}};
  return out;
}

}  // namespace gcscope::jvm
