// The tuning rules, one function per rule (H1 ... H8, H15; see README.md), driven by the
// table at the end of this file (its order is the order of the advice). Each reads the run's
// figures (tuner_run.h) and adds findings and recommendations; none writes the report itself.
#include <algorithm>
#include <cmath>

#include "tuner_run.h"

namespace gcscope::rubygc {

using nlohmann::json;

namespace {

// ---- policy numbers (ours unless a source is named; H-ids as in README.md, Policy numbers) ----
constexpr int kBootGcsForInit = 10;             // H1: boot needed many GCs
constexpr double kHeapGrowthAfterBoot = 1.05;   // H1: heap grew > 5 % after BOOTED
constexpr double kMemoryInitHeadroom = 1.05;    // H1 memory: live slots at BOOTED x 1.05 (EnvMem-like)
constexpr double kSpeedGrowthFactor = 1.25;     // H3: TuneMyGC used 1.2, byroot 1.3 with a large INIT
constexpr double kMemoryGrowthFactor = 1.1;     // H3 memory
constexpr double kUnitsWithGcForFree = 25.0;    // H2: % of units that contain a GC
constexpr double kFreeMinRatio = 0.20;          // H2: RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO default
constexpr int kOldgenMajors = 3;                // H5
constexpr double kSpeedOldobjectFactor = 3.0;   // H5 (code.org used 3)
constexpr double kMemoryOldobjectFactor = 1.5;  // H5 (Discourse used 1.5)
constexpr int kMallocMinors = 10;               // H6 = autotuner Malloc (>= 10 and > 10 %)
constexpr double kMallocShare = 0.10;
constexpr int kOldmallocMajors = 10;  // H7 = autotuner Oldmalloc (>= 10 and > 1 %)
constexpr double kOldmallocShare = 0.01;
constexpr int kShadyMajors = 10;  // H8 = autotuner RememberedWBUnprotectedObjects
constexpr double kShadyShare = 0.10;
constexpr size_t kLaggedListed = 20;  // lagged samples named in the note

int64_t memory_init_slots(const Run& run) {
  return pages_up(
      static_cast<int64_t>(std::ceil(static_cast<double>(run.p.heap_live(run.booted)) * kMemoryInitHeadroom)),
      run.page);
}

// ---- H1: heap size at boot (per heap on 3.3+), with H3's growth factor once it is sized ----
void rule_heap_init(const Run& run, Advice& a) {
  const Payload& p = run.p;
  const bool heap_grew = run.booted != kNone && p.heap_available(run.booted) > 0 &&
                         static_cast<double>(run.max_avail_proc) >
                             kHeapGrowthAfterBoot * static_cast<double>(p.heap_available(run.booted));
  const bool boot_needs_init = run.booted != kNone && (p.at(run.booted, p.col.count) >= kBootGcsForInit || heap_grew);
  if (run.work.units.empty() || !boot_needs_init) return;
  json init_evidence = {{"gc_at_boot", run.boot_gc},
                        {"heap_available_at_boot", run.avail_boot},
                        {"max_heap_available_processing", run.max_avail_proc},
                        {"heap_live_at_boot", run.live_boot},
                        {"page_obj_limit", run.page}};
  std::string why_boot = "boot needed " + num(p.at(run.booted, p.col.count)) + " GCs" +
                         (heap_grew ? " and the heap grew from " + num(p.heap_available(run.booted)) + " to " +
                                          num(run.max_avail_proc) + " slots after BOOTED"
                                    : "");
  if (run.v32) {
    a.finding("init_not_tunable_3_2", "info",
              "Ruby 3.2 splits the heap into 5 size pools but has no per-pool init knob (RUBY_GC_HEAP_%d_INIT_SLOTS "
              "arrived in 3.3): heap init slots cannot be tuned usefully here",
              init_evidence);
  } else if (!run.v33) {
    if (!run.leak)
      a.add("speed", "RUBY_GC_HEAP_INIT_SLOTS", static_cast<double>(pages_up(run.max_avail_proc, run.page)),
            why_boot + ": start with the heap the app reaches while working (page-rounded)", init_evidence);
    a.add("memory", "RUBY_GC_HEAP_INIT_SLOTS", static_cast<double>(memory_init_slots(run)),
          why_boot + ": start with what is live after boot plus 5 %, let the heap grow slowly from there",
          init_evidence);
  } else if (!run.heaps.empty() && !run.plateaued) {
    // As autotuner: per-heap sizes taken before the app is warm would be sizes of a cold heap.
    a.finding("no_plateau", "info",
              "unit-of-work time has not plateaued (it still changes by more than 10% over the last half of the "
              "run): per-heap init sizes are not advised; record a longer run",
              init_evidence);
  } else if (!run.heaps.empty()) {
    json ev = init_evidence;
    json eden = json::array();
    for (auto& h : run.heaps) eden.push_back(h.first);
    ev["heap_eden_slots_max_at_plateau"] = eden;
    ev["plateau_from_unit"] = run.plateau_from;
    for (size_t h = 0; h < run.heaps.size(); ++h) {
      std::string var = "RUBY_GC_HEAP_" + std::to_string(h) + "_INIT_SLOTS";
      std::string why = why_boot + ": start heap " + std::to_string(h) + " (" + num(run.heaps[h].second) +
                        "-byte slots) at the largest size it reached once unit time had plateaued (from unit " +
                        num(static_cast<int64_t>(run.plateau_from) + 1) + ")";
      if (!run.leak) a.add("speed", var, static_cast<double>(run.heaps[h].first), why, ev);
      // Memory uses the same warm sizes: per-heap live data is not in GC.stat_heap before 4.0.
      a.add("memory", var, static_cast<double>(run.heaps[h].first), why, ev);
    }
  } else {
    a.finding("no_stat_heap", "warn",
              "Ruby " + run.version.series() +
                  " sizes 5 heaps separately (RUBY_GC_HEAP_0..4_INIT_SLOTS) but the payload has no GC.stat_heap "
                  "(meta.stat_heap): per-heap sizing is not possible; RUBY_GC_HEAP_INIT_SLOTS is ignored since 3.3",
              init_evidence);
  }
  bool speed_init = false, memory_init = false;
  for (auto& r : a.recs)
    if (r.variable.find("INIT_SLOTS") != std::string::npos) (r.strategy == "speed" ? speed_init : memory_init) = true;
  if (speed_init)
    a.add("speed", "RUBY_GC_HEAP_GROWTH_FACTOR", kSpeedGrowthFactor,
          "with the heap sized at boot, grow by 25 % instead of 80 % when it must grow", {{"default", 1.8}});
  if (memory_init)
    a.add("memory", "RUBY_GC_HEAP_GROWTH_FACTOR", kMemoryGrowthFactor,
          "grow the heap by 10 % steps to stay close to what is live", {{"default", 1.8}});
}

// ---- H2: free slots after a GC, when many units of work run a GC ----
void rule_free_slots(const Run& run, Advice& a) {
  if (run.work.units.empty() || run.with_gc_pct <= kUnitsWithGcForFree || run.p95 <= 0 ||
      static_cast<double>(run.p95) <= kFreeMinRatio * static_cast<double>(run.max_avail_proc))
    return;
  a.add("speed", "RUBY_GC_HEAP_FREE_SLOTS", static_cast<double>(run.p95),
        fmt(run.with_gc_pct) + "% of units of work run a GC; keep one unit's allocations (p95) free after each GC",
        {{"units_with_gc_pct", r1(run.with_gc_pct)},
         {"alloc_per_unit_p95", run.p95},
         {"free_min_ratio_slots", static_cast<int64_t>(kFreeMinRatio * static_cast<double>(run.max_avail_proc))}});
}

// ---- H4: the largest single growth step ----
void rule_growth_max(const Run& run, Advice& a) {
  if (run.work.units.empty() || run.page <= 0) return;
  const int64_t page = run.page, p95 = run.p95;
  int64_t cap_speed = std::max(pages_up(2 * p95, page), 4 * page);
  if (run.max_growth_step > std::max<int64_t>(2 * p95, 100000))
    a.add("speed", "RUBY_GC_HEAP_GROWTH_MAX_SLOTS", static_cast<double>(cap_speed),
          "one heap growth step added " + num(run.max_growth_step) + " slots, far more than two units of work allocate",
          {{"max_growth_step_slots", run.max_growth_step}, {"alloc_per_unit_p95", p95}});
  a.add("memory", "RUBY_GC_HEAP_GROWTH_MAX_SLOTS", static_cast<double>(std::max(pages_up(p95, page), 4 * page)),
        "grow the heap by at most one unit of work's allocations (p95, page-rounded)",
        {{"alloc_per_unit_p95", p95}, {"page_obj_limit", page}});
}

// ---- H5: major GCs by old-generation growth ----
void rule_oldobject_factor(const Run& run, Advice& a) {
  const int64_t oldgen = run.majors_by_reason("oldgen");
  if (run.work.units.empty() || oldgen < kOldgenMajors) return;
  json ev = {{"majors_by_oldgen", oldgen}, {"majors", run.majors}};
  if (!run.leak)
    a.add(
        "speed", "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR", kSpeedOldobjectFactor,
        num(oldgen) + " major GCs were caused by old-generation growth; allow 3x the old objects before the next major",
        ev);
  a.add("memory", "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR", kMemoryOldobjectFactor,
        num(oldgen) +
            " major GCs by old-generation growth; 1.5x keeps old garbage bounded yet avoids back-to-back majors",
        ev);
}

// ---- H6: minor GCs triggered by malloc growth (autotuner Malloc) ----
void rule_malloc_limit(const Run& run, Advice& a) {
  if (run.work.units.empty() || run.minor_by_malloc < kMallocMinors ||
      static_cast<double>(run.minor_by_malloc) <= kMallocShare * static_cast<double>(run.minors))
    return;
  // autotuner Malloc: unset -> 2 x default; configured below the default -> the default; else 2 x configured.
  auto next = [&](const char* var, double def) {
    auto cur = run.existing_value(var);
    return !cur ? 2 * def : (*cur < def ? def : 2 * *cur);
  };
  json ev = {{"minor_by_malloc", run.minor_by_malloc}, {"minors", run.minors}};
  std::string why = num(run.minor_by_malloc) + " of " + num(run.minors) + " minor GCs were triggered by malloc growth";
  a.add("speed", "RUBY_GC_MALLOC_LIMIT", next("RUBY_GC_MALLOC_LIMIT", 16 * kMiB), why + "; double the malloc limit",
        ev);
  a.add("speed", "RUBY_GC_MALLOC_LIMIT_MAX", next("RUBY_GC_MALLOC_LIMIT_MAX", 32 * kMiB), why + "; double its maximum",
        ev);
}

// ---- H7: major GCs forced by malloc'd memory of old objects (autotuner Oldmalloc) ----
void rule_oldmalloc_limit(const Run& run, Advice& a) {
  const int64_t oldmalloc = run.majors_by_reason("oldmalloc");
  if (run.work.units.empty() || run.majors <= 0) return;
  json ev = {{"majors_by_oldmalloc", oldmalloc}, {"majors", run.majors}};
  // 10^12 (autotuner's "off") does not fit a 32-bit size_t: use the largest value strtol keeps there.
  const double off = run.p.pointer_bits == 32 ? 2000000000.0 : 1e12;
  const double majors = static_cast<double>(run.majors);
  if (oldmalloc >= kOldmallocMajors && static_cast<double>(oldmalloc) > kOldmallocShare * majors) {
    std::string why =
        num(oldmalloc) + " of " + num(run.majors) + " major GCs were forced by malloc'd memory of old objects";
    a.add("speed", "RUBY_GC_OLDMALLOC_LIMIT", off, why + "; such majors rarely free much in servers: turn them off",
          ev);
    a.add("speed", "RUBY_GC_OLDMALLOC_LIMIT_MAX", off, why, ev);
  } else if (oldmalloc >= 3 && static_cast<double>(oldmalloc) > 0.25 * majors) {
    std::string why =
        num(oldmalloc) + " of " + num(run.majors) + " major GCs were forced by oldmalloc (short run: low confidence)";
    a.add("speed", "RUBY_GC_OLDMALLOC_LIMIT", 64 * kMiB, why + "; raise the limit to 64 MiB", ev);
    a.add("speed", "RUBY_GC_OLDMALLOC_LIMIT_MAX", 256 * kMiB, why + "; and its maximum to 256 MiB", ev);
  }
}

// ---- H8: major GCs by write-barrier-unprotected (shady) objects; a knob only on 3.3+ ----
void rule_shady_ratio(const Run& run, Advice& a) {
  const int64_t shady = run.majors_by_reason("shady");
  if (run.work.units.empty() || shady < kShadyMajors ||
      static_cast<double>(shady) <= kShadyShare * static_cast<double>(run.majors))
    return;
  json ev = {{"majors_by_shady", shady}, {"majors", run.majors}};
  if (run.v33) {
    auto cur = run.existing_value("RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO");
    double v = !cur ? 0.02 : (*cur < 0.01 ? 0.01 : 2 * *cur);
    a.add("speed", "RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO", v,
          num(shady) + " of " + num(run.majors) + " major GCs were caused by write-barrier-unprotected (shady) objects",
          ev);
    return;
  }
  a.finding(
      "shady_majors", "warn",
      num(shady) + " of " + num(run.majors) +
          " major GCs were caused by write-barrier-unprotected (shady) objects; Ruby " + run.version.series() +
          " has no knob for it (RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO is 3.3+, and before 3.3 "
          "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR also scales the shady limit); Ruby 3.3 added write barriers to "
          "Time, Enumerator, MatchData and Method",
      ev);
}

// ---- H15, RSS budget up to 3.2: RSS ~ what does not scale with slots + slots x slot size ----
void budget_one_heap(const Run& run, Advice& a) {
  const Payload& p = run.p;
  const double budget_mb = run.options.rss_budget_mb, budget = budget_mb * kMiB;
  double heap_bytes = static_cast<double>(run.max_avail_proc) * static_cast<double>(p.slot_size);
  double non_heap = static_cast<double>(std::max(run.peak_rss, run.max_rss)) - heap_bytes;
  int64_t slots = static_cast<int64_t>((budget - non_heap) / static_cast<double>(p.slot_size));
  int64_t lo = run.booted != kNone ? memory_init_slots(run) : pages_up(run.max_live_proc, run.page);
  int64_t hi = pages_up(run.max_avail_proc, run.page);
  int64_t init = std::clamp(pages_down(slots, run.page), lo, std::max(lo, hi));
  a.budget_info = {{"available", true},
                   {"budget_mb", budget_mb},
                   {"non_heap_rss_mb", r1(non_heap / kMiB)},
                   {"slot_bytes", p.slot_size},
                   {"fits", slots >= lo}};
  if (slots < lo)
    a.finding("rss_budget_too_small", "warn",
              "an RSS budget of " + fmt(budget_mb, 0) + " MB leaves room for " + num(std::max<int64_t>(slots, 0)) +
                  " slots, less than what is live after boot (" + num(lo) +
                  "): the budget cannot be met by GC settings",
              a.budget_info);
  std::string why = "largest page-rounded heap that keeps RSS under " + fmt(budget_mb, 0) + " MB (" +
                    fmt(non_heap / kMiB) + " MB not in the object heap + " + num(p.slot_size) + " B per slot)";
  if (!run.v32) a.add("rss_budget", "RUBY_GC_HEAP_INIT_SLOTS", static_cast<double>(init), why, a.budget_info);
  a.add("rss_budget", "RUBY_GC_HEAP_GROWTH_FACTOR", kMemoryGrowthFactor, "small growth steps to stay under the budget",
        a.budget_info);
  a.add("rss_budget", "RUBY_GC_HEAP_GROWTH_MAX_SLOTS",
        static_cast<double>(std::max(pages_up(run.p95, run.page), 4 * run.page)),
        "bounded growth steps (one unit of work's allocations)", a.budget_info);
}

// ---- H15, RSS budget on 3.3+: every warm heap scaled by one factor ----
void budget_per_heap(const Run& run, Advice& a) {
  const double budget_mb = run.options.rss_budget_mb;
  double heap_bytes = 0;
  for (auto& h : run.heaps) heap_bytes += static_cast<double>(h.first) * static_cast<double>(h.second);
  double non_heap = static_cast<double>(std::max(run.peak_rss, run.max_rss)) - heap_bytes;
  double f = std::clamp((budget_mb * kMiB - non_heap) / heap_bytes, 0.0, 1.0);
  a.budget_info = {{"available", true},
                   {"budget_mb", budget_mb},
                   {"non_heap_rss_mb", r1(non_heap / kMiB)},
                   {"heap_scale", std::round(f * 1000) / 1000},
                   {"fits", f >= 1.0}};
  for (size_t h = 0; h < run.heaps.size(); ++h)
    if (f > 0)
      a.add("rss_budget", "RUBY_GC_HEAP_" + std::to_string(h) + "_INIT_SLOTS",
            std::floor(static_cast<double>(run.heaps[h].first) * f),
            "warm heap size scaled by " + fmt(f, 2) + " to fit the RSS budget", a.budget_info);
  a.add("rss_budget", "RUBY_GC_HEAP_GROWTH_FACTOR", kMemoryGrowthFactor, "small growth steps to stay under the budget",
        a.budget_info);
}

void rule_rss_budget(const Run& run, Advice& a) {
  if (run.options.rss_budget_mb <= 0) {
    a.budget_info["reason"] = "no budget given (CLI: --set rss_budget_mb=N; page: the RSS budget field)";
    return;
  }
  if (run.work.units.empty()) return;
  if (std::max(run.peak_rss, run.max_rss) == 0 || run.p.slot_size == 0)
    a.budget_info["reason"] =
        "the payload has no RSS (0) or no slot size: an RSS budget cannot be mapped to heap slots";
  else if (!run.v33) budget_one_heap(run, a);
  else if (!run.heaps.empty()) budget_per_heap(run, a);
  else a.budget_info["reason"] = "no per-heap data (meta.stat_heap) for Ruby 3.3+";
}

// The GC implementation and GC.config the run reports (Ruby 3.4+): RUBY_GC_LIBRARY in the header's
// environment, or the recorder's meta.gc_config at BOOTED ({"implementation", "rgengc_allow_full_mark"}).
void state_gc_config(const Run& run, Advice& a) {
  const Payload& p = run.p;
  std::string library;
  for (auto& kv : p.header.env)
    if (kv.first == "RUBY_GC_LIBRARY") library = kv.second;
  const json* config = nullptr;
  if (run.booted != kNone && p.meta[run.booted]) {
    auto it = p.meta[run.booted]->find("gc_config");
    if (it != p.meta[run.booted]->end() && it->is_object()) config = &*it;
  }
  if (config && config->contains("implementation") && (*config)["implementation"].is_string())
    library = (*config)["implementation"].get<std::string>();
  // The variable does something only on 3.4+ builds with the modular GC; GC.config says what ran.
  if (!library.empty() && library != "default" && (config || run.version.at_least(3, 4)))
    a.finding("non_default_gc", "warn",
              "this process ran the \"" + library +
                  "\" GC (modular GC, Ruby 3.4+): the RUBY_GC_* advice here is for Ruby's "
                  "default GC only; the other GC has its own settings",
              {{"gc_library", library}});
  if (config && config->contains("rgengc_allow_full_mark") && (*config)["rgengc_allow_full_mark"] == false)
    a.finding(
        "full_mark_disabled", "info",
        "GC.config(rgengc_allow_full_mark: false): Ruby runs no major GC by itself; the app runs them out of band "
        "(GC.start when GC.latest_gc_info(:need_major_by) is set), so major GC counts reflect the app's schedule",
        {{"rgengc_allow_full_mark", false}});
}

}  // namespace

// Facts about the run that are not advice (missing events, GC share, leak, ...).
void state_facts(const Run& run, Advice& a) {
  const Payload& p = run.p;
  if (run.booted == kNone)
    a.finding("no_booted", "warn", "no BOOTED sample: boot-phase heuristics (heap init slots) are disabled");
  if (run.terminated == kNone)
    a.finding("no_terminated", "info", "no TERMINATED sample: the end of the run is unknown");
  if (!run.have_started && run.by_event[kGcCycleEnded] > 0)
    a.finding(
        "no_gc_start_events", "info",
        "no GC_CYCLE_STARTED events: GC reasons reconstructed from PROCESSING_ENDED latest_gc_info (finalizer/poll agent)");
  if (run.peak_rss == 0 && run.max_rss == 0)
    a.finding("rss_unknown", "info",
              "RSS fields are 0 (the agent could not read RSS, e.g. ruby.wasm): no RSS budget strategy");
  if (run.work.unfinished)
    a.finding("unfinished_units", "info",
              num(static_cast<int64_t>(run.work.unfinished)) + " PROCESSING_STARTED without an end (ignored)");
  if (run.work.unmatched_ends)
    a.finding("unmatched_ends", "warn",
              num(static_cast<int64_t>(run.work.unmatched_ends)) + " PROCESSING_ENDED without a start (ignored)");
  if (!run.gc_share.is_null()) {
    double share = run.gc_share.get<double>();
    a.finding("gc_time_share", share < 2.0 ? "info" : "warn",
              "GC time is " + fmt(share) + "% of unit-of-work wall time" +
                  (share < 2.0 ? ": GC is not the bottleneck, tuning gains will be small" : ""),
              {{"gc_ms", run.unit_gc_ms_total}, {"unit_ms", std::round(run.unit_ms_total)}});
  }
  if (p.col.compact_count >= 0 && p.n && p.at(p.n - 1, p.col.compact_count) == 0)
    a.finding(
        "no_compaction", "info",
        std::string("no GC.compact seen: for forking servers compact before fork (3.times { GC.start }; GC.compact") +
            (run.v33 ? ", or Process.warmup which does this and more on 3.3+)" : ")"),
        {{"compact_count", 0}});
  if (int64_t nofree = run.majors_by_reason("nofree"); nofree > 0)
    a.finding("nofree_majors", "info",
              num(nofree) +
                  " major GCs by 'nofree' during processing: heap too small for the workload (INIT/FREE_SLOTS), not an "
                  "old-generation problem",
              {{"nofree", nofree}});
  if (run.leak)
    a.finding("leak", "warn",
              "old objects still grow through the second half of the run (" +
                  fmt(run.leak_evidence["growth_second_half_pct"].get<double>()) +
                  "% from the midpoint to the end): a leak or an unbounded cache; not sizing the heap for speed",
              run.leak_evidence);
  state_gc_config(run, a);
  if (!p.lagged.empty()) {
    json listed = json::array();
    for (size_t k = 0; k < p.lagged.size() && k < kLaggedListed; ++k) {
      const LaggedSample& l = p.lagged[k];
      listed.push_back({{"sample", l.sample},
                        {"event", event_name(p.event[l.sample])},
                        {"key", l.key},
                        {"value", l.value},
                        {"newer", l.newer},
                        {"newer_at", l.newer_at}});
    }
    a.finding("lagged_samples", "info",
              num(static_cast<int64_t>(p.lagged.size())) +
                  " samples were written after samples with newer GC counters (first: sample #" +
                  num(static_cast<int64_t>(p.lagged[0].sample)) + ", " + p.lagged[0].key + " " +
                  num(p.lagged[0].value) + " after " + num(p.lagged[0].newer) + " at sample #" +
                  num(static_cast<int64_t>(p.lagged[0].newer_at)) +
                  "): threads or a GC hook wrote them late; kept, each counted at the value it read",
              {{"count", p.lagged.size()}, {"samples", listed}});
  }
}

const std::vector<Rule>& tuning_rules() {
  static const std::vector<Rule> rules = {
      {"H1", "heap size at boot (RUBY_GC_HEAP_INIT_SLOTS, per heap on 3.3+) and H3 growth factor", rule_heap_init},
      {"H2", "free slots after GC (RUBY_GC_HEAP_FREE_SLOTS)", rule_free_slots},
      {"H4", "growth step cap (RUBY_GC_HEAP_GROWTH_MAX_SLOTS)", rule_growth_max},
      {"H5", "old-object limit (RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR)", rule_oldobject_factor},
      {"H6", "malloc limit (RUBY_GC_MALLOC_LIMIT, _MAX)", rule_malloc_limit},
      {"H7", "oldmalloc limit (RUBY_GC_OLDMALLOC_LIMIT, _MAX)", rule_oldmalloc_limit},
      {"H8", "shady objects (RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO)", rule_shady_ratio},
      {"H15", "RSS budget strategy", rule_rss_budget},
  };
  return rules;
}

}  // namespace gcscope::rubygc
