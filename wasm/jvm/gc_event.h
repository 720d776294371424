// The JVM domain's shared model: typed GC events and the diary, produced by both log parsers
// (unified JDK 9+ and legacy JDK <= 8) and consumed by the aggregator. Parsers push events into a
// GcEventSink as they finish them, so nothing here depends on holding the whole log.
//
// Changes to this header are additive (new fields at the end, new enumerators before kCount): the
// unified and legacy parsers are written against it in parallel.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gcscope::jvm {

// Event types, named exactly as GCToolKit's GarbageCollectionTypes enum (microsoft/gctoolkit,
// api/.../event/GarbageCollectionTypes.java) so counts compare 1:1 with its tests.
// clang-format off
#define GCSCOPE_JVM_GC_TYPES(X)                                                                          \
  X(GC) X(Young) X(FullGC) X(Full) X(SystemGC) X(PSYoungGen) X(ScavengeBeforeFull) X(PSFull) X(DefNew)   \
  X(ParNew) X(ParNewPromotionFailed) X(ConcurrentModeFailure) X(ConcurrentModeInterrupted) X(InitialMark) \
  X(Initial_Mark) X(Remark) X(ConcurrentPhase) X(CMSPausePhase) X(ConcurrentMark) X(Concurrent_Mark)     \
  X(Concurrent_Preclean) X(Abortable_Preclean) X(Concurrent_Sweep) X(Concurrent_Reset) X(Mixed)          \
  X(Concurrent_Cycle) X(ConcurrentClearClaimedMarks) X(ConcurrentScanRootRegions)                        \
  X(ConcurrentCreateLiveData) X(ConcurrentCompleteCleanup) X(ConcurrentCleanupForNextMark)               \
  X(ConcurrentStringDeduplication) X(ConcurrentRootRegionScan) X(G1GCConcurrentUndoCycle) X(G1GCRemark)  \
  X(G1GCCleanup) X(G1GCConcurrentCleanup) X(G1ConcurrentMarkResetForOverflow)                            \
  X(G1ConcurrentRebuildRememberedSets) X(G1GCYoungInitialMark) X(G1GCMixedInitialMark)                   \
  X(G1GCConcurrentMark) X(G1GCFull) X(G1Trap) X(Unknown) X(ZGCFull) X(ZGCMajor) X(ZGCMinor) X(Shenandoah)
// clang-format on

enum class GcType : uint8_t {
#define GCSCOPE_X(name) name,
  GCSCOPE_JVM_GC_TYPES(GCSCOPE_X)
#undef GCSCOPE_X
      kCount
};

inline const char* gc_type_name(GcType t) {
  static const char* const kNames[] = {
#define GCSCOPE_X(name) #name,
      GCSCOPE_JVM_GC_TYPES(GCSCOPE_X)
#undef GCSCOPE_X
  };
  return static_cast<size_t>(t) < static_cast<size_t>(GcType::kCount) ? kNames[static_cast<size_t>(t)] : "Unknown";
}

inline constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

// Occupancy of one memory pool around a collection, in KiB; -1 = not printed.
struct PoolSizes {
  int64_t before_kb = -1;
  int64_t after_kb = -1;
  int64_t committed_kb = -1;  // capacity after (the "(…)" figure)
  bool present() const { return before_kb >= 0 || after_kb >= 0; }
};

// Event flags worth a finding; set by whichever parser sees the evidence.
enum GcEventFlag : uint32_t {
  kToSpaceExhausted = 1u << 0,   // G1 "to-space exhausted" / "to-space overflow"
  kEvacuationFailure = 1u << 1,  // G1 evacuation failure
  kPromotionFailed = 1u << 2,    // ParNew/DefNew "promotion failed"
  kConcurrentModeFailure = 1u << 3,
  kHumongousAllocation = 1u << 4,  // cause "G1 Humongous Allocation"
  kAllocationStall = 1u << 5,      // ZGC allocation stall
  kDegenerated = 1u << 6,          // Shenandoah degenerated cycle
  kGcLocker = 1u << 7,             // cause "GCLocker Initiated GC"
  kConcurrentMarkAbort = 1u << 8,  // G1 "Concurrent Mark Abort" (a Full GC cut the marking short)
  kGcOverheadLimit = 1u << 9,      // Parallel "GC time would exceed GCTimeLimit" (OutOfMemoryError follows)
};

