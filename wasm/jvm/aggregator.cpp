#include "jvm/aggregator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/text_scan.h"
#include "jvm/aggregator_internal.h"
#include "jvm/range_index.h"

namespace gcscope::jvm {
namespace {

constexpr size_t kUnparsedSamples = 20;
constexpr size_t kSampleChars = 300;
constexpr size_t kMaxSystemGcTimes = 100000;  // the hourly-pattern check needs a few; bound it anyway
constexpr int64_t kNull = IntColumn::kNull;

double nan_to_zero(double v) { return std::isnan(v) ? 0.0 : v; }
void upd_max(double& m, double v) {
  if (!std::isnan(v) && (std::isnan(m) || v > m)) m = v;
}
void upd_min(double& m, double v) {
  if (!std::isnan(v) && (std::isnan(m) || v < m)) m = v;
}
double kb(int64_t v) { return v >= 0 ? static_cast<double>(v) : kUnknown; }
int64_t kb_value(int64_t v) { return v >= 0 ? v : kNull; }

// The first and the last non-null value of a column (kNull when every value is null).
int64_t first_value(const IntColumn& c) {
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i] != kNull) return c[i];
  return kNull;
}
int64_t last_value(const IntColumn& c) {
  for (size_t i = c.size(); i-- > 0;)
    if (c[i] != kNull) return c[i];
  return kNull;
}

// Whether `from`, appended after `into`, keeps the stream in time order.
bool continues(const IntColumn& into, const IntColumn& from) {
  const int64_t last = last_value(into), first = first_value(from);
  return last == kNull || first == kNull || first >= last;
}

// Appends a segment list (first row, member) shifted by `offset` rows, merging equal neighbours.
void append_members(std::vector<std::pair<size_t, uint32_t>>& into,
                    const std::vector<std::pair<size_t, uint32_t>>& from, size_t offset) {
  for (const auto& [first, member] : from)
    if (into.empty() || into.back().second != member) into.emplace_back(first + offset, member);
}

void note_member_row(std::vector<std::pair<size_t, uint32_t>>& segments, size_t row, uint32_t member) {
  if (segments.empty() || segments.back().second != member) segments.emplace_back(row, member);
}

// The order that puts a stream's rows in time order (rows without a time keep the place after the
// row before them), stable.
std::vector<uint32_t> time_order(const IntColumn& t) {
  const size_t n = t.size();
  std::vector<int64_t> key(n);
  int64_t last = kNull + 1;
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = t[i];
    key[i] = v == kNull ? last : (last = v);
  }
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
  return order;
}

void permute(IntColumn& c, const std::vector<uint32_t>& order) {
  IntColumn out;
  for (uint32_t i : order) out.push(c[i]);
  c = std::move(out);
}

void permute_members(std::vector<std::pair<size_t, uint32_t>>& segments, const std::vector<uint32_t>& order) {
  if (segments.size() <= 1) return;
  std::vector<uint32_t> member(order.size());
  for (size_t s = 0; s < segments.size(); ++s) {
    const size_t end = s + 1 < segments.size() ? segments[s + 1].first : order.size();
    std::fill(member.begin() + static_cast<std::ptrdiff_t>(segments[s].first),
              member.begin() + static_cast<std::ptrdiff_t>(end), segments[s].second);
  }
  segments.clear();
  for (size_t i = 0; i < order.size(); ++i) note_member_row(segments, i, member[order[i]]);
}

}  // namespace

