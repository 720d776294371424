// The heap.* questions (heap/heap_query.h) about any object of a real dump, checked against Ruby's
// own view of the same heap: fixtures/heap/graph.truth.json holds what
// ObjectSpace.reachable_objects_from said about the objects of graph.heap.json.gz and which objects
// reference them (fixtures/heap/generate_graph.rb); the hand-drawn graph below has hand-computed
// answers.
#include <catch2/catch.hpp>
#include <set>

#include "core/query.h"
#include "heap/heap_analysis.h"
#include "heap/heap_query.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;
using nlohmann::json;

namespace {

struct LiveSession {
  std::unique_ptr<InputSet> set;
  json doc;
  json ask(const std::string& method, json args = json::object()) { return set->query(method, args); }
};

LiveSession open_session(const std::vector<std::string>& paths, json options = json::object()) {
  LiveSession s;
  s.set = std::make_unique<InputSet>(options);
  for (const auto& p : paths) {
    std::string bytes = read_file(p);
    s.set->begin_file(p);
    s.set->feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    s.set->end_file();
  }
  s.doc = s.set->finish();
  raw_json::resolve(s.doc);
  return s;
}

std::set<std::string> addresses(const json& rows) {
  std::set<std::string> out;
  for (const auto& r : rows) out.insert(r.at("address").get<std::string>());
  return out;
}

// Every row of a paged list, asked page by page (5 at a time, to exercise the paging).
json all_rows(LiveSession& s, const std::string& method, const std::string& address) {
  json rows = json::array();
  for (size_t offset = 0;; offset += 5) {
    json page = s.ask(method, {{"address", address}, {"offset", offset}, {"limit", 5}});
    for (const auto& r : page.at("rows")) rows.push_back(r);
    if (offset + 5 >= page.at("total").get<size_t>()) break;
  }
  return rows;
}

void add(heap::HeapModel& m, uint64_t addr, uint64_t size, std::vector<uint64_t> refs) {
  heap::ObjectInfo o;
  o.address = addr;
  o.class_name = "Node";
  o.memsize = size;
  m.add_object(o);
  for (uint64_t r : refs) m.add_reference(r);
}

}  // namespace

TEST_CASE("heap.references and heap.parents agree with ObjectSpace.reachable_objects_from", "[heap][query]") {
  json truth = read_json(fixture("heap/graph.truth.json"));
  LiveSession s = open_session({fixture("heap/graph.heap.json.gz")});
  REQUIRE(s.doc.at("reports").size() == 1);
  std::set<std::string> stack_holders;
  for (const auto& a : truth.at("stack_holders")) stack_holders.insert(a.get<std::string>());
  for (const auto& [name, t] : truth.at("targets").items()) {
    INFO(name);
    const std::string address = t.at("address");
    // References: Ruby's visible ones are all there, and with the ones Ruby hides behind an
    // InternalObjectWrapper the count is Ruby's (the object's class included: the GC marks it).
    json refs = all_rows(s, "heap.references", address);
    std::set<std::string> ours = addresses(refs);
    for (const auto& r : t.at("references")) CHECK(ours.count(r.get<std::string>()) == 1);
    CHECK(refs.size() == t.at("references").size() + t.at("references_internal").get<size_t>());
    // Referrers: exactly the objects Ruby finds referencing the target, and the internal ones
    // (inline caches, method entries) whose dump record references it (the stack holders aside).
    json parents = all_rows(s, "heap.parents", address);
    std::set<std::string> referrers = addresses(parents);
    for (const auto& h : stack_holders) referrers.erase(h);
    std::set<std::string> expected;
    for (const auto& r : t.at("referrers")) expected.insert(r.get<std::string>());
    for (const auto& r : t.at("internal_referrers")) expected.insert(r.get<std::string>());
    CHECK(referrers == expected);
    json object = s.ask("heap.object", {{"address", address}});
    CHECK(object.at("parent_count") == parents.size());
    CHECK(object.at("reference_count") == refs.size());
  }
}

TEST_CASE("classes and modules are named for what they are", "[heap][query]") {
  json truth = read_json(fixture("heap/graph.truth.json"));
  LiveSession s = open_session({fixture("heap/graph.heap.json.gz")});
  for (const auto& [label, list] : truth.at("labels").items()) {
    REQUIRE(!list.empty());
    for (const auto& a : list) CHECK(s.ask("heap.object", {{"address", a}}).at("label") == label);
  }
  // The customer's class is named in its references too, and an order's path to a root names
  // each step (the registry's constant table holds the orders array).
  const json& t = truth.at("targets");
  json refs = s.ask("heap.references", {{"address", t.at("customer").at("address")}, {"limit", 10}});
  bool named = false;
  for (const auto& r : refs.at("rows")) named |= r.at("label") == "Class Customer";
  CHECK(named);
  json path = s.ask("heap.path", {{"address", t.at("order").at("address")}});
  REQUIRE(path.at("reachable") == true);
  CHECK(path.at("path_to_root").at(0).at("address") == t.at("order").at("address"));
  CHECK(path.at("path_to_root").at(0).at("label") == "Order");
  // The report's own tables carry the labels as well: the dominator tree names Object.
  const json& tree = s.doc.at("reports").at(0).at("dominator_tree");
  bool object_named = false;
  for (size_t i = 0; i < tree.at("label").size(); ++i)
    object_named |= tree.at("address").at(i) == truth.at("labels").at("Class Object").at(0) &&
                    tree.at("label").at(i) == "Class Object";
  CHECK(object_named);
}

