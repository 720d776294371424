#include "identify.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

#include "text_scan.h"
#include "tracing/probe_listing.h"

namespace gcscope {
namespace {

using text::contains;
using text::starts_with;

constexpr const char* kAllIds[] = {format_id::kJvmGcLog,     format_id::kTuneMyGc,     format_id::kStackprof,
                                   format_id::kRubyHeapDump, format_id::kRbkit,        format_id::kBpftraceText,
                                   format_id::kBpftraceJson, format_id::kFoldedStacks, format_id::kPerfScript,
                                   format_id::kBccOutput};

Identification make(const char* id, std::string reason, nlohmann::json details = nlohmann::json::object()) {
  Identification r;
  r.format = id;
  r.reason = std::move(reason);
  r.details = std::move(details);
  return r;
}

// Splits the head into lines; an incomplete last line is dropped unless the head is the whole input.
std::vector<std::string_view> head_lines(std::string_view head, bool complete, size_t max_lines) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < head.size() && lines.size() < max_lines) {
    size_t nl = head.find('\n', pos);
    if (nl == std::string_view::npos) {
      if (complete) lines.push_back(head.substr(pos));
      break;
    }
    std::string_view line = head.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    pos = nl + 1;
  }
  return lines;
}

// ---- Binary formats --------------------------------------------------------------------------

// Ruby Marshal: "\x04\x08" then the stackprof result Hash, whose keys are Symbols (":" len name).
bool marshal_symbol(std::string_view head, const char* name) {
  std::string needle(":");
  needle.push_back(static_cast<char>(std::strlen(name) + 5));  // Marshal packs small ints as n+5
  needle += name;
  return head.find(needle) != std::string_view::npos;
}

bool probe_marshal(std::string_view head, Identification& out) {
  if (head.size() < 2) return false;
  auto major = static_cast<unsigned char>(head[0]), minor = static_cast<unsigned char>(head[1]);
  if (!((major == 4 || major == 3) && minor <= 12)) return false;
  bool keys = marshal_symbol(head, "frames") || marshal_symbol(head, "mode") ||
              (marshal_symbol(head, "version") && marshal_symbol(head, "samples"));
  // A combined dump (stackprof A B --dump) re-keys frames but keeps the Symbol top-level keys.
  if (!keys) return false;
  std::string v = std::to_string(major) + "." + std::to_string(minor);
  out = make(format_id::kStackprof, "Ruby Marshal " + v + " stream holding stackprof's :mode/:frames keys",
             {{"encoding", "marshal"}, {"marshal_version", v}});
  return true;
}

// rbkit: every message and event is a msgpack map that starts with key 0 (event_type, 0-9) and key 1
// (the timestamp: float64 ms, an integer, or msgpack's timestamp ext), e.g. 84 00 07 01 cb ... for an
// event_collection or 83 00 08 01 cb ... for the handshake reply. Counts such event maps in the head;
// one is enough when it starts the input, otherwise it must come within the first 4 KiB (damaged
// captures: a resynchronising reader finds it). Plain text can never match (it has no 0x00 bytes).
bool probe_rbkit(std::string_view head, Identification& out) {
  const auto* b = reinterpret_cast<const unsigned char*>(head.data());
  const size_t n = head.size();
  auto timestamp_start = [](unsigned char c) {
    return c == 0xcb || c == 0xca || c <= 0x7f || (c >= 0xcc && c <= 0xcf) || c == 0xd6 || c == 0xd7 || c == 0xc7;
  };
  size_t first = std::string_view::npos, maps = 0;
  int first_type = -1;
  for (size_t i = 0; i + 5 <= n; ++i) {
    size_t k;
    if (b[i] >= 0x81 && b[i] <= 0x8f) k = i + 1;
    else if (b[i] == 0xde && i + 7 <= n) k = i + 3;  // map16 (gc_stats payloads of old servers use it)
    else continue;
    if (b[k] != 0x00 || b[k + 1] > 0x09 || b[k + 2] != 0x01 || !timestamp_start(b[k + 3])) continue;
    if (first == std::string_view::npos) {
      first = i;
      first_type = b[k + 1];
    }
    ++maps;
  }
  if (first == std::string_view::npos || first > 4096) return false;
  static const char* const kTypes[] = {"obj_created", "obj_destroyed", "gc_start",         "gc_end_m",  "gc_end_s",
                                       "object_space_dump", "gc_stats", "event_collection", "handshake", "cpu_sample"};
  nlohmann::json d = {{"first_event_type", first_type}, {"event_maps_in_head", maps}};
  if (first) d["first_event_offset"] = first;
  size_t unused = 0;
  while (unused < first && b[unused] == 0xc1) ++unused;
  if (unused) d["leading_invalid_bytes"] = unused;  // 0xC1 is never valid msgpack
  // The handshake reply names the protocol: "rbkit_protocol_version" then a fixstr.
  const std::string_view key = "\xb6rbkit_protocol_version";
  size_t at = head.find(key);
  if (at != std::string_view::npos && at + key.size() < n) {
    unsigned char h = b[at + key.size()];
    size_t len = h >= 0xa0 && h <= 0xbf ? h & 0x1f : 0;
    if (len && at + key.size() + 1 + len <= n) d["protocol_version"] = std::string(head.substr(at + key.size() + 1, len));
  }
  out = make(format_id::kRbkit,
             std::to_string(maps) + " msgpack map(s) starting with event_type (key 0) and timestamp (key 1); the first, at byte " +
                 std::to_string(first) + ", is " + kTypes[first_type],
             d);
  return true;
}

