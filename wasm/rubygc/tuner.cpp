#include "tuner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace gcscope::rubygc {

namespace {

using nlohmann::json;

// ---- policy numbers (ours unless a source is named; see /shared/notes/ruby-gc-tuning.md §3) ----
constexpr int kBootGcsForInit = 10;           // H1: boot needed many GCs
constexpr double kHeapGrowthAfterBoot = 1.05;  // H1: heap grew > 5 % after BOOTED
constexpr double kMemoryInitHeadroom = 1.05;   // H1 memory: live slots at BOOTED x 1.05 (EnvMem-like)
constexpr double kSpeedGrowthFactor = 1.25;    // H3: TuneMyGC used 1.2, byroot 1.3 with a large INIT
constexpr double kMemoryGrowthFactor = 1.1;    // H3 memory
constexpr double kUnitsWithGcForFree = 25.0;   // H2: % of units that contain a GC
constexpr double kFreeMinRatio = 0.20;         // H2: RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO default
constexpr int kOldgenMajors = 3;               // H5
constexpr double kSpeedOldobjectFactor = 3.0;  // H5 (code.org used 3)
constexpr double kMemoryOldobjectFactor = 1.5;  // H5 (Discourse used 1.5)
constexpr int kMallocMinors = 10;              // H6 = autotuner Malloc (>= 10 and > 10 %)
constexpr int kOldmallocMajors = 10;           // H7 = autotuner Oldmalloc (>= 10 and > 1 %)
constexpr int kShadyMajors = 10;               // H8 = autotuner RememberedWBUnprotectedObjects
constexpr int kLeakMinUnits = 8;               // H12: too few points to call a trend otherwise
constexpr double kLeakEndGrowth = 1.15, kLeakQ3Growth = 1.05;
constexpr size_t kRepresentativeUnits = 200;   // agent README: "a good minimum ballpark sample set would be 200"
constexpr size_t kAgentSampleCap = 2000;       // agent RUBY_GC_MAX_SAMPLES default
constexpr double kConflictRatio = 2.0;         // H10: our value vs an existing one
constexpr double kConflictFromDefault = 4.0;   // H10: an existing value we do not recommend vs the default
constexpr double kMiB = 1024.0 * 1024.0;

double r1(double v) { return std::round(v * 10) / 10; }

// The value at 0-based index round(pct% x (n - 1)) of the sorted values, rounding half up (the
// definition the corpus oracle uses: p50 of 300 values is the 151st, p95 the 285th).
int64_t percentile(std::vector<int64_t> v, double pct) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double k = std::floor(pct / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(static_cast<size_t>(k), v.size() - 1)];
}

int64_t pages_up(int64_t slots, int64_t page) { return page > 0 ? (slots + page - 1) / page * page : slots; }
int64_t pages_down(int64_t slots, int64_t page) { return page > 0 ? slots / page * page : slots; }

struct Unit {
  size_t start, end;
  int64_t thread;
};

struct Rec {
  std::string strategy, variable;
  double value;
  std::string reason;
  json evidence;
};

std::string fmt(double v, int decimals = 1) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string num(int64_t v) { return std::to_string(v); }

}  // namespace

