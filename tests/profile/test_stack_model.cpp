// The shared stack model (wasm/profile/): transforms against an independent script over the real
// stackprof CLI's output (fixtures/profile/transforms/: transform.py, cases.json, generate.sh),
// per-frame weights against stackprof's own frame tables, and the sandwich, calls and match
// answers against hand counts.
#include <catch2/catch.hpp>

#include <map>
#include <memory>

#include "core/query.h"
#include "profile/compare.h"
#include "profile/stack_queries.h"
#include "profile/transforms.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::profile;
using namespace gcscope::test;

namespace {

std::unique_ptr<InputSet> session(const std::string& path) {
  auto set = std::make_unique<InputSet>();
  std::string bytes = read_file(path);
  set->begin_file(path);
  set->feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  set->end_file();
  set->finish();
  return set;
}

std::string case_dump(std::string src) {
  if (src.rfind("json:", 0) == 0) src = src.substr(5);
  if (src == "gems") return fixture("stackprof/gems/gems-wall-raw.dump");
  std::string name = src.substr(src.find(':') + 1);
  return corpus("prof/" + name + "/" + name + ".dump");
}

// a;b;c 3 / a;c 2 / c;d 1 (names only), in that order.
StackModel hand_model() {
  StackModel m;
  for (const char* n : {"a", "b", "c", "d"}) m.add_frame({n, "", kNoLine, ""});
  uint32_t abc[] = {0, 1, 2}, ac[] = {0, 2}, cd[] = {2, 3};
  m.add_sample(m.node_of(abc, 3), 3);
  m.add_sample(m.node_of(ac, 2), 2);
  m.add_sample(m.node_of(cd, 2), 1);
  return m;
}

}  // namespace

TEST_CASE("stacks.folded with transforms equals the independent script's output", "[profile][transforms][corpus]") {
  nlohmann::json cases = read_json(fixture("profile/transforms/cases.json"));
  REQUIRE(cases.size() >= 10);
  for (const auto& c : cases) {
    INFO(c["id"].get<std::string>() << ": " << c["transforms"].dump());
    auto set = session(case_dump(c["dump"]));
    std::string want = read_file(fixture("profile/transforms/expected/" + c["id"].get<std::string>() + ".txt"));
    REQUIRE_FALSE(want.empty());
    CHECK(set->query("stacks.folded", {{"transforms", c["transforms"]}}).get<std::string>() == want);
  }
}

TEST_CASE("transforms refuse what they cannot apply", "[profile][transforms][corpus]") {
  auto set = session(case_dump("corpus:blocks-cpu-raw"));
  auto ask = [&](const nlohmann::json& t) { return set->query("stacks.folded", {{"transforms", t}}); };
  CHECK_THROWS_WITH(ask({{{"hide", "(["}}}), Catch::Contains("invalid regular expression"));
  CHECK_THROWS_WITH(ask({{{"focus_function", 3}}}), Catch::Contains("needs a frame name"));
  CHECK_THROWS_WITH(ask({{{"collapse_recursion", "some"}}}), Catch::Contains("\"direct\" or \"all\""));
  CHECK_THROWS_WITH(ask({{{"zoom", 1}}}), Catch::Contains("unknown transform"));
  CHECK_THROWS_WITH(ask("invert"), Catch::Contains("must be a list"));
  // Focusing on a function no sample has leaves nothing, which is an answer, not an error.
  CHECK(ask({{{"focus_function", "no such frame"}}}) == "");
}

TEST_CASE("per-frame weights from raw samples equal stackprof's own frame counters", "[profile][corpus]") {
  // stackprof counts a frame's total once per sample while sampling (stackprof.c); the model
  // computes it from the raw stacks afterwards. Both must agree on every frame of real dumps.
  for (const char* name : {"blocks-cpu-raw", "blocks-object-raw", "gc-cpu-raw", "threads-wall-raw"}) {
    INFO(name);
    auto set = session(case_dump(std::string("corpus:") + name));
    nlohmann::json dump = read_json(corpus(std::string("prof/") + name + "/" + name + ".json"));
    nlohmann::json rows = set->query("stacks.frames", {{"sort", "total"}})["rows"];
    std::map<std::pair<std::string, nlohmann::json>, std::pair<int64_t, int64_t>> want, got;
    for (const auto& [id, f] : dump["frames"].items()) {
      if (f["total_samples"] == 0) continue;
      auto& w = want[{f["name"].get<std::string>(), f.value("line", nlohmann::json())}];
      w.first += f["total_samples"].get<int64_t>();
      w.second += f["samples"].get<int64_t>();
    }
    for (const auto& r : rows) {
      auto& g = got[{r["name"].get<std::string>(), r["line"]}];
      g.first += r["total"].get<int64_t>();
      g.second += r["self"].get<int64_t>();
    }
    CHECK(got == want);
  }
}

