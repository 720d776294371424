#include "table_columns.h"

#include <cstring>

namespace gcscope::tables {

void ColumnBatches::set_bit(std::vector<uint8_t>& bits, size_t i, bool on) {
  if (i / 8 >= bits.size()) bits.push_back(0);
  if (on) bits[i / 8] = static_cast<uint8_t>(bits[i / 8] | (1u << (i % 8)));
}

void ColumnBatches::begin(const Schema& schema) {
  batch_.schema = &schema;
  batch_.columns.assign(schema.columns.size(), ColumnBuffers());
  for (size_t c = 0; c < schema.columns.size(); ++c) batch_.columns[c].type = schema.columns[c].type;
  clear_batch();
}

void ColumnBatches::clear_batch() {
  batch_.rows = 0;
  col_ = 0;
  for (auto& c : batch_.columns) {
    c.validity.clear();
    c.data.clear();
    c.offsets.assign(1, 0);
    c.nulls = 0;
  }
}

ColumnBuffers& ColumnBatches::cell(bool valid) {
  ColumnBuffers& c = batch_.columns[col_++];
  set_bit(c.validity, batch_.rows, valid);
  if (!valid) ++c.nulls;
  return c;
}

void ColumnBatches::null_cell() {
  ColumnBuffers& c = cell(false);
  switch (c.type) {
    case Type::kString: c.offsets.push_back(static_cast<int32_t>(c.data.size())); break;
    case Type::kBool: set_bit(c.data, batch_.rows, false); break;
    default: c.data.insert(c.data.end(), 8, 0); break;
  }
}

void ColumnBatches::put8(const void* v) {
  ColumnBuffers& c = cell(true);
  const auto* p = static_cast<const uint8_t*>(v);
  c.data.insert(c.data.end(), p, p + 8);  // wasm and x86 are little-endian, as Arrow's buffers are
}

void ColumnBatches::string_cell(std::string_view v) {
  ColumnBuffers& c = cell(true);
  c.data.insert(c.data.end(), v.begin(), v.end());
  c.offsets.push_back(static_cast<int32_t>(c.data.size()));
}

void ColumnBatches::bool_cell(bool v) {
  ColumnBuffers& c = cell(true);
  set_bit(c.data, batch_.rows, v);
}

void ColumnBatches::end_row() {
  col_ = 0;
  ++batch_.rows;
  ++total_;
  // A batch also ends before its string bytes could pass int32 offsets.
  bool full = batch_.rows >= batch_rows_;
  for (const auto& c : batch_.columns) full = full || c.data.size() > (size_t{1} << 30);
  if (full) {
    emit_(batch_);
    clear_batch();
  }
}

void ColumnBatches::end() {
  if (batch_.rows || total_ == 0) emit_(batch_);  // an empty table is one empty batch (its schema)
  clear_batch();
}

}  // namespace gcscope::tables
