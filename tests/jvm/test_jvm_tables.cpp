// The JVM tables (jvm/tables.h) through the query protocol (table.rows), against the logs' text read
// with regular expressions: each pause's start, duration and GC number, the member of a rotated
// set each row came from, the wall-clock instants the decorations print, the safepoint lines.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "jvm_session.h"
#include "support.h"

using namespace gcscope::test;
using nlohmann::json;

namespace {

json rows_of(JvmSession& s, const std::string& table) {
  return s.ask("table.rows", {{"name", table}, {"limit", 100000}});
}

// Cell `column` of row `r` of a table.rows answer.
const json& cell(const json& t, size_t r, const std::string& column) {
  for (size_t c = 0; c < t["columns"].size(); ++c)
    if (t["columns"][c]["name"] == column) return t["rows"][r][c];
  throw std::runtime_error("no column " + column);
}

// Milliseconds since the epoch of an ISO 8601 UTC text "2026-11-21T12:09:42.580Z" (days from the
// civil date as in Howard Hinnant's algorithm).
double epoch_ms(const std::string& iso) {
  int y, mo, d, h, mi;
  double s;
  REQUIRE(std::sscanf(iso.c_str(), "%d-%d-%dT%d:%d:%lfZ", &y, &mo, &d, &h, &mi, &s) == 6);
  y -= mo <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const int yoe = y - era * 400;
  const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const double days = era * 146097.0 + doe - 719468;
  return ((days * 24 + h) * 60 + mi) * 60000.0 + s * 1000.0;
}

std::vector<std::string> lines_of(const std::string& path) {
  std::vector<std::string> out;
  std::istringstream in(read_file(path));
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("jvm tables: one pause row per pause of the log, at its gc,start uptime, as long as printed",
          "[jvm][tables]") {
  const std::string path = fixture("jvm/jdk17-g1.log");
  const std::vector<TextPause> want = text_pauses(path);
  REQUIRE(want.size() == 27);
  JvmSession s({path});
  const json t = rows_of(s, "pauses");
  REQUIRE(t["total"] == want.size());
  std::multiset<std::pair<int64_t, int64_t>> got_pairs, want_pairs;  // (start µs, duration µs)
  for (size_t r = 0; r < want.size(); ++r) {
    CHECK(cell(t, r, "input") == path);
    CHECK(cell(t, r, "ts").is_null());  // uptime decorations only
    got_pairs.emplace(std::llround(cell(t, r, "t_s").get<double>() * 1e6),
                      std::llround(cell(t, r, "duration_ms").get<double>() * 1e3));
    want_pairs.emplace(std::llround(want[r].start_s * 1e6), want[r].us);
  }
  CHECK(got_pairs == want_pairs);
}

TEST_CASE("jvm tables: rotated runs name their member; ts is each line's timemillis less the pause", "[jvm][tables]") {
  const std::vector<std::string> paths = {fixture("jvm/jdk17-serial-timemillis.log.0"),
                                          fixture("jvm/jdk17-serial-timemillis.log")};
  JvmSession s(paths, {{"all_runs", true}});
  const json t = rows_of(s, "pauses");
  // [1795264026172ms][229775973ns][31748] GC(0) Pause Young (Allocation Failure) 8M->1M(30M) 1.751ms
  static const std::regex pause_re(R"(^\[(\d+)ms\]\[\d+ns\]\[\d+\] GC\((\d+)\) Pause .* (\d+\.\d+)ms$)");
  size_t all = 0;
  for (const auto& path : paths) {
    const std::vector<std::string> lines = lines_of(path);
    size_t expected = 0;
    for (const auto& l : lines) expected += std::regex_search(l, pause_re) ? 1 : 0;
    REQUIRE(expected > 10);
    size_t seen = 0;
    for (size_t r = 0; r < t["rows"].size(); ++r) {
      if (cell(t, r, "input") != path) continue;
      ++seen;
      const size_t line = cell(t, r, "line").get<size_t>();
      REQUIRE(line >= 1);
      REQUIRE(line <= lines.size());
      std::smatch m;
      REQUIRE(std::regex_search(lines[line - 1], m, pause_re));
      INFO(lines[line - 1]);
      CHECK(cell(t, r, "gc_id") == std::stoll(m[2]));
      CHECK(cell(t, r, "duration_ms").get<double>() == Approx(std::stod(m[3])).margin(1e-9));
      CHECK(lines[line - 1].find("(" + cell(t, r, "cause").get<std::string>() + ")") != std::string::npos);
      // The line is printed when the pause ends: its start is the stamp less the duration.
      CHECK(std::fabs(epoch_ms(cell(t, r, "ts").get<std::string>()) - (std::stod(m[1]) - std::stod(m[3]))) <= 1.0);
    }
    CHECK(seen == expected);
    all += expected;
  }
  CHECK(t["total"] == all);
}

TEST_CASE("jvm tables: one safepoint row per safepoint line; findings are the report's", "[jvm][tables]") {
  const std::string path = fixture("jvm/jdk17-g1.log");
  size_t safepoint_lines = 0;
  for (const auto& l : lines_of(path))
    safepoint_lines += l.find("][safepoint") != std::string::npos && l.find(" Safepoint \"") != std::string::npos;
  REQUIRE(safepoint_lines > 10);
  JvmSession s({path});
  CHECK(rows_of(s, "safepoints")["total"] == safepoint_lines);
  const json f = rows_of(s, "findings");
  const json& findings = s.report()["findings"];
  REQUIRE(f["total"] == findings.size());
  for (size_t r = 0; r < findings.size(); ++r) {
    CHECK(cell(f, r, "id") == findings[r]["id"]);
    CHECK(cell(f, r, "severity") == findings[r]["severity"]);
    CHECK(cell(f, r, "input") == path);
  }
}
