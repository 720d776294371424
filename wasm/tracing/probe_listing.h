// Probe listings: what `bpftrace -l` and BCC's `tplist` print, one probe per line, so that a listing
// dropped on the page shows what can be traced and feeds the capture-recipe builder.
//
//   bpftrace -l:        usdt:/usr/lib/libruby.so.3.1:ruby:method__entry      (TYPE:[TARGET:]...NAME)
//                       tracepoint:syscalls:sys_enter_read, kprobe:do_sys_open
//   tplist:             /usr/lib/libruby.so.3.1 ruby:method__entry          (BINARY PROVIDER:NAME)
//   tplist -v:          ruby:method__entry [sema 0x3af27c]                   (then "  N location(s)",
//                                                                             "  N argument(s)")
// With -p PID both print binaries under /proc/PID/root; the pid is kept apart.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace gcscope::tracing {

struct ListedProbe {
  std::string type = "usdt";  // bpftrace's probe type; tplist lists USDT probes only
  std::string binary;         // the ELF file (without /proc/PID/root), "" when the line names none
  std::string provider;       // USDT provider, tracepoint category; "" for kprobes and the like
  std::string name;
  int64_t pid = -1;                        // from a /proc/PID/root/ path
  int64_t locations = -1, arguments = -1;  // tplist -v
  std::string semaphore;                   // tplist -v: "0x3af27c"
  uint64_t line = 0;
};

class ProbeListing {
 public:
  // A line of `bpftrace -l` output: taken (true) or not one.
  bool take_bpftrace_line(std::string_view line, uint64_t n);
  // A line of `tplist` output (with or without -v): taken (true) or not one.
  bool take_tplist_line(std::string_view line, uint64_t n);
  bool empty() const { return probes_.empty(); }
  size_t size() const { return probes_.size(); }
  // "probes": [{type, provider, name, probe ("provider:name"), binary?, pid?, locations?, arguments?,
  // semaphore?, line}] in input order, in place of the probes a capture names (a listing names none),
  // and "listing": {tool, probes} saying the input lists probes rather than holding a capture.
  void write(nlohmann::json& report, const char* tool) const;

 private:
  std::vector<ListedProbe> probes_;
};

// Whether a head of text reads as a probe listing: at least `min_lines` lines, each one a listing line
// of the given tool ("bpftrace" or "tplist"). For identification.
bool looks_like_probe_listing(std::string_view head, const char* tool, size_t min_lines = 2);

}  // namespace gcscope::tracing
