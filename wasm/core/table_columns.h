// A table's rows as Arrow-layout column buffers, in batches: what the page hands to DuckDB-wasm
// (web/worker.js frames them as they are into Arrow IPC streams: no JSON on the way). Per column:
//   validity  one bit per row, least significant bit first, 1 = a value (Arrow's validity bitmap)
//   data      int64 / timestamp (µs since the epoch): 8 bytes a row, little-endian; float64: 8 bytes;
//             bool: one bit per row like validity; string: the UTF-8 bytes of every row, one after another
//   offsets   string only: rows + 1 int32 offsets into data
// A batch is handed to `emit` once it has `batch_rows` rows (and the last one at end()); its
// buffers are reused for the next batch, so memory is one batch whatever the table's size.
#pragma once
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "core/tables.h"

namespace gcscope::tables {

struct ColumnBuffers {
  Type type = Type::kInt64;
  std::vector<uint8_t> validity, data;
  std::vector<int32_t> offsets;
  size_t nulls = 0;
};

struct ColumnBatch {
  const Schema* schema = nullptr;
  size_t rows = 0;
  std::vector<ColumnBuffers> columns;
};

class ColumnBatches final : public RowSink {
 public:
  using Emit = std::function<void(const ColumnBatch&)>;
  ColumnBatches(size_t batch_rows, Emit emit) : batch_rows_(batch_rows ? batch_rows : 1), emit_(std::move(emit)) {}

  void begin(const Schema& schema) override;
  void null_cell() override;
  void int64_cell(int64_t v) override { put8(&v); }
  void float64_cell(double v) override { put8(&v); }
  void string_cell(std::string_view v) override;
  void bool_cell(bool v) override;
  void timestamp_cell(int64_t epoch_us) override { put8(&epoch_us); }
  void end_row() override;
  void end() override;
  uint64_t total_rows() const { return total_; }

 private:
  ColumnBuffers& cell(bool valid);  // the current column, its validity bit set; advances the cursor
  void put8(const void* v);
  void clear_batch();
  static void set_bit(std::vector<uint8_t>& bits, size_t i, bool on);

  size_t batch_rows_;
  Emit emit_;
  ColumnBatch batch_;
  size_t col_ = 0;
  uint64_t total_ = 0;
};

}  // namespace gcscope::tables
