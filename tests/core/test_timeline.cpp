// The timeline answers (core/timeline.h, method "timeline.series") against figures found here
// independently of the parsers: a JVM log's pauses read from its text with regular expressions,
// a hand-written bpftrace event stream, and an rbkit capture's per-window counts from the corpus
// truth (fixtures/rbkit/real_stock_windows.truth.json, made by a msgpack decoder of its own).
#include <catch2/catch.hpp>
#include <cmath>
#include <ctime>
#include <map>
#include <sstream>
#include <regex>
#include <string>
#include <vector>

#include "core/query.h"
#include "core/timeline.h"
#include "../jvm/jvm_session.h"

using nlohmann::json;

namespace gcscope::test {
namespace {

// A pause as the log's text prints it: the wall-clock time of its [gc,start] line (epoch seconds)
// and the duration of its closing "GC(n) Pause ... <d>ms" line.
struct WallPause {
  double start_s;
  double ms;
};

double epoch_seconds(const std::string& iso) {  // "2026-11-21T12:09:42.580+0000"
  std::tm tm = {};
  tm.tm_year = std::stoi(iso.substr(0, 4)) - 1900, tm.tm_mon = std::stoi(iso.substr(5, 2)) - 1;
  tm.tm_mday = std::stoi(iso.substr(8, 2)), tm.tm_hour = std::stoi(iso.substr(11, 2));
  tm.tm_min = std::stoi(iso.substr(14, 2)), tm.tm_sec = std::stoi(iso.substr(17, 2));
  return static_cast<double>(timegm(&tm)) + std::stoi(iso.substr(20, 3)) / 1e3;
}

std::vector<WallPause> wall_pauses(const std::string& text) {
  static const std::regex start(R"(^\[([0-9T:.+-]+)\]\[[0-9.]+s\]\[info\s*\]\[gc,start\s*\] GC\((\d+)\) Pause)");
  static const std::regex end(
      R"(^\[[^\]]+\]\[[0-9.]+s\]\[info\s*\]\[gc\s*\] GC\((\d+)\) Pause .* ([0-9]+\.[0-9]+)ms$)");
  std::vector<WallPause> out;
  std::map<std::string, size_t> open;
  std::istringstream in(text);
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, m, start)) {
      open[m[2]] = out.size();
      out.push_back({epoch_seconds(m[1]), NAN});
    } else if (std::regex_search(line, m, end) && open.count(m[1])) {
      out[open[m[1]]].ms = std::stod(m[2]);
      open.erase(m[1]);
    }
  }
  return out;
}

const json& series_named(const json& answer, const std::string& name) {
  for (const auto& s : answer.at("series"))
    if (s.at("name") == name) return s;
  throw std::runtime_error("no series " + name + " in " + answer.dump().substr(0, 1000));
}

uint64_t sum_of(const json& counts) {
  uint64_t n = 0;
  for (const auto& c : counts) n += c.get<uint64_t>();
  return n;
}

}  // namespace

TEST_CASE("timeline: a JVM log's pauses as bands on wall-clock time, as its text counts them", "[timeline][jvm]") {
  const std::string path = fixture("jvm/jdk17-g1-time.log");
  const std::vector<WallPause> want = wall_pauses(read_file(path));
  REQUIRE(want.size() == 30);
  JvmSession s({path});
  const json all = s.ask(timeline::kMethod);
  CHECK(all["clock"] == "epoch");
  const json& bands = series_named(all, "GC pauses");
  CHECK(bands["kind"] == "bands");
  CHECK(bands["merged"] == false);
  REQUIRE(bands["start"].size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    // The text prints milliseconds; the band's start is the pause's uptime on the log's wall clock.
    CHECK(bands["start"][i].get<double>() == Approx(want[i].start_s).margin(0.0015));
    CHECK(bands["max"][i].get<double>() == Approx(want[i].ms).margin(1e-9));
    CHECK(bands["end"][i].get<double>() == Approx(bands["start"][i].get<double>() + want[i].ms / 1e3).margin(1e-9));
  }
  // Pauses 10 to 19: the range between the midpoints of the starts around them.
  const double t0 = (want[9].start_s + want[10].start_s) / 2, t1 = (want[19].start_s + want[20].start_s) / 2;
  double total = 0, max = 0;
  for (size_t i = 10; i < 20; ++i) total += want[i].ms, max = std::max(max, want[i].ms);
  const json part = series_named(s.ask(timeline::kMethod, {{"t0", t0}, {"t1", t1}}), "GC pauses");
  CHECK(part["totals"]["count"] == 10);
  CHECK(part["totals"]["total"].get<double>() == Approx(total).margin(1e-9));
  CHECK(part["totals"]["max"].get<double>() == Approx(max).margin(1e-9));
  CHECK(part["start"].size() == 10);
  // Three pixel columns: the pauses merge into at most three bands that still count all of them.
  const json merged = series_named(s.ask(timeline::kMethod, {{"width", 3}}), "GC pauses");
  CHECK(merged["merged"] == true);
  CHECK(merged["start"].size() <= 3);
  CHECK(sum_of(merged["count"]) == 30);
  CHECK(merged["totals"]["count"] == 30);
  CHECK_THROWS_AS(s.ask(timeline::kMethod, {{"t0", 2}, {"t1", 1}}), QueryError);
}

