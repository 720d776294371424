// A streaming msgpack tokenizer: bytes in arbitrary chunks → a flat sequence of tokens (scalars,
// "array of n" / "map of n" headers). It keeps no container stack, so nesting depth costs it nothing;
// the consumer (the Sink) tracks structure and decides how deep it lets things go.
//
// Why a tokenizer and not a value decoder: an rbkit capture is a concatenation of messages of any
// size (one event_collection can carry a 19985-object heap dump), and hostile files declare 4 GiB
// strings or 2^31-element arrays. Declared lengths are only ever compared with the bytes present:
// a string is handed over as a view into the caller's chunk when it is complete there, otherwise its
// bytes are gathered as they arrive, keeping at most kMaxKeptStringBytes of them.
//
// Both msgpack generations are accepted: the old spec's raw family (fixraw 0xa0-0xbf, raw16 0xda,
// raw32 0xdb — what rbkit servers built against msgpack-c 0.5.x emit) is the new str family; str8
// (0xd9), bin (0xc4-0xc6) and ext (0xc7-0xc9, 0xd4-0xd8) are decoded as well.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <algorithm>
#include <string_view>

namespace gcscope::rbkit {

enum class Tok : uint8_t { Nil, False, True, UInt, NegInt, Float, Str, Bin, Ext, Array, Map, Unused };

struct Token {
  Tok kind = Tok::Nil;
  int8_t ext_type = 0;
  bool clipped = false;    // Str/Bin/Ext longer than kMaxKeptStringBytes: `bytes` is a prefix
  uint64_t u = 0;          // UInt value; Array/Map: declared element count; Str/Bin/Ext: declared length
  int64_t i = 0;           // NegInt value
  double f = 0;            // Float (float32 widened)
  std::string_view bytes;  // Str/Bin/Ext payload
  uint64_t offset = 0;     // offset of the token's first byte in the member
};

inline constexpr size_t kMaxKeptStringBytes = 1 << 20;

inline uint16_t load_be16(const uint8_t* p) { return static_cast<uint16_t>((p[0] << 8) | p[1]); }
inline uint32_t load_be32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}
inline uint64_t load_be64(const uint8_t* p) { return (uint64_t(load_be32(p)) << 32) | load_be32(p + 4); }

// Sink interface (duck-typed, called inline):
//   void on_token(const Token&);
//   void on_resync(uint64_t offset, uint64_t skipped);   // resynchronised at `offset`
// The sink may call MsgpackStream::resync() from on_token() to abandon the current message: the
// stream then skips bytes until something that looks like the start of an rbkit message.
template <class Sink>
class MsgpackStream {
 public:
  explicit MsgpackStream(Sink& sink) : sink_(sink) {}

  void feed(const char* data, size_t len) {
    const auto* p = reinterpret_cast<const uint8_t*>(data);
    size_t n = len;
    while (n) {
      if (pending_) {
        size_t take = static_cast<size_t>(std::min<uint64_t>(n, pending_left_));
        keep(p, take);
        p += take;
        n -= take;
        pos_ += take;
        pending_left_ -= take;
        if (pending_left_ == 0) emit_pending();
        continue;
      }
      if (resyncing_) {
        scan_for_start(p, n);
        continue;
      }
      if (!carry_.empty()) {
        drain_carry(p, n);
        continue;
      }
      size_t used = decode(p, n, pos_);
      if (used == 0) {
        carry_.assign(reinterpret_cast<const char*>(p), n);
        carry_off_ = pos_;
        pos_ += n;
        return;
      }
      p += used;
      n -= used;
      pos_ += used;
    }
  }

  // Abandon the current message: skip to the next plausible message start.
  void resync() {
    resyncing_ = true;
    pending_ = false;
    carry_.clear();
    match_ = 0;
    resync_from_ = pos_;
  }

  // True when the input ended inside a token (a header, a fixed-size value or a string).
  bool inside_token() const { return !resyncing_ && (pending_ || !carry_.empty()); }
  bool resyncing() const { return resyncing_; }
  uint64_t resync_from() const { return resync_from_; }
  uint64_t position() const { return pos_; }
  // Where the unfinished token began and how many string bytes it still lacks.
  uint64_t open_token_offset() const { return pending_ ? pend_off_ : carry_off_; }
  uint64_t pending_missing() const { return pending_ ? pending_left_ : 0; }
  uint64_t pending_declared() const { return pending_ ? pend_declared_ : 0; }

 private:
  // rbkit messages start with a fixmap whose first key is 0 (event_type) holding a small type:
  // 0x81-0x8f 0x00 0x00-0x0f. A byte-wise matcher, so a start cut by a chunk boundary is found too;
  // on a match the three bytes are put back (carry_) and decoding resumes there.
  void scan_for_start(const uint8_t*& p, size_t& n) {
    size_t i = 0;
    for (; i < n; ++i) {
      const uint8_t b = p[i];
      if (match_ == 2 && b <= 0x0f) {
        ++i;
        resyncing_ = false;
        carry_.assign({static_cast<char>(match_map_), '\0', static_cast<char>(b)});
        carry_off_ = match_off_;
        match_ = 0;
        pos_ += i;
        p += i;
        n -= i;
        sink_.on_resync(carry_off_, carry_off_ - resync_from_);
        return;
      }
      if (match_ == 1 && b == 0x00) {
        match_ = 2;
      } else if (b >= 0x81 && b <= 0x8f) {
        match_ = 1;
        match_map_ = b;
        match_off_ = pos_ + i;
      } else {
        match_ = 0;
      }
    }
    pos_ += n;
    p += n;
    n = 0;
  }

