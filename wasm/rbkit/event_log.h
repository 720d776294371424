// EventLog: one compact record per accepted rbkit event, in the capture's order: what the
// `rbkit_events` table (rbkit/tables.cpp) reads back, one row per record, never holding the rows.
//
// A record is a head byte — the event type (bits 0-3), "time as a raw double" (bit 4), "object id"
// (bit 5), "class" (bit 6), "more" (bit 7) — then the time, the object id, the class and, with
// "more", a flags varint (1 correlation_id, 2 count) followed by those values. Times are differences
// from the previous record's time (whole milliseconds, rbkit's own stamps, as zigzag varints; any
// time the difference does not give back exactly as the raw double), object ids wrapped differences
// from the previous record's id (zigzag varints: Ruby's sequential ids take a byte or two), classes
// their StringTable index. Decoding the records in order gives back every value exactly.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

namespace gcscope::rbkit {

class EventLog {
 public:
  struct Event {
    int type = 0;  // 0..15 (rbkit's event types are 0..9)
    double ts_ms = 0;
    bool has_id = false;
    uint64_t id = 0;
    uint32_t cls = 0;  // 0 = no class
    bool has_corr = false;
    uint64_t corr = 0;
    bool has_count = false;
    uint64_t count = 0;  // object_space_dump: objects in the chunk; cpu_sample: frames
  };

  void add(const Event& e) {
    uint8_t head = static_cast<uint8_t>(e.type & 15);
    const double delta = e.ts_ms - last_ts_;
    const bool whole = delta >= -9e15 && delta <= 9e15 && delta == static_cast<double>(static_cast<int64_t>(delta)) &&
                       last_ts_ + static_cast<double>(static_cast<int64_t>(delta)) == e.ts_ms;
    if (!whole) head |= 16;
    if (e.has_id) head |= 32;
    if (e.cls) head |= 64;
    const bool more = e.has_corr || e.has_count;
    if (more) head |= 128;
    bytes_.push_back(static_cast<char>(head));
    if (whole) {
      put_signed(static_cast<int64_t>(delta));
    } else {
      char raw[8];
      std::memcpy(raw, &e.ts_ms, 8);
      bytes_.append(raw, 8);
    }
    last_ts_ = e.ts_ms;
    if (e.has_id) {
      put_signed(static_cast<int64_t>(e.id - last_id_));
      last_id_ = e.id;
    }
    if (e.cls) put(e.cls);
    if (more) {
      put((e.has_corr ? 1u : 0u) | (e.has_count ? 2u : 0u));
      if (e.has_corr) put(e.corr);
      if (e.has_count) put(e.count);
    }
    ++size_;
  }

  // f(const Event&) for every record, in the order they were added.
  template <typename F>
  void for_each(F&& f) const {
    const char* p = bytes_.data();
    const char* end = p + bytes_.size();
    double ts = 0;
    uint64_t id = 0;
    while (p < end) {
      Event e;
      const uint8_t head = static_cast<uint8_t>(*p++);
      e.type = head & 15;
      if (head & 16) {
        std::memcpy(&ts, p, 8);
        p += 8;
      } else {
        ts += static_cast<double>(get_signed(p));
      }
      e.ts_ms = ts;
      if (head & 32) {
        id += static_cast<uint64_t>(get_signed(p));
        e.has_id = true;
        e.id = id;
      }
      if (head & 64) e.cls = static_cast<uint32_t>(get(p));
      if (head & 128) {
        const uint64_t flags = get(p);
        if (flags & 1) e.has_corr = true, e.corr = get(p);
        if (flags & 2) e.has_count = true, e.count = get(p);
      }
      f(static_cast<const Event&>(e));
    }
  }

  uint64_t size() const { return size_; }
  size_t bytes() const { return bytes_.size(); }  // the records' length

 private:
  void put(uint64_t v) {
    while (v >= 128) {
      bytes_.push_back(static_cast<char>((v & 127) | 128));
      v >>= 7;
    }
    bytes_.push_back(static_cast<char>(v));
  }
  void put_signed(int64_t v) { put((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  static uint64_t get(const char*& p) {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const uint8_t b = static_cast<uint8_t>(*p++);
      v |= static_cast<uint64_t>(b & 127) << shift;
      if (!(b & 128)) return v;
    }
  }
  static int64_t get_signed(const char*& p) {
    const uint64_t z = get(p);
    return static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1);
  }

  std::string bytes_;
  double last_ts_ = 0;
  uint64_t last_id_ = 0;
  uint64_t size_ = 0;
};

}  // namespace gcscope::rbkit