// ---- JSON documents -------------------------------------------------------------------------

// Reads a JSON string or null at `p`; returns the position after it, or npos.
size_t json_string_or_null(std::string_view s, size_t p, std::string* value, bool* is_null) {
  p = text::skip_ws(s, p);
  if (s.substr(p, 4) == "null") {
    *is_null = true;
    return p + 4;
  }
  if (p >= s.size() || s[p] != '"') return std::string_view::npos;
  *is_null = false;
  value->clear();
  for (size_t i = p + 1; i < s.size(); ++i) {
    if (s[i] == '\\') {
      if (++i < s.size()) value->push_back(s[i]);
    } else if (s[i] == '"') {
      return i + 1;
    } else {
      value->push_back(s[i]);
    }
  }
  return std::string_view::npos;
}

// TuneMyGC event names: strong evidence in any JSON that is not a well-formed payload.
bool has_tunemygc_events(std::string_view head) {
  int n = 0;
  for (const char* ev : {"\"BOOTED\"", "\"PROCESSING_STARTED\"", "\"PROCESSING_ENDED\"", "\"GC_CYCLE_STARTED\"",
                         "\"GC_CYCLE_ENDED\"", "\"TERMINATED\""})
    if (contains(head, ev)) ++n;
  return n >= 2;
}

bool probe_tunemygc(std::string_view head, size_t first, Identification& out) {
  // [[token|null, "ruby version", "rails version", {env}, "agent version", ...], samples...]
  size_t p = text::skip_ws(head, first + 1);
  // Malformed payloads still go to the tuner, which answers 400 with the precise reason: an empty
  // array (no header), or an array whose samples carry the protocol's event names.
  if (p < head.size() && head[p] == ']' && text::skip_ws(head, p + 1) >= head.size()) {
    out = make(format_id::kTuneMyGc, "empty JSON array: a TuneMyGC payload without its header", {{"malformed", true}});
    return true;
  }
  if (p < head.size() && head[p] != '[' && has_tunemygc_events(head)) {
    out = make(format_id::kTuneMyGc, "JSON array with TuneMyGC event names but no header tuple first", {{"malformed", true}});
    return true;
  }
  if (p >= head.size() || head[p] != '[') return false;
  std::string token, ruby, rails;
  bool null_token = false, null_ruby = false, null_rails = false;
  p = json_string_or_null(head, p + 1, &token, &null_token);
  if (p == std::string_view::npos) return false;
  p = text::skip_ws(head, p);
  if (p >= head.size() || head[p] != ',') return false;
  nlohmann::json d = {{"header_token", null_token ? nlohmann::json() : nlohmann::json(token)}};
  size_t q = json_string_or_null(head, p + 1, &ruby, &null_ruby);
  if (q != std::string_view::npos && !null_ruby) {
    d["ruby_version"] = ruby;
    q = text::skip_ws(head, q);
    if (q < head.size() && head[q] == ',' && json_string_or_null(head, q + 1, &rails, &null_rails) != std::string_view::npos &&
        !null_rails)
      d["rails_version"] = rails;
  }
  out = make(format_id::kTuneMyGc, "JSON array whose first element is a TuneMyGC header tuple", d);
  d.erase("header_token");
  out.details = d;
  return true;
}