  // Completes the token(s) whose first bytes sit in carry_ with bytes from p.
  void drain_carry(const uint8_t*& p, size_t& n) {
    while (!carry_.empty() && !resyncing_ && !pending_) {
      size_t old = carry_.size();
      size_t add = std::min<size_t>(n, old < 9 ? 9 - old : 0);
      carry_.append(reinterpret_cast<const char*>(p), add);
      size_t used = decode(reinterpret_cast<const uint8_t*>(carry_.data()), carry_.size(), carry_off_);
      if (used == 0) {  // still cut: n was smaller than what the header needs
        p += add;
        n -= add;
        pos_ += add;
        return;
      }
      if (used >= old) {
        size_t from_new = used - old;
        carry_.clear();
        p += from_new;
        n -= from_new;
        pos_ += from_new;
      } else {
        carry_.resize(old);
        carry_.erase(0, used);
        carry_off_ += used;
      }
    }
    if (resyncing_) carry_.clear();
  }

  void keep(const uint8_t* p, size_t len) {
    size_t room = kMaxKeptStringBytes > buf_.size() ? kMaxKeptStringBytes - buf_.size() : 0;
    buf_.append(reinterpret_cast<const char*>(p), std::min(room, len));
  }

  void emit_pending() {
    pending_ = false;
    emit_bytes(pend_kind_, pend_ext_, pend_declared_, pend_off_, std::string_view(buf_));
  }

  // One str/bin/ext token; `bytes` is shorter than `declared` only when kept bytes were clipped.
  void emit_bytes(Tok kind, int8_t ext, uint64_t declared, uint64_t off, std::string_view bytes) {
    Token t;
    t.kind = kind;
    t.ext_type = ext;
    t.u = declared;
    t.offset = off;
    t.bytes = bytes;
    t.clipped = declared > bytes.size();
    sink_.on_token(t);
  }

  // Bytes-carrying value (str/bin/ext) of `len` bytes after an `hdr`-byte header.
  size_t bytes_value(const uint8_t* p, size_t n, uint64_t off, Tok kind, size_t hdr, uint64_t len, int8_t ext = 0) {
    if (n - hdr >= len) {
      emit_bytes(kind, ext, len, off,
                 std::string_view(reinterpret_cast<const char*>(p + hdr), static_cast<size_t>(len)));
      return hdr + static_cast<size_t>(len);
    }
    // Incomplete here: gather what is present, never reserve by the declared length.
    pending_ = true;
    pend_kind_ = kind;
    pend_ext_ = ext;
    pend_off_ = off;
    pend_declared_ = len;
    buf_.clear();
    keep(p + hdr, n - hdr);
    pending_left_ = len - (n - hdr);
    return n;
  }

  // One fixed-size token (scalar, negative integer, float or container header) of `used` bytes.
  size_t emit(Tok kind, uint64_t off, size_t used, uint64_t u = 0, int64_t i = 0, double f = 0) {
    Token t;
    t.kind = kind;
    t.u = u;
    t.i = i;
    t.f = f;
    t.offset = off;
    sink_.on_token(t);
    return used;
  }
  size_t scalar(Tok kind, uint64_t u, size_t used, uint64_t off) { return emit(kind, off, used, u); }
  size_t negint(int64_t i, size_t used, uint64_t off) { return emit(Tok::NegInt, off, used, 0, i); }
  // float32 (0xca) and float64 (0xcb): the big-endian bits of a `Bits`-wide IEEE value.
  template <class Real, class Bits>
  size_t real(const uint8_t* p, size_t n, uint64_t off) {
    if (n < 1 + sizeof(Bits)) return 0;
    Bits bits = sizeof(Bits) == 4 ? static_cast<Bits>(load_be32(p + 1)) : static_cast<Bits>(load_be64(p + 1));
    Real f;
    std::memcpy(&f, &bits, sizeof f);
    return emit(Tok::Float, off, 1 + sizeof(Bits), 0, 0, static_cast<double>(f));
  }

