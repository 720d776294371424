// The tuner's driver and the figures of one run (events, units of work, timeline, GC cycles, heap,
// leak, confidence). The rules that turn figures into advice are in tuner_rules.cpp; validation,
// exports and the lint of existing settings in tuner_output.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "tuner_run.h"

namespace gcscope::rubygc {

using nlohmann::json;

namespace {

// ---- policy numbers (ours unless a source is named; H-ids as in README.md, Policy numbers) ----
constexpr int kLeakMinUnits = 8;  // H12: too few points to call a trend otherwise
constexpr double kLeakEndGrowth = 1.15, kLeakQ3Growth = 1.05;
constexpr size_t kRepresentativeUnits = 200;  // agent README: "a good minimum ballpark sample set would be 200"
constexpr size_t kAgentSampleCap = 2000;      // agent RUBY_GC_MAX_SAMPLES default

json by_event_json(const Run& run) {
  json out = json::object();
  for (int e = 0; e < kEventCount; ++e) out[event_name(e)] = run.by_event[static_cast<size_t>(e)];
  return out;
}

// The run's GCs while working: `count` is exact, so its rise over the window (a lagging sample at
// either end cannot shrink it: the highest count seen counts).
int64_t gcs_while_working(const Run& run) {
  const Payload& p = run.p;
  if (run.first_start == kNone || run.last_end == kNone || run.last_end <= run.first_start) return 0;
  int64_t hi = p.at(run.first_start, p.col.count);
  for (size_t i = run.first_start; i <= run.last_end; ++i) hi = std::max(hi, p.at(i, p.col.count));
  return hi - p.at(run.first_start, p.col.count);
}

}  // namespace

std::string unit_label(const Payload& p, const Unit& u) {
  std::string label;
  for (size_t k : {u.end, u.start}) {
    const json* m = p.meta[k];
    if (m && label.empty()) {
      auto ctl = m->find("controller");
      auto act = m->find("action");
      if (ctl != m->end() && ctl->is_string()) label = ctl->get<std::string>();
      if (act != m->end() && act->is_string()) label += (label.empty() ? "" : "#") + act->get<std::string>();
    }
  }
  return label;
}

UnitPairing pair_units(const Payload& p) {
  UnitPairing pairing;
  std::map<int64_t, std::vector<size_t>> open;
  const size_t n = p.complete_samples();
  for (size_t i = 0; i < n; ++i) {
    if (p.event[i] == kProcessingStarted) {
      open[p.thread[i]].push_back(i);
    } else if (p.event[i] == kProcessingEnded) {
      auto it = open.find(p.thread[i]);
      if (it == open.end() || it->second.empty()) {
        ++pairing.unmatched_ends;
        continue;
      }
      pairing.units.push_back({it->second.back(), i, p.thread[i]});
      it->second.pop_back();
    }
  }
  for (auto& kv : open) pairing.unfinished += kv.second.size();
  std::sort(pairing.units.begin(), pairing.units.end(), [](const Unit& a, const Unit& b) { return a.start < b.start; });
  return pairing;
}

double r1(double v) { return std::round(v * 10) / 10; }

std::string fmt(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// The value at 0-based index round(pct% x (n - 1)) of the sorted values, rounding half up (the
// definition the corpus oracle uses: p50 of 300 values is the 151st, p95 the 285th).
int64_t percentile(std::vector<int64_t> v, double pct) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double k = std::floor(pct / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(static_cast<size_t>(k), v.size() - 1)];
}

std::optional<double> Run::existing_value(const std::string& name) const {
  for (auto& kv : p.header.env)
    if (kv.first == name) {
      ParamCheck pc = check_param(name, kv.second, version, p.pointer_bits);
      if (pc.status == ParamCheck::kAccepted) return pc.effective;
    }
  return std::nullopt;
}

void count_events(Run& run, json& report) {
  const Payload& p = run.p;
  run.by_event.assign(kEventCount, 0);
  for (size_t i = 0; i < p.n; ++i) {
    int e = p.event[i];
    ++run.by_event[static_cast<size_t>(e)];
    if (e == kBooted && run.booted == kNone) run.booted = i;
    if (e == kTerminated) run.terminated = i;
    if (e == kProcessingStarted && run.first_start == kNone) run.first_start = i;
    if (e == kProcessingEnded) run.last_end = i;
  }
  const double t0 = p.n ? p.ts[0] : 0;
  report["samples"] = {{"count", p.n},
                       {"by_event", by_event_json(run)},
                       {"duration_s", p.n ? std::round((p.ts[p.n - 1] - t0) * 1e4) / 1e4 : 0},
                       {"monotonic_clock", compare_dotted(p.header.agent_version, "1.0.70") >= 0}};
}

void measure_units(Run& run, json& report) {
  const Payload& p = run.p;
  const StatColumns& c = p.col;
  const double t0 = p.n ? p.ts[0] : 0;
  run.work = pair_units(p);
  const size_t nu = run.work.units.size();
  json::array_t start_s, duration_ms, allocations, gcs_col, minor_col, major_col, gc_time_ms, thread_col, label_col;
  for (auto* col :
       {&start_s, &duration_ms, &allocations, &gcs_col, &minor_col, &major_col, &gc_time_ms, &thread_col, &label_col})
    col->reserve(nu);
  for (const Unit& u : run.work.units) {
    double dur = (p.ts[u.end] - p.ts[u.start]) * 1000.0;
    int64_t alloc = p.gain(u.start, u.end, c.total_allocated).value_or(0);
    int64_t gcs = p.gain(u.start, u.end, c.count).value_or(0);
    json gc_ms = nullptr;
    if (const auto g = p.gain(u.start, u.end, c.time)) {
      gc_ms = *g;
      run.unit_gc_ms_total += static_cast<double>(*g);
    }
    run.unit_ms_total += dur;
    run.allocs.push_back(alloc);
    if (gcs > 0) ++run.units_with_gc;
    start_s.emplace_back(r1((p.ts[u.start] - t0) * 10000) / 10000);
    duration_ms.emplace_back(std::round(dur * 1000) / 1000);
    allocations.emplace_back(alloc);
    gcs_col.emplace_back(gcs);
    minor_col.emplace_back(p.gain(u.start, u.end, c.minor).value_or(0));
    major_col.emplace_back(p.gain(u.start, u.end, c.major).value_or(0));
    gc_time_ms.emplace_back(gc_ms);
    thread_col.emplace_back(u.thread == Payload::kNoThread ? json(nullptr) : json(std::to_string(u.thread)));
    label_col.emplace_back(unit_label(p, u));
  }
  run.p50 = percentile(run.allocs, 50);
  run.p95 = percentile(run.allocs, 95);
  run.with_gc_pct = nu ? 100.0 * static_cast<double>(run.units_with_gc) / static_cast<double>(nu) : 0;
  json columns = {{"start_s", std::move(start_s)},         {"duration_ms", std::move(duration_ms)},
                  {"allocations", std::move(allocations)}, {"gcs", std::move(gcs_col)},
                  {"minor", std::move(minor_col)},         {"major", std::move(major_col)},
                  {"gc_time_ms", std::move(gc_time_ms)},   {"thread", std::move(thread_col)},
                  {"label", std::move(label_col)}};
  report["units_of_work"] = {{"count", nu},
                             {"unfinished", run.work.unfinished},
                             {"unmatched_ends", run.work.unmatched_ends},
                             {"allocations_p50", run.p50},
                             {"allocations_p95", run.p95},
                             {"with_gc_pct", r1(run.with_gc_pct)},
                             {"columns", std::move(columns)}};
}

void write_timeline(const Run& run, json& report) {
  const Payload& p = run.p;
  const size_t n = p.n;
  const double t0 = n ? p.ts[0] : 0;
  json tl = json::object();
  // Columns are built as array_t with reserve + emplace_back: one json construction per value
  // (push_back on a json array constructs, moves and destroys a temporary; in wasm that shows).
  json::array_t t, ev;
  t.reserve(n);
  ev.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    t.emplace_back(std::round((p.ts[i] - t0) * 1e6) / 1e6);
    ev.emplace_back(p.event[i]);
  }
  tl["t"] = json(std::move(t));
  tl["event"] = json(std::move(ev));
  json legend = json::array();
  for (int e = 0; e < kEventCount; ++e) legend.push_back(event_name(e));
  tl["event_names"] = legend;
  for (const auto& s : counter_series(p)) {
    json::array_t a;
    a.reserve(n);
    for (size_t i = 0; i < n; ++i) a.emplace_back(s.value(i));
    tl[s.name] = json(std::move(a));
  }
  report["timeline"] = std::move(tl);
}