size_t GcColumns::event_bytes() const {
  size_t n = 0;
  for (const IntColumn* c :
       {&events.t, &events.wall_ms, &events.duration, &events.paused, &events.type, &events.flags, &events.cause,
        &events.heap_before, &events.heap_after, &events.heap_committed, &events.allocated, &events.line, &events.gc_id,
        &events.phase_end, &events.phase_name, &events.phase_ns})
    n += c->bytes();
  for (int p = 0; p < kPoolCount; ++p) n += events.pool_before[p].bytes() + events.pool_after[p].bytes();
  return n;
}
size_t GcColumns::pause_bytes() const {
  return pauses.t.bytes() + pauses.duration.bytes() + pauses.name.bytes() + pauses.line.bytes() + pauses.gc_id.bytes() +
         pauses.type.bytes() + pauses.cause.bytes();
}
size_t GcColumns::safepoint_bytes() const {
  return safepoints.t.bytes() + safepoints.stopped.bytes() + safepoints.reaching.bytes();
}
size_t GcColumns::bytes() const { return event_bytes() + pause_bytes() + safepoint_bytes(); }

nlohmann::json GcAggregator::storage() const {
  return {{"events", cols_.events.size()},
          {"phase_rows", cols_.events.phase_name.size()},
          {"pauses", cols_.pauses.size()},
          {"safepoints", cols_.safepoints.size()},
          {"bytes",
           {{"events", cols_.event_bytes()},
            {"pauses", cols_.pause_bytes()},
            {"safepoints", cols_.safepoint_bytes()},
            {"total", cols_.bytes()}}},
          {"in_time_order",
           {{"events", cols_.events_sorted}, {"pauses", cols_.pauses_sorted}, {"safepoints", cols_.safepoints_sorted}}},
          {"range_index_bytes", range_index_ ? nlohmann::json(range_index_->bytes()) : nlohmann::json()}};
}

// ---- interning ----

uint32_t GcAggregator::intern_cause(std::string_view cause) {
  auto it = cause_index_.find(cause);
  if (it != cause_index_.end()) return it->second;
  auto idx = static_cast<uint32_t>(causes_.size());
  causes_.emplace_back(cause);
  cause_index_.emplace(std::string_view(causes_.back()), idx);
  cause_class_.push_back(classify_cause(cause));
  return idx;
}

uint32_t GcAggregator::intern_phase(std::string_view name) {
  auto it = phase_index_.find(name);
  if (it != phase_index_.end()) return it->second;
  auto idx = static_cast<uint32_t>(phases_.size());
  phases_.emplace_back(name);
  phase_index_.emplace(std::string_view(phases_.back()), idx);
  return idx;
}

uint32_t GcAggregator::intern_phase_at(std::vector<uint32_t>& seen, size_t k, std::string_view name) {
  if (k < seen.size() && text::equals(name, phases_[seen[k]])) return seen[k];
  const uint32_t idx = intern_phase(name);
  if (k < seen.size()) seen[k] = idx;
  else seen.push_back(idx);  // positions fill in order: k == seen.size() here
  return idx;
}

// ---- events ----

