// rbkit cpu_samples through the shared stack model (wasm/profile/): fixtures/rbkit/cpu-workload.rbkit
// carries the raw samples of a real stackprof profile (fixtures/rbkit/generate_cpu.rb), so the
// expected folding is stackprof's own --stackcollapse of that profile and the expected per-frame
// samples are its --text report.
#include <catch2/catch.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "core/query.h"
#include "rbkit/rbkit_capture.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;
using nlohmann::json;

namespace {

struct TextRow {
  std::string name;
  int64_t total, self;
};

// The frame rows of `stackprof --text`: "TOTAL (pct) SAMPLES (pct) FRAME".
std::vector<TextRow> text_rows(const std::string& text) {
  std::vector<TextRow> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    TextRow r;
    std::string pct1, pct2;
    if (!(l >> r.total >> pct1 >> r.self >> pct2)) continue;
    std::getline(l >> std::ws, r.name);
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

TEST_CASE("rbkit cpu_samples: stacks.folded is stackprof's folding of the same samples", "[rbkit][stacks]") {
  json report;
  auto set = open_capture(fixture("rbkit/cpu-workload.rbkit"), &report);
  std::string folded = read_file(fixture("rbkit/cpu-workload.folded.txt"));
  CHECK(set->query("stacks.folded", json::object()).get<std::string>() == folded);
  // stackprof --text: "Samples: 147"; the report's flame tree holds all of them, root first.
  const json& tree = report.at("cpu_samples").at("tree");
  CHECK(report.at("cpu_samples").at("count") == 147);
  CHECK(tree.at("total") == 147);
  CHECK(tree.at("unit") == "samples");
  const json& names = tree.at("frames").at("name");
  const json& parent = tree.at("stacks").at("parent");
  const json& frame = tree.at("stacks").at("frame");
  for (size_t n = 0; n < parent.size(); ++n)
    if (parent[n] == -1) CHECK(names[frame[n].get<size_t>()] != "String#split");  // a leaf, never a root
}

TEST_CASE("rbkit cpu_samples: stacks.frames are stackprof --text's rows", "[rbkit][stacks]") {
  json report;
  auto set = open_capture(fixture("rbkit/cpu-workload.rbkit"), &report);
  std::vector<TextRow> want = text_rows(read_file(fixture("rbkit/cpu-workload.text.txt")));
  REQUIRE(want.size() == 19);
  json got = set->query("stacks.frames", {{"sort", "total"}});
  CHECK(got.at("total") == 147);
  CHECK(got.at("count") == want.size());
  std::multiset<std::tuple<std::string, int64_t, int64_t>> a, b;
  for (const auto& r : want) a.emplace(r.name, r.self, r.total);
  for (const auto& r : got.at("rows")) b.emplace(r.at("name"), r.at("self"), r.at("total"));
  CHECK(a == b);
}

TEST_CASE("rbkit: a capture without cpu samples says so for stacks.*", "[rbkit][stacks]") {
  json report;
  auto set = open_capture(fixture("rbkit/leak-synthetic.rbkit"), &report);
  CHECK_THROWS_WITH(set->query("stacks.folded", json::object()), Catch::Contains("no cpu_sample stacks"));
}
