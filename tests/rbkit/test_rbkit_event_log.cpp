// The rbkit_events table's log (rbkit/event_log.h) gives back every value it was given, exactly: times
// that are whole milliseconds, fractional, far apart, going backwards; object ids going down,
// across the whole uint64 range; records with and without each optional field.
#include <catch2/catch.hpp>
#include <cstring>
#include <limits>
#include <vector>

#include "rbkit/event_log.h"

using gcscope::rbkit::EventLog;

TEST_CASE("rbkit event log: every record comes back exactly, in order", "[rbkit][tables]") {
  std::vector<EventLog::Event> in;
  auto add = [&](int type, double ts, bool has_id, uint64_t id, uint32_t cls) {
    EventLog::Event e;
    e.type = type, e.ts_ms = ts, e.has_id = has_id, e.id = id, e.cls = cls;
    in.push_back(e);
  };
  add(8, 1795257121398.0, false, 0, 0);
  add(0, 1795257121902.0, true, 60, 0);
  add(0, 1795257121902.0, true, 80, 3);
  add(1, 1795257121901.0, true, 40, 3);              // back in time, id down
  add(0, 1407668549460.5, true, UINT64_MAX, 70000);  // fractional ms, the largest id
  add(1, 1407668549.46, true, 0, 0);                 // a time in seconds, id 0
  add(2, 0.1 + 0.2, false, 0, 0);                    // not a whole number of ms
  add(4, 4.6e15, false, 0, 0);                       // far from the previous time
  add(0, -1.0, true, uint64_t(1) << 63, 1);
  EventLog::Event dump;
  dump.type = 5, dump.ts_ms = 1795257125000.0, dump.has_corr = true, dump.corr = 1, dump.has_count = true,
  dump.count = 1000;
  in.push_back(dump);
  EventLog::Event cpu;
  cpu.type = 9, cpu.ts_ms = 1795257125001.0, cpu.has_count = true, cpu.count = 0;
  in.push_back(cpu);

  EventLog log;
  for (const auto& e : in) log.add(e);
  REQUIRE(log.size() == in.size());
  size_t i = 0;
  log.for_each([&](const EventLog::Event& e) {
    REQUIRE(i < in.size());
    const EventLog::Event& w = in[i++];
    CHECK(e.type == w.type);
    CHECK(std::memcmp(&e.ts_ms, &w.ts_ms, sizeof(double)) == 0);
    CHECK(e.has_id == w.has_id);
    CHECK(e.id == (w.has_id ? w.id : 0));
    CHECK(e.cls == w.cls);
    CHECK(e.has_corr == w.has_corr);
    CHECK(e.corr == w.corr);
    CHECK(e.has_count == w.has_count);
    CHECK(e.count == w.count);
  });
  CHECK(i == in.size());
}

TEST_CASE("rbkit event log: an object event of a real capture takes a few bytes", "[rbkit][tables]") {
  EventLog log;
  for (uint64_t k = 0; k < 1000; ++k) {
    EventLog::Event e;
    e.type = 0, e.ts_ms = 1795257121902.0 + static_cast<double>(k / 100), e.has_id = true, e.id = 60 + 20 * k,
    e.cls = 5;
    log.add(e);
  }
  // Head, time difference, id difference (20: one byte) and class: 4 bytes an event after the first.
  uint64_t n = 0;
  log.for_each([&](const EventLog::Event& e) { CHECK(e.id == 60 + 20 * n++); });
  CHECK(n == 1000);
  CHECK(log.bytes() <= 9 + 999 * 4);
}
