// Ruby 3.3, 3.4 and 4.0 as ruby.wasm runs them (fixtures/rubygc/generate_wasm.sh): the RUBY_GC_*
// names each reads (its own `ruby -W2` output, fixtures/rubygc/w2/), and payloads of the project's
// recorder under 3.3 and 3.4 with GC.stat_heap at the end of every unit, and with major GCs by shady
// objects (shady_workload.rb) and its control. The expected heap sizes, plateau starts and major GC
// counts are the output of fixtures/rubygc/check_stat_heap.py, which reads the payloads without
// gcscope.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rubygc/gc_params.h"
#include "support.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()
using namespace gcscope::rubygc;
using nlohmann::json;

namespace {
json tuner_report(const std::string& path) { return report_of(analyze_paths({path}), "tunemygc-payload"); }

// The environment generate_wasm.sh runs `ruby -W2` with.
const std::pair<const char*, const char*> kW2Env[] = {
    {"RUBY_GC_HEAP_INIT_SLOTS", "20000"},
    {"RUBY_GC_HEAP_0_INIT_SLOTS", "20001"},
    {"RUBY_GC_HEAP_1_INIT_SLOTS", "20002"},
    {"RUBY_GC_HEAP_2_INIT_SLOTS", "20003"},
    {"RUBY_GC_HEAP_3_INIT_SLOTS", "20004"},
    {"RUBY_GC_HEAP_4_INIT_SLOTS", "20005"},
    {"RUBY_GC_HEAP_5_INIT_SLOTS", "20006"},
    {"RUBY_GC_HEAP_FREE_SLOTS", "5000"},
    {"RUBY_GC_HEAP_GROWTH_FACTOR", "1.5"},
    {"RUBY_GC_HEAP_GROWTH_MAX_SLOTS", "30000"},
    {"RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO", "0.3"},
    {"RUBY_GC_HEAP_FREE_SLOTS_GOAL_RATIO", "0.5"},
    {"RUBY_GC_HEAP_FREE_SLOTS_MAX_RATIO", "0.7"},
    {"RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR", "2.5"},
    {"RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO", "0.02"},
    {"RUBY_GC_MALLOC_LIMIT", "20000000"},
    {"RUBY_GC_MALLOC_LIMIT_MAX", "40000000"},
    {"RUBY_GC_MALLOC_LIMIT_GROWTH_FACTOR", "1.5"},
    {"RUBY_GC_OLDMALLOC_LIMIT", "20000000"},
    {"RUBY_GC_OLDMALLOC_LIMIT_MAX", "200000000"},
    {"RUBY_GC_OLDMALLOC_LIMIT_GROWTH_FACTOR", "1.3"},
    {"RUBY_GC_MALLOC_LIMIT_MIN", "1000000"},
    {"RUBY_GC_OLDMALLOC_LIMIT_MIN", "1000000"},
    {"RUBY_GC_HEAP_SLOTS_INCREMENT", "1000"},
    {"RUBY_GC_HEAP_SLOTS_GROWTH_FACTOR", "1.5"},
    {"RUBY_GC_HEAP_INIT_SIZE_0_SLOTS", "20007"},
    {"RUBY_GC_LIBRARY", "default"},
};

// "NAME=value (default value: D)" lines of a -W2 output: NAME -> value as printed.
std::map<std::string, std::string> names_read(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t eq = line.find('=');
    if (line.rfind("RUBY_GC_", 0) == 0 && eq != std::string::npos &&
        line.find(" (default value: ") != std::string::npos)
      out[line.substr(0, eq)] = line.substr(eq + 1, line.find(' ') - eq - 1);
  }
  return out;
}
}  // namespace

TEST_CASE("rubygc params: the names Ruby 3.3, 3.4 and 4.0 read, from their own ruby -W2", "[rubygc]") {
  for (const char* version : {"3.3.3", "3.4.1", "4.0.0"}) {
    const std::string series = std::string(version).substr(0, 3);
    const std::string text = read_file(fixture("rubygc/w2/ruby" + series + ".txt"));
    INFO("ruby " << version);
    const auto read = names_read(text);
    // 4.0 reads the same 16 names as 3.4 (nothing renamed or removed); none reads a sixth heap.
    CHECK(read.size() == 19);  // 16 names, 5 of them per heap
    CHECK(read.count("RUBY_GC_HEAP_5_INIT_SLOTS") == 0);
    const RubyVersion v = parse_ruby_version(version);
    for (const auto& [name, value] : kW2Env) {
      INFO(name << "=" << value);
      ParamCheck ours = check_param(name, value, v, 32);  // ruby.wasm is a 32-bit build
      auto it = read.find(name);
      if (it == read.end()) {
        CHECK(ours.status == ParamCheck::kUnknownName);
        CHECK(!ours.message.empty());  // the lint says why Ruby ignores it
        continue;
      }
      REQUIRE(ours.status == ParamCheck::kAccepted);
      CHECK(ours.effective == Approx(std::stod(it->second)));
    }
    // 3.3+ warns that RUBY_GC_HEAP_INIT_SLOTS is deprecated in favour of the per-heap names; so does the lint.
    CHECK(text.find("RUBY_GC_HEAP_INIT_SLOTS is deprecated") != std::string::npos);
    CHECK(check_param("RUBY_GC_HEAP_INIT_SLOTS", "20000", v).message.find("RUBY_GC_HEAP_0_INIT_SLOTS") !=
          std::string::npos);
    CHECK(check_param("RUBY_GC_HEAP_INIT_SIZE_0_SLOTS", "20007", v).message.find("preview") != std::string::npos);
  }
}

