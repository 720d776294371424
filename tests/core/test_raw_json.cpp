// core/raw_json.h: a document with raw (pre-serialized) arrays is written byte for byte as nlohmann's
// dump writes the same document built as a tree, and resolve() turns it back into that tree.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/raw_json.h"
#include "support.h"

using nlohmann::json;
namespace raw = gcscope::raw_json;

namespace {
// The same values as a json array and through an ArrayWriter: integers (negative, past 2^53, the
// extremes), doubles of the kinds reports hold (round6 values, integral ones, -0, tiny ones that print
// with an exponent, NaN and infinity that must come out as null), null, booleans, strings that need
// escaping, invalid UTF-8 (replaced), and a nested object.
json sample_values() {
  return json::array({0,
                      -7,
                      int64_t{9007199254740993},
                      std::numeric_limits<int64_t>::min(),
                      std::numeric_limits<uint64_t>::max(),
                      0.0015,
                      2.0,
                      -0.0,
                      1e-06,
                      123456.789012,
                      3.0e21,
                      std::nan(""),
                      std::numeric_limits<double>::infinity(),
                      nullptr,
                      true,
                      false,
                      "a \"quoted\"\n\\ text",
                      "caf\xc3\xa9",
                      std::string("bad \xff byte"),
                      json{{"k", 1}}});
}
json as_raw(const json& values) {
  raw::ArrayWriter w(values.size());
  for (const auto& v : values) w.value(v);
  return w.take();
}
}  // namespace

TEST_CASE("raw json: a document with raw arrays dumps byte for byte as the same tree") {
  json tree = {
      {"gcscope", "x"},
      {"reports",
       json::array({{{"format", "jvm-gc-log"}, {"series", {{"t", sample_values()}, {"empty", json::array()}}}}})},
      {"errors", json::array()},
      {"z key \xe2\x82\xac", 1.5}};
  json withRaw = tree;
  withRaw["reports"][0]["series"]["t"] = as_raw(sample_values());
  withRaw["reports"][0]["series"]["empty"] = raw::ArrayWriter().take();
  CHECK(raw::is_raw(withRaw["reports"][0]["series"]["t"]));
  CHECK_FALSE(raw::is_raw(tree["reports"][0]["series"]["t"]));
  CHECK_FALSE(raw::is_raw(json("\x01not raw")));
  const std::string expected = tree.dump(-1, ' ', false, json::error_handler_t::replace);
  CHECK(raw::dump_document(withRaw) == expected);
  // Hand-checked pieces of it: NaN and infinity are null, -0.0 keeps its sign, 2.0 stays a double.
  CHECK(expected.find("1e-06,123456.789012,3e+21,null,null,null,true") != std::string::npos);
  CHECK(expected.find(",2.0,-0.0,") != std::string::npos);
  // Pretty output resolves first.
  CHECK(raw::dump_document(withRaw, 2) == tree.dump(2, ' ', false, json::error_handler_t::replace));
  // resolve() gives back the tree (NaN and infinity were written as null, so compare to that).
  json resolved = withRaw;
  raw::resolve(resolved);
  CHECK(resolved == json::parse(expected));
  CHECK(resolved["reports"][0]["series"]["t"].size() == sample_values().size());
  CHECK(resolved["reports"][0]["series"]["t"][2].get<int64_t>() == 9007199254740993);
}

TEST_CASE("raw json: typed writers match the tree's numbers") {
  raw::ArrayWriter w;
  w.integer(-12);
  w.unsigned_integer(18446744073709551615ull);
  w.number(0.000004);
  w.number(std::nan(""));
  w.null();
  json doc = {{"a", w.take()}};
  CHECK(raw::dump_document(doc) == R"({"a":[-12,18446744073709551615,4e-06,null,null]})");
  // A writer is empty again after take().
  w.integer(1);
  CHECK(raw::dump_document(json{{"b", w.take()}}) == R"({"b":[1]})");
}

TEST_CASE("raw json: plain strings are written as is, anything JSON escapes falls back to a string") {
  json doc = {{"packed", raw::plain_string("12,-3,7*40,")},
              {"quoted", raw::plain_string("a\"b")},
              {"ctrl", raw::plain_string("a\nb")},
              {"utf8", raw::plain_string("caf\xc3\xa9")},
              {"empty", raw::plain_string("")}};
  CHECK(raw::is_raw(doc["packed"]));
  CHECK(raw::is_raw(doc["empty"]));
  CHECK_FALSE(raw::is_raw(doc["quoted"]));
  CHECK_FALSE(raw::is_raw(doc["ctrl"]));
  CHECK_FALSE(raw::is_raw(doc["utf8"]));
  json tree = {{"packed", "12,-3,7*40,"}, {"quoted", "a\"b"}, {"ctrl", "a\nb"}, {"utf8", "caf\xc3\xa9"}, {"empty", ""}};
  CHECK(raw::dump_document(doc) == tree.dump());
  raw::resolve(doc);
  CHECK(doc == tree);
}

TEST_CASE("raw json: the escape check sees every byte JSON escapes at every position of a word") {
  // plain_string checks eight bytes at a time: each byte that needs escaping, and the bytes next to
  // the ones that do not, at each of the 24 positions of a 24-byte text (three words and their tails).
  const std::string plain = "0123456789,-*abcdefghijk";
  REQUIRE(plain.size() == 24);
  CHECK(raw::is_raw(raw::plain_string(plain)));
  for (size_t len = 1; len <= plain.size(); ++len) {
    for (size_t at = 0; at < len; ++at) {
      for (unsigned char c : {0x00, 0x1f, 0x22, 0x5c, 0x80, 0xff}) {
        std::string text = plain.substr(0, len);
        text[at] = static_cast<char>(c);
        INFO("length " << len << ", byte 0x" << std::hex << int(c) << " at " << std::dec << at);
        CHECK_FALSE(raw::is_raw(raw::plain_string(text)));
      }
      for (unsigned char c : {0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f}) {  // the neighbours pass
        std::string text = plain.substr(0, len);
        text[at] = static_cast<char>(c);
        INFO("length " << len << ", byte 0x" << std::hex << int(c) << " at " << std::dec << at);
        CHECK(raw::is_raw(raw::plain_string(text)));
      }
    }
  }
}

TEST_CASE(
    "raw json: input text never passes for a raw value (fuzz find: a frame name spelling the old marker was written as JSON)") {
  // Raw values were once strings starting with "\x01gcscope:raw-json\x01": a folded-stacks frame named
  // that, followed by broken JSON, went into the report unescaped and resolve() threw. Now raw values
  // are binary values of their own subtype, which no parser makes.
  const std::string hostile = std::string("\x01gcscope:raw-json\x01") + "]},{\"injected\":true";
  json doc = {{"frames", json::array({hostile})}, {"name", hostile}};
  CHECK_FALSE(raw::is_raw(doc["name"]));
  const std::string text = raw::dump_document(doc);
  CHECK(text == doc.dump());
  json back = json::parse(text);
  CHECK(back["name"] == hostile);
  raw::resolve(doc);
  CHECK(doc["frames"][0] == hostile);
  // The same through the whole pipeline: the frame name comes back as the text it was.
  std::string folded = "main;" + hostile + " 3\nmain 2\n";
  json analyzed = gcscope::test::analyze_bytes({{"x.folded", folded}});
  const std::string written = raw::dump_document(analyzed);
  json reread = json::parse(written);
  const auto& frames = reread["reports"][0]["stacks"]["frames"];
  CHECK(std::find(frames.begin(), frames.end(), json(hostile)) != frames.end());
  CHECK_FALSE(reread["reports"][0].contains("injected"));
}
