// The tracing formats' stacks as the shared stack model (tracing/stack_source.h): the stacks.*
// answers of every stack-holding tracing format, checked against hand counts read in the inputs and
// against the report's own stack table (frame indices must agree: the page's flame graph is drawn
// from the report and transformed by the engine). tests/cli/cli_stacks.sh checks transforms, exports
// and the compare against awk over the inputs.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <sstream>

#include "core/query.h"
#include "support.h"
#include "tracing/compare.h"

using namespace gcscope;
using namespace gcscope::test;
using nlohmann::json;

namespace {

struct Capture {
  std::unique_ptr<InputSet> set;
  json report;
  json ask(const std::string& method, const json& args = json::object()) { return set->query(method, args); }
};

Capture open_capture(const std::string& path) {
  Capture c{std::make_unique<InputSet>(), nullptr};
  std::string bytes = read_file(path);
  c.set->begin_file(path);
  c.set->feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  c.set->end_file();
  json doc = c.set->finish();
  raw_json::resolve(doc);
  REQUIRE(doc["reports"].size() == 1);
  c.report = doc["reports"][0];
  return c;
}

// "a;b;c W" lines -> weight per stack text.
std::map<std::string, double> folded_lines(const std::string& text) {
  std::map<std::string, double> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    size_t sp = line.rfind(' ');
    REQUIRE(sp != std::string::npos);
    out[line.substr(0, sp)] += std::stod(line.substr(sp + 1));
  }
  return out;
}

// The report's stack table as "a;b;c" -> weight.
std::map<std::string, double> report_stacks(const json& report) {
  std::map<std::string, double> out;
  const json& s = report["stacks"];
  for (size_t i = 0; i < s["stacks"].size(); ++i) {
    std::string text;
    for (size_t k = 0; k < s["stacks"][i].size(); ++k)
      text += (k ? ";" : "") + s["frames"][s["stacks"][i][k].get<size_t>()].get<std::string>();
    out[text] += s["weights"][i].get<double>();
  }
  return out;
}

}  // namespace

TEST_CASE("tracing stacks: the model's frames and stacks are the report's, in every stack format",
          "[tracing][stacks][corpus]") {
  for (const std::string& path :
       {fixture("tracing/perf-script-ruby.folded.txt"), fixture("tracing/perf-script-ruby.txt"),
        corpus("trace/dtrace/example-dtrace-stacks.head.txt"), corpus("trace/bcc-upstream/profile_example.txt"),
        corpus("trace/bcc-upstream/stackcount_example.txt"), corpus("trace/bcc-upstream/uflow_example.txt"),
        corpus("trace/bpftrace-0.17-det/det_multiline_key.txt"),
        corpus("trace/bpftrace-0.17-det/det_multiline_key.ndjson")}) {
    INFO(path);
    Capture c = open_capture(path);
    const json& s = c.report["stacks"];
    REQUIRE(s["unique"].get<size_t>() > 0);
    json tree = c.ask("stacks.tree");
    // Frame i of the engine is frame i of the report (the page transforms what it drew).
    CHECK(tree["frames"]["name"] == s["frames"]);
    CHECK(tree["unit"] == s["weight_unit"]);
    CHECK(tree["total"] == s["total_weight"]);
    CHECK(folded_lines(c.ask("stacks.folded").get<std::string>()) == report_stacks(c.report));
    CHECK(c.ask("stacks.frames", {{"limit", 0}})["total"] == s["total_weight"]);
  }
}

TEST_CASE("tracing stacks: hand counts of bpftrace and BCC captures", "[tracing][stacks][corpus]") {
  // @["line1\nline2\nline3"] = count() once: a multi-line key is a stack, its first line the leaf.
  for (const char* rel : {"det_multiline_key.txt", "det_multiline_key.ndjson"}) {
    INFO(rel);
    Capture c = open_capture(corpus(std::string("trace/bpftrace-0.17-det/") + rel));
    CHECK(c.ask("stacks.folded") == "line3;line2;line1 1\n");
    CHECK(c.ask("stacks.folded", {{"transforms", {{{"invert", true}}}}}) == "line1;line2;line3 1\n");
  }
  // uflow's call-count flame graph: the example prints 25 "->" lines.
  Capture uflow = open_capture(corpus("trace/bcc-upstream/uflow_example.txt"));
  CHECK(uflow.ask("stacks.frames", {{"limit", 0}})["total"] == 25);
  json speedscope = json::parse(uflow.ask("stacks.export", {{"to", "speedscope"}}).get<std::string>());
  double sum = 0;
  for (const auto& p : speedscope["profiles"])
    for (const auto& w : p["weights"]) sum += w.get<double>();
  CHECK(sum == 25);
}

