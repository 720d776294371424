// The seam between the shared core and the domains (jvm, rubygc, stackprof, heap, rbkit, tracing).
// Like an importer in a trace processor: the core finds out what each member of an input set is and
// streams its decoded bytes to the Analyzer registered for that format; the analyzer fills its part
// of the report. Analyzers never see compression, archives or chunk sizes.
#pragma once
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.h"
#include "tables.h"
#include "identify.h"

namespace gcscope {

class Analyzer {
 public:
  virtual ~Analyzer() = default;

  // One member (a file, or a file inside an archive) starts. Formats that accept several members
  // (rotating logs, several profiles to sum, dumps to diff) see several begin/end pairs.
  // identification() already holds what core's identification found in this member.
  virtual void begin_member(const std::string& path) { current_path_ = path; }
  // Decoded bytes of the current member, in order, cut at arbitrary places.
  virtual void feed(const char* data, size_t len) = 0;
  virtual void end_member() {}
  // Writes the domain's fields into `report` (which already has "format", "inputs" and
  // "identification"). Must not throw for bad input: complaints go to diagnostics().
  virtual void finish(nlohmann::json& report) = 0;
  // Following an input that grows (InputSet option "follow"): true when snapshot() can write the
  // report of the bytes fed so far, up to the last complete line, and more bytes may follow; the
  // questions then answer from the latest snapshot.
  virtual bool follows() const { return false; }
  virtual void snapshot(nlohmann::json& report) { finish(report); }
  // After finish(): answers one method of the query protocol (core/query.h) from what the analyzer
  // kept. Throws QueryError for an unknown method or bad arguments; never for anything in the input.
  // "compare.side" (formats with a compare function) returns what FormatHandler::compare reads of
  // this side; by default the session answers it with the report finish() wrote.
  virtual nlohmann::json query(const std::string& method, const nlohmann::json& args);
  // After finish(): builds what makes later questions fast (an index), so that the first of them
  // does not pay for it. The worker calls it once the report is out; a question does the same work
  // on demand when it was not called.
  virtual void prepare() {}
  // After finish(): the tables this analyzer exposes (core/tables.h, docs/TABLES.md), and the rows
  // of one of them written into `sink` (rows only: the caller calls begin and end); false when it
  // has no table of that name.
  virtual std::vector<tables::Schema> tables() const { return {}; }
  virtual bool write_table(const std::string& name, tables::RowSink& sink) {
    (void)name, (void)sink;
    return false;
  }
  // After finish(): true when nothing usable was read (every member was refused, its errors say
  // why). The set then has no report of this format, so a set of such inputs exits 3.
  virtual bool rejected() const { return false; }

  void attach(Diagnostics* diagnostics) { diagnostics_ = diagnostics; }
  // Called by the core before each begin_member().
  void set_identification(const Identification& identification) { identification_ = identification; }

 protected:
  // The current member's identification: its probe's evidence and details (e.g. {"unified": true}
  // for a JVM log, {"encoding": "marshal"} for stackprof), so analyzers never sniff the head again.
  // With a forced format (--format) the details are what that format's own probes found, possibly
  // nothing.
  const Identification& identification() const { return identification_; }
  Diagnostics& diagnostics() { return *diagnostics_; }
  const std::string& current_path() const { return current_path_; }
  void error(int64_t line, int64_t offset, std::string message) {
    diagnostics_->error(current_path_, line, offset, std::move(message));
  }
  void warning(int64_t line, int64_t offset, std::string message) {
    diagnostics_->warning(current_path_, line, offset, std::move(message));
  }

