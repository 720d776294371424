// Rotating sets through the whole pipeline (InputSet → JvmAnalyzer): member order by content,
// restart detection, only the latest run kept unless all_runs=true. Expected values: the corpus
// manifest's gctoolkit.io expectations (GCToolKit's own ordering and line counts) and the single-member
// reports of the same files.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "jvm_session.h"
#include "support.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()
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

TEST_CASE("jvm rotation: zips of rotating sets are ordered by content (GCToolKit's segment order)",
          "[jvm][rotation][corpus]") {
  for (const char* rel : {"gctoolkit/rolling/jdk14/rollinglogs/zip/rollover.zip",
                          "gctoolkit/rolling/jdk14/rollinglogs/zip/rolloverdir.zip", "gctoolkit/streaming/rotating.zip",
                          "gctoolkit/streaming/rotating_directory.zip"}) {
    INFO(rel);
    const json& want = io_expectation(rel);
    const std::string path = corpus(std::string("jvm/") + rel);
    json r = jvm({path});
    CHECK(relative(r["rotation"]["order"], path + "/") == want["ordered_segments"].get<std::vector<std::string>>());
    CHECK(r["rotation"]["selected"] == r["rotation"]["order"]);
    CHECK(r["rotation"]["restarts"] == 0);
    CHECK(selected_lines(r) + kGctoolkitEndMarker == want["lines_streamed"].get<uint64_t>());
    if (want.contains("numberOfFiles")) CHECK(r["members"].size() == want["numberOfFiles"].get<size_t>());
    // The events follow the content order: member ranks never go back.
    JvmSession s({path});
    std::vector<uint32_t> rank;
    for (const auto& m : r["members"]) rank.push_back(m["rank"].get<uint32_t>());
    const json rows = s.ask("jvm.events", {{"limit", 1000}})["rows"];
    for (size_t i = 1; i < rows.size(); ++i)
      CHECK(rank[rows[i - 1]["member"].get<size_t>()] <= rank[rows[i]["member"].get<size_t>()]);
  }
}

