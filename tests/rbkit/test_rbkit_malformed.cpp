// Hostile rbkit captures: every malformed/rbkit_* file of the heap corpus against its expectation in
// malformed/expectations.json (quoted above each check), plus hand-assembled msgpack for the
// encodings the corpus files do not cover. Bad input must never crash, hang or lose what was parsed.
#include <catch2/catch.hpp>
#include <string>

#include "core/identify.h"
#include "support.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()
using nlohmann::json;

namespace {

const json& expectations() {
  static const json e = read_json(corpus("heap/malformed/expectations.json"));
  return e;
}

// Analyzes a malformed file as the pipeline does (identification included).
json run(const std::string& name) { return analyze_paths({corpus("heap/malformed/" + name)}); }
// Same with the format forced, for files identification rightly refuses.
json run_forced(const std::string& name) {
  return analyze_paths({corpus("heap/malformed/" + name)}, json{{"format", "rbkit-capture"}});
}

size_t count_errors(const json& doc, const std::string& part, bool warnings_too = false) {
  size_t n = 0;
  for (const auto& e : doc["errors"])
    if ((warnings_too || !e.contains("severity")) && e["message"].get<std::string>().find(part) != std::string::npos)
      ++n;
  return n;
}

uint64_t by_type(const json& r, const char* type) {
  return r["events"]["by_type"].contains(type) ? r["events"]["by_type"][type].get<uint64_t>() : 0;
}

std::string msgpack_f64(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  std::string s("\xcb");
  for (int i = 7; i >= 0; --i) s.push_back(static_cast<char>((bits >> (i * 8)) & 0xff));
  return s;
}

}  // namespace

TEST_CASE("rbkit malformed: every rbkit file of expectations.json is covered here", "[rbkit][corpus]") {
  size_t n = 0;
  for (auto& [name, e] : expectations().items())
    if (e["kind"] == "rbkit") ++n;
  CHECK(n == 15);  // one TEST_CASE section below per file
}

TEST_CASE("rbkit malformed: truncated mid-frame keeps the 5 complete frames", "[rbkit][corpus]") {
  const json& e = expectations()["rbkit_truncated_mid_frame.rbkit"];
  // "5 complete top-level frames (handshake + event_collection counters 0..3), then truncation inside
  //  frame 6 at byte 74893 (cut at 80480); must report truncation, keep the 5 frames"
  json doc = run("rbkit_truncated_mid_frame.rbkit");
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(r["messages"] == e["complete_frames"]);
  CHECK(r["events"]["top_level"] == json({{"handshake", 1}, {"event_collection", 4}}));
  CHECK(r["counter_gaps"]["first"] == 0);
  CHECK(r["counter_gaps"]["last"] == 3);
  CHECK(r["truncated_at"] == e["truncated_frame_offset"]);
  CHECK(r["broken_messages"] == 1);
  REQUIRE(count_errors(doc, "truncated") == 1);
  for (const auto& err : doc["errors"])
    if (err["message"].get<std::string>().find("truncated") != std::string::npos) {
      CHECK(err["offset"] == e["truncated_frame_offset"]);
      CHECK(err["message"].get<std::string>().find("ends at byte 80480") != std::string::npos);
    }
}

TEST_CASE("rbkit malformed: a lone fixmap(4) header byte", "[rbkit][corpus]") {
  // "fixmap(4) header with no body: 0 events, truncation error at offset 0"
  // Identification leaves this 1-byte file unrecognized: 0x84 alone is no evidence of rbkit (any
  // msgpack map, or a binary file starting with 0x84, looks the same) and the probe never guesses.
  json doc = run("rbkit_header_byte_only.rbkit");
  CHECK(doc["reports"].empty());
  CHECK(doc["inputs"][0]["format"] == "unrecognized");
  // Forced to rbkit-capture, the analyzer reports exactly what the expectation asks.
  json forced = run_forced("rbkit_header_byte_only.rbkit");
  const json& r = report_of(forced, "rbkit-capture");
  CHECK(r["events"]["by_type"].empty());
  CHECK(r["messages"] == 0);
  CHECK(r["truncated_at"] == 0);
  REQUIRE(count_errors(forced, "capture is truncated") == 1);
  CHECK(forced["errors"].back()["offset"] == 0);
}

