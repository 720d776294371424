// Findings: what a GC expert would point out in a log, each with the first line that shows it.
// Thresholds are conservative: a finding should be worth reading on a real production log.
// Most read running tallies of the aggregator (a count and the line of the earliest occurrence) and
// the whole-log summary; the pause outliers and the heap trend read the columns.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "jvm/aggregator.h"
#include "jvm/aggregator_internal.h"
#include "jvm/column_scan.h"

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

void add_finding(nlohmann::json& out, const char* id, const char* severity, std::string message, uint64_t first_line) {
  out.push_back({{"id", id}, {"severity", severity}, {"message", std::move(message)}, {"first_line", first_line}});
}

int severity_rank(const nlohmann::json& finding) {
  const auto it = finding.find("severity");
  if (it == finding.end() || !it->is_string()) return 3;
  const auto& s = it->get_ref<const std::string&>();
  return s == "error" ? 0 : s == "warning" ? 1 : s == "info" ? 2 : 3;
}

}  // namespace

void rank_findings(nlohmann::json& findings) {
  if (!findings.is_array()) return;
  std::stable_sort(findings.begin(), findings.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return severity_rank(a) < severity_rank(b);
  });
}

Tri GcAggregator::diary_flag(const char* name) const {
  for (const auto& f : diary_.flags)
    if (f.first == name) return f.second;
  return Tri::kUnknown;
}

void GcAggregator::pauses_above(double limit, uint64_t& count, uint64_t& first_line, double& worst) const {
  count = 0, first_line = 0, worst = 0;
  const int64_t limit_ns = to_ns(limit);
  Reader duration(cols_.pauses.duration), line(cols_.pauses.line);
  for (size_t k = 0; k < cols_.pauses.size(); ++k) {
    const int64_t d = duration(k);
    if (d <= limit_ns) continue;
    const auto l = static_cast<uint64_t>(line(k));
    if (!count || l < first_line) first_line = l;
    ++count;
    worst = std::max(worst, seconds(d));
  }
}

