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

namespace gcscope {

class Analyzer {
 public:
  virtual ~Analyzer() = default;

  // One member (a file, or a file inside an archive) starts. Formats that accept several members
  // (rotating logs, several profiles to sum, dumps to diff) see several begin/end pairs.
  virtual void begin_member(const std::string& path) { current_path_ = path; }
  // Decoded bytes of the current member, in order, cut at arbitrary places.
  virtual void feed(const char* data, size_t len) = 0;
  virtual void end_member() {}
  // Writes the domain's fields into `report` (which already has "format", "inputs" and
  // "identification"). Must not throw for bad input: complaints go to diagnostics().
  virtual void finish(nlohmann::json& report) = 0;
  // After finish(): answers one method of the query protocol (core/query.h) from what the analyzer
  // kept. Throws QueryError for an unknown method or bad arguments; never for anything in the input.
  // "compare.side" (formats with a compare function) returns what FormatHandler::compare reads of
  // this side; by default the session answers it with the report finish() wrote.
  virtual nlohmann::json query(const std::string& method, const nlohmann::json& args);
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

 protected:
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
};

// Options of one analysis (CLI flags / page settings), passed to every factory.
using AnalyzeOptions = nlohmann::json;

// The two sides of a comparison, each its analyzer's "compare.side" answer, compared: the result of
// `gcscope compare` and of the page's compare (one implementation for both).
using CompareFunction = std::function<nlohmann::json(const nlohmann::json& side_a, const nlohmann::json& side_b)>;

struct FormatHandler {
  std::string id;
  bool accepts_many_members = false;  // one analyzer for all members of this format in the set
  std::function<std::unique_ptr<Analyzer>(const AnalyzeOptions&)> make;
  std::string title;                  // what the page and `gcscope formats` call it
  std::vector<std::string> methods;   // the query methods its analyzer answers (besides compare.side)
  // Formats of one compare family compare with each other (all tracing formats are one); empty when
  // the format has no comparison.
  std::string compare_family;
  CompareFunction compare;
  // Peak memory per byte of input (measured; BENCHMARKS.md): the page refuses up front an input
  // that cannot fit in WebAssembly's 4 GB instead of failing after reading it. `lighter`, when the
  // format has a cheaper mode: {"options": {...}, "memory_per_input_byte": x, "what": "..."}.
  double memory_per_input_byte = 0;
  nlohmann::json lighter;
};

class FormatRegistry {
 public:
  void add(FormatHandler handler);
  const FormatHandler* find(std::string_view id) const;
  const std::vector<FormatHandler>& handlers() const { return handlers_; }
  // The product's registry: every domain's register_*() below, called once.
  static const FormatRegistry& builtin();

 private:
  std::vector<FormatHandler> handlers_;
};

// The analyzer used for a format whose domain has no parser yet: the report carries only the
// identification.
std::unique_ptr<Analyzer> make_identification_only_analyzer(const AnalyzeOptions&);

// One per domain folder (wasm/<domain>/register.cpp).
void register_jvm(FormatRegistry&);
void register_rubygc(FormatRegistry&);
void register_stackprof(FormatRegistry&);
void register_heap(FormatRegistry&);
void register_rbkit(FormatRegistry&);
void register_tracing(FormatRegistry&);

}  // namespace gcscope
