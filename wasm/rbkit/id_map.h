// Open-addressing hash map from 64-bit object ids to a 32-bit value (a class index), with linear
// probing and backward-shift deletion. The live set of a capture churns (every obj_created inserts,
// every obj_destroyed erases), so a node-based std::unordered_map would allocate per event.
#pragma once
#include <cstdint>
#include <vector>

namespace gcscope::rbkit {

class IdMap {
 public:
  static constexpr uint32_t kEmpty = UINT32_MAX;

  // Inserts or overwrites; returns the previous value or kEmpty.
  uint32_t put(uint64_t id, uint32_t value) {
    if ((size_ + 1) * 4 > vals_.size() * 3) grow();
    size_t i = slot(id);
    while (vals_[i] != kEmpty) {
      if (keys_[i] == id) {
        uint32_t old = vals_[i];
        vals_[i] = value;
        return old;
      }
      i = (i + 1) & mask_;
    }
    keys_[i] = id;
    vals_[i] = value;
    ++size_;
    return kEmpty;
  }

  // Removes; returns the value it had or kEmpty.
  uint32_t take(uint64_t id) {
    if (!size_) return kEmpty;
    size_t i = slot(id);
    while (vals_[i] != kEmpty) {
      if (keys_[i] == id) {
        uint32_t old = vals_[i];
        // Backward-shift: move later members of the probe run into the hole.
        size_t hole = i, j = i;
        for (;;) {
          j = (j + 1) & mask_;
          if (vals_[j] == kEmpty) break;
          size_t home = slot(keys_[j]);
          // j may fill the hole iff its home is not in (hole, j] cyclically.
          bool between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
          if (!between) {
            keys_[hole] = keys_[j];
            vals_[hole] = vals_[j];
            hole = j;
          }
        }
        vals_[hole] = kEmpty;
        --size_;
        return old;
      }
      i = (i + 1) & mask_;
    }
    return kEmpty;
  }

  uint32_t get(uint64_t id) const {
    if (!size_) return kEmpty;
    size_t i = slot(id);
    while (vals_[i] != kEmpty) {
      if (keys_[i] == id) return vals_[i];
      i = (i + 1) & mask_;
    }
    return kEmpty;
  }

  size_t size() const { return size_; }
  template <class F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < vals_.size(); ++i)
      if (vals_[i] != kEmpty) f(keys_[i], vals_[i]);
  }

 private:
  size_t slot(uint64_t id) const {
    uint64_t h = id * 0x9E3779B97F4A7C15ull;  // Fibonacci hashing: ids are multiples of 8/20/40
    return static_cast<size_t>(h >> 32) & mask_;
  }
  void grow() {
    std::vector<uint64_t> keys;
    std::vector<uint32_t> vals;
    keys.swap(keys_);
    vals.swap(vals_);
    size_t cap = vals.empty() ? 1024 : vals.size() * 2;
    keys_.assign(cap, 0);
    vals_.assign(cap, kEmpty);
    mask_ = cap - 1;
    size_ = 0;
    for (size_t i = 0; i < vals.size(); ++i)
      if (vals[i] != kEmpty) put(keys[i], vals[i]);
  }

  std::vector<uint64_t> keys_;
  std::vector<uint32_t> vals_;
  size_t mask_ = 0, size_ = 0;
};

}  // namespace gcscope::rbkit