TEST_CASE("rbkit malformed: empty capture", "[rbkit][corpus]") {
  // "empty file: 0 events, friendly "empty capture" message, no crash"
  json doc = run("rbkit_empty.rbkit");
  CHECK(doc["inputs"][0]["format"] == "unrecognized");
  CHECK(count_errors(doc, "empty input (0 bytes)") == 1);
  json forced = run_forced("rbkit_empty.rbkit");
  const json& r = report_of(forced, "rbkit-capture");
  CHECK(r["messages"] == 0);
  CHECK(r["events"]["by_type"].empty());
  CHECK(count_errors(forced, "empty capture") == 1);
}

TEST_CASE("rbkit malformed: 0xC1 garbage prefix, then a valid collection", "[rbkit][corpus]") {
  // "0xc1 is the never-used msgpack byte: error at offset 0; a resyncing reader may recover the valid
  //  event_collection at offset 16 (1 gc_start + 1 gc_end_s); must not loop forever"
  json doc = run("rbkit_garbage_prefix.rbkit");
  CHECK(doc["inputs"][0]["identification"]["first_event_offset"] == 16);
  CHECK(doc["inputs"][0]["identification"]["leading_invalid_bytes"] == 16);
  const json& r = report_of(doc, "rbkit-capture");
  REQUIRE(count_errors(doc, "0xC1") == 1);
  CHECK(doc["errors"][0]["offset"] == 0);
  CHECK(r["resync"] == json({{"count", 1}, {"skipped_bytes", 16}}));
  CHECK(r["messages"] == 1);
  CHECK(by_type(r, "gc_start") == 1);
  CHECK(by_type(r, "gc_end_s") == 1);
  CHECK(r["gc_cycles"]["count"] == 1);
}

TEST_CASE("rbkit malformed: wrong types in 17 well-formed msgpack objects", "[rbkit][corpus]") {
  const json& e = expectations()["rbkit_wrong_types.rbkit"];
  // "17 well-formed msgpack objects; only the last 3 (gc_start, gc_end_m, gc_end_s) are valid
  //  top-level events; the gc_start nested in the counter="seven" collection is valid if the tool
  //  tolerates a bad counter (lenient: 2 gc_start, strict: 1). Every other object must be counted as
  //  rejected; "timestamp as string" must not be coerced silently into a date"
  json doc = run("rbkit_wrong_types.rbkit");
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(r["messages"] == e["top_level_objects"]);
  CHECK(r["events"]["top_level"] == json({{"gc_start", 1}, {"gc_end_m", 1}, {"gc_end_s", 1}}));
  // gcscope is lenient: the collection with counter "seven" is itself rejected, its valid gc_start kept.
  CHECK(by_type(r, "gc_start") == 2);
  CHECK(r["events"]["nested"] == json({{"gc_start", 1}}));
  CHECK(r["rejected_messages"] == 17 - 3);
  CHECK(r["rejection_reasons"]["gc_start: timestamp is a string (not converted into a time)"] == 1);
  CHECK(r["rejection_reasons"]["event_collection: message_counter (key 9) is not an unsigned integer"] == 1);
  CHECK(r["rejection_reasons"]["obj_created: object_id (key 3) is not an unsigned integer"] == 2);  // -5 and 1.5
  CHECK(r["objects_created"] == 0);
  // Identified on the first well-formed event map (byte 42), not on the string-typed one at byte 0.
  CHECK(doc["inputs"][0]["format"] == "rbkit-capture");
  CHECK(doc["inputs"][0]["identification"]["first_event_offset"] == 42);
}

