#include "marshal_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gcscope::stackprof {

namespace {

constexpr size_t kIncomplete = 0;
constexpr size_t kBad = SIZE_MAX;

// Marshal's packed long: 0; 5..127 -> c-5; -128..-5 -> c+5; 1..4 -> that many bytes LE, positive;
// -1..-4 -> that many bytes LE over all-ones (negative). Returns bytes used, 0 when incomplete.
size_t read_long(const uint8_t* p, const uint8_t* e, int64_t& out) {
  if (p >= e) return 0;
  auto c = static_cast<int8_t>(p[0]);
  if (c == 0) {
    out = 0;
    return 1;
  }
  if (c > 4) {
    out = c - 5;
    return 1;
  }
  if (c < -4) {
    out = c + 5;
    return 1;
  }
  int n = c > 0 ? c : -c;
  if (e - p < 1 + n) return 0;
  if (c > 0) {
    uint64_t x = 0;
    for (int i = 0; i < n; ++i) x |= static_cast<uint64_t>(p[1 + i]) << (8 * i);
    out = static_cast<int64_t>(x);
  } else {
    uint64_t x = ~uint64_t(0);
    for (int i = 0; i < n; ++i) {
      x &= ~(uint64_t(0xff) << (8 * i));
      x |= static_cast<uint64_t>(p[1 + i]) << (8 * i);
    }
    out = static_cast<int64_t>(x);
  }
  return static_cast<size_t>(1 + n);
}

// A length-prefixed byte string. Returns bytes used, 0 when incomplete, kBad for a negative length.
size_t read_bytes(const uint8_t* p, const uint8_t* e, std::string_view& out) {
  int64_t len = 0;
  size_t k = read_long(p, e, len);
  if (!k) return kIncomplete;
  if (len < 0) return kBad;
  if (static_cast<uint64_t>(e - p) - k < static_cast<uint64_t>(len)) return kIncomplete;
  out = std::string_view(reinterpret_cast<const char*>(p + k), static_cast<size_t>(len));
  return k + static_cast<size_t>(len);
}

double parse_marshal_float(std::string_view text) {
  // Ruby writes "inf", "-inf", "nan" or a %.17g-style number (old rubies append mantissa bytes
  // after a NUL: ignored).
  size_t nul = text.find('\0');
  if (nul != std::string_view::npos) text = text.substr(0, nul);
  if (text == "inf") return INFINITY;
  if (text == "-inf") return -INFINITY;
  if (text == "nan") return NAN;
  std::string s(text);
  return std::strtod(s.c_str(), nullptr);
}

std::string hex_byte(uint8_t b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", b);
  return buf;
}

}  // namespace

void MarshalReader::fail(uint64_t at, std::string message) {
  if (!error_.empty()) return;
  error_ = std::move(message);
  error_offset_ = at;
}

void MarshalReader::record_string(std::string_view s, bool is_float) {
  recorded_.emplace_back(objects_ - 1, std::string(s));
  recorded_float_.push_back(is_float);
}

void MarshalReader::push(Kind kind, Phase phase, uint64_t remaining, std::string label, bool emit_map, bool emit_list) {
  Level l{kind, phase, false, false, false, remaining, std::move(label)};
  if (emitting() && (emit_map || emit_list)) {
    l.emitted = true;
    if (emit_map) sink_.begin_map(l.label);
    else sink_.begin_list(l.label);
  }
  stack_.push_back(std::move(l));
}

void MarshalReader::value_done() {
  while (!stack_.empty()) {
    Level& t = stack_.back();
    if (t.phase == Phase::IvarValue) {
      t.phase = Phase::IvarCount;
      return;
    }
    if (t.phase == Phase::Items) {
      if (t.remaining > 1) {
        --t.remaining;
        return;
      }
      t.remaining = 0;
      if (t.has_default) {  // a Hash with a default value: one more value, not part of the data
        t.has_default = false;
        t.phase = Phase::Default;
        t.suppressing = true;
        ++suppress_;
        return;
      }
    }
    if (t.suppressing) --suppress_;
    bool emitted = t.emitted;
    stack_.pop_back();
    if (emitted) sink_.end();
  }
  done_ = true;
}

size_t MarshalReader::read_header(const uint8_t* p, const uint8_t* e, uint64_t at) {
  if (e - p < 2) return kIncomplete;
  if (p[0] != 4) {
    fail(at, "not a Ruby Marshal 4.x stream (major version " + std::to_string(p[0]) + ")");
    return kBad;
  }
  if (p[1] != 8) {
    fail(at + 1, "Ruby Marshal version 4." + std::to_string(p[1]) + ", only 4.8 is supported");
    return kBad;
  }
  header_ = 2;
  return 2;
}