// GC cycles from GC_CYCLE_STARTED (C hook) or, without it, GC_CYCLE_ENDED; the reasons of the GCs
// while working.
void classify_gc_cycles(Run& run, json& report) {
  const Payload& p = run.p;
  const StatColumns& c = p.col;
  const double t0 = p.n ? p.ts[0] : 0;
  run.have_started = run.by_event[kGcCycleStarted] > 0;
  json cycles = {{"start_s", json::array()},          {"end_s", json::array()}, {"major", json::array()},
                 {"major_by", json::array()},         {"gc_by", json::array()}, {"count", json::array()},
                 {"during_processing", json::array()}};
  const int kind = run.have_started ? kGcCycleStarted : kGcCycleEnded;
  for (size_t i = 0; i < p.n; ++i) {
    if (p.event[i] != kind) continue;
    json end = nullptr;
    if (run.have_started) {
      for (size_t j = i + 1; j < p.n; ++j)
        if (p.event[j] == kGcCycleEnded && p.at(j, c.count) == p.at(i, c.count)) {
          end = std::round((p.ts[j] - t0) * 1e6) / 1e6;
          break;
        } else if (p.event[j] == kGcCycleStarted) {
          break;
        }
    } else {
      end = std::round((p.ts[i] - t0) * 1e6) / 1e6;
    }
    bool major = p.major_by[i] != kMajorNone;
    cycles["start_s"].push_back(std::round((p.ts[i] - t0) * 1e6) / 1e6);
    cycles["end_s"].push_back(end);
    cycles["major"].push_back(major);
    cycles["major_by"].push_back(major ? json(major_by_name(p.major_by[i])) : json(nullptr));
    cycles["gc_by"].push_back(gc_by_name(p.gc_by[i]));
    cycles["count"].push_back(p.at(i, c.count));
    cycles["during_processing"].push_back(run.in_window(i));
  }
  if (run.have_started) {
    for (size_t i = 0; i < p.n; ++i) {
      if (p.event[i] != kGcCycleStarted || !run.in_window(i)) continue;
      if (p.major_by[i] == kMajorNone) {
        ++run.minors;
        ++run.minors_by[gc_by_name(p.gc_by[i])];
        if (p.gc_by[i] == kGcByMalloc) ++run.minor_by_malloc;
      } else {
        ++run.majors;
        ++run.majors_by[major_by_name(p.major_by[i])];
      }
    }
  } else {
    // No GC start events (finalizer/poll agents): per unit, the counter deltas give how many minors and
    // majors ran; GC.latest_gc_info at PROCESSING_ENDED only names the reason of the last one (autotuner
    // makes the same approximation).
    for (const Unit& u : run.work.units) {
      int64_t mi = p.gain(u.start, u.end, c.minor).value_or(0);
      int64_t ma = p.gain(u.start, u.end, c.major).value_or(0);
      run.minors += mi;
      run.majors += ma;
      if (ma > 0) run.majors_by[p.major_by[u.end] == kMajorNone ? "unknown" : major_by_name(p.major_by[u.end])] += ma;
      if (mi > 0 && ma == 0) {
        ++run.minors_by[gc_by_name(p.gc_by[u.end])];
        if (p.gc_by[u.end] == kGcByMalloc) ++run.minor_by_malloc;
      }
    }
  }
  report["gc_cycles"] = std::move(cycles);
  run.gcs_processing = gcs_while_working(run);
}

