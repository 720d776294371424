// Event streams (the capture recipe's exact printf stream), latency tables, overhead estimate and
// rates, on small inputs built here whose figures are computed by hand in the comments.
#include <catch2/catch.hpp>

#include "support.h"

using gcscope::test::analyze_bytes;
using nlohmann::json;

namespace {
// printf("%llu %s %llu\n", nsecs, probe, arg1) as bpftrace -f json prints it
std::string ndjson_stream() {
  std::string s = "{\"type\": \"attached_probes\", \"data\": {\"probes\": 2}}\n\n";
  // index: durations 1000..100000 ns (i * 1000, i = 1..100), timestamps 1.01 s .. 2.00 s
  // show: durations 5000 ns x 10, timestamps 1.1 s .. 2.0 s
  for (int i = 1; i <= 100; ++i) {
    s += "{\"type\": \"printf\", \"data\": \"" + std::to_string(1000000000LL + i * 10000000LL) +
         " usdt:/proc/7/root/tmp/my_controller-AbCdEf.so:my_controller:index " + std::to_string(i * 1000) + "\\n\"}\n";
    if (i % 10 == 0)
      s += "{\"type\": \"printf\", \"data\": \"" + std::to_string(1000000000LL + (i / 10) * 100000000LL) +
           " usdt:/proc/7/root/tmp/my_controller-AbCdEf.so:my_controller:show 5000\\n\"}\n";
  }
  return s;
}

const json* latency_row(const json& report, const std::string& probe) {
  for (const auto& r : report["latency"])
    if (r["probe"] == probe) return &r;
  return nullptr;
}
}  // namespace

TEST_CASE("tracing events: exact per-probe latency from a printf stream", "[tracing]") {
  json doc = analyze_bytes({{"stream.ndjson", ndjson_stream()}});
  REQUIRE(doc["reports"].size() == 1);
  const json& r = doc["reports"][0];
  CHECK(r["format"] == "bpftrace-json");
  CHECK(doc["errors"].empty());
  CHECK(r["printf_count"] == 110);
  CHECK(r["events"] == 110);  // the printf lines; the attached_probes record is not an event
  CHECK(r["event_types"]["attached_probes"] == 1);
  const json* index = latency_row(r, "my_controller:index");
  REQUIRE(index);
  CHECK((*index)["raw"] == "usdt:/proc/7/root/tmp/my_controller-AbCdEf.so:my_controller:index");
  CHECK((*index)["calls"] == 100);
  CHECK((*index)["total"] == 5050000.0);  // 1000 * (1 + ... + 100)
  CHECK((*index)["mean"] == 50500.0);
  CHECK((*index)["min"] == 1000);
  CHECK((*index)["max"] == 100000);
  // nearest rank over 100 values: the 50th, 90th, 99th smallest
  CHECK((*index)["p50"] == 50000);
  CHECK((*index)["p90"] == 90000);
  CHECK((*index)["p99"] == 99000);
  CHECK((*index)["exact"] == true);
  const json* show = latency_row(r, "my_controller:show");
  REQUIRE(show);
  CHECK((*show)["calls"] == 10);
  CHECK((*show)["p99"] == 5000);
  // probes: provider/name from the full bpftrace probe path
  REQUIRE(r["probes"].size() == 2);
  CHECK(r["probes"][0]["provider"] == "my_controller");
  CHECK(r["probes"][0]["name"] == "index");
  // log2 histogram of the exact values with exact markers: 1000 ns lies in [512, 1023]? no: 1000 < 1024
  const json* h = nullptr;
  for (const auto& x : r["histograms"])
    if (x["key"] == "my_controller:index") h = &x;
  REQUIRE(h);
  CHECK((*h)["total"] == 100);
  CHECK((*h)["buckets"][0]["lo"] == 512);  // 1000 ns
  CHECK((*h)["buckets"][0]["hi"] == 1023);
  CHECK((*h)["buckets"][0]["count"] == 1);
  CHECK((*h)["p50"] == json::array({50000, 50000}));
  // overhead: 110 fires over 2.00 s - 1.01 s = 0.99 s -> 111.1 fires/s; at 9 us each -> 0.1 % of a core
  const json& o = r["overhead"];
  CHECK(o["fires"] == 110);
  CHECK(o["duration_s"].get<double>() == Approx(0.99));
  CHECK(o["fires_per_s"].get<double>() == Approx(110 / 0.99));
  CHECK(o["overhead_pct"].get<double>() == Approx(110 / 0.99 * 9e-6 * 100));
  CHECK(o["overhead_pct_unattached"].get<double>() == Approx(110 / 0.99 * 6e-6 * 100));
  // events per second from the timestamps: 1.01..2.00 s in 1 s bins from the first event
  const json& rate = r["rates"]["events"];
  CHECK(rate["bin_s"] == 1.0);
  CHECK(rate["count"].size() == 1);
  CHECK(rate["count"][0] == 110);
}