bool probe_json_object(std::string_view head, const std::vector<std::string_view>& lines, Identification& out) {
  std::string_view first_line;
  for (auto l : lines)
    if (!text::trim(l).empty()) {
      first_line = text::trim(l);
      break;
    }
  // Pretty-printed JSON puts only "{" on the first line: then look at the first 4 KiB instead.
  std::string_view probe = first_line.size() < 8 ? head.substr(0, 4096) : first_line.substr(0, 4096);
  // bpftrace -f json: one object per line, {"type": "<kind>", "data": ...}
  static const char* kBpfKinds[] = {"attached_probes", "map", "hist", "stats", "printf", "time",  "lhist",
                                    "value",           "join", "helper_error", "print",  "syscall", "cat", "tseries"};
  if (contains(probe, "\"type\"") && contains(probe, "\"data\"")) {
    for (const char* k : kBpfKinds) {
      std::string needle = std::string("\"") + k + "\"";
      size_t t = probe.find("\"type\"");
      size_t v = probe.find(needle, t + 6);
      if (v != std::string_view::npos && v < t + 6 + 4 + needle.size() + 2) {
        out = make(format_id::kBpftraceJson, std::string("JSON lines of bpftrace -f json (first record type \"") + k + "\")",
                   {{"tool", "bpftrace"}});
        return true;
      }
    }
  }
  // ObjectSpace.dump_all: one object per line with "address" (or a ROOT record with "root").
  if ((contains(probe, "\"address\"") && contains(probe, "\"type\"")) ||
      (contains(probe, "\"type\"") && contains(probe, "\"ROOT\"") && contains(probe, "\"root\""))) {
    out = make(format_id::kRubyHeapDump, "JSON lines of ObjectSpace.dump_all (records with \"address\"/\"type\" or ROOT)");
    return true;
  }
  // stackprof JSON: one object with version/mode/interval/frames.
  std::string_view big = head.substr(0, 8192);
  if (contains(big, "\"mode\"") && (contains(big, "\"frames\"") || contains(big, "\"interval\"")) &&
      contains(big, "\"version\"")) {
    out = make(format_id::kStackprof, "JSON object with stackprof's version/mode/frames keys", {{"encoding", "json"}});
    return true;
  }
  return false;
}

// ---- JVM GC logs ----------------------------------------------------------------------------

// A unified-logging decoration token: uptime "0.012s"/"173690ms"/"5ns", time
// "2020-06-24T18:13:47.695-0700", a level, or a tag set "gc,start     ".
bool time_decoration(std::string_view t) {
  if (t.empty() || !text::is_digit(t[0])) return false;
  if (t.size() >= 19 && t[4] == '-' && t[7] == '-' && t[10] == 'T') return true;  // ISO-8601 time
  size_t i = 0;
  while (i < t.size() && (text::is_digit(t[i]) || t[i] == '.' || t[i] == ',')) ++i;
  std::string_view unit = t.substr(i);
  return i > 0 && (unit == "s" || unit == "ms" || unit == "ns");
}

// Strips unified-logging decorations ("[0.012s][info][gc,init] ") and returns the message body;
// false when the line does not start with decorations (a legacy "[GC (Allocation Failure) ..." or
// "[Full GC ..." record is not a decoration).
bool strip_decorations(std::string_view line, std::string_view* body, int* groups, bool* timed) {
  size_t p = 0;
  int n = 0;
  *timed = false;
  while (p < line.size() && line[p] == '[') {
    size_t close = line.find(']', p);
    if (close == std::string_view::npos || close - p > 64) break;
    std::string_view inner = line.substr(p + 1, close - p - 1);
    if (inner.empty() || inner.find(": ") != std::string_view::npos || starts_with(inner, "GC ") ||
        starts_with(inner, "Full GC") || inner == "GC")
      break;
    if (n == 0 && time_decoration(inner)) *timed = true;
    ++n;
    p = close + 1;
  }
  if (n == 0) return false;
  *body = text::trim_left(line.substr(p));
  *groups = n;
  return true;
}