size_t MarshalReader::read_class_name(const uint8_t* p, const uint8_t* e, uint64_t at) {
  Level& t = stack_.back();
  std::string_view name;
  size_t k = 0;
  if (p[0] == ':') {
    k = read_bytes(p + 1, e, name);
    if (k == kIncomplete) return kIncomplete;
    if (k == kBad) {
      fail(at, "negative length of a class name Symbol");
      return kBad;
    }
    symbols_.emplace_back(name);
    ++k;
  } else if (p[0] == ';') {
    int64_t idx = 0;
    k = read_long(p + 1, e, idx);
    if (!k) return kIncomplete;
    if (idx < 0 || static_cast<uint64_t>(idx) >= symbols_.size()) {
      fail(at,
           "symbol link ;" + std::to_string(idx) + " but only " + std::to_string(symbols_.size()) + " symbols so far");
      return kBad;
    }
    name = symbols_[static_cast<size_t>(idx)];
    ++k;
  } else {
    fail(at, "expected a class name (Symbol) at byte " + std::to_string(at) + ", found type byte " + hex_byte(p[0]));
    return kBad;
  }
  t.label += name;
  switch (t.kind) {
    case Kind::Object:
    case Kind::Struct: t.phase = Phase::NeedCount; break;
    case Kind::UserDef: t.phase = Phase::NeedBytes; break;
    case Kind::UserMarshal:
    case Kind::Data:
      t.phase = Phase::Items;
      t.remaining = 1;
      if (emitting()) {
        t.emitted = true;
        sink_.begin_list(t.label);
      }
      break;
    default:  // Extended, UserClass: transparent wrappers of the next value
      t.phase = Phase::Items;
      t.remaining = 1;
      break;
  }
  return k;
}

size_t MarshalReader::read_field_count(const uint8_t* p, const uint8_t* e, uint64_t at) {
  Level& t = stack_.back();
  int64_t n = 0;
  size_t k = read_long(p, e, n);
  if (!k) return kIncomplete;
  if (n < 0) {
    fail(at, "negative field count " + std::to_string(n) + " in " + t.label);
    return kBad;
  }
  t.phase = Phase::Items;
  t.remaining = 2 * static_cast<uint64_t>(n);
  if (emitting()) {
    t.emitted = true;
    sink_.begin_map(t.label);
  }
  if (n == 0) {
    t.remaining = 1;  // value_done() pops it
    value_done();
  }
  return k;
}

size_t MarshalReader::read_dump_bytes(const uint8_t* p, const uint8_t* e, uint64_t at) {
  std::string_view bytes;
  size_t k = read_bytes(p, e, bytes);
  if (k == kIncomplete) return kIncomplete;
  if (k == kBad) {
    fail(at, "negative length in _dump data of " + stack_.back().label);
    return kBad;
  }
  std::string desc = "#<" + stack_.back().label + ">";
  stack_.pop_back();
  if (emitting()) sink_.on_opaque(desc);
  value_done();
  return k;
}

size_t MarshalReader::read_ivar_count(const uint8_t* p, const uint8_t* e, uint64_t at) {
  int64_t n = 0;
  size_t k = read_long(p, e, n);
  if (!k) return kIncomplete;
  if (n < 0) {
    fail(at, "negative instance variable count " + std::to_string(n));
    return kBad;
  }
  if (n == 0) {
    stack_.pop_back();
    value_done();
  } else {
    // Instance variables of a String (its encoding) or of a wrapped object: not data.
    Level& t = stack_.back();
    t.phase = Phase::Items;
    t.remaining = 2 * static_cast<uint64_t>(n);
    t.suppressing = true;
    ++suppress_;
  }
  return k;
}

size_t MarshalReader::read_scalar(uint8_t type) {
  if (emitting()) {
    if (type == '0') sink_.on_nil();
    else sink_.on_bool(type == 'T');
  }
  value_done();
  return 1;
}

size_t MarshalReader::read_fixnum(const uint8_t* q, const uint8_t* e) {
  int64_t v = 0;
  size_t k = read_long(q, e, v);
  if (!k) return kIncomplete;
  if (emitting()) sink_.on_int(v);
  value_done();
  return 1 + k;
}

