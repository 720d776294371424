// The tracing analyzers over every file of the shared trace corpus, checked against the manifest's
// `expect` blocks (written by the corpus collector's reference parser, cross-checked text vs JSON
// twins; for malformed/ files the expect block is the specification). Where this product
// deliberately differs from the reference parser, the check says why.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "support.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()
using nlohmann::json;

namespace {

const json& manifest() {
  static const json m = read_json(corpus("trace/manifest.json"));
  return m;
}

const json& expect_of(const std::string& rel) {
  for (const auto& f : manifest()["files"])
    if (f["path"] == rel) return f["expect"];
  throw std::runtime_error("not in the trace manifest: " + rel);
}

json analyze(const std::string& rel, json options = json::object()) {
  return analyze_paths({corpus("trace/" + rel)}, options);
}

const json& only_report(const json& doc) {
  REQUIRE(doc["reports"].size() == 1);
  return doc["reports"][0];
}

// Report integers are JSON numbers up to 2^53 and decimal strings beyond; the manifest has plain
// numbers (parsed exactly by nlohmann as u64/i64).
std::string int_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  return v.dump();
}

bool same_int(const json& report_value, const json& expected) { return int_text(report_value) == int_text(expected); }

json bucket_bounds(const json& pair) {
  if (pair.is_null()) return nullptr;
  return json::array(
      {pair[0].is_null() ? json() : json(int_text(pair[0])), pair[1].is_null() ? json() : json(int_text(pair[1]))});
}

// Compares one expected map entry value with the report's.
void check_value(const json& report, const json& got, const json& want, const std::string& kind) {
  if (kind == "tseries") {
    // the manifest summarises a series as points / first / min / max
    std::vector<double> present;
    for (const auto& v : got["value"])
      if (!v.is_null()) present.push_back(v.get<double>());
    REQUIRE(!present.empty());
    CHECK(present.size() == want["points"].get<size_t>());
    CHECK(got["interval_start"][0] == want["first"]["interval_start"]);
    CHECK(present[0] == want["first"]["value"].get<double>());
    CHECK(*std::min_element(present.begin(), present.end()) == want["min"].get<double>());
    CHECK(*std::max_element(present.begin(), present.end()) == want["max"].get<double>());
  } else if (kind == "hist") {
    REQUIRE(got.contains("histogram"));
    const json& h = report["histograms"][got["histogram"].get<size_t>()];
    CHECK(same_int(h["total"], want["total"]));
    REQUIRE(h["buckets"].size() == want["buckets"].size());
    for (size_t i = 0; i < want["buckets"].size(); ++i) {
      const json& wb = want["buckets"][i];
      const json& gb = h["buckets"][i];
      INFO("bucket " << i);
      CHECK((wb[0].is_null() ? gb["lo"].is_null() : same_int(gb["lo"], wb[0])));
      CHECK((wb[1].is_null() ? gb["hi"].is_null() : same_int(gb["hi"], wb[1])));
      CHECK(same_int(gb["count"], wb[2]));
    }
    for (const char* p : {"p50", "p90", "p99", "mode"}) {
      std::string wk = std::string(p) + "_bucket";
      if (!want.contains(wk)) continue;
      INFO(p);
      CHECK(bucket_bounds(h[p]) == bucket_bounds(want[wk]));
    }
  } else if (want.is_object() && want.contains("count")) {
    CHECK(same_int(got["count"], want["count"]));
    CHECK(same_int(got["average"], want["average"]));
    CHECK(same_int(got["total"], want["total"]));
  } else if (want.is_number()) {
    CHECK(same_int(got, want));
  } else {
    CHECK(got == want);
  }
}

void check_maps(const json& report, const json& want_maps, const std::string& rel) {
  const json& maps = report["maps"];
  INFO(rel << " maps: " << maps.dump().substr(0, 3000));
  REQUIRE(maps.size() == want_maps.size());
  for (size_t m = 0; m < want_maps.size(); ++m) {
    const json& w = want_maps[m];
    const json& g = maps[m];
    INFO("map " << m << " " << w["name"]);
    CHECK(g["name"] == w["name"]);
    CHECK(g["kind"] == w["kind"]);
    REQUIRE(g["entries"].size() == w["n_entries"].get<size_t>());
    for (size_t e = 0; e < g["entries"].size(); ++e) {
      INFO("entry " << e);
      const json& ge = g["entries"][e];
      if (w.contains("entries")) {
        CHECK(ge["key"] == w["entries"][e]["key"]);
        check_value(report, ge["value"], w["entries"][e]["value"], w["kind"]);
      }
      if (w.contains("keys")) CHECK(ge["key"] == w["keys"][e]);
      if (w.contains("totals")) CHECK(same_int(ge["value"]["total"], w["totals"][e]));
      if (w.contains("values")) check_value(report, ge["value"], w["values"][e], w["kind"]);
    }
  }
}