bool unified_message(std::string_view m) {
  if (starts_with(m, "GC(")) {
    size_t i = 3;
    while (i < m.size() && std::isdigit(static_cast<unsigned char>(m[i]))) ++i;
    return i > 3 && i < m.size() && m[i] == ')';
  }
  return starts_with(m, "Using ") || starts_with(m, "Initializing The Z Garbage Collector") ||
         starts_with(m, "Safepoint \"") || starts_with(m, "Version: ") || starts_with(m, "Heap Region Size") ||
         starts_with(m, "Heap region size") || starts_with(m, "Total time for which application threads were stopped") ||
         starts_with(m, "Application time:") || starts_with(m, "Entering safepoint region") ||
         starts_with(m, "Leaving safepoint region") || starts_with(m, "CPUs: ") || starts_with(m, "Heap Min Capacity") ||
         starts_with(m, "Heuristics ergonomically") || starts_with(m, "Shenandoah heuristics") ||
         starts_with(m, "Regions: ") || starts_with(m, "Humongous object threshold") || starts_with(m, "Pause Young") ||
         starts_with(m, "Pause Full") || starts_with(m, "Periodic GC");
}

// Legacy (-XX:+PrintGCDetails era) record starts, after an optional date stamp and uptime stamp.
bool legacy_record(std::string_view line) {
  std::string_view s = text::trim_left(line);
  // Optional "2017-01-07T13:22:40.495-0800: " and "3576155.873: " prefixes (also with ',' decimals).
  for (int k = 0; k < 2; ++k) {
    size_t colon = s.find(": ");
    if (colon == std::string_view::npos || colon > 40) break;
    std::string_view stamp = s.substr(0, colon);
    bool ok = !stamp.empty() && std::isdigit(static_cast<unsigned char>(stamp[0]));
    for (char c : stamp)
      if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == ',' || c == '-' || c == '+' || c == 'T' ||
            c == ':'))
        ok = false;
    if (!ok) break;
    s = s.substr(colon + 2);
  }
  static const char* kStarts[] = {"[GC",          "[Full GC",         "[ParNew",        "[CMS",
                                  "[DefNew",      "[PSYoungGen",      "[Times:",        "{Heap before GC",
                                  "Heap after GC", "[GC pause",       "[GC concurrent", "[GC remark",
                                  "[GC cleanup",  "[Pause Init Mark", "[Pause Final Mark", "[Concurrent ",
                                  "[Eden:",       "[Parallel Time:",  "[Pause Full",    "[Pause Degenerated",
                                  "[YG occupancy", "[1 CMS-initial-mark", "[Tenured",    "[PSOldGen", "[ParOldGen"};
  for (const char* k : kStarts)
    if (starts_with(s, k)) return true;
  static const char* kLegacyLines[] = {"Application time:", "Total time for which application threads were stopped:",
                                       "GC log file created", "PSYoungGen ", "par new generation", "def new generation",
                                       "garbage-first heap", "Shenandoah Heap", "concurrent mark-sweep generation",
                                       "Cancelling concurrent GC", "Desired survivor size", "GC STATISTICS:"};
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
  if (starts_with(m, "Using The Z Garbage Collector") || starts_with(m, "Initializing The Z Garbage Collector")) return "ZGC";
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

