// The stackprof report through the whole pipeline (identification, gzip, several members), checked
// against the corpus manifest's header counts, and every file of ../shared/corpus/prof/broken/
// against broken/broken.json's expected behaviour.
#include <catch2/catch.hpp>

#include "stackprof/profile.h"
#include "stackprof/reports.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()

namespace {

std::string messages(const nlohmann::json& doc) {
  std::string all;
  for (const auto& e : doc["errors"]) all += e["message"].get<std::string>() + "\n";
  return all;
}

bool has_error(const nlohmann::json& doc, const std::string& needle, bool warning = false) {
  for (const auto& e : doc["errors"])
    if (e["message"].get<std::string>().find(needle) != std::string::npos &&
        (e.value("severity", "error") == "warning") == warning)
      return true;
  return false;
}

// The real CLI's --text for the profile a broken file was derived from.
std::string text_golden(const std::string& profile) {
  return read_file(corpus("prof/" + profile + "/golden/text.txt"));
}

std::string our_text(const std::string& path) {
  stackprof::DumpLoader loader;
  std::string bytes = read_file(path);
  loader.feed(bytes.data(), bytes.size());
  stackprof::Profile p;
  std::vector<stackprof::Problem> problems;
  REQUIRE(loader.finish(p, problems));
  std::string s;
  stackprof::Out out(&s);
  stackprof::print_text(p, out);
  return s;
}

}  // namespace

TEST_CASE("stackprof report fields match the corpus manifest for every profile", "[stackprof][corpus]") {
  nlohmann::json manifest = read_json(corpus("prof/manifest.json"));
  for (auto& [name, prof] : manifest["profiles"].items()) {
    for (const char* encoding : {"dump", "json"}) {
      INFO(name << " " << encoding);
      auto doc = analyze_paths({corpus("prof/" + prof[encoding].get<std::string>())});
      const auto& r = report_of(doc, "stackprof");
      const auto& h = prof["header"];
      CHECK(r["version"] == h["version"]);
      CHECK(r["mode"] == h["mode"]);
      CHECK(r["interval"] == h["interval"]);
      CHECK(r["samples"] == h["samples"]);
      CHECK(r["gc_samples"] == h["gc_samples"]);
      CHECK(r["missed_samples"] == h["missed_samples"]);
      CHECK(r["frames"] == prof["frames"]);
      CHECK(r["encoding"] == (std::string(encoding) == "dump" ? "marshal" : "json"));
      bool raw = prof.contains("raw") && prof["raw"].is_object();
      CHECK(r["has_raw"] == raw);
      if (raw) {
        CHECK(r["raw_samples"] == prof["raw"]["raw_total_weight"]);
        CHECK(r["raw"]["record_stack"].size() == prof["raw"]["raw_stack_records"]);
        // Time per record = the sum of its samples' deltas; all records are covered.
        if (h["mode"] != "object") {
          REQUIRE(r["raw"]["record_duration"].size() == prof["raw"]["raw_stack_records"]);
          int64_t sum = 0;
          for (const auto& d : r["raw"]["record_duration"]) sum += d.get<int64_t>();
          // ... equal to the sum of raw_timestamp_deltas in the JSON twin (`stackprof --json`).
          nlohmann::json twin = read_json(corpus("prof/" + prof["json"].get<std::string>()));
          int64_t expected = 0;
          for (const auto& d : twin["raw_timestamp_deltas"]) expected += d.get<int64_t>();
          CHECK(sum == expected);
        } else {
          CHECK(r["raw"]["record_duration"].is_null());
        }
        CHECK(prof["raw"]["deltas"] == prof["raw"]["raw_total_weight"]);
        // The stack tree: a record's stack walks up to a root, depth <= the manifest's max depth.
        int64_t deepest = 0;
        const auto& parent = r["raw"]["stack_parent"];
        for (const auto& s : r["raw"]["record_stack"]) {
          int64_t d = 0;
          for (int64_t n = s.get<int64_t>(); n >= 0; n = parent[static_cast<size_t>(n)].get<int64_t>()) ++d;
          deepest = std::max(deepest, d);
        }
        CHECK(deepest == prof["raw"]["max_depth"]);
      }
      CHECK(r["metadata"].size() == h["metadata_keys"].size());
      if (h["mode"] == "object") CHECK(r["miss_rate"].is_null());
      // top = the text report's rows: compare the golden's first row's counts (ties aside, the
      // first row has the most self samples).
      std::string golden = read_file(corpus("prof/" + name + "/golden/text.txt"));
      size_t row = golden.find("FRAME\n") + 6;
      if (row < golden.size()) {
        long total = std::stol(golden.substr(row, 10)), self = std::stol(golden.substr(row + 21, 10));
        REQUIRE(r["top"].size() >= 1);
        CHECK(r["top"][0]["self"] == self);
        CHECK(r["top"][0]["total"] == total);
        CHECK(r["top"].size() == std::min<size_t>(30, prof["frames"].get<size_t>()));
      }
      CHECK(doc["errors"].empty());
    }
  }
}