std::multiset<std::string> error_messages(const json& doc, const std::string& severity = "error") {
  std::multiset<std::string> out;
  for (const auto& e : doc["errors"])
    if (e.value("severity", "error") == severity) out.insert(e["message"].get<std::string>());
  return out;
}

bool has_error(const json& doc, const std::string& needle, int64_t line = -1, const std::string& severity = "error") {
  for (const auto& e : doc["errors"]) {
    if (e.value("severity", "error") != severity) continue;
    if (e["message"].get<std::string>().find(needle) == std::string::npos) continue;
    if (line >= 0 && !(e["line"].is_number() && e["line"].get<int64_t>() == line)) continue;
    return true;
  }
  return false;
}

// The stacks of a report as "a;b;c" -> weight.
std::map<std::string, double> folded_of(const json& report) {
  std::map<std::string, double> out;
  const json& s = report["stacks"];
  for (size_t i = 0; i < s["stacks"].size(); ++i) {
    std::string line;
    for (size_t k = 0; k < s["stacks"][i].size(); ++k) {
      if (k) line.push_back(';');
      line += s["frames"][s["stacks"][i][k].get<size_t>()].get<std::string>();
    }
    out[line] += s["weights"][i].get<double>();
  }
  return out;
}

}  // namespace

TEST_CASE("tracing: bpftrace text and JSON outputs parse to the manifest's maps", "[tracing][corpus]") {
  size_t checked = 0;
  for (const auto& f : manifest()["files"]) {
    const std::string rel = f["path"];
    const std::string fmt = f["format"];
    bool text = fmt.rfind("bpftrace.text", 0) == 0 || fmt == "bpftrace.tools-example";
    bool js = fmt.rfind("bpftrace.json", 0) == 0;
    if (!(text || js) || rel.rfind("malformed/", 0) == 0) continue;
    if (rel.rfind("ruby-static-tracing/integration_", 0) == 0) continue;  // printf-only, checked below
    INFO(rel);
    const json& want = f["expect"];
    json doc = analyze(rel);
    const json& r = only_report(doc);
    CHECK(r["format"] == (text ? "bpftrace-text" : "bpftrace-json"));
    CHECK(error_messages(doc).empty());  // (a tools example without maps gets a warning)
    if (want.contains("attached_probes")) CHECK(r["attached_probes"] == want["attached_probes"]);
    bool tseries_text = rel.find("tseries") != std::string::npos && text;
    if (tseries_text) {
      // The reference parser does not read tseries charts (its note: "the analyzer should"): it
      // reports an empty hist and counts the chart rows as printf. We parse the chart; the values
      // must equal the JSON twin's (checked in the tseries test below).
      CHECK(r["maps"][0]["kind"] == "tseries");
      CHECK(r["printf_count"] == 0);
      ++checked;
      continue;
    }
    if (want.contains("maps")) check_maps(r, want["maps"], rel);
    if (want.contains("printf_count")) CHECK(r["printf_count"] == want["printf_count"]);
    if (want.contains("printf_first")) CHECK(r["printf_first"] == want["printf_first"]);
    if (want.contains("printf_last")) CHECK(r["printf_last"] == want["printf_last"]);
    // tools examples: prose, shell prompts and non-map tool output are printf-like lines
    if (want.contains("non_map_lines")) CHECK(r["printf_count"] == want["non_map_lines"]);
    if (want.contains("other_events")) CHECK(r["other_events"] == want["other_events"]);
    ++checked;
  }
  CHECK(checked == 73);
}

TEST_CASE("tracing: text and JSON twins of the same bpftrace program agree", "[tracing][corpus]") {
  // 19 deterministic programs run twice (text, -f json) by the corpus collector.
  size_t pairs = 0;
  for (const auto& f : manifest()["files"]) {
    std::string rel = f["path"];
    if (rel.rfind("bpftrace-0.17-det/", 0) != 0 || rel.size() < 4 || rel.substr(rel.size() - 4) != ".txt") continue;
    std::string twin = rel.substr(0, rel.size() - 4) + ".ndjson";
    INFO(rel);
    const json t = only_report(analyze(rel)), j = only_report(analyze(twin));
    // ties, tuple-key separators, print(value) and strings with newlines differ by nature
    // (manifest notes); everything else must match.
    static const std::set<std::string> differ = {"det_multiline_key", "det_map_tuple_keys", "det_print_value",
                                                 "det_printf",        "det_scalar",         "det_tuple_value"};
    std::string stem = rel.substr(18, rel.size() - 22);
    if (differ.count(stem)) continue;
    json tm = t["maps"], jm = j["maps"], th = t["histograms"], jh = j["histograms"];
    for (json* m : {&tm, &jm, &th, &jh})
      for (auto& x : *m) x.erase("line");
    CHECK(th == jh);
    CHECK(tm == jm);
    ++pairs;
  }
  CHECK(pairs >= 12);
}

