// What a legacy log's header lines say (JVM version, command-line flags, physical memory), the lines
// that are no GC record, and the diary decided from the evidence of the whole log (GCToolKit's
// SupportedFlags names).
#include <string>

#include "core/text_scan.h"
#include "jvm/legacy/legacy_parser.h"
#include "jvm/legacy/legacy_scan.h"

namespace gcscope::jvm {

using namespace legacy_scan;
using text::contains;
using text::starts_with;

namespace {

// Header/noise lines that are not GC records and need no report.
bool is_noise_line(std::string_view l) {
  static const char* const kPrefixes[] = {
      "CMS: abort preclean due to time", " CMS: abort preclean due to time", "TLAB: ", "AdaptiveSize", "PSAdaptiveSize",
      "  avg_survived", "avg_survived", "  avg_promoted", "  avg_pretenured", "    avg_", "PSYoungGen::resize_spaces",
      "PSYoungGen::resize", "AdaptiveSizeStart", "AdaptiveSizeStop", "    Survivor", "UseAdaptiveSizePolicy",
      "No shared spaces configured",
      // -XX:+PrintCMSInitiationStatistics
      "CMSCollector shouldConcurrentCollect", "time_until_cms_gen_full",
      "free=", "contiguous_available=", "promotion_rate=", "cms_allocation_rate=", "occupancy=", "initiatingOccupancy=",
      "initiatingPermOccupancy=", "cms_time_since_begin=", "cms_time_since_end=", "cms_used_at_gc0_end=",
      "cms_used_at_gc0_begin=", "cms_consumption_rate=", "cms_duration=", "cms_duration_per_mb=", "gc0_period=",
      "gc0_promoted=", "cms_allocated=", "cms_promotion_rate=", "gc0_alpha=", "gc0_duration=", "gc0_begin_time=",
      "cms_begin_time=", "cms_end_time=", "  ", "\t"};
  for (const char* p : kPrefixes)
    if (starts_with(l, p)) return true;
  return false;
}

}  // namespace

void LegacyGcLogParser::note_header(std::string_view line) {
  if (starts_with(line, "Java HotSpot(TM)") || starts_with(line, "OpenJDK") || starts_with(line, "Java(TM)")) {
    if (diary_->jvm_version.empty()) diary_->jvm_version.assign(line);
    size_t jre = line.find("JRE (");
    if (jre != std::string_view::npos) {
      size_t p = jre + 5;
      uint64_t a = 0, b = 0, u = 0;
      if (text::parse_u64(line, p, a) && p < line.size() && line[p] == '.') {
        ++p;
        text::parse_u64(line, p, b);
        while (p < line.size() && line[p] != '_' && line[p] != '-' && line[p] != ')') ++p;
        int major = a == 1 ? static_cast<int>(b) : static_cast<int>(a);
        ev_.jdk_major = major;
        if (p < line.size() && line[p] == '_') {
          ++p;
          if (text::parse_u64(line, p, u)) ev_.jdk_update = static_cast<int>(u);
        }
      }
    }
    return;
  }
  if (starts_with(line, "/proc/meminfo") || starts_with(line, "MemTotal:") || starts_with(line, "MemFree:") ||
      starts_with(line, "MemAvailable:")) {
    return;  // the JDK 8u header echoes /proc/meminfo
  }
  if (starts_with(line, "Memory: ")) {
    size_t ph = line.find("physical ");
    if (ph != std::string_view::npos) {
      size_t p = ph + 9;
      uint64_t pm;
      if (text::parse_u64(line, p, pm) && p < line.size() && (line[p] == 'k' || line[p] == 'K'))
        diary_->physical_memory_kb = static_cast<int64_t>(pm);
    }
    if (!diary_->command_line.empty()) diary_->command_line.push_back('\n');
    diary_->command_line.append(line);
    return;
  }
  if (starts_with(line, "CommandLine flags: ")) {
    if (!diary_->command_line.empty()) diary_->command_line.push_back('\n');
    diary_->command_line.append(line);
    std::string_view flags = line.substr(19);
    auto value_of = [&](std::string_view key) -> int64_t {
      size_t at = flags.find(key);
      if (at == std::string_view::npos) return -1;
      size_t p = at + key.size();
      uint64_t v;
      if (!text::parse_u64(flags, p, v)) return -1;
      return static_cast<int64_t>(v / 1024);
    };
    diary_->max_heap_kb = value_of("-XX:MaxHeapSize=");
    diary_->initial_heap_kb = value_of("-XX:InitialHeapSize=");
    int64_t region = value_of("-XX:G1HeapRegionSize=");
    if (region > 0) diary_->region_size_kb = region;
    if (contains(flags, "-XX:+UseConcMarkSweepGC")) ev_.cms = true;
    if (contains(flags, "-XX:+UseParNewGC")) ev_.parnew = true;
    if (contains(flags, "-XX:+UseG1GC")) ev_.g1 = true;
    if (contains(flags, "-XX:+UseParallelGC") || contains(flags, "-XX:+UseParallelOldGC")) ev_.psyoung = true;
    if (contains(flags, "-XX:+UseParallelOldGC")) ev_.parold = true;
    if (contains(flags, "-XX:+UseSerialGC")) ev_.defnew = true, ev_.tenured = true;
    if (contains(flags, "-XX:+UseShenandoahGC")) ev_.shenandoah = true;
    if (contains(flags, "-XX:+CMSIncrementalMode")) ev_.icms = true;
    if (contains(flags, "-XX:+PrintGCApplicationStoppedTime")) ev_.stopped = true;
    if (contains(flags, "-XX:+PrintGCApplicationConcurrentTime")) ev_.concurrent_time = true;
    if (contains(flags, "-XX:+PrintTenuringDistribution")) ev_.tenuring = true;
    if (contains(flags, "-XX:+PrintHeapAtGC")) ev_.heap_at_gc = true;
    if (contains(flags, "-XX:+PrintReferenceGC")) ev_.reference = true;
    if (contains(flags, "-XX:+PrintAdaptiveSizePolicy")) ev_.adaptive = true;
    if (contains(flags, "-XX:+PrintGCDetails")) ev_.details = true;
    if (contains(flags, "-XX:PrintFLSStatistics=")) ev_.fls = true;
    return;
  }
  if (starts_with(line, "Total time for which") || starts_with(line, "Application time:")) {
    Stamp st;
    handle_standalone(line, st, line);
    return;
  }
  // Safepoint lines whose prefix was garbled by another thread's output.
  if (size_t tt = line.find("Total time for which application threads were stopped: "); tt != std::string_view::npos) {
    Stamp st;
    handle_standalone(line.substr(tt), st, line);
    return;
  }
  if (take_shenandoah_line(line)) return;
  if (starts_with(line, "GC locker: Trying a full collection")) {
    // JNI critical sections blocked a scavenge: the next record is the full collection this forced.
    gc_locker_pending_ = true;
    return;
  }
  if (contains(line, "VM warning:")) return;
  // Heap summary lines ("Heap" at exit, PrintHeapAtGC) whose indentation was trimmed away.
  if ((contains(line, " total ") && contains(line, ", used ")) ||
      (contains(line, " space ") && contains(line, "% used")) || starts_with(line, "Metaspace ") ||
      starts_with(line, "class space ") || starts_with(line, "object space ")) {
    if (starts_with(line, "Metaspace ")) ev_.metaspace = true;
    return;
  }
  {
    size_t p = 0;
    double v;
    if (text::parse_decimal(line, p, v, true) && p == line.size()) return;  // a stray uptime (see above)
  }                                                                         // JVM warnings on stdout, not GC records
  if (contains(line, "GC log file created") || contains(line, "GC log file has reached the maximum size")) return;
  if (contains(line, "Shenandoah")) ev_.shenandoah = true;
  if (is_noise_line(line)) return;
  sink_->on_unparsed(member_, line_no_, line);
  ++stats_.unparsed;
}

void LegacyGcLogParser::decide_diary() {
  const Evidence& v = ev_;
  auto set = [&](const char* name, bool value) { diary_->set_flag(name, value ? Tri::kTrue : Tri::kFalse); };
  bool no_details = !v.details;
  bool parnew = v.parnew, cms = v.cms, defnew = v.defnew, serial = v.tenured || (v.defnew && !v.cms);
  bool parallel = v.psyoung, parallel_old = v.psyoung || v.parold;
  if (v.parnew && !v.tenured) cms = true;
  if (v.parnew && v.tenured) serial = true, cms = v.cms;
  if (no_details && !v.g1 && !parnew && !defnew && !parallel) {
    // Without -XX:+PrintGCDetails only the shape of the log tells the collectors apart, as GCToolKit does:
    // a CMS cycle means ParNew/CMS; an age table means ParNew; anything else defaults to Parallel.
    if (v.cms || v.cms_no_details) parnew = true, cms = true;
    else if (v.age_table && v.full_no_details) parnew = true, serial = true;
    else if (v.age_table) parnew = true, cms = true;
    else if (v.young_no_details || v.full_no_details) parallel = true, parallel_old = true;
  }
  set("APPLICATION_STOPPED_TIME", v.stopped);
  set("APPLICATION_CONCURRENT_TIME", v.concurrent_time);
  set("DEFNEW", defnew);
  set("PARNEW", parnew);
  set("CMS", cms);
  set("ICMS", v.icms);
  set("PARALLELGC", parallel);
  set("PARALLELOLDGC", parallel_old);
  set("SERIAL", serial);
  set("G1GC", v.g1);
  set("ZGC", false);
  set("SHENANDOAH", v.shenandoah);
  set("GC_DETAILS", v.details || v.g1_details);
  set("TENURING_DISTRIBUTION", v.tenuring);
  set("GC_CAUSE", v.cause);
  set("CMS_DEBUG_LEVEL_1", v.cms_debug);
  set("ADAPTIVE_SIZING", v.adaptive);
  // JDK version class: the header when present, else the permanent generation (JDK <= 7) vs Metaspace
  // (JDK 8) and "(System)" (the cause printed before 7u40) vs "(System.gc())".
  bool jdk8 = v.jdk_major == 8 || (v.jdk_major == 0 && v.metaspace);
  // G1 on JDK 7 (and 8 before 8u20) prints no Metaspace line in its detail block; GCToolKit reads that as JDK 7.
  bool jdk7 = v.jdk_major == 7 ||
              (v.jdk_major == 0 && !v.metaspace &&
               (v.perm || v.system_pre740 || (v.details && v.generational_without_cause) || (v.g1 && v.g1_details)));
  bool pre740 = (v.jdk_major == 7 && v.jdk_update >= 0 && v.jdk_update < 40) || (v.jdk_major != 0 && v.jdk_major < 7) ||
                (v.jdk_major == 0 && v.system_pre740 && !v.metaspace);
  set("JDK70", jdk7);
  set("PRE_JDK70_40", pre740);
  set("JDK80", jdk8);
  set("UNIFIED_LOGGING", false);
  set("PRINT_HEAP_AT_GC", v.heap_at_gc);
  set("RSET_STATS", v.rset);
  set("PRINT_REFERENCE_GC", v.reference);
  set("MAX_TENURING_THRESHOLD_VIOLATION", v.threshold_violation);
  set("TLAB_DATA", v.tlab);
  set("PRINT_PROMOTION_FAILURE", v.promotion_failure_size);
  set("PRINT_FLS_STATISTICS", v.fls);

  diary_->collectors.clear();
  if (v.g1) diary_->collectors.push_back("G1");
  if (v.shenandoah) diary_->collectors.push_back("Shenandoah");
  if (defnew) diary_->collectors.push_back("DefNew");
  if (parnew) diary_->collectors.push_back("ParNew");
  if (parallel) diary_->collectors.push_back("PSYoungGen");
  if (cms) diary_->collectors.push_back(v.icms ? "iCMS" : "CMS");
  if (v.parold) diary_->collectors.push_back("ParOldGen");
  if (v.psold) diary_->collectors.push_back("PSOldGen");
  if (serial && !defnew) diary_->collectors.push_back("Tenured");
  else if (v.tenured) diary_->collectors.push_back("Tenured");
}

}  // namespace gcscope::jvm