bool probe_jvm(std::string_view head, const std::vector<std::string_view>& lines, Identification& out) {
  int unified = 0, legacy = 0;
  std::string collector, version;
  bool generational_zgc = false;
  for (auto line : lines) {
    std::string_view body;
    int groups = 0;
    bool timed = false;
    if (strip_decorations(line, &body, &groups, &timed)) {
      // A leading uptime/time decoration is what -Xlog prints and nothing else does.
      if (timed || unified_message(body) || (groups >= 2 && (contains(line, "][gc") || contains(line, "][safepoint")))) {
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
    out = make(format_id::kJvmGcLog, "unified JVM logging (" + std::to_string(unified) + " decorated gc/safepoint lines)", d);
  } else {
    collector = legacy_collector(head);
    d = {{"unified", false}, {"collector", collector.empty() ? nlohmann::json() : nlohmann::json(collector)}};
    size_t jre = head.find("JRE (");
    if (jre != std::string_view::npos) {
      size_t close = head.find(')', jre);
      if (close != std::string_view::npos) d["jvm_version"] = std::string(head.substr(jre + 5, close - jre - 5));
    }
    out = make(format_id::kJvmGcLog, "pre-unified JVM GC log (" + std::to_string(legacy) + " GC record lines)", d);
  }
  return true;
}

// ---- Tracing tool output --------------------------------------------------------------------

bool is_uint(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// "a;b;c 12" (weight may be a sample period; frames may contain spaces).
bool folded_line(std::string_view line) {
  size_t sp = line.find_last_of(' ');
  return sp != std::string_view::npos && sp > 0 && is_uint(line.substr(sp + 1));
}

// perf script sample header "comm pid [cpu] time: period event:" and frame "\t  addr sym (dso)".
bool perf_frame(std::string_view line) {
  if (line.empty()) return false;
  bool indented = line[0] == '\t' || line[0] == ' ';
  std::string_view s = text::trim_left(line);
  size_t sp = s.find(' ');
  if (sp == std::string_view::npos || sp == 0 || (!indented && sp < 4)) return false;
  for (size_t i = 0; i < sp; ++i)
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return s.back() == ')' && s.find(" (") != std::string_view::npos;
}

bool perf_header(std::string_view line) {
  if (line.empty() || line[0] == ' ' || line[0] == '\t') return false;
  // Old perf: "java 19983 cycles:" (comm, pid, event; no timestamp).
  if (line.back() == ':' || text::ends_with(line, ": ")) {
    size_t a = line.find(' ');
    size_t b = a == std::string_view::npos ? a : line.find(' ', a + 1);
    if (b != std::string_view::npos && is_uint(line.substr(a + 1, b - a - 1))) return true;
  }
  size_t colon = line.find(": ");
  if (colon == std::string_view::npos) return false;
  // the token before ": " is a timestamp like 666709.771979
  size_t sp = line.rfind(' ', colon);
  std::string_view ts = line.substr(sp == std::string_view::npos ? 0 : sp + 1, colon - (sp == std::string_view::npos ? 0 : sp + 1));
  size_t dot = ts.find('.');
  return dot != std::string_view::npos && dot > 0 && is_uint(ts.substr(0, dot)) && is_uint(ts.substr(dot + 1));
}

// bpftrace map line "@name[key]: value" / "@name: value" / "@name:" (histogram follows).
bool bpftrace_map_line(std::string_view line) {
  if (line.size() < 2 || line[0] != '@') return false;
  size_t i = 1;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
  if (i < line.size() && line[i] == '[') return line.find("]: ") != std::string_view::npos || text::ends_with(line, "]:");
  return i < line.size() && line[i] == ':';
}

// bpftrace histogram row "[4, 8)   12 |@@@@   |" or "[0]  1 |@|" or "(..., 0)  1 |@|".
bool bpftrace_hist_row(std::string_view line) {
  if (line.empty() || (line[0] != '[' && line[0] != '(')) return false;
  size_t bar = line.find('|');
  return bar != std::string_view::npos && line.back() == '|' && (line.find(')') < bar || line.find(']') < bar);
}

bool probe_tracing(const std::vector<std::string_view>& lines, Identification& out) {
  int perf_headers = 0, perf_frames = 0, folded = 0, folded_semis = 0, semi_lines = 0, nonblank = 0;
  int bpf = 0, bpf_attach = 0, bcc = 0, dtrace = 0, dtrace_stack = 0;
  std::string bcc_tool, version;
  for (auto raw : lines) {
    std::string_view line = raw;
    if (text::trim(line).empty()) continue;
    ++nonblank;
    if (perf_frame(line)) ++perf_frames;
    else if (perf_header(line)) ++perf_headers;
    if (line.find(';') != std::string_view::npos && line[0] != '@' && line[0] != '[') ++semi_lines;
    if (folded_line(line)) {
      ++folded;
      if (line.find(';') != std::string_view::npos) ++folded_semis;
    }
    if (starts_with(line, "Attaching ") && contains(line, " probe")) ++bpf_attach;
    if (starts_with(line, "Attached ") && contains(line, " probe")) ++bpf_attach;
    if (bpftrace_map_line(line) || bpftrace_hist_row(line)) ++bpf;
    if (starts_with(line, "hh:mm:ss")) bpf += 2;  // tseries() printout
    if ((starts_with(line, "# ./") && contains(line, ".bt")) || starts_with(line, "# bpftrace ") ||
        starts_with(line, "bpftrace -e ") || starts_with(line, "# bpftrace -e"))
      ++bpf_attach;
    if (starts_with(line, "# ") && text::ends_with(text::trim_right(line), ".d")) ++dtrace;
    std::string_view t = text::trim_left(line);
    struct BccSig { const char* text; const char* tool; };
    static const BccSig kBcc[] = {
        {"Tracing calls in process", "ucalls"},     {"Tracing method calls in", "uflow"},
        {"Tracing garbage collections in", "ugc"},  {"Tracing allocations in process", "uobjnew"},
        {"METHOD", "ucalls"},                      {"NAME/TYPE", "uobjnew"},
        {"TYPE", "uobjnew"},                       {"PID    CMDLINE", "ustat"},
        {"Sampling at ", "profile"},               {"START    TIME (us) DESCRIPTION", "ugc"},
        {"CPU PID", "uflow"},                      {"nsecs ", "log2hist"},
        {"usecs ", "log2hist"},                    {"msecs ", "log2hist"},
        {"Tracing ", "stackcount"}};
    for (const auto& sig : kBcc) {
      if (!starts_with(t, sig.text)) continue;
      bool tabular = std::strcmp(sig.text, "METHOD") == 0 || std::strcmp(sig.text, "TYPE") == 0 ||
                     std::strcmp(sig.text, "NAME/TYPE") == 0;
      if (tabular && !(contains(t, "# CALLS") || contains(t, "# ALLOCS") || contains(t, "LAT"))) continue;
      if (std::strcmp(sig.text, "Tracing ") == 0 && !contains(t, " functions for ")) continue;
      bool hist = std::strcmp(sig.tool, "log2hist") == 0;
      if (hist && !(contains(t, ": count") && contains(t, "distribution"))) continue;
      ++bcc;
      if (bcc_tool.empty() || (bcc_tool == "log2hist" && !hist)) bcc_tool = sig.tool;
    }
    if (contains(t, "------------- Distribution -------------")) ++dtrace;
    if (contains(t, "`") && contains(t, "+0x")) ++dtrace_stack;
  }
  if (nonblank == 0) return false;
  if (perf_frames >= 2 && perf_headers >= 1) {
    out = make(format_id::kPerfScript, "perf script output (" + std::to_string(perf_headers) + " sample headers, " +
                                           std::to_string(perf_frames) + " stack frame lines)",
               {{"tool", "perf"}});
    return true;
  }
  if (bpf_attach > 0 || (bpf >= 2 && bpf >= bcc)) {
    out = make(format_id::kBpftraceText,
               bpf_attach ? "bpftrace text output (\"Attaching N probes\" header)"
                          : "bpftrace text output (" + std::to_string(bpf) + " map/histogram lines)",
               {{"tool", "bpftrace"}});
    return true;
  }
  if (bcc > 0) {
    out = make(format_id::kBccOutput, "BCC tool output (" + bcc_tool + " header)", {{"tool", bcc_tool}});
    return true;
  }
  if (dtrace > 0) {
    out = make(format_id::kBpftraceText, "DTrace aggregation output", {{"tool", "dtrace"}});
    return true;
  }
  // Most lines "a;b;c N" (a damaged file still identifies; its bad lines become parse errors).
  if (folded >= 1 && ((folded * 2 >= nonblank && (folded_semis > 0 || folded == nonblank)) ||
                      (folded_semis > 0 && semi_lines * 10 >= nonblank * 9))) {
    out = make(format_id::kFoldedStacks, "folded stacks (" + std::to_string(folded) + " \"frame;frame count\" lines)");
    return true;
  }
  if (dtrace_stack >= 3) {
    out = make(format_id::kFoldedStacks, "DTrace stack aggregation (module`function+offset frames)", {{"tool", "dtrace"}});
    return true;
  }
  return false;
}

}  // namespace

const char* const* all_format_ids(size_t* count) {
  *count = sizeof(kAllIds) / sizeof(kAllIds[0]);
  return kAllIds;
}

bool is_known_format(std::string_view id) {
  for (const char* k : kAllIds)
    if (id == k) return true;
  return false;
}

Identification identify(std::string_view head, bool complete) {
  Identification out;
  if (head.empty()) {
    out.reason = "empty input (0 bytes)";
    return out;
  }
  const auto* b = reinterpret_cast<const unsigned char*>(head.data());
  if (head.size() >= 2 && b[0] == 0x1f && b[1] == 0x8b) {
    out.reason = "gzip data nested where decoded text was expected";
    return out;
  }
  if (probe_marshal(head, out) || probe_rbkit(head, out)) return out;
  if (head.size() >= 2 && (b[0] == 4 || b[0] == 3) && b[1] <= 12) {
    out.reason = "Ruby Marshal stream, but without stackprof's :mode/:frames keys";
    return out;
  }
  std::string_view text_head = head;
  if (starts_with(text_head, "\xEF\xBB\xBF")) text_head.remove_prefix(3);
  // Binary data that is none of the binary formats above.
  size_t control = 0, probe_len = std::min<size_t>(text_head.size(), 4096);
  for (size_t i = 0; i < probe_len; ++i) {
    unsigned char c = static_cast<unsigned char>(text_head[i]);
    if (c < 9 || (c > 13 && c < 32)) ++control;
  }
  if (control * 20 > probe_len) {
    out.reason = "binary data (" + std::to_string(control) + " control bytes in the first " + std::to_string(probe_len) +
                 ") that is neither a Ruby Marshal dump nor an rbkit msgpack capture";
    return out;
  }
  auto lines = head_lines(text_head, complete, 2000);
  // One line longer than the head (some legacy logs have no newlines between records): probe it.
  if (lines.empty()) lines.push_back(text_head);
  size_t first = text::skip_ws(text_head, 0);
  if (first < text_head.size() && text_head[first] == '[' && probe_tunemygc(text_head, first, out)) return out;
  if (first < text_head.size() && text_head[first] == '{' && probe_json_object(text_head, lines, out)) return out;
  // A JSON object wrapping TuneMyGC header/samples (e.g. {"header": [...], "samples": [...]}): the tuner
  // rejects it with "payload must be a JSON array". An object without event names stays unrecognized.
  if (first < text_head.size() && text_head[first] == '{' && has_tunemygc_events(text_head) &&
      (contains(text_head, "\"heap_live_slot") || contains(text_head, "\"total_allocated_object") || contains(text_head, "RUBY_GC_"))) {
    out = make(format_id::kTuneMyGc, "JSON object holding TuneMyGC header and samples (the protocol needs an array)",
               {{"malformed", true}});
    return out;
  }
  if (probe_jvm(text_head, lines, out)) return out;
  // `bpftrace -l` and `tplist` listings: every line a probe, read by the tools' output analyzers.
  if (tracing::looks_like_probe_listing(text_head, "bpftrace"))
    return make(format_id::kBpftraceText, "probe listing of bpftrace -l (one probe per line)",
                {{"tool", "bpftrace"}, {"listing", true}});
  if (tracing::looks_like_probe_listing(text_head, "tplist"))
    return make(format_id::kBccOutput, "probe listing of BCC's tplist (one probe per line)",
                {{"tool", "tplist"}, {"listing", true}});
  if (probe_tracing(lines, out)) return out;
  out = Identification{};
  if (first < text_head.size() && (text_head[first] == '{' || text_head[first] == '['))
    out.reason = "JSON, but not a stackprof profile, heap dump, bpftrace -f json stream or TuneMyGC payload";
  else if (java_stack_frame(lines) || contains(text_head, "Full thread dump"))
    // Java application output (stack traces, a thread dump) with no GC record in the head. GC logs are often
    // written to a service's stdout among its own lines: the JVM analyzer reads the GC lines in it and
    // counts every other line as not GC output (its report's unparsed lines).
    return make(format_id::kJvmGcLog,
                "Java application output (stack traces or a thread dump) with no GC record in the first " +
                    std::to_string(text_head.size()) + " bytes: its GC lines are analyzed, the others counted",
                {{"unified", nullptr}, {"collector", nullptr}, {"application_output", true}});
  else if (first < text_head.size() && text_head[first] == '<')
    out.reason = "looks like HTML/XML, not the output of a supported tool";
  else
    out.reason = "text matching none of: JVM GC log (unified or legacy), bpftrace/BCC/perf output, folded stacks";
  return out;
}

}  // namespace gcscope
