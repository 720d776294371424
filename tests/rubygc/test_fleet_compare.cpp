// Several payloads at once (a fleet), before/after comparison and the tuner's timeline queries.
// Expected figures come from elsewhere than the code under test: the corpus manifest's oracle
// (gc_at_boot, units, statuses), each payload analyzed alone (the per-process range a merged value
// must stay in), fixtures/rubygc/check_payload.py (GC count at BOOTED, read from the raw JSON), the
// fixtures' generate.sh and generate_wasm.sh (the settings the tuned runs were started with),
// fixtures/rubygc/check_stat_heap.py (major GCs by shady) and sample counts taken from the raw JSON
// inside the tests.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "core/query.h"
#include "support.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()
using nlohmann::json;

namespace {

const char* kFormat = "tunemygc-payload";

// An input set kept open for queries, as the worker and `gcscope query` keep it.
struct Session {
  gcscope::InputSet set;
  json doc;
  explicit Session(const std::vector<std::string>& paths, json options = json::object()) : set(std::move(options)) {
    for (const auto& path : paths) {
      std::string bytes = read_file(path);
      set.begin_file(path);
      set.feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      set.end_file();
    }
    doc = set.finish();
  }
  json ask(const std::string& method, json args = json::object()) { return set.query(method, args); }
};

std::map<std::string, json> manifest_by_file() {
  std::map<std::string, json> out;
  const json manifest = read_json(corpus("tuner/manifest.json"));
  for (const auto& f : manifest["files"]) out[f["file"].get<std::string>()] = f;
  return out;
}

const json* row_of(const json& fleet, const std::string& suffix) {
  for (const auto& p : fleet["processes"])
    if (p["path"].get<std::string>().size() >= suffix.size() &&
        p["path"].get<std::string>().compare(p["path"].get<std::string>().size() - suffix.size(), suffix.size(),
                                             suffix) == 0)
      return &p;
  return nullptr;
}

}  // namespace

TEST_CASE("rubygc fleet: the corpus's Ruby 3.1 rack-app payloads dropped together", "[rubygc][corpus]") {
  const std::vector<std::string> files = {"rt01_rack_app_seed.json", "rt10_rack_app_preset_far.json",
                                          "rt16_rack_app_tiny_seed.json"};
  std::vector<std::string> paths;
  for (auto& f : files) paths.push_back(corpus("tuner/" + f));
  json doc = analyze_paths(paths);
  REQUIRE(doc["reports"].size() == 1);  // one report for the drop
  const json& r = report_of(doc, kFormat);
  REQUIRE(r.contains("fleet"));
  const json& fleet = r["fleet"];
  auto manifest = manifest_by_file();
  // A row per process, with the manifest's status, units of work and GCs during boot (oracle).
  CHECK(fleet["processes"].size() == 3);
  for (auto& f : files) {
    INFO(f);
    const json* row = row_of(fleet, f);
    REQUIRE(row);
    CHECK((*row)["status"] == manifest[f]["expected_offline_status"]);
    CHECK((*row)["units"] == manifest[f]["oracle"]["metrics"]["units"]);
    CHECK((*row)["boot_gcs"] == manifest[f]["oracle"]["metrics"]["gc_at_boot"]);
  }
  // rt10 ran with presets: its own group, said plainly; rt01 and rt16 are one group.
  REQUIRE(fleet["groups"].size() == 2);
  const json* rt01 = row_of(fleet, files[0]);
  const json* rt10 = row_of(fleet, files[1]);
  const json* rt16 = row_of(fleet, files[2]);
  CHECK((*rt01)["group"] == (*rt16)["group"]);
  CHECK((*rt01)["group"] != (*rt10)["group"]);
  bool said = false;
  for (const auto& n : fleet["notes"])
    said = said || n.get<std::string>().find("different RUBY_GC_* settings") != std::string::npos;
  CHECK(said);
  // The merged advice stays inside what each process, analyzed alone, advises.
  const json& g = fleet["groups"][(*rt01)["group"].get<size_t>()];
  json alone_a = report_of(analyze_paths({paths[0]}), kFormat), alone_b = report_of(analyze_paths({paths[2]}), kFormat);
  size_t merged = 0;
  for (const char* strategy : {"speed", "memory"})
    for (auto& [var, value] : g["strategies"][strategy].items()) {
      INFO(strategy << " " << var << "=" << value);
      double v = std::stod(value.get<std::string>());
      std::vector<double> own;
      for (const json* alone : {&alone_a, &alone_b})
        if ((*alone)["strategies"][strategy].contains(var))
          own.push_back(std::stod((*alone)["strategies"][strategy][var].get<std::string>()));
      REQUIRE(!own.empty());
      CHECK(v >= *std::min_element(own.begin(), own.end()));
      CHECK(v <= *std::max_element(own.begin(), own.end()));
      ++merged;
    }
  CHECK(merged >= 3);
  // Both advise a heap at boot; the merged one is the larger plateau (90th percentile of two), rt01's.
  CHECK(g["strategies"]["speed"]["RUBY_GC_HEAP_INIT_SLOTS"] ==
        alone_a["strategies"]["speed"]["RUBY_GC_HEAP_INIT_SLOTS"]);
  // rt16 (3 units) runs a GC in 1 of 3 units, rt01 in 17 of 300 (oracle): flagged as the outlier.
  CHECK(!(*rt16)["outlier"].empty());
  CHECK((*rt01)["outlier"].empty());
}