void measure_heap(Run& run, json& report) {
  const Payload& p = run.p;
  run.page = p.page_obj_limit;
  if (run.booted != kNone) {
    run.boot_gc = p.at(run.booted, p.col.count);
    run.live_boot = p.heap_live(run.booted);
    run.avail_boot = p.heap_available(run.booted);
  }
  report["boot_gc_count"] = run.boot_gc;
  if (run.first_start != kNone && run.last_end != kNone)
    for (size_t i = run.first_start; i <= run.last_end; ++i) {
      run.max_avail_proc = std::max(run.max_avail_proc, p.heap_available(i));
      run.max_live_proc = std::max(run.max_live_proc, p.heap_live(i));
      if (i > run.first_start)
        run.max_growth_step = std::max(run.max_growth_step, p.heap_available(i) - p.heap_available(i - 1));
    }
  // What survives GCs: heap_live_slots counts garbage not yet swept (a big heap rarely collects), so
  // take live slots after the forced full GCs of BOOTED/TERMINATED and the old objects while working.
  if (run.booted != kNone) run.retained = std::max(run.retained, p.heap_live(run.booted));
  if (run.terminated != kNone) run.retained = std::max(run.retained, p.heap_live(run.terminated));
  if (p.col.old_objects >= 0 && run.first_start != kNone && run.last_end != kNone)
    for (size_t i = run.first_start; i <= run.last_end; ++i)
      run.retained = std::max(run.retained, p.at(i, p.col.old_objects));
  // peak_rss is the agent's maxrss; current rss can read a little higher (different sources), so both.
  for (size_t i = 0; i < p.n; ++i) {
    run.peak_rss = std::max(run.peak_rss, p.peak_rss[i]);
    run.max_rss = std::max(run.max_rss, p.rss[i]);
  }
}

