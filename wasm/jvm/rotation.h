// Rotating GC log sets: order the members of a set by their content and find JVM restarts.
//
// A rotating set (gc.log, gc.log.0 … gc.log.N, gc.log.1.current, gc.log.2.gz, the same inside a .zip or a
// directory) cannot be ordered by name: JDK 9+ rotation wraps around (gc.log.3 may be older than gc.log.0)
// and JDK 7/8 names the live file *.current. The content can: each segment starts with a timestamp.
// Segments are ordered by their first wall-clock stamp when every segment has one, else by their first
// uptime. A JVM restart shows as a segment whose log starts again near uptime 0; only the latest run is
// analyzed unless all runs are asked for (GCToolKit does the same).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gcscope::jvm {

struct SegmentHead {
  std::string name;            // member path, as shown to the user
  double first_uptime_s = -1;  // first uptime stamp found, -1 = none
  double first_wall_ms = -1;   // first wall-clock stamp found (epoch ms), -1 = none
  uint64_t lines = 0;          // lines in the segment, when known (for reports only)
};

// Reads the first timestamps of a segment from its first bytes (unified "[0.013s]" / "[2021-…][12ms]"
// decorations, legacy "2016-08-30T20:35:29.123+0200: 123.456: " prefixes). Stops at the first line
// that carries an uptime.
void scan_segment_head(std::string_view head, SegmentHead& out);

// True for the live file of a set: no rotation number at the end of its name ("gc.log",
// "gc.log.1.current", "rollover.log"), as opposed to "gc.log.3" / "gc.log.3.gz".
bool is_live_segment(std::string_view name);

struct RotationPlan {
  std::vector<size_t> order;              // all segments, oldest first (indexes into the input)
  std::vector<std::vector<size_t>> runs;  // the JVM runs found, each oldest first; the last is the latest
  std::vector<size_t> selected;           // what to analyze: the latest run, or everything with all_runs
  bool restart_detected = false;
  bool ordered_by_wall_clock = false;
  std::string note;  // one sentence for the report: how the set was ordered, what was dropped
};

// A segment whose first stamp is at most this uptime begins a new JVM run.
inline constexpr double kFreshRunUptimeS = 5.0;

RotationPlan plan_rotation(const std::vector<SegmentHead>& segments, bool all_runs);

}  // namespace gcscope::jvm
