#include "tables.h"

#include <cmath>
#include <stdexcept>

namespace gcscope::tables {

const char* type_name(Type type) {
  switch (type) {
    case Type::kInt64: return "int64";
    case Type::kFloat64: return "float64";
    case Type::kString: return "string";
    case Type::kBool: return "bool";
    case Type::kTimestamp: return "timestamp";
  }
  return "?";
}

int Schema::find(std::string_view column) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i].name == column) return static_cast<int>(i);
  return -1;
}

const Schema& errors_schema() {
  static const Schema s{
      "errors",
      "One row per error or warning of any input: what could not be read, identified or parsed.",
      {{"input", Type::kString, "", "the file or archive member the message is about"},
       {"path", Type::kString, "", "the PATH argument whose analysis reported it"},
       {"severity", Type::kString, "", "error or warning"},
       {"line", Type::kInt64, "", "1-based line of the input, null when not line-based"},
       {"byte_offset", Type::kInt64, "", "byte offset in the (decompressed) input, null when unknown"},
       {"message", Type::kString, "", "what was expected and what was found"}}};
  return s;
}

void check_schema(const Schema& schema) {
  auto fail = [&](const std::string& why) { throw std::logic_error("table " + schema.name + ": " + why); };
  if (schema.name.empty()) throw std::logic_error("a table without a name");
  if (schema.columns.empty() || schema.columns[0].name != "input" || schema.columns[0].type != Type::kString)
    fail("the first column must be `input` (string)");
  for (size_t i = 0; i < schema.columns.size(); ++i) {
    const Column& c = schema.columns[i];
    if (c.name.empty()) fail("a column without a name");
    if (c.meaning.empty()) fail("column " + c.name + " says nothing about what it holds");
    for (size_t k = 0; k < i; ++k)
      if (schema.columns[k].name == c.name) fail("column " + c.name + " twice");
    if (c.name == "ts" && c.type != Type::kTimestamp) fail("`ts` must be a timestamp");
  }
}

RowWriter::RowWriter(const Schema& schema, RowSink& sink) : schema_(schema), sink_(sink) {}

const Column& RowWriter::next(Type type) {
  if (col_ >= schema_.columns.size())
    throw std::logic_error("table " + schema_.name + ": more cells than columns in a row");
  const Column& c = schema_.columns[col_++];
  if (c.type != type)
    throw std::logic_error("table " + schema_.name + ": column " + c.name + " is " + type_name(c.type) +
                           ", written as " + type_name(type));
  return c;
}

RowWriter& RowWriter::str(std::string_view v) {
  next(Type::kString);
  sink_.string_cell(v);
  return *this;
}

RowWriter& RowWriter::i64(int64_t v) {
  next(Type::kInt64);
  sink_.int64_cell(v);
  return *this;
}

RowWriter& RowWriter::f64(double v) {
  next(Type::kFloat64);
  if (std::isfinite(v)) sink_.float64_cell(v);
  else sink_.null_cell();
  return *this;
}

RowWriter& RowWriter::boolean(bool v) {
  next(Type::kBool);
  sink_.bool_cell(v);
  return *this;
}

RowWriter& RowWriter::ts_ms(double epoch_ms) {
  next(Type::kTimestamp);
  // Past ±2^62 µs (±146,000 years) the value is no instant of any log: null.
  if (std::isfinite(epoch_ms) && std::fabs(epoch_ms) < 4.6e15)
    sink_.timestamp_cell(static_cast<int64_t>(std::llround(epoch_ms * 1000.0)));
  else sink_.null_cell();
  return *this;
}

RowWriter& RowWriter::null() {
  if (col_ >= schema_.columns.size())
    throw std::logic_error("table " + schema_.name + ": more cells than columns in a row");
  ++col_;
  sink_.null_cell();
  return *this;
}

void RowWriter::end_row() {
  if (col_ != schema_.columns.size())
    throw std::logic_error("table " + schema_.name + ": a row of " + std::to_string(col_) + " cells, " +
                           std::to_string(schema_.columns.size()) + " columns");
  sink_.end_row();
  col_ = 0;
  ++rows_;
}

}  // namespace gcscope::tables
