// HeapModel used directly (the API rbkit snapshots use): dominators and retained sizes against a
// hand-drawn graph and against a brute-force definition on random graphs; deep chains (no recursion).
#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "heap/heap_analysis.h"
#include "heap/hand_graph.h"
#include "heap/heap_model.h"
#include "heap/heap_query.h"

using namespace gcscope::heap;
using gcscope::heap::test::add;
using nlohmann::json;

TEST_CASE("dominators and retained sizes of a hand-drawn graph", "[heap]") {
  // roots → A, F.  A → B, C;  B → D;  C → D;  D → E;  F → E.  G unreachable.
  // Hand-computed: idom(A)=root, idom(B)=idom(C)=idom(D)=A, idom(E)=root (via A…D and via F),
  // idom(F)=root. Retained: D=8, A=1+2+4+8=15, F=32, E=16. G (64 bytes) is unreachable.
  HeapModel m;
  add(m, 0xA0, 1, {0xB0, 0xC0});
  add(m, 0xB0, 2, {0xD0});
  add(m, 0xC0, 4, {0xD0, 0xD0});  // duplicate edge, as dumps keep them
  add(m, 0xD0, 8, {0xE0});
  add(m, 0xE0, 16, {});
  add(m, 0xF0, 32, {0xE0, 0x999});  // 0x999: dangling
  add(m, 0x100, 64, {0xA0}, "Garbage");
  m.add_root("vm", 0xA0);
  m.add_root("machine_context", 0xF0);
  m.finalize();
  CHECK(m.dangling_references == 1);
  Dominators d = compute_dominators(m);
  auto idx = [&](uint64_t a) { return m.index_of(a); };
  CHECK(d.idom[idx(0xA0)] == d.root);
  CHECK(d.idom[idx(0xB0)] == idx(0xA0));
  CHECK(d.idom[idx(0xC0)] == idx(0xA0));
  CHECK(d.idom[idx(0xD0)] == idx(0xA0));
  CHECK(d.idom[idx(0xE0)] == d.root);
  CHECK(d.idom[idx(0xF0)] == d.root);
  CHECK(d.idom[idx(0x100)] == kNoIndex);
  CHECK(d.retained[idx(0xA0)] == 15);
  CHECK(d.retained[idx(0xD0)] == 8);
  CHECK(d.retained[idx(0xF0)] == 32);
  CHECK(d.retained[idx(0xE0)] == 16);
  CHECK(d.reachable == 6);
  CHECK(d.reachable_bytes == 63);
  // Shortest path from E to a root: E ← F (1 hop) rather than E ← D ← B ← A.
  auto path = path_to_root(d, idx(0xE0));
  REQUIRE(path.size() == 2);
  CHECK(path[1] == idx(0xF0));

  json r;
  write_report(m, ReportLimits{}, r);
  CHECK(r.at("objects") == 7);
  CHECK(r.at("unreachable").at("objects") == 1);
  CHECK(r.at("unreachable").at("bytes") == 64);
  CHECK(r.at("top_retainers").at(0).at("address") == "0xf0");
  CHECK(r.at("top_retainers").at(0).at("retained_bytes") == 32);
  CHECK(r.at("top_retainers").at(0).at("root_category") == "machine_context");
  CHECK(r.at("top_retainers").at(0).at("held_by_root") == "machine_context");
  CHECK(r.at("top_retainers").at(0).at("parent_count") == 0);
  // retained_by_class counts nested instances once: every reachable Node hangs below a root, so
  // the Node total is the sum of the root-level Nodes A, E, F = 15 + 16 + 32.
  CHECK(r.at("retained_by_class").at(0).at("class") == "Node");
  CHECK(r.at("retained_by_class").at(0).at("retained_bytes") == 63);
  const json& t = r.at("dominator_tree");
  CHECK(t.at("nodes") == 7);  // virtual root + 6 reachable objects
  CHECK(t.at("parent").at(0) == -1);
  CHECK(t.at("retained").at(0) == 63);
  for (size_t i = 1; i < t.at("parent").size(); ++i) CHECK(t.at("parent").at(i).get<int>() < static_cast<int>(i));
  // Path forest: E (reached in one hop from F) → F, held by the machine_context root.
  const json& p = r.at("path_tree");
  size_t e = 0;
  while (t.at("address").at(e) != "0xe0") ++e;
  int row = t.at("path").at(e);
  REQUIRE(row >= 0);
  CHECK(p.at("address").at(row) == "0xe0");
  int up = p.at("parent").at(row);
  REQUIRE(up >= 0);
  CHECK(p.at("address").at(up) == "0xf0");
  CHECK(p.at("parent").at(up) == -1);
  CHECK(p.at("root").at(up) == "machine_context");

  // Focus on D: parents B and C, dominator A, retained 8, shortest path D ← B ← A (BFS order).
  HeapQueries queries(m, d);
  const json f = queries.focus(0xD0);
  CHECK(f.at("retained_bytes") == 8);
  CHECK(f.at("parent_count") == 2);
  CHECK(f.at("dominators").size() == 1);
  CHECK(f.at("dominators").at(0).at("address") == "0xa0");
  CHECK(f.at("path_to_root").size() == 3);
  CHECK(f.at("root_category") == "vm");
}