void GcAggregator::on_event(const GcEvent& e) {
  const size_t type_idx = static_cast<size_t>(e.type) % static_cast<size_t>(GcType::kCount);
  // Consecutive events mostly share their cause: compare with the last one before hashing.
  int32_t cause = -1;
  if (!e.cause.empty()) {
    if (last_cause_ < 0 || !text::equals(e.cause, causes_[static_cast<size_t>(last_cause_)]))
      last_cause_ = static_cast<int32_t>(intern_cause(e.cause));
    cause = last_cause_;
  }
  const uint16_t cclass = cause < 0 ? 0 : cause_class_[static_cast<size_t>(cause)];
  const double t = e.uptime_s;
  const double after = kb(e.heap.after_kb), committed = kb(e.heap.committed_kb);

  // Time range (used when the diary saw no stamps).
  if (!std::isnan(t)) {
    upd_min(ev_first_t_, t);
    upd_max(ev_last_end_, t + nan_to_zero(e.duration_s));
  }
  // Allocation: the growth of the heap since the previous collection of this member (arrival order).
  int64_t allocated = 0;
  if (e.heap.before_kb >= 0 && e.heap.after_kb >= 0) {
    if (!std::isnan(prev_after_) && static_cast<double>(e.heap.before_kb) > prev_after_)
      allocated = e.heap.before_kb - static_cast<int64_t>(prev_after_);
    prev_after_ = static_cast<double>(e.heap.after_kb);
  }
  if (!std::isnan(e.user_s) && !std::isnan(e.sys_s)) {
    ++cpu_events_;
    if (e.sys_s > e.user_s && e.sys_s >= 0.01) {
      if (!sys_heavy_ || e.first_line < first_sys_heavy_line_) first_sys_heavy_line_ = e.first_line;
      ++sys_heavy_;
    }
  }

  EventRow& row = event_order_.next();
  row.t = to_ns(t);
  row.wall_ms = std::isnan(e.wall_epoch_ms) ? kNull : static_cast<int64_t>(std::llround(e.wall_epoch_ms));
  row.duration = to_ns(e.duration_s);
  row.heap[0] = kb_value(e.heap.before_kb), row.heap[1] = kb_value(e.heap.after_kb),
  row.heap[2] = kb_value(e.heap.committed_kb);
  const PoolSizes* pools[kPoolCount] = {&e.young, &e.eden, &e.survivor, &e.old, &e.humongous, &e.metaspace};
  for (int p = 0; p < kPoolCount; ++p)
    row.pool[p][0] = kb_value(pools[p]->before_kb), row.pool[p][1] = kb_value(pools[p]->after_kb);
  row.allocated = allocated;
  row.line = static_cast<int64_t>(std::min<uint64_t>(e.first_line, INT64_MAX));
  row.gc_id = e.gc_id < 0 ? kNull : e.gc_id;
  row.flags = static_cast<int64_t>(e.flags) | (e.stop_the_world ? kStwFlag : 0);
  row.cause = cause;
  row.type = static_cast<uint8_t>(type_idx);
  row.member = e.member;
  row.phases.clear();
  for (size_t k = 0; k < e.phases.size(); ++k)
    row.phases.emplace_back(intern_phase_at(phase_at_, k, e.phases[k].first), to_ns(e.phases[k].second));

  // Pauses: the event itself when stop-the-world, and the pauses inside a concurrent cycle (a pause
  // printed without its duration is a phase row of the event, counted but not timed).
  int64_t paused = 0;
  auto add_pause = [&](double pt, double d, uint32_t name, uint64_t line) {
    const int64_t ns = to_ns(d);
    paused += ns;
    pause_order_.next() =
        PauseRow{to_ns(pt), ns,      static_cast<int64_t>(std::min<uint64_t>(line, INT64_MAX)), row.gc_id, cause, name,
                 e.member,  row.type};
    pause_order_.add([this](const PauseRow& r) { emit_pause(r); });
    if (line && (!min_pause_line_ || line < min_pause_line_)) min_pause_line_ = line;
  };
  if (e.stop_the_world && !std::isnan(e.duration_s)) {
    uint32_t& name = type_pause_name_[type_idx];
    if (name == UINT32_MAX) name = intern_phase(std::string("Pause ") + gc_type_name(e.type));
    add_pause(t, e.duration_s, name, e.first_line);
  }
  for (size_t k = 0; k < e.pauses_within.size(); ++k) {
    const auto& p = e.pauses_within[k];
    const uint32_t idx = intern_phase_at(pause_within_at_, k, p.name);
    if (std::isnan(p.duration_s)) row.phases.emplace_back(idx, kNull);
    else add_pause(p.uptime_s, p.duration_s, idx, p.line);
  }
  row.paused = paused;

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

  event_order_.add([this](const EventRow& r) { emit_event(r); });
}

