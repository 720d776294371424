// The input-set pipeline end to end: several files, compression, archive members, bad files next to
// good ones, forced formats, and the same answer whatever the chunk size.
#include <catch2/catch.hpp>

#include "support.h"

using namespace gcscope;
using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()

TEST_CASE("input set: a corrupt .gz is an error while another file of the same drop is identified") {
  std::string gz = read_file(fixture("jvm/jdk17-g1-gconly.log.gz"));
  gz[20] = static_cast<char>(gz[20] ^ 0xff);
  gz[21] = static_cast<char>(gz[21] ^ 0xff);
  auto doc =
      analyze_bytes({{"broken.log.gz", gz}, {"fib.dump", read_file(fixture("stackprof/fib-cpu-raw.dump"))}}, {}, 7);
  REQUIRE(doc["inputs"].size() == 2);
  CHECK(doc["inputs"][1]["format"] == "stackprof");
  bool gz_error = false;
  for (const auto& e : doc["errors"])
    if (e["path"] == "broken.log.gz" && e["message"].get<std::string>().find("gzip") != std::string::npos) {
      gz_error = true;
      CHECK(e["offset"].is_number());
    }
  CHECK(gz_error);
  CHECK(InputSet::exit_status(doc) == 0);
}

TEST_CASE("input set: identification is the same at every chunk size, including 1 byte") {
  const std::string gz = read_file(fixture("jvm/jdk17-g1-gconly.log.gz"));
  const std::string dump = read_file(fixture("stackprof/fib-cpu-raw.dump"));
  auto whole = analyze_bytes({{"a.gz", gz}, {"b.dump", dump}});
  for (size_t chunk : {size_t(1), size_t(2), size_t(3), size_t(5), size_t(4096)}) {
    INFO("chunk " << chunk);
    auto doc = analyze_bytes({{"a.gz", gz}, {"b.dump", dump}}, {}, chunk);
    CHECK(doc["inputs"] == whole["inputs"]);
    CHECK(doc["reports"] == whole["reports"]);
  }
  CHECK(whole["inputs"][0]["decoded_bytes"] == read_file(fixture("jvm/jdk17-g1-gconly.log")).size());
}

TEST_CASE("input set: every input rejected gives exit status 3 and one error per input") {
  auto doc = analyze_bytes({{"notes.txt", "just some notes\n"}, {"empty.bin", ""}});
  CHECK(doc["reports"].empty());
  CHECK(doc["errors"].size() == 2);
  CHECK(doc["errors"][0]["path"] == "notes.txt");
  CHECK(doc["errors"][1]["message"].get<std::string>().find("empty") != std::string::npos);
  CHECK(InputSet::exit_status(doc) == 3);
}

TEST_CASE("input set: members of one multi-member format share one report, payloads form a fleet") {
  const std::string log = read_file(fixture("jvm/jdk17-g1.log"));
  const std::string payload = read_file(fixture("rubygc/rt16_rack_app_tiny_seed.json"));
  auto doc = analyze_bytes({{"gc.log.0", log}, {"gc.log.1", log}, {"a.json", payload}, {"b.json", payload}});
  size_t jvm = 0, tuner = 0;
  for (const auto& r : doc["reports"]) {
    if (r["format"] == "jvm-gc-log") {
      ++jvm;
      CHECK(r["inputs"].size() == 2);  // rotating logs form one analysis
    }
    if (r["format"] == "tunemygc-payload") {
      ++tuner;
      CHECK(r["inputs"].size() == 2);
      CHECK(r["fleet"]["processes"].size() == 2);  // each payload is its own process of the fleet
    }
  }
  CHECK(jvm == 1);
  CHECK(tuner == 1);
}

TEST_CASE("input set: a forced format overrides identification and says so") {
  auto doc = analyze_bytes({{"x.txt", "hello\n"}}, {{"format", "folded-stacks"}});
  CHECK(doc["inputs"][0]["format"] == "folded-stacks");
  CHECK(doc["inputs"][0]["identification"]["reason"].get<std::string>().find("forced") != std::string::npos);
}

TEST_CASE("input set: a directory-style zip with folders (GCToolKit's rotating_directory.zip)", "[corpus]") {
  auto doc = gcscope::test::analyze_paths({corpus("jvm/gctoolkit/streaming/rotating_directory.zip")});
  const auto& members = doc["inputs"][0]["members"];
  REQUIRE(members.size() >= 2);
  for (const auto& m : members) CHECK(m["format"] == "jvm-gc-log");
  CHECK(doc["errors"].empty());
}

TEST_CASE("input set: a zip above the size cap is refused with a clear message, not buffered", "[corpus]") {
  const std::string zip = read_file(corpus("jvm/gctoolkit/streaming/rotating.zip"));
  auto doc = analyze_bytes({{"big.zip", zip}, {"fib.dump", read_file(fixture("stackprof/fib-cpu-raw.dump"))}},
                           {{"zip_max_bytes", 100000}}, 65536);
  REQUIRE(doc["errors"].size() == 1);
  CHECK(doc["errors"][0]["path"] == "big.zip");
  CHECK(doc["errors"][0]["message"].get<std::string>().find("unzip it") != std::string::npos);
  CHECK(doc["inputs"][1]["format"] == "stackprof");
}
