// The unified parser's fast path for the default decorations ("[1.500s][info][gc,start    ] ") must give
// what the general decoration loop gives for every other shape: the same G1 pause, written with seven
// decoration variants (JDK 17 padding, no padding, pid/tid after the tags, a ',' decimal separator, another
// level, uptimemillis, no level). Expected figures are read
// off the two hand-written lines: start at 1.5 s, 2.000 ms, 24M->4M(256M).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "core/identify.h"
#include "jvm/decorations.h"
#include "jvm/log_parser.h"

using namespace gcscope::jvm;
using gcscope::identify;
using gcscope::Identification;

namespace {
struct Sink : GcEventSink {
  std::vector<GcEvent> events;
  std::vector<std::string> causes;  // GcEvent::cause is only valid during on_event()
  int unparsed = 0;
  void on_event(const GcEvent& e) override {
    events.push_back(e);
    causes.emplace_back(e.cause);
  }
  void on_safepoint(const SafepointEvent&) override {}
  void on_unparsed(uint32_t, uint64_t, std::string_view) override { ++unparsed; }
};
}  // namespace

TEST_CASE("jvm decorations: the default-decoration fast path and the general loop read the same pause") {
  struct Shape {
    const char* start;  // decorations of the start line (t = 1.500 s)
    const char* end;    // decorations of the summary line (t = 1.502 s)
  };
  const std::vector<Shape> shapes = {
      {"[1.500s][info][gc,start    ] ", "[1.502s][info][gc          ] "},  // JDK 17 default
      {"[1.500s][info][gc,start] ", "[1.502s][info][gc] "},                // JDK 11 default
      {"[1.500s][info][gc,start    ][4242][4243t] ", "[1.502s][info][gc          ][4242][4243t] "},
      {"[1,500s][info][gc,start] ", "[1,502s][info][gc] "},
      {"[1.500s][debug][gc,start] ", "[1.502s][debug][gc] "},
      {"[1500ms][info][gc,start] ", "[1502ms][info][gc] "},
      {"[1.500s][gc,start] ", "[1.502s][gc] "},
  };
  for (const auto& shape : shapes) {
    INFO("decorations " << shape.start);
    Sink sink;
    auto parser = make_unified_parser(sink, 0);
    parser->feed_line(std::string(shape.start) + "GC(0) Pause Young (Normal) (G1 Evacuation Pause)", 1);
    parser->feed_line(std::string(shape.end) + "GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 2.000ms",
                      2);
    parser->finish();
    CHECK(sink.unparsed == 0);
    REQUIRE(sink.events.size() == 1);
    const GcEvent& e = sink.events[0];
    CHECK(e.type == GcType::Young);
    CHECK(e.gc_id == 0);
    CHECK(e.uptime_s == Approx(1.5));
    CHECK(e.duration_s == Approx(0.002));
    CHECK(e.heap.before_kb == 24 * 1024);
    CHECK(e.heap.after_kb == 4 * 1024);
    CHECK(e.heap.committed_kb == 256 * 1024);
    CHECK(sink.causes[0] == "G1 Evacuation Pause");
    CHECK(parser->diary().first_uptime_s == Approx(1.5));
    CHECK(parser->diary().last_uptime_s == Approx(1.502));
  }
}

TEST_CASE("jvm decorations: a line that ends right after [info] (fuzz find: read past the line)") {
  // The fast path stepped one past the end of "[0.006s][info]" and compared 8 bytes there (ASan:
  // heap-buffer-overflow in the fuzz build). The bare line is a decoration-only line; the pause
  // around it is read as usual.
  Sink sink;
  auto parser = make_unified_parser(sink, 0);
  parser->feed_line("[1.500s][info][gc,start] GC(0) Pause Young (Normal) (G1 Evacuation Pause)", 1);
  parser->feed_line("[0.006s][info]", 2);
  parser->feed_line("[1.502s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 2.000ms", 3);
  parser->finish();
  REQUIRE(sink.events.size() == 1);
  CHECK(sink.events[0].uptime_s == Approx(1.5));
  CHECK(sink.events[0].duration_s == Approx(0.002));
  CHECK(sink.events[0].heap.after_kb == 4 * 1024);
}

