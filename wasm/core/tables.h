// Tables: every domain exposes what its session kept as typed, documented tables (docs/TABLES.md),
// so users write their own aggregations in SQL — the CLI's `gcscope tables` writes them as files
// for a fleet, the page registers them in DuckDB-wasm. An analyzer declares its tables' schemas
// (Analyzer::tables) and streams one table's rows into a RowSink (Analyzer::write_table): nothing
// is materialized, so the memory of an export does not grow with its output.
//
// Rules every table keeps (checked by tests/core/test_tables.cpp and the docs test):
//   - its first column is `input`: the file or archive member the row came from;
//   - times are seconds of the input's own clock (`t_s`, `*_s`), plus a `ts` timestamp column where
//     the input carries wall-clock time (null on rows, or inputs, without it);
//   - names are unique across the registry (a CLI output folder holds one file per table name).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gcscope::tables {

enum class Type : uint8_t {
  kInt64,
  kFloat64,
  kString,
  kBool,
  kTimestamp,  // an instant, microseconds since the Unix epoch (UTC)
};
// "int64", "float64", "string", "bool", "timestamp": the names docs/TABLES.md uses.
const char* type_name(Type type);

struct Column {
  std::string name;
  Type type;
  std::string unit;     // "s", "ms", "KiB", "ns", ... or "" when the value has none
  std::string meaning;  // one sentence, as in docs/TABLES.md
};

struct Schema {
  std::string name;
  std::string meaning;
  std::vector<Column> columns;
  // Index of the column named `name`, or -1.
  int find(std::string_view column) const;
};

// Receives one table's rows, cell by cell in column order, end_row() after each row's last cell.
// Writers (CSV, NDJSON, the page's columnar builder) implement it.
class RowSink {
 public:
  virtual ~RowSink() = default;
  virtual void begin(const Schema& schema) = 0;  // before the first row
  virtual void null_cell() = 0;
  virtual void int64_cell(int64_t v) = 0;
  virtual void float64_cell(double v) = 0;  // finite
  virtual void string_cell(std::string_view v) = 0;
  virtual void bool_cell(bool v) = 0;
  virtual void timestamp_cell(int64_t epoch_us) = 0;
  virtual void end_row() = 0;
  virtual void end() {}  // after the last row
};

// What analyzers write rows with: typed cells in column order, each checked against the schema
// (a mismatch is a programming error: std::logic_error). NaN and absent values become nulls.
class RowWriter {
 public:
  RowWriter(const Schema& schema, RowSink& sink);
  RowWriter& str(std::string_view v);
  RowWriter& i64(int64_t v);
  RowWriter& f64(double v);  // NaN / inf → null
  RowWriter& boolean(bool v);
  RowWriter& ts_ms(double epoch_ms);  // a timestamp from epoch milliseconds; NaN → null
  RowWriter& null();
  RowWriter& i64_or_null(int64_t v, bool present) { return present ? i64(v) : null(); }
  RowWriter& str_or_null(std::string_view v, bool present) { return present ? str(v) : null(); }
  void end_row();
  uint64_t rows() const { return rows_; }

 private:
  const Column& next(Type type);
  const Schema& schema_;
  RowSink& sink_;
  size_t col_ = 0;
  uint64_t rows_ = 0;
};

// The errors table: one row per error or warning of an analysis (`gcscope tables` writes it).
const Schema& errors_schema();

// Throws std::logic_error when `schema` breaks a rule above (no leading `input` string column,
// empty or duplicate column names, a `ts` column that is not a timestamp).
void check_schema(const Schema& schema);

}  // namespace gcscope::tables