TEST_CASE("timeline: a JVM log without wall-clock time is on JVM uptime", "[timeline][jvm]") {
  const std::string path = fixture("jvm/jdk17-g1.log");
  const std::vector<TextPause> want = text_pauses(path);
  REQUIRE(!want.empty());
  JvmSession s({path});
  const json all = s.ask(timeline::kMethod);
  CHECK(all["clock"] == "own");
  CHECK(all["clock_name"] == "JVM uptime");
  const json& bands = series_named(all, "GC pauses");
  CHECK(bands["totals"]["count"] == want.size());
  CHECK(bands["start"].front().get<double>() == Approx(want.front().start_s).margin(1e-9));
}

TEST_CASE("timeline: a bpftrace event stream is a line per probe on the capture's clock", "[timeline][tracing]") {
  // printf("%llu %s %llu\n", nsecs, probe, latency): index at 1.5 s, 2.5 s, 3.25 s; show at 2 s.
  const std::string text =
      "Attaching 2 probes...\n"
      "1500000000 usdt:app:index 1200\n"
      "2000000000 usdt:app:show 900\n"
      "2500000000 usdt:app:index 3400\n"
      "3250000000 usdt:app:index 56000\n";
  JvmSession s("stream.txt", text);
  const json all = s.ask(timeline::kMethod);
  CHECK(all["clock"] == "own");
  CHECK(all["t0"] == 1.5);
  CHECK(all["t1"] == 3.25);
  const json& index = series_named(all, "usdt:app:index");
  CHECK(index["kind"] == "line");
  CHECK(index["t"] == json::array({1.5, 2.5, 3.25}));
  CHECK(index["value"] == json::array({1200.0, 3400.0, 56000.0}));
  CHECK(series_named(all, "usdt:app:show")["value"] == json::array({900.0}));
  // One pixel column over 1.5..3.25 s: the maximum of the three.
  const json one = series_named(s.ask(timeline::kMethod, {{"width", 1}}), "usdt:app:index");
  CHECK(one["merged"] == true);
  CHECK(one["value"] == json::array({56000.0}));
  CHECK(one["totals"]["count"] == 3);
  // Unix-epoch nanoseconds (2024-05-01T12:00:00.250Z) put the stream on wall-clock time.
  JvmSession epoch("epoch.txt", "Attaching 1 probe...\n1714564800250000000 usdt:p:q 7\n");
  const json e = epoch.ask(timeline::kMethod);
  CHECK(e["clock"] == "epoch");
  CHECK(series_named(e, "usdt:p:q")["t"] == json::array({1714564800.25}));
}

TEST_CASE("timeline: an rbkit capture's allocations and GC cycles per window match the corpus truth",
          "[timeline][rbkit][corpus]") {
  const json truth = read_json(fixture("rbkit/real_stock_windows.truth.json"));
  const std::string capture = corpus(truth["capture"].get<std::string>().substr(std::string("shared/corpus/").size()));
  JvmSession s({capture});
  for (const auto& w : truth["windows"]) {
    // A window is whole seconds [s0, s1]: its events' times are below s1 + 1.
    const double t0 = w["s0"].get<double>(), t1 = w["s1"].get<double>() + 0.999;
    const json a = s.ask(timeline::kMethod, {{"t0", t0}, {"t1", t1}});
    CHECK(a["clock"] == "epoch");
    CHECK(series_named(a, "objects created")["totals"]["total"] == w["created"].get<double>());
    CHECK(series_named(a, "objects destroyed")["totals"]["total"] == w["destroyed"].get<double>());
    CHECK(series_named(a, "GC cycles")["totals"]["count"] == w["gc_start"]);
  }
}

}  // namespace gcscope::test
