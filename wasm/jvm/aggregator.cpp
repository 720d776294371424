#include "jvm/aggregator.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gcscope::jvm {
namespace {

constexpr size_t kUnparsedSamples = 20;
constexpr size_t kSampleChars = 300;

double nan_to_zero(double v) { return std::isnan(v) ? 0.0 : v; }

// JSON number or null for NaN/negative "not printed" values.
nlohmann::json num_or_null(double v) { return std::isnan(v) ? nlohmann::json() : nlohmann::json(v); }
nlohmann::json kb_or_null(double v) { return (std::isnan(v) || v < 0) ? nlohmann::json() : nlohmann::json(static_cast<int64_t>(v)); }

// Rounds to microseconds so the report does not carry float noise (0.30000000000000004).
double round6(double v) { return std::round(v * 1e6) / 1e6; }

// Nearest-rank percentile over a sorted vector.
double percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  double rank = std::ceil(q * static_cast<double>(sorted.size()));
  size_t i = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(i, sorted.size() - 1)];
}

bool is_full_type(GcType t) {
  return t == GcType::Full || t == GcType::FullGC || t == GcType::PSFull || t == GcType::G1GCFull ||
         t == GcType::ZGCFull ? t != GcType::ZGCFull : false;
}

const char* tri_json(Tri t) { return t == Tri::kTrue ? "true" : t == Tri::kFalse ? "false" : "null"; }

}  // namespace

