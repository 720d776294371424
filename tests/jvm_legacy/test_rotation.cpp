// Rotating sets: segment order by content and JVM restart detection, against the gctoolkit.io
// expectations of the corpus manifest (GCToolKit's RotatingGCLogFile on the same files).
#include <catch2/catch.hpp>

#include "jvm/rotation.h"
#include "legacy_support.h"

using namespace gcscope;
using namespace gcscope::test;
using namespace gcscope::jvm;

namespace {

const nlohmann::json& io_expectation(const std::string& path) {
  static nlohmann::json m = read_json(corpus("jvm/manifest.json"));
  for (const auto& f : m["files"])
    if (f["path"] == path)
      for (const auto& e : f["expectations"])
        if (e["kind"] == "gctoolkit.io") return e["expected"];
  throw std::runtime_error("no gctoolkit.io expectation for " + path);
}

uint64_t count_lines(const std::string& bytes) {
  uint64_t n = 0;
  for (char c : bytes) n += c == '\n';
  if (!bytes.empty() && bytes.back() != '\n') ++n;
  return n;
}

struct Planned {
  std::vector<std::string> names;  // selected, in order
  uint64_t lines = 0;              // lines in the selected segments
  RotationPlan plan;
};

Planned plan_members(const std::vector<NamedBytes>& members, bool all_runs = false) {
  std::vector<SegmentHead> heads;
  for (const auto& m : members) {
    SegmentHead h;
    h.name = m.path;
    scan_segment_head(std::string_view(m.bytes).substr(0, 64 * 1024), h);
    h.lines = count_lines(m.bytes);
    heads.push_back(h);
  }
  Planned out;
  out.plan = plan_rotation(heads, all_runs);
  for (size_t i : out.plan.selected) {
    out.names.push_back(heads[i].name);
    out.lines += heads[i].lines;
  }
  return out;
}

// GCToolKit's lines_streamed counts one end-of-data marker after the last line of the (whole) stream
// (short_restart_4.log: 9132 lines in the file, 9133 streamed).
constexpr uint64_t kGctoolkitEndMarker = 1;

std::vector<std::string> strings(const nlohmann::json& j) { return j.get<std::vector<std::string>>(); }

}  // namespace

TEST_CASE("rotation: a zip of a unified rotating set is ordered by content, not name",
          "[jvm-legacy][rotation][corpus]") {
  for (const char* rel : {"gctoolkit/rolling/jdk14/rollinglogs/zip/rollover.zip",
                          "gctoolkit/rolling/jdk14/rollinglogs/zip/rolloverdir.zip"}) {
    const auto& want = io_expectation(rel);
    auto got = plan_members(decode_members(corpus(std::string("jvm/") + rel)));
    INFO(rel << ": " << got.plan.note);
    CHECK(got.names == strings(want["ordered_segments"]));
    CHECK(got.lines + kGctoolkitEndMarker == want["lines_streamed"].get<uint64_t>());
    CHECK_FALSE(got.plan.restart_detected);
  }
}

TEST_CASE("rotation: JDK 7 rotation with a .current live file", "[jvm-legacy][rotation][corpus]") {
  for (const char* rel : {"gctoolkit/streaming/rotating.zip", "gctoolkit/streaming/rotating_directory.zip"}) {
    const auto& want = io_expectation(rel);
    auto members = decode_members(corpus(std::string("jvm/") + rel));
    CHECK(members.size() == want["numberOfFiles"].get<size_t>());
    auto got = plan_members(members);
    CHECK(got.lines + kGctoolkitEndMarker == want["lines_streamed"].get<uint64_t>());
    if (want.contains("ordered_segments")) CHECK(got.names == strings(want["ordered_segments"]));
    else CHECK(got.names == std::vector<std::string>{"mbtmec-pr02/gc.log.0", "mbtmec-pr02/gc.log.1.current"});
    CHECK_FALSE(got.plan.restart_detected);
  }
  // The same set as a directory, listed in reverse to show the name order does not matter.
  const auto& want = io_expectation("gctoolkit/streaming/rotating_directory/gc.log.0");
  std::vector<NamedBytes> dir;
  for (const char* name : {"gc.log.1.current", "gc.log.0"})
    dir.push_back({name, read_file(corpus(std::string("jvm/gctoolkit/streaming/rotating_directory/") + name))});
  auto got = plan_members(dir);
  CHECK(got.names == strings(want["ordered_segments"]));
  CHECK(got.lines + kGctoolkitEndMarker == want["lines_streamed"].get<uint64_t>());
}

