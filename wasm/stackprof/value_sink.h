// The event interface both dump readers (Ruby Marshal and JSON) drive. A reader walks its stream and
// reports values in document order; the consumer (ProfileBuilder) keeps only what a profile needs.
// Inside a map, values alternate key, value, key, value... (the consumer counts; readers do not
// announce keys separately). Nothing here allocates per value.
#pragma once
#include <cstdint>
#include <string_view>

namespace gcscope::stackprof {

class ValueSink {
 public:
  virtual ~ValueSink() = default;
  // A Hash (label empty) or an object whose fields read as key/value pairs (label = "Struct Foo",
  // "Object Foo"); closed by end().
  virtual void begin_map(std::string_view label) = 0;
  // An Array (label empty) or an object wrapping values (label = "Rational", "Data Foo").
  virtual void begin_list(std::string_view label) = 0;
  virtual void end() = 0;
  virtual void on_int(int64_t v) = 0;
  virtual void on_uint(uint64_t v) = 0;  // non-negative integers above INT64_MAX (and Bignums)
  virtual void on_float(double v, std::string_view text) = 0;
  virtual void on_string(std::string_view s) = 0;
  virtual void on_symbol(std::string_view s) = 0;
  virtual void on_nil() = 0;
  virtual void on_bool(bool b) = 0;
  // A value the readers cannot represent (a Time, a Regexp, a class reference, a huge Bignum):
  // shown as its description.
  virtual void on_opaque(std::string_view description) = 0;
};

}  // namespace gcscope::stackprof
