// InputSet: one analysis of an ordered set of files (a drop, a directory, the CLI's PATHs).
// Files arrive as byte chunks (the worker feeds 1 MiB slices of a File; the CLI maps 16 MiB windows), so
// nothing here needs a whole file — except .zip, whose index sits at its end and is kept in memory.
//
//   file bytes → [gzip inflate | zip member extraction] → member bytes → identify (first 64 KiB)
//              → Analyzer of that format (shared by the set's members when the format takes many)
//
// finish() returns the report document shared by the CLI and the worker:
//   {"gcscope", "inputs": [...], "reports": [...], "errors": [...]}
#pragma once
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analyzer.h"
#include "diagnostics.h"
#include "gzip_decoder.h"

namespace gcscope {

class InputSet {
 public:
  // options: {"format": ID to force a format instead of identifying, ...domain options}.
  explicit InputSet(AnalyzeOptions options = nlohmann::json::object(),
                    const FormatRegistry& registry = FormatRegistry::builtin());
  ~InputSet();
  InputSet(const InputSet&) = delete;
  InputSet& operator=(const InputSet&) = delete;

  void begin_file(const std::string& path);
  void feed(const uint8_t* data, size_t len);
  void end_file();
  // Closes every analyzer and returns the document. Call once, except when following.
  //
  // Following a file that grows (option "follow": true; a plain file whose formats can follow, see
  // Analyzer::follows): finish() leaves the current file open and returns the document of every
  // complete line fed so far, with "follow": {"bytes", "files", "new": what changed since the last
  // one (follow_changes)}; more feed() calls continue the file
  // and finish() may be called again. A rotated file (truncated or replaced) is end_file() and
  // begin_file() again: its new content is the next member of the set, as in a rotating set.
  // Where following is not possible, finish() closes everything as usual.
  nlohmann::json finish();

  // After finish(): answers one method of the query protocol (core/query.h); throws QueryError.
  // Methods of the session itself:
  //   "session.reports"  → [{report, format, title, inputs, methods, compare_family}]
  //   "session.prepare"  → {}: every analyzer builds what makes its questions fast (Analyzer::prepare)
  //   "compare.side"     {report?, set?} → {format, family, side, reports}: what a comparison reads
  //                      of that report; with set: true, of every report of its compare family in
  //                      this analysis summed (FormatHandler::sum_sides; `reports` lists them). A
  //                      family without a sum compares the first and says so in "not_summed".
  //   "compare.with"     {other, other_is?: "a"|"b", report?, set?} → the format's compare function
  //                      over `other` (another session's "compare.side" answer) and this side;
  //                      `other` is side a unless other_is is "b"
  //   "session.tables"   → [{name, meaning, columns: [{name, type, unit, meaning}]}]
  //   "table.rows"       {name, offset?, limit? (≤ 100000, default 1000)} → {columns, rows, total}
  // Any other method goes to the analyzer of report `report` (an index into the document's
  // "reports"; by default the first report whose format answers the method).
  nlohmann::json query(const std::string& method, const nlohmann::json& args);

  // The wasm memory an analysis of `input_bytes` of input needs at its peak, by the most demanding
  // format identified so far (FormatHandler::memory_per_input_byte): {format, title, bytes, lighter?
  // {options, what, bytes}}; null before any format is identified.
  nlohmann::json memory_estimate(uint64_t input_bytes) const;

  // After finish(): the tables of this analysis's reports (core/tables.h), one schema per name, and
  // the rows of one table from every report that has it, streamed into `sink` (begin once, the rows
  // of each report in order, end once); false when no report has a table of that name.
  std::vector<tables::Schema> tables() const;
  bool write_table(const std::string& name, tables::RowSink& sink);

  // Exit status for the CLI: 0 when at least one input was analyzed, 3 when all were rejected.
  static int exit_status(const nlohmann::json& document);

  // Where the current file is: decoded bytes so far (for progress of compressed inputs).
  uint64_t decoded_bytes() const;

 private:
  struct Member;
  struct File;
  struct Group;
  void open_member(Member& m);
  void route(Member& m, bool complete);  // complete: the head is the whole member
  void feed_member(Member& m, const char* data, size_t len);
  void feed_member_decoded(Member& m, const char* data, size_t len);
  void close_member(Member& m);
  void extract_zip(File& f);
  bool follow_ready();
  nlohmann::json inputs_json() const;
  nlohmann::json reports_json(bool snapshot);
  Group& group_for(const std::string& method, const nlohmann::json& args);
  nlohmann::json compare_side(Group& g, bool whole_set);
  nlohmann::json side_of(Group& g);

  AnalyzeOptions options_;
  const FormatRegistry& registry_;
  Diagnostics diagnostics_;
  std::vector<std::unique_ptr<File>> files_;
  std::vector<std::unique_ptr<Group>> groups_;
  File* current_ = nullptr;
  bool finished_ = false;
  bool follow_ = false;            // option "follow"
  nlohmann::json follow_figures_;  // of the last snapshot (follow_figures)
  InflateLimits limits_;
  uint64_t zip_max_bytes_ = uint64_t(1536) << 20;  // option "zip_max_bytes"
};

}  // namespace gcscope