TEST_CASE("rotation: a JVM restart inside a set keeps only the latest run", "[jvm-legacy][rotation][corpus]") {
  const std::string base = "gctoolkit/rolling/jdk14/rollinglogs/";
  const auto& want = io_expectation(base + "short_restart_4.log");
  std::vector<NamedBytes> set;
  for (const char* name : {"short_restart_4.log.1", "short_restart_4.log.2", "short_restart_4.log.3",
                           "short_restart_4.log.4", "short_restart_4.log"})
    set.push_back({name, read_file(corpus("jvm/" + base + name))});
  auto got = plan_members(set);
  CHECK(got.plan.restart_detected);
  CHECK(got.names == strings(want["ordered_segments"]));
  CHECK(got.lines + kGctoolkitEndMarker == 9133);  // GCToolKit's observed count (the expectation's note)
  CHECK(got.plan.runs.size() == 5);

  auto all = plan_members(set, /*all_runs=*/true);
  CHECK(all.names.size() == 5);
  CHECK(all.names.back() == "short_restart_4.log");
}

TEST_CASE("rotation: wall-clock stamps order segments across a restart", "[jvm-legacy][rotation]") {
  // Hand-made heads: two runs of a JDK 8 log, the second starting again at uptime 0.5 s.
  std::vector<SegmentHead> heads(3);
  heads[0].name = "gc.log.0";
  scan_segment_head("2016-08-30T20:35:29.100+0200: 0.512: [GC (Allocation Failure) ...\n", heads[0]);
  heads[1].name = "gc.log.1";
  scan_segment_head("Java HotSpot(TM) 64-Bit Server VM\n2016-08-30T21:00:00.000+0200: 1500.300: [GC ...\n", heads[1]);
  heads[2].name = "gc.log.2.current";
  scan_segment_head("2016-08-31T08:00:00.000+0200: 0.700: [GC ...\n", heads[2]);
  CHECK(heads[1].first_uptime_s == Approx(1500.3));
  auto plan = plan_rotation(heads, false);
  CHECK(plan.ordered_by_wall_clock);
  CHECK(plan.restart_detected);
  CHECK(plan.selected == std::vector<size_t>{2});
  CHECK(plan_rotation(heads, true).selected == std::vector<size_t>{0, 1, 2});
  CHECK(is_live_segment("gc.log"));
  CHECK(is_live_segment("dir/gc.log.1.current"));
  CHECK_FALSE(is_live_segment("gc.log.3"));
  CHECK_FALSE(is_live_segment("gc.log.3.gz"));
}

TEST_CASE("streaming: the gzip log decodes to GCToolKit's line count", "[jvm-legacy][rotation][corpus]") {
  const auto& want = io_expectation("gctoolkit/streaming/gc.log.gz");
  auto members = decode_members(corpus("jvm/gctoolkit/streaming/gc.log.gz"));
  REQUIRE(members.size() == 1);
  CHECK(count_lines(members[0].bytes) + kGctoolkitEndMarker == want["lines_streamed"].get<uint64_t>());
  LegacyRun run;
  run_legacy(run, members);
  CHECK(diary_flag(run.diary, "UNIFIED_LOGGING") != jvm::Tri::kTrue);  // isUnified: false
  CHECK(run.stats.events > 0);
}

