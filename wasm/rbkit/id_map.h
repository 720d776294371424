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
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    size_t i = slot(id);
    while (slots_[i].val != kEmpty) {
      if (slots_[i].key == id) {
        uint32_t old = slots_[i].val;
        slots_[i].val = value;
        return old;
      }
      i = (i + 1) & mask_;
    }
    slots_[i].key = id;
    slots_[i].val = value;
    ++size_;
    return kEmpty;
  }

  // Removes; returns the value it had or kEmpty.
  uint32_t take(uint64_t id) {
    if (!size_) return kEmpty;
    size_t i = slot(id);
    while (slots_[i].val != kEmpty) {
      if (slots_[i].key == id) {
        uint32_t old = slots_[i].val;
        // Backward-shift: move later members of the probe run into the hole.
        size_t hole = i, j = i;
        for (;;) {
          j = (j + 1) & mask_;
          if (slots_[j].val == kEmpty) break;
          size_t home = slot(slots_[j].key);
          // j may fill the hole iff its home is not in (hole, j] cyclically.
          bool between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
          if (!between) {
            slots_[hole].key = slots_[j].key;
            slots_[hole].val = slots_[j].val;
            hole = j;
          }
        }
        slots_[hole].val = kEmpty;
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
    while (slots_[i].val != kEmpty) {
      if (slots_[i].key == id) return slots_[i].val;
      i = (i + 1) & mask_;
    }
    return kEmpty;
  }

  size_t size() const { return size_; }
  template <class F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].val != kEmpty) f(slots_[i].key, slots_[i].val);
  }

 private:
  size_t slot(uint64_t id) const {
    uint64_t h = id * 0x9E3779B97F4A7C15ull;  // Fibonacci hashing: ids are multiples of 8/20/40
    return static_cast<size_t>(h >> 32) & mask_;
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    size_t cap = old.empty() ? 1024 : old.size() * 2;
    slots_.assign(cap, Slot{0, kEmpty});
    mask_ = cap - 1;
    size_ = 0;
    for (const Slot& s : old)
      if (s.val != kEmpty) put(s.key, s.val);
  }

  // Key and value side by side: one cache line per probe (the table outgrows the caches quickly).
  struct Slot {
    uint64_t key;
    uint32_t val;
  };
  std::vector<Slot> slots_;
  size_t mask_ = 0, size_ = 0;
};

}  // namespace gcscope::rbkit
