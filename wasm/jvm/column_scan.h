// Reading the session's columns (aggregator.h) for a question: sequential block-wise reads and the
// rows of a time range.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "jvm/int_column.h"

namespace gcscope::jvm {

// Sequential reads of one column: each block of 256 values is decoded once.
class Reader {
 public:
  explicit Reader(const IntColumn& c) : c_(c) {}
  int64_t operator()(size_t i) {
    const size_t b = i - i % IntColumn::kBlock;
    if (b != at_) {
      c_.decode(b, std::min(b + IntColumn::kBlock, c_.size()), buf_);
      at_ = b;
    }
    return buf_[i - b];
  }

 private:
  const IntColumn& c_;
  size_t at_ = SIZE_MAX;
  int64_t buf_[IntColumn::kBlock];
};

// The first row whose time is >= v (> v when strict), in a stream in time order; rows without a
// time are passed over.
inline size_t first_from(const IntColumn& t, int64_t v, bool strict) {
  size_t lo = 0, hi = t.size();
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    size_t m = mid;
    while (m < hi && t[m] == IntColumn::kNull) ++m;
    if (m == hi) {
      hi = mid;
      continue;
    }
    const int64_t x = t[m];
    if (strict ? x > v : x >= v) hi = mid;
    else lo = m + 1;
  }
  return lo;
}

// The rows of one stream a question reads: [begin, end), and with a range, each row's time is
// tested (rows without a time are never in a range; a stream out of order is read whole).
struct Span {
  size_t begin = 0, end = 0;
  bool test = false;
  int64_t lo = 0, hi = 0;
  bool in(int64_t t) const { return !test || (t != IntColumn::kNull && t >= lo && t <= hi); }
};

inline Span span_of(const IntColumn& t, bool sorted, double t0, double t1) {
  Span s;
  s.end = t.size();
  if (std::isnan(t0) && std::isnan(t1)) return s;
  s.test = true;
  s.lo = std::isnan(t0) ? IntColumn::kNull + 1 : to_ns(t0);
  s.hi = std::isnan(t1) ? INT64_MAX : to_ns(t1);
  if (sorted) {
    s.begin = first_from(t, s.lo, false);
    s.end = first_from(t, s.hi, true);
    if (s.end < s.begin) s.end = s.begin;
  }
  return s;
}

}  // namespace gcscope::jvm
