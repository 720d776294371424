// Probe listings of bpftrace (`bpftrace -l`) and BCC (`tplist`), read from real outputs of both tools
// over the same library (fixtures/tracing/make_listings.sh): the two tools must agree on the probes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <sstream>

#include "support.h"
#include "tracing/probe_listing.h"

using gcscope::tracing::ProbeListing;
using gcscope::tracing::looks_like_probe_listing;
using gcscope::test::fixture;
using gcscope::test::read_file;

namespace {

nlohmann::json listed(const std::string& text, bool bpftrace) {
  ProbeListing listing;
  std::istringstream in(text);
  std::string line;
  uint64_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    bool taken = bpftrace ? listing.take_bpftrace_line(line, n) : listing.take_tplist_line(line, n);
    REQUIRE(taken);  // every line of a real listing is a listing line
  }
  nlohmann::json report;
  listing.write(report, bpftrace ? "bpftrace" : "tplist");
  return report["probes"];
}

std::set<std::string> names(const nlohmann::json& probes) {
  std::set<std::string> out;
  for (const auto& p : probes) out.insert(p["probe"].get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("probe listings: bpftrace -l and tplist list the same 22 USDT probes of libruby", "[tracing][listing]") {
  auto bt = listed(read_file(fixture("tracing/bpftrace-l-usdt-libruby.txt")), true);
  auto tp = listed(read_file(fixture("tracing/tplist-l-libruby.txt")), false);
  auto tpv = listed(read_file(fixture("tracing/tplist-v-libruby.txt")), false);
  // 22 lines in each plain listing (wc -l), 22 probe lines among tplist -v's 66.
  CHECK(bt.size() == 22);
  CHECK(tp.size() == 22);
  CHECK(tpv.size() == 22);
  CHECK(names(bt) == names(tp));
  CHECK(names(tp) == names(tpv));
  CHECK(names(bt).count("ruby:method__entry") == 1);
  CHECK(names(bt).count("ruby:gc__mark__begin") == 1);
  for (const auto& p : bt) {
    CHECK(p["type"] == "usdt");
    CHECK(p["provider"] == "ruby");
    CHECK(p["binary"] == "/lib/x86_64-linux-gnu/libruby-3.1.so.3.1");
  }
}

TEST_CASE("probe listings: tplist -v gives semaphores, locations and arguments", "[tracing][listing]") {
  auto tpv = listed(read_file(fixture("tracing/tplist-v-libruby.txt")), false);
  auto find = [&](const std::string& probe) {
    auto it = std::find_if(tpv.begin(), tpv.end(), [&](const nlohmann::json& p) { return p["probe"] == probe; });
    REQUIRE(it != tpv.end());
    return *it;
  };
  // From the file: "ruby:array__create [sema 0x3af282]", "  4 location(s)", "  3 argument(s)".
  auto array = find("ruby:array__create");
  CHECK(array["semaphore"] == "0x3af282");
  CHECK(array["locations"] == 4);
  CHECK(array["arguments"] == 3);
  // "ruby:method__entry [sema 0x3af29a]", "  1 location(s)", "  4 argument(s)".
  auto entry = find("ruby:method__entry");
  CHECK(entry["semaphore"] == "0x3af29a");
  CHECK(entry["locations"] == 1);
  CHECK(entry["arguments"] == 4);
  CHECK(!entry.contains("binary"));  // -v with -l prints no binary per probe
}

TEST_CASE("probe listings: -p PID paths give the pid and the binary inside the process's root", "[tracing][listing]") {
  auto bt = listed(read_file(fixture("tracing/bpftrace-l-usdt-pid.txt")), true);
  auto tp = listed(read_file(fixture("tracing/tplist-pid.txt")), false);
  REQUIRE(!bt.empty());
  REQUIRE(!tp.empty());
  CHECK(names(bt) == names(tp));
  for (const auto& p : bt) {
    CHECK(p["pid"].get<int64_t>() > 1);
    CHECK(p["binary"] == "/usr/lib/x86_64-linux-gnu/libruby-3.1.so.3.1.2");
  }
  CHECK(tp[0]["binary"] == "/usr/lib/x86_64-linux-gnu/libruby-3.1.so.3.1.2");
  CHECK(tp[0]["pid"] == bt[0]["pid"]);  // one run of make_listings.sh: the same process
}

TEST_CASE("probe listings: other bpftrace probe types, and lines that are not listings", "[tracing][listing]") {
  ProbeListing l;
  CHECK(l.take_bpftrace_line("tracepoint:syscalls:sys_enter_read", 1));
  CHECK(l.take_bpftrace_line("kprobe:do_sys_open", 2));
  CHECK(l.take_bpftrace_line("uprobe:/bin/bash:readline", 3));
  CHECK_FALSE(l.take_bpftrace_line("@calls[ruby:method__entry]: 12", 4));
  CHECK_FALSE(l.take_bpftrace_line("Attaching 1 probe...", 5));
  CHECK_FALSE(l.take_bpftrace_line("usdt:nonsense", 6));
  ProbeListing t;
  CHECK_FALSE(t.take_tplist_line("  4 location(s)", 7));  // a detail line with no probe before it
  CHECK_FALSE(t.take_tplist_line("ucalls: 12 calls", 8));
  CHECK(t.take_tplist_line("ruby:raise [sema 0x10]", 9));
  CHECK(t.take_tplist_line("  4 location(s)", 10));
  nlohmann::json r;
  l.write(r, "bpftrace");
  REQUIRE(r["probes"].size() == 3);
  CHECK(r["probes"][0]["probe"] == "syscalls:sys_enter_read");
  CHECK(r["probes"][1]["probe"] == "do_sys_open");
  CHECK(r["probes"][2]["binary"] == "/bin/bash");
  nlohmann::json rt;
  t.write(rt, "tplist");
  REQUIRE(rt["probes"].size() == 1);
  CHECK(rt["probes"][0]["locations"] == 4);
  CHECK(looks_like_probe_listing(read_file(fixture("tracing/bpftrace-l-usdt-libruby.txt")), "bpftrace"));
  CHECK(looks_like_probe_listing(read_file(fixture("tracing/tplist-v-libruby.txt")), "tplist"));
  CHECK_FALSE(looks_like_probe_listing(read_file(fixture("tracing/bpftrace-hist.txt")), "bpftrace"));
  CHECK_FALSE(looks_like_probe_listing(read_file(fixture("tracing/bcc-ucalls-example.txt")), "tplist"));
}

TEST_CASE("probe listings: the bpftrace and BCC analyzers report a listing's probes, no error", "[tracing][listing]") {
  using gcscope::test::analyze_paths;
  using gcscope::test::report_of;
  auto bt = analyze_paths({fixture("tracing/bpftrace-l-usdt-libruby.txt")}, {{"format", "bpftrace-text"}});
  CHECK(bt["errors"].empty());
  const auto& br = report_of(bt, "bpftrace-text");
  REQUIRE(br["probes"].size() == 22);  // wc -l of the listing
  CHECK(br["listing"]["tool"] == "bpftrace");
  CHECK(br["probes"][0]["probe"] == "ruby:array__create");  // its first line
  CHECK(br["probes"][21]["line"] == 22);
  CHECK(br.value("hints", nlohmann::json::array()).dump().find("empty_capture") == std::string::npos);

  auto tp = analyze_paths({fixture("tracing/tplist-v-libruby.txt")}, {{"format", "bcc-output"}});
  CHECK(tp["errors"].empty());
  const auto& tr = report_of(tp, "bcc-output");
  CHECK(tr["tool"] == "tplist");
  REQUIRE(tr["probes"].size() == 22);  // 66 lines: a probe line, its locations, its arguments
  CHECK(tr["probes"][0]["locations"] == 4);

  // A real capture keeps its maps and carries no probe list.
  auto hist = analyze_paths({fixture("tracing/bpftrace-hist.txt")}, {{"format", "bpftrace-text"}});
  CHECK(!report_of(hist, "bpftrace-text").contains("listing"));
}

TEST_CASE("probe listings: identified without a forced format, as the tools' other outputs", "[tracing][listing]") {
  using gcscope::test::analyze_paths;
  using gcscope::test::report_of;
  struct Case {
    const char* file;
    const char* format;
    size_t probes;
  };
  // Probe counts: wc -l of each plain listing; tplist -v has 22 probe lines among its 66.
  for (const Case& c :
       {Case{"tracing/bpftrace-l-usdt-libruby.txt", "bpftrace-text", 22},
        Case{"tracing/bpftrace-l-usdt-pid.txt", "bpftrace-text", 22},
        Case{"tracing/tplist-l-libruby.txt", "bcc-output", 22}, Case{"tracing/tplist-v-libruby.txt", "bcc-output", 22},
        Case{"tracing/tplist-pid.txt", "bcc-output", 22}}) {
    INFO(c.file);
    auto doc = analyze_paths({fixture(c.file)});
    CHECK(doc["errors"].empty());
    CHECK(report_of(doc, c.format)["probes"].size() == c.probes);
  }
}
