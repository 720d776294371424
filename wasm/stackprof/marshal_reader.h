// A streaming reader for Ruby Marshal 4.8 streams, as stackprof's `out:` writes them.
//
// Push-based: feed() takes the bytes in arbitrary chunks; each complete token is turned into a
// ValueSink event at once, so a 40 MB dump never exists as a tree. Only a token cut by a chunk
// boundary is carried over (a few bytes; a long string at most). Nesting is an explicit stack
// (bounded), never recursion.
//
// Covers every type byte Marshal can write, because stackprof's :metadata is user-supplied:
// core types (nil true false i l f " : ; @ [ { } I) become values; objects (o S U u e C d / c m M)
// are parsed and reported as labelled maps/lists or opaque descriptions, never instantiated.
// The stream's object table (for `@` links) keeps only Strings and Floats, the only objects that
// stackprof data shares (file paths, "<cfunc>", repeated floats); a link to anything else is
// reported as opaque.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/token_carry.h"
#include "value_sink.h"

namespace gcscope::stackprof {

class MarshalReader {
 public:
  explicit MarshalReader(ValueSink& sink) : sink_(sink) {}

  void feed(const char* data, size_t len);
  // End of input. False (with error()) when the stream is incomplete or was bad.
  bool finish();

  bool failed() const { return !error_.empty(); }
  bool done() const { return done_; }
  const std::string& error() const { return error_; }
  uint64_t error_offset() const { return error_offset_; }
  uint64_t bytes_seen() const { return total_; }
  uint64_t trailing_bytes() const { return done_ ? total_ - end_offset_ : 0; }
  // Where the value being read sits, for messages ("inside the frames hash").
  size_t depth() const { return stack_.size(); }

  static constexpr size_t kMaxDepth = 512;

 private:
  enum class Kind : uint8_t { Array, Hash, Ivar, Object, Struct, UserMarshal, Extended, UserClass, Data, UserDef };
  enum class Phase : uint8_t { Items, NeedClass, NeedCount, NeedBytes, IvarValue, IvarCount, Default };
  struct Level {
    Kind kind;
    Phase phase;
    bool emitted;      // begin_* was sent (and so end() must be)
    bool suppressing;  // this level raised suppress_ (ivars, a Hash's default value)
    bool has_default;  // '}' Hash
    uint64_t remaining;
    std::string label;
  };

  size_t parse(const uint8_t* p, size_t n, uint64_t base);
  // Reads one token at p; returns bytes used, 0 when incomplete, SIZE_MAX on error.
  size_t step(const uint8_t* p, const uint8_t* e, uint64_t at);
  // The parts of step(), each returning what step() returns. p is the token's first byte; q the byte
  // after a value's type byte.
  size_t read_header(const uint8_t* p, const uint8_t* e, uint64_t at);
  size_t read_class_name(const uint8_t* p, const uint8_t* e, uint64_t at);                  // after o S U d u e C
  size_t read_field_count(const uint8_t* p, const uint8_t* e, uint64_t at);                 // of an Object or Struct
  size_t read_dump_bytes(const uint8_t* p, const uint8_t* e, uint64_t at);                  // of a 'u' (_dump)
  size_t read_ivar_count(const uint8_t* p, const uint8_t* e, uint64_t at);                  // after an 'I' value
  size_t read_value(const uint8_t* p, const uint8_t* e, uint64_t at);                       // a type byte and its value
  size_t read_scalar(uint8_t type);                                                         // 0 T F
  size_t read_fixnum(const uint8_t* q, const uint8_t* e);                                   // i
  size_t read_bignum(const uint8_t* q, const uint8_t* e, uint64_t at);                      // l
  size_t read_text(uint8_t type, const uint8_t* q, const uint8_t* e, uint64_t at);          // f " :
  size_t read_symbol_link(const uint8_t* q, const uint8_t* e, uint64_t at);                 // ;
  size_t read_object_link(const uint8_t* q, const uint8_t* e, uint64_t at);                 // @
  size_t read_container(uint8_t type, const uint8_t* q, const uint8_t* e, uint64_t at);     // [ { }
  size_t open_named(Kind kind, bool is_object, const char* label);                          // o S U d u e C
  size_t read_named_opaque(uint8_t type, const uint8_t* q, const uint8_t* e, uint64_t at);  // / c m M
  void value_done();
  void fail(uint64_t at, std::string message);
  void push(Kind kind, Phase phase, uint64_t remaining, std::string label, bool emit_map, bool emit_list);
  void register_object() { ++objects_; }
  void record_string(std::string_view s, bool is_float);
  bool emitting() const { return suppress_ == 0; }

  ValueSink& sink_;
  TokenCarry carry_;         // a token cut by the end of the previous chunk
  uint64_t total_ = 0;       // bytes fed
  uint64_t consumed_ = 0;    // bytes parsed (absolute offset of the next token)
  uint64_t end_offset_ = 0;  // where the root value ended
  int header_ = 0;           // header bytes seen (2 = done)
  bool done_ = false;
  std::string error_;
  uint64_t error_offset_ = 0;
  std::vector<Level> stack_;
  int suppress_ = 0;
  uint32_t objects_ = 0;
  std::vector<std::string> symbols_;
  // Object index -> String/Float text, in increasing index order (binary-searched by links).
  std::vector<std::pair<uint32_t, std::string>> recorded_;
  std::vector<bool> recorded_float_;
};

}  // namespace gcscope::stackprof
