// The bounded form of the pause series, used once a log has more pauses than the aggregator keeps
// one by one (GcAggregator::kExactPauses, option jvm_exact_pauses):
//
// - DurationHistogram: every pause duration at microsecond precision (what the report rounds to)
//   with its count and the earliest line showing it. Rounding is monotone, so the k-th smallest
//   rounded duration is the rounded k-th smallest duration: percentiles read from it equal the exact
//   mode's at the report's precision. Its size grows with the number of distinct durations, not
//   with the number of pauses.
// - PauseBucket: consecutive pauses of one member (at most GcAggregator::kMaxBuckets buckets,
//   merged pairwise like the event buckets): first/last time, count, total, min, max (and when the
//   longest happened), a sparse histogram of the durations in log-spaced bins, and per pause kind
//   and per cause tallies, so the view recomputes its tables, and approximate percentiles, for a
//   zoomed range.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace gcscope::jvm {

// Duration bins of the per-bucket histograms: 32 linear sub-bins per power of two of microseconds
// (the layout of HdrHistogram with 5 significant bits), each at most 1/32 = 3.1 % wide. Bin 0 is
// below 1 µs; bin 1 + 32 e + k covers [2^e (1 + k/32), 2^e (1 + (k+1)/32)) µs.
constexpr int kBinsPerOctave = 32;
constexpr int kMaxOctave = 48;  // 2^48 µs = 8.9 years: longer durations share the top bin

// Read from the double's bits: us = 2^e (1 + f), e = the exponent, k = the top 5 bits of f.
inline uint16_t duration_bin(double seconds) {
  const double us = seconds * 1e6;
  if (!(us >= 1.0)) return 0;  // also NaN
  uint64_t bits;
  std::memcpy(&bits, &us, sizeof bits);
  const int octave = static_cast<int>((bits >> 52) & 0x7FF) - 1023;
  if (octave >= kMaxOctave) return static_cast<uint16_t>(kMaxOctave * kBinsPerOctave);  // the top bin
  const int sub = static_cast<int>((bits >> 47) & (kBinsPerOctave - 1));
  return static_cast<uint16_t>(1 + octave * kBinsPerOctave + sub);
}

// Pause durations in microseconds → (count, earliest line), open addressing with linear probing.
// Pauses are added in batches: the parser streams megabytes through the caches between two pauses,
// so a slot is rarely cached; looking up a batch's slots first (prefetched) and then counting
// overlaps those misses instead of paying each in turn. Readers see the batch flushed.
class DurationHistogram {
 public:
  struct Entry {
    int64_t us = kEmpty;
    uint64_t count = 0;
    uint32_t first_line = 0;  // 0: no line (lines are saturated at 2^32-1, as the exact columns)
  };

  void add(int64_t us, uint32_t line) {
    pending_[npending_++] = {us, line};
    if (npending_ == kBatch) flush();
  }
  void merge(const DurationHistogram& o) {
    o.flush();
    flush();
    for (const Entry& e : o.slots_)
      if (e.us != kEmpty) insert(e.us, e.first_line, e.count);
  }
  size_t distinct() const {
    flush();
    return used_;
  }
  size_t bytes() const { return slots_.capacity() * sizeof(Entry); }
  // The entries in ascending duration.
  std::vector<Entry> sorted() const;

 private:
  static constexpr int64_t kEmpty = std::numeric_limits<int64_t>::min();
  static constexpr size_t kBatch = 32;
  size_t home(int64_t us) const {
    // Fibonacci hashing: the top bits of the product (durations of one log differ in their low bits).
    return static_cast<size_t>((static_cast<uint64_t>(us) * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void insert(int64_t us, uint32_t line, uint64_t n) const {
    if ((used_ + 1) * 4 > slots_.size() * 3) grow();
    const size_t mask = slots_.size() - 1;
    size_t i = home(us);
    while (slots_[i].us != kEmpty && slots_[i].us != us) i = (i + 1) & mask;
    Entry& e = slots_[i];
    if (e.us == kEmpty) e.us = us, ++used_;
    e.count += n;
    if (line && (!e.first_line || line < e.first_line)) e.first_line = line;
  }
  void flush() const {
    if (!npending_) return;
    if ((used_ + npending_) * 4 > slots_.size() * 3) grow();
    for (size_t k = 0; k < npending_; ++k) __builtin_prefetch(&slots_[home(pending_[k].first)]);
    for (size_t k = 0; k < npending_; ++k) insert(pending_[k].first, pending_[k].second, 1);
    npending_ = 0;
  }
  void grow() const;
  // Mutable: the const readers flush the pending batch first.
  mutable std::vector<Entry> slots_;
  mutable size_t used_ = 0;
  mutable int shift_ = 64;  // 64 - log2(slots)
  mutable std::pair<int64_t, uint32_t> pending_[kBatch];
  mutable size_t npending_ = 0;
};

// Per pause kind (phase-name index) or per cause (index, -1 none): count, total, max.
struct PauseTally {
  int32_t idx;
  uint32_t count;
  double total, max;
};

struct PauseBucket {
  double t_first = std::numeric_limits<double>::quiet_NaN(), t_last = t_first, t_max = t_first;
  double total = 0, min = std::numeric_limits<double>::infinity(), max = -std::numeric_limits<double>::infinity();
  uint64_t count = 0;
  uint32_t line = 0;  // the first pause's line (arrival order)
  uint32_t member = 0;
  // Counts of the bins hist_lo, hist_lo + 1, …: a dense window (a bucket's pauses span a few
  // octaves, so this is about as small as a sparse list, and an increment is one index). The report
  // lists the non-zero bins only.
  std::vector<uint32_t> hist;
  uint16_t hist_lo = 0;
  size_t hist_bins() const {
    size_t n = 0;
    for (uint32_t c : hist) n += c != 0;
    return n;
  }
  std::vector<PauseTally> kinds, causes;

  uint64_t n_events() const { return count; }
  void add(double t, double d, uint32_t name, int32_t cause, uint32_t line);
  void absorb(const PauseBucket& o);
  size_t bytes() const {
    return sizeof(*this) + hist.capacity() * sizeof(hist[0]) + (kinds.capacity() + causes.capacity()) * sizeof(PauseTally);
  }
};

}  // namespace gcscope::jvm