TEST_CASE("tracing: integers above 2^53 stay exact (written as strings)", "[tracing][corpus]") {
  for (const char* rel : {"bpftrace-0.17-det/det_bigints.txt", "bpftrace-0.17-det/det_bigints.ndjson",
                          "malformed/bt_json_bigint_precision.ndjson"}) {
    INFO(rel);
    const json r = only_report(analyze(rel));
    // must_report of malformed/bt_json_bigint_precision.ndjson
    CHECK(r["maps"][0]["entries"][0]["value"] == "9007199254740993");
    CHECK(r["maps"][1]["entries"][0]["value"] == "18446744073709551615");
  }
}

TEST_CASE("tracing: hist bucket bounds above 2^32 and hist(n, k) sub-buckets", "[tracing][corpus]") {
  const json r = only_report(analyze("bpftrace-upstream/runtime-head/hist_2args.json"));
  const json& want = expect_of("bpftrace-upstream/runtime-head/hist_2args.json")["maps"][0]["entries"][0]["value"];
  const json& h = r["histograms"][0];
  CHECK(h["total"] == 1024);
  CHECK(h["buckets"].size() == want["buckets"].size());
  CHECK(bucket_bounds(h["p50"]) == bucket_bounds(want["p50_bucket"]));
}

TEST_CASE("tracing: tseries charts (>= 0.24) read like their JSON twins", "[tracing][corpus]") {
  for (auto [txt, js] : {std::pair<const char*, const char*>{"bpftrace-upstream/runtime-head/tseries.txt",
                                                             "bpftrace-upstream/runtime-head/tseries.json"},
                         {"bpftrace-upstream/runtime-head/tseries_multiple.txt",
                          "bpftrace-upstream/runtime-head/tseries_multiple.json"}}) {
    INFO(txt);
    const json t = only_report(analyze(txt));
    const json j = only_report(analyze(js));
    const json& want = expect_of(js)["maps"][0];
    std::vector<json> text_entries;
    for (const auto& m : t["maps"])
      for (const auto& e : m["entries"]) text_entries.push_back(e);
    REQUIRE(text_entries.size() == want["n_entries"].get<size_t>());
    for (size_t i = 0; i < text_entries.size(); ++i) {
      const json& we = want["entries"][i];
      const json& tv = text_entries[i]["value"];
      CHECK(text_entries[i]["key"] == we["key"]);
      // the chart prints a row per interval, "-" where there is no point
      std::vector<double> present;
      for (const auto& v : tv["value"])
        if (!v.is_null()) present.push_back(v.get<double>());
      CHECK(present.size() == we["value"]["points"].get<size_t>());
      CHECK(present.front() == we["value"]["first"]["value"].get<double>());
      CHECK(*std::min_element(present.begin(), present.end()) == we["value"]["min"].get<double>());
      CHECK(*std::max_element(present.begin(), present.end()) == we["value"]["max"].get<double>());
      // JSON twin: same points
      const json& jv = j["maps"][0]["entries"][i]["value"];
      CHECK(jv["value"].size() == we["value"]["points"].get<size_t>());
      CHECK(jv["interval_start"][0] == we["value"]["first"]["interval_start"]);
    }
  }
}

TEST_CASE("tracing: ruby-static-tracing outputs: printf lines, stack strings, probe names", "[tracing][corpus]") {
  {
    const json r = only_report(analyze("ruby-static-tracing/integration_hello.out"));
    CHECK(r["printf_count"] == 1);
    CHECK(r["printf_first"] == expect_of("ruby-static-tracing/integration_hello.out")["printf"][0]);
  }
  {
    // Stack tracer fires caller.join("\n"): three frames, the last cut at BPFTRACE_STRLEN=100
    const json r = only_report(analyze("ruby-static-tracing/integration_stacktrace.out"));
    const json& want = expect_of("ruby-static-tracing/integration_stacktrace.out")["printf"];
    CHECK(r["printf_count"] == want.size());
    CHECK(r["printf_last"] == want.back());
    CHECK(r["stacks"]["unique"] == 1);
    CHECK(r["stacks"]["truncated"] == 1);
    auto folded = folded_of(r);
    // root first: the leaf-first caller lines reversed
    CHECK(folded.begin()->first == std::string(want[2]) + ";" + std::string(want[1]) + ";" + std::string(want[0]));
    bool strlen_hint = false;
    for (const auto& h : r["hints"]) strlen_hint |= h["id"] == "strlen";
    CHECK(strlen_hint);
  }
  {
    const json r = only_report(analyze("ruby-static-tracing/seed_doc_example.txt"));
    check_maps(r, expect_of("ruby-static-tracing/seed_doc_example.txt")["maps"], "seed");
    REQUIRE(r["probes"].size() == 3);
    CHECK(r["probes"][1] == json{{"raw", "usdt:my_controller:index"},
                                 {"provider", "my_controller"},
                                 {"name", "index"},
                                 {"class_guess", "MyController"}});
  }
  {
    // real 0.17 probe names carry /proc/<pid>/root/tmp/<provider>-XXXXXX.so: normalised
    const json r = only_report(analyze("malformed/bt_text_crlf.txt"));
    REQUIRE(r["probes"].size() == 5);
    CHECK(r["probes"][3]["raw"] == "usdt:/proc/24205/root/tmp/my_controller-jNudzY.so:my_controller:index");
    CHECK(r["probes"][3]["provider"] == "my_controller");
    CHECK(r["probes"][3]["name"] == "index");
  }
}

