// The dominator tree as a stack model (heap/stack_source.h) over the hand-drawn graph of
// test_heap_graph.cpp, each object of its own class so the folded lines name it: the expected
// lines, totals and sizes are counted by hand from the drawing below.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "heap/heap_analysis.h"
#include "heap/hand_graph.h"
#include "heap/heap_model.h"
#include "heap/stack_source.h"
#include "profile/stack_queries.h"

using namespace gcscope;
using namespace gcscope::heap;
using gcscope::heap::test::add;
using nlohmann::json;

namespace {

// roots → A, F.  A → B, C;  B → D;  C → D;  D → E;  F → E.  G unreachable.
// Dominators: A, E, F hang below the roots; B, C, D below A. Retained: A = 1+2+4+8 = 15, D = 8,
// E = 16, F = 32; all reachable = 63; G's 64 bytes are garbage and count nowhere.
json report_of_graph(size_t tree_nodes) {
  HeapModel m;
  add(m, 0xA0, 1, {0xB0, 0xC0}, "A");
  add(m, 0xB0, 2, {0xD0}, "B");
  add(m, 0xC0, 4, {0xD0}, "C");
  add(m, 0xD0, 8, {0xE0}, "D");
  add(m, 0xE0, 16, {}, "E");
  add(m, 0xF0, 32, {0xE0}, "F");
  add(m, 0x100, 64, {0xA0}, "G");
  m.add_root("vm", 0xA0);
  m.add_root("machine_context", 0xF0);
  m.finalize();
  ReportLimits lim;
  lim.tree_nodes = tree_nodes;
  json r;
  write_report(m, lim, r);
  return r;
}

}  // namespace

TEST_CASE("heap dominator tree as stacks: weights are retained bytes", "[heap][stacks]") {
  profile::StackModel m = dominator_stack_model(report_of_graph(2000).at("dominator_tree"));
  CHECK(m.unit == "bytes");
  CHECK(m.total_weight() == 63);
  // Preorder, the biggest dominated object first; each line weighs the object's own bytes.
  CHECK(profile::folded_text(m) ==
        "(GC roots);F 32\n"
        "(GC roots);E 16\n"
        "(GC roots);A 1\n"
        "(GC roots);A;D 8\n"
        "(GC roots);A;C 4\n"
        "(GC roots);A;B 2\n");
  // A frame's total is its object's retained size.
  json rows = profile::frames_json(m, {{"sort", "total"}}).at("rows");
  std::map<std::string, std::pair<int64_t, int64_t>> got;
  for (const auto& r : rows) got[r.at("name")] = {r.at("self"), r.at("total")};
  CHECK(got["(GC roots)"] == std::pair<int64_t, int64_t>(0, 63));
  CHECK(got["A"] == std::pair<int64_t, int64_t>(1, 15));
  CHECK(got["D"] == std::pair<int64_t, int64_t>(8, 8));
  CHECK(got["F"] == std::pair<int64_t, int64_t>(32, 32));
  CHECK(got.count("G") == 0);
}

TEST_CASE("heap dominator tree as stacks: objects the bound leaves out stay in their dominator", "[heap][stacks]") {
  // The 2 biggest objects: F (32) and E (16); A's 15 bytes stay with the roots.
  profile::StackModel m = dominator_stack_model(report_of_graph(2).at("dominator_tree"));
  CHECK(profile::folded_text(m) ==
        "(GC roots) 15\n"
        "(GC roots);F 32\n"
        "(GC roots);E 16\n");
}

TEST_CASE("heap dominator tree as stacks: exports say bytes", "[heap][stacks]") {
  profile::StackQueries q(dominator_stack_model(report_of_graph(2000).at("dominator_tree")));
  q.set_export_info(dominator_export_info("graph.heap.json"));
  json s = json::parse(q.answer("stacks.export", {{"to", "speedscope"}}).get<std::string>());
  const json& p = s.at("profiles").at(0);
  CHECK(p.at("unit") == "bytes");
  double sum = 0;
  for (const auto& w : p.at("weights")) sum += w.get<double>();
  CHECK(sum == 63);
  std::string pb;
  REQUIRE(profile::unbase64(q.answer("stacks.export", {{"to", "pprof"}}).get<std::string>(), pb));
  CHECK(pb.size() > 2);
  // A malformed tree gives no samples rather than a wrong profile.
  CHECK(dominator_stack_model(json{{"label", {"x"}}, {"retained", {1}}, {"parent", {0}}, {"location", {nullptr}}})
            .empty());
}