// H12: old objects (or live slots) still growing through the second half of the run.
void detect_leak(Run& run, json& report) {
  const Payload& p = run.p;
  int col = p.col.old_objects >= 0 ? p.col.old_objects : p.col.heap_live;
  std::vector<int64_t> series;
  for (const Unit& u : run.work.units) series.push_back(p.at(u.end, col));
  run.leak_evidence = nullptr;
  if (col >= 0 && series.size() >= static_cast<size_t>(kLeakMinUnits)) {
    int64_t mid = series[series.size() / 2], q3 = series[series.size() * 3 / 4], end = series.back();
    run.leak = mid > 0 && static_cast<double>(end) > static_cast<double>(mid) * kLeakEndGrowth &&
               static_cast<double>(q3) > static_cast<double>(mid) * kLeakQ3Growth;
    run.leak_evidence = {{"series", p.header.stat_keys[static_cast<size_t>(col)]},
                         {"at_half", mid},
                         {"at_three_quarters", q3},
                         {"at_end", end},
                         {"growth_second_half_pct",
                          mid > 0 ? r1(100.0 * static_cast<double>(end - mid) / static_cast<double>(mid)) : 0}};
  }
  report["leak_suspected"] = run.leak;
  report["leak"] = run.leak_evidence;
}

// H13: enough units of work, the whole run, GCs to learn from.
void rate_confidence(Run& run, json& report) {
  const Payload& p = run.p;
  size_t non_terminated = p.n - run.by_event[kTerminated];
  // The agent keeps at most RUBY_GC_MAX_SAMPLES samples (its own variable, in header[3]) plus TERMINATED.
  size_t sample_cap = kAgentSampleCap;
  for (auto& kv : p.header.env)
    if (kv.first == "RUBY_GC_MAX_SAMPLES") {
      long long v = std::atoll(kv.second.c_str());
      if (v > 0) sample_cap = static_cast<size_t>(v);
    }
  bool cap = non_terminated >= sample_cap;
  json reasons = json::array();
  std::string level = "high";
  if (run.work.units.size() < kRepresentativeUnits) {
    level = "low";
    reasons.push_back("only " + std::to_string(run.work.units.size()) +
                      " units of work (the agent's README suggests >= 200)");
  }
  if (cap) {
    if (level == "high") level = "medium";
    reasons.push_back("the agent's " + std::to_string(sample_cap) +
                      "-sample cap was reached: the end of the run is missing");
  }
  if (run.gcs_processing < 3) {
    if (level == "high") level = "medium";
    reasons.push_back(std::to_string(run.gcs_processing) + " GCs during the units of work: little to learn from");
  }
  const size_t started = run.by_event[kGcCycleStarted], ended = run.by_event[kGcCycleEnded];
  run.confidence = level;
  report["confidence"] = {{"level", level},
                          {"units", run.work.units.size()},
                          {"gc_cycles_seen", started + ended > 0 ? std::max(started, ended) : 0},
                          {"gcs_during_processing", run.gcs_processing},
                          {"samples", p.n},
                          {"sample_cap", sample_cap},
                          {"sample_cap_reached", cap},
                          {"reasons", reasons}};
}