// ---- the shared decorations module (jvm/decorations.h) ----------------------------------------
// Expected epoch milliseconds come from GNU date, e.g. `date -u -d '2026-11-21T12:09:42.549+0100' +%s%3N`.

TEST_CASE("jvm decorations: split() reads each decoration kind of a unified line") {
  namespace dec = gcscope::jvm::decorations;
  dec::NanosOrigin nanos;
  dec::Unified d;
  std::string_view msg;

  REQUIRE(dec::split("[0.078s][info][gc,start    ] GC(0) Pause Young (Normal)", d, nanos, msg));
  CHECK(d.uptime_s == Approx(0.078));
  CHECK(std::isnan(d.wall_ms));
  CHECK(d.level == "info");
  CHECK(d.tags == "gc,start");
  CHECK(msg == "GC(0) Pause Young (Normal)");

  // time (with its zone), uptimemillis, another level, pid and tid after the tags
  REQUIRE(dec::split("[2026-11-21T12:09:42.549+0100][12ms][debug][gc,heap][4242][4243t] Heap", d, nanos, msg));
  CHECK(d.wall_ms == 1795259382549.0);
  CHECK(d.uptime_s == Approx(0.012));
  CHECK(d.level == "debug");
  CHECK(d.tags == "gc,heap");
  CHECK(msg == "Heap");

  // utctime with a space, "+00:00"; no level: the level stays empty
  REQUIRE(dec::split("[2024-02-29 23:59:59.500+00:00][gc] x", d, nanos, msg));
  CHECK(d.wall_ms == 1709251199500.0);
  CHECK(std::isnan(d.uptime_s));
  CHECK(d.level.empty());
  CHECK(d.tags == "gc");

  // timemillis (an epoch, > 1e11) vs uptimemillis
  REQUIRE(dec::split("[1795259382549ms][gc] x", d, nanos, msg));
  CHECK(d.wall_ms == 1795259382549.0);
  CHECK(std::isnan(d.uptime_s));

  // a token of no known kind counts when another decoration follows it (a host name)
  REQUIRE(dec::split("[app-1.example][0.5s][gc] x", d, nanos, msg));
  CHECK(d.uptime_s == Approx(0.5));
  CHECK(msg == "x");

  // no decorations at all (-Xlog:gc::none): all message, no stamps
  REQUIRE(dec::split("GC(3) Pause Young (Normal)", d, nanos, msg));
  CHECK(msg == "GC(3) Pause Young (Normal)");
  CHECK(std::isnan(d.uptime_s));
  CHECK(d.tags.empty());

  // legacy records open with '[' but no decoration
  CHECK_FALSE(dec::split("[GC (Allocation Failure) [PSYoungGen: 512K->496K(1024K)] 512K->504K(1536K), 0.0012 secs]", d,
                         nanos, msg));
  CHECK_FALSE(dec::split("[Full GC (System.gc()) 1024K->512K(2048K), 0.01 secs]", d, nanos, msg));
}

TEST_CASE("jvm decorations: nanosecond stamps count from the member's first one when it is a timenanos") {
  namespace dec = gcscope::jvm::decorations;
  dec::Unified d;
  std::string_view msg;
  dec::NanosOrigin timenanos;  // System.nanoTime(): 5000 s since some origin
  REQUIRE(dec::split("[5000000000000ns][gc] a", d, timenanos, msg));
  CHECK(d.uptime_s == 0.0);
  REQUIRE(dec::split("[5000500000000ns][gc] b", d, timenanos, msg));
  CHECK(d.uptime_s == Approx(0.5));
  dec::NanosOrigin uptimenanos;  // 1.5 ms after JVM start
  REQUIRE(dec::split("[1500000ns][gc] a", d, uptimenanos, msg));
  CHECK(d.uptime_s == Approx(0.0015));
}