void GcAggregator::emit_event(const EventRow& r) {
  GcColumns::Events& c = cols_.events;
  note_member_row(cols_.event_members, c.size(), r.member);
  c.t.push(r.t);
  c.wall_ms.push(r.wall_ms);
  c.duration.push(r.duration);
  c.paused.push(r.paused);
  c.type.push(r.type);
  c.flags.push(r.flags);
  c.cause.push(r.cause);
  c.heap_before.push(r.heap[0]);
  c.heap_after.push(r.heap[1]);
  c.heap_committed.push(r.heap[2]);
  for (int p = 0; p < kPoolCount; ++p) c.pool_before[p].push(r.pool[p][0]), c.pool_after[p].push(r.pool[p][1]);
  c.allocated.push(r.allocated);
  c.line.push(r.line);
  c.gc_id.push(r.gc_id);
  for (const auto& [name, ns] : r.phases) {
    c.phase_name.push(name), c.phase_ns.push(ns);
    whole_totals_.add_phase(name, ns);
  }
  c.phase_end.push(static_cast<int64_t>(c.phase_name.size()));
  whole_totals_.add_event({r.type, r.cause, r.paused, r.heap[0], r.heap[1], r.heap[2], r.pool[kMetaspace][0],
                           r.pool[kMetaspace][1], r.pool[kOld][0], r.pool[kOld][1], r.allocated});
}

void GcAggregator::emit_pause(const PauseRow& r) {
  note_member_row(cols_.pause_members, cols_.pauses.size(), r.member);
  cols_.pauses.t.push(r.t);
  cols_.pauses.duration.push(r.duration);
  cols_.pauses.name.push(r.name);
  cols_.pauses.line.push(r.line);
  cols_.pauses.gc_id.push(r.gc_id);
  cols_.pauses.type.push(r.type);
  cols_.pauses.cause.push(r.cause);
  whole_totals_.add_pause(r.name, r.duration);
}

void GcAggregator::emit_safepoint(const SafepointRow& r) {
  note_member_row(cols_.safepoint_members, cols_.safepoints.size(), r.member);
  cols_.safepoints.t.push(r.t);
  cols_.safepoints.stopped.push(r.stopped);
  cols_.safepoints.reaching.push(r.reaching);
  whole_totals_.add_safepoint(r.stopped, r.reaching);
}