TEST_CASE("rubygc fleet: mixed Ruby versions are separate groups, never one advice", "[rubygc][corpus]") {
  json doc = analyze_paths({corpus("tuner/rt01_rack_app_seed.json"), corpus("tuner/rt20_wasm33_rack_app_seed.json"),
                            corpus("tuner/rt21_wasm34_rack_app_seed.json")});
  const json& fleet = report_of(doc, kFormat)["fleet"];
  REQUIRE(fleet["groups"].size() == 3);
  for (const auto& g : fleet["groups"]) CHECK(g["processes"].size() == 1);
  CHECK(fleet["notes"][0].get<std::string>().find("Ruby versions differ (3.1.2, 3.3.3, 3.4.1)") == 0);
}

TEST_CASE("rubygc fleet: a single payload's report stays the payload's own, each process is asked by index",
          "[rubygc][corpus]") {
  json alone = report_of(analyze_paths({corpus("tuner/rt01_rack_app_seed.json")}), kFormat);
  CHECK(!alone.contains("fleet"));
  Session s({corpus("tuner/rt01_rack_app_seed.json"), corpus("tuner/rt10_rack_app_preset_far.json")});
  json second = s.ask("rubygc.process", {{"process", 1}});
  CHECK(second["verdict"]["status"] == 412);
  json first = s.ask("rubygc.process", {{"process", 0}});
  CHECK(first["metrics"] == alone["metrics"]);
  CHECK_THROWS_AS(s.ask("rubygc.process", {{"process", 2}}), gcscope::QueryError);
}

