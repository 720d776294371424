// IntColumn: a column of 64-bit integers (or nulls) held compactly and read back exactly. Values
// come in blocks of 256; a full block keeps its smallest value, a common divisor of the differences
// to it (the "step") and each value's code (difference / step) in as many bits as the largest code
// needs. GC logs print their figures on a grid (heap sizes in M, times in ms or µs,
// region counts times the region size), so the heap sizes or times of 256 consecutive events take
// 8-20 bits each instead of 64. The last, partial block stays as plain values until it fills.
//
// Times and durations are kept as integer nanoseconds (to_ns/seconds): every decoration and every
// duration a JVM prints (ms, µs, 0.1 µs, ns) is a whole number of them, so they read back as printed.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gcscope::jvm {

class ExactDivisor;

class IntColumn {
 public:
  static constexpr int64_t kNull = INT64_MIN;
  static constexpr size_t kBlock = 256;

  IntColumn() = default;
  IntColumn(IntColumn&&) noexcept = default;
  IntColumn& operator=(IntColumn&&) noexcept = default;
  // A copy holds the same values in words of its own.
  IntColumn(const IntColumn& other) { *this = other; }
  IntColumn& operator=(const IntColumn& other);

  void push(int64_t v) {
    if (!tail_) tail_.reset(new int64_t[kBlock]);
    tail_[size_ % kBlock] = v;
    if (++size_ % kBlock == 0) seal_tail();
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Value i, or kNull.
  int64_t operator[](size_t i) const {
    const size_t b = i / kBlock;
    if (b == blocks_.size()) return tail_[i % kBlock];
    return code_value(blocks_[b], i % kBlock);
  }
  // Values [begin, end) into out[0 .. end - begin).
  void decode(size_t begin, size_t end, int64_t* out) const;
  // Whether any value is not null.
  bool any_value() const;
  // Appends every value of `other`, in order.
  void append(const IntColumn& other);
  // Bytes held (packed words, block headers, the partial block).
  size_t bytes() const;

 private:
  struct Block {
    int64_t base;        // smallest non-null value
    uint64_t step;       // gcd of the differences to base (1 when they are all 0)
    uint64_t null_code;  // the code that stands for null (one past the largest value's code)
    uint64_t word;       // first word of the codes, in words_ (see word_at)
    uint8_t bits;        // bits per code
  };
  static constexpr size_t kChunkWords = 8192;  // 64 KiB

  void seal_tail();
  uint64_t block_gcd(int64_t lo) const;
  bool pack(Block& b, const ExactDivisor& div, uint64_t max_code);
  int64_t code_value(const Block& b, size_t j) const {
    uint64_t code = read_code(b, j);
    if (code == b.null_code) return kNull;
    return static_cast<int64_t>(static_cast<uint64_t>(b.base) + code * b.step);
  }
  uint64_t read_code(const Block& b, size_t j) const {
    if (b.bits == 0) return 0;
    const uint64_t pos = static_cast<uint64_t>(j) * b.bits;
    const uint64_t* w = word_at(b.word) + pos / 64;
    const unsigned off = pos % 64;
    const uint64_t v = (w[0] >> off) | ((w[1] << 1) << (63 - off));  // blocks have a spare word at their end
    return b.bits == 64 ? v : v & ((uint64_t{1} << b.bits) - 1);
  }
  const uint64_t* word_at(uint64_t word) const {
    if (word < kChunkWords) return head_.data() + word;
    return chunks_[word / kChunkWords - 1].get() + word % kChunkWords;
  }
  // Room for `n` contiguous words; returns the index of the first.
  uint64_t allocate_words(size_t n);

  std::vector<Block> blocks_;
  // Packed words: the first 64 KiB in a vector (small logs pay for what they hold), then fixed
  // chunks of 64 KiB (no doubling, no copy of what is already there). A block never straddles two.
  std::vector<uint64_t> head_;
  std::vector<std::unique_ptr<uint64_t[]>> chunks_;
  uint64_t next_word_ = 0;
  std::unique_ptr<int64_t[]> tail_;  // the partial block: values [blocks_.size() * kBlock, size_)
  size_t size_ = 0;
  uint64_t step_ = 1;  // the last block's step
};

// Seconds as integer nanoseconds (kNull for NaN); corrupt stamps beyond ±9·10^9 s are clamped so
// that the arithmetic on them cannot overflow.
inline int64_t to_ns(double seconds) {
  if (std::isnan(seconds)) return IntColumn::kNull;
  constexpr double kMax = 9e9;
  const double ns = (seconds > kMax ? kMax : seconds < -kMax ? -kMax : seconds) * 1e9;
  return ns >= 0 ? static_cast<int64_t>(ns + 0.5) : -static_cast<int64_t>(0.5 - ns);  // to nearest, halves away from 0
}
inline double seconds(int64_t ns) { return ns == IntColumn::kNull ? NAN : static_cast<double>(ns) / 1e9; }

}  // namespace gcscope::jvm