TEST_CASE("tracing: malformed inputs are reported as the corpus specifies", "[tracing][corpus]") {
  SECTION("truncated hist: partial result kept, cut row reported at its line") {
    json doc = analyze("malformed/bt_text_truncated_hist.txt");
    const json& want = expect_of("malformed/bt_text_truncated_hist.txt");
    CHECK(has_error(doc, "truncated final line", want["line"]));
    const json& r = only_report(doc);
    CHECK(r["maps"][0]["entries"][0]["key"] == "create");
    CHECK(r["maps"][0]["entries"][0]["value"]["total"] == 208);
    CHECK(r["maps"][0]["entries"][1]["key"] == "show");
    CHECK(r["maps"][0]["entries"][1]["value"]["total"] == 135);  // 4 + 118 + 13 + 0... up to [256K, 512K)
    const json& show = r["histograms"][1];
    CHECK(show["buckets"].back()["lo"] == 262144);  // [256K, 512K): the last complete row
  }
  SECTION("bar length disagrees with count: the count wins, with a warning") {
    json doc = analyze("malformed/bt_text_bar_count_mismatch.txt");
    const json& r = only_report(doc);
    const json& index = r["histograms"][2];
    CHECK(index["key"] == "index");
    CHECK(index["buckets"][1]["lo"] == 1048576);
    CHECK(index["buckets"][1]["count"] == 9450);
    CHECK(has_error(doc, "bar length disagrees with count", -1, "warning"));
    CHECK(error_messages(doc).empty());
  }
  SECTION("invalid bucket labels: 3 errors with line numbers, everything else parsed") {
    json doc = analyze("malformed/bt_text_bad_bucket_label.txt");
    std::vector<int64_t> lines;
    for (const auto& e : doc["errors"])
      if (e["message"].get<std::string>().find("invalid bucket label '4X'") != std::string::npos)
        lines.push_back(e["line"]);
    CHECK(lines.size() == expect_of("malformed/bt_text_bad_bucket_label.txt")["occurrences"].get<size_t>());
    CHECK(lines == std::vector<int64_t>{10, 34, 39});  // hand count: the three "[4X, 8X)" rows
    const json& r = only_report(doc);
    CHECK(r["maps"][0]["entries"].size() == 5);
    CHECK(r["maps"][0]["entries"][1]["value"]["total"] == 4 + 13 + 132 + 322 + 343 + 15 + 2);
  }
  SECTION("CRLF: identical to LF") {
    json crlf = only_report(analyze("malformed/bt_text_crlf.txt"));
    const json& want = expect_of("malformed/bt_text_crlf.txt");
    CHECK(crlf["attached_probes"] == 5);
    REQUIRE(crlf["maps"].size() == 1);
    REQUIRE(crlf["maps"][0]["entries"].size() == want["entries"].size());
    for (size_t i = 0; i < want["entries"].size(); ++i) {
      CHECK(crlf["maps"][0]["entries"][i]["key"] == want["entries"][i]["key"]);
      CHECK(crlf["maps"][0]["entries"][i]["value"] == want["entries"][i]["value"]);
    }
    std::string lf = gcscope::test::read_file(corpus("trace/malformed/bt_text_crlf.txt"));
    lf.erase(std::remove(lf.begin(), lf.end(), '\r'), lf.end());
    json lfdoc = gcscope::test::analyze_bytes({{"lf.txt", lf}});
    CHECK(lfdoc["reports"][0]["maps"] == crlf["maps"]);
  }
  SECTION("stderr lines mixed in are diagnostics, not printf output") {
    json doc = analyze("malformed/bt_text_with_stderr_mixed.txt");
    const json& r = only_report(doc);
    check_maps(r, expect_of("malformed/bt_text_with_stderr_mixed.txt")["maps"], "stderr_mixed");
    CHECK(r["attached_probes"] == 5);
    CHECK(r["stderr_lines"] == 11);
    CHECK(r["printf_count"] == 0);
  }
  SECTION("orphan buckets: an anonymous, flagged histogram") {
    json doc = analyze("malformed/bt_text_orphan_buckets.txt");
    CHECK(has_error(doc, "histogram buckets without a '@name:' header", 1, "warning"));
    const json& r = only_report(doc);
    CHECK(r["histograms"][0]["total"] == 208);
    CHECK(r["histograms"][0]["headerless"] == true);
  }
  SECTION("truncated JSON: error at the line, what came before kept, no map invented") {
    json doc = analyze("malformed/bt_json_truncated.ndjson");
    CHECK(has_error(doc, "invalid JSON", expect_of("malformed/bt_json_truncated.ndjson")["line"]));
    const json& r = only_report(doc);
    CHECK(r["attached_probes"] == 5);
    CHECK(r["maps"].empty());
  }
  SECTION("non-monotonic JSON buckets: error, no percentiles over overlapping buckets") {
    json doc = analyze("malformed/bt_json_nonmonotonic_buckets.ndjson");
    CHECK(has_error(doc, "histogram buckets not increasing / overlapping", 2));
    const json& h = only_report(doc)["histograms"][0];
    CHECK(h["valid"] == false);
    CHECK(h["p50"].is_null());
    CHECK(h["p99"].is_null());
  }
  SECTION("wrong JSON shapes: one error per line") {
    json doc = analyze("malformed/bt_json_wrong_shape.ndjson");
    for (const auto& e : expect_of("malformed/bt_json_wrong_shape.ndjson")["errors"]) {
      INFO(e.dump());
      CHECK(has_error(doc, e["error"].get<std::string>(), e["line"].get<int64_t>()));
    }
  }
  SECTION("invalid UTF-8 in printf data: replaced, with a warning") {
    json doc = analyze("malformed/bt_json_invalid_utf8.ndjson");
    CHECK(has_error(doc, "invalid UTF-8 in printf data", 2, "warning"));
    const json& r = only_report(doc);
    CHECK(r["events"] == 2);  // two printf records; attached_probes is counted in event_types
    CHECK(r["printf_first"] == "bin \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD data\n");  // FF FE 80 -> 3 x U+FFFD
  }
  SECTION("empty input") {
    json doc = analyze("malformed/empty.txt");
    CHECK(doc["reports"].empty());
    CHECK(has_error(doc, "empty input"));
  }
  SECTION("folded stacks with bad lines") {
    json doc = analyze("malformed/folded_bad_lines.txt");
    for (const auto& e : expect_of("malformed/folded_bad_lines.txt")["errors"]) {
      INFO(e.dump());
      CHECK(has_error(doc, e["error"].get<std::string>(), e["line"].get<int64_t>()));
    }
    auto folded = folded_of(only_report(doc));
    CHECK(folded.size() == 1);
    CHECK(folded["ruby;main;foo"] == 15);
  }
  SECTION("BCC log2 histogram: identified as BCC; forced as bpftrace it says so") {
    json doc = analyze("malformed/wrong_format_bcc_log2_as_bpftrace.txt");
    const json& r = only_report(doc);
    CHECK(r["format"] == "bcc-output");
    CHECK(r["log2_histograms"][0]["total"] == 4198);
    CHECK(r["log2_histograms"][0]["count_line"] == 4198);
    json forced = analyze("malformed/wrong_format_bcc_log2_as_bpftrace.txt", {{"format", "bpftrace-text"}});
    // the precise complaint: line 3 is BCC's "nsecs : count distribution" header
    CHECK(has_error(forced, "no bpftrace maps found: this line looks like a BCC log2 histogram header", 3));
  }
  SECTION("gzip'd perf script is read like the plain file") {
    json gz = only_report(analyze("malformed/perf_script_ruby.txt.gz"));
    json plain = only_report(analyze("stacks/live/perf_script_ruby.txt"));
    CHECK(gz["stacks"] == plain["stacks"]);
  }
}