TEST_CASE("stackprof: the fixtures through the pipeline, and two dumps summed", "[stackprof][corpus]") {
  auto doc = analyze_paths({fixture("stackprof/fib-cpu-raw.dump")});
  const auto& r = report_of(doc, "stackprof");
  CHECK(r["mode"] == "cpu");
  // fib-cpu-raw.text.txt is the real CLI's report: its header says the sample count.
  std::string text = read_file(fixture("stackprof/fib-cpu-raw.text.txt"));
  CHECK(our_text(fixture("stackprof/fib-cpu-raw.dump")) == text);
  CHECK(our_text(fixture("stackprof/fib-cpu-raw.json")) == text);
  CHECK(text.find("Samples: " + std::to_string(r["samples"].get<int64_t>()) + " ") != std::string::npos);

  auto two = analyze_paths(
      {corpus("prof/recursion-cpu-agg/recursion-cpu-agg.dump"), corpus("prof/blocks-cpu-agg/blocks-cpu-agg.dump")});
  const auto& s = report_of(two, "stackprof");
  CHECK(s["dumps"] == 2);
  CHECK(s["combined"] == true);
  CHECK(s["samples"] == 624);  // broken.json: `stackprof A B` prints "Samples: 624"
  CHECK(s["inputs"].size() == 2);
}