TEST_CASE("rubygc compare: before (no presets) and after (the advice applied)", "[rubygc]") {
  // generate.sh: rec31_tuned ran with RUBY_GC_HEAP_GROWTH_FACTOR=1.25 RUBY_GC_HEAP_INIT_SLOTS=89571, the
  // speed advice for rec31_steady; check_payload.py: GC.stat count at BOOTED is 18 before, 3 after.
  Session before({fixture("rubygc/rec31_steady.json")}), after({fixture("rubygc/rec31_tuned.json")});
  json side = before.ask("compare.side");
  CHECK(side["family"] == "rubygc");
  json c = after.ask("compare.with", {{"other", side}});
  std::map<std::string, json> m;
  for (const auto& x : c["metrics"]) m[x["id"]] = x;
  CHECK(m["boot_gcs"]["a"] == 18);
  CHECK(m["boot_gcs"]["b"] == 3);
  CHECK(m["boot_gcs"]["verdict"] == "better");
  CHECK(m["boot_gcs"]["text"] == "lower GCs during boot: 18 → 3");
  for (const char* id :
       {"gcs_per_unit", "gc_time_share_pct", "heap_slots", "heap_pages", "peak_rss_mb", "unit_ms_p50", "unit_ms_p95"})
    CHECK(m.count(id) == 1);
  REQUIRE(c["settings_changed"].size() == 2);
  CHECK(c["settings_changed"][0] ==
        json({{"variable", "RUBY_GC_HEAP_GROWTH_FACTOR"}, {"before", nullptr}, {"after", "1.25"}}));
  CHECK(c["settings_changed"][1] ==
        json({{"variable", "RUBY_GC_HEAP_INIT_SLOTS"}, {"before", nullptr}, {"after", "89571"}}));
  // The other direction is the same comparison read backwards.
  json back = before.ask("compare.with", {{"other", after.ask("compare.side")}, {"other_is", "a"}});
  CHECK(back["metrics"][0]["a"] == 3);
  CHECK(back["metrics"][0]["b"] == 18);
  // A set against one payload: each process boots once, so boot GCs are the median over processes.
  Session both({fixture("rubygc/rec31_steady.json"), fixture("rubygc/rec31_leak.json")});
  json sets = after.ask("compare.with", {{"other", both.ask("compare.side")}});
  CHECK(sets["a"]["processes"] == 2);
  CHECK(sets["a"]["payloads"] == 2);
}

TEST_CASE("rubygc compare: the shady advice applied halves the major GCs by shady", "[rubygc]") {
  // generate_wasm.sh: rec33_wasm_shady_tuned ran with RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO=0.02,
  // the speed advice for rec33_wasm_shady; check_stat_heap.py: 20 and 10 majors in the 60 units, all shady.
  Session before({fixture("rubygc/rec33_wasm_shady.json")}), after({fixture("rubygc/rec33_wasm_shady_tuned.json")});
  json c = after.ask("compare.with", {{"other", before.ask("compare.side")}});
  std::map<std::string, json> m;
  for (const auto& x : c["metrics"]) m[x["id"]] = x;
  REQUIRE(m.count("majors_by.shady") == 1);
  CHECK(m["majors_by.shady"]["a"].get<double>() == Approx(1000.0 * 20 / 60));
  CHECK(m["majors_by.shady"]["b"].get<double>() == Approx(1000.0 * 10 / 60));
  CHECK(m["majors_by.shady"]["verdict"] == "better");
  // Both runs boot alike: the same GCs at BOOTED (read from the raw JSON here).
  json raw = read_json(fixture("rubygc/rec33_wasm_shady_tuned.json"));
  const size_t count = std::find(raw[0][7].begin(), raw[0][7].end(), "count") - raw[0][7].begin();
  for (size_t i = 1; i < raw.size(); ++i)
    if (raw[i][3] == "BOOTED") CHECK(m["boot_gcs"]["b"] == raw[i][4][count]);
  CHECK(m["boot_gcs"]["a"] == m["boot_gcs"]["b"]);
  REQUIRE(c["settings_changed"].size() == 1);
  CHECK(c["settings_changed"][0] == json({{"variable", "RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO"},
                                          {"before", nullptr},
                                          {"after", "0.02"}}));
  // Still 10 of 10 majors by shady (autotuner's floor is 10): the advice doubles the ratio the run had.
  const json& tuned = report_of(after.doc, kFormat);
  CHECK(tuned["strategies"]["speed"]["RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO"] == "0.04");
}

