#include "jvm/aggregator.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include "core/raw_json.h"
#include "core/text_scan.h"
#include "jvm/aggregator_internal.h"

namespace gcscope::jvm {
namespace {

constexpr size_t kUnparsedSamples = 20;
constexpr size_t kSampleChars = 300;
constexpr size_t kMaxSystemGcTimes = 100000;  // the hourly-pattern check needs a few; bound it anyway

double nan_to_zero(double v) { return std::isnan(v) ? 0.0 : v; }

// JSON number or null for NaN/negative "not printed" values.
nlohmann::json num_or_null(double v) { return std::isnan(v) ? nlohmann::json() : nlohmann::json(v); }
nlohmann::json kb_or_null(double v) { return (std::isnan(v) || v < 0) ? nlohmann::json() : nlohmann::json(static_cast<int64_t>(v)); }

// Rounds to microseconds so the report does not carry float noise (0.30000000000000004).
double round6(double v) { return std::round(v * 1e6) / 1e6; }
// The same rounding as an integer (the packed columns and the duration histogram).
// Clamped to ±2^53 µs (285 years): beyond that llround has no int64 answer and a corrupt stamp
// would overflow the delta coding (fuzz find); the page reads the values as exact doubles.
int64_t micros(double s) {
  constexpr double kMax = 9007199254740992.0;
  double us = s * 1e6;
  return static_cast<int64_t>(std::llround(us > kMax ? kMax : us < -kMax ? -kMax : us));
}

const char* tri_json(Tri t) { return t == Tri::kTrue ? "true" : t == Tri::kFalse ? "false" : "null"; }

void upd_max(double& m, double v) {
  if (!std::isnan(v) && (std::isnan(m) || v > m)) m = v;
}
void upd_min(double& m, double v) {
  if (!std::isnan(v) && (std::isnan(m) || v < m)) m = v;
}
double kb(int64_t v) { return v >= 0 ? static_cast<double>(v) : kUnknown; }

bool is_young_type(GcType t) {
  return t == GcType::Young || t == GcType::PSYoungGen || t == GcType::DefNew || t == GcType::ParNew ||
         t == GcType::G1GCYoungInitialMark || t == GcType::Mixed;
}

}  // namespace

// ---- buckets ----

void GcAggregator::Bucket::absorb(const Bucket& o) {
  upd_min(t_first, o.t_first);
  upd_max(t_last, o.t_last);
  if (std::isnan(wall)) wall = o.wall;
  upd_max(duration, o.duration);
  paused += o.paused;
  allocated_kb += o.allocated_kb;
  upd_max(heap_before, o.heap_before);
  upd_min(heap_after_min, o.heap_after_min);
  upd_max(heap_after_max, o.heap_after_max);
  upd_max(heap_committed, o.heap_committed);
  for (int p = 0; p < kPoolCount; ++p) {
    upd_max(pool_before[p], o.pool_before[p]);
    upd_max(pool_after[p], o.pool_after[p]);
  }
  if (!line) line = o.line;
  if (gc_id < 0) gc_id = o.gc_id;
  count += o.count;
  with_after += o.with_after;
  flags |= o.flags;
  for (const auto& c : o.phases) {
    auto it = std::find_if(phases.begin(), phases.end(), [&](const PhaseCell& x) { return x.name == c.name; });
    if (it == phases.end()) {
      phases.push_back(c);
    } else {
      it->count += c.count;
      it->total += c.total;
      it->max = std::max(it->max, c.max);
    }
  }
}

void GcAggregator::SafepointBucket::absorb(const SafepointBucket& o) {
  upd_min(t_first, o.t_first);
  upd_max(t_last, o.t_last);
  total += o.total;
  max = std::max(max, o.max);
  if (!line) line = o.line;
  count += o.count;
  n += o.n;
}

GcAggregator::Bucket& GcAggregator::open_bucket() {
  if (buckets_.empty() || buckets_.back().count >= per_bucket_) {
    if (buckets_.size() >= kMaxBuckets) halve(buckets_, per_bucket_, kMaxBuckets / 2);
    if (buckets_.empty() || buckets_.back().count >= per_bucket_) buckets_.emplace_back();
  }
  return buckets_.back();
}

GcAggregator::SafepointBucket& GcAggregator::open_safepoint_bucket() {
  if (sp_buckets_.empty() || sp_buckets_.back().n >= sp_per_bucket_) {
    if (sp_buckets_.size() >= kMaxBuckets) halve(sp_buckets_, sp_per_bucket_, kMaxBuckets / 2);
    if (sp_buckets_.empty() || sp_buckets_.back().n >= sp_per_bucket_) sp_buckets_.emplace_back();
  }
  return sp_buckets_.back();
}

// ---- interning ----

uint32_t GcAggregator::intern_cause(std::string_view cause) {
  auto it = cause_index_.find(cause);
  if (it != cause_index_.end()) return it->second;
  auto idx = static_cast<uint32_t>(causes_.size());
  causes_.emplace_back(cause);
  cause_index_.emplace(std::string_view(causes_.back()), idx);
  cause_class_.push_back(classify_cause(cause));
  cause_stats_.emplace_back();
  return idx;
}

uint32_t GcAggregator::intern_phase(std::string_view name) {
  auto it = phase_index_.find(name);
  if (it != phase_index_.end()) return it->second;
  auto idx = static_cast<uint32_t>(phases_.size());
  phases_.emplace_back(name);
  phase_index_.emplace(std::string_view(phases_.back()), idx);
  phase_stats_.emplace_back();
  return idx;
}

uint32_t GcAggregator::intern_phase_at(std::vector<uint32_t>& seen, size_t k, std::string_view name) {
  if (k < seen.size() && text::equals(name, phases_[seen[k]])) return seen[k];
  const uint32_t idx = intern_phase(name);
  if (k < seen.size()) seen[k] = idx;
  else seen.push_back(idx);  // positions fill in order: k == seen.size() here
  return idx;
}

void GcAggregator::add_phase(uint32_t idx, double seconds) {
  auto& st = phase_stats_[idx];
  ++st.count;
  if (!std::isnan(seconds)) {
    st.total += seconds;
    st.max = std::max(st.max, seconds);
  }
}

// ---- events ----

void GcAggregator::on_event(const GcEvent& e) {
  ++events_total_;
  const size_t type_idx = static_cast<size_t>(e.type) % static_cast<size_t>(GcType::kCount);
  ++type_counts_[type_idx];
  // Consecutive events mostly share their cause: compare with the last one before hashing.
  int32_t cause = -1;
  if (!e.cause.empty()) {
    if (last_cause_ < 0 || !text::equals(e.cause, causes_[static_cast<size_t>(last_cause_)])) last_cause_ = static_cast<int32_t>(intern_cause(e.cause));
    cause = last_cause_;
  }
  const uint16_t cclass = cause < 0 ? 0 : cause_class_[static_cast<size_t>(cause)];
  const double t = e.uptime_s;
  const double before = kb(e.heap.before_kb), after = kb(e.heap.after_kb), committed = kb(e.heap.committed_kb);

  // Time range (used when the diary saw no stamps).
  if (!std::isnan(t)) {
    upd_min(ev_first_t_, t);
    upd_max(ev_last_end_, t + nan_to_zero(e.duration_s));
  }
  // Heap maxima and rates.
  upd_max(max_before_, before);
  upd_max(max_after_, after);
  upd_max(max_committed_, committed);
  upd_max(max_meta_, kb(std::max(e.metaspace.after_kb, e.metaspace.before_kb)));
  double allocated = 0;
  if (!std::isnan(before) && !std::isnan(after)) {
    if (!std::isnan(prev_after_) && before > prev_after_) allocated = before - prev_after_;
    prev_after_ = after;
    allocated_kb_ += allocated;
  }
  if (is_young_type(e.type) && e.old.before_kb >= 0 && e.old.after_kb >= 0) {
    any_old_ = true;
    if (e.old.after_kb > e.old.before_kb) promoted_kb_ += static_cast<double>(e.old.after_kb - e.old.before_kb);
  }
  if (!std::isnan(e.user_s) && !std::isnan(e.sys_s)) {
    ++cpu_events_;
    if (e.sys_s > e.user_s && e.sys_s >= 0.01) {
      if (!sys_heavy_ || e.first_line < first_sys_heavy_line_) first_sys_heavy_line_ = e.first_line;
      ++sys_heavy_;
    }
  }

  // Pauses: the event itself when stop-the-world, and the pauses inside a concurrent cycle.
  double paused = 0;
  auto add_pause = [&](double pt, double d, uint32_t name, uint64_t line) {
    const auto line32 = static_cast<uint32_t>(std::min<uint64_t>(line, UINT32_MAX));
    if (pauses_bucketed_ || pause_count_ >= exact_pause_cap_) {
      add_bucketed_pause(pt, d, name, cause, line32, e.member);
    } else {
      pause_t_.push_back(pt);
      pause_dur_.push_back(d);
      pause_name_.push_back(name);
      pause_cause_.push_back(cause);
      pause_line_.push_back(line32);
    }
    ++pause_count_;
    pause_max_ = std::max(pause_max_, d);
    pause_total_ += d;
    paused += d;
    if (line && (!min_pause_line_ || line < min_pause_line_)) min_pause_line_ = line;
  };
  if (pause_members_.empty() || pause_members_.back().second != e.member) pause_members_.emplace_back(pause_t_.size(), e.member);
  phase_scratch_.clear();
  for (const auto& ph : e.phases) {
    uint32_t idx = intern_phase_at(phase_at_, phase_scratch_.size(), ph.first);
    phase_scratch_.push_back(idx);
    add_phase(idx, ph.second);
  }
  if (e.stop_the_world && !std::isnan(e.duration_s)) {
    uint32_t& name = type_pause_name_[type_idx];
    if (name == UINT32_MAX) name = intern_phase(std::string("Pause ") + gc_type_name(e.type));
    add_pause(t, e.duration_s, name, e.first_line);
    // The pause itself is a phase row too ("Pause Young" etc. are named by type).
    add_phase(name, e.duration_s);
  }
  for (size_t k = 0; k < e.pauses_within.size(); ++k) {
    const auto& p = e.pauses_within[k];
    uint32_t idx = intern_phase_at(pause_within_at_, k, p.name);
    add_phase(idx, p.duration_s);
    if (!std::isnan(p.duration_s)) add_pause(p.uptime_s, p.duration_s, idx, p.line);
  }
  if (cause >= 0) {
    auto& cs = cause_stats_[static_cast<size_t>(cause)];
    ++cs.count;
    cs.total += paused;
  }

  // Findings' tallies.
  const uint64_t line = e.first_line;
  const bool explicit_cause = (cclass & kCauseExplicit) != 0;
  if (explicit_cause) explicit_gc_.note(t, line);
  if (cclass & kCauseSystemGc) {
    system_gc_.note(t, line);
    if (!std::isnan(t) && system_gc_times_.size() < kMaxSystemGcTimes) system_gc_times_.push_back(t);
  }
  if (e.flags & (kToSpaceExhausted | kEvacuationFailure)) evacuation_failure_.note(t, line);
  if (cclass & kCauseHumongous) humongous_.note(t, line);
  const bool full = is_full_gc_type(e.type);
  if (full && !explicit_cause) full_not_explicit_.note(t, line);
  if (e.stop_the_world) {
    ++stw_events_;
    if (full) full_stw_.note(t, line);
    double cap = committed;
    if (live_diary_ && live_diary_->max_heap_kb > 0) cap = static_cast<double>(live_diary_->max_heap_kb);
    if (!std::isnan(cap) && cap > 0 && !std::isnan(after) && after >= 0.9 * cap) full_after_gc_.note(t, line);
  }
  if (e.flags & kDegenerated) degenerated_.note(t, line);
  if (cclass & kCauseMetaspace) metaspace_gc_.note(t, line);
  if (cclass & kCauseGcLocker) gclocker_.note(t, line);
  if (e.flags & kConcurrentMarkAbort) mark_aborted_.note(t, line);
  if (cclass & kCauseAllocationFailure) late_concurrent_.note(t, line);

  // The event's bucket.
  Bucket& b = open_bucket();
  if (b.count == 0) {
    b.type = static_cast<uint8_t>(type_idx);
    b.stw = e.stop_the_world ? 1 : 0;
    b.cause = cause;
    b.line = line;
    b.gc_id = e.gc_id;
    b.member = e.member;
    b.wall = e.wall_epoch_ms;
  }
  ++b.count;
  upd_min(b.t_first, t);
  upd_max(b.t_last, t);
  upd_max(b.duration, e.duration_s);
  b.paused += paused;
  b.allocated_kb += allocated;
  upd_max(b.heap_before, before);
  upd_min(b.heap_after_min, after);
  upd_max(b.heap_after_max, after);
  upd_max(b.heap_committed, committed);
  if (!std::isnan(after)) ++b.with_after;
  b.flags |= e.flags;
  if (!std::isnan(e.wall_epoch_ms)) any_wall_ = true;
  const PoolSizes* pools[kPoolCount] = {&e.young, &e.eden, &e.survivor, &e.old, &e.humongous, &e.metaspace};
  for (int p = 0; p < kPoolCount; ++p) {
    if (!pools[p]->present()) continue;
    any_pool_[p] = true;
    upd_max(b.pool_before[p], kb(pools[p]->before_kb));
    upd_max(b.pool_after[p], kb(pools[p]->after_kb));
  }
  for (size_t k = 0; k < e.phases.size(); ++k) {
    const uint32_t idx = phase_scratch_[k];
    const double s = nan_to_zero(e.phases[k].second);
    auto it = std::find_if(b.phases.begin(), b.phases.end(), [&](const PhaseCell& c) { return c.name == idx; });
    if (it == b.phases.end()) {
      b.phases.push_back({idx, 1, s, s});
    } else {
      ++it->count;
      it->total += s;
      it->max = std::max(it->max, s);
    }
  }
}

// ---- bucketed pauses ----

void GcAggregator::bucket_pauses() {
  if (pauses_bucketed_) return;
  pauses_bucketed_ = true;
  // The exact pauses in arrival order, each with its member (segments of pause_members_).
  const size_t n = pause_dur_.size();
  size_t seg = 0;
  for (size_t i = 0; i < n; ++i) {
    while (seg + 1 < pause_members_.size() && pause_members_[seg + 1].first <= i) ++seg;
    const uint32_t member = pause_members_.empty() ? 0 : pause_members_[seg].second;
    add_bucketed_pause(pause_t_[i], pause_dur_[i], pause_name_[i], pause_cause_[i], pause_line_[i], member);
  }
  pause_t_.clear();
  pause_dur_.clear();
  pause_name_.clear();
  pause_cause_.clear();
  pause_line_.clear();
  pause_members_.clear();
  pause_members_.shrink_to_fit();
}

void GcAggregator::add_bucketed_pause(double t, double d, uint32_t name, int32_t cause, uint32_t line, uint32_t member) {
  if (!pauses_bucketed_) bucket_pauses();
  pause_hist_.add(micros(d), line);
  if (pause_buckets_.empty() || pause_buckets_.back().count >= pause_per_bucket_ || pause_buckets_.back().member != member) {
    if (pause_buckets_.size() >= kMaxBuckets) halve(pause_buckets_, pause_per_bucket_, kMaxBuckets / 2);
    if (pause_buckets_.empty() || pause_buckets_.back().count >= pause_per_bucket_ || pause_buckets_.back().member != member) {
      pause_buckets_.emplace_back();
      pause_buckets_.back().member = member;
    }
  }
  pause_buckets_.back().add(t, d, name, cause, line);
}

GcAggregator::PauseSeriesSize GcAggregator::pause_series_size() const {
  PauseSeriesSize z{pauses_bucketed_, static_cast<size_t>(pause_count_), pause_dur_.size(), pause_buckets_.size(),
                    pause_hist_.distinct(), 0};
  z.bytes = pause_dur_.size() * (2 * sizeof(double) + 3 * sizeof(uint32_t)) + pause_hist_.bytes();
  for (const auto& b : pause_buckets_) z.bytes += b.bytes();
  return z;
}

void GcAggregator::on_safepoint(const SafepointEvent& e) {
  SafepointBucket& b = open_safepoint_bucket();
  if (b.n == 0) b.line = e.line, b.member = e.member;
  ++b.n;
  upd_min(b.t_first, e.uptime_s);
  upd_max(b.t_last, e.uptime_s);
  if (!have_sp_) sp_first_line_ = e.line, have_sp_ = true;
  if (!std::isnan(e.stopped_s)) {
    ++b.count;
    b.total += e.stopped_s;
    b.max = std::max(b.max, e.stopped_s);
    ++sp_count_;
    sp_total_ += e.stopped_s;
    sp_max_ = std::max(sp_max_, e.stopped_s);
    reach_max_ = std::max(reach_max_, nan_to_zero(e.reaching_s));
  }
  if (!std::isnan(e.reaching_s) && e.reaching_s > 0.050) {
    if (!slow_sp_) slow_sp_first_line_ = e.line;
    ++slow_sp_;
    slow_sp_worst_ = std::max(slow_sp_worst_, e.reaching_s);
  }
}

void GcAggregator::on_unparsed(uint32_t member, uint64_t line, std::string_view text) {
  ++unparsed_;
  if (unparsed_samples_.size() < kUnparsedSamples)
    unparsed_samples_.push_back({member, line, std::string(text.substr(0, kSampleChars))});
}

void GcAggregator::on_application_time(uint32_t, double, double seconds) {
  if (!std::isnan(seconds)) app_time_total_ += seconds;
}

void GcAggregator::on_stall(uint32_t, uint64_t line, double, double seconds, bool relocation) {
  if (relocation) {
    ++reloc_stalls_;
    reloc_stall_total_ += nan_to_zero(seconds);
    if (first_reloc_stall_line_ == 0) first_reloc_stall_line_ = line;
  } else {
    ++alloc_stalls_;
    alloc_stall_total_ += nan_to_zero(seconds);
    alloc_stall_max_ = std::max(alloc_stall_max_, nan_to_zero(seconds));
    if (first_alloc_stall_line_ == 0) first_alloc_stall_line_ = line;
  }
}

void GcAggregator::merge_diary(const Diary& d) {
  if (!have_diary_) {
    diary_ = d;
    have_diary_ = true;
    return;
  }
  if (diary_.unified == Tri::kUnknown) diary_.unified = d.unified;
  if (diary_.jvm_version.empty()) diary_.jvm_version = d.jvm_version;
  for (const auto& c : d.collectors)
    if (std::find(diary_.collectors.begin(), diary_.collectors.end(), c) == diary_.collectors.end())
      diary_.collectors.push_back(c);
  for (const auto& f : d.flags) {
    bool found = false;
    for (auto& g : diary_.flags)
      if (g.first == f.first) {
        found = true;
        if (f.second == Tri::kTrue) g.second = Tri::kTrue;  // any member showing it
        else if (g.second == Tri::kUnknown) g.second = f.second;
      }
    if (!found) diary_.flags.push_back(f);
  }
  if (diary_.command_line.empty()) diary_.command_line = d.command_line;
  if (diary_.max_heap_kb < 0) diary_.max_heap_kb = d.max_heap_kb;
  if (diary_.initial_heap_kb < 0) diary_.initial_heap_kb = d.initial_heap_kb;
  if (diary_.region_size_kb < 0) diary_.region_size_kb = d.region_size_kb;
  if (std::isnan(diary_.first_uptime_s) || (!std::isnan(d.first_uptime_s) && d.first_uptime_s < diary_.first_uptime_s))
    diary_.first_uptime_s = d.first_uptime_s;
  if (std::isnan(diary_.last_uptime_s) || (!std::isnan(d.last_uptime_s) && d.last_uptime_s > diary_.last_uptime_s))
    diary_.last_uptime_s = d.last_uptime_s;
}

void GcAggregator::merge_from(const GcAggregator& o) {
  // Names first: the other's cause/phase indexes map to ours.
  std::vector<int32_t> cause_map(o.causes_.size());
  for (size_t c = 0; c < o.causes_.size(); ++c) {
    cause_map[c] = static_cast<int32_t>(intern_cause(o.causes_[c]));
    auto& cs = cause_stats_[static_cast<size_t>(cause_map[c])];
    cs.count += o.cause_stats_[c].count;
    cs.total += o.cause_stats_[c].total;
  }
  auto map_cause = [&](int32_t c) { return c < 0 ? -1 : cause_map[static_cast<size_t>(c)]; };
  std::vector<uint32_t> phase_map(o.phases_.size());
  for (size_t p = 0; p < o.phases_.size(); ++p) {
    phase_map[p] = intern_phase(o.phases_[p]);
    auto& st = phase_stats_[phase_map[p]];
    st.count += o.phase_stats_[p].count;
    st.total += o.phase_stats_[p].total;
    st.max = std::max(st.max, o.phase_stats_[p].max);
  }
  for (size_t i = 0; i < static_cast<size_t>(GcType::kCount); ++i) type_counts_[i] += o.type_counts_[i];

  // Event buckets: theirs after ours, then halved to the cap.
  for (Bucket b : o.buckets_) {
    b.cause = map_cause(b.cause);
    for (auto& c : b.phases) c.name = phase_map[c.name];
    buckets_.push_back(std::move(b));
  }
  per_bucket_ = std::max(per_bucket_, o.per_bucket_);
  halve(buckets_, per_bucket_, kMaxBuckets);
  for (const auto& b : o.sp_buckets_) sp_buckets_.push_back(b);
  sp_per_bucket_ = std::max(sp_per_bucket_, o.sp_per_bucket_);
  halve(sp_buckets_, sp_per_bucket_, kMaxBuckets);

  events_total_ += o.events_total_;
  allocated_kb_ += o.allocated_kb_;
  promoted_kb_ += o.promoted_kb_;
  any_old_ = any_old_ || o.any_old_;
  any_wall_ = any_wall_ || o.any_wall_;
  for (int p = 0; p < kPoolCount; ++p) any_pool_[p] = any_pool_[p] || o.any_pool_[p];
  upd_min(ev_first_t_, o.ev_first_t_);
  upd_max(ev_last_end_, o.ev_last_end_);
  upd_max(max_before_, o.max_before_);
  upd_max(max_after_, o.max_after_);
  upd_max(max_committed_, o.max_committed_);
  upd_max(max_meta_, o.max_meta_);
  cpu_events_ += o.cpu_events_;
  if (!sys_heavy_) first_sys_heavy_line_ = o.first_sys_heavy_line_;
  sys_heavy_ += o.sys_heavy_;
  using TallyPair = std::pair<Tally*, const Tally*>;
  const TallyPair tallies[] = {{&explicit_gc_, &o.explicit_gc_}, {&system_gc_, &o.system_gc_},
                              {&evacuation_failure_, &o.evacuation_failure_}, {&humongous_, &o.humongous_},
                              {&full_not_explicit_, &o.full_not_explicit_}, {&full_stw_, &o.full_stw_},
                              {&degenerated_, &o.degenerated_}, {&metaspace_gc_, &o.metaspace_gc_},
                              {&gclocker_, &o.gclocker_}, {&mark_aborted_, &o.mark_aborted_},
                              {&late_concurrent_, &o.late_concurrent_}, {&full_after_gc_, &o.full_after_gc_}};
  for (const auto& [mine, theirs] : tallies) mine->merge(*theirs);
  stw_events_ += o.stw_events_;
  for (double t : o.system_gc_times_)
    if (system_gc_times_.size() < kMaxSystemGcTimes) system_gc_times_.push_back(t);

  // Pauses: exact while both sides are and the sum stays under the cap; bucketed otherwise (an
  // exact side's pauses are bucketed one by one, a bucketed side's buckets appended and halved).
  exact_pause_cap_ = std::min(exact_pause_cap_, o.exact_pause_cap_);
  if (!pauses_bucketed_ && !o.pauses_bucketed_ && pause_count_ + o.pause_count_ <= exact_pause_cap_) {
    const size_t pause_offset = pause_t_.size();
    pause_t_.append(o.pause_t_);
    pause_dur_.append(o.pause_dur_);
    pause_line_.append(o.pause_line_);
    for (size_t i = 0; i < o.pause_name_.size(); ++i) pause_name_.push_back(phase_map[o.pause_name_[i]]);
    for (size_t i = 0; i < o.pause_cause_.size(); ++i) pause_cause_.push_back(map_cause(o.pause_cause_[i]));
    for (const auto& [start, member] : o.pause_members_) pause_members_.emplace_back(start + pause_offset, member);
  } else {
    bucket_pauses();
    if (!o.pauses_bucketed_) {
      size_t seg = 0;
      for (size_t i = 0; i < o.pause_dur_.size(); ++i) {
        while (seg + 1 < o.pause_members_.size() && o.pause_members_[seg + 1].first <= i) ++seg;
        const uint32_t member = o.pause_members_.empty() ? 0 : o.pause_members_[seg].second;
        add_bucketed_pause(o.pause_t_[i], o.pause_dur_[i], phase_map[o.pause_name_[i]], map_cause(o.pause_cause_[i]),
                           o.pause_line_[i], member);
      }
    } else {
      pause_hist_.merge(o.pause_hist_);
      for (PauseBucket b : o.pause_buckets_) {
        for (auto& k : b.kinds) k.idx = static_cast<int32_t>(phase_map[static_cast<size_t>(k.idx)]);
        for (auto& c : b.causes) c.idx = map_cause(c.idx);
        pause_buckets_.push_back(std::move(b));
      }
      pause_per_bucket_ = std::max(pause_per_bucket_, o.pause_per_bucket_);
      halve(pause_buckets_, pause_per_bucket_, kMaxBuckets);
    }
  }
  pause_count_ += o.pause_count_;
  pause_max_ = std::max(pause_max_, o.pause_max_);
  pause_total_ += o.pause_total_;
  if (o.min_pause_line_ && (!min_pause_line_ || o.min_pause_line_ < min_pause_line_)) min_pause_line_ = o.min_pause_line_;

  if (!have_sp_ && o.have_sp_) sp_first_line_ = o.sp_first_line_, have_sp_ = true;
  sp_count_ += o.sp_count_;
  sp_total_ += o.sp_total_;
  sp_max_ = std::max(sp_max_, o.sp_max_);
  reach_max_ = std::max(reach_max_, o.reach_max_);
  if (!slow_sp_) slow_sp_first_line_ = o.slow_sp_first_line_;
  slow_sp_ += o.slow_sp_;
  slow_sp_worst_ = std::max(slow_sp_worst_, o.slow_sp_worst_);
  app_time_total_ += o.app_time_total_;
  if (!alloc_stalls_) first_alloc_stall_line_ = o.first_alloc_stall_line_;
  if (!reloc_stalls_) first_reloc_stall_line_ = o.first_reloc_stall_line_;
  alloc_stalls_ += o.alloc_stalls_;
  reloc_stalls_ += o.reloc_stalls_;
  alloc_stall_total_ += o.alloc_stall_total_;
  alloc_stall_max_ = std::max(alloc_stall_max_, o.alloc_stall_max_);
  reloc_stall_total_ += o.reloc_stall_total_;
  unparsed_ += o.unparsed_;
  for (const auto& s : o.unparsed_samples_)
    if (unparsed_samples_.size() < kUnparsedSamples) unparsed_samples_.push_back(s);
  if (o.have_diary_) merge_diary(o.diary_);
  for (const auto& m : o.members_) members_.push_back(m);
}

void GcAggregator::note_member(const std::string& path, const char* dialect, bool parsed) {
  members_.push_back({{"path", path}, {"dialect", dialect}, {"parsed", parsed}});
}

namespace {

// Packed integer column: comma-separated decimal integers, an empty field for null. With `delta`,
// each value is the difference to the previous non-null one (times and line numbers grow slowly,
// so the deltas are short). A JSON string of digits costs one pass to write and to parse, where a
// JSON array of 10^6 numbers costs a tree node per value on both sides.
//
// Plain (not delta) columns are run-length coded: "v*n" stands for n copies of v (pause kinds and
// causes repeat for long stretches).
class PackedColumn {
 public:
  PackedColumn(size_t n, bool delta) : delta_(delta) { text_.reserve(n * (delta ? 7 : 3)); }
  void add(int64_t v) {
    if (!delta_) {
      if (run_ && v == run_value_) {
        ++run_;
        return;
      }
      flush_run();
      run_value_ = v, run_ = 1;
      return;
    }
    put(v - prev_);
    prev_ = v;
  }
  void add_null() {
    flush_run();
    if (!first_) text_.put(',');
    first_ = false;
  }
  // A JSON string value (digits, commas, '-' and '*': written as is, see raw_json::plain_string).
  nlohmann::json take() {
    flush_run();
    nlohmann::json out = raw_json::plain_string(text_.view());
    text_.clear();
    return out;
  }

