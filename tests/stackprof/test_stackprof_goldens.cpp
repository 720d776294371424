// stackprof's own reports, compared with the real stackprof 0.2.21 CLI's output kept next to every
// corpus profile (../shared/corpus/prof/<name>/golden/). stackprof sorts with Ruby's unstable
// sort_by, so rows with equal counts may come in any order: comparisons sort each run of rows
// that share their sort key before comparing (manifest.json → conventions.text_tie_order).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "stackprof/profile.h"
#include "stackprof/reports.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::stackprof;
using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()

namespace {

// Loads a dump the way the CLI does, fed in odd-sized chunks to exercise the streaming reader.
Profile load(const std::string& path, size_t chunk = 4093, std::vector<Problem>* problems_out = nullptr) {
  std::string bytes = read_file(path);
  DumpLoader loader;
  for (size_t off = 0; off < bytes.size(); off += chunk)
    loader.feed(bytes.data() + off, std::min(chunk, bytes.size() - off));
  Profile p;
  std::vector<Problem> problems;
  bool ok = loader.finish(p, problems);
  for (const auto& pr : problems) UNSCOPED_INFO((pr.error ? "error: " : "warning: ") << pr.message);
  REQUIRE(ok);
  if (problems_out) *problems_out = problems;
  return p;
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t nl = s.find('\n', pos);
    if (nl == std::string::npos) nl = s.size() - 1;
    out.push_back(s.substr(pos, nl - pos + 1));
    pos = nl + 1;
  }
  return out;
}

// Sorts every maximal run of consecutive lines with the same non-empty key.
std::string canonical(const std::string& text, const std::function<std::string(const std::string&)>& key) {
  std::vector<std::string> lines = split_lines(text);
  size_t i = 0;
  while (i < lines.size()) {
    std::string k = key(lines[i]);
    size_t j = i + 1;
    if (!k.empty())
      while (j < lines.size() && key(lines[j]) == k) ++j;
    std::sort(lines.begin() + static_cast<long>(i), lines.begin() + static_cast<long>(j));
    i = j;
  }
  std::string out;
  for (const auto& l : lines) out += l;
  return out;
}

// Text rows: "     TOTAL (pct)     SAMPLES (pct)     FRAME"; the key is the sorted column.
std::function<std::string(const std::string&)> text_key(bool by_total) {
  return [by_total](const std::string& l) -> std::string {
    if (l.size() < 40 || l[0] != ' ' || l.find("(pct)") != std::string::npos || l.find("Mode:") != std::string::npos)
      return "";
    return by_total ? l.substr(0, 10) : l.substr(20, 10);
  };
}

std::string files_key(const std::string& l) {
  size_t slash = l.find(" / ");
  return slash == std::string::npos ? "" : l.substr(slash, 8);
}

std::string graphviz_key(const std::string& l) {
  if (l.find(" -> ") != std::string::npos) return "edge";
  size_t s = l.find("[size=");
  return s == std::string::npos ? "" : l.substr(s, l.find(']', s) - s);
}

// Callers/callees rows of --method: "   <weight>  (pct)  name".
std::string method_key(const std::string& l) {
  if (l.rfind("   ", 0) != 0 || l.find("  (") == std::string::npos || l.find('|') != std::string::npos) return "";
  return l.substr(0, l.find("  ("));
}

// Callgrind: the frame blocks (separated by blank lines) as a sorted multiset plus header/trailer.
std::string callgrind_canonical(const std::string& text) {
  std::vector<std::string> blocks;
  std::string cur;
  for (const auto& l : split_lines(text)) {
    cur += l;
    if (l == "\n" || l.rfind("summary:", 0) == 0) {
      blocks.push_back(cur);
      cur.clear();
    }
  }
  if (blocks.size() > 2) std::sort(blocks.begin() + 1, blocks.end());
  std::string out;
  for (const auto& b : blocks) out += b;
  return out + cur;
}

