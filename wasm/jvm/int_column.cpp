#include "jvm/int_column.h"

#include <algorithm>
#include <numeric>

namespace gcscope::jvm {

IntColumn& IntColumn::operator=(const IntColumn& o) {
  if (this == &o) return *this;
  blocks_ = o.blocks_;
  head_ = o.head_;
  chunks_.clear();
  for (const auto& chunk : o.chunks_) {
    chunks_.emplace_back(new uint64_t[kChunkWords]);
    std::copy(chunk.get(), chunk.get() + kChunkWords, chunks_.back().get());
  }
  next_word_ = o.next_word_;
  tail_.reset();
  if (o.tail_) {
    tail_.reset(new int64_t[kBlock]);
    std::copy(o.tail_.get(), o.tail_.get() + o.size_ % kBlock, tail_.get());  // the values held
  }
  size_ = o.size_;
  step_ = o.step_;
  return *this;
}

namespace {

unsigned bit_width(uint64_t v) { return v ? 64 - static_cast<unsigned>(__builtin_clzll(v)) : 0; }

}  // namespace

// Division by a fixed d of numbers that are multiples of it, without a divide instruction (tens of
// cycles for 64 bits): with d = odd * 2^shift, x / d = (x >> shift) * inverse(odd) mod 2^64 when d
// divides x. Multiplying the quotient back by d only checks the 2^shift part (q * odd is x >> shift
// mod 2^64 for any x); d divides an x <= limit exactly when also q <= limit / d, since then q * odd
// cannot wrap around.
class ExactDivisor {
 public:
  explicit ExactDivisor(uint64_t d) : shift_(static_cast<unsigned>(__builtin_ctzll(d))) {
    const uint64_t odd = d >> shift_;
    inverse_ = odd;  // correct to 3 bits; each Newton step doubles them
    for (int i = 0; i < 5; ++i) inverse_ *= 2 - odd * inverse_;
  }
  uint64_t quotient(uint64_t x) const { return (x >> shift_) * inverse_; }

