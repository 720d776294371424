#include "table_writers.h"

#include <cinttypes>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "civil_date.h"

namespace gcscope::tables {

namespace {

bool csv_needs_quotes(std::string_view v) {
  for (char c : v)
    if (c == ',' || c == '"' || c == '\n' || c == '\r') return true;
  return false;
}

}  // namespace

void append_timestamp(std::string& out, int64_t epoch_us) {
  int64_t secs = epoch_us / 1000000, us = epoch_us % 1000000;
  if (us < 0) us += 1000000, secs -= 1;
  int64_t days = secs / 86400, sod = secs % 86400;
  if (sod < 0) sod += 86400, days -= 1;
  int64_t y;
  unsigned m, d;
  civil::civil_from_days(days, y, m, d);
  char buf[64];
  int n = std::snprintf(buf, sizeof buf, "%04" PRId64 "-%02u-%02uT%02d:%02d:%02d", y, m, d,
                        static_cast<int>(sod / 3600), static_cast<int>(sod / 60 % 60), static_cast<int>(sod % 60));
  out.append(buf, static_cast<size_t>(n));
  if (us % 1000 == 0 && us) {
    n = std::snprintf(buf, sizeof buf, ".%03d", static_cast<int>(us / 1000));
    out.append(buf, static_cast<size_t>(n));
  } else if (us) {
    n = std::snprintf(buf, sizeof buf, ".%06d", static_cast<int>(us));
    out.append(buf, static_cast<size_t>(n));
  }
  out.push_back('Z');
}

std::string header_text(TextFormat format, const Schema& schema) {
  if (format != TextFormat::kCsv) return "";
  std::string out;
  for (size_t i = 0; i < schema.columns.size(); ++i) {
    if (i) out.push_back(',');
    out += schema.columns[i].name;  // column names are plain identifiers
  }
  out += "\r\n";
  return out;
}

TextWriter::TextWriter(TextFormat format, Flush flush, size_t piece_bytes)
    : format_(format), flush_(std::move(flush)), piece_bytes_(piece_bytes) {}

void TextWriter::begin(const Schema& schema) {
  schema_ = &schema;
  col_ = 0;
}

void TextWriter::separator() {
  if (format_ == TextFormat::kCsv) {
    if (col_) buf_.put(',');
  } else {
    buf_.put(col_ ? ",\"" : "{\"");
    buf_.put(schema_->columns[col_].name);
    buf_.put("\":");
  }
  ++col_;
}

void TextWriter::null_cell() {
  separator();
  if (format_ == TextFormat::kNdjson) buf_.put("null");
}

void TextWriter::int64_cell(int64_t v) {
  separator();
  buf_.put_int(v);
}

void TextWriter::float64_cell(double v) {
  separator();
  // nlohmann's shortest round-trip form; it writes "2.0" for a whole number and "1e-05" for small ones.
  buf_.put_with(64, [v](char* first, char* last) { return nlohmann::detail::to_chars(first, last, v); });
}

void TextWriter::csv_string(std::string_view v) {
  if (!csv_needs_quotes(v)) {
    buf_.put(v);
    return;
  }
  buf_.put('"');
  size_t start = 0;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] == '"') {
      buf_.put(v.substr(start, i + 1 - start));
      buf_.put('"');
      start = i + 1;
    }
  buf_.put(v.substr(start));
  buf_.put('"');
}

void TextWriter::json_string(std::string_view v) {
  bool plain = true;
  for (char c : v)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f || c == '"' || c == '\\') {
      plain = false;
      break;
    }
  if (plain) {
    buf_.put('"');
    buf_.put(v);
    buf_.put('"');
    return;
  }
  // Escapes and UTF-8 by the JSON library; invalid UTF-8 (a log line's bytes) is replaced.
  nlohmann::json j = std::string(v);
  scratch_ = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  buf_.put(scratch_);
}

void TextWriter::string_cell(std::string_view v) {
  separator();
  if (format_ == TextFormat::kCsv) csv_string(v);
  else json_string(v);
}

void TextWriter::bool_cell(bool v) {
  separator();
  buf_.put(v ? "true" : "false");
}

void TextWriter::timestamp_cell(int64_t epoch_us) {
  separator();
  scratch_.clear();
  if (format_ == TextFormat::kNdjson) scratch_.push_back('"');
  append_timestamp(scratch_, epoch_us);
  if (format_ == TextFormat::kNdjson) scratch_.push_back('"');
  buf_.put(scratch_);
}

void TextWriter::end_row() {
  buf_.put(format_ == TextFormat::kCsv ? "\r\n" : "}\n");
  col_ = 0;
  if (buf_.size() >= piece_bytes_) {
    flush_(buf_.view());
    buf_.clear();
  }
}

void TextWriter::end() {
  if (!buf_.empty()) flush_(buf_.view());
  buf_.clear();
}

void JsonRows::int64_cell(int64_t v) {
  constexpr int64_t kSafe = int64_t{1} << 53;
  if (v > kSafe || v < -kSafe) cell(std::to_string(v));
  else cell(v);
}

void JsonRows::string_cell(std::string_view v) {
  if (keeping()) cell(std::string(v));
}

void JsonRows::timestamp_cell(int64_t epoch_us) {
  if (!keeping()) return;
  std::string text;
  append_timestamp(text, epoch_us);
  cell(std::move(text));
}

void JsonRows::end_row() {
  if (keeping()) rows_.push_back(std::move(row_));
  row_ = nlohmann::json::array();
  ++total_;
}

void JsonRows::begin(const Schema& schema) {
  columns_ = nlohmann::json::array();
  for (const auto& c : schema.columns)
    columns_.push_back({{"name", c.name}, {"type", type_name(c.type)}, {"unit", c.unit}});
}

nlohmann::json JsonRows::take() {
  return {{"columns", std::move(columns_)}, {"rows", std::move(rows_)}, {"total", total_}};
}

}  // namespace gcscope::tables