// The --method goldens print source lines the CLI read from /srv/app/... at generation time. The
// code text of every printed line is in the golden itself: rebuild those files (unprinted lines
// empty) so our report reads the same lines, and every count/percentage is still ours.
std::map<std::string, std::vector<std::string>> sources_from_golden(const std::string& golden) {
  std::map<std::string, std::map<long, std::string>> partial;
  std::string file;
  bool in_code = false;
  for (const auto& l : split_lines(golden)) {
    if (!l.empty() && l[0] != ' ') {  // "name (file:line)"
      size_t open = l.rfind(" (");
      size_t colon = l.rfind(':');
      file = (open != std::string::npos && colon != std::string::npos && colon > open)
                 ? l.substr(open + 2, colon - open - 2)
                 : "";
      in_code = false;
      continue;
    }
    if (l == "  code:\n") {
      in_code = true;
      continue;
    }
    if (!in_code) continue;
    size_t bar = l.find('|');
    if (bar == std::string::npos) continue;  // SOURCE UNAVAILABLE
    size_t bar2 = l.find("  | ", bar + 1);
    long lineno = std::stol(l.substr(bar + 1, bar2 - bar - 1));
    partial[file][lineno] = l.substr(bar2 + 4);
  }
  std::map<std::string, std::vector<std::string>> out;
  for (auto& [f, lines] : partial) {
    long last = lines.rbegin()->first;
    std::vector<std::string> v(static_cast<size_t>(last), "\n");
    for (auto& [n, code] : lines) v[static_cast<size_t>(n - 1)] = code;
    out[f] = v;
  }
  return out;
}

// The --file goldens print every line of the matching file (workloads.rb, read from /srv/app/...
// at generation time): its code is the part after "|  N  | ".
std::vector<std::string> file_from_golden(const std::string& golden) {
  std::vector<std::string> v;
  for (const auto& l : split_lines(golden)) {
    size_t bar = l.find('|');
    size_t bar2 = bar == std::string::npos ? bar : l.find("  | ", bar + 1);
    if (bar2 != std::string::npos) v.push_back(l.substr(bar2 + 4));
  }
  return v;
}

struct Golden {
  std::string name;
  std::vector<std::string> args;
};

std::string run_report(const Profile& p, const std::vector<std::string>& args, const SourceProvider& sources) {
  std::string s;
  Out out(&s);
  std::string err;
  const std::string& a0 = args.at(0);
  long limit = 30;
  bool sort_total = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--limit") limit = std::stol(args[i + 1]);
    if (args[i] == "--sort-total") sort_total = true;
  }
  if (a0 == "--text") print_text(p, out, sort_total, limit);
  else if (a0 == "--files") print_files(p, out, limit);
  else if (a0 == "--graphviz") print_graphviz(p, out, 120, 0.005);
  else if (a0 == "--callgrind") print_callgrind(p, out);
  else if (a0 == "--stackcollapse") REQUIRE(print_stackcollapse(p, out, err));
  else if (a0 == "--method") REQUIRE(print_method(p, out, args.at(1), sources, err));
  else if (a0 == "--flamegraph") REQUIRE(print_flamegraph(p, out, false, err));
  else if (a0 == "--alphabetical-flamegraph") REQUIRE(print_flamegraph(p, out, true, err));
  else if (a0 == "--file") print_file(p, out, args.at(1), sources);
  else FAIL("unhandled golden " << a0);
  return s;
}

void compare(const std::string& report, const std::vector<std::string>& args, const std::string& ours,
             const std::string& golden) {
  INFO("report " << report);
  const std::string& a0 = args.at(0);
  if (a0 == "--text") {
    bool by_total = std::find(args.begin(), args.end(), "--sort-total") != args.end();
    CHECK(canonical(ours, text_key(by_total)) == canonical(golden, text_key(by_total)));
  } else if (a0 == "--files") {
    CHECK(canonical(ours, files_key) == canonical(golden, files_key));
  } else if (a0 == "--graphviz") {
    CHECK(canonical(ours, graphviz_key) == canonical(golden, graphviz_key));
  } else if (a0 == "--callgrind") {
    CHECK(callgrind_canonical(ours) == callgrind_canonical(golden));
  } else if (a0 == "--method") {
    CHECK(canonical(ours, method_key) == canonical(golden, method_key));
  } else {
    CHECK(ours == golden);
  }
}

// Every SHA-256 hex key replaced by "#".
std::string mask_sha(const std::string& s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = i;
    while (j < s.size() && j - i < 64 && ((s[j] >= '0' && s[j] <= '9') || (s[j] >= 'a' && s[j] <= 'f'))) ++j;
    if (j - i == 64) {
      out.push_back('#');
      i = j;
    } else {
      out.push_back(s[i]);
      ++i;
    }
  }
  return out;
}

const char* kReports[] = {"text.txt",          "text-limit20.txt", "text-all.txt",  "text-sort-total.txt",
                          "files.txt",         "graphviz.dot",     "callgrind.txt", "stackcollapse.txt",
                          "method-1.txt",      "method-2.txt",     "flamegraph.js", "alphabetical-flamegraph.js",
                          "file-workloads.txt"};

}  // namespace