TEST_CASE("gems and the standard library are told from the path", "[profile]") {
  CHECK(gem_of("/usr/lib/ruby/gems/3.1.0/gems/rake-13.0.6/lib/rake/file_list.rb") == "rake-13.0.6");
  CHECK(gem_of("/app/vendor/bundle/ruby/3.2.0/gems/activerecord-import-1.5.0/lib/x.rb") == "activerecord-import-1.5.0");
  CHECK(gem_of("/usr/lib/ruby/3.1.0/set.rb").empty());
  CHECK(gem_of("/srv/gems/notes/app.rb").empty());  // "notes" has no version
  CHECK(is_ruby_stdlib("/usr/lib/ruby/3.1.0/set.rb"));
  CHECK(is_ruby_stdlib("<internal:numeric>"));
  CHECK_FALSE(is_ruby_stdlib("/usr/lib/ruby/gems/3.1.0/gems/rake-13.0.6/lib/rake.rb"));
  CHECK_FALSE(is_ruby_stdlib("/usr/lib/ruby/vendor_ruby/stackprof.rb"));
}

TEST_CASE("sandwich, calls and match on a hand-made profile", "[profile]") {
  StackQueries q(hand_model());  // a;b;c 3 / a;c 2 / c;d 1
  nlohmann::json s = q.answer("stacks.sandwich", {{"frame", 2}});
  CHECK(s["total"] == 6);  // every sample holds c
  CHECK(s["self"] == 5);   // c is the leaf of 3 + 2
  // Callers, c first: c (self 1: the c;d sample starts at c) <- b <- a (3), c <- a (2).
  CHECK(s["callers"]["frame"] == nlohmann::json({2, 1, 0, 0}));
  CHECK(s["callers"]["parent"] == nlohmann::json({-1, 0, 1, 0}));
  CHECK(s["callers"]["self"] == nlohmann::json({1, 0, 3, 2}));
  // Callees: c (self 5) -> d (1).
  CHECK(s["callees"]["frame"] == nlohmann::json({2, 3}));
  CHECK(s["callees"]["self"] == nlohmann::json({5, 1}));

  nlohmann::json c = q.answer("stacks.calls", {{"frame", 2}});
  CHECK(c["total"] == 6);
  REQUIRE(c["callers"].size() == 2);
  CHECK(c["callers"][0]["name"] == "b");
  CHECK(c["callers"][0]["weight"] == 3);
  CHECK(c["callers"][0]["pct"].get<double>() == Approx(50.0));
  CHECK(c["callers"][1]["name"] == "a");
  CHECK(c["callers"][1]["weight"] == 2);
  CHECK(c["callers"][1]["pct"].get<double>() == Approx(100.0 * 2 / 6));
  CHECK(c["callees"][0]["name"] == "d");
  CHECK(c["callees"][0]["weight"] == 1);

  nlohmann::json m = q.answer("stacks.match", {{"regex", "^B$"}});  // case-insensitive
  CHECK(m["weight"] == 3);
  CHECK(m["total"] == 6);
  CHECK(m["frames"] == nlohmann::json({1}));

  nlohmann::json t = q.answer("stacks.tree", {{"transforms", {{{"merge_function", "c"}}}}});
  // a;b 3 / a 2 / d 1: the c;d sample becomes a root d.
  CHECK(t["total"] == 6);
  CHECK(t["samples"]["weight"] == nlohmann::json({3, 2, 1}));
  CHECK(q.answer("stacks.folded", {{"transforms", {{{"merge_function", "c"}}}}}) == "a;b 3\na 2\nd 1\n");
  CHECK(q.answer("stacks.folded", {{"transforms", {{{"invert", true}}}}}) == "c;b;a 3\nc;a 2\nd;c 1\n");
  CHECK_THROWS_AS(q.answer("stacks.sandwich", {{"frame", 4}}), QueryError);
}

TEST_CASE("a compare side that is not the engine's shape is an error, not a crash", "[profile][compare]") {
  // One frame f with self 3, total 3, in a one-node tree: the shape compare.side answers.
  const nlohmann::json good = {
      {"kind", "profile"},
      {"unit", "samples"},
      {"samples", 3},
      {"frames", {{"name", {"f"}}, {"file", {""}}, {"line", {nullptr}}, {"self", {3}}, {"total", {3}}}},
      {"tree", {{"parent", {-1}}, {"frame", {0}}, {"self", {3}}}}};
  REQUIRE(compare_profiles(good, good)["totals"]["delta"] == 0);
  nlohmann::json no_total = good, short_file = good, short_tree = good, no_samples = good;
  no_total["frames"].erase("total");
  short_file["frames"]["file"] = nlohmann::json::array();
  short_tree["tree"]["self"] = nlohmann::json::array();
  no_samples.erase("samples");
  for (const auto* bad : {&no_total, &short_file, &short_tree, &no_samples}) {
    CHECK_THROWS_AS(compare_profiles(good, *bad), QueryError);
    CHECK_THROWS_AS(compare_profiles(*bad, good), QueryError);
  }
}
