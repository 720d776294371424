// The stackprof queries of a live session (stackprof.method, stackprof.text, stacks.folded) and the
// profile compare, against the real stackprof 0.2.21 CLI's output: the corpus goldens
// (../shared/corpus/prof/<name>/golden/) and fixtures/stackprof/method-all/ (method-goldens.sh).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "core/query.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;

namespace {

struct Session {
  std::unique_ptr<InputSet> set;
  nlohmann::json doc;
  nlohmann::json ask(const std::string& method, const nlohmann::json& args = nlohmann::json::object()) {
    return set->query(method, args);
  }
};

Session open_session(const std::vector<std::string>& paths) {
  Session s{std::make_unique<InputSet>(), nullptr};
  for (const auto& p : paths) {
    std::string bytes = read_file(p);
    s.set->begin_file(p);
    s.set->feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    s.set->end_file();
  }
  s.doc = s.set->finish();
  return s;
}

std::string dump_of(const std::string& name) { return corpus("prof/" + name + "/" + name + ".dump"); }

// One block of `stackprof --method` output.
struct MethodBlock {
  std::string name, where;
  int64_t self = 0, total = 0;
  std::vector<std::pair<int64_t, std::string>> callers, callees;  // (weight, "pct name")
  bool has_callees = false;
  int64_t callees_total = 0;
};

std::vector<MethodBlock> parse_method_goldens(const std::string& text) {
  std::vector<MethodBlock> out;
  std::istringstream in(text);
  std::string line;
  static const std::regex head(R"(^(.*) \((.*)\)$)"), samples(R"(^  samples: +(\d+) self \(.*\)  /  +(\d+) total .*$)"),
      row(R"(^   +(\d+)  \( *([^)]*)\)  (.*)$)"), callees(R"(^  callees \((-?\d+) total\):$)");
  int section = 0;  // 1 callers, 2 callees, 3 code
  std::smatch m;
  while (std::getline(in, line)) {
    if (line.rfind("  ", 0) != 0 && std::regex_match(line, m, head)) {
      MethodBlock b;
      b.name = m[1];
      b.where = m[2];
      out.push_back(b);
      section = 0;
    } else if (std::regex_match(line, m, samples)) {
      out.back().self = std::stoll(m[1]);
      out.back().total = std::stoll(m[2]);
    } else if (line == "  callers:") {
      section = 1;
    } else if (std::regex_match(line, m, callees)) {
      section = 2;
      out.back().has_callees = true;
      out.back().callees_total = std::stoll(m[1]);
    } else if (line == "  code:") {
      section = 3;
    } else if (section == 1 || section == 2) {
      REQUIRE(std::regex_match(line, m, row));
      auto& list = section == 1 ? out.back().callers : out.back().callees;
      list.push_back({std::stoll(m[1]), std::string(m[2]) + " " + std::string(m[3])});
    }
  }
  return out;
}

// "%3.1f%%" as stackprof prints it; Inf/NaN where Ruby's Float division gives them.
std::string pct_text(const nlohmann::json& pct, int64_t part) {
  if (pct.is_null()) return part == 0 ? "NaN%" : "Inf%";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", pct.get<double>());
  return buf;
}

std::vector<std::pair<int64_t, std::string>> sorted(std::vector<std::pair<int64_t, std::string>> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("stacks.folded without transforms is stackprof --stackcollapse's text", "[stackprof][query][corpus]") {
  for (const char* name : {"blocks-cpu-raw", "blocks-wall-raw", "blocks-object-raw", "blocks-custom-raw", "gc-cpu-raw",
                           "threads-wall-raw", "threads-object-raw"}) {
    INFO(name);
    Session s = open_session({dump_of(name)});
    std::string golden = read_file(corpus(std::string("prof/") + name + "/golden/stackcollapse.txt"));
    CHECK(s.ask("stacks.folded").get<std::string>() == golden);
  }
}

TEST_CASE("stacks.* on a dump without raw samples says why, as stackprof does", "[stackprof][query][corpus]") {
  Session s = open_session({dump_of("blocks-cpu-agg")});
  CHECK_THROWS_WITH(s.ask("stacks.folded"), Catch::Contains("profile does not include raw samples"));
  // The method view needs no raw samples.
  CHECK(s.ask("stackprof.method", {{"frame", 0}}).at("name").is_string());
}

TEST_CASE("stackprof.method gives stackprof --method's figures for every frame", "[stackprof][query][corpus]") {
  for (const char* name :
       {"blocks-cpu-raw", "recursion-cpu-agg", "cmethods-wall-agg", "gc-cpu-raw", "threads-object-raw"}) {
    INFO(name);
    Session s = open_session({dump_of(name)});
    std::vector<MethodBlock> blocks =
        parse_method_goldens(read_file(fixture(std::string("stackprof/method-all/") + name + ".txt")));
    const auto& ft = s.doc["reports"][0]["frame_table"];
    REQUIRE(blocks.size() == ft["text_order"].size());
    // stackprof lists frames by self samples (ties in any order): match each block to an unused
    // frame of the same name, self and total, then compare the whole method view.
    std::vector<bool> used(ft["name"].size(), false);
    for (const auto& b : blocks) {
      INFO(b.name << " (" << b.where << ")");
      nlohmann::json got;
      for (size_t i = 0; i < used.size() && got.is_null(); ++i) {
        if (used[i] || ft["name"][i] != b.name || ft["self"][i] != b.self || ft["total"][i] != b.total) continue;
        nlohmann::json m = s.ask("stackprof.method", {{"frame", i}});
        std::string where = m["file"].get<std::string>() + ":" + std::to_string(m["code"][0].get<int64_t>());
        if (where != b.where) continue;
        used[i] = true;
        got = m;
      }
      REQUIRE_FALSE(got.is_null());
      std::vector<std::pair<int64_t, std::string>> callers, callees;
      for (const auto& c : got["callers"])
        callers.push_back({c["weight"], pct_text(c["pct"], c["weight"]) + " " + c["name"].get<std::string>()});
      CHECK(sorted(callers) == sorted(b.callers));
      CHECK(got["callees"].is_array() == b.has_callees);
      if (b.has_callees) {
        CHECK(got["callees_total"] == b.callees_total);
        for (const auto& c : got["callees"])
          callees.push_back({c["weight"], pct_text(c["pct"], c["weight"]) + " " + c["name"].get<std::string>()});
        CHECK(sorted(callees) == sorted(b.callees));
      }
    }
  }
}

TEST_CASE("stackprof.method checks its frame argument", "[stackprof][query][corpus]") {
  Session s = open_session({dump_of("blocks-cpu-raw")});
  CHECK_THROWS_AS(s.ask("stackprof.method"), QueryError);
  CHECK_THROWS_WITH(s.ask("stackprof.method", {{"frame", 32}}), Catch::Contains("from 0 to 31"));
  // The report's first screen holds the heaviest frame's view, the same answer the query gives.
  const auto& r = s.doc["reports"][0];
  CHECK(r["method_top"] == s.ask("stackprof.method", {{"frame", r["frame_table"]["text_order"][0]}}));
}

TEST_CASE("stackprof.text applies stackprof's select/reject filters like --text", "[stackprof][query][corpus]") {
  // fixtures/stackprof/filter-goldens.sh: the real CLI with these filters on this dump.
  Session s = open_session({dump_of("blocks-cpu-raw")});
  struct Case {
    const char* golden;
    nlohmann::json args;
  };
  std::vector<Case> cases = {
      {"filter-1.txt", {{"select_files", "/srv/app"}, {"reject_names", "Pipeline"}, {"limit", 30}}},
      {"filter-2.txt", {{"select_names", {"^Array", "Enumerable"}}, {"limit", 5}}},
      {"filter-4.txt", {{"reject_files", "/srv"}, {"select_names", "(map|each)$"}, {"limit", 30}}},
  };
  static const std::regex row(R"(^ +(\d+) +\(.*\) +(\d+) +\(.*\)     (.*)$)");
  for (const auto& c : cases) {
    INFO(c.golden);
    std::multiset<std::tuple<int64_t, int64_t, std::string>> want, got;
    std::istringstream in(read_file(fixture(std::string("stackprof/") + c.golden)));
    std::string line;
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_match(line, m, row)) want.insert({std::stoll(m[1]), std::stoll(m[2]), m[3]});
    nlohmann::json answer = s.ask("stackprof.text", c.args);
    for (const auto& r : answer["rows"])
      got.insert({r["total"].get<int64_t>(), r["self"].get<int64_t>(), r["name"].get<std::string>()});
    CHECK(got == want);
  }
  CHECK_THROWS_WITH(s.ask("stackprof.text", {{"select_names", "(["}}), Catch::Contains("invalid regular expression"));
}

TEST_CASE("gcscope compare of two dumps: per-frame deltas from each side's stackprof --text",
          "[stackprof][compare][corpus]") {
  // Side figures against `stackprof --text --limit 0` of each dump (the corpus goldens): a frame's
  // self is the sum of its rows; rows of one name are one frame here when file and line agree too.
  Session a = open_session({dump_of("blocks-cpu-raw")}), b = open_session({dump_of("gc-cpu-raw")});
  nlohmann::json c = b.ask("compare.with", {{"other", a.ask("compare.side")}});
  REQUIRE(c["kind"] == "profile");
  CHECK(c["totals"]["a"] == 486);  // "Samples: 486" in text-all.txt
  CHECK(c["totals"]["b"] == 879);
  auto text_rows = [](const std::string& name) {
    std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> rows;  // name -> (total, self)...
    std::istringstream in(read_file(corpus("prof/" + name + "/golden/text-all.txt")));
    static const std::regex row(R"(^ +(\d+) +\(.*\) +(\d+) +\(.*\)     (.*)$)");
    std::string line;
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_match(line, m, row)) rows[m[3]].push_back({std::stoll(m[1]), std::stoll(m[2])});
    return rows;
  };
  auto ta = text_rows("blocks-cpu-raw"), tb = text_rows("gc-cpu-raw");
  std::map<std::string, std::pair<int64_t, int64_t>> self_by_name;  // (a, b)
  std::map<std::string, std::pair<int64_t, int64_t>> total_by_name;
  for (const auto& f : c["frames"]) {
    self_by_name[f["name"]].first += f["self_a"].get<int64_t>();
    self_by_name[f["name"]].second += f["self_b"].get<int64_t>();
    total_by_name[f["name"]].first = std::max(total_by_name[f["name"]].first, f["total_a"].get<int64_t>());
    total_by_name[f["name"]].second = std::max(total_by_name[f["name"]].second, f["total_b"].get<int64_t>());
    CHECK(f["self_pct_a"].get<double>() == Approx(100.0 * f["self_a"].get<double>() / 486));
    CHECK(f["total_delta_pct"].get<double>() ==
          Approx(100.0 * f["total_b"].get<double>() / 879 - 100.0 * f["total_a"].get<double>() / 486));
  }
  for (int side = 0; side < 2; ++side) {
    const auto& text = side == 0 ? ta : tb;
    for (const auto& [name, rows] : text) {
      INFO((side ? "b: " : "a: ") << name);
      int64_t self = 0, max_total = 0;
      for (const auto& [t, s] : rows) self += s, max_total = std::max(max_total, t);
      auto got_self = side == 0 ? self_by_name[name].first : self_by_name[name].second;
      auto got_total = side == 0 ? total_by_name[name].first : total_by_name[name].second;
      CHECK(got_self == self);
      // Rows of one name counting the same samples (<main> twice on every stack) count them once.
      CHECK(got_total == max_total);
    }
  }
  // The differential tree holds every raw sample of each side once (manifest.json: raw_total_weight).
  double sa = 0, sb = 0;
  for (const auto& w : c["tree"]["self_a"]) sa += w.get<double>();
  for (const auto& w : c["tree"]["self_b"]) sb += w.get<double>();
  CHECK(sa == 486);
  CHECK(sb == 878);
}