TEST_CASE("stackprof broken/: every file behaves as broken.json expects", "[stackprof][corpus]") {
  nlohmann::json expect = read_json(corpus("prof/broken/broken.json"));
  auto path = [](const std::string& f) { return corpus("prof/broken/" + f); };
  auto run = [&](const std::string& f) { return analyze_paths({path(f)}); };
  int checked = 0;

  SECTION("truncated Marshal: precise error with the byte offset, frames kept") {
    auto doc = run("truncated-60pct.dump");
    INFO(messages(doc));
    CHECK(has_error(doc, "Marshal data ends early at byte 41071 of 41079 (truncated file?)"));
    const auto& r = report_of(doc, "stackprof");
    CHECK(r["frames"] == 32);  // the frames hash was complete (manifest: blocks-cpu-raw has 32)
    CHECK(r["samples"] == 486);
    auto head = run("truncated-in-header.dump");
    CHECK(has_error(head, "Marshal data ends early at byte 39 of 40"));
    checked += 2;
  }
  SECTION("wrong Marshal versions") {
    CHECK(has_error(run("marshal-4.9.dump"), "Ruby Marshal version 4.9, only 4.8 is supported"));
    CHECK(has_error(run("marshal-3.8.dump"), "not a Ruby Marshal 4.x stream (major version 3)"));
    checked += 2;
  }
  SECTION("empty, random and non-profile files") {
    auto empty = run("empty.dump");
    CHECK(!empty["errors"].empty());
    CHECK(empty["reports"].empty());
    stackprof::DumpLoader loader;
    stackprof::Profile p;
    std::vector<stackprof::Problem> problems;
    CHECK_FALSE(loader.finish(p, problems));
    CHECK(problems.at(0).message == "empty file");
    auto random = run("random-bytes.dump");
    CHECK(random["reports"].empty());
    CHECK(!random["errors"].empty());
    // Forced to stackprof, random bytes get the reader's own verdict.
    auto forced = analyze_paths({path("random-bytes.dump")}, {{"format", "stackprof"}});
    CHECK(has_error(forced, "unrecognised file: neither Ruby Marshal (04 08) nor JSON"));
    auto notprof = analyze_paths({path("not-a-profile.dump")}, {{"format", "stackprof"}});
    CHECK(has_error(notprof, "not a stackprof profile: missing :frames / :mode / :samples"));
    // Nothing read, format forced or not: no report, so the set exits 3 (README: exit status).
    CHECK(forced["reports"].empty());
    CHECK(notprof["reports"].empty());
    CHECK(InputSet::exit_status(forced) == 3);
    checked += 3;
  }
  SECTION("a gzip'd dump is inflated and reads like the original") {
    auto doc = run("gzipped.dump.gz");
    const auto& r = report_of(doc, "stackprof");
    CHECK(r["samples"] == 486);
    CHECK(r["top"][0]["name"] == "Array#map");
    CHECK(doc["errors"].empty());
    checked += 1;
  }
  SECTION("valid oddities: version 9.9, exotic metadata, app Struct, v1.0 lines, combined dump") {
    auto v99 = run("stackprof-version-9.9.dump");
    CHECK(has_error(v99, "unknown stackprof format version 9.9 (known: 1.0, 1.1, 1.2)", true));
    CHECK(our_text(path("stackprof-version-9.9.dump")) == text_golden("blocks-cpu-raw"));

    auto exotic = run("valid-exotic-metadata.dump");
    CHECK(exotic["errors"].empty());
    const auto& md = report_of(exotic, "stackprof")["metadata"];
    INFO(md.dump());
    CHECK(md.size() >= 5);
    CHECK(md.dump().find("Time") != std::string::npos);
    CHECK(our_text(path("valid-exotic-metadata.dump")) == text_golden("blocks-cpu-raw"));

    auto app = run("metadata-app-struct.dump");
    CHECK(app["errors"].empty());
    const auto& req = report_of(app, "stackprof")["metadata"]["req"];
    INFO(req.dump());
    CHECK(req["$type"] == "Struct Foo");
    CHECK(req["request_id"] == "abc-123");
    CHECK(req["path"] == "/users");

    auto v10 = run("synthetic-v1.0-int-lines.dump");
    CHECK(report_of(v10, "stackprof")["version"] == 1.0);
    CHECK(our_text(path("synthetic-v1.0-int-lines.dump")) == text_golden("blocks-cpu-raw"));

    auto combined = run("combined-via-cli-dump.dump");
    CHECK(combined["errors"].empty());
    CHECK(report_of(combined, "stackprof")["combined"] == true);
    CHECK(report_of(combined, "stackprof")["samples"] == 624);
    checked += 5;
  }
  SECTION("JSON dumps with missing or inconsistent fields") {
    auto noframes = run("json-missing-frames.json");
    CHECK(has_error(noframes,
                    "stackprof JSON without a frames object: $.frames is missing from the top-level object "
                    "that ends at byte 114637 (its keys: version, mode, interval, samples, gc_samples, "
                    "missed_samples, metadata, raw, raw_sample_timestamps, raw_timestamp_deltas)"));
    // The error points at the top-level object's closing brace: the file's last byte (114638 bytes,
    // no newline at the end); its top-level keys as python3's json.load lists them.
    for (const auto& e : noframes["errors"])
      if (e["message"].get<std::string>().find("frames object") != std::string::npos) CHECK(e["offset"] == 114637);
    auto counters = run("json-missing-counters.json");
    CHECK(has_error(counters, "no samples counter; using 486 (sum of raw weights)", true));
    CHECK(report_of(counters, "stackprof")["missed_samples"].is_null());
    auto nodeltas = run("json-missing-raw_timestamp_deltas.json");
    CHECK(report_of(nodeltas, "stackprof")["has_raw"] == true);
    CHECK(report_of(nodeltas, "stackprof")["has_timestamp_deltas"] == false);
    auto unknown = run("json-raw-unknown-frame.json");
    CHECK(has_error(unknown, "raw[1] refers to frame 424242 which is not in frames", true));
    bool placeholder = false;
    for (const auto& n : report_of(unknown, "stackprof")["frame_table"]["name"])
      placeholder = placeholder || n == "(unknown frame 424242)";
    CHECK(placeholder);
    auto cut = run("json-raw-cut-mid-record.json");
    CHECK(has_error(cut, "raw ends inside a stack record (declared length 11 at index 7531", true));
    auto shortdeltas = run("json-wall-deltas-too-short.json");
    CHECK(has_error(shortdeltas, "raw_timestamp_deltas has 478 entries but raw holds 957 samples", true));
    auto trunc = run("json-truncated.json");
    CHECK(has_error(trunc, "JSON ends early at byte 59976 (truncated?)"));
    auto mode = run("json-unknown-mode.json");
    CHECK(has_error(mode, "unknown mode bogus", true));
    checked += 8;
  }
  SECTION("the cut raw record: the complete records give stackprof's lines for them") {
    // json-raw-cut-mid-record.json is blocks-cpu-raw.json with raw cut inside its last record:
    // our collapsed stacks are the golden's lines for the 452 complete records.
    stackprof::DumpLoader loader;
    std::string bytes = read_file(path("json-raw-cut-mid-record.json"));
    loader.feed(bytes.data(), bytes.size());
    stackprof::Profile p;
    std::vector<stackprof::Problem> problems;
    REQUIRE(loader.finish(p, problems));
    std::string s, err;
    stackprof::Out out(&s);
    REQUIRE(stackprof::print_stackcollapse(p, out, err));
    std::string golden = read_file(corpus("prof/blocks-cpu-raw/golden/stackcollapse.txt"));
    size_t pos = 0;
    for (int i = 0; i < 452; ++i) pos = golden.find('\n', pos) + 1;
    CHECK(s == golden.substr(0, pos));
    checked += 1;
  }
  SECTION("empty profile: valid, no samples, stackprof's NaN header") {
    for (const char* f : {"empty-profile-valid.dump", "empty-profile-valid.json"}) {
      auto doc = run(f);
      const auto& r = report_of(doc, "stackprof");
      CHECK(r["samples"] == 0);
      CHECK(r["has_raw"] == false);
      CHECK(r["notes"].dump().find("profile contains no samples") != std::string::npos);
      std::string t = our_text(path(f));
      CHECK(t.size() == 185);  // broken.json stdout_bytes
      CHECK(t.find("  Samples: 0 (NaN% miss rate)\n  GC: 0 (NaN%)\n") != std::string::npos);
    }
    checked += 2;
  }
  SECTION("every file with a zero-exit CLI --text has our --text of the same size and head") {
    for (auto& [name, e] : expect.items()) {
      const auto& t = e["stackprof_cli_text"];
      if (t["exit_code"] != 0) continue;
      INFO(name);
      std::string ours = our_text(path(name));
      CHECK(ours.size() == t["stdout_bytes"]);
      CHECK(ours.rfind(t["stdout_head"].get<std::string>(), 0) == 0);
    }
    checked += 1;
  }
  CHECK(checked > 0);
  CHECK(expect.size() == 23);  // every broken file is covered by one of the sections above
}

