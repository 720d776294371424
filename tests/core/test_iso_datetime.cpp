// core/iso_datetime.h on hand-written stamps. Every expected epoch was computed apart from the parser,
// with GNU date: the command is beside each value.
#include <catch2/catch.hpp>
#include <string>

#include "core/iso_datetime.h"

namespace {

using gcscope::iso8601::DateTime;
using gcscope::iso8601::parse_date_time;

// Nanoseconds since the epoch, as `date +%s%N` prints them.
int64_t epoch_ns(const DateTime& t) { return t.epoch_s * 1000000000 + t.nanos; }

}  // namespace

TEST_CASE("iso8601: date-times with each zone form, fraction and separator") {
  DateTime t;
  // date -u -d "2026-11-28T11:04:44.167015+0000" +%s%N
  CHECK(parse_date_time("2026-11-28T11:04:44.167015+0000 read_ns 1", 0, t, true) == 31);
  CHECK(epoch_ns(t) == 1795863884167015000);
  // date -u -d "2026-11-28 12:04:44.5+01:00" +%s%N
  CHECK(parse_date_time("2026-11-28 12:04:44.5+01:00 x", 0, t, true) == 27);
  CHECK(epoch_ns(t) == 1795863884500000000);
  // date -u -d "2026-11-28T06:04:44-0500" +%s%N
  CHECK(parse_date_time("2026-11-28T06:04:44-0500", 0, t, false) == 24);
  CHECK(epoch_ns(t) == 1795863884000000000);
  // date -u -d "2014-06-25T12:34:56.789+0200" +%s%N (a ',' before the fraction, as some JVMs print it)
  CHECK(parse_date_time("2014-06-25T12:34:56,789+0200: 1.0", 0, t, false) == 28);
  CHECK(epoch_ns(t) == 1403692496789000000);
  // date -u -d "2024-02-29T23:59:59.123456789Z" +%s%N; digits past the ninth are read and dropped
  CHECK(parse_date_time("2024-02-29T23:59:59.123456789Z", 0, t, true) == 30);
  CHECK(epoch_ns(t) == 1709251199123456789);
  CHECK(parse_date_time("2024-02-29T23:59:59.123456789999Z", 0, t, true) == 33);
  CHECK(epoch_ns(t) == 1709251199123456789);
  // an hour-only offset is +05:00: date -u -d "2026-11-28T11:04:44+05:00" +%s%N
  CHECK(parse_date_time("2026-11-28T11:04:44+05 x", 0, t, true) == 22);
  CHECK(epoch_ns(t) == 1795845884000000000);
  // date -u -d "2000-03-01T00:00:00-00:30" +%s%N
  CHECK(parse_date_time("2000-03-01T00:00:00-00:30", 0, t, true) == 25);
  CHECK(epoch_ns(t) == 951870600000000000);
  // before the epoch: date -u -d "1969-12-31T23:59:59Z" +%s%N
  CHECK(parse_date_time("1969-12-31T23:59:59Z", 0, t, true) == 20);
  CHECK(epoch_ns(t) == -1000000000);
  CHECK(t.epoch_s == -1);
  // a leap second is the next minute's first: date -u -d "2017-01-01T00:00:00Z" +%s%N
  CHECK(parse_date_time("2016-12-31T23:59:60Z", 0, t, true) == 20);
  CHECK(epoch_ns(t) == 1483228800000000000);
  // at an offset into the text
  CHECK(parse_date_time("[2026-11-28T11:04:44Z][gc]", 1, t, false) == 20);
  CHECK(epoch_ns(t) == 1795863884000000000);
}

TEST_CASE("iso8601: what follows the seconds is read only when it is a fraction or a zone") {
  DateTime t;
  // date -u -d "2026-11-28T11:04:44Z" +%s is 1795863884
  for (const char* s : {"2026-11-28T11:04:44+x", "2026-11-28T11:04:44.", "2026-11-28T11:04:44+5",
                        "2026-11-28T11:04:44 Z", "2026-11-28T11:04:44+24:00"}) {
    CAPTURE(s);
    CHECK(parse_date_time(s, 0, t, true) == 19);
    CHECK(epoch_ns(t) == 1795863884000000000);
  }
}

TEST_CASE("iso8601: no date-time, and a space for the 'T' only when allowed") {
  DateTime t;
  for (const char* bad : {"2026-13-28T11:04:44", "2026-11-00T11:04:44", "2026-11-28T24:00:00", "2026-11-28T11:60:00",
                          "2026-11-28T11:04:61", "2026-11-28", "2026/11/28T11:04:44", "2026-11-28T11:04:4",
                          "11:04:44 x", "2O26-11-28T11:04:44", "2026-11-28x11:04:44"}) {
    CAPTURE(bad);
    CHECK(parse_date_time(bad, 0, t, true) == 0);
  }
  CHECK(parse_date_time("2026-11-28 11:04:44", 0, t, false) == 0);
  CHECK(parse_date_time("2026-11-28 11:04:44", 0, t, true) == 19);
  CHECK(parse_date_time("x2026-11-28T11:04:44", 3, t, true) == 0);
}