struct GcEvent {
  GcType type = GcType::Unknown;
  bool stop_the_world = true;       // false for concurrent phases/cycles
  double uptime_s = kUnknown;       // start, seconds since JVM start
  double wall_epoch_ms = kUnknown;  // start, when the log carries wall-clock stamps
  double duration_s = kUnknown;     // pause time for STW events, elapsed time for concurrent ones
  int64_t gc_id = -1;               // unified GC(n), or -1
  std::string_view cause;           // valid during on_event() only: copy/intern it
  PoolSizes heap, young, eden, survivor, old, metaspace, humongous;
  double user_s = kUnknown, sys_s = kUnknown, real_s = kUnknown;  // [Times: ...] / gc,cpu line
  uint32_t flags = 0;                                             // GcEventFlag bits
  uint64_t first_line = 0;  // 1-based, where the record starts (findings link here)
  uint32_t member = 0;      // index of the input member (rotating sets)
  // Phases of a (concurrent) cycle or pause: name → seconds; names valid during on_event() only.
  std::vector<std::pair<std::string_view, double>> phases;
  // Stop-the-world pauses inside a concurrent cycle (ZGC "Pause Mark Start", Shenandoah "Pause Init
  // Mark"), each with its own start; names valid during on_event() only. STW events leave it empty.
  struct Pause {
    std::string_view name;
    double uptime_s = kUnknown;
    double duration_s = kUnknown;
    uint64_t line = 0;
  };
  std::vector<Pause> pauses_within;
  // Legacy logs: the pools named in the record ("ParNew", "PSYoungGen", "CMS", "ParOldGen", "Tenured", …);
  // static strings (safe to keep), nullptr when the record names none.
  const char* young_pool = nullptr;
  const char* old_pool = nullptr;
};

// Safepoints (unified `safepoint` tag; legacy -XX:+PrintGCApplicationStoppedTime).
struct SafepointEvent {
  double uptime_s = kUnknown;
  double wall_epoch_ms = kUnknown;
  double stopped_s = kUnknown;   // "Total time for which application threads were stopped"
  double reaching_s = kUnknown;  // "Stopping threads took" / "Reaching safepoint"
  std::string_view operation;    // Safepoint "G1CollectForAllocation" (unified), valid during the call
  uint64_t line = 0;
  uint32_t member = 0;
};

// -XX:+PrintTenuringDistribution table (legacy) / gc,age (unified): a record of its own, as GCToolKit
// does (its SurvivorRecord).
struct TenuringRecord {
  double uptime_s = kUnknown;
  double wall_epoch_ms = kUnknown;
  int64_t desired_survivor_bytes = -1;
  int new_threshold = -1, max_threshold = -1;
  std::vector<std::pair<int, int64_t>> bytes_by_age;  // (age, bytes at that age)
  uint64_t line = 0;
  uint32_t member = 0;
};

enum class Tri : int8_t { kUnknown = -1, kFalse = 0, kTrue = 1 };

// What the log is, GCToolKit style. Flag names follow GCToolKit's diary (G1GC, ZGC, SHENANDOAH,
// UNIFIED_LOGGING, GC_CAUSE, TENURING_DISTRIBUTION, PRINT_HEAP_AT_GC, APPLICATION_STOPPED_TIME, …).
struct Diary {
  Tri unified = Tri::kUnknown;
  std::string jvm_version;                         // as printed
  std::vector<std::string> collectors;             // e.g. {"G1"} or {"ParNew", "CMS"}
  std::vector<std::pair<std::string, Tri>> flags;  // in first-decided order
  std::string command_line;                        // "CommandLine flags:" / "jvm_args:" / -XX flags seen
  int64_t max_heap_kb = -1, initial_heap_kb = -1, region_size_kb = -1;
  // Time span of the log's stamped lines (not only GC records): the runtime the throughput is
  // computed over. NaN when the parser did not see stamps.
  double first_uptime_s = std::numeric_limits<double>::quiet_NaN();
  double last_uptime_s = std::numeric_limits<double>::quiet_NaN();
  int64_t physical_memory_kb = -1;  // legacy "Memory: 4k page, physical 16330620k(…)" header

  // A string_view, not a std::string: the unified parser sets flags on every safepoint and cause
  // line, and a std::string made from a name longer than the small-string buffer (10 bytes in wasm)
  // was an allocation per line.
  void set_flag(std::string_view name, Tri value) {
    for (auto& f : flags)
      if (f.first == name) {
        if (f.second == Tri::kUnknown) f.second = value;
        return;
      }
    flags.emplace_back(name, value);
  }
};

// Where parsers deliver what they read.
class GcEventSink {
 public:
  virtual ~GcEventSink() = default;
  virtual void on_event(const GcEvent& event) = 0;
  virtual void on_safepoint(const SafepointEvent& event) = 0;
  // A line no parser understood (the report lists the first few with their numbers).
  virtual void on_unparsed(uint32_t member, uint64_t line, std::string_view text) = 0;
  // Application time between safepoints (legacy PrintGCApplicationConcurrentTime), optional.
  virtual void on_application_time(uint32_t member, double uptime_s, double seconds) {
    (void)member, (void)uptime_s, (void)seconds;
  }
  // A mutator thread stalled waiting for memory (ZGC "Allocation Stall (thread) 1.2ms",
  // "Relocation Stall"), optional.
  virtual void on_stall(uint32_t member, uint64_t line, double uptime_s, double seconds, bool relocation) {
    (void)member, (void)line, (void)uptime_s, (void)seconds, (void)relocation;
  }
  // A survivor-age table (legacy -XX:+PrintTenuringDistribution), optional.
  virtual void on_tenuring(const TenuringRecord& record) { (void)record; }
};

}  // namespace gcscope::jvm
