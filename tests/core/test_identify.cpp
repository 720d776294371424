// Format identification over every real file of the shared corpus, checked against the formats the
// corpus manifests record (written by whoever collected the files, not by this code).
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "core/identify.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()

namespace {
// Identification as the pipeline does it: decode (gzip/zip), then identify the member's head.
nlohmann::json identify_file(const std::string& path) {
  nlohmann::json doc = gcscope::test::analyze_paths({path});
  const auto& in = doc["inputs"][0];
  if (!in["members"].empty()) return in["members"][0];
  return in;
}
}  // namespace

TEST_CASE("identification: every JVM GC log of the corpus, unified vs legacy as the manifest says", "[corpus]") {
  const auto manifest = read_json(corpus("jvm/manifest.json"));
  // The manifest's format column is wrong for these files; each is explained.
  const std::map<std::string, std::string> manifest_wrong = {
      {"garbagecat/dataset294.txt", "one line '[0.005s][info][arguments] jvm_args: -Xmx1g': unified decorations"},
      {"gcviewer/openjdk/unified-jvm-logging/SampleShenandoahPassiveHeuristics.txt",
       "starts '[0.016s][info][os] ...' (unified logging; GCViewer keeps it under unified-jvm-logging/)"},
      {"gcviewer/openjdk/unified-jvm-logging/SampleShenandoahSeveralSystemGC.txt", "same as above"},
  };
  // Java application output without a GC record (a thread dump): read as a JVM log whose lines are all
  // counted as not GC output (garbagecat reads it too and reports the thread dump).
  const std::set<std::string> application_output = {"garbagecat/dataset234.txt"};
  const std::set<std::string> not_gc_logs = {};
  size_t checked = 0;
  for (const auto& f : manifest["files"]) {
    const std::string rel = f["path"];
    if (f["compression"] != "none" || manifest_wrong.count(rel)) continue;
    INFO(rel);
    nlohmann::json id = identify_file(corpus("jvm/" + rel));
    const std::string expected = f["format"];
    if (expected == "empty" || not_gc_logs.count(rel)) {
      CHECK(id["format"] == "unrecognized");
    } else if (application_output.count(rel)) {
      CHECK(id["format"] == "jvm-gc-log");
      CHECK(id["identification"]["application_output"] == true);
    } else {
      REQUIRE(id["format"] == "jvm-gc-log");
      CHECK(id["identification"]["unified"] == (expected == "unified"));
    }
    ++checked;
  }
  CHECK(checked > 500);
  for (const auto& [rel, why] : manifest_wrong) {
    INFO(rel << ": " << why);
    CHECK(identify_file(corpus("jvm/" + rel))["identification"]["unified"] == true);
  }
}

TEST_CASE("identification: JVM collectors and versions from real JDK 17 logs", "[corpus]") {
  struct Case {
    const char* file;
    const char* collector;
  };
  for (auto c : {Case{"jdk17-g1.log", "G1"}, Case{"jdk17-parallel.log", "Parallel"}, Case{"jdk17-serial.log", "Serial"},
                 Case{"jdk17-zgc.log", "ZGC"}, Case{"jdk17-shenandoah.log", "Shenandoah"}}) {
    INFO(c.file);
    auto id = identify_file(fixture(std::string("jvm/") + c.file));
    CHECK(id["format"] == "jvm-gc-log");
    CHECK(id["identification"]["unified"] == true);
    CHECK(id["identification"]["collector"] == c.collector);
    // The logs' own "Version:" line, e.g. "17.0.15+6-Debian-1deb12u1 (release)".
    CHECK(id["identification"]["jvm_version"].get<std::string>().rfind("17.", 0) == 0);
  }
  auto legacy = identify_file(corpus("jvm/garbagecat/dataset119.txt"));  // JDK 7 iCMS log with header
  CHECK(legacy["identification"]["unified"] == false);
  CHECK(legacy["identification"]["collector"] == "iCMS");
  CHECK(legacy["identification"]["jvm_version"] == "1.7.0_79-b15");
  auto parallel = identify_file(corpus("jvm/garbagecat/dataset1.txt"));
  CHECK(parallel["identification"]["collector"] == "Parallel");
}

TEST_CASE("identification: compressed and archived JVM logs are identified after decoding", "[corpus]") {
  auto gz = gcscope::test::analyze_paths({corpus("jvm/gctoolkit/streaming/gc.log.gz")});
  CHECK(gz["inputs"][0]["compression"] == "gzip");
  CHECK(gz["inputs"][0]["format"] == "jvm-gc-log");
  auto zip = gcscope::test::analyze_paths({corpus("jvm/gctoolkit/streaming/rotating.zip")});
  CHECK(zip["inputs"][0]["compression"] == "zip");
  CHECK(zip["inputs"][0]["format"] == "jvm-gc-log");
  REQUIRE(zip["inputs"][0]["members"].size() == 2);  // unzip -l: gc.log.0, gc.log.1.current
  CHECK(zip["inputs"][0]["members"][0]["path"].get<std::string>().find("/gc.log.0") != std::string::npos);
  CHECK(zip["inputs"][0]["members"][1]["format"] == "jvm-gc-log");
}