TEST_CASE("tracing: folded stack files", "[tracing][corpus]") {
  size_t checked = 0;
  for (const auto& f : manifest()["files"]) {
    if (f["format"] != "folded" || std::string(f["path"]).rfind("malformed/", 0) == 0) continue;
    const std::string rel = f["path"];
    INFO(rel);
    const json& want = f["expect"];
    json doc = analyze(rel);
    CHECK(doc["errors"].empty());
    const json& r = only_report(doc);
    CHECK(r["format"] == "folded-stacks");
    CHECK(r["stacks"]["unique"] == want["unique_stacks"]);
    CHECK(r["stacks"]["total_weight"] == want["total"]);
    CHECK(r["folded_lines"] == want["raw_lines"]);
    auto folded = folded_of(r);
    for (const auto& t : want["top"]) CHECK(folded[t[0].get<std::string>()] == t[1].get<double>());
    ++checked;
  }
  CHECK(checked == 10);
  // perf periods (10101010 per 99 Hz sample) are recognised as such
  const json r = only_report(analyze("stacks/live/perf_script_ruby.folded.txt"));
  CHECK(r["stacks"]["weight_unit"] == "period");
  CHECK(r["samples_estimate"] == expect_of("stacks/live/perf_script_ruby.txt")["samples"]);
}