TEST_CASE("tracing events: the same stream as bpftrace text gives the same table", "[tracing]") {
  std::string text = "Attaching 2 probes...\n";
  for (int i = 1; i <= 100; ++i)
    text += std::to_string(1000000000LL + i * 10000000LL) + " index " + std::to_string(i * 1000) + "\n";
  text += "^C\n";
  json doc = analyze_bytes({{"stream.txt", text}});
  const json& r = doc["reports"][0];
  CHECK(r["format"] == "bpftrace-text");
  const json* index = latency_row(r, "index");
  REQUIRE(index);
  CHECK((*index)["calls"] == 100);
  CHECK((*index)["p90"] == 90000);
  CHECK(r["printf_count"] == 100);
}

TEST_CASE("tracing events: chunking a long stream changes nothing", "[tracing]") {
  std::string s = ndjson_stream();
  json whole = analyze_bytes({{"s.ndjson", s}});
  json cut = analyze_bytes({{"s.ndjson", s}}, json::object(), 13);
  CHECK(cut["reports"] == whole["reports"]);
}

TEST_CASE("tracing events: Stack tracer strings in JSON printf events fold into stacks", "[tracing]") {
  // Tracer::Stack fires (method, caller.join("\n")); a recipe prints str(arg1). Two identical
  // stacks and one cut at the 64-byte default string limit.
  std::string s = "{\"type\": \"attached_probes\", \"data\": {\"probes\": 1}}\n";
  std::string full = "app/c.rb:9:in `index'\\napp/r.rb:3:in `call'\\nbin/s.rb:1:in `<main>'";
  s += "{\"type\": \"printf\", \"data\": \"" + full + "\\n\"}\n";
  s += "{\"type\": \"printf\", \"data\": \"" + full + "\\n\"}\n";
  s += "{\"type\": \"printf\", \"data\": \"app/c.rb:9:in `index'\\napp/r.rb:3:in `ca\"}\n";
  // cut inside the path of a frame: the fragment is the stack's last frame, flagged
  s += "{\"type\": \"printf\", \"data\": \"app/c.rb:9:in `index'\\napp/contr\"}\n";
  json doc = analyze_bytes({{"stacks.ndjson", s}});
  const json& st = doc["reports"][0]["stacks"];
  CHECK(st["unique"] == 3);
  CHECK(st["total_weight"] == 4);
  CHECK(st["truncated"] == 2);
  // root first: <main> -> call -> index
  const json& frames = st["frames"];
  const json& first = st["stacks"][0];
  CHECK(frames[first[0].get<size_t>()] == "bin/s.rb:1:in `<main>'");
  CHECK(frames[first[2].get<size_t>()] == "app/c.rb:9:in `index'");
  CHECK(st["weights"][0] == 2);
}

TEST_CASE("tracing events: bpftrace count/sum maps keyed by probe give calls and totals", "[tracing]") {
  std::string text =
      "Attaching 2 probes...\n\n\n"
      "@calls[usdt:/proc/1/root/tmp/c-AAAAAA.so:c:index]: 4\n"
      "@calls[usdt:/proc/1/root/tmp/c-AAAAAA.so:c:show]: 2\n"
      "@total[usdt:/proc/1/root/tmp/c-AAAAAA.so:c:index]: 4000\n"
      "@total[usdt:/proc/1/root/tmp/c-AAAAAA.so:c:show]: 30\n";
  json doc = analyze_bytes({{"maps.txt", text}}, {{"duration_s", 2}});
  const json& r = doc["reports"][0];
  const json* index = latency_row(r, "c:index");
  REQUIRE(index);
  CHECK((*index)["calls"] == 4);
  CHECK((*index)["total"] == 4000);
  // no timestamps: the duration comes from the option; 6 fires / 2 s = 3 fires/s
  CHECK(r["overhead"]["fires"] == 6);
  CHECK(r["overhead"]["fires_per_s"] == 3.0);
}