TEST_CASE("jvm rotation: a directory given in reverse name order, and a single gzip member",
          "[jvm][rotation][corpus]") {
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

TEST_CASE("jvm rotation: a JVM restart keeps only the latest run unless all_runs=true", "[jvm][rotation][corpus]") {
  const std::string dir = corpus("jvm/gctoolkit/rolling/jdk14/rollinglogs/");
  const json& want = io_expectation("gctoolkit/rolling/jdk14/rollinglogs/short_restart_4.log");
  std::vector<std::string> set;
  for (const char* m : {"short_restart_4.log.1", "short_restart_4.log.2", "short_restart_4.log.3",
                        "short_restart_4.log.4", "short_restart_4.log"})
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
  JvmSession latest(set);
  for (const auto& e : latest.ask("jvm.events", {{"limit", 1000}})["rows"]) CHECK(e["member"] == 4);

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

// ---- legacy findings in the analyzer's report ----------------------------------------------------

namespace {

const json* finding(const json& r, const std::string& id) {
  for (const auto& f : r["findings"])
    if (f["id"] == id) return &f;
  return nullptr;
}

size_t count_id(const json& r, const std::string& id) {
  size_t n = 0;
  for (const auto& f : r["findings"]) n += f["id"] == id;
  return n;
}

json legacy_report(const std::string& rel) { return jvm({corpus("jvm/" + rel)}); }

}  // namespace

TEST_CASE("jvm report: legacy findings end to end (CMS failures, promotion failed)", "[jvm][legacy-findings][corpus]") {
  json r = legacy_report("gctoolkit/preunified/cms/parnew/details/1073_1.log");
  REQUIRE(r["members"][0]["dialect"] == "legacy");
  const json* cmf = finding(r, "cms_concurrent_mode_failure");
  REQUIRE(cmf);
  // Counts as in tests/jvm_legacy/test_legacy_findings.cpp: 90 "concurrent mode failure" lines (grep -c)
  // + 6 ParNew+[CMS: records GCToolKit counts as failures = 96; first at line 91; 20 "promotion failed".
  CHECK((*cmf)["count"] == 96);
  CHECK((*cmf)["first_line"] == 91);
  CHECK((*cmf)["severity"] == "error");
  CHECK((*cmf)["message"].is_string());
  const json* pf = finding(r, "promotion_failed");
  REQUIRE(pf);
  CHECK((*pf)["count"] == 20);
  CHECK((*pf)["first_line"] == 462);
  // One finding per issue: the legacy CMS failure finding replaces the generic "Full GC under CMS".
  CHECK(count_id(r, "full_gc_concurrent_collector") == 0);
  CHECK_FALSE(finding(r, "icms_in_use"));
}

TEST_CASE("jvm report: legacy findings on logs that trigger them and logs that do not",
          "[jvm][legacy-findings][corpus]") {
  CHECK(finding(legacy_report("gctoolkit/preunified/icms/details/par.icms.wd.nt.log"), "icms_in_use"));
  json cms = legacy_report("gctoolkit/preunified/cms/parnew/details/GCLog_CMSCollection.log");
  CHECK_FALSE(finding(cms, "icms_in_use"));
  CHECK_FALSE(finding(cms, "gc_locker"));

  // garbagecat dataset1: PSYoungGen with PSOldGen full collections (garbagecat: ERROR_SERIAL_GC_PARALLEL).
  CHECK(finding(legacy_report("garbagecat/dataset1.txt"), "serial_old_with_parallel_young"));
  CHECK_FALSE(finding(
      legacy_report("gctoolkit/preunified/ps/details/tenuring/gccause/170/ps.cause.tenuring.details.v17051.log"),
      "serial_old_with_parallel_young"));

  // dataset119: "GC locker: Trying a full collection because scavenge failed"; the unified "gclocker"
  // finding (cause GCLocker Initiated GC) must not appear next to it.
  json locker = legacy_report("garbagecat/dataset119.txt");
  CHECK(finding(locker, "gc_locker"));
  CHECK(count_id(locker, "gclocker") == 0);

  // dataset144: two "(to-space exhausted)" pauses: one evacuation-failure finding, not two.
  json g1 = legacy_report("garbagecat/dataset144.txt");
  CHECK(count_id(g1, "g1_evacuation_failure") == 1);

  // Logging configuration: 530_gc.log has neither PrintGCDetails nor safepoint times; the legacy advice
  // (-XX flags) replaces the unified one (-Xlog).
  json cfg = legacy_report("gctoolkit/preunified/cms/530_gc.log");
  CHECK(finding(cfg, "print_gc_details_missing"));
  CHECK(finding(cfg, "application_stopped_time_missing"));
  CHECK_FALSE(finding(cfg, "missing_gc_details"));
  CHECK_FALSE(finding(cfg, "missing_safepoint_logging"));
  json ps = legacy_report("gctoolkit/preunified/ps/details/psyg.cms.wd.nt.log");
  CHECK_FALSE(finding(ps, "application_stopped_time_missing"));
  CHECK_FALSE(finding(ps, "print_gc_details_missing"));

  // A unified log gets no legacy findings at all.
  for (const auto& f : jvm({corpus("jvm/gctoolkit/rolling/jdk14/rollinglogs/short_restart_4.log")})["findings"])
    CHECK_FALSE(f.contains("source"));
}

TEST_CASE("jvm report: no duplicate finding ids on any legacy log", "[jvm][legacy-findings][corpus]") {
  for (const char* rel :
       {"gctoolkit/preunified/cms/parnew/details/1073_1.log", "garbagecat/dataset1.txt", "garbagecat/dataset119.txt",
        "garbagecat/dataset144.txt", "garbagecat/dataset9.txt", "gctoolkit/streaming/rotating.zip"}) {
    INFO(rel);
    json r = legacy_report(rel);
    std::vector<std::string> ids;
    for (const auto& f : r["findings"]) ids.push_back(f["id"]);
    std::sort(ids.begin(), ids.end());
    CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
  }
  CHECK(finding(legacy_report("garbagecat/dataset9.txt"), "gc_overhead_limit"));
}
