#include "tracing/probe.h"

#include <cctype>
#include <cstring>
#include <string>

#include "core/text_scan.h"
#include "tracing/probe_listing.h"

namespace gcscope::tracing {

namespace {

using text::contains;
using text::starts_with;

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
  std::string_view ts =
      line.substr(sp == std::string_view::npos ? 0 : sp + 1, colon - (sp == std::string_view::npos ? 0 : sp + 1));
  size_t dot = ts.find('.');
  return dot != std::string_view::npos && dot > 0 && is_uint(ts.substr(0, dot)) && is_uint(ts.substr(dot + 1));
}

// bpftrace map line "@name[key]: value" / "@name: value" / "@name:" (histogram follows).
bool bpftrace_map_line(std::string_view line) {
  if (line.size() < 2 || line[0] != '@') return false;
  size_t i = 1;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
  if (i < line.size() && line[i] == '[')
    return line.find("]: ") != std::string_view::npos || text::ends_with(line, "]:");
  return i < line.size() && line[i] == ':';
}

// bpftrace histogram row "[4, 8)   12 |@@@@   |" or "[0]  1 |@|" or "(..., 0)  1 |@|".
bool bpftrace_hist_row(std::string_view line) {
  if (line.empty() || (line[0] != '[' && line[0] != '(')) return false;
  size_t bar = line.find('|');
  return bar != std::string_view::npos && line.back() == '|' && (line.find(')') < bar || line.find(']') < bar);
}

// What the text probes weigh: counts of each tool's kind of line in the head.
struct Tally {
  int perf_headers = 0, perf_frames = 0, folded = 0, folded_semis = 0, semi_lines = 0, nonblank = 0;
  int bpf = 0, bpf_attach = 0, bcc = 0, dtrace = 0, dtrace_stack = 0;
  std::string bcc_tool;
};

struct BccSig {
  const char* text;
  const char* tool;
};
constexpr BccSig kBcc[] = {{"Tracing calls in process", "ucalls"},
                           {"Tracing method calls in", "uflow"},
                           {"Tracing garbage collections in", "ugc"},
                           {"Tracing allocations in process", "uobjnew"},
                           {"METHOD", "ucalls"},
                           {"NAME/TYPE", "uobjnew"},
                           {"TYPE", "uobjnew"},
                           {"PID    CMDLINE", "ustat"},
                           {"Sampling at ", "profile"},
                           {"START    TIME (us) DESCRIPTION", "ugc"},
                           {"CPU PID", "uflow"},
                           {"nsecs ", "log2hist"},
                           {"usecs ", "log2hist"},
                           {"msecs ", "log2hist"},
                           {"Tracing ", "stackcount"}};

// A BCC tool's header line; the tool it names goes to t.bcc_tool (a histogram header only when no
// tool header was seen).
void count_bcc(std::string_view line, Tally& t) {
  for (const auto& sig : kBcc) {
    if (!starts_with(line, sig.text)) continue;
    bool tabular = std::strcmp(sig.text, "METHOD") == 0 || std::strcmp(sig.text, "TYPE") == 0 ||
                   std::strcmp(sig.text, "NAME/TYPE") == 0;
    if (tabular && !(contains(line, "# CALLS") || contains(line, "# ALLOCS") || contains(line, "LAT"))) continue;
    if (std::strcmp(sig.text, "Tracing ") == 0 && !contains(line, " functions for ")) continue;
    bool hist = std::strcmp(sig.tool, "log2hist") == 0;
    if (hist && !(contains(line, ": count") && contains(line, "distribution"))) continue;
    ++t.bcc;
    if (t.bcc_tool.empty() || (t.bcc_tool == "log2hist" && !hist)) t.bcc_tool = sig.tool;
  }
}

Tally tally(const Head& head) {
  Tally t;
  for (auto line : head.lines()) {
    if (text::trim(line).empty()) continue;
    ++t.nonblank;
    if (perf_frame(line)) ++t.perf_frames;
    else if (perf_header(line)) ++t.perf_headers;
    if (line.find(';') != std::string_view::npos && line[0] != '@' && line[0] != '[') ++t.semi_lines;
    if (folded_line(line)) {
      ++t.folded;
      if (line.find(';') != std::string_view::npos) ++t.folded_semis;
    }
    if (starts_with(line, "Attaching ") && contains(line, " probe")) ++t.bpf_attach;
    if (starts_with(line, "Attached ") && contains(line, " probe")) ++t.bpf_attach;
    if (bpftrace_map_line(line) || bpftrace_hist_row(line)) ++t.bpf;
    if (starts_with(line, "hh:mm:ss")) t.bpf += 2;  // tseries() printout
    if ((starts_with(line, "# ./") && contains(line, ".bt")) || starts_with(line, "# bpftrace ") ||
        starts_with(line, "bpftrace -e ") || starts_with(line, "# bpftrace -e"))
      ++t.bpf_attach;
    if (starts_with(line, "# ") && text::ends_with(text::trim_right(line), ".d")) ++t.dtrace;
    std::string_view trimmed = text::trim_left(line);
    count_bcc(trimmed, t);
    if (contains(trimmed, "------------- Distribution -------------")) ++t.dtrace;
    if (contains(trimmed, "`") && contains(trimmed, "+0x")) ++t.dtrace_stack;
  }
  return t;
}

const Tally& tally_of(const Head& head) { return head.memo(tally); }

// bpftrace -f json record kinds: {"type": "<kind>", "data": ...}
constexpr const char* kBpfKinds[] = {"attached_probes", "map",  "hist",         "stats", "printf",  "time", "lhist",
                                     "value",           "join", "helper_error", "print", "syscall", "cat",  "tseries"};

}  // namespace