TEST_CASE("stackprof: metadata of every Marshal type is parsed and shown, never fatal", "[stackprof]") {
  // fixtures/stackprof/generate_metadata.rb lists the values it stored.
  auto doc = analyze_paths({fixture("stackprof/metadata-types.dump")}, {}, 7);
  INFO(messages(doc));
  CHECK(doc["errors"].empty());
  const auto& r = report_of(doc, "stackprof");
  CHECK(r["mode"] == "wall");
  const auto& m = r["metadata"];
  INFO(m.dump());
  CHECK(m["counts"] == nlohmann::json({{"seen", 3}}));  // '}' Hash with default 0: the default is not data
  CHECK(m["klass"] == "#<Class String>");
  CHECK(m["mod"] == "#<Module Comparable>");
  CHECK(m["tagged"] == "t");   // 'e' extended String
  CHECK(m["label"] == "lbl");  // 'C' String subclass
  CHECK(m["point"]["$type"] == "Struct Point");
  CHECK(m["point"]["x"] == 1);
  CHECK(m["point"]["y"] == 2);
  CHECK(m["plain"]["$type"] == "Object Plain");
  CHECK(m["plain"]["@b"] == "two");
  CHECK(m["at"] == "#<Time>");
  CHECK(m["rational"]["$type"] == "Rational");
  CHECK(m["rational"]["values"] == nlohmann::json::parse("[[1,3]]"));
  CHECK(m["pattern"] == "/ab+c/");
  CHECK(m["big_negative"] == "(negative integer of 9 bytes)");  // -(2**70)
  CHECK(m["ratio"] == 2.5);
  CHECK(m["ratio_again"] == 2.5);  // the '@' link to the same Float
  CHECK(m["café"] == ":naïve");
}

