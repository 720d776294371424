// Text forms of a table (core/tables.h): CSV (RFC 4180: a header row, fields quoted when they hold a
// comma, a quote or a line break, quotes doubled, CRLF line ends) and NDJSON (one JSON object per
// row). Both stream: the text goes to `flush` in pieces that end at row boundaries, so a writer holds
// at most one piece whatever the table's size. Shared by `gcscope tables` and the page's exports.
//
// Cells: null is an empty CSV field / JSON null; float64 always has a '.' or an exponent (a column of
// whole seconds still reads as DOUBLE); a timestamp is ISO 8601 UTC with milliseconds, YYYY-MM-DDTHH:MM:SS.sssZ.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/tables.h"
#include "core/text_buffer.h"

namespace gcscope::tables {

enum class TextFormat { kCsv, kNdjson };

// The CSV header row of `schema` (with its CRLF); NDJSON has none ("").
std::string header_text(TextFormat format, const Schema& schema);

// Appends an ISO 8601 UTC text of `epoch_us` ("1970-01-01T00:00:00Z", with .mmm or .uuuuuu when the
// instant has them).
void append_timestamp(std::string& out, int64_t epoch_us);

class TextWriter final : public RowSink {
 public:
  using Flush = std::function<void(std::string_view)>;
  // Calls `flush` once the buffered rows reach `piece_bytes`, and at end().
  TextWriter(TextFormat format, Flush flush, size_t piece_bytes = size_t{1} << 20);

  void begin(const Schema& schema) override;
  void null_cell() override;
  void int64_cell(int64_t v) override;
  void float64_cell(double v) override;
  void string_cell(std::string_view v) override;
  void bool_cell(bool v) override;
  void timestamp_cell(int64_t epoch_us) override;
  void end_row() override;
  void end() override;

 private:
  void separator();  // before a cell: the CSV comma, or the JSON key
  void csv_string(std::string_view v);
  void json_string(std::string_view v);

  TextFormat format_;
  Flush flush_;
  size_t piece_bytes_;
  const Schema* schema_ = nullptr;
  size_t col_ = 0;
  TextBuffer buf_;
  std::string scratch_;
};

// Rows [offset, offset + limit) of a table as JSON arrays (the query protocol's "table.rows"): int64
// beyond 2^53 as decimal strings, timestamps as ISO text. Rows outside the window are only counted.
class JsonRows final : public RowSink {
 public:
  JsonRows(uint64_t offset, uint64_t limit) : offset_(offset), limit_(limit) {}
  void begin(const Schema& schema) override;
  void null_cell() override { cell(nullptr); }
  void int64_cell(int64_t v) override;
  void float64_cell(double v) override { cell(v); }
  void string_cell(std::string_view v) override;
  void bool_cell(bool v) override { cell(v); }
  void timestamp_cell(int64_t epoch_us) override;
  void end_row() override;
  // {"columns": [{name, type, unit}], "rows": [[...]], "total": rows in the table}
  nlohmann::json take();

 private:
  bool keeping() const { return total_ >= offset_ && total_ - offset_ < limit_; }
  void cell(nlohmann::json v) {
    if (keeping()) row_.push_back(std::move(v));
  }
  nlohmann::json columns_ = nlohmann::json::array();
  uint64_t offset_, limit_, total_ = 0;
  nlohmann::json row_ = nlohmann::json::array();
  nlohmann::json rows_ = nlohmann::json::array();
};

}  // namespace gcscope::tables
