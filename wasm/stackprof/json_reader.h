// A JSON reader for stackprof JSON dumps (`stackprof --json`, JSON.generate(StackProf.results)):
// one pass over the buffered document, values reported to a ValueSink in document order (object
// keys as strings in key position). Integers go straight from digits to int64/uint64 (frame ids are
// above 2^32; no double on the way); only numbers with a fraction or exponent become doubles.
// Nesting is an explicit, bounded stack. Errors carry the byte offset.
#pragma once
#include <cstddef>
#include <string>

#include "value_sink.h"

namespace gcscope::stackprof {

struct JsonError {
  size_t offset = 0;
  bool truncated = false;  // the document ended inside a value
  std::string message;
};

// False with `error` on malformed JSON (values before the error have been reported).
bool read_json(const char* data, size_t size, ValueSink& sink, JsonError& error);

}  // namespace gcscope::stackprof