  // Decodes one token at p (n bytes available). Returns the bytes consumed, 0 when the token's
  // header or fixed-size value is cut by the end of the buffer.
  size_t decode(const uint8_t* p, size_t n, uint64_t off) {
    const uint8_t b = p[0];
    if (b <= 0x7f) return scalar(Tok::UInt, b, 1, off);
    if (b >= 0xe0) return negint(static_cast<int8_t>(b), 1, off);
    if (b <= 0x8f) return scalar(Tok::Map, b & 0x0f, 1, off);
    if (b <= 0x9f) return scalar(Tok::Array, b & 0x0f, 1, off);
    if (b <= 0xbf) return bytes_value(p, n, off, Tok::Str, 1, b & 0x1f);
    switch (b) {
      case 0xc0: return scalar(Tok::Nil, 0, 1, off);
      case 0xc1: return scalar(Tok::Unused, 0, 1, off);
      case 0xc2: return scalar(Tok::False, 0, 1, off);
      case 0xc3: return scalar(Tok::True, 0, 1, off);
      case 0xc4: return n < 2 ? 0 : bytes_value(p, n, off, Tok::Bin, 2, p[1]);
      case 0xc5: return n < 3 ? 0 : bytes_value(p, n, off, Tok::Bin, 3, load_be16(p + 1));
      case 0xc6: return n < 5 ? 0 : bytes_value(p, n, off, Tok::Bin, 5, load_be32(p + 1));
      case 0xc7: return n < 3 ? 0 : bytes_value(p, n, off, Tok::Ext, 3, p[1], static_cast<int8_t>(p[2]));
      case 0xc8: return n < 4 ? 0 : bytes_value(p, n, off, Tok::Ext, 4, load_be16(p + 1), static_cast<int8_t>(p[3]));
      case 0xc9: return n < 6 ? 0 : bytes_value(p, n, off, Tok::Ext, 6, load_be32(p + 1), static_cast<int8_t>(p[5]));
      case 0xca: return real<float, uint32_t>(p, n, off);
      case 0xcb: return real<double, uint64_t>(p, n, off);
      case 0xcc: return n < 2 ? 0 : scalar(Tok::UInt, p[1], 2, off);
      case 0xcd: return n < 3 ? 0 : scalar(Tok::UInt, load_be16(p + 1), 3, off);
      case 0xce: return n < 5 ? 0 : scalar(Tok::UInt, load_be32(p + 1), 5, off);
      case 0xcf: return n < 9 ? 0 : scalar(Tok::UInt, load_be64(p + 1), 9, off);
      case 0xd0: return n < 2 ? 0 : negint_or_uint(static_cast<int8_t>(p[1]), 2, off);
      case 0xd1: return n < 3 ? 0 : negint_or_uint(static_cast<int16_t>(load_be16(p + 1)), 3, off);
      case 0xd2: return n < 5 ? 0 : negint_or_uint(static_cast<int32_t>(load_be32(p + 1)), 5, off);
      case 0xd3: return n < 9 ? 0 : negint_or_uint(static_cast<int64_t>(load_be64(p + 1)), 9, off);
      case 0xd4: return n < 2 ? 0 : bytes_value(p, n, off, Tok::Ext, 2, 1, static_cast<int8_t>(p[1]));
      case 0xd5: return n < 2 ? 0 : bytes_value(p, n, off, Tok::Ext, 2, 2, static_cast<int8_t>(p[1]));
      case 0xd6: return n < 2 ? 0 : bytes_value(p, n, off, Tok::Ext, 2, 4, static_cast<int8_t>(p[1]));
      case 0xd7: return n < 2 ? 0 : bytes_value(p, n, off, Tok::Ext, 2, 8, static_cast<int8_t>(p[1]));
      case 0xd8: return n < 2 ? 0 : bytes_value(p, n, off, Tok::Ext, 2, 16, static_cast<int8_t>(p[1]));
      case 0xd9: return n < 2 ? 0 : bytes_value(p, n, off, Tok::Str, 2, p[1]);
      case 0xda: return n < 3 ? 0 : bytes_value(p, n, off, Tok::Str, 3, load_be16(p + 1));
      case 0xdb: return n < 5 ? 0 : bytes_value(p, n, off, Tok::Str, 5, load_be32(p + 1));
      case 0xdc: return n < 3 ? 0 : scalar(Tok::Array, load_be16(p + 1), 3, off);
      case 0xdd: return n < 5 ? 0 : scalar(Tok::Array, load_be32(p + 1), 5, off);
      case 0xde: return n < 3 ? 0 : scalar(Tok::Map, load_be16(p + 1), 3, off);
      case 0xdf: return n < 5 ? 0 : scalar(Tok::Map, load_be32(p + 1), 5, off);
    }
    return scalar(Tok::Unused, 0, 1, off);  // not reached: every byte value is covered above
  }

  // Signed encodings may carry non-negative values (other packers use int8..int64 for them).
  size_t negint_or_uint(int64_t v, size_t used, uint64_t off) {
    return v >= 0 ? scalar(Tok::UInt, static_cast<uint64_t>(v), used, off) : negint(v, used, off);
  }

  Sink& sink_;
  uint64_t pos_ = 0;  // offset of the next byte fed
  std::string carry_;
  uint64_t carry_off_ = 0;
  bool pending_ = false;
  Tok pend_kind_ = Tok::Str;
  int8_t pend_ext_ = 0;
  uint64_t pend_off_ = 0, pend_declared_ = 0, pending_left_ = 0;
  std::string buf_;
  bool resyncing_ = false;
  uint64_t resync_from_ = 0;
  int match_ = 0;
  uint8_t match_map_ = 0;
  uint64_t match_off_ = 0;
};

}  // namespace gcscope::rbkit
