// Ruby 3.3, 3.4 and 4.0 as ruby.wasm runs them (fixtures/rubygc/generate_wasm.sh): the RUBY_GC_*
// names each reads (its own `ruby -W2` output, fixtures/rubygc/w2/), and payloads of the project's
// recorder under 3.3 and 3.4 with GC.stat_heap at the end of every unit. The expected heap sizes and
// plateau starts are the output of fixtures/rubygc/check_stat_heap.py, which reads the payloads
// without gcscope.
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>
#include <string>

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
