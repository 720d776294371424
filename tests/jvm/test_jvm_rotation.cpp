// Rotating sets through the whole pipeline (InputSet → JvmAnalyzer): member order by content,
// restart detection, only the latest run kept unless all_runs=true. Expected values: the corpus
// manifest's gctoolkit.io expectations (GCToolKit's own ordering and line counts) and the single-member
// reports of the same files.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "support.h"

using gcscope::test::analyze_paths;
using gcscope::test::corpus;
using gcscope::test::read_json;
using gcscope::test::report_of;
using nlohmann::json;

namespace {

const json& io_expectation(const std::string& path) {
  static json m = read_json(corpus("jvm/manifest.json"));
  for (const auto& f : m["files"])
    if (f["path"] == path)
      for (const auto& e : f["expectations"])
        if (e["kind"] == "gctoolkit.io") return e["expected"];
  throw std::runtime_error("no gctoolkit.io expectation for " + path);
}

// GCToolKit's lines_streamed counts one end-of-data marker after the last line of the stream.
constexpr uint64_t kGctoolkitEndMarker = 1;

// Names relative to `prefix` (the zip path or directory the members were given under).
std::vector<std::string> relative(const json& paths, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::string s = p.get<std::string>();
    out.push_back(s.compare(0, prefix.size(), prefix) == 0 ? s.substr(prefix.size()) : s);
  }
  return out;
}

uint64_t selected_lines(const json& r) {
  uint64_t n = 0;
  for (const auto& m : r["members"])
    if (m["selected"] == true) n += m["lines"].get<uint64_t>();
  return n;
}

json jvm(const std::vector<std::string>& paths, json options = json::object()) {
  return report_of(analyze_paths(paths, std::move(options)), "jvm-gc-log");
}

}  // namespace

TEST_CASE("jvm rotation: zips of rotating sets are ordered by content (GCToolKit's segment order)", "[jvm][rotation]") {
  for (const char* rel : {"gctoolkit/rolling/jdk14/rollinglogs/zip/rollover.zip", "gctoolkit/rolling/jdk14/rollinglogs/zip/rolloverdir.zip",
                          "gctoolkit/streaming/rotating.zip", "gctoolkit/streaming/rotating_directory.zip"}) {
    INFO(rel);
    const json& want = io_expectation(rel);
    const std::string path = corpus(std::string("jvm/") + rel);
    json r = jvm({path});
    CHECK(relative(r["rotation"]["order"], path + "/") == want["ordered_segments"].get<std::vector<std::string>>());
    CHECK(r["rotation"]["selected"] == r["rotation"]["order"]);
    CHECK(r["rotation"]["restarts"] == 0);
    CHECK(selected_lines(r) + kGctoolkitEndMarker == want["lines_streamed"].get<uint64_t>());
    if (want.contains("numberOfFiles")) CHECK(r["members"].size() == want["numberOfFiles"].get<size_t>());
    // The series follow the content order: member ranks never go back.
    const auto& mem = r["series"]["events"]["member"];
    std::vector<uint32_t> rank;
    for (const auto& m : r["members"]) rank.push_back(m["rank"].get<uint32_t>());
    for (size_t i = 1; i < mem.size(); ++i) CHECK(rank[mem[i - 1].get<size_t>()] <= rank[mem[i].get<size_t>()]);
  }
}

TEST_CASE("jvm rotation: a directory given in reverse name order, and a single gzip member", "[jvm][rotation]") {
  const std::string dir = corpus("jvm/gctoolkit/streaming/rotating_directory/");
  const json& want = io_expectation("gctoolkit/streaming/rotating_directory/gc.log.0");
  json r = jvm({dir + "gc.log.1.current", dir + "gc.log.0"});
  CHECK(relative(r["rotation"]["order"], dir) == want["ordered_segments"].get<std::vector<std::string>>());
  CHECK(selected_lines(r) + kGctoolkitEndMarker == want["lines_streamed"].get<uint64_t>());
  // Same events as the zip of the same set.
  json z = jvm({corpus("jvm/gctoolkit/streaming/rotating.zip")});
  CHECK(r["events"]["total"] == z["events"]["total"]);
  CHECK(r["pauses"]["total_s"] == z["pauses"]["total_s"]);

  const json& gz = io_expectation("gctoolkit/streaming/gc.log.gz");
  json g = jvm({corpus("jvm/gctoolkit/streaming/gc.log.gz")});
  CHECK(g["members"].size() == gz["numberOfFiles"].get<size_t>());
  CHECK(g["members"][0]["dialect"] == (gz["isUnified"] == true ? "unified" : "legacy"));
  CHECK(selected_lines(g) + kGctoolkitEndMarker == gz["lines_streamed"].get<uint64_t>());
  CHECK(g["rotation"]["restarts"] == 0);
}

TEST_CASE("jvm rotation: a JVM restart keeps only the latest run unless all_runs=true", "[jvm][rotation]") {
  const std::string dir = corpus("jvm/gctoolkit/rolling/jdk14/rollinglogs/");
  const json& want = io_expectation("gctoolkit/rolling/jdk14/rollinglogs/short_restart_4.log");
  std::vector<std::string> set;
  for (const char* m : {"short_restart_4.log.1", "short_restart_4.log.2", "short_restart_4.log.3", "short_restart_4.log.4",
                        "short_restart_4.log"})
    set.push_back(dir + m);
  json live = jvm({dir + "short_restart_4.log"});
  json r = jvm(set);
  CHECK(relative(r["rotation"]["selected"], dir) == want["ordered_segments"].get<std::vector<std::string>>());
  CHECK(r["rotation"]["restarts"] == 4);  // every segment starts near uptime 0: five runs
  CHECK(r["rotation"]["note"].get<std::string>().find("restart") != std::string::npos);
  CHECK(selected_lines(r) + kGctoolkitEndMarker == 9133);  // GCToolKit's observed count (the expectation's note)
  // Only the live file's events: the same figures as that file alone.
  CHECK(r["events"]["total"] == live["events"]["total"]);
  CHECK(r["pauses"]["count"] == live["pauses"]["count"]);
  CHECK(r["pauses"]["total_s"] == live["pauses"]["total_s"]);
  CHECK(r["runtime_s"] == live["runtime_s"]);
  for (const auto& m : r["series"]["events"]["member"]) CHECK(m == 4);

  // all_runs=true: every member's events, sums of the single-member reports.
  int64_t events = 0, pauses = 0;
  for (const auto& p : set) {
    json one = jvm({p});
    events += one["events"]["total"].get<int64_t>();
    pauses += one["pauses"]["count"].get<int64_t>();
  }
  json all = jvm(set, json{{"all_runs", "true"}});
  CHECK(all["rotation"]["selected"].size() == 5);
  CHECK(all["events"]["total"] == events);
  CHECK(all["pauses"]["count"] == pauses);
  CHECK(relative(all["rotation"]["order"], dir).back() == "short_restart_4.log");
}