 private:
  unsigned shift_;
  uint64_t inverse_;
};

uint64_t IntColumn::allocate_words(size_t n) {
  // Word space: [0, kChunkWords) is head_, chunk k is [(k + 1) kChunkWords, (k + 2) kChunkWords).
  const uint64_t region_end = (next_word_ / kChunkWords + 1) * kChunkWords;
  if (next_word_ + n > region_end) next_word_ = region_end;
  const uint64_t region = next_word_ / kChunkWords;
  if (region == 0) {
    if (head_.size() < next_word_ + n)
      head_.resize(std::max<size_t>(next_word_ + n, std::min(kChunkWords, head_.size() * 2)));
  } else if (chunks_.size() < region) {
    chunks_.emplace_back(new uint64_t[kChunkWords]);
  }
  const uint64_t at = next_word_;
  next_word_ += n;
  return at;
}

// The step of a block: the gcd of its values' differences to the smallest (1 when they are equal).
uint64_t IntColumn::block_gcd(int64_t lo) const {
  uint64_t g = 0;
  for (size_t j = 0; j < kBlock; ++j) {
    if (tail_[j] == kNull) continue;
    const uint64_t d = static_cast<uint64_t>(tail_[j]) - static_cast<uint64_t>(lo);
    if (d && g != 1 && (!g || d % g)) g = std::gcd(g, d);
  }
  return g ? g : 1;
}

void IntColumn::seal_tail() {
  const int64_t* tail = tail_.get();
  Block b{0, 1, 0, 0, 0};
  size_t nulls = 0;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (size_t j = 0; j < kBlock; ++j) {
    const int64_t v = tail[j];
    nulls += v == kNull;
    lo = std::min(lo, v == kNull ? INT64_MAX : v);
    hi = std::max(hi, v);  // kNull is the smallest int64
  }
  if (nulls == kBlock) {  // a figure the log does not print: no codes, null is code 0
    blocks_.push_back(b);
    return;
  }
  // The step: a column's figures stay on one grid, so the previous block's step is kept while it
  // divides every difference (checked as the codes are written); the gcd of the differences is
  // computed when it does not, and every 16th block (a grid may become coarser than the first one).
  const auto base = static_cast<uint64_t>(lo);
  const uint64_t range = static_cast<uint64_t>(hi) - base;
  if (blocks_.size() % 16 == 0 || range % step_) step_ = block_gcd(lo);
  b.base = lo;
  for (;;) {
    b.step = step_;
    const ExactDivisor div(step_);
    const uint64_t max_code = div.quotient(range);
    b.null_code = nulls ? max_code + 1 : UINT64_MAX;
    b.bits = static_cast<uint8_t>(bit_width(nulls ? b.null_code : max_code));
    if (!b.bits || pack(b, div, max_code)) break;
    step_ = block_gcd(lo);  // the kept step did not divide a difference
  }
  blocks_.push_back(b);
}

// Writes the codes of the partial block (LSB first, a word stored once it is full, one spare word
// at the end so that a reader takes two words for any code without testing whether it crosses into
// the second). False, with nothing kept, when the step does not divide a difference (the largest
// true code is max_code).
bool IntColumn::pack(Block& b, const ExactDivisor& div, uint64_t max_code) {
  const unsigned bits = b.bits;
  const size_t words = (kBlock * bits + 63) / 64 + 1;
  const uint64_t save = next_word_;
  b.word = allocate_words(words);
  uint64_t* w = const_cast<uint64_t*>(word_at(b.word));
  const auto base = static_cast<uint64_t>(b.base);
  uint64_t acc = 0;
  unsigned filled = 0;
  bool exact = true;
  for (size_t j = 0; j < kBlock; ++j) {
    const int64_t v = tail_[j];
    const uint64_t d = static_cast<uint64_t>(v) - base;
    uint64_t code = div.quotient(d);
    exact &= v == kNull || (code * b.step == d && code <= max_code);
    code = v == kNull ? b.null_code : code;
    acc |= code << filled;
    filled += bits;
    if (filled >= 64) {
      *w++ = acc;
      filled -= 64;
      acc = filled ? code >> (bits - filled) : 0;
    }
  }
  if (filled) *w++ = acc;
  *w = 0;
  if (!exact) next_word_ = save;
  return exact;
}

void IntColumn::decode(size_t begin, size_t end, int64_t* out) const {
  for (size_t i = begin; i < end;) {
    const size_t bi = i / kBlock, j0 = i % kBlock;
    const size_t stop = std::min(end - i, kBlock - j0);
    if (bi == blocks_.size()) {
      std::copy(tail_.get() + j0, tail_.get() + j0 + stop, out);
    } else {
      const Block& b = blocks_[bi];
      if (b.bits == 0) {
        std::fill(out, out + stop, b.null_code == 0 ? kNull : b.base);
      } else {
        // Codes in order, each read from the word it starts in and the next.
        const uint64_t* w = word_at(b.word);
        const unsigned bits = b.bits;
        const uint64_t mask = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
        const auto base = static_cast<uint64_t>(b.base);
        const uint64_t step = b.step, null_code = b.null_code;
        const uint64_t start = static_cast<uint64_t>(j0) * bits;
        w += start / 64;
        unsigned off = start % 64;
        for (size_t j = 0; j < stop; ++j) {
          const uint64_t code = ((w[0] >> off) | ((w[1] << 1) << (63 - off))) & mask;
          off += bits;
          w += off / 64;
          off %= 64;
          out[j] = code == null_code ? kNull : static_cast<int64_t>(base + code * step);
        }
      }
    }
    out += stop;
    i += stop;
  }
}

void IntColumn::append(const IntColumn& other) {
  int64_t buf[kBlock];
  for (size_t i = 0; i < other.size_; i += kBlock) {
    const size_t n = std::min(kBlock, other.size_ - i);
    other.decode(i, i + n, buf);
    for (size_t j = 0; j < n; ++j) push(buf[j]);
  }
}

bool IntColumn::any_value() const {
  for (const Block& b : blocks_)
    if (b.null_code != 0) return true;  // an all-null block codes null as 0
  for (size_t i = blocks_.size() * kBlock; i < size_; ++i)
    if (tail_[i % kBlock] != kNull) return true;
  return false;
}

size_t IntColumn::bytes() const {
  return blocks_.capacity() * sizeof(Block) + head_.capacity() * sizeof(uint64_t) +
         chunks_.size() * kChunkWords * sizeof(uint64_t) + (tail_ ? kBlock * sizeof(int64_t) : 0);
}

}  // namespace gcscope::jvm
