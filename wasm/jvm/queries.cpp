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

// Pauses per power-of-two bucket of milliseconds: (e, count of durations in (2^(e-1), 2^e] ms),
// every e from the shortest pause's to the longest's; durations up to 1 µs count in the first.
std::vector<std::pair<int, uint64_t>> pause_histogram(const std::vector<int64_t>& ns) {
  std::vector<uint64_t> count;
  int lo = 0;
  for (int64_t v : ns) {
    int e = 0;
    const double m = std::frexp(std::max(static_cast<double>(v) / 1e6, 1e-3), &e);
    if (m == 0.5) --e;  // an exact power of two is the top of the bucket below
    if (count.empty()) lo = e, count.push_back(0);
    if (e < lo) count.insert(count.begin(), static_cast<size_t>(lo - e), 0), lo = e;
    if (static_cast<size_t>(e - lo) >= count.size()) count.resize(static_cast<size_t>(e - lo) + 1, 0);
    ++count[static_cast<size_t>(e - lo)];
  }
  std::vector<std::pair<int, uint64_t>> out;
  for (size_t k = 0; k < count.size(); ++k) out.emplace_back(lo + static_cast<int>(k), count[k]);
  return out;
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

void GcAggregator::RangeTotals::rank_pauses(std::vector<int64_t>& d) {
  const size_t n = d.size();
  histogram = pause_histogram(d);
  if (!n) return;
  // Nearest ranks by selection, no full sort.
  std::vector<size_t> ranks = {rank_of(n, 0.50), n / 2, rank_of(n, 0.90), rank_of(n, 0.99), rank_of(n, 0.999), n - 1};
  std::sort(ranks.begin(), ranks.end());
  size_t lo = 0;
  for (size_t r : ranks) {
    if (r < lo) continue;  // the same rank again
    std::nth_element(d.begin() + static_cast<std::ptrdiff_t>(lo), d.begin() + static_cast<std::ptrdiff_t>(r), d.end());
    lo = r + 1;
  }
  p50 = d[rank_of(n, 0.50)], p90 = d[rank_of(n, 0.90)], p99 = d[rank_of(n, 0.99)], p999 = d[rank_of(n, 0.999)];
  median = d[n / 2], pause_max = d[n - 1];
  // Everything left of the smallest selected rank is below it: the minimum is there.
  pause_min = *std::min_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(ranks.front() + 1));
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

  // Events and their phases.
  const GcColumns::Events& e = cols_.events;
  const Span es = span_of(e.t, cols_.events_sorted, t0, t1);
  Reader t(e.t), type(e.type), cause(e.cause), paused(e.paused), before(e.heap_before), after(e.heap_after),
      committed(e.heap_committed), meta_b(e.pool_before[kMetaspace]), meta_a(e.pool_after[kMetaspace]),
      old_b(e.pool_before[kOld]), old_a(e.pool_after[kOld]), allocated(e.allocated), phase_end(e.phase_end),
      phase_name(e.phase_name), phase_ns(e.phase_ns);
  size_t row = es.begin ? static_cast<size_t>(e.phase_end[es.begin - 1]) : 0;
  for (size_t i = es.begin; i < es.end; ++i) {
    const size_t rows_end = static_cast<size_t>(phase_end(i));
    if (!es.in(t(i))) {
      row = rows_end;
      continue;
    }
    s.add_event({type(i), cause(i), paused(i), before(i), after(i), committed(i), meta_b(i), meta_a(i), old_b(i),
                 old_a(i), allocated(i)});
    for (; row < rows_end; ++row) s.add_phase(phase_name(row), phase_ns(row));
  }

  // Pauses, and every duration of the range for the percentiles.
  const GcColumns::Pauses& p = cols_.pauses;
  const Span ps = span_of(p.t, cols_.pauses_sorted, t0, t1);
  Reader pt(p.t), pd(p.duration), pn(p.name);
  std::vector<int64_t> d;
  d.reserve(ps.end - ps.begin);
  for (size_t i = ps.begin; i < ps.end; ++i) {
    if (!ps.in(pt(i))) continue;
    d.push_back(pd(i));
    s.add_pause(pn(i), d.back());
  }
  s.rank_pauses(d);

  // Safepoints.
  const GcColumns::Safepoints& sp = cols_.safepoints;
  const Span ss = span_of(sp.t, cols_.safepoints_sorted, t0, t1);
  Reader st(sp.t), stopped(sp.stopped), reaching(sp.reaching);
  for (size_t i = ss.begin; i < ss.end; ++i)
    if (ss.in(st(i))) s.add_safepoint(stopped(i), reaching(i));
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
  for (const auto& [e, count] : s.histogram)
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