TEST_CASE("rubygc ruby.wasm 3.3/3.4 payloads: per-heap init slots once unit time has plateaued", "[rubygc]") {
  struct Case {
    const char* file;
    const char* ruby;
    size_t plateau_from;
    std::vector<int64_t> heaps;  // check_stat_heap.py: largest heap_eden_slots per heap from that unit on
  };
  const Case cases[] = {
      {"rubygc/rec33_wasm_steady.json", "3.3.3", 0, {26207, 11466, 43396, 1636, 1631}},
      {"rubygc/rec34_wasm_steady.json", "3.4.1", 0, {36035, 14741, 49127, 1634, 408}},
  };
  for (const auto& c : cases) {
    INFO(c.file);
    json r = tuner_report(fixture(c.file));
    CHECK(r["verdict"]["status"] == 200);
    CHECK(r["header"]["ruby_version"] == c.ruby);
    CHECK(r["units_of_work"]["count"] == 100);  // UNITS=100 in generate_wasm.sh
    CHECK(r["plateau"]["plateaued"] == true);
    CHECK(r["plateau"]["from_unit"] == c.plateau_from);
    CHECK(r["plateau"]["stat_heap_snapshots"] == 100 - c.plateau_from);
    for (size_t h = 0; h < c.heaps.size(); ++h) {
      const std::string var = "RUBY_GC_HEAP_" + std::to_string(h) + "_INIT_SLOTS";
      INFO(var);
      CHECK(r["strategies"]["speed"][var] == std::to_string(c.heaps[h]));
    }
    for (const auto& rec : r["recommendations"]) CHECK(rec["variable"] != "RUBY_GC_HEAP_INIT_SLOTS");
    // No major GC ran while working and Ruby never counted a remembered shady object
    // (check_stat_heap.py: majors_in_units 0, max_remembered_wb_unprotected 0): no shady advice.
    CHECK(r["metrics"]["gcs_during_processing"].get<int64_t>() > 0);
    CHECK_FALSE(r["strategies"]["speed"].contains("RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO"));
  }
}

TEST_CASE("rubygc ruby.wasm 3.3/3.4 payloads: major GCs by shady objects raise their limit ratio", "[rubygc]") {
  // The mechanism, hand-read from rec33_wasm_shady.json's own samples (columns named by its header):
  // requests 1 and 2 each leave 120 more remembered write-barrier-unprotected objects (120, 240) under
  // the limit of 328 (1 % of the 32826 old objects at BOOTED); request 3 adds 120 more (360 > 328), so
  // it ends with a major GC by shady (major_gc_count 5 -> 6) that reset the count to 0.
  const json payload = read_json(fixture("rubygc/rec33_wasm_shady.json"));
  const json& keys = payload[0][7];
  auto col = [&](const char* key) {
    return static_cast<size_t>(std::find(keys.begin(), keys.end(), key) - keys.begin());
  };
  const size_t remembered = col("remembered_wb_unprotected_objects"),
               limit = col("remembered_wb_unprotected_objects_limit"), majors = col("major_gc_count"),
               old_objects = col("old_objects");
  REQUIRE(remembered < keys.size());
  std::vector<json> ends;
  for (size_t i = 1; i < payload.size(); ++i) {
    if (payload[i][3] == "BOOTED") CHECK(payload[i][4][old_objects] == 32826);
    if (payload[i][3] == "PROCESSING_ENDED") ends.push_back(payload[i]);
  }
  REQUIRE(ends.size() == 60);
  const int64_t hand_remembered[] = {120, 240, 0}, hand_majors[] = {5, 5, 6};
  for (size_t u = 0; u < 3; ++u) {
    INFO("request " << u + 1);
    CHECK(ends[u][4][remembered] == hand_remembered[u]);
    CHECK(ends[u][4][limit] == 328);
    CHECK(ends[u][4][majors] == hand_majors[u]);
  }
  CHECK(ends[1][5]["major_by"].is_null());
  CHECK(ends[2][5]["major_by"] == "shady");

  struct Case {
    const char* file;
    const char* ruby;
    int64_t shady, majors;  // check_stat_heap.py: shady_majors_in_units, majors_in_units
  };
  const Case cases[] = {
      {"rubygc/rec33_wasm_shady.json", "3.3.3", 20, 20},
      {"rubygc/rec34_wasm_shady.json", "3.4.1", 20, 20},
      {"rubygc/rec33_wasm_shady_control.json", "3.3.3", 0, 1},
  };
  const std::string var = "RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO";
  for (const auto& c : cases) {
    INFO(c.file);
    json r = tuner_report(fixture(c.file));
    CHECK(r["verdict"]["status"] == 200);
    CHECK(r["header"]["ruby_version"] == c.ruby);
    CHECK(r["units_of_work"]["count"] == 60);  // UNITS=60 in generate_wasm.sh
    CHECK(r["metrics"]["majors"] == c.majors);
    CHECK(r["metrics"]["majors_by"].value("shady", 0) == c.shady);
    const json* rec = nullptr;
    for (const auto& x : r["recommendations"])
      if (x["variable"] == var && x["strategy"] == "speed") rec = &x;
    if (c.shady == 0) {
      // The control: the same requests, nothing demoted, no shady major, no advice.
      CHECK(rec == nullptr);
      CHECK_FALSE(r["strategies"]["speed"].contains(var));
      continue;
    }
    // Autotuner's rule: at least 10 shady majors and more than 10 % of all; the ratio was unset, so
    // the advice is twice Ruby's default 0.01.
    REQUIRE(rec != nullptr);
    CHECK((*rec)["evidence"]["majors_by_shady"] == c.shady);
    CHECK((*rec)["evidence"]["majors"] == c.majors);
    CHECK(r["strategies"]["speed"][var] == "0.02");
  }
}