TEST_CASE("rbkit malformed: huge declared lengths are never allocated", "[rbkit][corpus]") {
  // "array32/str32/map32 headers claim 4G/2GiB/4G entries with only bytes for a few: must fail with
  //  truncation without allocating by declared length (no OOM in a 32-bit wasm heap)"
  // Not identified: the 28 bytes hold no rbkit event map at all (an array of 1, 2, 3 and a string),
  // so identification says "binary data"; forced, the analyzer must fail cleanly.
  json doc = run("rbkit_huge_declared_lengths.rbkit");
  CHECK(doc["inputs"][0]["format"] == "unrecognized");
  json forced = run_forced("rbkit_huge_declared_lengths.rbkit");
  const json& r = report_of(forced, "rbkit-capture");
  CHECK(r["messages"] == 0);
  CHECK(r["truncated_at"] == 0);
  REQUIRE(count_errors(forced, "capture is truncated") == 1);
  // The str32 at byte 8 (5-byte header) declares 0x7fffffff bytes; 28 - 13 = 15 are present.
  CHECK(count_errors(forced, "2147483647 declared bytes, 2147483632 of them missing") == 1);
}

TEST_CASE("rbkit malformed: a collection declaring 2^31-1 events", "[rbkit][corpus]") {
  // "event_collection declares 2147483647 events but contains 1 gc_start: report truncation; lenient
  //  mode may surface the 1 gc_start; no pre-allocation"
  json doc = run("rbkit_huge_collection_count.rbkit");
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(by_type(r, "gc_start") == 1);
  CHECK(r["messages"] == 0);
  CHECK(count_errors(doc, "2147483646 declared item(s) of an open array missing") == 1);
}

TEST_CASE("rbkit malformed: 200000 nested arrays are rejected without recursion", "[rbkit][corpus]") {
  // "payload is 200000 nested 1-element arrays: parser must cap depth (iterative or limit) and reject,
  //  no stack overflow in wasm"
  json doc = run("rbkit_deep_nesting.rbkit");
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(count_errors(doc, "nesting deeper than 64 levels") == 1);
  CHECK(r["messages"] == 0);
  CHECK(r["broken_messages"] == 1);
  CHECK(r["events"]["by_type"].empty());
  // The rest of the file (0x91 bytes) holds no message start: all of it is skipped, once.
  CHECK(count_errors(doc, "no further rbkit message", true) == 1);
}

TEST_CASE("rbkit malformed: invalid UTF-8 class names and paths", "[rbkit][corpus]") {
  // "1 event_collection: 6 obj_created (5 invalid-UTF-8 class names + 1 valid "Ünïcødé") and 1
  //  complete object_space_dump (2 objects, invalid UTF-8 class name and file path). Count all 8
  //  objects; display invalid bytes as U+FFFD (or hex), never drop or crash; JSON export must stay valid"
  json doc = run("rbkit_invalid_utf8_class_names.rbkit");
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(r["objects_created"] == 6);
  CHECK(r["classes"]["class"].size() == 6);  // 6 distinct raw names stay 6 classes
  bool unicode = false;
  size_t replaced = 0;
  for (const auto& c : r["classes"]["class"]) {
    std::string s = c;
    if (s ==
        "\xC3\x9Cn\xC3\xAF"
        "c\xC3\xB8"
        "d\xC3\xA9")
      unicode = true;
    if (s.find("\xEF\xBF\xBD") != std::string::npos) ++replaced;
  }
  CHECK(unicode);
  CHECK(replaced == 5);
  REQUIRE(r["snapshots"].size() == 1);
  const json& s = r["snapshots"][0];
  CHECK(s["objects"] == 2);
  CHECK(s["complete"] == true);
  CHECK(s["by_site"]["class"][0] == "\xEF\xBF\xBD(");  // "\xC3(": the lead byte is replaced
  CHECK(s["by_site"]["file"][0] == "/app/\xEF\xBF\xBD.rb");
  CHECK_NOTHROW(doc.dump());  // nlohmann::json throws on invalid UTF-8: the export is valid
}

TEST_CASE("rbkit malformed: XSS strings are data, counted once each", "[rbkit][corpus]") {
  // "handshake + 1 event_collection with 7 obj_created, 1 complete object_space_dump (7 objects),
  //  1 gc_stats ... class counts = 1 each for 7 class names" (rendering is checked by e2e/rbkit.spec.js)
  json doc = run("rbkit_xss_strings.rbkit");
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(r["events"]["top_level"] == json({{"handshake", 1}, {"event_collection", 1}}));
  CHECK(r["objects_created"] == 7);
  CHECK(by_type(r, "gc_stats") == 1);
  CHECK(r["gc_stats"]["count"] == 1);
  REQUIRE(r["snapshots"].size() == 1);
  CHECK(r["snapshots"][0]["objects"] == 7);
  CHECK(r["snapshots"][0]["complete"] == true);
  CHECK(r["classes"]["class"].size() == 7);
  for (const auto& n : r["classes"]["created"]) CHECK(n == 1);
  CHECK(r["handshake"]["process_name"] == "<script>alert('proc')</script>");  // kept verbatim, as text
}