size_t MarshalReader::read_bignum(const uint8_t* q, const uint8_t* e, uint64_t at) {
  if (e - q < 1) return kIncomplete;
  uint8_t sign = q[0];
  int64_t words = 0;
  size_t k = read_long(q + 1, e, words);
  if (!k) return kIncomplete;
  if ((sign != '+' && sign != '-') || words < 0) {
    fail(at, "bad Bignum header (sign " + hex_byte(sign) + ", " + std::to_string(words) + " words)");
    return kBad;
  }
  uint64_t nbytes = 2 * static_cast<uint64_t>(words);
  const uint8_t* d = q + 1 + k;
  if (static_cast<uint64_t>(e - d) < nbytes) return kIncomplete;
  register_object();
  size_t used = nbytes;
  while (used > 0 && d[used - 1] == 0) --used;
  if (emitting()) {
    if (used > 8) {
      sink_.on_opaque("(" + std::string(sign == '-' ? "negative " : "") + "integer of " + std::to_string(used) +
                      " bytes)");
    } else {
      uint64_t mag = 0;
      for (size_t i = 0; i < used; ++i) mag |= static_cast<uint64_t>(d[i]) << (8 * i);
      if (sign == '+')
        mag <= static_cast<uint64_t>(INT64_MAX) ? sink_.on_int(static_cast<int64_t>(mag)) : sink_.on_uint(mag);
      else if (mag <= static_cast<uint64_t>(INT64_MAX)) sink_.on_int(-static_cast<int64_t>(mag));
      else sink_.on_opaque("(negative integer of 8 bytes)");
    }
  }
  value_done();
  return 1 + 1 + k + nbytes;
}

size_t MarshalReader::read_text(uint8_t type, const uint8_t* q, const uint8_t* e, uint64_t at) {
  std::string_view bytes;
  size_t k = read_bytes(q, e, bytes);
  if (k == kIncomplete) return kIncomplete;
  if (k == kBad) {
    fail(at, std::string("negative length of a ") + (type == ':' ? "Symbol" : type == 'f' ? "Float" : "String"));
    return kBad;
  }
  if (type == ':') {
    symbols_.emplace_back(bytes);
    if (emitting()) sink_.on_symbol(bytes);
  } else {
    register_object();
    record_string(bytes, type == 'f');
    if (emitting()) {
      if (type == 'f') sink_.on_float(parse_marshal_float(bytes), bytes);
      else sink_.on_string(bytes);
    }
  }
  value_done();
  return 1 + k;
}

size_t MarshalReader::read_symbol_link(const uint8_t* q, const uint8_t* e, uint64_t at) {
  int64_t idx = 0;
  size_t k = read_long(q, e, idx);
  if (!k) return kIncomplete;
  if (idx < 0 || static_cast<uint64_t>(idx) >= symbols_.size()) {
    fail(at,
         "symbol link ;" + std::to_string(idx) + " but only " + std::to_string(symbols_.size()) + " symbols so far");
    return kBad;
  }
  if (emitting()) sink_.on_symbol(symbols_[static_cast<size_t>(idx)]);
  value_done();
  return 1 + k;
}

size_t MarshalReader::read_object_link(const uint8_t* q, const uint8_t* e, uint64_t at) {
  int64_t idx = 0;
  size_t k = read_long(q, e, idx);
  if (!k) return kIncomplete;
  if (idx < 0 || static_cast<uint64_t>(idx) >= objects_) {
    fail(at, "object link @" + std::to_string(idx) + " but only " + std::to_string(objects_) + " objects so far");
    return kBad;
  }
  if (emitting()) {
    auto it = std::lower_bound(recorded_.begin(), recorded_.end(), static_cast<uint32_t>(idx),
                               [](const auto& r, uint32_t i) { return r.first < i; });
    if (it != recorded_.end() && it->first == idx) {
      if (recorded_float_[static_cast<size_t>(it - recorded_.begin())])
        sink_.on_float(parse_marshal_float(it->second), it->second);
      else sink_.on_string(it->second);
    } else {
      sink_.on_opaque("(reference to object #" + std::to_string(idx) + ")");
    }
  }
  value_done();
  return 1 + k;
}

size_t MarshalReader::read_container(uint8_t type, const uint8_t* q, const uint8_t* e, uint64_t at) {
  int64_t n = 0;
  size_t k = read_long(q, e, n);
  if (!k) return kIncomplete;
  if (n < 0) {
    fail(at, "negative element count " + std::to_string(n));
    return kBad;
  }
  register_object();
  bool is_list = type == '[';
  uint64_t items = is_list ? static_cast<uint64_t>(n) : 2 * static_cast<uint64_t>(n);
  push(is_list ? Kind::Array : Kind::Hash, Phase::Items, items, "", !is_list, is_list);
  stack_.back().has_default = type == '}';
  if (items == 0) {
    stack_.back().remaining = 1;
    value_done();
  }
  return 1 + k;
}

