// The JVM session's questions (wasm/jvm/queries.cpp, series.cpp, event_pages.cpp) on real logs:
// jvm.summary against the pauses counted from the logs' text here (jvm_session.h: regular
// expressions over the "GC(n) Pause … ms" lines, independent of the parser), jvm.events paging,
// sorting and filtering, jvm.series keeping the extremes, and compare.side.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/query.h"
#include "jvm/compare.h"
#include "jvm_session.h"

using nlohmann::json;

namespace gcscope::test {
namespace {

const char* const kG1 = "jvm/generated/jdk17_g1_gc-all-safepoint_default-decorations.log";  // 2,657 pauses, 15 s
const char* const kParallel = "jvm/gctoolkit/unified/parallel/parallelgc.log";              // 4,666 pauses

// Checks a jvm.summary's pauses against the hand-counted pauses of its range.
void check_pauses(const json& summary, const std::vector<TextPause>& want) {
  const json& p = summary["pauses"];
  REQUIRE(p["count"] == want.size());
  if (want.empty()) {
    CHECK(p["total_s"] == 0.0);
    return;
  }
  std::vector<int64_t> us;
  int64_t total = 0;
  for (const auto& w : want) us.push_back(w.us), total += w.us;
  std::sort(us.begin(), us.end());
  CHECK(p["total_s"].get<double>() == static_cast<double>(total) / 1e6);
  CHECK(p["min_s"].get<double>() == static_cast<double>(us.front()) / 1e6);
  CHECK(p["max_s"].get<double>() == static_cast<double>(us.back()) / 1e6);
  CHECK(p["mean_s"].get<double>() ==
        Approx(static_cast<double>(total) / 1e6 / static_cast<double>(us.size())).margin(5e-7));
  CHECK(p["p50_s"].get<double>() == static_cast<double>(nearest_rank(us, 0.50)) / 1e6);
  CHECK(p["p90_s"].get<double>() == static_cast<double>(nearest_rank(us, 0.90)) / 1e6);
  CHECK(p["p99_s"].get<double>() == static_cast<double>(nearest_rank(us, 0.99)) / 1e6);
  CHECK(p["p999_s"].get<double>() == static_cast<double>(nearest_rank(us, 0.999)) / 1e6);
  // Every pause has its kind; the text's "Pause Remark" is the parser's G1GCRemark (GCToolKit's name).
  int64_t kinds = 0;
  for (const auto& [name, k] : summary["pause_kinds"].items()) kinds += k["count"].get<int64_t>();
  CHECK(kinds == static_cast<int64_t>(want.size()));
  const size_t remarks =
      std::count_if(want.begin(), want.end(), [](const TextPause& w) { return w.kind == "Pause Remark"; });
  const json& kr = summary["pause_kinds"];
  CHECK((kr.contains("Pause G1GCRemark") ? kr["Pause G1GCRemark"]["count"].get<size_t>() : 0) == remarks);
}

// The report's fields that jvm.summary answers for the whole log.
const char* const kSummaryFields[] = {
    "events", "pauses", "time_range_s", "runtime_s", "percent_paused", "throughput_percent", "heap",
    "rates",  "causes", "pause_kinds",  "phases",    "safepoints",     "pause_histogram"};

}  // namespace

TEST_CASE("jvm.summary: the pauses of a time range are those the log's text shows there", "[jvm][query][corpus]") {
  const std::string path = corpus(kG1);
  JvmSession s({path});
  const auto all = text_pauses(path);
  REQUIRE(all.size() == 2657);  // grep -c 'Pause.*ms$'
  check_pauses(s.ask("jvm.summary"), all);
  for (const auto& [t0, t1] :
       {std::pair{5.0, 10.0}, {0.05, 0.1}, {0.136, 0.177}, {14.0, 20.0}, {7.3, 7.3}, {-5.0, 0.0}}) {
    INFO("[" << t0 << ", " << t1 << "]");
    const json r = s.ask("jvm.summary", {{"t0", t0}, {"t1", t1}});
    check_pauses(r, starting_in(all, t0, t1));
    CHECK(r["range"] == json{{"t0", t0}, {"t1", t1}});
  }
  // GC(5) starts at 0.136 s and GC(6) at 0.159 s (lines "[0.136s][info][gc,start    ] GC(5) Pause Young"):
  // both ends of a range are in it.
  CHECK(s.ask("jvm.summary", {{"t0", 0.136}, {"t1", 0.159}})["pauses"]["count"] == 2);
}

TEST_CASE("jvm.summary: more than 4,096 events, exact in any range", "[jvm][query][corpus]") {
  const std::string path = corpus(kParallel);
  JvmSession s({path});
  const auto all = text_pauses(path);
  REQUIRE(all.size() == 4666);  // GCToolKit: 4,638 PSYoungGen + 28 PSFull (corpus manifest)
  REQUIRE(s.report()["events"]["total"].get<size_t>() > 4096);
  for (const auto& [t0, t1] : {std::pair{12.0, 14.0}, {10.0, 10.05}, {15.0, 30.0}, {0.0, 1e6}}) {
    INFO("[" << t0 << ", " << t1 << "]");
    const json r = s.ask("jvm.summary", {{"t0", t0}, {"t1", t1}});
    const auto want = starting_in(all, t0, t1);
    check_pauses(r, want);
    // Parallel collections are single pauses, one event each.
    CHECK(r["events"]["total"] == want.size());
    // The range's runtime is the part of it the log covers, and the throughput follows from it.
    const double first = std::max(t0, s.report()["time_range_s"]["first"].get<double>());
    const double last = std::min(t1, s.report()["time_range_s"]["last"].get<double>());
    CHECK(r["runtime_s"].get<double>() == Approx(last - first).margin(1e-6));
    int64_t us = 0;
    for (const auto& w : want) us += w.us;
    CHECK(r["percent_paused"].get<double>() == Approx(us / 1e6 / (last - first) * 100).margin(1e-5));
  }
}

TEST_CASE("jvm.summary: the whole log is the report, and a range covering it gives the same figures",
          "[jvm][query][corpus]") {
  for (const char* rel : {kG1, kParallel, "jvm/gctoolkit/preunified/cms/defnew/details/defnew.log"}) {
    INFO(rel);
    JvmSession s({corpus(rel)});
    const json whole = s.ask("jvm.summary");
    const json covering = s.ask("jvm.summary", {{"t0", -1e6}, {"t1", 1e9}});
    for (const char* field : kSummaryFields) {
      INFO(field);
      CHECK(whole[field] == s.report()[field]);
      CHECK(covering[field] == s.report()[field]);
    }
  }
}

TEST_CASE("jvm.summary: bad arguments are errors that name them", "[jvm][query]") {
  JvmSession s({fixture("jvm/jdk17-g1.log")});
  CHECK_THROWS_WITH(s.ask("jvm.summary", {{"t0", "soon"}}), Catch::Contains("'t0' must be a number"));
  CHECK_THROWS_WITH(s.ask("jvm.summary", {{"t0", 2}, {"t1", 1}}), Catch::Contains("'t1' must not be before 't0'"));
  CHECK_THROWS_WITH(s.ask("jvm.events", {{"sort", "colour"}}), Catch::Contains("'sort' must be a column"));
  CHECK_THROWS_WITH(s.ask("jvm.events", {{"limit", 0}}), Catch::Contains("'limit' must be an integer from 1"));
  CHECK_THROWS_AS(s.ask("jvm.nothing"), QueryError);
}

TEST_CASE("jvm.events: pages over every event, in any order, filtered", "[jvm][query][corpus]") {
  const std::string path = corpus(kParallel);
  JvmSession s({path});
  const auto all = text_pauses(path);
  const size_t total = s.report()["events"]["total"].get<size_t>();
  // Every event once, in time order, through pages of 1,000.
  std::set<int64_t> lines;
  double last_t = -1;
  for (size_t offset = 0; offset < total; offset += 1000) {
    const json page = s.ask("jvm.events", {{"offset", offset}, {"limit", 1000}});
    CHECK(page["total"] == total);
    for (const auto& row : page["rows"]) {
      CHECK(row["t"].get<double>() >= last_t);
      last_t = row["t"].get<double>();
      lines.insert(row["line"].get<int64_t>());
    }
  }
  CHECK(lines.size() == total);

  // The longest pauses first: the text's five longest durations.
  std::vector<int64_t> us;
  for (const auto& p : all) us.push_back(p.us);
  std::sort(us.rbegin(), us.rend());
  const json longest = s.ask("jvm.events", {{"sort", "duration_s"}, {"desc", true}, {"limit", 5}});
  REQUIRE(longest["rows"].size() == 5);
  for (size_t k = 0; k < 5; ++k)
    CHECK(longest["rows"][k]["duration_s"].get<double>() == Approx(us[k] / 1e6).epsilon(1e-12));
  // The same order, page after page: the next page starts where the first ended.
  const json next = s.ask("jvm.events", {{"sort", "duration_s"}, {"desc", true}, {"offset", 5}, {"limit", 5}});
  for (size_t k = 0; k < 5; ++k)
    CHECK(next["rows"][k]["duration_s"].get<double>() == Approx(us[5 + k] / 1e6).epsilon(1e-12));

  // Heap before, ascending, in a range: the range's events, in order of the figure.
  const json heap = s.ask("jvm.events", {{"sort", "heap_before_kb"}, {"t0", 12}, {"t1", 14}, {"limit", 1000}});
  CHECK(heap["total"] == starting_in(all, 12, 14).size());
  for (size_t k = 1; k < heap["rows"].size(); ++k)
    CHECK(heap["rows"][k - 1]["heap_before_kb"].get<int64_t>() <= heap["rows"][k]["heap_before_kb"].get<int64_t>());

  // Filters: the type ("Full": PSFull) and the cause text, case-insensitive.
  const size_t fulls = std::count_if(all.begin(), all.end(), [](const TextPause& p) { return p.kind == "Pause Full"; });
  CHECK(fulls == 28);
  const json full = s.ask("jvm.events", {{"filter", "psfull"}, {"limit", 50}});
  CHECK(full["total"] == fulls);
  for (const auto& row : full["rows"]) CHECK(row["type"] == "PSFull");
  const size_t ergonomics = std::count_if(
      all.begin(), all.end(), [](const TextPause& p) { return p.text.find("(Ergonomics)") != std::string::npos; });
  CHECK(s.ask("jvm.events", {{"filter", "ERGONOMICS"}})["total"] == ergonomics);
}

TEST_CASE("jvm.events: the fields of one event (G1 with its regions)", "[jvm][query]") {
  JvmSession s({fixture("jvm/jdk17-g1.log")});
  // GC(4), lines 87-97 of the fixture: "Heap Region Size: 1M" (line 8); Eden regions: 16->0(15),
  // Survivor regions: 2->2(3), Old regions: 4->6, Humongous regions: 0->0, Metaspace: 80K(320K)->80K(320K);
  // "Pause Young (Normal) (G1 Evacuation Pause) 22M->7M(34M) …ms"; the heap after GC(3) was 6M.
  const json page = s.ask("jvm.events", {{"filter", "evacuation"}, {"limit", 1000}});
  json gc4;
  for (const auto& row : page["rows"])
    if (row["gc_id"] == 4) gc4 = row;
  REQUIRE(gc4.is_object());
  CHECK(gc4["type"] == "Young");
  CHECK(gc4["cause"] == "G1 Evacuation Pause");
  CHECK(gc4["kind"] == "pause");
  CHECK(gc4["eden_before_kb"] == 16 * 1024);
  CHECK(gc4["eden_after_kb"] == 0);
  CHECK(gc4["survivor_after_kb"] == 2 * 1024);
  CHECK(gc4["old_before_kb"] == 4 * 1024);
  CHECK(gc4["old_after_kb"] == 6 * 1024);
  CHECK(gc4["metaspace_after_kb"] == 80);
  CHECK(gc4["heap_before_kb"] == 22 * 1024);
  CHECK(gc4["allocated_kb"] == (22 - 6) * 1024);
  CHECK(page["pools"] == json::array({"eden", "survivor", "old", "humongous", "metaspace"}));
}

TEST_CASE("jvm.series: decimated to a pixel width, the extremes survive", "[jvm][query][corpus]") {
  const std::string path = corpus(kParallel);
  JvmSession s({path});
  const auto all = text_pauses(path);
  for (const auto& [t0, t1, width] : {std::tuple{NAN, NAN, 50}, {12.0, 14.0, 10}, {12.0, 14.0, 7}}) {
    INFO("[" << t0 << ", " << t1 << "] in " << width << " px");
    json args = {{"width", width}};
    if (!std::isnan(t0)) args["t0"] = t0, args["t1"] = t1;
    const json r = s.ask("jvm.series", args);
    const auto want = std::isnan(t0) ? all : starting_in(all, t0, t1);
    int64_t lo = INT64_MAX, hi = 0;
    for (const auto& p : want) lo = std::min(lo, p.us), hi = std::max(hi, p.us);
    REQUIRE(r["pauses_decimated"] == true);
    const json& d = r["pauses"]["duration_s"];
    CHECK(d.size() <= 2 * static_cast<size_t>(width));
    double got_lo = 1e9, got_hi = 0;
    for (const auto& v : d) got_lo = std::min(got_lo, v.get<double>()), got_hi = std::max(got_hi, v.get<double>());
    CHECK(got_lo == Approx(lo / 1e6).epsilon(1e-12));
    CHECK(got_hi == Approx(hi / 1e6).epsilon(1e-12));
    // Rows in time order, inside the range.
    const json& t = r["pauses"]["t"];
    for (size_t k = 1; k < t.size(); ++k) CHECK(t[k - 1].get<double>() <= t[k].get<double>());
    if (!std::isnan(t0)) CHECK((t.front().get<double>() >= t0 && t.back().get<double>() <= t1));
  }
  // The heap chart's extremes are the report's.
  const json whole = s.ask("jvm.series", {{"width", 30}});
  REQUIRE(whole["decimated"] == true);
  int64_t before = 0, committed = 0;
  for (const auto& v : whole["events"]["heap_before_kb"]) before = std::max(before, v.get<int64_t>());
  for (const auto& v : whole["events"]["heap_committed_kb"]) committed = std::max(committed, v.get<int64_t>());
  CHECK(before == s.report()["heap"]["max_occupancy_kb"].get<int64_t>());
  CHECK(committed == s.report()["heap"]["max_size_kb"].get<int64_t>());
  // Wide enough for every event: no decimation, one row per event.
  const json every = s.ask("jvm.series", {{"width", 20000}});
  CHECK(every["decimated"] == false);
  CHECK(every["events"]["t"].size() == s.report()["events"]["total"].get<size_t>());
  CHECK(every["pauses"]["t"].size() == all.size());
}

TEST_CASE("jvm report: the first screen is bounded, and compare.side keeps what compare read", "[jvm][query][corpus]") {
  JvmSession a({corpus(kParallel)}), b({corpus(kG1)});
  const json& ra = a.report();
  CHECK(ra["series"]["events"]["t"].size() <= 2 * 2000);
  CHECK(ra["events_page"]["rows"].size() == 100);
  CHECK(ra["events_page"]["total"] == ra["events"]["total"]);
  CHECK(ra["pauses"].contains("min_s"));
  // The compare of two sessions (the page's path) is jvm/compare.cpp over the two reports as
  // `gcscope compare` has always read them: the KPI groups, without the minimum pause.
  const json side = a.ask("compare.side");
  CHECK(side["family"] == "jvm");
  const json c = b.ask("compare.with", {{"other", side}});
  json ka = ra, kb = b.report();
  ka["pauses"].erase("min_s"), kb["pauses"].erase("min_s");
  const json want = jvm::compare_reports(ka, kb);
  CHECK(c["kpis"] == want["kpis"]);
  CHECK(c["a"] == want["a"]);
  for (const auto& row : c["kpis"]) CHECK(row["key"] != "pauses.min_s");
}

// `copies` copies of a unified log with uptime decorations, one after the other as one run: copy c's
// "[<t>s]" stamps are shifted by c * `shift_s` and its GC(n) ids by c * `id_shift`.
static std::string repeated_log(const std::string& text, int copies, double shift_s, int64_t id_shift) {
  std::string out;
  out.reserve(text.size() * static_cast<size_t>(copies));
  char stamp[32];
  for (int c = 0; c < copies; ++c) {
    size_t at = 0;
    while (at < text.size()) {
      size_t end = text.find('\n', at);
      end = end == std::string::npos ? text.size() : end + 1;
      std::string line = text.substr(at, end - at);
      at = end;
      const size_t s_end = line.find("s]");
      if (line.size() > 1 && line[0] == '[' && s_end != std::string::npos) {
        std::snprintf(stamp, sizeof stamp, "[%.3fs]", std::stod(line.substr(1, s_end - 1)) + c * shift_s);
        line = stamp + line.substr(s_end + 2);
      }
      const size_t id = line.find("GC(");
      if (id != std::string::npos) {
        const size_t close = line.find(')', id);
        line = line.substr(0, id + 3) + std::to_string(std::stoll(line.substr(id + 3, close - id - 3)) + c * id_shift) +
               line.substr(close);
      }
      out += line;
    }
  }
  return out;
}

TEST_CASE("jvm report: its size does not grow with the log, and a range of a long log is exact",
          "[jvm][query][corpus]") {
  // parallelgc.log: 4,666 pauses from 10.02 s to 21.26 s, GC ids 0-4665. Twenty copies 22 s apart
  // are one run of 93,320 pauses whose copy k holds exactly the pauses of the single log.
  const std::string text = read_file(corpus(kParallel));
  JvmSession one({corpus(kParallel)});
  JvmSession many("parallelgc-x20.log", repeated_log(text, 20, 22.0, 5000));
  REQUIRE(one.report()["pauses"]["count"] == 4666);
  CHECK(many.report()["pauses"]["count"] == 20 * 4666);
  const size_t one_bytes = one.report().dump().size(), many_bytes = many.report().dump().size();
  INFO(one_bytes << " and " << many_bytes << " bytes");
  CHECK(many_bytes <= 2u << 20);
  CHECK(many_bytes < one_bytes * 3 / 2);
  CHECK(many.report()["series"]["events"]["t"].size() <= 2 * 2000);
  CHECK(many.report()["events_page"]["rows"].size() == 100);
  // Copy 13, [286 s, 308 s]: the single log's pauses, percentiles included.
  const json copy = many.ask("jvm.summary", {{"t0", 13 * 22.0}, {"t1", 14 * 22.0}});
  CHECK(copy["pauses"] == one.report()["pauses"]);
  CHECK(copy["pause_kinds"] == one.report()["pause_kinds"]);
  CHECK(copy["causes"] == one.report()["causes"]);
}

// The pause chart of a decimated jvm.series, recomputed from the log's text: per pixel column of a
// pause's start, the shortest and the longest duration (in µs), by the column rule of the engine.
static std::map<size_t, std::pair<int64_t, int64_t>> pixel_extremes(const std::vector<TextPause>& want, double lo,
                                                                    double hi, size_t width) {
  std::map<size_t, std::pair<int64_t, int64_t>> out;
  for (const auto& w : want) {
    const double t_ns = std::round(w.start_s * 1e3) * 1e6, lo_ns = std::round(lo * 1e9), hi_ns = std::round(hi * 1e9);
    const size_t col =
        std::min(width - 1, static_cast<size_t>((t_ns - lo_ns) / (hi_ns - lo_ns) * static_cast<double>(width)));
    auto [it, fresh] = out.emplace(col, std::pair{w.us, w.us});
    if (!fresh) it->second = {std::min(it->second.first, w.us), std::max(it->second.second, w.us)};
  }
  return out;
}

TEST_CASE("jvm.summary and jvm.series of 93,320 pauses: exact over any range, block edges included",
          "[jvm][query][corpus]") {
  // The ×20 log of the test above: copy c holds the single log's pauses 22·c s later. The session
  // answers ranges from per-block totals and a rank structure over the pauses (jvm/range_index.h);
  // every range is checked against the pauses of the text in it.
  const std::string path = corpus(kParallel);
  const auto one = text_pauses(path);
  std::vector<TextPause> all;
  for (int c = 0; c < 20; ++c)
    for (TextPause p : one) p.start_s = std::round((p.start_s + c * 22.0) * 1e3) / 1e3, all.push_back(p);
  JvmSession many("parallelgc-x20.log", repeated_log(read_file(path), 20, 22.0, 5000));
  std::mt19937_64 rng(29);
  for (int k = 0; k < 40; ++k) {
    const double width = k < 10 ? 0.5 : k < 20 ? 20.0 : k < 30 ? 150.0 : 440.0;
    const double t0 = std::uniform_real_distribution<double>(0.0, 440.0 - width)(rng) + 0.0004, t1 = t0 + width;
    INFO("[" << t0 << ", " << t1 << "]");
    check_pauses(many.ask("jvm.summary", {{"t0", t0}, {"t1", t1}}), starting_in(all, t0, t1));
    const json series = many.ask("jvm.series", {{"t0", t0}, {"t1", t1}, {"width", 300}});
    const auto want = starting_in(all, t0, t1);
    if (want.size() <= 600) continue;  // every pause drawn: not decimated
    REQUIRE(series["pauses_decimated"] == true);
    const auto expected = pixel_extremes(want, t0, t1, 300);
    std::map<size_t, std::pair<int64_t, int64_t>> got;
    const json& t = series["pauses"]["t"];
    const json& d = series["pauses"]["duration_s"];
    for (size_t r = 0; r < t.size(); ++r) {
      const int64_t us = std::llround(d[r].get<double>() * 1e6);
      const auto col = pixel_extremes({{t[r].get<double>(), us, "", ""}}, t0, t1, 300).begin()->first;
      auto [it, fresh] = got.emplace(col, std::pair{us, us});
      if (!fresh) it->second = {std::min(it->second.first, us), std::max(it->second.second, us)};
    }
    CHECK(got == expected);
  }
  // The index is built once, on the first range question, and the storage answer says its size.
  CHECK(many.ask("jvm.storage")["range_index_bytes"].get<size_t>() > 0);
}

TEST_CASE("session.prepare builds the range index before any question", "[jvm][query][corpus]") {
  JvmSession s({corpus(kG1)});
  CHECK(s.ask("jvm.storage")["range_index_bytes"].is_null());
  CHECK(s.ask("session.prepare") == json::object());
  CHECK(s.ask("jvm.storage")["range_index_bytes"].get<size_t>() > 0);
  check_pauses(s.ask("jvm.summary", {{"t0", 5.0}, {"t1", 10.0}}), starting_in(text_pauses(corpus(kG1)), 5.0, 10.0));
}

}  // namespace gcscope::test