TEST_CASE("retention questions of a hand-drawn graph", "[heap][query]") {
  // roots → A, F.  A → B, C;  B → D;  C → D;  D → E;  F → E.  G → A (unreachable).
  // Hand-computed: idom(B)=idom(C)=idom(D)=A; E and F hang off the roots. Retained: A=15, D=8.
  heap::HeapModel m;
  add(m, 0xA0, 1, {0xB0, 0xC0});
  add(m, 0xB0, 2, {0xD0});
  add(m, 0xC0, 4, {0xD0, 0xD0});
  add(m, 0xD0, 8, {0xE0});
  add(m, 0xE0, 16, {});
  add(m, 0xF0, 32, {0xE0});
  add(m, 0x100, 64, {0xA0});
  m.add_root("vm", 0xA0);
  m.add_root("machine_context", 0xF0);
  m.finalize();
  heap::Dominators d = heap::compute_dominators(m);
  heap::HeapQueries q(m, d);

  json a = q.answer("heap.object", {{"address", "0xa0"}});
  CHECK(a.at("retained_bytes") == 15);
  CHECK(a.at("dominated_count") == 3);  // B, C, D
  CHECK(a.at("parent_count") == 1);     // G (unreachable, but it references A)
  CHECK(a.at("held_by_root") == "vm");
  CHECK(a.at("dominator").at("label") == "(GC roots)");
  json d_parents = q.answer("heap.parents", {{"address", "0xd0"}});
  CHECK(d_parents.at("total") == 2);                          // B and C; C's two edges count once
  CHECK(d_parents.at("rows").at(0).at("address") == "0xc0");  // C retains 4 > B's 2
  json kids = q.answer("heap.children", {{"address", "0xa0"}});
  REQUIRE(kids.at("total") == 3);
  CHECK(kids.at("rows").at(0).at("address") == "0xd0");  // 8, then C 4, then B 2
  CHECK(kids.at("rows").at(2).at("address") == "0xb0");
  json roots = q.answer("heap.children", json::object());
  CHECK(roots.at("total") == 3);  // F 32, E 16, A 15
  CHECK(roots.at("rows").at(0).at("address") == "0xf0");
  json doms = q.answer("heap.dominators", {{"address", "0xd0"}});
  CHECK(doms.at("total") == 1);
  CHECK(doms.at("rows").at(0).at("address") == "0xa0");
  json path = q.answer("heap.path", {{"address", "0xe0"}});
  REQUIRE(path.at("length") == 2);  // E ← F, the shortest
  CHECK(path.at("path_to_root").at(1).at("address") == "0xf0");
  CHECK(path.at("root_category") == "machine_context");
  json g = q.answer("heap.object", {{"address", "0x100"}});
  CHECK(g.at("reachable") == false);
  CHECK(g.at("retained_bytes").is_null());
  CHECK(q.answer("heap.path", {{"address", "0x100"}}).at("path_to_root").empty());

  // Subtree of A limited to 3 nodes: A, then its biggest children D (8) and C (4); B is hidden.
  json sub = q.answer("heap.subtree", {{"address", "0xa0"}, {"max_nodes", 3}});
  CHECK(sub.at("nodes") == 3);
  CHECK(sub.at("address") == json::array({"0xa0", "0xd0", "0xc0"}));
  CHECK(sub.at("parent") == json::array({-1, 0, 0}));
  CHECK(sub.at("children").at(0) == 3);
  CHECK(sub.at("hidden").at(0) == 1);
  CHECK(sub.at("ancestors").size() == 1);  // the GC roots
  // The whole tree from the roots: 7 nodes (the roots and six reachable objects), preorder.
  json all = q.answer("heap.subtree", json::object());
  CHECK(all.at("nodes") == 7);
  CHECK(all.at("retained").at(0) == 63);
  for (size_t i = 1; i < 7; ++i) CHECK(all.at("parent").at(i).get<int>() < static_cast<int>(i));

  CHECK_THROWS_AS(q.answer("heap.object", {{"address", "0x999"}}), QueryError);
  CHECK_THROWS_WITH(q.answer("heap.object", {{"address", 12}}), Catch::Contains("argument 'address'"));
  CHECK_THROWS_WITH(q.answer("heap.subtree", {{"address", "0x100"}}), Catch::Contains("not reachable"));
  CHECK_THROWS_WITH(q.answer("heap.parents", {{"address", "0xa0"}, {"limit", 5000}}), Catch::Contains("'limit'"));
}

TEST_CASE("heap.children and heap.subtree agree with the report's tree and add up", "[heap][query][corpus]") {
  LiveSession s = open_session({corpus("heap/dumps/small_points.heap.json")}, {{"heap_focus", "0x1"}});
  const json& r = s.doc.at("reports").at(0);
  CHECK(r.at("focus").at("found") == false);
  const json& tree = r.at("dominator_tree");
  json biggest = s.ask("heap.children", {{"limit", 1}});
  REQUIRE(biggest.at("total").get<int>() > 0);
  const std::string top = biggest.at("rows").at(0).at("address");
  CHECK(top == tree.at("address").at(1));  // the biggest child of the roots leads the report's tree too
  json sub = s.ask("heap.subtree", {{"address", top}, {"max_nodes", 50}});
  CHECK(sub.at("retained").at(0) == tree.at("retained").at(1));
  // Sum rule: a node retains its own size plus what its children retain.
  json kids = s.ask("heap.children", {{"address", top}, {"limit", 1000}});
  uint64_t sum = sub.at("self").at(0).get<uint64_t>();
  for (const auto& k : kids.at("rows")) sum += k.at("retained_bytes").get<uint64_t>();
  CHECK(kids.at("total").get<size_t>() <= 1000);
  CHECK(sum == sub.at("retained").at(0).get<uint64_t>());
}