// A member's first stamps are read as the parsers read them (jvm/decorations.h): a "+01:00" time zone
// counts, and timemillis is a wall-clock stamp. Epoch milliseconds computed with Python's datetime.
TEST_CASE("rotation: unified heads are read with the parsers' decoration rules", "[jvm-legacy][rotation]") {
  SegmentHead colon_zone;
  scan_segment_head("[2020-11-30T14:13:47.123+01:00][0.512s][info][gc] Using G1\n", colon_zone);
  CHECK(colon_zone.first_wall_ms == 1606742027123.0);
  CHECK(colon_zone.first_uptime_s == Approx(0.512));

  SegmentHead millis;
  scan_segment_head("[1606742027123ms][512ms][info][gc] Using G1\n", millis);
  CHECK(millis.first_wall_ms == 1606742027123.0);
  CHECK(millis.first_uptime_s == Approx(0.512));

  SegmentHead legacy_id;
  scan_segment_head("Java HotSpot(TM) 64-Bit Server VM\n2.250: #3: [GC (Allocation Failure) ...\n", legacy_id);
  CHECK(legacy_id.first_wall_ms == -1);
  CHECK(legacy_id.first_uptime_s == Approx(2.25));
}

// An application's clock in front of its own lines ("07:19:42,943 INFO", a JBoss log with GC lines
// among them) is no uptime: a member's first uptime is its first GC record's. By hand: a.log's first
// record is at 20.000 s, b.log's at 30.000 s after a line stamped 07:19:42; read as an uptime of 7 s
// (hours) or 19 s (minutes), that clock would put b.log first.
TEST_CASE("rotation: an application's clock is no uptime", "[jvm-legacy][rotation]") {
  std::vector<SegmentHead> heads(2);
  heads[0].name = "a.log";
  scan_segment_head("20.000: [GC (Allocation Failure) [PSYoungGen: 24M->4M(256M)] 0.0032 secs]\n", heads[0]);
  heads[1].name = "b.log";
  scan_segment_head(
      "07:19:42,943 INFO  [Server] Starting JBoss (MX MicroKernel)...\n"
      "30.000: [GC (Allocation Failure) [PSYoungGen: 24M->4M(256M)] 0.0032 secs]\n",
      heads[1]);
  CHECK(heads[0].first_uptime_s == Approx(20.0));
  CHECK(heads[1].first_uptime_s == Approx(30.0));
  CHECK(plan_rotation(heads, false).order == std::vector<size_t>{0, 1});
}

// dataset114 is a JBoss console log: "07:19:42,943 INFO" lines, then one ParNew record stamped by date
// alone (2017-02-27T07:23:39.571+0100 = 1488176619571 ms, Python's datetime). No line of it gives an
// uptime, so the record has none and the log no time range, as dataset113 (the same JVM settings,
// without the console lines) has none.
TEST_CASE("jvm legacy: an application's clock gives no record an uptime", "[jvm-legacy][rotation][corpus]") {
  const auto doc = analyze_paths({corpus("jvm/garbagecat/dataset114.txt")});
  const auto& r = report_of(doc, "jvm-gc-log");
  const auto& rows = r["events_page"]["rows"];
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["t"].is_null());
  CHECK(rows[0]["wall_ms"] == 1488176619571);
  CHECK(rows[0]["line"] == 32);
  CHECK(r["time_range_s"]["first"].is_null());
  const auto twin = analyze_paths({corpus("jvm/garbagecat/dataset113.txt")});
  auto ids = [](const nlohmann::json& report) {
    std::vector<std::string> out;
    for (const auto& f : report["findings"]) out.push_back(f["id"]);
    return out;
  };
  CHECK(ids(r) == ids(report_of(twin, "jvm-gc-log")));
  CHECK(report_of(twin, "jvm-gc-log")["time_range_s"]["first"].is_null());
}
