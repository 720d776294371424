// The timeline of one input (query method "timeline.series", answered by every format that lists
// it): the input's time series over a range, in one shape for all formats, so the page draws every
// open job on one time axis. Bands are intervals (JVM pauses, Ruby GC cycles); lines are values over
// time (a tracing probe's latency, an allocation rate).
//
// Times are seconds of the answer's clock: "epoch" (Unix-epoch seconds) when the input carries
// wall-clock time, else "own" (the input's own clock, named by clock_name: JVM uptime, nsecs since
// boot). The answer is bounded: a series with more than two items per pixel column of `width` is
// merged per column (a band then spans its column's first start to its last end and counts its
// items; a line point holds its column's maximum, or for a rate its column's total per second).
//
// {clock, clock_name, t0, t1, width, series: [
//   {name, kind: "bands", unit, merged, start: [], end: [], count: [], max: [], totals: {count, total, max}}
//   {name, kind: "line", unit, merged, t: [], value: [], totals: {count, max} | {count, total}}]}
// `totals` are exact over the range (not merged): items whose start falls in [t0, t1].
#pragma once
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gcscope::timeline {

inline constexpr const char* kMethod = "timeline.series";

// The asked range: t0, t1 (NaN when not asked: the data's extent) and width (1..20000, default 1000).
struct Range {
  double t0 = NAN, t1 = NAN;
  int width = 1000;
  // t0 and t1 filled from [lo, hi] where not asked; an empty extent stays NaN.
  void default_to(double lo, double hi);
  bool contains(double t) const { return t >= t0 && t <= t1; }
};
Range range_of(const nlohmann::json& args);

// Items added in time order or not, each kept only when its start is in the range.
class Bands {
 public:
  Bands(std::string name, std::string unit, const Range& range)
      : name_(std::move(name)), unit_(std::move(unit)), r_(range) {}
  // An interval from `start` lasting `duration` seconds; `value` (in unit) is what max reports.
  // `items`: how many items the interval holds (a Ruby payload sees several GCs between two samples).
  void add(double start, double duration, double value, uint64_t items = 1);
  nlohmann::json take();

 private:
  struct Item {
    double start, end, max;
    uint64_t count;
  };
  void merge_all();
  std::string name_, unit_;
  Range r_;
  std::vector<Item> items_;
  bool merged_ = false;
  uint64_t count_ = 0;
  double total_ = 0, max_ = NAN;
};

// Points of a value over time. kMax: the value itself (latency), a merged point its column's maximum.
// kRate: a count over a bin of bin_s seconds (allocations), drawn as count per second.
class Line {
 public:
  enum class Kind { kMax, kRate };
  Line(std::string name, std::string unit, Kind kind, const Range& range)
      : name_(std::move(name)), unit_(std::move(unit)), kind_(kind), r_(range) {}
  void add(double t, double value, double bin_s = 1);
  nlohmann::json take();

 private:
  struct Point {
    double t, value;  // a kRate point's value is its count
    double bin_s;
  };
  void merge_all();
  std::string name_, unit_;
  Kind kind_;
  Range r_;
  std::vector<Point> points_;
  bool merged_ = false;
  uint64_t count_ = 0;
  double total_ = 0, max_ = NAN;
};

// The answer around its series.
nlohmann::json answer(const std::string& clock, const std::string& clock_name, const Range& range,
                      nlohmann::json series);

}  // namespace gcscope::timeline