Verdict tune(const Payload& p, const RubyVersion& version, const TunerOptions& options, json& report) {
  Verdict verdict;
  const StatColumns& c = p.col;
  const size_t n = p.n;
  const double t0 = n ? p.ts[0] : 0;
  const bool v33 = version.at_least(3, 3);
  const bool v32 = version.major == 3 && version.minor == 2;
  json findings = json::array();
  auto finding = [&](const char* id, const char* severity, std::string message, json evidence = json::object()) {
    findings.push_back({{"id", id}, {"severity", severity}, {"message", std::move(message)}, {"evidence", std::move(evidence)}});
  };

  // ---- samples by event, boot, end ----
  std::vector<size_t> by_event(kEventCount, 0);
  size_t booted = SIZE_MAX, terminated = SIZE_MAX, first_start = SIZE_MAX, last_end = SIZE_MAX;
  for (size_t i = 0; i < n; ++i) {
    int e = p.event[i];
    ++by_event[static_cast<size_t>(e)];
    if (e == kBooted && booted == SIZE_MAX) booted = i;
    if (e == kTerminated) terminated = i;
    if (e == kProcessingStarted && first_start == SIZE_MAX) first_start = i;
    if (e == kProcessingEnded) last_end = i;
  }
  json by_event_json = json::object();
  for (int e = 0; e < kEventCount; ++e) by_event_json[event_name(e)] = by_event[static_cast<size_t>(e)];
  report["samples"] = {{"count", n}, {"by_event", by_event_json},
                       {"duration_s", n ? std::round((p.ts[n - 1] - t0) * 1e4) / 1e4 : 0},
                       {"monotonic_clock", compare_dotted(p.header.agent_version, "1.0.70") >= 0}};

  // ---- units of work: PROCESSING_STARTED/ENDED paired per thread ----
  std::vector<Unit> units;
  std::map<int64_t, std::vector<size_t>> open;
  size_t unmatched_ends = 0;
  for (size_t i = 0; i < n; ++i) {
    if (p.event[i] == kProcessingStarted) open[p.thread[i]].push_back(i);
    else if (p.event[i] == kProcessingEnded) {
      auto it = open.find(p.thread[i]);
      if (it == open.end() || it->second.empty()) {
        ++unmatched_ends;
        continue;
      }
      units.push_back({it->second.back(), i, p.thread[i]});
      it->second.pop_back();
    }
  }
  size_t unfinished = 0;
  for (auto& kv : open) unfinished += kv.second.size();
  std::sort(units.begin(), units.end(), [](const Unit& a, const Unit& b) { return a.start < b.start; });

  json uw_cols = {{"start_s", json::array()}, {"duration_ms", json::array()}, {"allocations", json::array()},
                  {"gcs", json::array()},     {"minor", json::array()},       {"major", json::array()},
                  {"gc_time_ms", json::array()}, {"thread", json::array()},   {"label", json::array()}};
  auto& col_start_s = uw_cols["start_s"].get_ref<json::array_t&>();
  col_start_s.reserve(units.size());
  auto& col_duration_ms = uw_cols["duration_ms"].get_ref<json::array_t&>();
  col_duration_ms.reserve(units.size());
  auto& col_allocations = uw_cols["allocations"].get_ref<json::array_t&>();
  col_allocations.reserve(units.size());
  auto& col_gcs = uw_cols["gcs"].get_ref<json::array_t&>();
  col_gcs.reserve(units.size());
  auto& col_minor = uw_cols["minor"].get_ref<json::array_t&>();
  col_minor.reserve(units.size());
  auto& col_major = uw_cols["major"].get_ref<json::array_t&>();
  col_major.reserve(units.size());
  auto& col_gc_time_ms = uw_cols["gc_time_ms"].get_ref<json::array_t&>();
  col_gc_time_ms.reserve(units.size());
  auto& col_thread = uw_cols["thread"].get_ref<json::array_t&>();
  col_thread.reserve(units.size());
  auto& col_label = uw_cols["label"].get_ref<json::array_t&>();
  col_label.reserve(units.size());
  std::vector<int64_t> allocs;
  size_t units_with_gc = 0;
  double unit_ms_total = 0, unit_gc_ms_total = 0;
  for (const Unit& u : units) {
    double dur = (p.ts[u.end] - p.ts[u.start]) * 1000.0;
    int64_t alloc = c.total_allocated >= 0 ? p.at(u.end, c.total_allocated) - p.at(u.start, c.total_allocated) : 0;
    int64_t gcs = p.at(u.end, c.count) - p.at(u.start, c.count);
    int64_t mi = c.minor >= 0 ? p.at(u.end, c.minor) - p.at(u.start, c.minor) : 0;
    int64_t ma = c.major >= 0 ? p.at(u.end, c.major) - p.at(u.start, c.major) : 0;
    json gc_ms = nullptr;
    if (c.time >= 0) {
      int64_t g = p.at(u.end, c.time) - p.at(u.start, c.time);
      gc_ms = g;
      unit_gc_ms_total += static_cast<double>(g);
    }
    unit_ms_total += dur;
    allocs.push_back(alloc);
    if (gcs > 0) ++units_with_gc;
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
    col_start_s.emplace_back(r1((p.ts[u.start] - t0) * 10000) / 10000);
    col_duration_ms.emplace_back(std::round(dur * 1000) / 1000);
    col_allocations.emplace_back(alloc);
    col_gcs.emplace_back(gcs);
    col_minor.emplace_back(mi);
    col_major.emplace_back(ma);
    col_gc_time_ms.emplace_back(gc_ms);
    col_thread.emplace_back(u.thread == Payload::kNoThread ? json(nullptr) : json(std::to_string(u.thread)));
    col_label.emplace_back(label);
  }
  const int64_t p50 = percentile(allocs, 50), p95 = percentile(allocs, 95);
  const double with_gc_pct = units.empty() ? 0 : 100.0 * static_cast<double>(units_with_gc) / static_cast<double>(units.size());
  report["units_of_work"] = {{"count", units.size()},
                             {"unfinished", unfinished},
                             {"unmatched_ends", unmatched_ends},
                             {"allocations_p50", p50},
                             {"allocations_p95", p95},
                             {"with_gc_pct", r1(with_gc_pct)},
                             {"columns", uw_cols}};

  // ---- timeline (columnar) ----
  json tl = json::object();
  {
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
    auto column = [&](const char* name, auto get) {
      json::array_t a;
      a.reserve(n);
      for (size_t i = 0; i < n; ++i) a.emplace_back(get(i));
      tl[name] = json(std::move(a));
    };
    if (c.heap_available >= 0) column("heap_available_slots", [&](size_t i) { return p.heap_available(i); });
    if (c.heap_live >= 0) column("heap_live_slots", [&](size_t i) { return p.at(i, c.heap_live); });
    if (c.heap_free >= 0) column("heap_free_slots", [&](size_t i) { return p.at(i, c.heap_free); });
    column("rss_bytes", [&](size_t i) { return p.rss[i]; });
    column("peak_rss_bytes", [&](size_t i) { return p.peak_rss[i]; });
    column("gc_count", [&](size_t i) { return p.at(i, c.count); });
    if (c.minor >= 0) column("minor_gc_count", [&](size_t i) { return p.at(i, c.minor); });
    if (c.major >= 0) column("major_gc_count", [&](size_t i) { return p.at(i, c.major); });
    if (c.malloc_increase >= 0) column("malloc_increase_bytes", [&](size_t i) { return p.at(i, c.malloc_increase); });
    if (c.malloc_limit >= 0) column("malloc_increase_bytes_limit", [&](size_t i) { return p.at(i, c.malloc_limit); });
    if (c.oldmalloc_increase >= 0) column("oldmalloc_increase_bytes", [&](size_t i) { return p.at(i, c.oldmalloc_increase); });
    if (c.oldmalloc_limit >= 0) column("oldmalloc_increase_bytes_limit", [&](size_t i) { return p.at(i, c.oldmalloc_limit); });
    if (c.old_objects >= 0) column("old_objects", [&](size_t i) { return p.at(i, c.old_objects); });
  }
  report["timeline"] = std::move(tl);

  // ---- GC cycles: from GC_CYCLE_STARTED (C hook) or, without it, GC_CYCLE_ENDED ----
  const bool have_started = by_event[kGcCycleStarted] > 0;
  json cycles = {{"start_s", json::array()}, {"end_s", json::array()}, {"major", json::array()},
                 {"major_by", json::array()}, {"gc_by", json::array()}, {"count", json::array()},
                 {"during_processing", json::array()}};
  int64_t minors = 0, majors = 0, minor_by_malloc = 0;
  std::map<std::string, int64_t> majors_by, minors_by;
  auto in_window = [&](size_t i) { return first_start != SIZE_MAX && last_end != SIZE_MAX && i >= first_start && i <= last_end; };
  {
    const int kind = have_started ? kGcCycleStarted : kGcCycleEnded;
    for (size_t i = 0; i < n; ++i) {
      if (p.event[i] != kind) continue;
      json end = nullptr;
      if (have_started) {
        for (size_t j = i + 1; j < n; ++j)
          if (p.event[j] == kGcCycleEnded && p.at(j, c.count) == p.at(i, c.count)) {
            end = std::round((p.ts[j] - t0) * 1e6) / 1e6;
            break;
          } else if (p.event[j] == kGcCycleStarted) break;
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
      cycles["during_processing"].push_back(in_window(i));
    }
  }
  if (have_started) {
    for (size_t i = 0; i < n; ++i) {
      if (p.event[i] != kGcCycleStarted || !in_window(i)) continue;
      if (p.major_by[i] == kMajorNone) {
        ++minors;
        ++minors_by[gc_by_name(p.gc_by[i])];
        if (p.gc_by[i] == kGcByMalloc) ++minor_by_malloc;
      } else {
        ++majors;
        ++majors_by[major_by_name(p.major_by[i])];
      }
    }
  } else {
    // No GC start events (finalizer/poll agents): per unit, the counter deltas give how many minors and
    // majors ran; GC.latest_gc_info at PROCESSING_ENDED only names the reason of the last one (autotuner
    // makes the same approximation).
    for (const Unit& u : units) {
      int64_t mi = c.minor >= 0 ? p.at(u.end, c.minor) - p.at(u.start, c.minor) : 0;
      int64_t ma = c.major >= 0 ? p.at(u.end, c.major) - p.at(u.start, c.major) : 0;
      minors += mi;
      majors += ma;
      if (ma > 0) majors_by[p.major_by[u.end] == kMajorNone ? "unknown" : major_by_name(p.major_by[u.end])] += ma;
      if (mi > 0 && ma == 0) {
        ++minors_by[gc_by_name(p.gc_by[u.end])];
        if (p.gc_by[u.end] == kGcByMalloc) ++minor_by_malloc;
      }
    }
  }
  report["gc_cycles"] = std::move(cycles);
  const int64_t gcs_processing = (first_start != SIZE_MAX && last_end != SIZE_MAX && last_end > first_start)
                                     ? p.at(last_end, c.count) - p.at(first_start, c.count)
                                     : 0;

  // ---- boot and heap ----
  const int64_t page = p.page_obj_limit;
  json boot_gc = nullptr, live_boot = nullptr, avail_boot = nullptr;
  if (booted != SIZE_MAX) {
    boot_gc = p.at(booted, c.count);
    live_boot = p.heap_live(booted);
    avail_boot = p.heap_available(booted);
  }
  report["boot_gc_count"] = boot_gc;
  int64_t max_avail_proc = 0, max_live_proc = 0, max_growth_step = 0;
  if (first_start != SIZE_MAX && last_end != SIZE_MAX)
    for (size_t i = first_start; i <= last_end; ++i) {
      max_avail_proc = std::max(max_avail_proc, p.heap_available(i));
      max_live_proc = std::max(max_live_proc, p.heap_live(i));
      if (i > first_start) max_growth_step = std::max(max_growth_step, p.heap_available(i) - p.heap_available(i - 1));
    }
  // What survives GCs: heap_live_slots counts garbage not yet swept (a big heap rarely collects), so
  // take live slots after the forced full GCs of BOOTED/TERMINATED and the old objects while working.
  int64_t retained = 0;
  if (booted != SIZE_MAX) retained = std::max(retained, p.heap_live(booted));
  if (terminated != SIZE_MAX) retained = std::max(retained, p.heap_live(terminated));
  if (c.old_objects >= 0 && first_start != SIZE_MAX && last_end != SIZE_MAX)
    for (size_t i = first_start; i <= last_end; ++i) retained = std::max(retained, p.at(i, c.old_objects));
  // peak_rss is the agent's maxrss; current rss can read a little higher (different sources), so both.
  int64_t peak_rss = 0, max_rss = 0;
  for (size_t i = 0; i < n; ++i) {
    peak_rss = std::max(peak_rss, p.peak_rss[i]);
    max_rss = std::max(max_rss, p.rss[i]);
  }

  // ---- leak: old objects still growing through the second half of the run (H12) ----
  bool leak = false;
  json leak_evidence = nullptr;
  {
    int col = c.old_objects >= 0 ? c.old_objects : c.heap_live;
    std::vector<int64_t> series;
    for (const Unit& u : units) series.push_back(p.at(u.end, col));
    if (col >= 0 && series.size() >= static_cast<size_t>(kLeakMinUnits)) {
      int64_t mid = series[series.size() / 2], q3 = series[series.size() * 3 / 4], end = series.back();
      leak = mid > 0 && static_cast<double>(end) > static_cast<double>(mid) * kLeakEndGrowth &&
             static_cast<double>(q3) > static_cast<double>(mid) * kLeakQ3Growth;
      leak_evidence = {{"series", p.header.stat_keys[static_cast<size_t>(col)]},
                       {"at_half", mid},
                       {"at_three_quarters", q3},
                       {"at_end", end},
                       {"growth_second_half_pct", mid > 0 ? r1(100.0 * static_cast<double>(end - mid) / static_cast<double>(mid)) : 0}};
    }
  }
  report["leak_suspected"] = leak;
  report["leak"] = leak_evidence;

  // ---- confidence ----
  size_t non_terminated = n - by_event[kTerminated];
  // The agent keeps at most RUBY_GC_MAX_SAMPLES samples (its own variable, in header[3]) plus TERMINATED.
  size_t sample_cap = kAgentSampleCap;
  for (auto& kv : p.header.env)
    if (kv.first == "RUBY_GC_MAX_SAMPLES") {
      long long v = std::atoll(kv.second.c_str());
      if (v > 0) sample_cap = static_cast<size_t>(v);
    }
  bool cap = non_terminated >= sample_cap;
  json conf_reasons = json::array();
  std::string level = "high";
  if (units.size() < kRepresentativeUnits) {
    level = "low";
    conf_reasons.push_back("only " + std::to_string(units.size()) + " units of work (the agent's README suggests >= 200)");
  }
  if (cap) {
    if (level == "high") level = "medium";
    conf_reasons.push_back("the agent's " + std::to_string(sample_cap) + "-sample cap was reached: the end of the run is missing");
  }
  if (gcs_processing < 3) {
    if (level == "high") level = "medium";
    conf_reasons.push_back(std::to_string(gcs_processing) + " GCs during the units of work: little to learn from");
  }
  report["confidence"] = {{"level", level},
                          {"units", units.size()},
                          {"gc_cycles_seen", by_event[kGcCycleStarted] + by_event[kGcCycleEnded] > 0
                                                  ? std::max(by_event[kGcCycleStarted], by_event[kGcCycleEnded])
                                                  : 0},
                          {"gcs_during_processing", gcs_processing},
                          {"samples", n},
                          {"sample_cap", sample_cap},
                          {"sample_cap_reached", cap},
                          {"reasons", conf_reasons}};

  // ---- metrics (the figures every heuristic below starts from) ----
  json mb = json::object();
  for (auto& kv : majors_by) mb[kv.first] = kv.second;
  json mi_by = json::object();
  for (auto& kv : minors_by) mi_by[kv.first] = kv.second;
  json gc_share = c.time >= 0 && unit_ms_total > 0 ? json(r1(100.0 * unit_gc_ms_total / unit_ms_total)) : json(nullptr);
  report["metrics"] = {{"units", units.size()},
                       {"gc_at_boot", boot_gc},
                       {"heap_live_at_boot", live_boot},
                       {"heap_available_at_boot", avail_boot},
                       {"max_heap_available_processing", max_avail_proc},
                       {"max_heap_live_processing", max_live_proc},
                       {"max_growth_step_slots", max_growth_step},
                       {"heap_live_at_end", terminated != SIZE_MAX ? json(p.heap_live(terminated)) : json(nullptr)},
                       {"gcs_during_processing", gcs_processing},
                       {"minors", minors},
                       {"majors", majors},
                       {"minor_by_malloc", minor_by_malloc},
                       {"minors_by", mi_by},
                       {"majors_by", mb},
                       {"units_with_gc_pct", r1(with_gc_pct)},
                       {"alloc_per_unit_p50", p50},
                       {"alloc_per_unit_p95", p95},
                       {"peak_rss_mb", r1(static_cast<double>(peak_rss) / kMiB)},
                       {"max_rss_mb", r1(static_cast<double>(max_rss) / kMiB)},
                       {"gc_time_share_pct", gc_share},
                       {"page_obj_limit", page},
                       {"leak_suspected", leak}};

  // ---- object types at BOOTED vs TERMINATED; per-heap stats (3.3+ extension) ----
  auto object_types = [&](size_t i) -> json {
    if (i == SIZE_MAX || !p.meta[i]) return nullptr;
    json o = json::object();
    for (auto it = p.meta[i]->begin(); it != p.meta[i]->end(); ++it)
      if (it.value().is_number() && (it.key().rfind("T_", 0) == 0 || it.key() == "TOTAL" || it.key() == "FREE"))
        o[it.key()] = it.value();
    return o.empty() ? json(nullptr) : o;
  };
  report["object_types"] = {{"booted", object_types(booted)}, {"terminated", object_types(terminated)}};
  auto stat_heap_at = [&](size_t i) -> const json* {
    if (i == SIZE_MAX || !p.meta[i]) return nullptr;
    auto it = p.meta[i]->find("stat_heap");
    return it != p.meta[i]->end() && (it->is_object() || it->is_array()) ? &*it : nullptr;
  };
  // The last per-heap snapshot of the run (the warm heap), preferring the last unit's end.
  const json* heap_end = nullptr;
  for (size_t i = n; i-- > 0 && !heap_end;)
    if (p.event[i] == kProcessingEnded) heap_end = stat_heap_at(i);
  if (!heap_end) heap_end = stat_heap_at(terminated);
  std::vector<std::pair<int64_t, int64_t>> heaps;  // (eden slots, slot size) per heap 0..4
  if (heap_end) {
    for (int h = 0; h < 5; ++h) {
      const json* e = nullptr;
      if (heap_end->is_object() && heap_end->contains(std::to_string(h))) e = &(*heap_end)[std::to_string(h)];
      if (heap_end->is_array() && heap_end->size() > static_cast<size_t>(h)) e = &(*heap_end)[static_cast<size_t>(h)];
      if (!e || !e->is_object()) break;
      auto s = e->find("heap_eden_slots");
      auto z = e->find("slot_size");
      if (s == e->end() || !s->is_number_integer()) break;
      heaps.emplace_back(s->get<int64_t>(), z != e->end() && z->is_number_integer() ? z->get<int64_t>() : 0);
    }
    report["stat_heap"] = {{"booted", stat_heap_at(booted) ? *stat_heap_at(booted) : json(nullptr)}, {"end", *heap_end}};
  }

  // ---- the verdict for payloads without work ----
  if (units.empty()) {
    verdict.status = 400;
    verdict.message = "no unit of work (no PROCESSING_STARTED/ENDED pair): not representative; the real agent does not "
                      "sync such a sample set";
    verdict.details = {{"by_event", by_event_json}};
  }

  // ---- findings that are facts about the run ----
  if (booted == SIZE_MAX) finding("no_booted", "warn", "no BOOTED sample: boot-phase heuristics (heap init slots) are disabled");
  if (terminated == SIZE_MAX) finding("no_terminated", "info", "no TERMINATED sample: the end of the run is unknown");
  if (!have_started && by_event[kGcCycleEnded] > 0)
    finding("no_gc_start_events", "info",
            "no GC_CYCLE_STARTED events: GC reasons reconstructed from PROCESSING_ENDED latest_gc_info (finalizer/poll agent)");
  if (peak_rss == 0 && max_rss == 0)
    finding("rss_unknown", "info",
            "RSS fields are 0 (the agent could not read RSS, e.g. ruby.wasm): no RSS budget strategy");
  if (unfinished) finding("unfinished_units", "info", std::to_string(unfinished) + " PROCESSING_STARTED without an end (ignored)");
  if (unmatched_ends) finding("unmatched_ends", "warn", std::to_string(unmatched_ends) + " PROCESSING_ENDED without a start (ignored)");
  if (!gc_share.is_null()) {
    double share = gc_share.get<double>();
    finding("gc_time_share", share < 2.0 ? "info" : "warn",
            "GC time is " + fmt(share) + "% of unit-of-work wall time" +
                (share < 2.0 ? ": GC is not the bottleneck, tuning gains will be small" : ""),
            {{"gc_ms", unit_gc_ms_total}, {"unit_ms", std::round(unit_ms_total)}});
  }
  if (c.compact_count >= 0 && n && p.at(n - 1, c.compact_count) == 0)
    finding("no_compaction", "info",
            std::string("no GC.compact seen: for forking servers compact before fork (3.times { GC.start }; GC.compact") +
                (v33 ? ", or Process.warmup which does this and more on 3.3+)" : ")"),
            {{"compact_count", 0}});
  if (majors_by.count("nofree") && majors_by["nofree"] > 0)
    finding("nofree_majors", "info",
            std::to_string(majors_by["nofree"]) +
                " major GCs by 'nofree' during processing: heap too small for the workload (INIT/FREE_SLOTS), not an "
                "old-generation problem",
            {{"nofree", majors_by["nofree"]}});
  if (leak)
    finding("leak", "warn",
            "old objects still grow through the second half of the run (" + fmt(leak_evidence["growth_second_half_pct"].get<double>()) +
                "% from the midpoint to the end): a leak or an unbounded cache; not sizing the heap for speed",
            leak_evidence);

  // ---- recommendations ----
  std::vector<Rec> recs;
  auto add = [&](const char* strategy, std::string var, double value, std::string reason, json evidence) {
    recs.push_back({strategy, std::move(var), value, std::move(reason), std::move(evidence)});
  };
  const bool have_units = !units.empty();
  const bool heap_grew = booted != SIZE_MAX && p.heap_available(booted) > 0 &&
                         static_cast<double>(max_avail_proc) > kHeapGrowthAfterBoot * static_cast<double>(p.heap_available(booted));
  const bool boot_needs_init = booted != SIZE_MAX && (p.at(booted, c.count) >= kBootGcsForInit || heap_grew);
  json init_evidence = {{"gc_at_boot", boot_gc}, {"heap_available_at_boot", avail_boot},
                        {"max_heap_available_processing", max_avail_proc}, {"heap_live_at_boot", live_boot},
                        {"page_obj_limit", page}};
  if (have_units && boot_needs_init) {
    std::string why_boot = "boot needed " + std::to_string(p.at(booted, c.count)) + " GCs" +
                           (heap_grew ? " and the heap grew from " + num(p.heap_available(booted)) + " to " + num(max_avail_proc) +
                                            " slots after BOOTED"
                                      : "");
    if (v32) {
      finding("init_not_tunable_3_2", "info",
              "Ruby 3.2 splits the heap into 5 size pools but has no per-pool init knob (RUBY_GC_HEAP_%d_INIT_SLOTS "
              "arrived in 3.3): heap init slots cannot be tuned usefully here",
              init_evidence);
    } else if (!v33) {
      if (!leak)
        add("speed", "RUBY_GC_HEAP_INIT_SLOTS", static_cast<double>(pages_up(max_avail_proc, page)),
            why_boot + ": start with the heap the app reaches while working (page-rounded)", init_evidence);
      add("memory", "RUBY_GC_HEAP_INIT_SLOTS",
          static_cast<double>(pages_up(static_cast<int64_t>(std::ceil(static_cast<double>(p.heap_live(booted)) * kMemoryInitHeadroom)), page)),
          why_boot + ": start with what is live after boot plus 5 %, let the heap grow slowly from there", init_evidence);
    } else if (!heaps.empty()) {
      json ev = init_evidence;
      json eden = json::array();
      for (auto& h : heaps) eden.push_back(h.first);
      ev["heap_eden_slots_at_end"] = eden;
      for (size_t h = 0; h < heaps.size(); ++h) {
        std::string var = "RUBY_GC_HEAP_" + std::to_string(h) + "_INIT_SLOTS";
        std::string why = why_boot + ": start heap " + std::to_string(h) + " (" + std::to_string(heaps[h].second) +
                          "-byte slots) at its warm size";
        if (!leak) add("speed", var, static_cast<double>(heaps[h].first), why, ev);
        // Memory uses the same warm sizes: per-heap live data is not in GC.stat_heap before 4.0.
        add("memory", var, static_cast<double>(heaps[h].first), why, ev);
      }
    } else {
      finding("no_stat_heap", "warn",
              "Ruby " + version.series() +
                  " sizes 5 heaps separately (RUBY_GC_HEAP_0..4_INIT_SLOTS) but the payload has no GC.stat_heap "
                  "(meta.stat_heap): per-heap sizing is not possible; RUBY_GC_HEAP_INIT_SLOTS is ignored since 3.3",
              init_evidence);
    }
    bool speed_init = false, memory_init = false;
    for (auto& r : recs) {
      if (r.variable.find("INIT_SLOTS") == std::string::npos) continue;
      (r.strategy == "speed" ? speed_init : memory_init) = true;
    }
    if (speed_init)
      add("speed", "RUBY_GC_HEAP_GROWTH_FACTOR", kSpeedGrowthFactor,
          "with the heap sized at boot, grow by 25 % instead of 80 % when it must grow", {{"default", 1.8}});
    if (memory_init)
      add("memory", "RUBY_GC_HEAP_GROWTH_FACTOR", kMemoryGrowthFactor, "grow the heap by 10 % steps to stay close to what is live",
          {{"default", 1.8}});
  }
  if (have_units && with_gc_pct > kUnitsWithGcForFree && static_cast<double>(p95) > kFreeMinRatio * static_cast<double>(max_avail_proc) &&
      p95 > 0) {
    add("speed", "RUBY_GC_HEAP_FREE_SLOTS", static_cast<double>(p95),
        fmt(with_gc_pct) + "% of units of work run a GC; keep one unit's allocations (p95) free after each GC",
        {{"units_with_gc_pct", r1(with_gc_pct)}, {"alloc_per_unit_p95", p95},
         {"free_min_ratio_slots", static_cast<int64_t>(kFreeMinRatio * static_cast<double>(max_avail_proc))}});
  }
  if (have_units && page > 0) {
    int64_t cap_speed = std::max(pages_up(2 * p95, page), 4 * page);
    if (max_growth_step > std::max<int64_t>(2 * p95, 100000))
      add("speed", "RUBY_GC_HEAP_GROWTH_MAX_SLOTS", static_cast<double>(cap_speed),
          "one heap growth step added " + num(max_growth_step) + " slots, far more than two units of work allocate",
          {{"max_growth_step_slots", max_growth_step}, {"alloc_per_unit_p95", p95}});
    add("memory", "RUBY_GC_HEAP_GROWTH_MAX_SLOTS", static_cast<double>(std::max(pages_up(p95, page), 4 * page)),
        "grow the heap by at most one unit of work's allocations (p95, page-rounded)",
        {{"alloc_per_unit_p95", p95}, {"page_obj_limit", page}});
  }
  const int64_t oldgen = majors_by.count("oldgen") ? majors_by["oldgen"] : 0;
  if (have_units && oldgen >= kOldgenMajors) {
    json ev = {{"majors_by_oldgen", oldgen}, {"majors", majors}};
    if (!leak)
      add("speed", "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR", kSpeedOldobjectFactor,
          num(oldgen) + " major GCs were caused by old-generation growth; allow 3x the old objects before the next major",
          ev);
    add("memory", "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR", kMemoryOldobjectFactor,
        num(oldgen) + " major GCs by old-generation growth; 1.5x keeps old garbage bounded yet avoids back-to-back majors", ev);
  }
  auto existing_value = [&](const std::string& name) -> std::optional<double> {
    for (auto& kv : p.header.env)
      if (kv.first == name) {
        ParamCheck pc = check_param(name, kv.second, version, p.pointer_bits);
        if (pc.status == ParamCheck::kAccepted) return pc.effective;
      }
    return std::nullopt;
  };
  if (have_units && minor_by_malloc >= kMallocMinors && static_cast<double>(minor_by_malloc) > 0.10 * static_cast<double>(minors)) {
    // autotuner Malloc: unset -> 2 x default; configured below the default -> the default; else 2 x configured.
    auto next = [&](const char* var, double def) {
      auto cur = existing_value(var);
      return !cur ? 2 * def : (*cur < def ? def : 2 * *cur);
    };
    json ev = {{"minor_by_malloc", minor_by_malloc}, {"minors", minors}};
    std::string why = num(minor_by_malloc) + " of " + num(minors) + " minor GCs were triggered by malloc growth";
    add("speed", "RUBY_GC_MALLOC_LIMIT", next("RUBY_GC_MALLOC_LIMIT", 16 * kMiB), why + "; double the malloc limit", ev);
    add("speed", "RUBY_GC_MALLOC_LIMIT_MAX", next("RUBY_GC_MALLOC_LIMIT_MAX", 32 * kMiB), why + "; double its maximum", ev);
  }
  const int64_t oldmalloc = majors_by.count("oldmalloc") ? majors_by["oldmalloc"] : 0;
  if (have_units && majors > 0) {
    json ev = {{"majors_by_oldmalloc", oldmalloc}, {"majors", majors}};
    // 10^12 (autotuner's "off") does not fit a 32-bit size_t: use the largest value strtol keeps there.
    double off = p.pointer_bits == 32 ? 2000000000.0 : 1e12;
    if (oldmalloc >= kOldmallocMajors && static_cast<double>(oldmalloc) > 0.01 * static_cast<double>(majors)) {
      std::string why = num(oldmalloc) + " of " + num(majors) + " major GCs were forced by malloc'd memory of old objects";
      add("speed", "RUBY_GC_OLDMALLOC_LIMIT", off, why + "; such majors rarely free much in servers: turn them off", ev);
      add("speed", "RUBY_GC_OLDMALLOC_LIMIT_MAX", off, why, ev);
    } else if (oldmalloc >= 3 && static_cast<double>(oldmalloc) > 0.25 * static_cast<double>(majors)) {
      std::string why = num(oldmalloc) + " of " + num(majors) + " major GCs were forced by oldmalloc (short run: low confidence)";
      add("speed", "RUBY_GC_OLDMALLOC_LIMIT", 64 * kMiB, why + "; raise the limit to 64 MiB", ev);
      add("speed", "RUBY_GC_OLDMALLOC_LIMIT_MAX", 256 * kMiB, why + "; and its maximum to 256 MiB", ev);
    }
  }
  const int64_t shady = majors_by.count("shady") ? majors_by["shady"] : 0;
  if (have_units && shady >= kShadyMajors && static_cast<double>(shady) > 0.10 * static_cast<double>(majors)) {
    json ev = {{"majors_by_shady", shady}, {"majors", majors}};
    if (v33) {
      auto cur = existing_value("RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO");
      double v = !cur ? 0.02 : (*cur < 0.01 ? 0.01 : 2 * *cur);
      add("speed", "RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO", v,
          num(shady) + " of " + num(majors) + " major GCs were caused by write-barrier-unprotected (shady) objects", ev);
    } else {
      finding("shady_majors", "warn",
              num(shady) + " of " + num(majors) +
                  " major GCs were caused by write-barrier-unprotected (shady) objects; Ruby " + version.series() +
                  " has no knob for it (RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO is 3.3+, and before 3.3 "
                  "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR also scales the shady limit); Ruby 3.3 added write barriers to "
                  "Time, Enumerator, MatchData and Method",
              ev);
    }
  }

  // RSS budget: RSS ~ what does not scale with slots + slots x slot size (a linear model from this run).
  json budget_info = {{"available", false}};
  if (options.rss_budget_mb > 0 && have_units) {
    double budget = options.rss_budget_mb * kMiB;
    if (std::max(peak_rss, max_rss) == 0 || p.slot_size == 0) {
      budget_info["reason"] = "the payload has no RSS (0) or no slot size: an RSS budget cannot be mapped to heap slots";
    } else if (!v33) {
      double heap_bytes = static_cast<double>(max_avail_proc) * static_cast<double>(p.slot_size);
      double non_heap = static_cast<double>(std::max(peak_rss, max_rss)) - heap_bytes;
      int64_t slots = static_cast<int64_t>((budget - non_heap) / static_cast<double>(p.slot_size));
      int64_t lo = booted != SIZE_MAX ? pages_up(static_cast<int64_t>(std::ceil(static_cast<double>(p.heap_live(booted)) * kMemoryInitHeadroom)), page)
                                      : pages_up(max_live_proc, page);
      int64_t hi = pages_up(max_avail_proc, page);
      int64_t init = std::clamp(pages_down(slots, page), lo, std::max(lo, hi));
      budget_info = {{"available", true},
                     {"budget_mb", options.rss_budget_mb},
                     {"non_heap_rss_mb", r1(non_heap / kMiB)},
                     {"slot_bytes", p.slot_size},
                     {"fits", slots >= lo}};
      if (slots < lo)
        finding("rss_budget_too_small", "warn",
                "an RSS budget of " + fmt(options.rss_budget_mb, 0) + " MB leaves room for " + num(std::max<int64_t>(slots, 0)) +
                    " slots, less than what is live after boot (" + num(lo) + "): the budget cannot be met by GC settings",
                budget_info);
      std::string why = "largest page-rounded heap that keeps RSS under " + fmt(options.rss_budget_mb, 0) + " MB (" +
                        fmt(non_heap / kMiB) + " MB not in the object heap + " + num(p.slot_size) + " B per slot)";
      if (!v32) add("rss_budget", "RUBY_GC_HEAP_INIT_SLOTS", static_cast<double>(init), why, budget_info);
      add("rss_budget", "RUBY_GC_HEAP_GROWTH_FACTOR", kMemoryGrowthFactor, "small growth steps to stay under the budget", budget_info);
      add("rss_budget", "RUBY_GC_HEAP_GROWTH_MAX_SLOTS", static_cast<double>(std::max(pages_up(p95, page), 4 * page)),
          "bounded growth steps (one unit of work's allocations)", budget_info);
    } else if (!heaps.empty()) {
      double heap_bytes = 0;
      for (auto& h : heaps) heap_bytes += static_cast<double>(h.first) * static_cast<double>(h.second);
      double non_heap = static_cast<double>(std::max(peak_rss, max_rss)) - heap_bytes;
      double f = std::clamp((budget - non_heap) / heap_bytes, 0.0, 1.0);
      budget_info = {{"available", true}, {"budget_mb", options.rss_budget_mb}, {"non_heap_rss_mb", r1(non_heap / kMiB)},
                     {"heap_scale", std::round(f * 1000) / 1000}, {"fits", f >= 1.0}};
      for (size_t h = 0; h < heaps.size(); ++h)
        if (f > 0)
          add("rss_budget", "RUBY_GC_HEAP_" + std::to_string(h) + "_INIT_SLOTS", std::floor(static_cast<double>(heaps[h].first) * f),
              "warm heap size scaled by " + fmt(f, 2) + " to fit the RSS budget", budget_info);
      add("rss_budget", "RUBY_GC_HEAP_GROWTH_FACTOR", kMemoryGrowthFactor, "small growth steps to stay under the budget", budget_info);
    } else {
      budget_info["reason"] = "no per-heap data (meta.stat_heap) for Ruby 3.3+";
    }
  } else if (options.rss_budget_mb <= 0) {
    budget_info["reason"] = "no budget given (CLI: --set rss_budget_mb=N; page: the RSS budget field)";
  }

  // ---- validate every value with Ruby's own parsing rules; drop what Ruby would ignore ----
  json recommendations = json::array(), dropped = json::array();
  json strategies = {{"speed", json::object()}, {"memory", json::object()}, {"rss_budget", json::object()}};
  for (auto& r : recs) {
    const GcParam* param = find_param(r.variable, version);
    if (!param) {
      dropped.push_back({{"strategy", r.strategy}, {"variable", r.variable}, {"why", "Ruby " + version.series() + " does not read it"}});
      continue;
    }
    std::string value = format_param_value(*param, r.value);
    ParamCheck pc = check_param(r.variable, value, version, p.pointer_bits);
    if (pc.status != ParamCheck::kAccepted) {
      dropped.push_back({{"strategy", r.strategy}, {"variable", r.variable}, {"value", value}, {"why", pc.message}});
      continue;
    }
    json current = nullptr;
    for (auto& kv : p.header.env)
      if (kv.first == r.variable) current = kv.second;
    bool unchanged = false;
    if (auto cur = existing_value(r.variable)) {
      double d = std::fabs(*cur - pc.effective);
      unchanged = param->kind == ParamKind::kSize ? (d <= std::max(0.01 * *cur, 1000.0)) : d < 1e-9;
    }
    recommendations.push_back({{"strategy", r.strategy}, {"variable", r.variable}, {"value", value}, {"current", current},
                               {"default", format_param_value(*param, param->default_value)}, {"reason", r.reason},
                               {"evidence", r.evidence}, {"unchanged", unchanged}});
    if (!unchanged) strategies[r.strategy][r.variable] = value;
  }
  report["recommendations"] = recommendations;
  report["dropped_recommendations"] = dropped;
  report["rss_budget"] = budget_info;
  json exports = json::object();
  for (auto it = strategies.begin(); it != strategies.end(); ++it) {
    std::string shell, docker, heroku = "heroku config:set", systemd = "[Service]\n";
    size_t k = 0;
    for (auto v = it.value().begin(); v != it.value().end(); ++v, ++k) {
      std::string kv = v.key() + "=" + v.value().get<std::string>();
      shell += "export " + kv + "\n";
      docker += (k == 0 ? "ENV " : "    ") + kv + (k + 1 < it.value().size() ? " \\\n" : "\n");
      heroku += " " + kv;
      systemd += "Environment=" + kv + "\n";
    }
    if (k == 0) continue;
    exports[it.key()] = {{"shell", shell}, {"dockerfile", docker}, {"heroku", heroku + "\n"}, {"systemd", systemd}};
  }
  report["strategies"] = strategies;
  report["exports"] = exports;

  // ---- existing settings: lint, then 412 when our advice would move them far (H10, H11) ----
  json lint = json::array(), agent_env = json::object(), conflicts = json::array();
  for (auto& kv : p.header.env) {
    if (is_agent_control_var(kv.first)) {
      agent_env[kv.first] = kv.second;
      continue;
    }
    ParamCheck pc = check_param(kv.first, kv.second, version, p.pointer_bits);
    json item = {{"variable", kv.first}, {"value", kv.second}};
    if (pc.status == ParamCheck::kUnknownName) {
      item["status"] = "ignored";
      item["message"] = pc.message;
      lint.push_back(item);
      continue;
    }
    if (pc.status == ParamCheck::kIgnored) {
      item["status"] = "ignored";
      item["message"] = pc.message;
      lint.push_back(item);
      continue;
    }
    item["status"] = "ok";
    item["effective"] = pc.effective;
    if (kv.first == "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR" && pc.effective < 1.0) {
      item["status"] = "warn";
      item["message"] = "accepted, but < 1.0 (0 = every GC is major) forces a major GC almost every time the old generation grows";
    } else if (kv.first == "RUBY_GC_HEAP_INIT_SLOTS" && v32) {
      item["status"] = "warn";
      item["message"] = "Ruby 3.2 applies it, but its 5 size pools make it a poor knob (no per-pool variable before 3.3)";
    }
    lint.push_back(item);
    const GcParam* param = find_param(kv.first, version);
    // Our speed advice for this variable, if any.
    std::optional<double> ours;
    for (auto& r : recommendations)
      if (r["strategy"] == "speed" && r["variable"] == kv.first)
        ours = check_param(kv.first, r["value"].get<std::string>(), version, p.pointer_bits).effective;
    auto ratio = [](double a, double b) {
      if (a <= 0 || b <= 0) return a == b ? 1.0 : INFINITY;
      return std::max(a / b, b / a);
    };
    json conflict = {{"variable", kv.first}, {"existing", kv.second}, {"default", format_param_value(*param, param->default_value)}};
    if (ours) {
      double f = ratio(pc.effective, *ours);
      if (f > kConflictRatio) {
        conflict["ours"] = format_param_value(*param, *ours);
        conflict["factor"] = std::isinf(f) ? json("inf") : json(r1(f));
        conflict["why"] = "our speed advice differs from the existing value by more than " + fmt(kConflictRatio, 0) + "x";
        conflicts.push_back(conflict);
      }
    } else if (param->name == std::string("RUBY_GC_HEAP_INIT_SLOTS") && retained > 0) {
      // The oracle does not flag this; a boot heap far above what survives GCs costs RSS for nothing.
      double need = static_cast<double>(pages_up(retained, page));
      if (pc.effective > kConflictFromDefault * need) {
        conflict["ours"] = nullptr;
        conflict["retained_slots"] = retained;
        conflict["factor"] = r1(pc.effective / need);
        conflict["why"] = "the boot heap is " + fmt(pc.effective / need) + "x the most slots that survive a GC (" +
                          num(retained) + ", live after the full GCs at BOOTED/TERMINATED and old objects): memory spent for nothing";
        conflicts.push_back(conflict);
      }
    } else if (param->default_value > 0 && param->name != std::string("RUBY_GC_HEAP_FREE_SLOTS") &&
               std::string(param->name).find("INIT_SLOTS") == std::string::npos) {
      double f = ratio(pc.effective, param->default_value);
      if (f > kConflictFromDefault) {
        conflict["ours"] = nullptr;
        conflict["factor"] = std::isinf(f) ? json("inf") : json(r1(f));
        conflict["why"] = "set " + fmt(f) + "x away from Ruby's default and nothing in this run supports it";
        conflicts.push_back(conflict);
      }
    }
  }
  report["lint"] = lint;
  report["agent_env"] = agent_env;
  report["conflicts"] = conflicts;
  report["findings"] = findings;

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
    verdict.message = "advice for Ruby " + version.text + " from " + std::to_string(units.size()) + " units of work and " +
                      std::to_string(gcs_processing) + " GCs while working (confidence: " + level + ")";
  }
  return verdict;
}

}  // namespace gcscope::rubygc