// The figures every rule starts from.
void write_metrics(const Run& run, json& report) {
  json mb = json::object();
  for (auto& kv : run.majors_by) mb[kv.first] = kv.second;
  json mi_by = json::object();
  for (auto& kv : run.minors_by) mi_by[kv.first] = kv.second;
  const Payload& p = run.p;
  report["metrics"] = {
      {"units", run.work.units.size()},
      {"gc_at_boot", run.boot_gc},
      {"heap_live_at_boot", run.live_boot},
      {"heap_available_at_boot", run.avail_boot},
      {"max_heap_available_processing", run.max_avail_proc},
      {"max_heap_live_processing", run.max_live_proc},
      {"max_growth_step_slots", run.max_growth_step},
      {"heap_live_at_end", run.terminated != kNone ? json(p.heap_live(run.terminated)) : json(nullptr)},
      {"gcs_during_processing", run.gcs_processing},
      {"minors", run.minors},
      {"majors", run.majors},
      {"minor_by_malloc", run.minor_by_malloc},
      {"minors_by", mi_by},
      {"majors_by", mb},
      {"units_with_gc_pct", r1(run.with_gc_pct)},
      {"alloc_per_unit_p50", run.p50},
      {"alloc_per_unit_p95", run.p95},
      {"peak_rss_mb", r1(static_cast<double>(run.peak_rss) / kMiB)},
      {"max_rss_mb", r1(static_cast<double>(run.max_rss) / kMiB)},
      {"gc_time_share_pct", run.gc_share},
      {"page_obj_limit", run.page},
      {"leak_suspected", run.leak}};
}