TEST_CASE("rbkit malformed: unknown event types and extra fields", "[rbkit][corpus]") {
  // "event types 42 and -1 are unknown -> skipped and counted (2); gc_start with extra key 77 is valid;
  //  empty cpu_sample ok; 1 gc_start, 1 gc_end_s, 1 obj_created(Foo; extra file/line keys tolerated)"
  json doc = run("rbkit_unknown_events_fields.rbkit");
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(r["events"]["unknown"] == 2);
  CHECK(r["events"]["unknown_types"] == json({{"42", 1}, {"-1", 1}}));
  CHECK(by_type(r, "gc_start") == 1);
  CHECK(by_type(r, "gc_end_s") == 1);
  CHECK(by_type(r, "obj_created") == 1);
  CHECK(by_type(r, "cpu_sample") == 1);
  CHECK(r["cpu_samples"]["leaf"] == json({-1}));  // no frames: no leaf
  CHECK(r["classes"]["class"] == json({"Foo"}));
  CHECK(r["rejected_events"] == 0);
}

TEST_CASE("rbkit malformed: message_counter gaps and duplicates", "[rbkit][corpus]") {
  const json& e = expectations()["rbkit_counter_gaps.rbkit"];
  // "message_counter sequence 0,1,2,5,5,6 -> 2 missing collections (3,4) and 1 duplicate (5);
  //  6 gc_start and 6 gc_end_s present (dedupe policy must be stated)"
  json doc = run("rbkit_counter_gaps.rbkit");
  const json& r = report_of(doc, "rbkit-capture");
  const json& cg = r["counter_gaps"];
  CHECK(cg["missing"] == e["missing"].size());
  CHECK(cg["missing_ranges"] == json({{3, 4}}));
  CHECK(cg["duplicate_counters"] == e["duplicates"]);
  CHECK(cg["policy"].get<std::string>().find("kept") != std::string::npos);  // policy: keep, don't dedupe
  CHECK(by_type(r, "gc_start") == 6);
  CHECK(by_type(r, "gc_end_s") == 6);
}

TEST_CASE("rbkit malformed: incomplete snapshot flagged, complete one summarized", "[rbkit][corpus]") {
  // "correlation_id 7: 2000 of 2500 objects -> INCOMPLETE (must be flagged, not shown as a full heap);
  //  correlation_id 8: 1500/1500 complete (1500 Hash, b.rb:3, 160000 bytes counted where size
  //  present, 500 nil sizes)"
  json doc = run("rbkit_incomplete_snapshot.rbkit");
  const json& r = report_of(doc, "rbkit-capture");
  REQUIRE(r["snapshots"].size() == 2);
  const json& a = r["snapshots"][0];
  CHECK(a["correlation_id"] == 7);
  CHECK(a["objects"] == 2000);
  CHECK(a["complete_message_count"] == 2500);
  CHECK(a["complete"] == false);
  bool flagged = false;
  for (const auto& n : r["notes"])
    if (n.get<std::string>().find("snapshot 7 is INCOMPLETE: 2000 of 2500") != std::string::npos) flagged = true;
  CHECK(flagged);
  const json& b = r["snapshots"][1];
  CHECK(b["correlation_id"] == 8);
  CHECK(b["objects"] == 1500);
  CHECK(b["complete"] == true);
  REQUIRE(b["heap"]["by_class"].size() == 1);
  CHECK(b["heap"]["by_class"][0]["class"] == "Hash");
  CHECK(b["heap"]["by_class"][0]["count"] == 1500);
  CHECK(b["by_site"]["file"] == json({"b.rb"}));
  CHECK(b["by_site"]["line"] == json({3}));
  CHECK(b["heap"]["bytes"] == 160000);
  CHECK(b["objects_without_size"] == 500);
}