TEST_CASE("stackprof: every CLI golden of the corpus, from the Marshal dump and from its JSON twin",
          "[stackprof][corpus]") {
  nlohmann::json manifest = read_json(corpus("prof/manifest.json"));
  int compared = 0;
  for (auto& [name, prof] : manifest["profiles"].items()) {
    for (const char* encoding : {"dump", "json"}) {
      Profile p = load(corpus("prof/" + prof[encoding].get<std::string>()));
      for (const char* report : kReports) {
        if (!prof["goldens"].contains(report)) continue;
        const auto& g = prof["goldens"][report];
        std::vector<std::string> args = g["args"].get<std::vector<std::string>>();
        INFO(name << " (" << encoding << ") " << report);
        if (g["exit_code"] != 0) {
          // stackprof raised (stackcollapse/flame graphs of an aggregated profile): we refuse with its message.
          std::string s, err;
          Out out(&s);
          if (report == std::string("stackcollapse.txt")) CHECK_FALSE(print_stackcollapse(p, out, err));
          else if (report == std::string("flamegraph.js")) CHECK_FALSE(print_flamegraph(p, out, false, err));
          else if (report == std::string("alphabetical-flamegraph.js"))
            CHECK_FALSE(print_flamegraph(p, out, true, err));
          else FAIL("unexpected failing golden " << report);
          CHECK(err == "profile does not include raw samples (add `raw: true` to collecting StackProf.run)");
          CHECK(s.empty());
          continue;
        }
        std::string golden = read_file(corpus("prof/" + g["file"].get<std::string>()));
        auto sources = sources_from_golden(golden);
        if (args[0] == "--file")
          for (const auto& f : p.frames)
            if (f.file.find(args.at(1)) != std::string::npos) sources[f.file] = file_from_golden(golden);
        SourceProvider provider = [&](const std::string& file, std::vector<std::string>& lines) {
          auto it = sources.find(file);
          if (it == sources.end()) return false;
          lines = it->second;
          return true;
        };
        std::string ours = run_report(p, args, provider);
        compare(report, args, ours, golden);
        ++compared;
      }
    }
  }
  // Every golden with a stdout (exit 0) of the reports above, from both encodings: nothing skipped.
  int expected = 0;
  for (auto& [name, prof] : manifest["profiles"].items())
    for (const char* report : kReports)
      if (prof["goldens"].contains(report) && prof["goldens"][report]["exit_code"] == 0) expected += 2;
  CHECK(compared == expected);
  CHECK(compared >= 250);
}

TEST_CASE("stackprof: --method without the sources prints SOURCE UNAVAILABLE like stackprof", "[stackprof][corpus]") {
  Profile p = load(corpus("prof/blocks-cpu-raw/blocks-cpu-raw.dump"));
  std::string s, err;
  Out out(&s);
  REQUIRE(print_method(p, out, "^block\\ in\\ <main>$", nullptr, err));
  // The golden up to "code:", then stackprof's message for an unreadable file.
  std::string golden = read_file(corpus("prof/blocks-cpu-raw/golden/method-2.txt"));
  CHECK(s == golden.substr(0, golden.find("  code:\n") + 8) + "        SOURCE UNAVAILABLE\n");
  // Unanchored like Ruby's =~: "fib"-style substrings match every frame containing them.
  std::string all;
  Out out2(&all);
  REQUIRE(print_method(p, out2, "Pipeline", nullptr, err));
  size_t headers = 0;
  for (const auto& l : split_lines(all))
    if (l[0] != ' ') ++headers;
  size_t expected = 0;
  for (const auto& f : p.frames) expected += f.name.find("Pipeline") != std::string::npos;
  CHECK(headers == expected);
  CHECK(expected >= 5);
  std::string bad;
  Out out3(&bad);
  CHECK_FALSE(print_method(p, out3, "([", nullptr, err));
  CHECK(err.find("invalid regular expression") != std::string::npos);
}

TEST_CASE("stackprof: --json reproduces `stackprof --json` byte for byte (the corpus JSON twins)",
          "[stackprof][corpus]") {
  nlohmann::json manifest = read_json(corpus("prof/manifest.json"));
  for (auto& [name, prof] : manifest["profiles"].items()) {
    INFO(name);
    std::string twin = read_file(corpus("prof/" + prof["json"].get<std::string>()));
    for (const char* encoding : {"dump", "json"}) {
      Profile p = load(corpus("prof/" + prof[encoding].get<std::string>()));
      std::string s, err;
      Out out(&s);
      REQUIRE(print_json(p, out, err));
      CHECK(s == twin);
    }
  }
}

