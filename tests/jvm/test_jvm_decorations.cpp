// The unified parser's fast path for the default decorations ("[1.500s][info][gc,start    ] ") must give
// what the general decoration loop gives for every other shape: the same G1 pause, written with seven
// decoration variants (JDK 17 padding, no padding, pid/tid after the tags, a ',' decimal separator, another
// level, uptimemillis, no level). Expected figures are read
// off the two hand-written lines: start at 1.5 s, 2.000 ms, 24M->4M(256M).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "jvm/log_parser.h"

using namespace gcscope::jvm;

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
      {"[1.500s][info][gc,start] ", "[1.502s][info][gc] "},                  // JDK 11 default
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
    parser->feed_line(std::string(shape.end) + "GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->4M(256M) 2.000ms", 2);
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