TEST_CASE("tracing stacks: bpftrace's empty kstack \"@[]\" is the one-frame stack [unknown]", "[tracing][stacks]") {
  // Hand counts over the fixtures (fixtures/tracing/make_bpftrace_stacks.sh), with these commands:
  //   text, samples without a kernel frame: awk -F': ' '/^@\[\]: /{s+=$2} END{print s}'       -> 43
  //   text, all samples:     awk '/^@\[\]: |^\]: /{s+=$NF} END{print s}'                      -> 84
  //   JSON, the key "":       grep -o '"": [0-9]*'                                          -> 185
  //   JSON, all samples:     grep '"type": "map"' | grep -o '": [0-9][0-9]*' | awk '{s+=$2} END{print s}' -> 475
  struct Expect {
    const char* rel;
    double stackless, total;
  };
  for (const Expect& x : {Expect{"tracing/bpftrace-kstack-dd-4k.txt", 43, 84},
                          Expect{"tracing/bpftrace-kstack-dd-4k.ndjson", 185, 475}}) {
    INFO(x.rel);
    Capture c = open_capture(fixture(x.rel));
    CHECK(c.report["stacks"]["total_weight"] == x.total);
    json frames = c.ask("stacks.frames");
    CHECK(frames["total"] == x.total);
    int found = 0;
    for (const auto& r : frames["rows"])
      if (r["name"] == "[unknown]") {
        ++found;
        CHECK(r["self"] == x.stackless);
        CHECK(r["total"] == x.stackless);
      }
    CHECK(found == 1);
    CHECK(folded_lines(c.ask("stacks.folded").get<std::string>())["[unknown]"] == x.stackless);
  }
}

TEST_CASE("tracing stacks: a capture without stacks says so", "[tracing][stacks]") {
  Capture c = open_capture(fixture("tracing/bpftrace-hist.txt"));
  CHECK_THROWS_WITH(c.ask("stacks.folded"), Catch::Contains("holds no stacks"));
  CHECK_THROWS_WITH(c.ask("stacks.export", {{"to", "pprof"}}), Catch::Contains("holds no stacks"));
}

TEST_CASE("tracing stacks: the compare of two captures has per-frame deltas (hand count)", "[tracing][stacks]") {
  // A: a;b 3, a;c 1; B: a;b 1, a;c 1, d 2. Frame a: self 0/0, total 4/2; b: self 3/1; c: 1/1; d: 0/2.
  auto side = [](const std::string& folded) {
    json doc = analyze_bytes({{"s.folded", folded}});
    return doc["reports"][0];
  };
  json cmp = tracing::compare_reports(side("a;b 3\na;c 1\n"), side("a;b 1\na;c 1\nd 2\n"));
  REQUIRE(cmp.contains("frames"));
  CHECK(cmp["totals"] == json{{"a", 4}, {"b", 4}, {"delta", 0}});
  std::map<std::string, std::vector<double>> rows;
  for (const auto& f : cmp["frames"])
    rows[f["name"].get<std::string>()] = {f["self_a"].get<double>(), f["self_b"].get<double>(),
                                          f["total_a"].get<double>(), f["total_b"].get<double>(),
                                          f["total_delta_pct"].get<double>()};
  CHECK(rows["a"] == std::vector<double>{0, 0, 4, 2, -50});
  CHECK(rows["b"] == std::vector<double>{3, 1, 3, 1, -50});
  CHECK(rows["c"] == std::vector<double>{1, 1, 1, 1, 0});
  CHECK(rows["d"] == std::vector<double>{0, 2, 0, 2, 50});
  CHECK(rows.size() == 4);
}