// Object types at BOOTED vs TERMINATED; per-heap stats (the meta.stat_heap extension, 3.3+).
void read_heaps(Run& run, json& report) {
  const Payload& p = run.p;
  auto object_types = [&](size_t i) -> json {
    if (i == kNone || !p.meta[i]) return nullptr;
    json o = json::object();
    for (auto it = p.meta[i]->begin(); it != p.meta[i]->end(); ++it)
      if (it.value().is_number() && (it.key().rfind("T_", 0) == 0 || it.key() == "TOTAL" || it.key() == "FREE"))
        o[it.key()] = it.value();
    return o.empty() ? json(nullptr) : o;
  };
  report["object_types"] = {{"booted", object_types(run.booted)}, {"terminated", object_types(run.terminated)}};
  auto stat_heap_at = [&](size_t i) -> const json* {
    if (i == kNone || !p.meta[i]) return nullptr;
    auto it = p.meta[i]->find("stat_heap");
    return it != p.meta[i]->end() && (it->is_object() || it->is_array()) ? &*it : nullptr;
  };
  // The last per-heap snapshot of the run (the warm heap), preferring the last unit's end.
  const json* heap_end = nullptr;
  for (size_t i = p.n; i-- > 0 && !heap_end;)
    if (p.event[i] == kProcessingEnded) heap_end = stat_heap_at(i);
  if (!heap_end) heap_end = stat_heap_at(run.terminated);
  if (!heap_end) return;
  for (int h = 0; h < 5; ++h) {
    const json* e = nullptr;
    if (heap_end->is_object() && heap_end->contains(std::to_string(h))) e = &(*heap_end)[std::to_string(h)];
    if (heap_end->is_array() && heap_end->size() > static_cast<size_t>(h)) e = &(*heap_end)[static_cast<size_t>(h)];
    if (!e || !e->is_object()) break;
    auto s = e->find("heap_eden_slots");
    auto z = e->find("slot_size");
    if (s == e->end() || !s->is_number_integer()) break;
    run.heaps.emplace_back(s->get<int64_t>(), z != e->end() && z->is_number_integer() ? z->get<int64_t>() : 0);
  }
  report["stat_heap"] = {{"booted", stat_heap_at(run.booted) ? *stat_heap_at(run.booted) : json(nullptr)},
                         {"end", *heap_end}};
}

Verdict tune(const Payload& p, const RubyVersion& version, const TunerOptions& options, json& report) {
  Run run(p, version, options);
  count_events(run, report);
  measure_units(run, report);
  find_plateau(run, report);
  write_timeline(run, report);
  classify_gc_cycles(run, report);
  measure_heap(run, report);
  detect_leak(run, report);
  rate_confidence(run, report);
  run.gc_share = p.col.time >= 0 && run.unit_ms_total > 0 ? json(r1(100.0 * run.unit_gc_ms_total / run.unit_ms_total))
                                                          : json(nullptr);
  write_metrics(run, report);
  read_heaps(run, report);
  size_heaps_at_plateau(run, report);

  Verdict verdict;
  if (run.work.units.empty()) {
    verdict.status = 400;
    verdict.message =
        "no unit of work (no PROCESSING_STARTED/ENDED pair): not representative; the real agent does not "
        "sync such a sample set";
    verdict.details = {{"by_event", by_event_json(run)}};
  }
  Advice advice;
  state_facts(run, advice);
  for (const Rule& rule : tuning_rules()) rule.apply(run, advice);
  write_recommendations(run, advice, report);
  report["rss_budget"] = advice.budget_info;
  json conflicts = lint_existing(run, report);
  report["findings"] = advice.findings;

  if (verdict.status == 200 && !conflicts.empty()) {
    verdict.status = 412;
    std::string names;
    for (auto& cf : conflicts) names += (names.empty() ? "" : ", ") + cf["variable"].get<std::string>();
    verdict.message = "already tuned: our advice would move existing settings far (" + names +
                      "); compare them side by side before changing anything";
    json existing = json::object();
    for (auto& kv : p.header.env)
      if (!is_agent_control_var(kv.first)) existing[kv.first] = kv.second;
    verdict.details = {{"existing", existing}, {"conflicts", conflicts}};
  } else if (verdict.status == 200) {
    verdict.message = "advice for Ruby " + version.text + " from " + std::to_string(run.work.units.size()) +
                      " units of work and " + std::to_string(run.gcs_processing) +
                      " GCs while working (confidence: " + run.confidence + ")";
  }
  return verdict;
}

}  // namespace gcscope::rubygc
