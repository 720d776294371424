#include "jvm/probe.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "core/text_scan.h"
#include "jvm/decorations.h"

namespace gcscope::jvm {

namespace {

using text::contains;
using text::starts_with;

// What a line's unified-logging decorations ("[0.012s][info][gc,init] ") say, read by the
// parsers' reader (decorations::split). A legacy "[GC (Allocation Failure) ..." or "[Full GC ..."
// record has no decoration, and neither has an undecorated line (-Xlog:...::none).
struct Decorated {
  bool any = false;       // the line starts with at least one decoration
  bool timed = false;     // one of them is a time stamp (uptime, time, ...)
  bool gc_tags = false;   // the tags decoration starts with gc or safepoint
  int count = 0;          // how many decorations
  std::string_view body;  // the message after them, leading blanks skipped
};

Decorated read_decorations(std::string_view line) {
  Decorated out;
  decorations::Unified deco;
  decorations::NanosOrigin nanos;
  std::string_view message;
  if (!decorations::split(line, deco, nanos, message) || message.data() == line.data()) return out;
  out.any = true;
  out.timed = !std::isnan(deco.uptime_s) || !std::isnan(deco.wall_ms);
  out.gc_tags = starts_with(deco.tags, "gc") || starts_with(deco.tags, "safepoint");
  out.count = static_cast<int>(std::count(line.data(), message.data(), '['));
  out.body = text::trim_left(message);
  return out;
}

bool unified_message(std::string_view m) {
  if (starts_with(m, "GC(")) {
    size_t i = 3;
    while (i < m.size() && std::isdigit(static_cast<unsigned char>(m[i]))) ++i;
    return i > 3 && i < m.size() && m[i] == ')';
  }
  return starts_with(m, "Using ") || starts_with(m, "Initializing The Z Garbage Collector") ||
         starts_with(m, "Safepoint \"") || starts_with(m, "Version: ") || starts_with(m, "Heap Region Size") ||
         starts_with(m, "Heap region size") ||
         starts_with(m, "Total time for which application threads were stopped") ||
         starts_with(m, "Application time:") || starts_with(m, "Entering safepoint region") ||
         starts_with(m, "Leaving safepoint region") || starts_with(m, "CPUs: ") ||
         starts_with(m, "Heap Min Capacity") || starts_with(m, "Heuristics ergonomically") ||
         starts_with(m, "Shenandoah heuristics") || starts_with(m, "Regions: ") ||
         starts_with(m, "Humongous object threshold") || starts_with(m, "Pause Young") ||
         starts_with(m, "Pause Full") || starts_with(m, "Periodic GC");
}

// Legacy (-XX:+PrintGCDetails era) record starts, after an optional date stamp and uptime stamp.
bool legacy_record(std::string_view line) {
  std::string_view s = text::trim_left(line);
  // Optional "2017-01-07T13:22:40.495-0800: ", "3576155.873: " and "#12: " stamps, as the parser reads them.
  decorations::Legacy stamps;
  s = s.substr(decorations::read_legacy(s, 0, stamps));
  static const char* kStarts[] = {"[GC",
                                  "[Full GC",
                                  "[ParNew",
                                  "[CMS",
                                  "[DefNew",
                                  "[PSYoungGen",
                                  "[Times:",
                                  "{Heap before GC",
                                  "Heap after GC",
                                  "[GC pause",
                                  "[GC concurrent",
                                  "[GC remark",
                                  "[GC cleanup",
                                  "[Pause Init Mark",
                                  "[Pause Final Mark",
                                  "[Concurrent ",
                                  "[Eden:",
                                  "[Parallel Time:",
                                  "[Pause Full",
                                  "[Pause Degenerated",
                                  "[YG occupancy",
                                  "[1 CMS-initial-mark",
                                  "[Tenured",
                                  "[PSOldGen",
                                  "[ParOldGen"};
  for (const char* k : kStarts)
    if (starts_with(s, k)) return true;
  static const char* kLegacyLines[] = {"Application time:",
                                       "Total time for which application threads were stopped:",
                                       "GC log file created",
                                       "PSYoungGen ",
                                       "par new generation",
                                       "def new generation",
                                       "garbage-first heap",
                                       "Shenandoah Heap",
                                       "concurrent mark-sweep generation",
                                       "Cancelling concurrent GC",
                                       "Desired survivor size",
                                       "GC STATISTICS:"};
  for (const char* k : kLegacyLines)
    if (starts_with(s, k) || (starts_with(text::trim_left(line), k))) return true;
  if (contains(line, " GC log file created ")) return true;
  if (contains(s, ": Application time:") || contains(s, ": Total time for which application threads were stopped:"))
    return true;
  return starts_with(line, "Java HotSpot(TM)") || starts_with(line, "OpenJDK 64-Bit Server VM") ||
         starts_with(line, "OpenJDK Server VM") || starts_with(line, "CommandLine flags:") ||
         (starts_with(line, "Memory: ") && contains(line, "physical"));
}

std::string unified_collector(std::string_view m) {
  if (starts_with(m, "Using G1")) return "G1";
  if (starts_with(m, "Using Parallel")) return "Parallel";
  if (starts_with(m, "Using Serial")) return "Serial";
  if (starts_with(m, "Using Concurrent Mark Sweep")) return "CMS";
  if (starts_with(m, "Using Shenandoah")) return "Shenandoah";
  if (starts_with(m, "Using Epsilon")) return "Epsilon";
  if (starts_with(m, "Using The Z Garbage Collector") || starts_with(m, "Initializing The Z Garbage Collector"))
    return "ZGC";
  return "";
}

std::string legacy_collector(std::string_view text) {
  // Ordered from most to least specific: a CMS log also has ParNew lines, iCMS prints icms_dc.
  if (contains(text, "icms_dc=")) return "iCMS";
  if (contains(text, "CMS-initial-mark") || contains(text, "CMS-concurrent") || contains(text, "[CMS")) return "CMS";
  if (contains(text, "[GC pause") || contains(text, "G1 Evacuation Pause") || contains(text, "GC pause (")) return "G1";
  if (contains(text, "Pause Init Mark") || contains(text, "Pause Final Mark") || contains(text, "Concurrent marking"))
    return "Shenandoah";
  if (contains(text, "PSYoungGen")) return "Parallel";
  if (contains(text, "ParNew")) return "ParNew";
  if (contains(text, "DefNew")) return "Serial";
  if (contains(text, "-XX:+UseG1GC")) return "G1";
  if (contains(text, "-XX:+UseConcMarkSweepGC")) return "CMS";
  if (contains(text, "-XX:+UseParallelGC") || contains(text, "-XX:+UseParallelOldGC")) return "Parallel";
  if (contains(text, "-XX:+UseSerialGC")) return "Serial";
  if (contains(text, "-XX:+UseShenandoahGC")) return "Shenandoah";
  return "";
}

// A Java stack frame line: "\tat pkg.Class.method(Class.java:42)" (or "    at …", "(Native Method)").
bool java_stack_frame(const std::vector<std::string_view>& lines) {
  for (std::string_view l : lines) {
    std::string_view t = text::trim_left(l);
    if (t.size() == l.size() || !starts_with(t, "at ")) continue;
    if (contains(t, ".java:") || contains(t, "(Native Method)") || contains(t, "(Unknown Source)")) return true;
  }
  return false;
}

}  // namespace

bool probe_gc_log(const Head& head, Identification& out) {
  std::string_view text = head.text();
  int unified = 0, legacy = 0;
  std::string collector, version;
  bool generational_zgc = false;
  for (auto line : head.lines()) {
    const Decorated deco = read_decorations(line);
    if (deco.any) {
      // A time stamp decoration is what -Xlog prints first and no legacy record prints in brackets.
      if (deco.timed || unified_message(deco.body) || (deco.count >= 2 && deco.gc_tags)) {
        std::string_view body = deco.body;
        ++unified;
        if (collector.empty()) collector = unified_collector(body);
        if (version.empty() && starts_with(body, "Version: ")) version = std::string(text::trim(body.substr(9)));
        if (contains(body, "Minor Collection") || contains(body, "Major Collection") || contains(body, " Y: ") ||
            starts_with(body.substr(body.find(')') + 1 < body.size() ? body.find(')') + 1 : 0), " Y: "))
          generational_zgc = true;
        continue;
      }
    } else if (unified_message(text::trim_left(line)) && starts_with(text::trim_left(line), "GC(")) {
      ++unified;  // -Xlog:gc::none (no decorations at all)
      continue;
    }
    if (legacy_record(line)) ++legacy;
  }
  if (unified == 0 && legacy == 0) return false;
  nlohmann::json d;
  if (unified >= legacy) {
    if (collector == "ZGC" && generational_zgc) collector = "ZGC (generational)";
    d = {{"unified", true}, {"collector", collector.empty() ? nlohmann::json() : nlohmann::json(collector)}};
    if (!version.empty()) d["jvm_version"] = version;
    out.reason = "unified JVM logging (" + std::to_string(unified) + " decorated gc/safepoint lines)";
  } else {
    collector = legacy_collector(text);
    d = {{"unified", false}, {"collector", collector.empty() ? nlohmann::json() : nlohmann::json(collector)}};
    size_t jre = text.find("JRE (");
    if (jre != std::string_view::npos) {
      size_t close = text.find(')', jre);
      if (close != std::string_view::npos) d["jvm_version"] = std::string(text.substr(jre + 5, close - jre - 5));
    }
    out.reason = "pre-unified JVM GC log (" + std::to_string(legacy) + " GC record lines)";
  }
  out.details = std::move(d);
  return true;
}

// Java application output (stack traces, a thread dump) with no GC record in the head. GC logs are
// often written to a service's stdout among its own lines: the analyzer reads the GC lines in it and
// counts every other line as not GC output (its report's unparsed lines).
bool probe_application_output(const Head& head, Identification& out) {
  std::string_view text = head.text();
  if (!java_stack_frame(head.lines()) && !contains(text, "Full thread dump")) return false;
  out.reason = "Java application output (stack traces or a thread dump) with no GC record in the first " +
               std::to_string(text.size()) + " bytes: its GC lines are analyzed, the others counted";
  out.details = {{"unified", nullptr}, {"collector", nullptr}, {"application_output", true}};
  return true;
}

}  // namespace gcscope::jvm
