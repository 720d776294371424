// A streaming JSON reader for stackprof JSON dumps (`stackprof --json`, JSON.generate(StackProf.results)).
// Hand-written beside nlohmann: nlohmann's parsers read an input to its end in one call, this one is
// pushed chunks as they arrive and keeps only a token cut between two of them.
//
// Push-based like the Marshal reader: feed() takes the bytes in arbitrary chunks and reports each
// complete token to a ValueSink at once, in document order (object keys as strings in key
// position). Only a token cut by a chunk boundary is carried over to the next chunk (a number, a
// literal, a string: at most one file path or name in a stackprof dump), so a 40 MB dump is never
// held whole. Integers go straight from digits to int64/uint64 (frame ids are above 2^32; no double
// on the way); only numbers with a fraction or exponent become doubles. Nesting is an explicit,
// bounded stack. Errors carry the absolute byte offset.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/token_carry.h"
#include "value_sink.h"

namespace gcscope::stackprof {

struct JsonError {
  size_t offset = 0;
  bool truncated = false;  // the document ended inside a value
  std::string message;
};

class JsonReader {
 public:
  explicit JsonReader(ValueSink& sink) : sink_(sink) {}
  void feed(const char* data, size_t len);
  // End of input. False (with error()) on malformed or incomplete JSON; values before the error
  // have been reported.
  bool finish();
  bool failed() const { return failed_; }
  const JsonError& error() const { return error_; }
  // Offset of the top-level value's last byte (its closing brace), once it has ended; -1 before.
  int64_t root_end() const { return root_end_; }

  static constexpr size_t kMaxDepth = 512;

 private:
  // What the next token must be.
  enum class Expect : uint8_t { Value, FirstKeyOrClose, FirstValueOrClose, Key, Colon, CommaOrClose, End };
  enum class Step : uint8_t { Done, Incomplete, Failed };

  // Parses complete tokens of b[0, n) (absolute offset `base`); returns the bytes used. `final`:
  // no more bytes will come (a number may end the buffer).
  size_t parse(const char* b, size_t n, uint64_t base, bool final);
  Step token(const char* b, size_t n, size_t& p, uint64_t base, bool final);
  Step value(const char* b, size_t n, size_t& p, uint64_t base, bool final);
  Step string(const char* b, size_t n, size_t& p, uint64_t base, std::string_view& out);
  Step number(const char* b, size_t n, size_t& p, uint64_t base, bool final);
  Step literal(const char* b, size_t n, size_t& p, uint64_t base, const char* word);
  void after_value() { expect_ = stack_.empty() ? Expect::End : Expect::CommaOrClose; }
  Step fail(uint64_t at, const std::string& what, char found);

  ValueSink& sink_;
  Expect expect_ = Expect::Value;
  std::vector<char> stack_;  // '{' or '['
  TokenCarry carry_;         // a token cut by the end of the previous chunk
  std::string scratch_;
  uint64_t consumed_ = 0;  // absolute offset of the next token
  uint64_t total_ = 0;     // bytes fed
  int64_t root_end_ = -1;
  bool failed_ = false;
  JsonError error_;
};

// The whole document at once (tests, small inputs): feed + finish.
bool read_json(const char* data, size_t size, ValueSink& sink, JsonError& error);

}  // namespace gcscope::stackprof