// Epoch milliseconds below were computed with Python's datetime from the hand-written stamps.
TEST_CASE("jvm decorations: read_legacy reads the datestamp, uptime and GC id in front of a record") {
  const std::string line = "2014-06-25T12:34:56.789+0200: 123.456: #12: [GC (Allocation Failure) ...";
  decorations::Legacy st;
  const size_t rest = decorations::read_legacy(line, 0, st);
  CHECK(line.substr(rest, 3) == "[GC");
  CHECK(st.wall_ms == 1403692496789.0);
  CHECK(st.uptime_s == Approx(123.456));

  decorations::Legacy none;
  CHECK(decorations::read_legacy("[GC 1024K->512K(2048K), 0.0012 secs]", 0, none) == 0);
  CHECK(std::isnan(none.uptime_s));
  CHECK(std::isnan(none.wall_ms));

  // A ',' decimal separator and no space after the colon.
  decorations::Legacy comma;
  const std::string c = "3576155,873:[Full GC";
  CHECK(c.substr(decorations::read_legacy(c, 0, comma)) == "[Full GC");
  CHECK(comma.uptime_s == Approx(3576155.873));
}

TEST_CASE("jvm decorations: legacy_start_before finds the stamps of a record printed into another line") {
  const std::string line = "[GC [CMS2010-04-21T00:00:37.413+0100: 19027.970: [CMS-concurrent-mark: 2.497/2.538 secs]";
  const size_t mark = line.find("[CMS-concurrent-mark");
  CHECK(decorations::legacy_start_before(line, mark) == line.find("2010"));
  decorations::Legacy st;
  decorations::read_legacy(line, decorations::legacy_start_before(line, mark), st);
  CHECK(st.wall_ms == 1271804437413.0);
  CHECK(st.uptime_s == Approx(19027.970));
  // No stamp before the position: the position itself.
  const std::string plain = "text [GC";
  CHECK(decorations::legacy_start_before(plain, 5) == 5);
}

TEST_CASE("jvm decorations: a clock in front of an application's line is no legacy stamp") {
  decorations::Legacy st;
  const std::string clock = "07:19:42,943 INFO  [Server] Starting JBoss (MX MicroKernel)...";
  CHECK(decorations::read_legacy(clock, 0, st) == 0);
  CHECK(std::isnan(st.uptime_s));
  CHECK(std::isnan(st.wall_ms));
  // An uptime stamp is followed by a space or the record, never a digit.
  const std::string stamped = "30.000:[GC (Allocation Failure)";
  CHECK(decorations::read_legacy(stamped, 0, st) == 7);
  CHECK(st.uptime_s == Approx(30.0));
}

TEST_CASE("jvm decorations: identification tells the dialects apart by the decorations split reads") {
  // The dialect of a one-line head, by the probe's rule (probe.cpp): a unified line has decorations
  // (split) holding a time stamp, or a known -Xlog message after them, or two or more decorations
  // ending in gc/safepoint tags, or no decoration and a "GC(n)" message; else a legacy record start
  // after its stamps (read_legacy) makes it legacy.
  auto dialect = [](const std::string& head) {
    Identification id = identify(head, true);
    INFO(head);
    if (id.format != "jvm-gc-log") return std::string("not jvm");
    return std::string(id.details.value("unified", false) ? "unified" : "legacy");
  };
  for (const char* stamp : {"[0.012s] x", "[1,500s] x", "[173690ms] x", "[5000000ns] x",
                            "[2020-06-24T18:13:47.695-0700] x", "[2020-06-24T18:13:47.695-0700][4242][4243t] x"})
    CHECK(dialect(std::string(stamp) + "\n") == "unified");
  CHECK(dialect("[info][gc,heap] Expanding heap\n") == "unified");  // two decorations, gc tags
  CHECK(dialect("[4242][safepoint   ] Application stopped\n") == "unified");
  CHECK(dialect("[gc] Expanding heap\n") == "not jvm");         // one decoration, no stamp
  CHECK(dialect("[info][app] Expanding heap\n") == "not jvm");  // tags not gc/safepoint
  CHECK(dialect("[gc] Using G1\n") == "unified");               // a known -Xlog message
  CHECK(dialect("GC(3) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 3.204ms\n") == "unified");
  // Legacy records in brackets are not decorations: "GC pause" and "Times: user" hold spaces.
  CHECK(dialect("12.5: [GC pause (young) 24M->4M(256M), 0.0032 secs]\n") == "legacy");
  CHECK(dialect("[GC (Allocation Failure) [PSYoungGen: 24M->4M(256M)] 0.0032 secs]\n") == "legacy");
  CHECK(dialect("2014-06-25T12:34:56.789+0200: #3: [CMS-concurrent-mark-start]\n") == "legacy");
}
