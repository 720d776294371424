// A payload's timeline (core/timeline.h, method "timeline.series"): its GCs as bands, minor and major
// apart, the heap's live slots and the allocation rate as lines, on the payload's clock.
//
// A payload has no GC start or end times (GC_CYCLE_* samples are delivered late, and plain Ruby
// records only GC_CYCLE_ENDED, after the sweep): what it has is GC.stat counters read at each sample.
// minor_gc_count and major_gc_count rise when a GC runs, so the GCs a counter gained at a sample ran
// between the sample written before it and that sample: that interval is the GC's band, holding as
// many GCs as the counter rose. Its value is the GC time (GC.stat `time`, Ruby >= 3.1) gained from
// that interval until the next GC's: a GC's lazy sweep, and a sample written late, add to `time`
// after the counter rose. When both counters rose in one interval, the time is the major band's. Time
// gained before the first band belongs to a GC before the first sample and is left out.
// Counters are taken as their highest value written so far: a thread's late sample (check_counter_order)
// adds no GCs and no allocations twice.
#include <algorithm>
#include <cmath>

#include "core/timeline.h"
#include "queries.h"

namespace gcscope::rubygc {

namespace {

// A counter's highest value written so far and what the current sample adds to it.
class HighWater {
 public:
  HighWater(const Payload& p, int column) : present_(p.has(column)), column_(column) {}
  bool present() const { return present_; }
  // The rise at sample i over every sample before it (0 for the first sample or a lagging one).
  int64_t rise(const Payload& p, size_t i) {
    if (!present_) return 0;
    const int64_t v = p.at(i, column_);
    if (!seen_) {
      seen_ = true, high_ = v;
      return 0;
    }
    const int64_t r = v > high_ ? v - high_ : 0;
    high_ = std::max(high_, v);
    return r;
  }

 private:
  bool present_;
  int column_;
  bool seen_ = false;
  int64_t high_ = 0;
};

}  // namespace

std::vector<GcBand> gc_bands(const Payload& p) {
  const StatColumns& c = p.col;
  const size_t n = p.complete_samples();
  HighWater minors(p, c.minor), majors(p, c.major), gc_time(p, c.time);
  std::vector<GcBand> out;
  size_t open = SIZE_MAX;  // the band still gaining GC time
  double latest = NAN;     // the latest timestamp written before sample i
  for (size_t i = 0; i < n; ++i) {
    const double t = p.ts[i];
    const int64_t minor_gcs = minors.rise(p, i), major_gcs = majors.rise(p, i), gc_ms = gc_time.rise(p, i);
    if (!std::isnan(latest)) {
      const double start = std::min(latest, t), span = std::max(t - latest, 0.0);
      if (major_gcs > 0 && minor_gcs > 0) out.push_back({false, start, span, static_cast<uint64_t>(minor_gcs), NAN, i});
      if (major_gcs > 0 || minor_gcs > 0) {
        const bool major = major_gcs > 0;
        out.push_back({major, start, span, static_cast<uint64_t>(major ? major_gcs : minor_gcs), 0, i});
        open = out.size() - 1;
      }
      if (open != SIZE_MAX) out[open].gc_ms += static_cast<double>(gc_ms);
    }
    latest = std::isnan(latest) ? t : std::max(latest, t);
  }
  if (!gc_time.present())
    for (GcBand& b : out) b.gc_ms = NAN;
  return out;
}

nlohmann::json payload_timeline(const Payload& p, const nlohmann::json& args) {
  timeline::Range range = timeline::range_of(args);
  const StatColumns& c = p.col;
  const size_t n = p.complete_samples();
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n; ++i) lo = std::min(lo, p.ts[i]), hi = std::max(hi, p.ts[i]);
  if (lo <= hi) range.default_to(lo, hi);
  const bool wall = n > 0 && is_wall_clock(lo);

  timeline::Bands minor("minor GCs", "ms", range), major("major GCs", "ms", range);
  timeline::Line live("heap live slots", "slots", timeline::Line::Kind::kMax, range);
  timeline::Line allocated("objects allocated", "objects/s", timeline::Line::Kind::kRate, range);
  HighWater allocs(p, c.total_allocated);
  // Allocations seen at a sample written at the same instant as the one before wait for the next
  // interval of some length (a rate needs one).
  int64_t pending_allocs = 0;
  double latest = NAN;  // the latest timestamp written before sample i
  for (size_t i = 0; i < n; ++i) {
    const double t = p.ts[i];
    pending_allocs += allocs.rise(p, i);
    if (p.has(c.heap_live)) live.add(t, static_cast<double>(p.heap_live(i)));
    if (!std::isnan(latest)) {
      const double start = std::min(latest, t), span = std::max(t - latest, 0.0);
      if (allocs.present() && span > 0) {
        allocated.add(start, static_cast<double>(pending_allocs), span);
        pending_allocs = 0;
      }
    }
    latest = std::isnan(latest) ? t : std::max(latest, t);
  }
  for (const GcBand& b : gc_bands(p)) (b.major ? major : minor).add(b.start, b.span, b.gc_ms, b.gcs);
  nlohmann::json series = nlohmann::json::array();
  series.push_back(minor.take());
  series.push_back(major.take());
  if (p.has(c.heap_live)) series.push_back(live.take());
  if (allocs.present()) series.push_back(allocated.take());
  return timeline::answer(
      wall ? "epoch" : "own",
      wall ? "wall-clock time (the agent's timestamps)" : "the agent's monotonic clock (seconds since boot)", range,
      std::move(series));
}

}  // namespace gcscope::rubygc
