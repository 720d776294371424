// Findings: what a GC expert would point out in a log, each with the first line that shows it.
// Thresholds are conservative: a finding should be worth reading on a real production log.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "jvm/aggregator.h"

namespace gcscope::jvm {
namespace {

std::string fmt(const char* f, double a) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}
std::string fmt2(const char* f, double a, double b) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b);
  return buf;
}

bool is_full(GcType t) {
  return t == GcType::Full || t == GcType::FullGC || t == GcType::PSFull || t == GcType::G1GCFull;
}

}  // namespace

void GcAggregator::write_findings(nlohmann::json& out, const std::vector<size_t>& order, double runtime_s,
                                  double pause_total, double safepoint_total) const {
  auto add = [&](const char* id, const char* severity, std::string message, uint64_t first_line) {
    out.push_back({{"id", id}, {"severity", severity}, {"message", std::move(message)}, {"first_line", first_line}});
  };
  const size_t n = t_.size();
  auto flag = [&](const char* name) {
    for (const auto& f : diary_.flags)
      if (f.first == name) return f.second;
    return Tri::kUnknown;
  };
  const bool g1 = flag("G1GC") == Tri::kTrue, cms = flag("CMS") == Tri::kTrue,
             shen = flag("SHENANDOAH") == Tri::kTrue, zgc = flag("ZGC") == Tri::kTrue;

  auto cause_is = [&](size_t i, std::string_view c) { return cause_[i] >= 0 && causes_[static_cast<size_t>(cause_[i])] == c; };
  auto first_line_where = [&](auto pred, uint64_t& count) {
    uint64_t first = 0;
    count = 0;
    for (size_t k : order)
      if (pred(k)) {
        if (!count) first = line_[k];
        ++count;
      }
    return first;
  };

  // 1. Explicit collections: System.gc(), jcmd GC.run, JVMTI, heap dumps/histograms.
  uint64_t cnt;
  auto explicit_cause = [&](size_t i) {
    return cause_is(i, "System.gc()") || cause_is(i, "Diagnostic Command") ||
           cause_is(i, "JvmtiEnv ForceGarbageCollection") || cause_is(i, "Heap Dump Initiated GC") ||
           cause_is(i, "Heap Inspection Initiated GC");
  };
  uint64_t line = first_line_where(explicit_cause, cnt);
  if (cnt)
    add("explicit_system_gc", "warning",
        std::to_string(cnt) + " explicit collection(s) (System.gc(), jcmd GC.run, JVMTI or heap dump/histogram). "
        "Remove System.gc() calls or run with -XX:+DisableExplicitGC (or -XX:+ExplicitGCInvokesConcurrent with G1/CMS).",
        line);
  line = first_line_where([&](size_t i) { return cause_is(i, "System.gc()"); }, cnt);

  // 2. The RMI distributed-GC pattern: System.gc() about every hour (sun.rmi.dgc.*.gcInterval).
  if (cnt >= 3) {
    std::vector<double> ts;
    for (size_t k : order)
      if (cause_is(k, "System.gc()") && !std::isnan(t_[k])) ts.push_back(t_[k]);
    uint64_t hourly = 0;
    for (size_t i = 1; i < ts.size(); ++i)
      if (std::fabs(ts[i] - ts[i - 1] - 3600.0) <= 60.0) ++hourly;
    if (hourly >= 2 && hourly * 2 >= ts.size() - 1)
      add("rmi_hourly_system_gc", "warning",
          "System.gc() recurs every ~60 minutes: the RMI distributed GC (sun.rmi.dgc.client/server.gcInterval). "
          "Raise the intervals or use -XX:+ExplicitGCInvokesConcurrent.", line);
  }

  // 3. G1 evacuation failure / to-space exhausted.
  line = first_line_where([&](size_t i) { return (flags_[i] & (kToSpaceExhausted | kEvacuationFailure)) != 0; }, cnt);
  if (cnt)
    add("g1_evacuation_failure", "error",
        std::to_string(cnt) + " pause(s) with evacuation failure (to-space exhausted): G1 ran out of free regions "
        "to copy survivors into; such pauses are long and often precede a Full GC. Increase the heap or "
        "-XX:G1ReservePercent, or start marking earlier (-XX:InitiatingHeapOccupancyPercent).", line);

  // 4. Humongous allocations.
  line = first_line_where([&](size_t i) { return cause_is(i, "G1 Humongous Allocation"); }, cnt);
  if (cnt)
    add("humongous_allocations", "warning",
        std::to_string(cnt) + " collection(s) triggered by humongous allocations (objects of half a region or "
        "more). Larger regions (-XX:G1HeapRegionSize) or smaller arrays avoid them.", line);

  // 5. Full GC under a concurrent collector (not asked for by System.gc()).
  if (g1 || cms || shen) {
    line = first_line_where([&](size_t i) { return is_full(static_cast<GcType>(type_[i])) && !explicit_cause(i); }, cnt);
    if (cnt)
      add("full_gc_concurrent_collector", "error",
          std::to_string(cnt) + " Full GC(s) under " + (g1 ? "G1" : cms ? "CMS" : "Shenandoah") +
              ": the concurrent collector could not keep up (heap too small, marking started too late, "
              "or fragmentation).", line);
  }

  // 6. Frequent full collections (any collector): more than a tenth of all pauses.
  {
    uint64_t full = 0, stw = 0;
    uint64_t first_full = 0;
    for (size_t k : order) {
      if (!stw_[k]) continue;
      ++stw;
      if (is_full(static_cast<GcType>(type_[k]))) {
        if (!full) first_full = line_[k];
        ++full;
      }
    }
    if (stw >= 20 && full * 10 > stw)
      add("frequent_full_gc", "warning",
          std::to_string(full) + " of " + std::to_string(stw) + " pauses are Full GCs: the old generation is "
          "too small for the live data, or objects are promoted too early.", first_full);
  }

  // 7. Pause outliers: pauses far above the typical one.
  if (pause_dur_.size() >= 10) {
    std::vector<double> d = pause_dur_;
    std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
    double median = d[d.size() / 2];
    double limit = std::max(10 * median, 0.020);
    uint64_t outliers = 0, first = 0;
    double worst = 0;
    for (size_t k = 0; k < pause_dur_.size(); ++k)
      if (pause_dur_[k] > limit) {
        if (!outliers || pause_line_[k] < first) first = pause_line_[k];
        ++outliers;
        worst = std::max(worst, pause_dur_[k]);
      }
    if (outliers)
      add("pause_outliers", "warning",
          std::to_string(outliers) + " pause(s) longer than 10x the median (" + fmt("%.3f ms", median * 1e3) +
              "); the longest took " + fmt("%.3f ms", worst * 1e3) + ".", first);
  }

  // 8. GC overhead.
  if (!std::isnan(runtime_s) && runtime_s > 0) {
    double pct = pause_total / runtime_s * 100;
    if (pct > 10 && runtime_s >= 1)
      add("gc_overhead", pct > 25 ? "error" : "warning",
          fmt("The application was paused %.1f%% of the time (", pct) + fmt("%.3f s of ", pause_total) +
              fmt("%.3f s). Above 10%% the heap is usually too small for the allocation rate.", runtime_s),
          pause_line_.empty() ? 0 : *std::min_element(pause_line_.begin(), pause_line_.end()));
  }

  // 9-10. ZGC stalls.
  if (alloc_stalls_)
    add("allocation_stall", "error",
        std::to_string(alloc_stalls_) + fmt(" allocation stall(s), %.3f ms in total: ", alloc_stall_total_ * 1e3) +
            "threads waited for ZGC to free memory. Give the heap more headroom or more concurrent GC threads.",
        first_alloc_stall_line_);
  if (reloc_stalls_)
    add("relocation_stall", "warning",
        std::to_string(reloc_stalls_) + fmt(" relocation stall(s), %.3f ms in total.", reloc_stall_total_ * 1e3),
        first_reloc_stall_line_);

  // 11. Shenandoah degenerated cycles.
  line = first_line_where([&](size_t i) { return (flags_[i] & kDegenerated) != 0; }, cnt);
  if (cnt)
    add("shenandoah_degenerated", "error",
        std::to_string(cnt) + " degenerated Shenandoah cycle(s): allocation outran the concurrent cycle and "
        "the collector finished it stop-the-world. Increase the heap or start cycles earlier.", line);

  // 12. Metaspace-triggered collections.
  line = first_line_where([&](size_t i) {
    return cause_is(i, "Metadata GC Threshold") || cause_is(i, "Metadata GC Clear Soft References") ||
           cause_is(i, "Metaspace");
  }, cnt);
  if (cnt)
    add("metaspace_gc", "warning",
        std::to_string(cnt) + " collection(s) triggered by metaspace filling up. Set -XX:MetaspaceSize to the "
        "steady-state size, or look for class-loader leaks if it keeps growing.", line);

  // 13. Heap after GC growing steadily (possible leak): the minimum after-GC occupancy of each
  // quarter of the run rises every quarter, by at least 20% overall.
  {
    std::vector<size_t> with_after;
    for (size_t k : order)
      if (!std::isnan(heap_after_[k]) && !std::isnan(t_[k])) with_after.push_back(k);
    if (with_after.size() >= 20 && n > 0) {
      double t0 = t_[with_after.front()], t1 = t_[with_after.back()];
      if (t1 > t0) {
        double mins[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
        for (size_t k : with_after) {
          int q = std::min(3, static_cast<int>((t_[k] - t0) / (t1 - t0) * 4));
          mins[q] = std::min(mins[q], heap_after_[k]);
        }
        bool rising = true;
        for (int q = 1; q < 4; ++q) rising = rising && std::isfinite(mins[q]) && mins[q] > mins[q - 1];
        if (rising && std::isfinite(mins[0]) && mins[3] >= mins[0] * 1.2 && mins[3] - mins[0] >= 1024)
          add("heap_after_gc_growing", "warning",
              fmt2("The heap after GC grows steadily (lowest occupancy per quarter of the run: %.0f MB -> %.0f MB): "
                   "live data keeps increasing, a possible memory leak.", mins[0] / 1024, mins[3] / 1024),
              line_[with_after.front()]);
      }
    }
  }

  // 14. Heap nearly full right after a collection.
  {
    uint64_t full_after = 0, first = 0;
    for (size_t k : order) {
      double cap = heap_committed_[k];
      if (diary_.max_heap_kb > 0) cap = static_cast<double>(diary_.max_heap_kb);
      if (std::isnan(cap) || std::isnan(heap_after_[k]) || cap <= 0) continue;
      if (!stw_[k]) continue;
      if (heap_after_[k] >= 0.9 * cap) {
        if (!full_after) first = line_[k];
        ++full_after;
      }
    }
    if (full_after)
      add("heap_full_after_gc", "error",
          std::to_string(full_after) + " collection(s) left the heap at least 90% full: little room remains, "
          "an OutOfMemoryError or back-to-back collections are close.", first);
  }

  // 15. sys time above user time.
  if (sys_heavy_ >= 3 && sys_heavy_ * 10 >= cpu_events_)
    add("sys_time_above_user", "warning",
        std::to_string(sys_heavy_) + " of " + std::to_string(cpu_events_) + " collections spent more kernel (sys) "
        "than user time: swapping, transparent huge pages or memory pressure on the host.", first_sys_heavy_line_);

  // 16. Stopped time far above GC time: safepoints other than GC dominate.
  if (!std::isnan(safepoint_total) && safepoint_total > 0.1 && safepoint_total > 2 * pause_total)
    add("safepoint_overhead", "warning",
        fmt2("Threads were stopped %.3f s in safepoints but GC pauses account for only %.3f s: non-GC safepoints "
             "(deoptimization, biased-lock revocation, thread dumps) or slow time-to-safepoint.", safepoint_total, pause_total),
        sp_line_.empty() ? 0 : sp_line_.front());

  // 17. Slow time to safepoint.
  {
    uint64_t slow = 0, first = 0;
    double worst = 0;
    for (size_t i = 0; i < sp_reach_.size(); ++i)
      if (!std::isnan(sp_reach_[i]) && sp_reach_[i] > 0.050) {
        if (!slow) first = sp_line_[i];
        ++slow;
        worst = std::max(worst, sp_reach_[i]);
      }
    if (slow)
      add("slow_time_to_safepoint", "warning",
          std::to_string(slow) + fmt(" safepoint(s) took more than 50 ms to reach (worst %.3f ms): long counted loops ", worst * 1e3) +
              "or page faults keep threads from stopping.", first);
  }

  // 18. GCLocker-initiated collections.
  line = first_line_where([&](size_t i) { return cause_is(i, "GCLocker Initiated GC"); }, cnt);
  if (cnt)
    add("gclocker", "info",
        std::to_string(cnt) + " collection(s) delayed by JNI critical regions (GCLocker Initiated GC).", line);

  // 19. G1 concurrent marking cut short.
  line = first_line_where([&](size_t i) { return (flags_[i] & kConcurrentMarkAbort) != 0; }, cnt);
  if (cnt)
    add("g1_concurrent_mark_aborted", "warning",
        std::to_string(cnt) + " G1 concurrent cycle(s) aborted by a Full GC: marking started too late. Lower "
        "-XX:InitiatingHeapOccupancyPercent or give the heap more room.", line);

  // 20. Missing details: pauses only, no heap breakdown or phases.
  if (flag("GC_DETAILS") == Tri::kFalse && n > 0)
    add("missing_gc_details", "info",
        "The log has no GC details (heap regions, phases, CPU times). Log with -Xlog:gc*:file=gc.log:uptime,time,level,tags "
        "(JDK 9+) for a full analysis.", 0);

  // 21. Missing safepoint logging.
  if (flag("APPLICATION_STOPPED_TIME") == Tri::kFalse && n > 0)
    add("missing_safepoint_logging", "info",
        "No safepoint lines: add -Xlog:safepoint (JDK 9+) to see total stopped time and time-to-safepoint.", 0);

  // 22. Missing timestamps: no uptime/time decorations.
  if (n > 0 && std::isnan(diary_.first_uptime_s))
    add("missing_timestamps", "warning",
        "Lines carry no time decorations, so throughput and rates cannot be computed: use "
        "-Xlog:gc*:file=gc.log:uptime,time,level,tags.", 0);

  // 23. ZGC cycles forced by allocation stalls / Shenandoah allocation failure as the cause.
  if (zgc || shen) {
    line = first_line_where([&](size_t i) {
      return cause_is(i, "Allocation Stall") || cause_is(i, "Handle Allocation Failure") ||
             cause_is(i, "Allocation Failure");
    }, cnt);
    if (cnt)
      add("concurrent_gc_behind_allocation", "warning",
          std::to_string(cnt) + " concurrent cycle(s) started because allocation had already failed: the "
          "collector starts too late for this allocation rate.", line);
  }
}

}  // namespace gcscope::jvm
