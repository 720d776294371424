// DumpParser: ObjectSpace.dump_all JSON lines → HeapModel.
//
// A hand-written scanner for the shape dump_all writes ({"address":"0x…", "type":"…", …} one per
// line); unknown keys are skipped whatever their value. Ruby ≤ 3.3 writes `file` (and class `name`
// before 3.4) without escaping, so a file name with a quote, a backslash or invalid UTF-8 breaks the
// JSON and one with a newline splits a record over several physical lines. Such records are
// recovered instead of dropped: the raw field ends where the next `", "key":` (or the closing `"}`)
// begins, and a record whose line ends before its closing brace is joined with the following
// physical lines (up to kMaxJoinedLines). Recovered records and lines are counted.
//
// Coercion rules for syntactically valid but wrong values (each one is a warning):
//   - a record without a "0x…" address string is rejected (not in the model);
//   - a non-integer, negative or implausible (> 2^40) memsize counts as 0; a negative line or
//     generation counts as absent; a non-array "references" is ignored;
//   - an unknown type is kept as UNKNOWN; a repeated key: the last one wins (as Ruby's JSON does);
//   - a repeated address is kept as an object but references resolve to the first one.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "heap/heap_model.h"

namespace gcscope::heap {

struct DumpCounters {
  uint64_t physical_lines = 0;
  uint64_t blank_lines = 0;
  uint64_t records = 0;  // JSON objects read (objects + ROOT + NONE + SHAPE + rejected)
  uint64_t root_records = 0;
  uint64_t free_slots = 0;            // NONE records (full: true): free heap slots, not objects
  uint64_t shape_records = 0;         // SHAPE records (3.2+ with shapes: true)
  uint64_t unparseable_lines = 0;     // physical lines that could not be read even with recovery
  uint64_t rejected_records = 0;      // valid JSON that is not a usable record (no address, not an object)
  uint64_t recovered_records = 0;     // records read only thanks to raw-field recovery
  uint64_t recovered_lines = 0;       // physical lines those records span
  uint64_t invalid_utf8_lines = 0;    // physical lines with bytes that are not UTF-8
  uint64_t coerced_values = 0;        // warnings for wrong values (see the rules above)
  uint64_t max_generation_plus1 = 0;  // highest generation seen + 1 (0 = none)
  bool has_shape_id = false;          // 3.2+ fields seen
  bool truncated = false;             // the input ended inside a record
};

class DumpParser {
 public:
  using Report = std::function<void(bool is_error, uint64_t line, uint64_t offset, std::string message)>;
  static constexpr int kMaxJoinedLines = 16;
  static constexpr size_t kMaxDiagnostics = 40;  // per kind of complaint; the rest are only counted

  DumpParser(HeapModel& model, Report report) : model_(model), report_(std::move(report)) {}
  // One physical line (without its newline), as LineSplitter delivers it.
  void line(std::string_view text, uint64_t number, uint64_t offset);
  // End of input: a record still open is reported as truncated.
  void finish();
  const DumpCounters& counters() const { return c_; }

 private:
  enum class Parse { kOk, kIncomplete, kBad };
  struct Cursor;
  Parse parse_record(std::string_view text, bool joined, std::string& why);
  Parse read_known_field(Cursor& c, bool& handled);
  Parse read_string(Cursor& c, std::string_view& out, std::string& scratch, bool raw_field);
  // A string (an integer at most `limit`) into dst: false when the value is not one, with c.r kOk
  // when it was skipped with a warning, else the failure.
  bool want_string(Cursor& c, std::string_view& dst, std::string& scratch, bool raw);
  bool want_uint(Cursor& c, uint64_t& dst, uint64_t limit);
  Parse string_field(Cursor& c, std::string_view& dst, std::string& scratch, bool raw);
  Parse read_references(Cursor& c);
  Parse read_flags(Cursor& c);
  void set_record_type(std::string_view type);
  void commit();
  void complain(bool is_error, int kind, uint64_t line, uint64_t offset, std::string message);

  HeapModel& model_;
  Report report_;
  DumpCounters c_;
  // The record being read.
  ObjectInfo obj_;
  std::vector<uint64_t> refs_;
  bool refs_ok_ = false;
  bool is_root_ = false;
  bool address_ok_ = false;
  bool recovered_ = false;
  std::string_view root_category_;
  std::string scratch_[6];  // unescaped strings: file, name, method/root, transient, detail, value
  std::vector<std::string> warnings_;
  // A record whose physical line ended early (raw newline in a file name).
  std::string pending_;
  uint64_t pending_line_ = 0, pending_offset_ = 0;
  int pending_lines_ = 0;
  uint64_t cur_line_ = 0, cur_offset_ = 0;
  uint32_t complaints_[8] = {};
};

}  // namespace gcscope::heap