TEST_CASE("tracing: perf script folds like FlameGraph's stackcollapse-perf.pl", "[tracing][corpus]") {
  // The corpus has stackcollapse-perf.pl's own outputs for these inputs, with --pid ("comm-?") and
  // --all (_[k]/_[j] annotations). Our default fold is the plain one: strip those decorations.
  auto strip = [](std::string s, bool all) {
    size_t semi = s.find(';');
    std::string root = s.substr(0, semi);
    if (root.size() > 2 && root.substr(root.size() - 2) == "-?") root.resize(root.size() - 2);
    s = root + s.substr(semi);
    if (all)
      for (const char* a : {"_[k]", "_[j]"})
        for (size_t p; (p = s.find(a)) != std::string::npos;) s.erase(p, 4);
    return s;
  };
  struct Case {
    const char* input;
    const char* folded;
    bool all;
  };
  for (const Case& c : {Case{"stacks/flamegraph-tests/perf-dd-stacks-01.txt",
                             "stacks/flamegraph-tests/perf-dd-stacks-01-collapsed-pid.txt", false},
                        Case{"stacks/flamegraph-tests/perf-funcab-cmd-01.txt",
                             "stacks/flamegraph-tests/perf-funcab-cmd-01-collapsed-pid.txt", false},
                        Case{"stacks/flamegraph-tests/perf-js-stacks-01.txt",
                             "stacks/flamegraph-tests/perf-js-stacks-01-collapsed-pid.txt", false},
                        // with --pid the comm is "java-?", so the script's Java tidy (comm == "java")
                        // does not run; --all output has it, minus the annotations
                        Case{"stacks/flamegraph-tests/perf-java-stacks-02.txt",
                             "stacks/flamegraph-tests/perf-java-stacks-02-collapsed-all.txt", true},
                        Case{"stacks/live/perf_script_ruby.txt", "stacks/live/perf_script_ruby.folded.txt", false}}) {
    INFO(c.input);
    json doc = analyze(c.input);
    CHECK(doc["errors"].empty());
    const json& r = only_report(doc);
    CHECK(r["format"] == "perf-script");
    auto got = folded_of(r);
    std::map<std::string, double> want;
    for (const auto& [k, v] : folded_of(only_report(analyze(c.folded)))) want[strip(k, c.all)] += v;
    // perf-dd-stacks-01.txt ends without a blank line after its last sample; stackcollapse-perf.pl
    // saves a sample only at a blank line and so drops it. It is a real sample: we keep it.
    if (std::string(c.input).find("perf-dd") != std::string::npos) want["dd;[unknown];system_call"] += 10101010;
    CHECK(got == want);
  }
  CHECK(only_report(analyze("stacks/live/perf_script_ruby.txt"))["samples"] ==
        expect_of("stacks/live/perf_script_ruby.txt")["samples"]);
}