TEST_CASE("stackprof: the Marshal reader gives the same profile whatever the chunk size", "[stackprof][corpus]") {
  std::string path = corpus("prof/gc-cpu-raw/gc-cpu-raw.dump");
  std::string golden = read_file(corpus("prof/gc-cpu-raw/golden/stackcollapse.txt"));
  for (size_t chunk : {size_t(1), size_t(2), size_t(9), size_t(1) << 20}) {
    INFO("chunk " << chunk);
    Profile p = load(path, chunk);
    std::string s, err;
    Out out(&s);
    REQUIRE(print_stackcollapse(p, out, err));
    CHECK(s == golden);
  }
}

TEST_CASE("stackprof: JSON dumps stream by chunk: every chunk size gives stackprof's own --json back",
          "[stackprof][corpus]") {
  // The .json twins are `stackprof X.dump --json` output; our --json of a JSON dump reproduces its
  // input byte for byte, so any token lost or split wrongly at a chunk boundary shows. Every chunk
  // size from 1 byte to the whole file, on a raw profile (metadata, Bignum-sized frame ids, raw,
  // timestamps) and an aggregated one (edges, lines).
  for (const char* name : {"threads-object-raw", "recursion-cpu-agg"}) {
    std::string path = corpus(std::string("prof/") + name + "/" + name + ".json");
    std::string twin = read_file(path);
    size_t ok = 0;
    for (size_t chunk = 1; chunk <= twin.size(); ++chunk) {
      DumpLoader loader;
      for (size_t off = 0; off < twin.size(); off += chunk)
        loader.feed(twin.data() + off, std::min(chunk, twin.size() - off));
      Profile p;
      std::vector<Problem> problems;
      if (!loader.finish(p, problems)) FAIL("chunk " << chunk << ": not read");
      std::string s, err;
      Out out(&s);
      print_json(p, out, err);
      out.flush();
      if (s == twin) ++ok;
      else FAIL_CHECK(name << ": chunk " << chunk << " gives a different --json");
    }
    CHECK(ok == twin.size());
  }
}

TEST_CASE("stackprof: summing dumps equals `stackprof A B --dump` (SHA-256 frame keys)", "[stackprof][corpus]") {
  // broken/combined-via-cli-dump.dump = `stackprof recursion-cpu-agg.dump blocks-cpu-agg.dump --dump`.
  std::vector<Profile> parts;
  parts.push_back(load(corpus("prof/recursion-cpu-agg/recursion-cpu-agg.dump")));
  parts.push_back(load(corpus("prof/blocks-cpu-agg/blocks-cpu-agg.json")));
  Profile sum;
  std::string err;
  REQUIRE(sum_profiles(parts, sum, err));
  Profile combined = load(corpus("prof/broken/combined-via-cli-dump.dump"));
  CHECK(combined.combined);
  CHECK(sum.samples == 197 + 427);  // header samples of the two profiles (manifest)
  CHECK(combined.samples == 624);
  for (auto* report : {"json", "text", "graphviz", "callgrind"}) {
    INFO(report);
    std::string a, b;
    Out oa(&a), ob(&b);
    if (std::string(report) == "json") {
      REQUIRE(print_json(sum, oa, err));
      REQUIRE(print_json(combined, ob, err));
    } else if (std::string(report) == "text") {
      print_text(sum, oa, false, 0);
      print_text(combined, ob, false, 0);
    } else if (std::string(report) == "graphviz") {
      print_graphviz(sum, oa);
      print_graphviz(combined, ob);
    } else {
      print_callgrind(sum, oa);
      print_callgrind(combined, ob);
    }
    oa.flush();
    ob.flush();
    // The corpus rewrote the /srv/app/... paths after combining, so keys of frames with a path
    // differ (SHA-256 of the old path): compare with every key masked, and check the unmasked keys
    // of the path-less frames below.
    CHECK(mask_sha(a) == mask_sha(b));
  }
  size_t pathless = 0;
  for (const auto& f : sum.frames) {
    if (f.file.rfind("/srv/", 0) == 0) continue;
    ++pathless;
    INFO(f.name);
    bool found = false;
    for (const auto& g : combined.frames) found = found || combined.key_text(g.key) == sum.key_text(f.key);
    CHECK(found);
  }
  CHECK(pathless == 25);
  // And the head of the real CLI's --text on that dump (broken.json: 2152 bytes).
  std::string t;
  Out ot(&t);
  print_text(sum, ot);
  CHECK(t.size() == 2152);
  CHECK(t.rfind("==================================\n  Mode: cpu(1000)\n  Samples: 624 (0.32% miss rate)\n", 0) == 0);

  // Different modes cannot be summed (stackprof: "cannot combine cpu(1000) with object(20)").
  std::vector<Profile> mixed;
  mixed.push_back(load(corpus("prof/blocks-cpu-agg/blocks-cpu-agg.dump")));
  mixed.push_back(load(corpus("prof/blocks-object-agg/blocks-object-agg.dump")));
  Profile bad;
  CHECK_FALSE(sum_profiles(mixed, bad, err));
  CHECK(err.find("cannot combine object(20) with cpu(1000)") == 0);
}

