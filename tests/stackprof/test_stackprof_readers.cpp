// The two readers on hand-made inputs whose expected events are written here: JSON escapes,
// numbers at the int64/uint64 edges, errors with byte offsets, nesting bounds; Marshal packed longs
// and bounds (the real-dump paths are covered by the corpus tests).
#include <catch2/catch.hpp>

#include "stackprof/json_reader.h"
#include "stackprof/marshal_reader.h"

using namespace gcscope::stackprof;

namespace {

// Records events as text: {  [  }  i:N  u:N  f:TEXT  s:TEXT  y:SYM  nil  T/F  o:DESC
struct Recorder final : ValueSink {
  std::string log;
  void add(const std::string& s) { log += (log.empty() ? "" : " ") + s; }
  void begin_map(std::string_view l) override { add(l.empty() ? "{" : "{" + std::string(l)); }
  void begin_list(std::string_view l) override { add(l.empty() ? "[" : "[" + std::string(l)); }
  void end() override { add("}"); }
  void on_int(int64_t v) override { add("i:" + std::to_string(v)); }
  void on_uint(uint64_t v) override { add("u:" + std::to_string(v)); }
  void on_float(double, std::string_view t) override { add("f:" + std::string(t)); }
  void on_string(std::string_view s) override { add("s:" + std::string(s)); }
  void on_symbol(std::string_view s) override { add("y:" + std::string(s)); }
  void on_nil() override { add("nil"); }
  void on_bool(bool b) override { add(b ? "T" : "F"); }
  void on_opaque(std::string_view d) override { add("o:" + std::string(d)); }
};

std::string json_events(const std::string& doc, JsonError* err = nullptr) {
  Recorder r;
  JsonError e;
  bool ok = read_json(doc.data(), doc.size(), r, e);
  if (err) *err = e;
  return ok ? r.log : "ERR " + e.message;
}

// The same through the streaming reader, `chunk` bytes at a time.
std::string json_events_chunked(const std::string& doc, size_t chunk) {
  Recorder r;
  JsonReader reader(r);
  for (size_t i = 0; i < doc.size(); i += chunk) reader.feed(doc.data() + i, std::min(chunk, doc.size() - i));
  return reader.finish() ? r.log : "ERR " + reader.error().message;
}

std::string marshal_events(const std::string& bytes, size_t chunk = 1) {
  Recorder r;
  MarshalReader m(r);
  for (size_t i = 0; i < bytes.size(); i += chunk) m.feed(bytes.data() + i, std::min(chunk, bytes.size() - i));
  return m.finish() ? r.log : "ERR " + m.error();
}

}  // namespace

TEST_CASE("stackprof JSON reader: values, escapes, number edges", "[stackprof]") {
  CHECK(json_events(R"({"a":[1,-2,1.5,true,false,null,"x"]})") == "{ s:a [ i:1 i:-2 f:1.5 T F nil s:x } }");
  CHECK(json_events(R"( {"k" : {}, "l":[] } )") == "{ s:k { } s:l [ } }");
  CHECK(json_events(R"(["a\"b\\c\/\n\u00e9\ud83d\ude00"])") == "[ s:a\"b\\c/\n\xc3\xa9\xf0\x9f\x98\x80 }");
  CHECK(json_events("[9223372036854775807,9223372036854775808,18446744073709551615,-9223372036854775808]") ==
        "[ i:9223372036854775807 u:9223372036854775808 u:18446744073709551615 i:-9223372036854775808 }");
  CHECK(json_events("[18446744073709551616]") == "[ f:18446744073709551616 }");  // beyond uint64: a double
  CHECK(json_events("[1e-300,2E+3]") == "[ f:1e-300 f:2E+3 }");
}

TEST_CASE("stackprof JSON reader: every chunk size gives the same events and the same errors", "[stackprof]") {
  // Tokens cut anywhere: strings with escapes and a surrogate pair, numbers at the int64/uint64
  // edges, exponents, literals, a top-level number, and the error cases (same message and offset).
  const char* docs[] = {
      R"({"a":[1,-2,1.5,true,false,null,"x"]})",
      R"( {"k" : {}, "l":[] } )",
      R"(["a\"b\\c\/\n\u00e9\ud83d\ude00"])",
      "[9223372036854775807,9223372036854775808,18446744073709551615,-9223372036854775808]",
      "[1e-300,2E+3,18446744073709551616]",
      "12345",
      R"({"a":[1,2)",
      R"({"a" 1})",
      "[1,]",
      "[tru]",
      "[\"\\q\"]",
      "{} x",
      "[1.]",
      "[\"abc",
  };
  for (const char* d : docs) {
    std::string doc = d;
    std::string whole = json_events(doc);
    INFO(doc << " -> " << whole);
    for (size_t chunk = 1; chunk <= doc.size(); ++chunk) {
      INFO("chunk " << chunk);
      CHECK(json_events_chunked(doc, chunk) == whole);
    }
  }
  CHECK(json_events("12345") == "i:12345");
  CHECK(json_events("[1.]") == "ERR invalid JSON at byte 3: expected a digit after '.', found ']'");
  CHECK(json_events("[\"abc") == "ERR JSON ends early at byte 5 (truncated?)");
}