 private:
  Diagnostics* diagnostics_ = nullptr;
  std::string current_path_;
  Identification identification_;
};

// Options of one analysis (CLI flags / page settings), passed to every factory.
using AnalyzeOptions = nlohmann::json;

// The two sides of a comparison, each its analyzer's "compare.side" answer, compared: the result of
// `gcscope compare` and of the page's compare (one implementation for both).
using CompareFunction = std::function<nlohmann::json(const nlohmann::json& side_a, const nlohmann::json& side_b)>;
// Several reports of one compare family in one analysis (a set of captures on one side) summed into
// one side, as one report of them all would have given: each is its analyzer's "compare.side" answer
// (its report by default) with, when the analyzer answers "compare.parts", that answer as "parts".
using SumSidesFunction = std::function<nlohmann::json(const std::vector<nlohmann::json>& sides)>;

// One format, registered by its domain folder (wasm/<domain>/register.cpp): everything the
// product knows about it outside that folder comes from here.
struct FormatHandler {
  std::string id;
  bool accepts_many_members = false;  // one analyzer for all members of this format in the set
  std::function<std::unique_ptr<Analyzer>(const AnalyzeOptions&)> make;
  std::string title;                      // what the page and `gcscope formats` call it
  std::vector<std::string> methods = {};  // the query methods its analyzer answers (besides compare.side)
  // Formats of one compare family compare with each other (all tracing formats are one); empty when
  // the format has no comparison.
  std::string compare_family = {};
  CompareFunction compare = {};
  // Set when a side may hold several reports of the family (formats read one report per file): the
  // sum of a set's reports. Without it, a set with several is compared by its first and says so.
  SumSidesFunction sum_sides = {};
  // Peak memory per byte of input (measured; BENCHMARKS.md): the page refuses up front an input
  // that cannot fit in WebAssembly's 4 GB instead of failing after reading it. `lighter`, when the
  // format has a cheaper mode: {"options": {...}, "memory_per_input_byte": x, "what": "..."}.
  double memory_per_input_byte = 0;
  nlohmann::json lighter = {};
  std::vector<Probe> probes = {};  // how identification recognizes it (core/identify.h)
  std::string domain = {};         // set by the registry: the folder that registered it
};

class FormatRegistry {
 public:
  FormatRegistry();  // with core's own probes only (empty input, binary and JSON gates)
  void add(FormatHandler handler);
  // Runs register_fn, marking what it adds as the formats of domain `name`.
  void add_domain(const std::string& name, void (*register_fn)(FormatRegistry&));
  const FormatHandler* find(std::string_view id) const;
  const std::vector<FormatHandler>& handlers() const { return handlers_; }

  // What the head is: the first probe, by rank, that decides; unrecognized with a reason otherwise.
  Identification identify(std::string_view head, bool complete) const;
  // What `format`'s own probes find in the head (for a forced format): their details, or an
  // identification with no details when none decides.
  Identification identify_as(const FormatHandler& format, std::string_view head, bool complete) const;

  // [{id, title, domain, accepts_many_members, methods, compare_family, memory_per_input_byte,
  // lighter}]: what `gcscope formats` prints and Embind formats() gives the page.
  nlohmann::json describe() const;
  // "" when `id` is registered, else the message that names the registered formats.
  std::string unknown_format_message(std::string_view id) const;

  // The product's registry: every domain folder's register.cpp, found by the build.
  static const FormatRegistry& builtin();

 private:
  // Core's own probes refuse what no format may take; they read the registry for their reasons.
  struct CoreProbe {
    int rank;
    bool (*decide)(const FormatRegistry&, const Head&, Identification&);
  };
  struct RankedProbe {
    int rank;
    size_t handler;  // index into handlers_, or kCoreProbe for core_probes_
    size_t probe;    // index into that one's probes
  };
  static constexpr size_t kCoreProbe = static_cast<size_t>(-1);
  void rank_probes();
  bool run(const RankedProbe& p, const Head& head, Identification& out) const;
  std::vector<FormatHandler> handlers_;
  std::vector<CoreProbe> core_probes_;
  std::vector<RankedProbe> ranked_;
  std::string domain_;
};

// Calls add_domain for every wasm/<domain>/register.cpp, which defines register_<domain>(); the
// build writes this function from the folders it finds.
void register_builtin_domains(FormatRegistry&);

}  // namespace gcscope