TEST_CASE("retained sizes equal the brute-force definition on random graphs", "[heap]") {
  // retained(v) = bytes of the objects that become unreachable from the roots when v is removed.
  std::mt19937 rng(12345);
  for (int round = 0; round < 40; ++round) {
    const int n = 5 + static_cast<int>(rng() % 40);
    std::vector<std::vector<int>> succ(n);
    std::vector<uint64_t> size(n);
    for (int v = 0; v < n; ++v) {
      size[v] = 1 + rng() % 100;
      int deg = static_cast<int>(rng() % 4);
      for (int k = 0; k < deg; ++k) succ[v].push_back(static_cast<int>(rng() % n));
    }
    std::vector<int> roots = {0, static_cast<int>(rng() % n)};
    HeapModel m;
    for (int v = 0; v < n; ++v) {
      std::vector<uint64_t> refs;
      for (int w : succ[v]) refs.push_back(0x1000 + 8 * static_cast<uint64_t>(w));
      add(m, 0x1000 + 8 * static_cast<uint64_t>(v), size[v], refs);
    }
    for (int r : roots) m.add_root("vm", 0x1000 + 8 * static_cast<uint64_t>(r));
    m.finalize();
    Dominators d = compute_dominators(m);
    auto reach = [&](int removed) {
      std::vector<char> seen(n, 0);
      std::vector<int> stack;
      for (int r : roots)
        if (r != removed && !seen[r]) seen[r] = 1, stack.push_back(r);
      while (!stack.empty()) {
        int v = stack.back();
        stack.pop_back();
        for (int w : succ[v])
          if (w != removed && !seen[w]) seen[w] = 1, stack.push_back(w);
      }
      return seen;
    };
    auto all = reach(-1);
    for (int v = 0; v < n; ++v) {
      INFO("round " << round << " node " << v);
      uint32_t i = m.index_of(0x1000 + 8 * static_cast<uint64_t>(v));
      if (!all[v]) {
        CHECK(d.idom[i] == kNoIndex);
        continue;
      }
      auto without = reach(v);
      uint64_t expected = 0;
      for (int w = 0; w < n; ++w)
        if (all[w] && !without[w]) expected += size[w];
      CHECK(d.retained[i] == expected);
    }
  }
}

TEST_CASE("a 300000-object chain needs no recursion", "[heap]") {
  HeapModel m;
  const uint64_t n = 300000;
  for (uint64_t k = 0; k < n; ++k)
    add(m, 0x10 + 8 * k, 40, k + 1 < n ? std::vector<uint64_t>{0x10 + 8 * (k + 1)} : std::vector<uint64_t>{});
  m.add_root("vm", 0x10);
  m.finalize();
  Dominators d = compute_dominators(m);
  CHECK(d.retained[0] == 40 * n);
  CHECK(d.retained[n - 1] == 40);
  CHECK(path_to_root(d, static_cast<uint32_t>(n - 1), n + 1).size() == n);
  json r;
  write_report(m, ReportLimits{}, r);
  CHECK(r.at("top_retainers").at(0).at("retained_bytes") == 40 * n);
}

TEST_CASE("class names given directly (rbkit snapshots) are kept, IMEMO never counts as its class", "[heap]") {
  HeapModel m;
  ObjectInfo o;
  o.address = 0x10;
  o.class_name = "Order";
  o.memsize = 40;
  m.add_object(o);
  ObjectInfo k;  // a CLASS record named Order
  k.address = 0x20;
  k.type = kClass;
  k.name = "Order";
  m.add_object(k);
  ObjectInfo cc;  // a callcache whose "class" is Order's address
  cc.address = 0x30;
  cc.type = kImemo;
  cc.class_address = 0x20;
  cc.detail = "callcache";
  m.add_object(cc);
  m.finalize();
  CHECK(m.strings.get(m.class_id[0]) == "Order");
  CHECK(m.strings.get(m.class_id[1]) == "Class");
  CHECK(m.strings.get(m.class_id[2]) == "<callcache> (IMEMO)");
}