 private:
  void put(int64_t v) {
    if (!first_) text_.put(',');
    first_ = false;
    text_.put_int(v);
  }
  void flush_run() {
    if (!run_) return;
    put(run_value_);
    if (run_ > 1) {
      text_.put('*');
      text_.put_int(run_);
    }
    run_ = 0;
  }
  TextBuffer text_;
  int64_t prev_ = 0, run_value_ = 0;
  uint64_t run_ = 0;
  bool delta_, first_ = true;
};

// Positions `ranks` (ascending) of `v` as if it were sorted, in O(n) per rank.
void select_ranks(std::vector<double>& v, const std::vector<size_t>& ranks) {
  // After placing rank r, everything right of it is >= v[r]: the next rank is searched there only
  // (v[r] itself must stay put, so the range starts after it).
  size_t lo = 0;
  for (size_t r : ranks) {
    if (r >= v.size()) break;
    if (r < lo) continue;  // the same rank again
    std::nth_element(v.begin() + static_cast<std::ptrdiff_t>(lo), v.begin() + static_cast<std::ptrdiff_t>(r), v.end());
    lo = r + 1;
  }
}

size_t rank_of(size_t n, double q) {
  double rank = std::ceil(q * static_cast<double>(n));
  size_t i = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return std::min(i, n - 1);
}

}  // namespace

// The bucketed pause series (see wasm/jvm/README.md): buckets in time order within each member,
// members in rank order; every column packed, the nested per-bucket lists flattened with a count
// per bucket ("n").
void GcAggregator::write_bucketed_pauses(nlohmann::json& out) const {
  auto rank = [&](uint32_t m) -> uint32_t { return m < member_rank_.size() ? member_rank_[m] : m; };
  const size_t nb = pause_buckets_.size();
  std::vector<uint32_t> order(nb);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const PauseBucket &x = pause_buckets_[a], &y = pause_buckets_[b];
    if (rank(x.member) != rank(y.member)) return rank(x.member) < rank(y.member);
    if (std::isnan(x.t_first) || std::isnan(y.t_first)) return false;
    return x.t_first < y.t_first;
  });
  PackedColumn t(nb, true), t_last(nb, true), t_max(nb, true), n(nb, false), total(nb, false), min(nb, false),
      max(nb, false), line(nb, true), member(nb, false);
  PackedColumn hist_n(nb, false), hist_bin(nb * 16, true), hist_count(nb * 16, false);
  struct Tallies {
    PackedColumn n, idx, count, total, max;
    explicit Tallies(size_t nb) : n(nb, false), idx(nb, false), count(nb, false), total(nb, false), max(nb, false) {}
    void add(const std::vector<PauseTally>& cells) {
      n.add(static_cast<int64_t>(cells.size()));
      for (const auto& c : cells) {
        idx.add(c.idx);
        count.add(c.count);
        total.add(micros(c.total));
        max.add(micros(c.max));
      }
    }
    nlohmann::json take(const char* idx_name) {
      return {{"n", n.take()}, {idx_name, idx.take()}, {"count", count.take()}, {"total_us", total.take()}, {"max_us", max.take()}};
    }
  } kinds(nb), causes(nb);
  auto time = [](PackedColumn& c, double v) {
    if (std::isnan(v)) c.add_null();
    else c.add(micros(v));
  };
  for (uint32_t k : order) {
    const PauseBucket& b = pause_buckets_[k];
    time(t, b.t_first);
    time(t_last, b.t_last);
    time(t_max, b.t_max);
    n.add(static_cast<int64_t>(b.count));
    total.add(micros(b.total));
    min.add(micros(b.min));
    max.add(micros(b.max));
    line.add(b.line);
    member.add(b.member);
    hist_n.add(static_cast<int64_t>(b.hist_bins()));
    for (size_t k = 0; k < b.hist.size(); ++k)
      if (b.hist[k]) hist_bin.add(static_cast<int64_t>(b.hist_lo + k)), hist_count.add(b.hist[k]);
    kinds.add(b.kinds);
    causes.add(b.causes);
  }
  out = {{"count", pause_count_},
         {"encoding", "buckets"},
         {"buckets", nb},
         {"per_bucket", pause_per_bucket_},
         {"bins_per_octave", kBinsPerOctave},
         {"t_us", t.take()},
         {"t_last_us", t_last.take()},
         {"t_max_us", t_max.take()},
         {"n", n.take()},
         {"total_us", total.take()},
         {"min_us", min.take()},
         {"max_us", max.take()},
         {"line", line.take()},
         {"member", member.take()},
         {"hist", {{"n", hist_n.take()}, {"bin", hist_bin.take()}, {"count", hist_count.take()}}},
         {"kinds", kinds.take("name")},
         {"causes", causes.take("cause")}};
}