TEST_CASE("stackprof JSON reader: errors say what and where", "[stackprof]") {
  JsonError e;
  CHECK(json_events(R"({"a":[1,2)", &e) == "ERR JSON ends early at byte 9 (truncated?)");
  CHECK(e.truncated);
  CHECK(json_events(R"({"a" 1})", &e) == "ERR invalid JSON at byte 5: expected ':', found '1'");
  CHECK(e.offset == 5);
  CHECK(json_events("[1,]") == "ERR invalid JSON at byte 3: expected a value, found ']'");
  CHECK(json_events("[tru]") == "ERR invalid JSON at byte 4: expected true, found ']'");
  CHECK(json_events("[\"\\q\"]") == "ERR invalid JSON at byte 3: invalid escape, found 'q'");
  CHECK(json_events("{} x") == "ERR invalid JSON at byte 3: expected the end of the document, found 'x'");
  std::string deep(600, '[');
  CHECK(json_events(deep).find("nesting deeper than 512 levels") != std::string::npos);
}

TEST_CASE("stackprof Marshal reader: packed longs, Bignums, links, bounds (byte by byte)", "[stackprof]") {
  // i 0, i 122 (0x7f), i -123 (0x80), i 255 (01 ff), i -256 (ff 00), i 2^30-1 (04 ff ff ff 3f)
  CHECK(marshal_events(std::string("\x04\x08[\x0bi\x00i\x7fi\x80i\x01\xffi\xff\x00i\x04\xff\xff\xff\x3f", 22)) ==
        "[ i:0 i:122 i:-123 i:255 i:-256 i:1073741823 }");
  // Bignum +2^40 (3 words), Bignum -(2^32) (3 words, high word 0)
  CHECK(marshal_events(std::string("\x04\x08[\x07l+\x08\x00\x00\x00\x00\x00\x01l-\x08\x00\x00\x00\x00\x01\x00", 22)) ==
        "[ i:1099511627776 i:-4294967296 }");
  // "ab" twice via an object link, a Symbol twice via a symbol link, a Float
  CHECK(marshal_events(std::string("\x04\x08[\x0a\"\x07"
                                   "ab@\x06:\x06"
                                   "x;\x00"
                                   "f\x08"
                                   "1.5",
                                   20)) == "[ s:ab s:ab y:x y:x f:1.5 }");
  CHECK(marshal_events(std::string("\x04\x08[\x06@\x07", 6)) == "ERR object link @2 but only 1 objects so far");
  CHECK(marshal_events(std::string("\x04\x08[\x06;\x00", 6)) == "ERR symbol link ;0 but only 0 symbols so far");
  CHECK(marshal_events(std::string("\x04\x08[\x06Z", 5)) == "ERR unknown Marshal type byte 0x5a at byte 4");
  // An Array declaring 2^31 elements with 3 bytes behind it: truncated, nothing allocated by count.
  CHECK(marshal_events(std::string("\x04\x08[\x04\x00\x00\x00\x80i\x06", 10), 4096) ==
        "ERR Marshal data ends early at byte 10 of 10 (truncated file?): 1 unfinished containers");
  std::string deep = "\x04\x08" + std::string(600, '[');
  for (int i = 0; i < 600; ++i) deep.insert(2 + static_cast<size_t>(i) * 2 + 1, "\x06");
  CHECK(marshal_events(deep, 4096).find("nested deeper than 512 levels") != std::string::npos);
  // Trailing bytes after the root value are ignored (combined dumps end in "\n").
  Recorder r;
  MarshalReader m(r);
  std::string s("\x04\x08i\x06\n", 5);
  m.feed(s.data(), s.size());
  CHECK(m.finish());
  CHECK(m.trailing_bytes() == 1);
  CHECK(r.log == "i:1");
}