TEST_CASE("tracing: DTrace outputs", "[tracing][corpus]") {
  {
    const json r = only_report(analyze("dtrace/rb_calldist_example.txt"));
    CHECK(r["tool"] == "dtrace");
    const json& want = expect_of("dtrace/rb_calldist_example.txt");
    REQUIRE(r["histograms"].size() == want["n_histograms"].get<size_t>());
    for (size_t i = 0; i < want["histograms"].size(); ++i) {
      const json& w = want["histograms"][i];
      const json& h = r["histograms"][i];
      INFO(w["key"]);
      CHECK(h["key"] == w["key"]);
      CHECK(h["total"] == w["total"]);
      REQUIRE(h["buckets"].size() == w["rows"].size());
      for (size_t k = 0; k < w["rows"].size(); ++k) {
        CHECK(h["buckets"][k]["lo"] == w["rows"][k][0]);  // quantize "value" = the bucket's lower bound
        CHECK(h["buckets"][k]["count"] == w["rows"][k][1]);
      }
    }
    CHECK(r["histograms"][0]["buckets"][1]["hi"] == 3);  // value 2 -> [2, 4)
  }
  {
    // rb_calls.d: a count aggregation printed as columns (FILE TYPE NAME CALLS), 12 rows by hand count
    const json r = only_report(analyze("dtrace/rb_calls_example.txt"));
    REQUIRE(r["maps"].size() == 1);
    CHECK(r["maps"][0]["name"] == "@CALLS");
    REQUIRE(r["maps"][0]["entries"].size() == 12);
    CHECK(r["maps"][0]["entries"][0]["key"] == "., obj-new, NoMemoryError");
    CHECK(r["maps"][0]["entries"][11]["key"] == "func_abc.rb, method, Object::sleep");
    CHECK(r["maps"][0]["entries"][11]["value"] == 3);
  }
  {
    json doc = analyze("dtrace/example-dtrace-stacks.head.txt");
    const json& r = only_report(doc);
    CHECK(r["format"] == "folded-stacks");
    CHECK(r["tool"] == "dtrace");
    auto want = folded_of(only_report(analyze("dtrace/example-dtrace-stacks.head.folded.txt")));
    CHECK(folded_of(r) == want);
  }
}