void GcAggregator::write_findings(nlohmann::json& out, const RangeTotals& whole) const {
  const double runtime_s = whole.runtime(), pause_total = static_cast<double>(whole.pause_total) / 1e9,
               pause_median = seconds(whole.median);
  auto add = [&out](const char* id, const char* severity, std::string message, uint64_t first_line) {
    add_finding(out, id, severity, std::move(message), first_line);
  };
  const bool g1 = diary_flag("G1GC") == Tri::kTrue, cms = diary_flag("CMS") == Tri::kTrue,
             shen = diary_flag("SHENANDOAH") == Tri::kTrue;

  // 1. Explicit collections: System.gc(), jcmd GC.run, JVMTI, heap dumps/histograms.
  if (explicit_gc_.count)
    add("explicit_system_gc", "warning",
        std::to_string(explicit_gc_.count) +
            " explicit collection(s) (System.gc(), jcmd GC.run, JVMTI or heap dump/histogram). "
            "Remove System.gc() calls or run with -XX:+DisableExplicitGC (or -XX:+ExplicitGCInvokesConcurrent with G1/CMS).",
        explicit_gc_.first_line);

  // 2. The RMI distributed-GC pattern: System.gc() about every hour (sun.rmi.dgc.*.gcInterval).
  if (system_gc_.count >= 3) {
    const std::vector<double>& ts = system_gc_times_;
    uint64_t hourly = 0;
    for (size_t i = 1; i < ts.size(); ++i)
      if (std::fabs(ts[i] - ts[i - 1] - 3600.0) <= 60.0) ++hourly;
    if (hourly >= 2 && ts.size() >= 1 && hourly * 2 >= ts.size() - 1)
      add("rmi_hourly_system_gc", "warning",
          "System.gc() recurs every ~60 minutes: the RMI distributed GC (sun.rmi.dgc.client/server.gcInterval). "
          "Raise the intervals or use -XX:+ExplicitGCInvokesConcurrent.",
          system_gc_.first_line);
  }

  // 3. G1 evacuation failure / to-space exhausted.
  if (evacuation_failure_.count)
    add("g1_evacuation_failure", "error",
        std::to_string(evacuation_failure_.count) +
            " pause(s) with evacuation failure (to-space exhausted): G1 ran out of free regions "
            "to copy survivors into; such pauses are long and often precede a Full GC. Increase the heap or "
            "-XX:G1ReservePercent, or start marking earlier (-XX:InitiatingHeapOccupancyPercent).",
        evacuation_failure_.first_line);

  // 4. Humongous allocations.
  if (humongous_.count)
    add("humongous_allocations", "warning",
        std::to_string(humongous_.count) +
            " collection(s) triggered by humongous allocations (objects of half a region or "
            "more). Larger regions (-XX:G1HeapRegionSize) or smaller arrays avoid them.",
        humongous_.first_line);

  // 5. Full GC under a concurrent collector (not asked for by System.gc()).
  if ((g1 || cms || shen) && full_not_explicit_.count)
    add("full_gc_concurrent_collector", "error",
        std::to_string(full_not_explicit_.count) + " Full GC(s) under " +
            (g1    ? "G1"
             : cms ? "CMS"
                   : "Shenandoah") +
            ": the concurrent collector could not keep up (heap too small, marking started too late, "
            "or fragmentation).",
        full_not_explicit_.first_line);

  // 6. Frequent full collections (any collector): more than a tenth of all pauses.
  if (stw_events_ >= 20 && full_stw_.count * 10 > stw_events_)
    add("frequent_full_gc", "warning",
        std::to_string(full_stw_.count) + " of " + std::to_string(stw_events_) +
            " pauses are Full GCs: the old generation is "
            "too small for the live data, or objects are promoted too early.",
        full_stw_.first_line);

  // 7. Pause outliers: pauses far above the typical one.
  if (whole.pauses >= 10) {
    double limit = std::max(10 * pause_median, 0.020);
    uint64_t outliers = 0, first = 0;
    double worst = 0;
    pauses_above(limit, outliers, first, worst);
    if (outliers)
      add("pause_outliers", "warning",
          std::to_string(outliers) + " pause(s) longer than 10x the median (" + fmt("%.3f ms", pause_median * 1e3) +
              "); the longest took " + fmt("%.3f ms", worst * 1e3) + ".",
          first);
  }

  // 8. GC overhead.
  if (!std::isnan(runtime_s) && runtime_s > 0) {
    double pct = pause_total / runtime_s * 100;
    if (pct > 10 && runtime_s >= 1)
      add("gc_overhead", pct > 25 ? "error" : "warning",
          fmt("The application was paused %.1f%% of the time (", pct) + fmt("%.3f s of ", pause_total) +
              fmt("%.3f s). Above 10%% the heap is usually too small for the allocation rate.", runtime_s),
          min_pause_line_);
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
  if (degenerated_.count)
    add("shenandoah_degenerated", "error",
        std::to_string(degenerated_.count) +
            " degenerated Shenandoah cycle(s): allocation outran the concurrent cycle and "
            "the collector finished it stop-the-world. Increase the heap or start cycles earlier.",
        degenerated_.first_line);

  // 12. Metaspace-triggered collections.
  if (metaspace_gc_.count)
    add("metaspace_gc", "warning",
        std::to_string(metaspace_gc_.count) +
            " collection(s) triggered by metaspace filling up. Set -XX:MetaspaceSize to the "
            "steady-state size, or look for class-loader leaks if it keeps growing.",
        metaspace_gc_.first_line);

  write_trend_and_logging_findings(out, whole);
}

// Findings 13-23: the heap's trend, CPU and safepoint figures, and what the log does not record.
void GcAggregator::write_trend_and_logging_findings(nlohmann::json& out, const RangeTotals& whole) const {
  auto add = [&out](const char* id, const char* severity, std::string message, uint64_t first_line) {
    add_finding(out, id, severity, std::move(message), first_line);
  };
  const uint64_t n = whole.events;
  const double pause_total = static_cast<double>(whole.pause_total) / 1e9,
               safepoint_total = whole.safepoints ? static_cast<double>(whole.sp_total) / 1e9 : kUnknown;
  const bool shen = diary_flag("SHENANDOAH") == Tri::kTrue, zgc = diary_flag("ZGC") == Tri::kTrue;

  // 13. Heap after GC growing steadily (possible leak): the minimum after-GC occupancy of each
  // quarter of the run rises every quarter, by at least 20% overall. The events with an after-GC
  // figure and a time, in the columns' order (time order within each member, members in rank order).
  {
    const GcColumns::Events& e = cols_.events;
    Reader t(e.t), after(e.heap_after), line(e.line);
    uint64_t with_after = 0, first_line = 0;
    int64_t t0 = IntColumn::kNull, t1 = IntColumn::kNull;
    for (size_t i = 0; i < e.size(); ++i) {
      if (t(i) == IntColumn::kNull || after(i) == IntColumn::kNull) continue;
      if (!with_after++) t0 = t(i), first_line = static_cast<uint64_t>(line(i));
      t1 = t(i);
    }
    if (with_after >= 20 && n > 0 && t1 > t0) {
      double mins[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
      for (size_t i = 0; i < e.size(); ++i) {
        if (t(i) == IntColumn::kNull || after(i) == IntColumn::kNull) continue;
        const int q =
            std::clamp(static_cast<int>(static_cast<double>(t(i) - t0) / static_cast<double>(t1 - t0) * 4), 0, 3);
        mins[q] = std::min(mins[q], static_cast<double>(after(i)));
      }
      bool rising = true;
      for (int q = 1; q < 4; ++q) rising = rising && std::isfinite(mins[q]) && mins[q] > mins[q - 1];
      if (rising && std::isfinite(mins[0]) && mins[3] >= mins[0] * 1.2 && mins[3] - mins[0] >= 1024)
        add("heap_after_gc_growing", "warning",
            fmt2("The heap after GC grows steadily (lowest occupancy per quarter of the run: %.0f MB -> %.0f MB): "
                 "live data keeps increasing, a possible memory leak.",
                 mins[0] / 1024, mins[3] / 1024),
            first_line);
    }
  }

  // 14. Heap nearly full right after a collection (against the configured max heap when the
  // header gave it, else the committed heap of the event).
  if (full_after_gc_.count)
    add("heap_full_after_gc", "error",
        std::to_string(full_after_gc_.count) +
            " collection(s) left the heap at least 90% full: little room remains, "
            "an OutOfMemoryError or back-to-back collections are close.",
        full_after_gc_.first_line);

  // 15. sys time above user time.
  if (sys_heavy_ >= 3 && sys_heavy_ * 10 >= cpu_events_)
    add("sys_time_above_user", "warning",
        std::to_string(sys_heavy_) + " of " + std::to_string(cpu_events_) +
            " collections spent more kernel (sys) "
            "than user time: swapping, transparent huge pages or memory pressure on the host.",
        first_sys_heavy_line_);

  // 16. Stopped time far above GC time: safepoints other than GC dominate.
  if (!std::isnan(safepoint_total) && safepoint_total > 0.1 && safepoint_total > 2 * pause_total)
    add("safepoint_overhead", "warning",
        fmt2("Threads were stopped %.3f s in safepoints but GC pauses account for only %.3f s: non-GC safepoints "
             "(deoptimization, biased-lock revocation, thread dumps) or slow time-to-safepoint.",
             safepoint_total, pause_total),
        sp_first_line_);

  // 17. Slow time to safepoint.
  if (slow_sp_)
    add("slow_time_to_safepoint", "warning",
        std::to_string(slow_sp_) +
            fmt(" safepoint(s) took more than 50 ms to reach (worst %.3f ms): long counted loops ",
                slow_sp_worst_ * 1e3) +
            "or page faults keep threads from stopping.",
        slow_sp_first_line_);

  // 18. GCLocker-initiated collections.
  if (gclocker_.count)
    add("gclocker", "info",
        std::to_string(gclocker_.count) + " collection(s) delayed by JNI critical regions (GCLocker Initiated GC).",
        gclocker_.first_line);

  // 19. G1 concurrent marking cut short.
  if (mark_aborted_.count)
    add("g1_concurrent_mark_aborted", "warning",
        std::to_string(mark_aborted_.count) +
            " G1 concurrent cycle(s) aborted by a Full GC: marking started too late. Lower "
            "-XX:InitiatingHeapOccupancyPercent or give the heap more room.",
        mark_aborted_.first_line);

  // 20. Missing details: pauses only, no heap breakdown or phases.
  if (diary_flag("GC_DETAILS") == Tri::kFalse && n > 0)
    add("missing_gc_details", "info",
        "The log has no GC details (heap regions, phases, CPU times). Log with -Xlog:gc*:file=gc.log:uptime,time,level,tags "
        "(JDK 9+) for a full analysis.",
        0);

  // 21. Missing safepoint logging.
  if (diary_flag("APPLICATION_STOPPED_TIME") == Tri::kFalse && n > 0)
    add("missing_safepoint_logging", "info",
        "No safepoint lines: add -Xlog:safepoint (JDK 9+) to see total stopped time and time-to-safepoint.", 0);

  // 22. Missing timestamps: no uptime/time decorations.
  if (n > 0 && std::isnan(diary_.first_uptime_s))
    add("missing_timestamps", "warning",
        "Lines carry no time decorations, so throughput and rates cannot be computed: use "
        "-Xlog:gc*:file=gc.log:uptime,time,level,tags.",
        0);

  // 23. ZGC cycles forced by allocation stalls / Shenandoah allocation failure as the cause.
  if ((zgc || shen) && late_concurrent_.count)
    add("concurrent_gc_behind_allocation", "warning",
        std::to_string(late_concurrent_.count) +
            " concurrent cycle(s) started because allocation had already failed: the "
            "collector starts too late for this allocation rate.",
        late_concurrent_.first_line);
}

}  // namespace gcscope::jvm