bool probe_bpftrace_json(const Head& head, Identification& out) {
  if (head.first_char() != '{') return false;
  std::string_view r = head.first_record();
  if (!contains(r, "\"type\"") || !contains(r, "\"data\"")) return false;
  for (const char* k : kBpfKinds) {
    std::string needle = std::string("\"") + k + "\"";
    size_t t = r.find("\"type\"");
    size_t v = r.find(needle, t + 6);
    if (v != std::string_view::npos && v < t + 6 + 4 + needle.size() + 2) {
      out.reason = std::string("JSON lines of bpftrace -f json (first record type \"") + k + "\")";
      out.details = {{"tool", "bpftrace"}};
      return true;
    }
  }
  return false;
}

bool probe_perf_script(const Head& head, Identification& out) {
  const Tally& t = tally_of(head);
  if (t.nonblank == 0 || t.perf_frames < 2 || t.perf_headers < 1) return false;
  out.reason = "perf script output (" + std::to_string(t.perf_headers) + " sample headers, " +
               std::to_string(t.perf_frames) + " stack frame lines)";
  out.details = {{"tool", "perf"}};
  return true;
}

bool probe_bpftrace_listing(const Head& head, Identification& out) {
  if (!looks_like_probe_listing(head.text(), "bpftrace")) return false;
  out.reason = "probe listing of bpftrace -l (one probe per line)";
  out.details = {{"tool", "bpftrace"}, {"listing", true}};
  return true;
}

bool probe_tplist_listing(const Head& head, Identification& out) {
  if (!looks_like_probe_listing(head.text(), "tplist")) return false;
  out.reason = "probe listing of BCC's tplist (one probe per line)";
  out.details = {{"tool", "tplist"}, {"listing", true}};
  return true;
}

bool probe_bpftrace_text(const Head& head, Identification& out) {
  const Tally& t = tally_of(head);
  if (t.nonblank == 0 || !(t.bpf_attach > 0 || (t.bpf >= 2 && t.bpf >= t.bcc))) return false;
  out.reason = t.bpf_attach ? "bpftrace text output (\"Attaching N probes\" header)"
                            : "bpftrace text output (" + std::to_string(t.bpf) + " map/histogram lines)";
  out.details = {{"tool", "bpftrace"}};
  return true;
}

bool probe_bcc_output(const Head& head, Identification& out) {
  const Tally& t = tally_of(head);
  if (t.bcc == 0) return false;
  out.reason = "BCC tool output (" + t.bcc_tool + " header)";
  out.details = {{"tool", t.bcc_tool}};
  return true;
}

bool probe_dtrace_aggregation(const Head& head, Identification& out) {
  if (tally_of(head).dtrace == 0) return false;
  out.reason = "DTrace aggregation output";
  out.details = {{"tool", "dtrace"}};
  return true;
}

// Most lines "a;b;c N" (a damaged file still identifies; its bad lines become parse errors).
bool probe_folded_stacks(const Head& head, Identification& out) {
  const Tally& t = tally_of(head);
  if (!(t.folded >= 1 && ((t.folded * 2 >= t.nonblank && (t.folded_semis > 0 || t.folded == t.nonblank)) ||
                          (t.folded_semis > 0 && t.semi_lines * 10 >= t.nonblank * 9))))
    return false;
  out.reason = "folded stacks (" + std::to_string(t.folded) + " \"frame;frame count\" lines)";
  return true;
}

bool probe_dtrace_stacks(const Head& head, Identification& out) {
  if (tally_of(head).dtrace_stack < 3) return false;
  out.reason = "DTrace stack aggregation (module`function+offset frames)";
  out.details = {{"tool", "dtrace"}};
  return true;
}

}  // namespace gcscope::tracing