void GcAggregator::write_report(nlohmann::json& r) const {
  using nlohmann::json;
  auto rank = [&](uint32_t m) -> uint32_t { return m < member_rank_.size() ? member_rank_[m] : m; };

  // ---- diary ----
  json flags = json::object();
  for (const auto& f : diary_.flags) flags[f.first] = json::parse(tri_json(f.second));
  r["diary"] = {
      {"unified", json::parse(tri_json(diary_.unified))},
      {"jvm_version", diary_.jvm_version.empty() ? json() : json(diary_.jvm_version)},
      {"collectors", diary_.collectors},
      {"flags", flags},
      {"command_line", diary_.command_line.empty() ? json() : json(diary_.command_line)},
      {"max_heap_kb", diary_.max_heap_kb >= 0 ? json(diary_.max_heap_kb) : json()},
      {"initial_heap_kb", diary_.initial_heap_kb >= 0 ? json(diary_.initial_heap_kb) : json()},
      {"region_size_kb", diary_.region_size_kb >= 0 ? json(diary_.region_size_kb) : json()},
  };
  r["members"] = members_;

  // ---- events ----
  json by_type = json::object();
  for (size_t i = 0; i < static_cast<size_t>(GcType::kCount); ++i)
    if (type_counts_[i]) by_type[gc_type_name(static_cast<GcType>(i))] = type_counts_[i];
  r["events"] = {{"by_type", by_type}, {"total", events_total_}};

  // ---- pauses: exact percentiles by selection (nearest rank), no full sort; bucketed: the same
  // ranks read from the histogram of durations in microseconds ----
  const size_t np = static_cast<size_t>(pause_count_);
  double p50 = 0, p90 = 0, p99 = 0, p999 = 0, pmax = 0, median = 0;
  if (np && pauses_bucketed_) {
    const std::vector<DurationHistogram::Entry> h = pause_hist_.sorted();
    // Value of rank r (0-based) of the sorted durations: walk the cumulative counts once, the
    // ranks in ascending order.
    std::pair<size_t, double*> wanted[] = {{rank_of(np, 0.50), &p50}, {np / 2, &median}, {rank_of(np, 0.90), &p90},
                                           {rank_of(np, 0.99), &p99}, {rank_of(np, 0.999), &p999}, {np - 1, &pmax}};
    std::sort(std::begin(wanted), std::end(wanted), [](const auto& a, const auto& b) { return a.first < b.first; });
    uint64_t below = 0;
    size_t k = 0;
    for (const auto& e : h) {
      below += e.count;
      while (k < std::size(wanted) && wanted[k].first < below) *wanted[k++].second = static_cast<double>(e.us) / 1e6;
    }
  } else if (np) {
    std::vector<double> d(np);
    for (size_t i = 0; i < np; ++i) d[i] = pause_dur_[i];
    std::vector<size_t> ranks = {rank_of(np, 0.50), np / 2, rank_of(np, 0.90), rank_of(np, 0.99), rank_of(np, 0.999), np - 1};
    std::sort(ranks.begin(), ranks.end());
    select_ranks(d, ranks);
    p50 = d[rank_of(np, 0.50)], p90 = d[rank_of(np, 0.90)], p99 = d[rank_of(np, 0.99)], p999 = d[rank_of(np, 0.999)];
    pmax = d[np - 1], median = d[np / 2];
  }
  const double pause_total = pause_total_;
  r["pauses"] = {
      {"count", np},
      {"total_s", round6(pause_total)},
      {"max_s", round6(pmax)},
      {"mean_s", np ? round6(pause_total / static_cast<double>(np)) : 0.0},
      {"p50_s", round6(p50)},
      {"p90_s", round6(p90)},
      {"p99_s", round6(p99)},
      {"p999_s", round6(p999)},
  };

  // ---- runtime and throughput ----
  double first = diary_.first_uptime_s, last = diary_.last_uptime_s;
  if (std::isnan(first) || std::isnan(last)) first = ev_first_t_, last = ev_last_end_;
  double runtime = (std::isnan(first) || std::isnan(last)) ? kUnknown : last - first;
  if (!std::isnan(runtime) && runtime <= 0) runtime = kUnknown;
  r["time_range_s"] = {{"first", num_or_null(first)}, {"last", num_or_null(last)}};
  r["runtime_s"] = num_or_null(std::isnan(runtime) ? runtime : round6(runtime));
  double percent_paused = std::isnan(runtime) ? kUnknown : std::min(100.0, pause_total / runtime * 100.0);
  r["percent_paused"] = num_or_null(std::isnan(percent_paused) ? percent_paused : round6(percent_paused));
  r["throughput_percent"] = num_or_null(std::isnan(percent_paused) ? percent_paused : round6(100.0 - percent_paused));

  // ---- heap ----
  r["heap"] = {{"max_size_kb", kb_or_null(max_committed_)},
               {"max_occupancy_kb", kb_or_null(max_before_)},
               {"max_after_gc_kb", kb_or_null(max_after_)},
               {"max_metaspace_kb", kb_or_null(max_meta_)},
               {"configured_max_kb", diary_.max_heap_kb >= 0 ? json(diary_.max_heap_kb) : json()}};

  // ---- rates: allocation = growth of the heap between collections; promotion = old-gen growth
  // across young collections. Both over the runtime.
  json rates = {{"allocation_mb_s", json()}, {"promotion_mb_s", json()}};
  if (!std::isnan(runtime)) {
    rates["allocation_mb_s"] = round6(allocated_kb_ / 1024.0 / runtime);
    if (any_old_) rates["promotion_mb_s"] = round6(promoted_kb_ / 1024.0 / runtime);
  }
  r["rates"] = rates;

  // ---- causes ----
  json causes = json::object();
  for (size_t c = 0; c < causes_.size(); ++c)
    causes[causes_[c]] = {{"count", cause_stats_[c].count}, {"total_s", round6(cause_stats_[c].total)}};
  r["causes"] = causes;

  // ---- phases ----
  json phases = json::object();
  for (size_t p = 0; p < phases_.size(); ++p)
    phases[phases_[p]] = {{"count", phase_stats_[p].count},
                          {"total_s", round6(phase_stats_[p].total)},
                          {"max_s", round6(phase_stats_[p].max)}};
  r["phases"] = phases;

  // ---- safepoints ----
  r["safepoints"] = {{"count", sp_count_},
                     {"total_s", round6(sp_total_)},
                     {"max_s", round6(sp_max_)},
                     {"max_time_to_safepoint_s", round6(reach_max_)}};
  r["stalls"] = {{"allocation", {{"count", alloc_stalls_}, {"total_s", round6(alloc_stall_total_)}, {"max_s", round6(alloc_stall_max_)}}},
                 {"relocation", {{"count", reloc_stalls_}, {"total_s", round6(reloc_stall_total_)}}}};

  // ---- findings ----
  json findings = json::array();
  write_findings(findings, runtime, pause_total, median, sp_count_ ? sp_total_ : kUnknown);
  r["findings"] = findings;

  // ---- unparsed ----
  json samples = json::array();
  for (const auto& s : unparsed_samples_) samples.push_back({{"member", s.member}, {"line", s.line}, {"text", s.text}});
  r["unparsed"] = {{"count", unparsed_}, {"samples", samples}};

  if (!with_series_) {
    r["series"] = nullptr;
    return;
  }

  // ---- series ----
  auto time_value = [](double v) { return std::isnan(v) ? json() : json(round6(v)); };
  json types = json::array();
  for (size_t i = 0; i < static_cast<size_t>(GcType::kCount); ++i) types.push_back(gc_type_name(static_cast<GcType>(i)));

  // Event buckets in time order within each member, members in rank order.
  const size_t nb = buckets_.size();
  std::vector<uint32_t> order(nb);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    uint32_t ra = rank(buckets_[a].member), rb = rank(buckets_[b].member);
    if (ra != rb) return ra < rb;
    double ta = buckets_[a].t_first, tb = buckets_[b].t_first;
    if (std::isnan(ta) || std::isnan(tb)) return false;
    return ta < tb;
  });
  const bool exact = per_bucket_ == 1;
  // Columns are written as JSON text (core/raw_json.h): ~500,000 numbers for a big log.
  auto column = [&](auto value_of) {
    raw_json::ArrayWriter a(nb);
    for (uint32_t k : order) a.value(value_of(buckets_[k]));
    return a.take();
  };
  json events = json::object();
  events["events_per_bucket"] = per_bucket_;
  events["t"] = column([&](const Bucket& b) { return time_value(b.t_first); });
  if (!exact) {
    events["t_last"] = column([&](const Bucket& b) { return time_value(b.t_last); });
    events["count"] = column([](const Bucket& b) { return json(b.count); });
  }
  events["duration_s"] = column([&](const Bucket& b) { return time_value(b.duration); });
  events["type"] = column([](const Bucket& b) { return json(b.type); });
  events["cause"] = column([](const Bucket& b) { return json(b.cause); });
  events["stw"] = column([](const Bucket& b) { return json(b.stw); });
  events["heap_before_kb"] = column([](const Bucket& b) { return kb_or_null(b.heap_before); });
  events["heap_after_kb"] = column([](const Bucket& b) { return kb_or_null(b.heap_after_min); });
  if (!exact) events["heap_after_max_kb"] = column([](const Bucket& b) { return kb_or_null(b.heap_after_max); });
  events["heap_committed_kb"] = column([](const Bucket& b) { return kb_or_null(b.heap_committed); });
  events["pause_s"] = column([](const Bucket& b) { return json(round6(b.paused)); });
  events["allocated_kb"] = column([](const Bucket& b) { return json(static_cast<int64_t>(b.allocated_kb)); });
  events["line"] = column([](const Bucket& b) { return json(b.line); });
  events["member"] = column([](const Bucket& b) { return json(b.member); });
  events["gc_id"] = column([](const Bucket& b) { return json(b.gc_id); });
  events["flags"] = column([](const Bucket& b) { return json(b.flags); });
  // Optional columns, only when the log printed them.
  if (any_wall_) events["wall_ms"] = column([](const Bucket& b) { return std::isnan(b.wall) ? json() : json(std::round(b.wall)); });
  static const char* const kPoolNames[kPoolCount] = {"young", "eden", "survivor", "old", "humongous", "metaspace"};
  for (int p = 0; p < kPoolCount; ++p) {
    if (!any_pool_[p]) continue;
    events[std::string(kPoolNames[p]) + "_before_kb"] = column([p](const Bucket& b) { return kb_or_null(b.pool_before[p]); });
    events[std::string(kPoolNames[p]) + "_after_kb"] = column([p](const Bucket& b) { return kb_or_null(b.pool_after[p]); });
  }
  // Phases of the events (not the pauses, which are exact below), one row per (bucket, phase).
  {
    size_t rows = 0;
    for (size_t k = 0; k < nb; ++k) rows += buckets_[order[k]].phases.size();
    raw_json::ArrayWriter pb(rows), pn(rows), pc(rows), pt(rows), pm(rows);
    for (size_t k = 0; k < nb; ++k)
      for (const auto& c : buckets_[order[k]].phases) {
        pb.unsigned_integer(k);
        pn.unsigned_integer(c.name);
        pc.unsigned_integer(c.count);
        pt.number(round6(c.total));
        pm.number(round6(c.max));
      }
    events["phases"] = {{"bucket", pb.take()}, {"name", pn.take()}, {"count", pc.take()},
                        {"total_s", pt.take()}, {"max_s", pm.take()}};
  }

  json pauses;
  if (pauses_bucketed_) {
    write_bucketed_pauses(pauses);
  } else {
    // Pauses, exact, in time order within each member, members in rank order: packed text columns.
    std::vector<uint32_t> porder(np);
    std::iota(porder.begin(), porder.end(), 0u);
    {
      std::vector<std::pair<size_t, uint32_t>> segs = pause_members_;
      std::stable_sort(segs.begin(), segs.end(), [&](const auto& a, const auto& b) { return rank(a.second) < rank(b.second); });
      std::vector<uint32_t> out;
      out.reserve(np);
      for (size_t s = 0; s < segs.size(); ++s) {
        // A segment runs to the next one in arrival order.
        size_t begin = segs[s].first, end = np;
        for (const auto& other : pause_members_)
          if (other.first > begin && other.first < end) end = other.first;
        size_t from = out.size();
        for (size_t i = begin; i < end; ++i) out.push_back(static_cast<uint32_t>(i));
        auto by_t = [&](uint32_t a, uint32_t b) {
          double ta = pause_t_[a], tb = pause_t_[b];
          if (std::isnan(ta) || std::isnan(tb)) return false;
          return ta < tb;
        };
        if (!std::is_sorted(out.begin() + static_cast<std::ptrdiff_t>(from), out.end(), by_t))
          std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(from), out.end(), by_t);
      }
      porder = std::move(out);
    }
    PackedColumn pt(np, true), pd(np, false), pn(np, false), pc(np, false);
    for (uint32_t k : porder) {
      if (std::isnan(pause_t_[k])) pt.add_null();
      else pt.add(micros(pause_t_[k]));
      pd.add(micros(pause_dur_[k]));
      pn.add(pause_name_[k]);
      pc.add(pause_cause_[k]);
    }
    pauses = {{"count", np},
              {"encoding", "packed"},
              {"t_us", pt.take()},
              {"duration_us", pd.take()},
              {"name", pn.take()},
              {"cause", pc.take()}};
  }

  // Safepoint buckets.
  json safepoints = json::object();
  {
    auto sp_column = [&](auto value_of) {
      raw_json::ArrayWriter a(sp_buckets_.size());
      for (const auto& b : sp_buckets_) a.value(value_of(b));
      return a.take();
    };
    safepoints["per_bucket"] = sp_per_bucket_;
    safepoints["t"] = sp_column([&](const SafepointBucket& b) { return time_value(b.t_first); });
    safepoints["t_last"] = sp_column([&](const SafepointBucket& b) { return time_value(b.t_last); });
    safepoints["count"] = sp_column([](const SafepointBucket& b) { return json(b.count); });
    safepoints["total_s"] = sp_column([](const SafepointBucket& b) { return json(round6(b.total)); });
    safepoints["max_s"] = sp_column([](const SafepointBucket& b) { return json(round6(b.max)); });
    safepoints["line"] = sp_column([](const SafepointBucket& b) { return json(b.line); });
  }

  json series = json::object();
  series["version"] = 2;
  series["types"] = std::move(types);
  series["causes"] = json(std::vector<std::string>(causes_.begin(), causes_.end()));
  series["names"] = json(std::vector<std::string>(phases_.begin(), phases_.end()));
  series["events"] = std::move(events);
  series["pauses"] = std::move(pauses);
  series["safepoints"] = std::move(safepoints);
  r["series"] = std::move(series);
}

}  // namespace gcscope::jvm