TEST_CASE("stackprof: a raw id above 2^63 is an unknown frame, not a crash (fuzzer regression)", "[stackprof]") {
  std::string json =
      R"({"version":1.2,"mode":"cpu","interval":1000,"samples":1,"gc_samples":0,"missed_samples":0,"frames":{},)"
      R"("raw":[1,18446744073709551615,1]})";
  stackprof::DumpLoader loader;
  loader.feed(json.data(), json.size());
  stackprof::Profile p;
  std::vector<stackprof::Problem> problems;
  REQUIRE(loader.finish(p, problems));
  REQUIRE(p.frames.size() == 1);
  CHECK(p.frames[0].name == "(unknown frame 18446744073709551615)");
  std::string s, err;
  stackprof::Out out(&s);
  REQUIRE(stackprof::print_stackcollapse(p, out, err));
  CHECK(s == "(unknown frame 18446744073709551615) 1\n");
}

// Found by fuzz_stackprof (2026-11-22): a top-level Hash whose key is itself an Array. The warning for
// its value read the name of the last top-level key, and there was none yet (UBSan: back() of an
// empty vector). Marshal by hand: 04 08, '{' with 2 pairs: key '[' of 1 element (i 1) with value i 1
// (then, second case, with value [2]), and :frames => {} (so that the rest of the dump is read as a
// profile and its keys are kept).
TEST_CASE("stackprof: a top-level key that is an Array is named in the warnings (fuzzer regression)", "[stackprof]") {
  const std::string frames(
      "\x3a\x0b"
      "frames"
      "\x7b\x00",
      10);
  struct Case {
    std::string bytes;
    const char* warning;
  } cases[] = {
      {std::string("\x04\x08\x7b\x07\x5b\x06\x69\x06\x69\x06", 10) + frames, "(complex key) is an Integer (ignored)"},
      {std::string("\x04\x08\x7b\x07\x5b\x06\x69\x06\x5b\x06\x69\x07", 12) + frames,
       "top-level key (complex key) holds an Array (ignored)"},
  };
  for (const auto& c : cases) {
    stackprof::DumpLoader loader;
    loader.feed(c.bytes.data(), c.bytes.size());
    stackprof::Profile p;
    std::vector<stackprof::Problem> problems;
    REQUIRE(loader.finish(p, problems));
    CHECK(p.top_keys == std::vector<std::string>{"(complex key)", "frames"});
    bool warned = false;
    for (const auto& pr : problems) warned = warned || pr.message == c.warning;
    CHECK(warned);
  }
}

// Two top-level keys that are Arrays are both "(complex key)"; print_json (stackprof --json) writes a
// key once, so its output stays a JSON object with distinct keys. Marshal by hand: 04 08, '{' with 3
// pairs: [1] => 1, [2] => 2, :frames => {}. Neither complex key's value is kept (both are warned about),
// so the one "(complex key)" is null.
TEST_CASE("stackprof: print_json writes a repeated top-level key once", "[stackprof]") {
  const std::string bytes =
      std::string("\x04\x08\x7b\x08\x5b\x06\x69\x06\x69\x06\x5b\x06\x69\x07\x69\x07", 16) + std::string(
                                                                                                "\x3a\x0b"
                                                                                                "frames"
                                                                                                "\x7b\x00",
                                                                                                10);
  stackprof::DumpLoader loader;
  loader.feed(bytes.data(), bytes.size());
  stackprof::Profile p;
  std::vector<stackprof::Problem> problems;
  REQUIRE(loader.finish(p, problems));
  CHECK(p.top_keys == std::vector<std::string>{"(complex key)", "(complex key)", "frames"});
  std::string s, err;
  stackprof::Out out(&s);
  REQUIRE(stackprof::print_json(p, out, err));
  CHECK(s == "{\"(complex key)\":null,\"frames\":{}}\n");
}