TEST_CASE("rubygc queries: ranges of the timeline, counted from the raw samples", "[rubygc]") {
  const std::string path = fixture("rubygc/rec31_steady.json");
  json raw = read_json(path);
  Session s({path});
  const json& report = report_of(s.doc, kFormat);
  // The whole run: the report's own figures.
  json all = s.ask("rubygc.range", {{"t0", 0}, {"t1", 1e9}});
  CHECK(all["units"]["count"] == report["metrics"]["units"]);
  CHECK(all["samples"] == raw.size() - 1);
  // A window: units whose PROCESSING_STARTED falls inside, counted here from the raw JSON.
  const double base = raw[1][0].get<double>();
  const double last = raw[raw.size() - 1][0].get<double>() - base;
  const double t0 = last * 0.25, t1 = last * 0.5;
  size_t starts = 0, samples = 0;
  for (size_t i = 1; i < raw.size(); ++i) {
    double t = raw[i][0].get<double>() - base;
    if (t < t0 || t > t1) continue;
    ++samples;
    starts += raw[i][3] == "PROCESSING_STARTED";
  }
  json part = s.ask("rubygc.range", {{"t0", t0}, {"t1", t1}});
  CHECK(part["samples"] == samples);
  CHECK(part["units"]["count"] == starts);
  CHECK_THROWS_AS(s.ask("rubygc.range", {{"t0", 2}, {"t1", 1}}), gcscope::QueryError);
  // Decimated to 10 pixels: at most 20 rows, and the highest heap the run reached survives.
  json tl = s.ask("rubygc.timeline", {{"width", 10}});
  CHECK(tl["decimated"] == true);
  CHECK(tl["t"].size() <= 20);
  const size_t col = std::find(raw[0][7].begin(), raw[0][7].end(), "heap_available_slots") - raw[0][7].begin();
  int64_t top = 0;
  for (size_t i = 1; i < raw.size(); ++i) top = std::max(top, raw[i][4][col].get<int64_t>());
  const auto& heap = tl["series"]["heap_available_slots"];
  CHECK(*std::max_element(heap.begin(), heap.end()) == top);
  // Undecimated, every sample of the range comes back.
  json full = s.ask("rubygc.timeline", {{"t0", t0}, {"t1", t1}, {"width", 100000}});
  CHECK(full["t"].size() == samples);
}

TEST_CASE("rubygc fleet: a forking server's folder (master and workers, recorded by recorder/)", "[rubygc]") {
  // fixtures/rubygc/cluster31: forking_server.rb with WORKERS=3 REQUESTS=240 (generate.sh); every
  // process wrote tunemygc-<pid>.json. The master serves nothing: 2 samples (BOOTED, TERMINATED).
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::directory_iterator(fixture("rubygc/cluster31")))
    paths.push_back(e.path().string());
  std::sort(paths.begin(), paths.end());
  REQUIRE(paths.size() == 4);
  int64_t master = -1;
  std::vector<int64_t> workers;
  for (const auto& p : paths) {
    json raw = read_json(p);
    int64_t pid = raw[0][11].get<int64_t>();
    CHECK(p.find("tunemygc-" + std::to_string(pid) + ".json") != std::string::npos);  // named by pid
    if (raw.size() == 3) master = pid;
    else workers.push_back(pid);
  }
  REQUIRE(master > 0);
  json r = report_of(analyze_paths(paths), kFormat);
  const json& fleet = r["fleet"];
  REQUIRE(fleet["groups"].size() == 1);
  const json& g = fleet["groups"][0];
  REQUIRE(g["clusters"].size() == 1);
  CHECK(g["clusters"][0]["parent_pid"] == master);
  CHECK(g["clusters"][0]["parent_recorded"] == true);
  std::sort(workers.begin(), workers.end());
  CHECK(g["clusters"][0]["workers"] == json(workers));
  int64_t units = 0;
  for (const auto& p : fleet["processes"]) {
    if (p["pid"] == master) {
      CHECK(p["status"] == 400);  // no unit of work in the master
      continue;
    }
    CHECK(p["ppid"] == master);
    CHECK(p["status"] == 200);
    units += p["units"].get<int64_t>();
  }
  CHECK(units == 240);  // every request served was one unit in one worker
  CHECK(g["with_advice"].size() == 3);
  bool said = false;
  for (const auto& n : fleet["notes"]) said = said || n.get<std::string>().find("forking server") == 0;
  CHECK(said);
}