TEST_CASE("tracing events: interval snapshots become rates, Ctrl-C partial last snapshot flagged", "[tracing]") {
  std::string text =
      "Attaching 2 probes...\n"
      "12:00:01\n@calls[index]: 10\n@calls[show]: 5\n\n"
      "12:00:02\n@calls[index]: 12\n@calls[show]: 7\n\n"
      "^C\n@calls[index]: 3\n";
  json doc = analyze_bytes({{"interval.txt", text}});
  const json& r = doc["reports"][0];
  REQUIRE(r["maps"].size() == 3);
  CHECK(r["maps"][2]["snapshot"] == 2);
  const json& snaps = r["rates"]["snapshots"];
  REQUIRE(snaps.size() == 1);
  CHECK(snaps[0]["name"] == "@calls");
  CHECK(snaps[0]["totals"] == json::array({15.0, 19.0, 3.0}));
  CHECK(snaps[0]["last_possibly_partial"] == true);
}

TEST_CASE("tracing events: an empty bpftrace text capture is not an error but gets the hint", "[tracing]") {
  // bpftrace -e 'usdt:...:ruby:method__entry { @[str(arg1)] = count(); }' without a TracePoint:
  // the probes attach, nothing fires, Ctrl-C prints nothing
  json doc = analyze_bytes({{"empty.txt", "Attaching 1 probe...\n^C\n\n"}});
  CHECK(doc["errors"].empty());
  bool hint = false;
  for (const auto& h : doc["reports"][0]["hints"]) hint |= h["id"] == "empty_capture";
  CHECK(hint);
}

TEST_CASE("tracing events: an empty capture is not an error but gets the TracePoint hint", "[tracing]") {
  json doc = analyze_bytes({{"empty.ndjson", "{\"type\": \"attached_probes\", \"data\": {\"probes\": 2}}\n\n\n"}});
  const json& r = doc["reports"][0];
  CHECK(doc["errors"].empty());
  bool hint = false;
  for (const auto& h : r["hints"])
    hint |= h["id"] == "empty_capture" && h["text"].get<std::string>().find("TracePoint") != std::string::npos;
  CHECK(hint);
}

TEST_CASE("tracing events: pathological JSON nesting is refused, the rest of the stream kept", "[tracing]") {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  std::string s =
      "{\"type\": \"attached_probes\", \"data\": {\"probes\": 1}}\n"
      "{\"type\": \"value\", \"data\": " +
      deep +
      "}\n"
      "{\"type\": \"printf\", \"data\": \"ok\\n\"}\n";
  json doc = analyze_bytes({{"deep.ndjson", s}});
  const json& r = doc["reports"][0];
  CHECK(r["printf_count"] == 1);
  bool refused = false;
  for (const auto& e : doc["errors"])
    refused |= e["line"] == 2 && e["message"].get<std::string>().find("nested") != std::string::npos;
  CHECK(refused);
}

TEST_CASE("tracing events: avg() maps of type stats tell the bpftrace version", "[tracing][corpus]") {
  json doc = gcscope::test::analyze_paths({gcscope::test::corpus("trace/bpftrace-0.17-det/det_aggs.ndjson")});
  CHECK(doc["reports"][0]["tool_version"] == "0.17 - 0.23");
}

TEST_CASE("tracing events: a multi-line key with a negative value is a map entry, not a stack (fuzz find)",
          "[tracing]") {
  json doc = analyze_bytes({{"neg.txt", "Attaching 1 probe...\n@[a.rb:1:in `x'\nb.rb:2:in `y']: -7\n"}});
  const json& r = doc["reports"][0];
  REQUIRE(r["maps"].size() == 1);
  CHECK(r["maps"][0]["entries"][0]["value"] == -7);
  CHECK(r["stacks"]["unique"] == 0);
  CHECK(r["stacks"]["total_weight"] == 0);
}

TEST_CASE("tracing events: perf script frames before any header are reported, not attributed (fuzz find)",
          "[tracing]") {
  // a process-name frame "(...)" and a plain frame, both before the first sample header
  std::string s =
      "\t 1234 (deleted) (/x)\n\t 5678 foo (/lib/x.so)\nruby 1 1.000001: 1 cpu-clock:\n\t 9 bar (/lib/y.so)\n\n";
  json doc = gcscope::test::analyze_bytes({{"p.txt", s}}, {{"format", "perf-script"}});
  const json& r = doc["reports"][0];
  CHECK(r["samples"] == 1);
  CHECK(r["stacks"]["unique"] == 1);
}