size_t MarshalReader::open_named(Kind kind, bool is_object, const char* label) {
  if (is_object) register_object();
  push(kind, Phase::NeedClass, 0, label, false, false);
  return 1;
}

size_t MarshalReader::read_named_opaque(uint8_t type, const uint8_t* q, const uint8_t* e, uint64_t at) {
  std::string_view bytes;
  size_t k = read_bytes(q, e, bytes);
  if (k == kIncomplete) return kIncomplete;
  if (k == kBad) {
    fail(at, "negative length after type byte " + hex_byte(type));
    return kBad;
  }
  if (type == '/') {
    if (static_cast<size_t>(e - q) < k + 1) return kIncomplete;
    ++k;  // the options byte
  }
  register_object();
  if (emitting()) {
    std::string desc = type == '/' ? "/" + std::string(bytes) + "/"
                                   : std::string(type == 'c' ? "#<Class " : "#<Module ") + std::string(bytes) + ">";
    sink_.on_opaque(desc);
  }
  value_done();
  return 1 + k;
}

size_t MarshalReader::read_value(const uint8_t* p, const uint8_t* e, uint64_t at) {
  const uint8_t type = p[0];
  const uint8_t* q = p + 1;
  switch (type) {
    case '0':
    case 'T':
    case 'F': return read_scalar(type);
    case 'i': return read_fixnum(q, e);
    case 'l': return read_bignum(q, e, at);
    case 'f':
    case '"':
    case ':': return read_text(type, q, e, at);
    case ';': return read_symbol_link(q, e, at);
    case '@': return read_object_link(q, e, at);
    case '[':
    case '{':
    case '}': return read_container(type, q, e, at);
    case 'I': push(Kind::Ivar, Phase::IvarValue, 1, "", false, false); return 1;
    case 'o': return open_named(Kind::Object, true, "Object ");
    case 'S': return open_named(Kind::Struct, true, "Struct ");
    case 'U': return open_named(Kind::UserMarshal, true, "");
    case 'd': return open_named(Kind::Data, true, "Data ");
    case 'u': return open_named(Kind::UserDef, true, "");
    case 'e': return open_named(Kind::Extended, false, "");
    case 'C': return open_named(Kind::UserClass, false, "");
    case '/':
    case 'c':
    case 'm':
    case 'M': return read_named_opaque(type, q, e, at);
    default: fail(at, "unknown Marshal type byte " + hex_byte(type) + " at byte " + std::to_string(at)); return kBad;
  }
}

size_t MarshalReader::step(const uint8_t* p, const uint8_t* e, uint64_t at) {
  if (header_ < 2) return read_header(p, e, at);
  if (!stack_.empty()) {
    // A named value (object, struct, _dump, ...) or an ivar list is waiting for its next part.
    switch (stack_.back().phase) {
      case Phase::NeedClass: return read_class_name(p, e, at);
      case Phase::NeedCount: return read_field_count(p, e, at);
      case Phase::NeedBytes: return read_dump_bytes(p, e, at);
      case Phase::IvarCount: return read_ivar_count(p, e, at);
      default: break;
    }
  }
  if (stack_.size() >= kMaxDepth) {
    fail(at, "values nested deeper than " + std::to_string(kMaxDepth) + " levels");
    return kBad;
  }
  return read_value(p, e, at);
}

size_t MarshalReader::parse(const uint8_t* p, size_t n, uint64_t base) {
  size_t pos = 0;
  while (pos < n && !done_) {
    size_t k = step(p + pos, p + n, base + pos);
    if (k == kIncomplete || k == kBad) break;
    pos += k;
  }
  if (done_ && end_offset_ == 0) end_offset_ = base + pos;
  return pos;
}

void MarshalReader::feed(const char* data, size_t len) {
  total_ += len;
  if (done_ || failed() || len == 0) return;
  carry_.feed(
      data, len,
      [&](const char* p, size_t n) {
        size_t used = parse(reinterpret_cast<const uint8_t*>(p), n, consumed_);
        consumed_ += used;
        return used;
      },
      [&] { return done_ || failed(); });
}

bool MarshalReader::finish() {
  if (failed()) return false;
  if (done_) return true;
  if (total_ == 0) {
    fail(0, "empty file");
    return false;
  }
  fail(consumed_, "Marshal data ends early at byte " + std::to_string(consumed_) + " of " + std::to_string(total_) +
                      " (truncated file?): " + std::to_string(stack_.size()) + " unfinished containers");
  return false;
}

}  // namespace gcscope::stackprof