TEST_CASE("a profile compare refuses modes that do not agree", "[stackprof][compare][corpus]") {
  Session a = open_session({dump_of("blocks-cpu-raw")}), b = open_session({dump_of("blocks-wall-raw")});
  CHECK_THROWS_WITH(b.ask("compare.with", {{"other", a.ask("compare.side")}}),
                    Catch::Contains("cpu-mode profile cannot be compared"));
  // An aggregated dump compares by its frame table; there is no differential tree then.
  Session agg = open_session({dump_of("blocks-cpu-agg")});
  nlohmann::json c = agg.ask("compare.with", {{"other", a.ask("compare.side")}});
  CHECK(c["tree"].is_null());
  CHECK(c["totals"]["b"] == 427);
}

TEST_CASE("frames of one name and file without a line stay apart, as stackprof --text lists them",
          "[stackprof][compare]") {
  // same-name-frames.dump (same_name_frames.rb): Worker#spin compiled twice from a string at line 0,
  // so two frame ids of one name and file and no line; the real CLI's `--text --limit 0` of it is
  // kept beside it and lists them as two rows.
  using Row = std::tuple<std::string, int64_t, int64_t>;  // name, total, self
  std::multiset<Row> want;
  int64_t samples = -1;
  {
    std::istringstream in(read_file(fixture("stackprof/same-name-frames.text.txt")));
    static const std::regex row(R"(^ +(\d+) +\(.*\) +(\d+) +\(.*\)     (.*)$)"), head(R"(^  Samples: (\d+) .*$)");
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
      if (std::regex_match(line, m, row)) want.insert({m[3], std::stoll(m[1]), std::stoll(m[2])});
      if (std::regex_match(line, m, head)) samples = std::stoll(m[1]);
    }
  }
  REQUIRE(want.count({"Worker#spin", 60, 60}) == 1);  // the two frames the model must keep apart
  REQUIRE(want.count({"Worker#spin", 50, 50}) == 1);
  Session s = open_session({fixture("stackprof/same-name-frames.dump")});

  // The per-frame table from the raw samples: the same rows (no recursion here, so a frame's total
  // from its stacks is stackprof's total_samples).
  std::multiset<Row> got;
  nlohmann::json table = s.ask("stacks.frames");
  for (const auto& r : table["rows"])
    got.insert({r["name"].get<std::string>(), r["total"].get<int64_t>(), r["self"].get<int64_t>()});
  CHECK(got == want);

  // A compare side and the compare of the dump with itself: one row per frame of --text, each
  // paired with itself (the k-th Worker#spin of one side with the k-th of the other).
  nlohmann::json side = s.ask("compare.side");
  const auto& rows = side["side"]["frames"];  // the session's answer wraps the side
  got.clear();
  for (size_t i = 0; i < rows["name"].size(); ++i)
    got.insert({rows["name"][i].get<std::string>(), rows["total"][i].get<int64_t>(), rows["self"][i].get<int64_t>()});
  CHECK(got == want);
  nlohmann::json c = s.ask("compare.with", {{"other", side}});
  CHECK(c["totals"]["a"] == samples);
  got.clear();
  for (const auto& f : c["frames"]) {
    CHECK(f["self_a"] == f["self_b"]);
    CHECK(f["total_a"] == f["total_b"]);
    got.insert({f["name"].get<std::string>(), f["total_a"].get<int64_t>(), f["self_a"].get<int64_t>()});
  }
  CHECK(got == want);
  // The differential tree's leaves: one node per Worker#spin frame, with that frame's samples.
  std::multiset<int64_t> spin_self;
  const auto& t = c["tree"];
  for (size_t n = 0; n < t["frame"].size(); ++n)
    if (c["frames"][t["frame"][n].get<size_t>()]["name"] == "Worker#spin") {
      CHECK(t["self_a"][n] == t["self_b"][n]);
      spin_self.insert(t["self_a"][n].get<int64_t>());
    }
  CHECK(spin_self == std::multiset<int64_t>{50, 60});
}