TEST_CASE("rbkit malformed: unbalanced GC events", "[rbkit][corpus]") {
  // "gc_end_s first (no start), gc_start twice, gc_end_m without start, trailing gc_start: 3 gc_start,
  //  2 gc_end_m, 3 gc_end_s; at most 2 well-formed start->end_s intervals; no negative durations"
  // Sequence (msgpack gem): end_s, start, start, end_m, end_s, end_m, end_s, start. A start while a
  // cycle is open means the open one's end was lost (Ruby GCs do not nest), so exactly one
  // well-formed cycle remains: the second start → end_m → end_s.
  json doc = run("rbkit_gc_unbalanced.rbkit");
  const json& gc = report_of(doc, "rbkit-capture")["gc_cycles"];
  CHECK(gc["gc_start"] == 3);
  CHECK(gc["gc_end_m"] == 2);
  CHECK(gc["gc_end_s"] == 3);
  CHECK(gc["count"] == 1);
  CHECK(gc["end_s_without_start"] == 2);
  CHECK(gc["end_m_without_start"] == 1);
  CHECK(gc["starts_never_closed"] == 1);
  CHECK(gc["trailing_open"] == true);
  for (const auto& d : gc["duration_ms"]) CHECK(d.get<double>() >= 0);
}

TEST_CASE("rbkit malformed: bin class names, ext timestamps, ids above 2^53", "[rbkit][corpus]") {
  // "4 events: obj_created id 18446744073709551615 (bin8 class "String"), obj_created id
  //  18446744073709551614 (str16 "Array"), gc_start with ext(-1) timestamp (reject or convert),
  //  obj_destroyed of the first id. The two ids must stay DISTINCT and after destroy 1 object (Array)
  //  remains live"
  json doc = run("rbkit_bin_ext_bigint.rbkit");
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(r["objects_created"] == 2);
  CHECK(r["objects_destroyed"] == 1);
  CHECK(r["objects"]["destroyed_of_created_in_capture"] == 1);
  CHECK(r["objects"]["live_created_in_capture_at_end"] == 1);
  CHECK(r["objects"]["object_id_max"] == "18446744073709551615");
  CHECK(r["objects"]["object_id_min"] == "18446744073709551614");
  auto cls = r["classes"];
  REQUIRE(cls["class"] == json({"String", "Array"}));
  CHECK(cls["live_at_end"] == json({0, 1}));
  // ext(-1) fixext4 0x6b01730c = 1795257100 s: converted, equal to the float timestamps around it.
  CHECK(by_type(r, "gc_start") == 1);
  CHECK(r["timestamps_from_ext"] == 1);
  CHECK(r["gc_cycles"]["trailing_open_start_ms"] == 1795257100000.0);
}

// ---- Hand-assembled msgpack (each byte written down) ------------------------------------------

TEST_CASE("rbkit msgpack: old raw family and new str8/bin give the same classes", "[rbkit]") {
  const std::string ts = msgpack_f64(1795257100000.0);
  auto created = [&](const std::string& id_byte, const std::string& cls) {
    return std::string("\x83\x00\x00\x01", 4) + ts + std::string("\x02\x82\x03", 3) + id_byte + "\x04" + cls;
  };
  std::string events;
  events += created("\x10", std::string("\xa4Hash", 5));                  // fixraw/fixstr
  events += created("\x11", std::string("\xda\x00\x04Hash", 7));          // raw16/str16
  events += created("\x12", std::string("\xdb\x00\x00\x00\x04Hash", 9));  // raw32/str32
  events += created("\x13", std::string("\xd9\x04Hash", 6));              // str8 (msgpack-c >= 1.0)
  events += created("\x14", std::string("\xc4\x04Hash", 6));              // bin8
  events += created("\x15", std::string("\xc0", 1));                      // nil class name
  std::string capture = std::string("\x84\x00\x07\x01", 4) + ts + std::string("\x09\x00\x02\x96", 4) + events;
  json doc = analyze_bytes({{"raw.rbkit", capture}});
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(doc["errors"].empty());
  CHECK(r["classes"]["class"] == json({"Hash", "(nil)"}));
  CHECK(r["classes"]["created"] == json({5, 1}));
}