TEST_CASE("identification: every stackprof profile, as Marshal and as JSON", "[corpus]") {
  const auto manifest = read_json(corpus("prof/manifest.json"));
  size_t n = 0;
  for (const auto& [name, info] : manifest["profiles"].items()) {
    INFO(name);
    auto dump = identify_file(corpus("prof/" + name + "/" + name + ".dump"));
    CHECK(dump["format"] == "stackprof");
    CHECK(dump["identification"]["encoding"] == "marshal");
    auto json = identify_file(corpus("prof/" + name + "/" + name + ".json"));
    CHECK(json["format"] == "stackprof");
    CHECK(json["identification"]["encoding"] == "json");
    ++n;
  }
  CHECK(n == 14);  // the corpus README's table lists 14 profiles
  // Odd but valid dumps: gzip'd, Marshal 4.9 (the parser rejects the version, identification finds it).
  CHECK(identify_file(corpus("prof/broken/gzipped.dump.gz"))["format"] == "stackprof");
  CHECK(identify_file(corpus("prof/broken/marshal-4.9.dump"))["identification"]["marshal_version"] == "4.9");
  CHECK(identify_file(corpus("prof/broken/random-bytes.dump"))["format"] == "unrecognized");
  CHECK(identify_file(fixture("stackprof/fib-cpu-raw.dump"))["format"] == "stackprof");
}

TEST_CASE("identification: heap dumps and rbkit captures of the heap corpus", "[corpus]") {
  const auto manifest = read_json(corpus("heap/manifest.json"));
  size_t n = 0;
  for (const auto& f : manifest["files"]) {
    const std::string kind = f["kind"], rel = f["path"];
    const char* expected = kind.rfind("heap_dump", 0) == 0       ? "ruby-heap-dump"
                           : kind.rfind("rbkit_capture", 0) == 0 ? "rbkit-capture"
                                                                 : nullptr;
    if (!expected) continue;  // malformed files: their analyzers' tests
    INFO(rel);
    CHECK(identify_file(corpus("heap/" + rel))["format"] == expected);
    ++n;
  }
  CHECK(n == 12);
  CHECK(identify_file(fixture("heap/points.heap.json.gz"))["format"] == "ruby-heap-dump");
  CHECK(identify_file(fixture("rbkit/stock-server-first12.rbkit"))["format"] == "rbkit-capture");
  CHECK(identify_file(corpus("heap/malformed/heap_not_json_html.heap.json"))["format"] == "unrecognized");
}

TEST_CASE("identification: TuneMyGC payloads report the Ruby version from the header", "[corpus]") {
  const auto manifest = read_json(corpus("tuner/manifest.json"));
  size_t n = 0;
  for (const auto& f : manifest["files"]) {
    const std::string file = f["file"];
    if (file.rfind("mf", 0) == 0) continue;  // malformed payloads: the tuner's own tests
    INFO(file);
    auto id = identify_file(corpus("tuner/" + file));
    CHECK(id["format"] == "tunemygc-payload");
    // The runtime column says e.g. "ruby 3.1.2p20 ..." or "ruby.wasm 3.3 ..."
    std::string runtime = f.value("runtime", "");
    std::string version = id["identification"].value("ruby_version", "");
    CHECK(!version.empty());
    if (runtime.rfind("ruby ", 0) == 0) CHECK(runtime.find(version) != std::string::npos);
    ++n;
  }
  CHECK(n == 9);  // 2 seed examples + 7 real runs
}

TEST_CASE("identification: tracing outputs as the trace manifest classifies them", "[corpus]") {
  const auto manifest = read_json(corpus("trace/manifest.json"));
  auto expected_id = [](const std::string& fmt) -> std::string {
    if (fmt.rfind("bpftrace.text", 0) == 0 || fmt == "bpftrace.tools-example") return "bpftrace-text";
    if (fmt.rfind("bpftrace.json", 0) == 0) return "bpftrace-json";
    if (fmt.rfind("bcc.", 0) == 0) return "bcc-output";
    if (fmt == "folded") return "folded-stacks";
    if (fmt.rfind("perf.script", 0) == 0) return "perf-script";
    if (fmt == "unknown" || fmt == "index" || fmt == "bpftrace.script" || fmt == "bpftrace.runtime-testspec")
      return "unrecognized";  // empty file, a TSV index, bpftrace programs and test specs: not tool output
    return "";                // DTrace: no format ID of its own, see below
  };
  size_t n = 0;
  for (const auto& f : manifest["files"]) {
    std::string want = expected_id(f["format"]);
    if (want.empty()) continue;
    INFO(f["path"].get<std::string>() << " (" << f["format"].get<std::string>() << ")");
    CHECK(identify_file(corpus("trace/" + f["path"].get<std::string>()))["format"] == want);
    ++n;
  }
  CHECK(n >= 115);
  // DTrace aggregations read like bpftrace maps; the tool is named in the details.
  CHECK(identify_file(corpus("trace/dtrace/rb_calldist_example.txt"))["identification"]["tool"] == "dtrace");
}

TEST_CASE("identification: garbage and near-misses are unrecognized with a reason") {
  auto check = [](const std::string& bytes, const std::string& reason_part) {
    Identification id = identify(bytes, true);
    INFO(bytes.substr(0, 40));
    CHECK(id.format == "unrecognized");
    CHECK(id.reason.find(reason_part) != std::string::npos);
  };
  check("", "empty");
  check(std::string("\x00\x01\x02\x03\x04\x05\x06\x07\x10\x11\x12", 11), "binary");
  check("<!DOCTYPE html><html></html>", "HTML");
  check("{\"name\": \"package.json\", \"version\": \"1.0.0\"}", "JSON, but not");
  check("hello world\nthis is a README\n", "none of");
  check(std::string("\x04\x08{\x06:\x08foo", 8), "without stackprof");
}
