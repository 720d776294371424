// stackprof 0.2.21's CLI reports (lib/stackprof/report.rb), byte for byte, over a Profile.
// Where stackprof's order is unspecified (Ruby's unstable sort_by on equal counts) we break ties
// by the order frames have in the dump. Differences on purpose: --stackcollapse is linear (stackprof's
// is quadratic) and works on sums; a frame id missing from frames prints as "(unknown frame ID)"
// instead of raising.
#pragma once
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "profile.h"

namespace gcscope::stackprof {

// Report output: into a string (tests, the worker) or a FILE* in 1 MiB blocks (the CLI).
class Out {
 public:
  explicit Out(std::string* s) : s_(s) {}
  explicit Out(std::FILE* f) : f_(f) { s_ = &buf_; }
  ~Out() { flush(); }
  Out(const Out&) = delete;
  Out& operator=(const Out&) = delete;
  void put(std::string_view v) {
    s_->append(v.data(), v.size());
    if (f_ && s_->size() > (1u << 20)) flush();
  }
  void put(char c) { s_->push_back(c); }
  void printf(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
  void flush() {
    if (f_ && !buf_.empty()) {
      std::fwrite(buf_.data(), 1, buf_.size(), f_);
      buf_.clear();
    }
  }

 private:
  std::string* s_ = nullptr;
  std::FILE* f_ = nullptr;
  std::string buf_;
};

// Frame indices in stackprof's report order: by self samples (or total) descending, ties in dump
// order; placeholder frames (ids only raw knows) are left out like stackprof's frames hash.
std::vector<uint32_t> sorted_frames(const Profile& p, bool by_total);

// stackprof's --select-files/--reject-files (path prefixes, already File.expand_path'ed) and
// --select-names/--reject-names (Ruby regexps, unanchored) for --text.
struct TextFilters {
  std::vector<std::string> select_files, reject_files, select_names, reject_names;
};
void print_text(const Profile& p, Out& out, bool sort_total = false, long limit = 30,
                const TextFilters* filters = nullptr);
// The frames --text lists, in its order, after the filters (checked with check_filters first).
std::vector<uint32_t> text_rows(const Profile& p, bool sort_total, const TextFilters* filters);
// Compiles the filters' regexps; false with `error` for one that does not compile.
bool check_filters(const TextFilters& f, std::string& error);
void print_files(const Profile& p, Out& out, long limit = 30);
void print_graphviz(const Profile& p, Out& out, long limit = 120, double node_fraction = 0.005);
void print_callgrind(const Profile& p, Out& out);
// False (prints nothing) without raw samples; `error` then holds stackprof's message.
bool print_stackcollapse(const Profile& p, Out& out, std::string& error);

// Source lines of a file as File.readlines gives them (each with its "\n"); false = unavailable.
using SourceProvider = std::function<bool(const std::string& file, std::vector<std::string>& lines)>;
// --method RE: RE is a Ruby regexp, matched unanchored against frame names. Returns false with
// `error` when RE does not compile. Matching uses std::regex (ECMAScript after mapping Ruby's \A \z
// \Z \h): it runs once per frame name, never on a hot path.
bool print_method(const Profile& p, Out& out, const std::string& regex, const SourceProvider& sources,
                  std::string& error);

// What --method shows of one frame: callers (caller frame, edge weight) and callees as it sorts
// them, the per-line samples, and the source range it prints (1-based lines line..maxline+1).
using CallerIndex = std::vector<std::vector<std::pair<uint32_t, int64_t>>>;
CallerIndex caller_index(const Profile& p);
struct MethodStats {
  uint32_t frame = 0;
  int64_t line = 1, maxline = 6;
  std::vector<std::pair<uint32_t, int64_t>> callers;
  bool has_callees = false;
  std::vector<std::pair<uint32_t, int64_t>> callees;  // callee kNoFrame: an edge to a frame not in frames
  std::vector<LineStat> lines;
};
MethodStats method_stats(const Profile& p, uint32_t idx, const CallerIndex& callers);

// --file FILTER: every file whose path contains FILTER (a literal), its source annotated with the
// per-line samples of all its frames summed, files by self samples descending.
void print_file(const Profile& p, Out& out, const std::string& filter, const SourceProvider& sources);

// --flamegraph (= --timeline-flamegraph: samples in raw order) and --alphabetical-flamegraph:
// stackprof's `flamegraph([...])` rows. False without raw samples, with stackprof's message.
bool print_flamegraph(const Profile& p, Out& out, bool alphabetical, std::string& error);

// Ruby's String#dump of a UTF-8 string (the quoting --flamegraph uses).
std::string ruby_dump(std::string_view s);

// --json: JSON.generate of the data as Ruby would (keys in stream order, Float#to_s numbers).
// False when a string is not valid UTF-8 (Ruby's generator raises there too).
bool print_json(const Profile& p, Out& out, std::string& error);

// Per-file sums of line totals/self as --files computes them, in stackprof's order.
struct FileSum {
  std::string file;
  int64_t total = 0, self = 0;
};
std::vector<FileSum> file_sums(const Profile& p);

}  // namespace gcscope::stackprof
