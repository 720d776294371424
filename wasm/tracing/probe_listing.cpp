#include "tracing/probe_listing.h"

#include <cctype>

namespace gcscope::tracing {

namespace {

// bpftrace's probe types that `bpftrace -l` lists.
constexpr std::string_view kBpftraceTypes[] = {"usdt",   "uprobe",    "uretprobe", "tracepoint", "rawtracepoint",
                                               "kprobe", "kretprobe", "kfunc",     "kretfunc",   "fentry",
                                               "fexit",  "software",  "hardware",  "iter",       "watchpoint"};

bool is_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '*')) return false;
  return true;
}

bool has_space(std::string_view s) {
  for (char c : s)
    if (c == ' ' || c == '\t') return true;
  return false;
}

// "/proc/1234/root/usr/lib/x.so" → pid 1234, "/usr/lib/x.so".
void split_pid(std::string_view path, ListedProbe& p) {
  constexpr std::string_view kProc = "/proc/";
  p.binary = std::string(path);
  if (path.substr(0, kProc.size()) != kProc) return;
  size_t slash = path.find('/', kProc.size());
  std::string_view digits = path.substr(kProc.size(), slash == std::string_view::npos ? 0 : slash - kProc.size());
  if (digits.empty() || digits.size() > 9) return;
  int64_t pid = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return;
    pid = pid * 10 + (c - '0');
  }
  std::string_view rest = path.substr(slash);
  constexpr std::string_view kRoot = "/root/";
  if (rest.substr(0, kRoot.size()) != kRoot) return;
  p.pid = pid;
  p.binary = std::string(rest.substr(kRoot.size() - 1));
}

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
  return s;
}

// "provider:name" → both parts; false unless both are identifiers.
bool split_probe(std::string_view s, ListedProbe& p) {
  size_t colon = s.find(':');
  if (colon == std::string_view::npos || s.find(':', colon + 1) != std::string_view::npos) return false;
  if (!is_identifier(s.substr(0, colon)) || !is_identifier(s.substr(colon + 1))) return false;
  p.provider = std::string(s.substr(0, colon));
  p.name = std::string(s.substr(colon + 1));
  return true;
}

// A `bpftrace -l` line, parsed into p.
bool parse_bpftrace(std::string_view line, ListedProbe& p) {
  line = trim_right(line);
  if (line.empty() || has_space(line)) return false;
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view type = line.substr(0, colon);
  bool known = false;
  for (auto t : kBpftraceTypes) known = known || t == type;
  if (!known) return false;
  p.type = std::string(type);
  std::string_view rest = line.substr(colon + 1);
  if (type == "usdt" || type == "uprobe" || type == "uretprobe") {
    // TARGET:[PROVIDER:]NAME; the target is a path (it may hold colons only in odd file names).
    size_t last = rest.rfind(':');
    if (last == std::string_view::npos || last == 0) return false;
    p.name = std::string(rest.substr(last + 1));
    std::string_view target = rest.substr(0, last);
    if (type == "usdt") {
      size_t prov = target.rfind(':');
      if (prov == std::string_view::npos) return false;
      p.provider = std::string(target.substr(prov + 1));
      target = target.substr(0, prov);
    }
    split_pid(target, p);
    return !p.name.empty() && !p.binary.empty();
  }
  size_t sep = rest.find(':');
  if (sep == std::string_view::npos) {
    p.name = std::string(rest);
  } else {
    p.provider = std::string(rest.substr(0, sep));
    p.name = std::string(rest.substr(sep + 1));
  }
  return !p.name.empty();
}

// "  4 location(s)" / "  3 argument(s)" → the count and which.
bool parse_tplist_detail(std::string_view line, int64_t& count, bool& locations) {
  if (line.size() < 3 || line[0] != ' ') return false;
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  int64_t n = 0;
  size_t digits = 0;
  while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) && digits < 9)
    n = n * 10 + (line[i++] - '0'), ++digits;
  if (!digits) return false;
  std::string_view rest = line.substr(i);
  if (rest == " location(s)") locations = true;
  else if (rest == " argument(s)") locations = false;
  else return false;
  count = n;
  return true;
}

// A tplist probe line: "BINARY PROVIDER:NAME" or "PROVIDER:NAME [sema 0x..]".
bool parse_tplist(std::string_view line, ListedProbe& p) {
  constexpr std::string_view kSema = " [sema ";
  size_t sema = line.find(kSema);
  if (sema != std::string_view::npos) {
    std::string_view tail = line.substr(sema + kSema.size());
    if (tail.empty() || tail.back() != ']') return false;
    p.semaphore = std::string(tail.substr(0, tail.size() - 1));
    line = line.substr(0, sema);
  }
  size_t space = line.find(' ');
  if (space == std::string_view::npos) return split_probe(line, p);
  std::string_view binary = line.substr(0, space);
  if (binary.empty() || binary[0] != '/' || has_space(line.substr(space + 1))) return false;
  if (!split_probe(line.substr(space + 1), p)) return false;
  split_pid(binary, p);
  return true;
}

}  // namespace

bool ProbeListing::take_bpftrace_line(std::string_view line, uint64_t n) {
  ListedProbe p;
  if (!parse_bpftrace(line, p)) return false;
  p.line = n;
  probes_.push_back(std::move(p));
  return true;
}

bool ProbeListing::take_tplist_line(std::string_view line, uint64_t n) {
  line = trim_right(line);
  int64_t count = 0;
  bool locations = false;
  if (parse_tplist_detail(line, count, locations)) {
    if (probes_.empty()) return false;
    (locations ? probes_.back().locations : probes_.back().arguments) = count;
    return true;
  }
  ListedProbe p;
  if (!parse_tplist(line, p)) return false;
  p.line = n;
  probes_.push_back(std::move(p));
  return true;
}

void ProbeListing::write(nlohmann::json& report, const char* tool) const {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& p : probes_) {
    nlohmann::json j = {{"type", p.type},
                        {"provider", p.provider},
                        {"name", p.name},
                        {"line", p.line},
                        {"probe", p.provider.empty() ? p.name : p.provider + ":" + p.name}};
    if (!p.binary.empty()) j["binary"] = p.binary;
    if (p.pid >= 0) j["pid"] = p.pid;
    if (p.locations >= 0) j["locations"] = p.locations;
    if (p.arguments >= 0) j["arguments"] = p.arguments;
    if (!p.semaphore.empty()) j["semaphore"] = p.semaphore;
    list.push_back(std::move(j));
  }
  report["listing"] = {{"tool", tool}, {"probes", probes_.size()}};
  report["probes"] = std::move(list);
}

bool looks_like_probe_listing(std::string_view head, const char* tool, size_t min_lines) {
  bool bpftrace = std::string_view(tool) == "bpftrace";
  ProbeListing listing;
  size_t lines = 0, start = 0;
  while (start < head.size()) {
    size_t end = head.find('\n', start);
    if (end == std::string_view::npos) break;  // the last, possibly cut, line is not judged
    std::string_view line = head.substr(start, end - start);
    start = end + 1;
    if (trim_right(line).empty()) continue;
    bool taken = bpftrace ? listing.take_bpftrace_line(line, 0) : listing.take_tplist_line(line, 0);
    if (!taken) return false;
    ++lines;
  }
  return lines >= min_lines && !listing.empty();
}

}  // namespace gcscope::tracing