TEST_CASE("tracing: BCC Ruby tools", "[tracing][corpus]") {
  SECTION("ucalls: tables, merged rows, latency") {
    const json r = only_report(analyze("bcc-upstream/ucalls_example.txt"));
    const json& want = expect_of("bcc-upstream/ucalls_example.txt");
    REQUIRE(r["tables"].size() == want["tables"].get<size_t>());
    for (size_t t = 0; t < 3; ++t) {
      const json& wt = want["per_table"][t];
      const json& gt = r["tables"][t];
      INFO("table " << t);
      // The reference parser also took the shell prompt "# ucalls -l none -ST 10 7913" after the
      // first table's "^C" as a row (rows 5); the table ends at "^C": 4 rows.
      size_t want_rows = t == 0 ? 4 : wt["rows"].get<size_t>();
      CHECK(gt["row_count"] == want_rows);
      CHECK(gt["distinct"] == (t == 0 ? 4 : wt["distinct_methods"].get<size_t>()));
      std::map<std::string, json> rows;
      for (const auto& row : gt["rows"]) rows[row["method"]] = row;
      for (const auto& top : wt["merged_top_by_calls"]) {
        std::string m = top[0];
        if (m[0] == '#') continue;
        INFO(m);
        REQUIRE(rows.count(m));
        CHECK(rows[m]["calls"] == top[1]);
        if (!top[2].is_null()) CHECK(rows[m]["time"].get<double>() == Approx(top[2].get<double>()));
      }
    }
    // latency table: slowy/App.isPrime 8969 calls, 4841017.64 us total
    bool found = false;
    for (const auto& row : r["latency"])
      if (row["probe"] == "slowy/App.isPrime") {
        found = true;
        CHECK(row["calls"] == 8969);
        CHECK(row["total"] == 4841017640ULL);
      }
    CHECK(found);
  }
  SECTION("uflow: events, depth, first event") {
    const json r = only_report(analyze("bcc-upstream/uflow_example.txt"));
    const json& want = expect_of("bcc-upstream/uflow_example.txt");
    CHECK(r["uflow"]["events"] == want["events"]);
    CHECK(r["uflow"]["first"]["cpu"] == want["first"]["cpu"]);
    CHECK(r["uflow"]["first"]["tid"] == want["first"]["tid"]);
    CHECK(r["uflow"]["first"]["time_s"] == want["first"]["time_s"]);
    CHECK(r["uflow"]["first"]["depth"] == want["first"]["depth"]);
    CHECK(r["uflow"]["first"]["dir"] == want["first"]["dir"]);
    CHECK(r["uflow"]["first"]["method"] == want["first"]["method"]);
    // call-count flame graph: hand count of "->" lines in the example = 25
    CHECK(r["stacks"]["total_weight"] == 25);
  }
  SECTION("ugc, uobjnew, ustat tables") {
    const json ugc = only_report(analyze("bcc-upstream/ugc_example.txt"));
    std::vector<size_t> rows;
    for (const auto& t : ugc["tables"]) rows.push_back(t["row_count"]);
    CHECK(rows == expect_of("bcc-upstream/ugc_example.txt")["tables"].get<std::vector<size_t>>());
    const json obj = only_report(analyze("bcc-upstream/uobjnew_example.txt"));
    const json& wobj = expect_of("bcc-upstream/uobjnew_example.txt")["tables"];
    REQUIRE(obj["tables"].size() == wobj.size());
    for (size_t t = 0; t < wobj.size(); ++t) {
      REQUIRE(obj["tables"][t]["rows"].size() == wobj[t].size());
      for (size_t i = 0; i < wobj[t].size(); ++i) {
        CHECK(obj["tables"][t]["rows"][i]["name"] == wobj[t][i]["name"]);
        CHECK(obj["tables"][t]["rows"][i]["allocs"] == wobj[t][i]["allocs"]);
        CHECK(obj["tables"][t]["rows"][i]["bytes"] == wobj[t][i]["bytes"]);
      }
    }
    const json st = only_report(analyze("bcc-upstream/ustat_example.txt"));
    const json& wst = expect_of("bcc-upstream/ustat_example.txt");
    rows.clear();
    for (const auto& t : st["tables"]) rows.push_back(t["row_count"]);
    CHECK(rows == wst["tables"].get<std::vector<size_t>>());
    json first = st["tables"][0]["rows"][0];
    first.erase("line");
    CHECK(first == wst["first"][0]);
  }
  SECTION("funclatency log2 histograms (hi inclusive) and their count lines") {
    const json r = only_report(analyze("bcc-upstream/funclatency_example.txt"));
    const json& want = expect_of("bcc-upstream/funclatency_example.txt")["histograms"];
    REQUIRE(r["log2_histograms"].size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      INFO(i);
      CHECK(r["log2_histograms"][i]["unit"] == want[i]["unit"]);
      if (i >= 6 && i <= 9) {
        // funclatency -mTi prints the largest row's bar as "****+" (cut at the width); the reference
        // parser skipped those rows (its totals 21, 31, 38, 2). The tool's own "count: N" line after
        // each of these histograms confirms the full totals.
        CHECK(r["log2_histograms"][i]["total"] == want[i]["count_line"]);
      } else {
        CHECK(r["log2_histograms"][i]["total"] == want[i]["total"]);
      }
      CHECK(r["log2_histograms"][i]["count_line"] == want[i]["count_line"]);
    }
    const json& h0 = r["histograms"][0];  // do_sys_open: 2048 -> 4095 : 124
    CHECK(h0["buckets"][11]["lo"] == 2048);
    CHECK(h0["buckets"][11]["hi"] == 4095);
    CHECK(h0["buckets"][11]["count"] == 124);
    CHECK(bucket_bounds(h0["p50"]) == bucket_bounds(json::array({4096, 8191})));  // 124 < 238 <= 415
  }
  SECTION("profile: folded lines merged, multi-line stacks") {
    const json r = only_report(analyze("bcc-upstream/profile_example.txt"));
    CHECK(r["folded_lines"] == expect_of("bcc-upstream/profile_example.txt")["folded_lines"]);
    auto folded = folded_of(r);
    // profile -f repeats identical stacks (hand count from the example: 2 + 11 + 23 + 64 for func_a)
    CHECK(folded["func_ab;[unknown];__libc_start_main;main;func_a"] >= 100);
    // the first multi-line stack: frames leaf first, then "- cp (9036)", then 1
    CHECK(folded["cp;[unknown];page_fault;do_page_fault;__do_page_fault;handle_mm_fault;filemap_map_pages"] == 1);
  }
  SECTION("stackcount: stacks without a process line") {
    const json r = only_report(analyze("bcc-upstream/stackcount_example.txt"));
    auto folded = folded_of(r);
    CHECK(folded["mb_cache_list;ret_from_fork;kthread;kjournald2;jbd2_journal_commit_transaction;"
                 "journal_submit_commit_record.isra.13;submit_bh;submit_bio"] >= 1);
    CHECK(r["stacks"]["unique"].get<size_t>() > 10);
  }
}

TEST_CASE("tracing: results do not depend on how the input is cut into chunks", "[tracing][corpus]") {
  for (const char* rel :
       {"bpftrace-0.17-det/det_hist_keyed.txt", "bpftrace-0.17-det/det_multiline_key.txt",
        "bpftrace-upstream/runtime-0.17/hist_multiple.json", "bpftrace-0.17-det/det_printf.ndjson",
        "malformed/bt_json_invalid_utf8.ndjson", "stacks/live/perf_script_ruby.txt", "bcc-upstream/uflow_example.txt",
        "dtrace/example-dtrace-stacks.head.txt", "malformed/bt_text_truncated_hist.txt"}) {
    INFO(rel);
    const json whole = analyze_paths({corpus(std::string("trace/") + rel)}, json::object(), 1 << 20);
    for (size_t chunk : {1, 3, 7, 64}) {
      INFO(chunk);
      const json cut = analyze_paths({corpus(std::string("trace/") + rel)}, json::object(), chunk);
      CHECK(cut["reports"] == whole["reports"]);
      CHECK(cut["errors"] == whole["errors"]);
    }
  }
}
