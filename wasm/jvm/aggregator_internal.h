// Helpers shared by aggregator.cpp and findings.cpp: what a cause means for the findings (decided
// once per distinct cause when it is interned, so events only test bits) and which types are full
// collections.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "jvm/gc_event.h"

namespace gcscope::jvm {

enum CauseClass : uint16_t {
  kCauseExplicit = 1u << 0,           // System.gc(), jcmd GC.run, JVMTI, heap dump/histogram
  kCauseSystemGc = 1u << 1,           // "System.gc()" itself (the hourly RMI pattern)
  kCauseHumongous = 1u << 2,          // "G1 Humongous Allocation"
  kCauseMetaspace = 1u << 3,          // metaspace filling up
  kCauseGcLocker = 1u << 4,           // "GCLocker Initiated GC"
  kCauseAllocationFailure = 1u << 5,  // a concurrent cycle started because allocation already failed
};

inline uint16_t classify_cause(std::string_view c) {
  uint16_t k = 0;
  if (c == "System.gc()") k |= kCauseExplicit | kCauseSystemGc;
  if (c == "Diagnostic Command" || c == "JvmtiEnv ForceGarbageCollection" || c == "Heap Dump Initiated GC" ||
      c == "Heap Inspection Initiated GC")
    k |= kCauseExplicit;
  if (c == "G1 Humongous Allocation") k |= kCauseHumongous;
  if (c == "Metadata GC Threshold" || c == "Metadata GC Clear Soft References" || c == "Metaspace")
    k |= kCauseMetaspace;
  if (c == "GCLocker Initiated GC") k |= kCauseGcLocker;
  if (c == "Allocation Stall" || c == "Handle Allocation Failure" || c == "Allocation Failure")
    k |= kCauseAllocationFailure;
  return k;
}

inline bool is_full_gc_type(GcType t) {
  return t == GcType::Full || t == GcType::FullGC || t == GcType::PSFull || t == GcType::G1GCFull;
}

}  // namespace gcscope::jvm