TEST_CASE("rbkit msgpack: a 4 GiB string declared in a tiny file", "[rbkit]") {
  // obj_created whose class name is a str32 declaring 0xffffffff bytes, followed by 10 bytes only.
  std::string capture = std::string("\x83\x00\x00\x01", 4) + msgpack_f64(1.0e12) +
                        std::string("\x02\x82\x03\x05\x04\xdb\xff\xff\xff\xff", 10) + "0123456789";
  for (size_t chunk : {size_t(0), size_t(1), size_t(4)}) {
    json doc = analyze_bytes({{"huge.rbkit", capture}}, json::object(), chunk);
    const json& r = report_of(doc, "rbkit-capture");
    CHECK(r["objects_created"] == 0);
    CHECK(count_errors(doc, "4294967295 declared bytes, 4294967285 of them missing") == 1);
  }
}

TEST_CASE("rbkit msgpack: key order does not matter inside events and payloads", "[rbkit]") {
  // object_space_dump with the payload (2) before correlation_id (10) and complete_message_count (11),
  // and an obj_created whose payload map lists class_name before object_id.
  const std::string ts = msgpack_f64(1795257100000.0);
  std::string dump = std::string("\x85\x00\x05\x01", 4) + ts +
                     std::string("\x02\x91\x86\x03\x08\x04\xa1X\x05\x90\x06\xa4x.rb\x07\x02\x08\x28", 20) +
                     std::string("\x0a\x03\x0b\x01", 4);
  std::string created = std::string("\x83\x00\x00\x01", 4) + ts + std::string("\x02\x82\x04\xa1Y\x03\x09", 7);
  json doc = analyze_bytes({{"order.rbkit", dump + created}});
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(doc["errors"].empty());
  REQUIRE(r["snapshots"].size() == 1);
  CHECK(r["snapshots"][0]["correlation_id"] == 3);
  CHECK(r["snapshots"][0]["complete"] == true);
  CHECK(r["snapshots"][0]["by_site"]["class"] == json({"X"}));
  CHECK(r["snapshots"][0]["heap"]["bytes"] == 40);
  CHECK(r["classes"]["class"] == json({"Y"}));  // snapshot classes are not "created" events
  CHECK(r["objects_created"] == 1);
}

TEST_CASE("rbkit identification: probe evidence and what stays unrecognized", "[rbkit][corpus]") {
  using gcscope::identify;
  // The real capture starts with the handshake reply: type 8, protocol from the handshake.
  std::string real = read_file(corpus("heap/rbkit/real_stock_threaddeath.rbkit")).substr(0, 65536);
  auto id = identify(real, false);
  CHECK(id.format == "rbkit-capture");
  CHECK(id.details["first_event_type"] == 8);
  CHECK(id.details["protocol_version"] == "2.1");
  CHECK(!id.details.contains("first_event_offset"));
  // Text can never look like rbkit (no 0x00 bytes); a map with key 0 but no timestamp is not enough.
  CHECK(identify("{\"type\":\"ROOT\"}\n", true).format != "rbkit-capture");
  CHECK(identify(std::string("\x81\x00\x02", 3), true).format == "unrecognized");
  // Msgpack of another program: a map whose key 0 holds a string.
  CHECK(identify(std::string("\x82\x00\xa1x\x01\xa1y", 7), true).format == "unrecognized");
}

TEST_CASE("rbkit msgpack: absurd timestamps are rejected, not binned", "[rbkit]") {
  // gc_start at 1e300 ms and at -5 ms, then a valid gc_end_s at 1e12 ms (2001-09-09).
  auto gc = [](char type, double ts) {
    return std::string("\x82\x00", 2) + type + std::string("\x01", 1) + msgpack_f64(ts);
  };
  json doc = analyze_bytes({{"ts.rbkit", gc('\x02', 1e300) + gc('\x02', -5.0) + gc('\x04', 1e12)}});
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(r["rejection_reasons"]["gc_start: timestamp out of range (not milliseconds since 1970)"] == 2);
  CHECK(r["events"]["by_type"] == json({{"gc_end_s", 1}}));
  CHECK(r["timestamps_ms"]["min"] == 1e12);
}