TEST_CASE("stackprof: the sum of two dumps equals the real CLI's `stackprof A B` reports", "[stackprof][corpus]") {
  // fixtures/stackprof/sum-goldens.sh ran Debian's stackprof 0.2.21 on these two corpus dumps.
  std::vector<Profile> parts;
  parts.push_back(load(corpus("prof/recursion-cpu-agg/recursion-cpu-agg.dump")));
  parts.push_back(load(corpus("prof/blocks-cpu-agg/blocks-cpu-agg.dump")));
  Profile sum;
  std::string err;
  REQUIRE(sum_profiles(parts, sum, err));
  std::string text, dot, cg, json;
  {
    Out a(&text), b(&dot), c(&cg), d(&json);
    print_text(sum, a, false, 0);
    print_graphviz(sum, b);
    print_callgrind(sum, c);
    REQUIRE(print_json(sum, d, err));
  }
  auto fx = [](const char* f) { return read_file(gcscope::test::fixture(std::string("stackprof/") + f)); };
  CHECK(canonical(text, text_key(false)) == canonical(fx("sum-text-all.txt"), text_key(false)));
  // Node ids are the SHA-256 keys: equal only if every name+file+line hash is right.
  CHECK(canonical(dot, graphviz_key) == canonical(fx("sum-graphviz.dot"), graphviz_key));
  CHECK(callgrind_canonical(cg) == callgrind_canonical(fx("sum-callgrind.txt")));
  CHECK(json == fx("sum.json"));  // frame order of Report#+ and the added :hash field
}

TEST_CASE("stackprof: --text with --select/--reject files and names equals the real CLI", "[stackprof][corpus]") {
  // fixtures/stackprof/filter-goldens.sh: the filters of each golden, in the same order.
  Profile p = load(corpus("prof/blocks-cpu-raw/blocks-cpu-raw.dump"));
  struct Case {
    const char* golden;
    TextFilters f;
    bool sort_total;
    long limit;
  };
  std::vector<Case> cases = {
      {"filter-1.txt", {{"/srv/app"}, {}, {}, {"Pipeline"}}, false, 30},
      {"filter-2.txt", {{}, {}, {"^Array", "Enumerable"}, {}}, false, 5},
      // stackprof File.expand_path's file prefixes: '<cfunc>' became "<cwd>/<cfunc>" and rejected nothing.
      {"filter-3.txt", {{}, {"/cwd/<cfunc>"}, {}, {}}, true, 0},
      {"filter-4.txt", {{}, {"/srv"}, {"(map|each)$"}, {}}, false, 30},
  };
  for (const auto& c : cases) {
    INFO(c.golden);
    std::string err;
    REQUIRE(check_filters(c.f, err));
    std::string s;
    Out out(&s);
    print_text(p, out, c.sort_total, c.limit, &c.f);
    std::string golden = read_file(gcscope::test::fixture(std::string("stackprof/") + c.golden));
    CHECK(canonical(s, text_key(c.sort_total)) == canonical(golden, text_key(c.sort_total)));
  }
  TextFilters bad{{}, {}, {"(["}, {}};
  std::string err;
  CHECK_FALSE(check_filters(bad, err));
}

TEST_CASE("stackprof: SHA-256 and Ruby's Float#to_s", "[stackprof]") {
  // FIPS 180-2 test vectors.
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // Values as Ruby 3.1 prints them (irb).
  CHECK(ruby_float(1.2) == "1.2");
  CHECK(ruby_float(10.0) == "10.0");
  CHECK(ruby_float(2.2983539094650203) == "2.2983539094650203");
  CHECK(ruby_float(1e16) == "1.0e+16");
  CHECK(ruby_float(1e15) == "1000000000000000.0");
  CHECK(ruby_float(0.0001) == "0.0001");
  CHECK(ruby_float(0.00001) == "1.0e-05");
  CHECK(ruby_float(1e-300) == "1.0e-300");
  CHECK(ruby_float(-3.25) == "-3.25");
}
