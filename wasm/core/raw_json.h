// Pre-serialized JSON values inside a report document.
//
// Why: a JVM report's series hold hundreds of thousands of numbers. As a nlohmann::json tree each
// number is a node that is built, walked by the serializer and destroyed; written straight to text,
// with the number formatting of nlohmann's dump, they are neither. A writer, not a scanner: raw values
// are read back with nlohmann (resolve()).
//
// A raw value is kept in the document as a nlohmann binary value with its own subtype, holding the
// value's JSON text: no parser of gcscope ever makes a binary value, so no input can pass for one (a
// marker string could: a frame name spelling the marker would inject its text into the report).
// Whatever writes a document goes through dump_document(), which writes raw values verbatim; code
// that reads a document in memory (tests, the CLI's pretty output) calls resolve()
// first, which parses them in place.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/text_buffer.h"

namespace gcscope::raw_json {

inline constexpr std::uint8_t kRawSubtype = 0x67;  // the binary subtype of raw values ('g')

bool is_raw(const nlohmann::json& v);

// The JSON text of one array, element by element.
class ArrayWriter {
 public:
  explicit ArrayWriter(size_t expected_items = 0);
  void null();
  void integer(int64_t v);
  void unsigned_integer(uint64_t v);
  void number(double v);                // as nlohmann writes a double: shortest round-trip digits; NaN/inf → null
  void value(const nlohmann::json& v);  // any value, written as nlohmann's dump would write it
  // The raw value to put in a document (the writer is empty afterwards).
  nlohmann::json take();

 private:
  void start() {
    text_.clear();
    text_.put('[');
    first_ = true;
  }
  void separator() {
    if (!first_) text_.put(',');
    first_ = false;
  }
  TextBuffer text_;
  bool first_ = true;
};

// A string value written without the serializer's escaping pass (a byte-by-byte UTF-8 check, ~85 ms
// in wasm for the 1.7 MB of packed pause columns of a 200 MB log). Text with any byte that JSON would
// escape or that is not ASCII ('"', '\\', controls, >= 0x80) becomes an ordinary string instead.
nlohmann::json plain_string(std::string_view text);

// The document's JSON text: as nlohmann's dump(indent, ' ', false, replace) writes it, with every raw
// value written as its text.
std::string dump_document(const nlohmann::json& doc, int indent = -1);

// Parses every raw value of doc in place (for code that reads the document in memory).
void resolve(nlohmann::json& doc);

}  // namespace gcscope::raw_json