TEST_CASE("rbkit timeline: events scattered over years stay within bounded bins", "[rbkit]") {
  // 120000 obj_created, one every 1000 s (3.8 years): more distinct seconds than the decoder keeps
  // (100000), so stored bins are merged; the chart gets at most 4000 bins and every object is counted.
  std::string capture;
  for (uint32_t i = 0; i < 120000; ++i) {
    capture += std::string("\x83\x00\x00\x01", 4) + msgpack_f64(1e12 + i * 1e6) + std::string("\x02\x82\x03\xce", 4);
    for (int k = 3; k >= 0; --k) capture.push_back(static_cast<char>(((i + 1) * 8 >> (k * 8)) & 0xff));
    capture += std::string("\x04\xa1X", 3);
  }
  json doc = analyze_bytes({{"spread.rbkit", capture}});
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(r["objects_created"] == 120000);
  const json& tl = r["timeline"];
  CHECK(tl["t"].size() <= 4000);
  CHECK(tl["bin_s"].get<int64_t>() > 1000);
  uint64_t created = 0;
  for (const auto& v : tl["created"]) created += v.get<uint64_t>();
  CHECK(created == 120000);
  CHECK(tl["live"].back() == 120000);
}

TEST_CASE("rbkit: a pre-2.0 snapshot whose root pseudo-objects reference objects gets a dominator tree", "[rbkit]") {
  // Hand-assembled legacy dump (no correlation_id): a "vm" pseudo-object referencing id 16, which
  // references id 24 (sizes 40 and 100), plus an unreferenced id 32. Retained size of 16 = 140.
  const std::string ts = msgpack_f64(1407528865806.0);
  std::string objs;
  objs += std::string("\x83\x03\x08\x04\xa2vm\x05\x91\x10", 10);  // {3:8, 4:"vm", 5:[16]}
  objs += std::string(
      "\x84\x03\x10\x04\xa1"
      "A\x05\x91\x18\x08\x28",
      11);  // {3:16, 4:"A", 5:[24], 8:40}
  objs += std::string(
      "\x84\x03\x18\x04\xa1"
      "B\x05\x90\x08\x64",
      10);  // {3:24, 4:"B", 5:[], 8:100}
  objs += std::string(
      "\x84\x03\x20\x04\xa1"
      "C\x05\x90\x08\x08",
      10);  // {3:32, 4:"C", 5:[], 8:8}
  std::string capture = std::string("\x83\x00\x05\x01", 4) + ts + std::string("\x02\x94", 2) + objs;
  json doc = analyze_bytes({{"legacy.rbkit", capture}});
  const json& s = report_of(doc, "rbkit-capture")["snapshots"][0];
  CHECK(doc["errors"].empty());
  CHECK(s["objects"] == 4);
  const json& heap = s["heap"];
  CHECK(heap["objects"] == 3);
  CHECK(heap["roots_from_pseudo_objects"] == true);
  REQUIRE(heap["dominators"]["available"] == true);
  bool found = false;
  for (const auto& t : heap["top_retainers"])
    if (t["class"] == "A") {
      CHECK(t["retained_bytes"] == 140);
      found = true;
    }
  CHECK(found);
}

TEST_CASE("rbkit complaints: 20 listed per kind, the rest counted", "[rbkit]") {
  // 30 positive fixints (0x05): 30 top-level values that are not rbkit messages. Each one is a
  // "rejected" complaint; the first 20 are listed with their offsets, the other 10 are summed up in
  // one warning (the decoder no longer builds their messages). Hand count of the bytes.
  std::string capture(30, '\x05');
  json doc = analyze_bytes({{"ints.rbkit", capture}}, json{{"format", "rbkit-capture"}});
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(r["rejected_messages"] == 30);
  CHECK(r["rejection_reasons"] == json({{"top-level value is an unsigned integer, not a map", 30}}));
  CHECK(count_errors(doc, "top-level value at offset ", true) == 20);
  CHECK(count_errors(doc, "top-level value at offset 19 is an unsigned integer", true) == 1);
  CHECK(count_errors(doc, "top-level value at offset 20 ", true) == 0);
  CHECK(count_errors(doc, "10 more 'rejected' diagnostic(s) not listed", true) == 1);
}