uint32_t GcAggregator::intern_cause(std::string_view cause) {
  auto it = cause_index_.find(cause);
  if (it != cause_index_.end()) return it->second;
  auto idx = static_cast<uint32_t>(causes_.size());
  causes_.emplace_back(cause);
  cause_index_.emplace(std::string_view(causes_.back()), idx);
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

void GcAggregator::add_phase(uint32_t idx, double seconds) {
  auto& st = phase_stats_[idx];
  ++st.count;
  if (!std::isnan(seconds)) {
    st.total += seconds;
    st.max = std::max(st.max, seconds);
  }
}

void GcAggregator::on_event(const GcEvent& e) {
  const auto event_index = static_cast<uint32_t>(t_.size());
  t_.push_back(e.uptime_s);
  wall_.push_back(e.wall_epoch_ms);
  dur_.push_back(e.duration_s);
  type_.push_back(static_cast<uint8_t>(e.type));
  stw_.push_back(e.stop_the_world ? 1 : 0);
  cause_.push_back(e.cause.empty() ? -1 : static_cast<int32_t>(intern_cause(e.cause)));
  heap_before_.push_back(e.heap.before_kb >= 0 ? static_cast<double>(e.heap.before_kb) : kUnknown);
  heap_after_.push_back(e.heap.after_kb >= 0 ? static_cast<double>(e.heap.after_kb) : kUnknown);
  heap_committed_.push_back(e.heap.committed_kb >= 0 ? static_cast<double>(e.heap.committed_kb) : kUnknown);
  {
    const GcType t = e.type;
    const bool young = t == GcType::Young || t == GcType::PSYoungGen || t == GcType::DefNew || t == GcType::ParNew ||
                       t == GcType::G1GCYoungInitialMark || t == GcType::Mixed;
    if (young && e.old.before_kb >= 0 && e.old.after_kb >= 0) {
      any_old_ = true;
      if (e.old.after_kb > e.old.before_kb) promoted_kb_ += static_cast<double>(e.old.after_kb - e.old.before_kb);
    }
  }
  old_after_.push_back(e.old.after_kb >= 0 ? static_cast<double>(e.old.after_kb) : kUnknown);
  int64_t meta = std::max(e.metaspace.after_kb, e.metaspace.before_kb);
  meta_after_.push_back(meta >= 0 ? static_cast<double>(meta) : kUnknown);
  if (!std::isnan(e.user_s) && !std::isnan(e.sys_s)) {
    ++cpu_events_;
    if (e.sys_s > e.user_s && e.sys_s >= 0.01) {
      if (!sys_heavy_ || e.first_line < first_sys_heavy_line_) first_sys_heavy_line_ = e.first_line;
      ++sys_heavy_;
    }
  }
  flags_.push_back(e.flags);
  member_.push_back(e.member);
  line_.push_back(e.first_line);
  gc_id_.push_back(e.gc_id);
  if (static_cast<size_t>(e.type) < static_cast<size_t>(GcType::kCount)) ++type_counts_[static_cast<size_t>(e.type)];

  for (const auto& ph : e.phases) add_phase(intern_phase(ph.first), ph.second);
  if (e.stop_the_world && !std::isnan(e.duration_s)) {
    pause_t_.push_back(e.uptime_s);
    pause_dur_.push_back(e.duration_s);
    uint32_t& name = type_pause_name_[static_cast<size_t>(e.type) % static_cast<size_t>(GcType::kCount)];
    if (name == UINT32_MAX) name = intern_phase(std::string("Pause ") + gc_type_name(e.type));
    pause_name_.push_back(name);
    pause_event_.push_back(event_index);
    pause_line_.push_back(e.first_line);
    // The pause itself is a phase row too ("Pause Young" etc. are named by type).
    add_phase(pause_name_.back(), e.duration_s);
  }
  for (const auto& p : e.pauses_within) {
    uint32_t idx = intern_phase(p.name);
    add_phase(idx, p.duration_s);
    if (std::isnan(p.duration_s)) continue;
    pause_t_.push_back(p.uptime_s);
    pause_dur_.push_back(p.duration_s);
    pause_name_.push_back(idx);
    pause_event_.push_back(event_index);
    pause_line_.push_back(p.line);
  }
  ++seq_;
}

void GcAggregator::on_safepoint(const SafepointEvent& e) {
  sp_t_.push_back(e.uptime_s);
  sp_dur_.push_back(e.stopped_s);
  sp_reach_.push_back(e.reaching_s);
  sp_line_.push_back(e.line);
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

void GcAggregator::note_member(const std::string& path, const char* dialect, bool parsed) {
  members_.push_back({{"path", path}, {"dialect", dialect}, {"parsed", parsed}});
}

void GcAggregator::write_report(nlohmann::json& r) const {
  using nlohmann::json;
  const size_t n = t_.size();
  // Time order within each member, members in rank order (stable: ties keep arrival order).
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  auto rank = [&](size_t i) -> uint32_t {
    uint32_t m = member_[i];
    return m < member_rank_.size() ? member_rank_[m] : m;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    uint32_t ra = rank(a), rb = rank(b);
    if (ra != rb) return ra < rb;
    double ta = t_[a], tb = t_[b];
    if (std::isnan(ta) || std::isnan(tb)) return false;
    return ta < tb;
  });

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
  r["events"] = {{"by_type", by_type}, {"total", n}};

  // ---- pauses ----
  std::vector<double> sorted = pause_dur_;
  std::sort(sorted.begin(), sorted.end());
  double pause_total = 0;
  for (double d : sorted) pause_total += d;
  const size_t np = sorted.size();
  r["pauses"] = {
      {"count", np},
      {"total_s", round6(pause_total)},
      {"max_s", np ? round6(sorted.back()) : 0.0},
      {"mean_s", np ? round6(pause_total / static_cast<double>(np)) : 0.0},
      {"p50_s", round6(percentile(sorted, 0.50))},
      {"p90_s", round6(percentile(sorted, 0.90))},
      {"p99_s", round6(percentile(sorted, 0.99))},
      {"p999_s", round6(percentile(sorted, 0.999))},
  };

  // ---- runtime and throughput ----
  double first = diary_.first_uptime_s, last = diary_.last_uptime_s;
  if (std::isnan(first) || std::isnan(last)) {
    for (size_t i = 0; i < n; ++i) {
      if (std::isnan(t_[i])) continue;
      if (std::isnan(first) || t_[i] < first) first = t_[i];
      double end = t_[i] + nan_to_zero(dur_[i]);
      if (std::isnan(last) || end > last) last = end;
    }
  }
  double runtime = (std::isnan(first) || std::isnan(last)) ? kUnknown : last - first;
  if (!std::isnan(runtime) && runtime <= 0) runtime = kUnknown;
  r["time_range_s"] = {{"first", num_or_null(first)}, {"last", num_or_null(last)}};
  r["runtime_s"] = num_or_null(std::isnan(runtime) ? runtime : round6(runtime));
  double percent_paused = std::isnan(runtime) ? kUnknown : std::min(100.0, pause_total / runtime * 100.0);
  r["percent_paused"] = num_or_null(std::isnan(percent_paused) ? percent_paused : round6(percent_paused));
  r["throughput_percent"] = num_or_null(std::isnan(percent_paused) ? percent_paused : round6(100.0 - percent_paused));

  // ---- heap ----
  double max_committed = kUnknown, max_before = kUnknown, max_after = kUnknown, max_meta = kUnknown;
  auto upd = [](double& m, double v) {
    if (!std::isnan(v) && (std::isnan(m) || v > m)) m = v;
  };
  for (size_t i = 0; i < n; ++i) {
    upd(max_committed, heap_committed_[i]);
    upd(max_before, heap_before_[i]);
    upd(max_after, heap_after_[i]);
    upd(max_meta, meta_after_[i]);
  }
  r["heap"] = {{"max_size_kb", kb_or_null(max_committed)},
               {"max_occupancy_kb", kb_or_null(max_before)},
               {"max_after_gc_kb", kb_or_null(max_after)},
               {"max_metaspace_kb", kb_or_null(max_meta)},
               {"configured_max_kb", diary_.max_heap_kb >= 0 ? json(diary_.max_heap_kb) : json()}};

  // ---- rates: allocation = growth of the heap between collections; promotion = old-gen growth
  // across young collections. Both over the runtime.
  double allocated_kb = 0, prev_after = kUnknown;
  const double promoted_kb = promoted_kb_;
  const bool any_old = any_old_;
  uint32_t prev_member = UINT32_MAX;
  for (size_t k : order) {
    if (member_[k] != prev_member) prev_after = kUnknown, prev_member = member_[k];
    if (std::isnan(heap_before_[k]) || std::isnan(heap_after_[k])) continue;
    if (!std::isnan(prev_after) && heap_before_[k] > prev_after) allocated_kb += heap_before_[k] - prev_after;
    prev_after = heap_after_[k];
  }
  json rates = {{"allocation_mb_s", json()}, {"promotion_mb_s", json()}};
  if (!std::isnan(runtime)) {
    rates["allocation_mb_s"] = round6(allocated_kb / 1024.0 / runtime);
    if (any_old) rates["promotion_mb_s"] = round6(promoted_kb / 1024.0 / runtime);
  }
  r["rates"] = rates;

  // ---- causes ----
  struct CauseStat { uint64_t count = 0; double total = 0; };
  std::vector<CauseStat> cstats(causes_.size());
  std::vector<double> event_pause(n, 0.0);
  for (size_t k = 0; k < pause_dur_.size(); ++k) event_pause[pause_event_[k]] += pause_dur_[k];
  for (size_t i = 0; i < n; ++i) {
    if (cause_[i] < 0) continue;
    auto& c = cstats[static_cast<size_t>(cause_[i])];
    ++c.count;
    c.total += event_pause[i];
  }
  json causes = json::object();
  for (size_t c = 0; c < causes_.size(); ++c)
    causes[causes_[c]] = {{"count", cstats[c].count}, {"total_s", round6(cstats[c].total)}};
  r["causes"] = causes;

  // ---- phases ----
  json phases = json::object();
  for (size_t p = 0; p < phases_.size(); ++p)
    phases[phases_[p]] = {{"count", phase_stats_[p].count},
                          {"total_s", round6(phase_stats_[p].total)},
                          {"max_s", round6(phase_stats_[p].max)}};
  r["phases"] = phases;

  // ---- safepoints ----
  double sp_total = 0, sp_max = 0, reach_max = 0;
  uint64_t sp_count = 0;
  for (size_t i = 0; i < sp_dur_.size(); ++i) {
    if (std::isnan(sp_dur_[i])) continue;
    ++sp_count;
    sp_total += sp_dur_[i];
    sp_max = std::max(sp_max, sp_dur_[i]);
    reach_max = std::max(reach_max, nan_to_zero(sp_reach_[i]));
  }
  r["safepoints"] = {{"count", sp_count},
                     {"total_s", round6(sp_total)},
                     {"max_s", round6(sp_max)},
                     {"max_time_to_safepoint_s", round6(reach_max)}};
  r["stalls"] = {{"allocation", {{"count", alloc_stalls_}, {"total_s", round6(alloc_stall_total_)}, {"max_s", round6(alloc_stall_max_)}}},
                 {"relocation", {{"count", reloc_stalls_}, {"total_s", round6(reloc_stall_total_)}}}};

  // ---- findings ----
  json findings = json::array();
  write_findings(findings, order, runtime, pause_total, sp_count ? sp_total : kUnknown);
  r["findings"] = findings;

  // ---- unparsed ----
  json samples = json::array();
  for (const auto& s : unparsed_samples_) samples.push_back({{"member", s.member}, {"line", s.line}, {"text", s.text}});
  r["unparsed"] = {{"count", unparsed_}, {"samples", samples}};

  // ---- columnar series ----
  if (!with_series_) {
    r["series"] = nullptr;
    (void)is_full_type;
    return;
  }
  // Built as reserved std::vector<json> columns moved into the report: one allocation per column.
  auto column = [](size_t n) {
    json::array_t a;
    a.reserve(n);
    return a;
  };
  auto time_value = [](double v) { return std::isnan(v) ? json() : json(round6(v)); };
  json types = json::array();
  for (size_t i = 0; i < static_cast<size_t>(GcType::kCount); ++i) types.push_back(gc_type_name(static_cast<GcType>(i)));
  json::array_t et = column(n), ed = column(n), ety = column(n), ec = column(n), es = column(n), ehb = column(n),
                eha = column(n), ehc = column(n), el = column(n), em = column(n), eid = column(n), ef = column(n),
                ep = column(n);
  for (size_t k : order) {
    et.emplace_back(time_value(t_[k]));
    ed.emplace_back(time_value(dur_[k]));
    ety.emplace_back(type_[k]);
    ec.emplace_back(cause_[k]);
    es.emplace_back(stw_[k]);
    ehb.emplace_back(kb_or_null(heap_before_[k]));
    eha.emplace_back(kb_or_null(heap_after_[k]));
    ehc.emplace_back(kb_or_null(heap_committed_[k]));
    el.emplace_back(line_[k]);
    em.emplace_back(member_[k]);
    eid.emplace_back(gc_id_[k]);
    ef.emplace_back(flags_[k]);
    ep.emplace_back(round6(event_pause[k]));
  }
  // Pauses in time order too.
  std::vector<size_t> porder(pause_t_.size());
  std::iota(porder.begin(), porder.end(), size_t{0});
  std::stable_sort(porder.begin(), porder.end(), [&](size_t a, size_t b) {
    uint32_t ra = rank(pause_event_[a]), rb = rank(pause_event_[b]);
    if (ra != rb) return ra < rb;
    if (std::isnan(pause_t_[a]) || std::isnan(pause_t_[b])) return false;
    return pause_t_[a] < pause_t_[b];
  });
  const size_t npz = porder.size();
  json::array_t pt = column(npz), pd = column(npz), pn = column(npz), pl = column(npz), pe = column(npz);
  std::vector<size_t> position(n);
  for (size_t k = 0; k < order.size(); ++k) position[order[k]] = k;
  for (size_t k : porder) {
    pt.emplace_back(time_value(pause_t_[k]));
    pd.emplace_back(round6(pause_dur_[k]));
    pn.emplace_back(pause_name_[k]);
    pl.emplace_back(pause_line_[k]);
    pe.emplace_back(position[pause_event_[k]]);
  }
  const size_t nsp = sp_t_.size();
  json::array_t st = column(nsp), sd = column(nsp), sl = column(nsp);
  for (size_t i = 0; i < nsp; ++i) {
    st.emplace_back(time_value(sp_t_[i]));
    sd.emplace_back(time_value(sp_dur_[i]));
    sl.emplace_back(sp_line_[i]);
  }
  json events = json::object(), pauses = json::object(), safepoints = json::object();
  events["t"] = std::move(et);
  events["duration_s"] = std::move(ed);
  events["type"] = std::move(ety);
  events["cause"] = std::move(ec);
  events["stw"] = std::move(es);
  events["heap_before_kb"] = std::move(ehb);
  events["heap_after_kb"] = std::move(eha);
  events["heap_committed_kb"] = std::move(ehc);
  events["pause_s"] = std::move(ep);
  events["line"] = std::move(el);
  events["member"] = std::move(em);
  events["gc_id"] = std::move(eid);
  events["flags"] = std::move(ef);
  // Optional columns, only when the log printed them: wall-clock start (time decoration, epoch ms),
  // old generation and metaspace after the collection.
  auto optional_column = [&](const std::vector<double>& v, const char* name, bool as_kb) {
    bool any = false;
    for (double x : v)
      if (!std::isnan(x)) { any = true; break; }
    if (!any) return;
    json::array_t col = column(n);
    for (size_t k : order)
      col.emplace_back(as_kb ? kb_or_null(v[k]) : (std::isnan(v[k]) ? json() : json(std::round(v[k]))));
    events[name] = std::move(col);
  };
  optional_column(wall_, "wall_ms", false);
  optional_column(old_after_, "old_after_kb", true);
  optional_column(meta_after_, "metaspace_kb", true);
  pauses["t"] = std::move(pt);
  pauses["duration_s"] = std::move(pd);
  pauses["name"] = std::move(pn);
  pauses["line"] = std::move(pl);
  pauses["event"] = std::move(pe);
  safepoints["t"] = std::move(st);
  safepoints["duration_s"] = std::move(sd);
  safepoints["line"] = std::move(sl);
  json series = json::object();
  series["types"] = std::move(types);
  series["causes"] = json(std::vector<std::string>(causes_.begin(), causes_.end()));
  series["names"] = json(std::vector<std::string>(phases_.begin(), phases_.end()));
  series["events"] = std::move(events);
  series["pauses"] = std::move(pauses);
  series["safepoints"] = std::move(safepoints);
  r["series"] = std::move(series);
  (void)is_full_type;
}

}  // namespace gcscope::jvm