void GcAggregator::on_safepoint(const SafepointEvent& e) {
  if (!have_sp_) sp_first_line_ = e.line, have_sp_ = true;
  if (!std::isnan(e.reaching_s) && e.reaching_s > 0.050) {
    if (!slow_sp_) slow_sp_first_line_ = e.line;
    ++slow_sp_;
    slow_sp_worst_ = std::max(slow_sp_worst_, e.reaching_s);
  }
  safepoint_order_.next() = SafepointRow{to_ns(e.uptime_s), to_ns(e.stopped_s), to_ns(e.reaching_s), e.member};
  safepoint_order_.add([this](const SafepointRow& r) { emit_safepoint(r); });
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

// ---- time order ----

void GcAggregator::flush() {
  range_index_.reset();
  event_order_.flush([this](const EventRow& r) { emit_event(r); });
  pause_order_.flush([this](const PauseRow& r) { emit_pause(r); });
  safepoint_order_.flush([this](const SafepointRow& r) { emit_safepoint(r); });
  sort_late_streams();
}

// A record later than the window left its stream out of order: sort that stream's columns (rare:
// a concurrent cycle that spans thousands of events).
void GcAggregator::sort_late_streams() {
  if (event_order_.late()) {
    GcColumns::Events& c = cols_.events;
    const std::vector<uint32_t> order = time_order(c.t);
    IntColumn name, ns, end;
    for (uint32_t i : order) {
      const size_t from = i ? static_cast<size_t>(c.phase_end[i - 1]) : 0, to = static_cast<size_t>(c.phase_end[i]);
      for (size_t k = from; k < to; ++k) name.push(c.phase_name[k]), ns.push(c.phase_ns[k]);
      end.push(static_cast<int64_t>(name.size()));
    }
    c.phase_name = std::move(name), c.phase_ns = std::move(ns), c.phase_end = std::move(end);
    for (IntColumn* col : {&c.t, &c.wall_ms, &c.duration, &c.paused, &c.type, &c.flags, &c.cause, &c.heap_before,
                           &c.heap_after, &c.heap_committed, &c.allocated, &c.line, &c.gc_id})
      permute(*col, order);
    for (int p = 0; p < kPoolCount; ++p) permute(c.pool_before[p], order), permute(c.pool_after[p], order);
    permute_members(cols_.event_members, order);
  }
  if (pause_order_.late()) {
    const std::vector<uint32_t> order = time_order(cols_.pauses.t);
    GcColumns::Pauses& p = cols_.pauses;
    for (IntColumn* col : {&p.t, &p.duration, &p.name, &p.line, &p.gc_id, &p.type, &p.cause}) permute(*col, order);
    permute_members(cols_.pause_members, order);
  }
  if (safepoint_order_.late()) {
    const std::vector<uint32_t> order = time_order(cols_.safepoints.t);
    for (IntColumn* col : {&cols_.safepoints.t, &cols_.safepoints.stopped, &cols_.safepoints.reaching})
      permute(*col, order);
    permute_members(cols_.safepoint_members, order);
  }
  event_order_ = {}, pause_order_ = {}, safepoint_order_ = {};
}

// ---- merging members ----

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

void GcAggregator::append_events(const GcColumns::Events& o, const std::vector<int32_t>& cause_map,
                                 const std::vector<uint32_t>& phase_map) {
  GcColumns::Events& c = cols_.events;
  const int64_t row_offset = static_cast<int64_t>(c.phase_name.size());
  for (size_t i = 0; i < o.size(); ++i) {
    const int64_t cause = o.cause[i];
    c.cause.push(cause < 0 ? cause : cause_map[static_cast<size_t>(cause)]);
    c.phase_end.push(o.phase_end[i] + row_offset);
  }
  for (size_t k = 0; k < o.phase_name.size(); ++k) c.phase_name.push(phase_map[static_cast<size_t>(o.phase_name[k])]);
  c.phase_ns.append(o.phase_ns);
  const std::pair<IntColumn*, const IntColumn*> same[] = {{&c.t, &o.t},
                                                          {&c.wall_ms, &o.wall_ms},
                                                          {&c.duration, &o.duration},
                                                          {&c.paused, &o.paused},
                                                          {&c.type, &o.type},
                                                          {&c.flags, &o.flags},
                                                          {&c.heap_before, &o.heap_before},
                                                          {&c.heap_after, &o.heap_after},
                                                          {&c.heap_committed, &o.heap_committed},
                                                          {&c.allocated, &o.allocated},
                                                          {&c.line, &o.line},
                                                          {&c.gc_id, &o.gc_id}};
  for (const auto& [mine, theirs] : same) mine->append(*theirs);
  for (int p = 0; p < kPoolCount; ++p)
    c.pool_before[p].append(o.pool_before[p]), c.pool_after[p].append(o.pool_after[p]);
}

void GcAggregator::merge_from(const GcAggregator& o) {
  range_index_.reset();
  // Names first: the other's cause/phase indexes map to ours.
  std::vector<int32_t> cause_map(o.causes_.size());
  for (size_t c = 0; c < o.causes_.size(); ++c) cause_map[c] = static_cast<int32_t>(intern_cause(o.causes_[c]));
  std::vector<uint32_t> phase_map(o.phases_.size());
  for (size_t p = 0; p < o.phases_.size(); ++p) phase_map[p] = intern_phase(o.phases_[p]);

  whole_totals_kept_ = false;  // the report adds up the merged columns
  // Rows: theirs after ours, each stream still in time order if theirs start where ours end.
  GcColumns& c = cols_;
  const GcColumns& oc = o.cols_;
  c.events_sorted = c.events_sorted && oc.events_sorted && continues(c.events.t, oc.events.t);
  c.pauses_sorted = c.pauses_sorted && oc.pauses_sorted && continues(c.pauses.t, oc.pauses.t);
  c.safepoints_sorted = c.safepoints_sorted && oc.safepoints_sorted && continues(c.safepoints.t, oc.safepoints.t);
  append_members(c.event_members, oc.event_members, c.events.size());
  append_members(c.pause_members, oc.pause_members, c.pauses.size());
  append_members(c.safepoint_members, oc.safepoint_members, c.safepoints.size());
  append_events(oc.events, cause_map, phase_map);
  c.pauses.t.append(oc.pauses.t);
  c.pauses.duration.append(oc.pauses.duration);
  c.pauses.line.append(oc.pauses.line);
  c.pauses.gc_id.append(oc.pauses.gc_id);
  c.pauses.type.append(oc.pauses.type);
  for (size_t i = 0; i < oc.pauses.size(); ++i) {
    c.pauses.name.push(phase_map[static_cast<size_t>(oc.pauses.name[i])]);
    const int64_t cause = oc.pauses.cause[i];
    c.pauses.cause.push(cause < 0 ? cause : cause_map[static_cast<size_t>(cause)]);
  }
  c.safepoints.t.append(oc.safepoints.t);
  c.safepoints.stopped.append(oc.safepoints.stopped);
  c.safepoints.reaching.append(oc.safepoints.reaching);

  upd_min(ev_first_t_, o.ev_first_t_);
  upd_max(ev_last_end_, o.ev_last_end_);
  cpu_events_ += o.cpu_events_;
  if (!sys_heavy_) first_sys_heavy_line_ = o.first_sys_heavy_line_;
  sys_heavy_ += o.sys_heavy_;
  using TallyPair = std::pair<Tally*, const Tally*>;
  const TallyPair tallies[] = {{&explicit_gc_, &o.explicit_gc_},
                               {&system_gc_, &o.system_gc_},
                               {&evacuation_failure_, &o.evacuation_failure_},
                               {&humongous_, &o.humongous_},
                               {&full_not_explicit_, &o.full_not_explicit_},
                               {&full_stw_, &o.full_stw_},
                               {&degenerated_, &o.degenerated_},
                               {&metaspace_gc_, &o.metaspace_gc_},
                               {&gclocker_, &o.gclocker_},
                               {&mark_aborted_, &o.mark_aborted_},
                               {&late_concurrent_, &o.late_concurrent_},
                               {&full_after_gc_, &o.full_after_gc_}};
  for (const auto& [mine, theirs] : tallies) mine->merge(*theirs);
  stw_events_ += o.stw_events_;
  for (double t : o.system_gc_times_)
    if (system_gc_times_.size() < kMaxSystemGcTimes) system_gc_times_.push_back(t);
  if (o.min_pause_line_ && (!min_pause_line_ || o.min_pause_line_ < min_pause_line_))
    min_pause_line_ = o.min_pause_line_;

  if (!have_sp_ && o.have_sp_) sp_first_line_ = o.sp_first_line_, have_sp_ = true;
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

void GcAggregator::copy_from(const GcAggregator& o) {
  *this = o;
  range_index_.reset();
  cause_index_.clear();
  for (size_t c = 0; c < causes_.size(); ++c)
    cause_index_.emplace(std::string_view(causes_[c]), static_cast<uint32_t>(c));
  phase_index_.clear();
  for (size_t p = 0; p < phases_.size(); ++p)
    phase_index_.emplace(std::string_view(phases_[p]), static_cast<uint32_t>(p));
  live_diary_ = nullptr;
}

void GcAggregator::note_member(const std::string& path, const char* dialect, bool parsed) {
  members_.push_back({{"path", path}, {"dialect", dialect}, {"parsed", parsed}});
}

}  // namespace gcscope::jvm
