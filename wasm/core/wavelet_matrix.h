// WaveletMatrix: the k-th smallest value of any range of positions of a fixed sequence, in one
// step per bit of the values (no copy, no sort at question time). The sequence holds codes in
// [0, 2^bits) — ranks of distinct values, so that quantiles of a range of rows of a column come
// out exactly: the code is looked up in the sorted distinct values.
//
// Level l holds, for the sequence as the levels above left it (stably split by their bits, zeros
// first), bit (bits - 1 - l) of each code; a position's code goes to the zeros or the ones of the
// next level, so a range of positions stays a range on every level.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gcscope {

class WaveletMatrix {
 public:
  WaveletMatrix() = default;
  WaveletMatrix(const std::vector<uint32_t>& codes, unsigned bits) : size_(codes.size()) {
    std::vector<uint32_t> now = codes, next(codes.size());
    levels_.resize(bits);
    for (unsigned l = 0; l < bits; ++l) {
      const unsigned shift = bits - 1 - l;
      Level& level = levels_[l];
      level.words.assign(size_ / 64 + 1, 0);
      size_t zeros = 0;
      for (size_t i = 0; i < size_; ++i) {
        if ((now[i] >> shift) & 1) level.words[i / 64] |= uint64_t{1} << (i % 64);
        else ++zeros;
      }
      level.zeros = zeros;
      level.ones_before.resize(level.words.size());
      uint32_t ones = 0;
      for (size_t w = 0; w < level.words.size(); ++w) {
        level.ones_before[w] = ones;
        ones += static_cast<uint32_t>(__builtin_popcountll(level.words[w]));
      }
      size_t z = 0, o = zeros;
      for (size_t i = 0; i < size_; ++i) ((now[i] >> shift) & 1 ? next[o++] : next[z++]) = now[i];
      now.swap(next);
    }
  }

  size_t size() const { return size_; }

  // The k-th smallest code (k from 0) among positions [begin, end); k < end - begin.
  uint32_t kth_smallest(size_t begin, size_t end, size_t k) const {
    uint32_t code = 0;
    for (const Level& level : levels_) {
      const size_t zeros_begin = level.zeros_before(begin), zeros_end = level.zeros_before(end);
      const size_t zeros = zeros_end - zeros_begin;
      code <<= 1;
      if (k < zeros) {
        begin = zeros_begin, end = zeros_end;
      } else {
        k -= zeros, code |= 1;
        begin = level.zeros + (begin - zeros_begin), end = level.zeros + (end - zeros_end);
      }
    }
    return code;
  }

  size_t bytes() const {
    size_t n = 0;
    for (const Level& l : levels_) n += l.words.size() * 8 + l.ones_before.size() * 4;
    return n;
  }

 private:
  struct Level {
    std::vector<uint64_t> words;        // bit i: the level's bit of the code at position i
    std::vector<uint32_t> ones_before;  // set bits in the words before each word
    size_t zeros = 0;                   // positions whose bit is 0 (they come first on the next level)
    size_t zeros_before(size_t i) const {
      const uint64_t below = i % 64 ? words[i / 64] << (64 - i % 64) : 0;
      return i - ones_before[i / 64] - static_cast<size_t>(__builtin_popcountll(below));
    }
  };
  std::vector<Level> levels_;
  size_t size_ = 0;
};

}  // namespace gcscope
