#include "heap/dump_parser.h"

#include "core/json_string.h"
#include "core/utf8.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace gcscope::heap {

namespace {

enum Complaint { kUnparseable = 0, kRejected, kCoerced, kTruncated, kJoined };

inline bool ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
inline const char* skip_ws(const char* p, const char* e) {
  while (p < e && ws(*p)) ++p;
  return p;
}

// "0x7f…" → value; false for anything else (no digits, non-hex, too long).
inline bool parse_hex_address(std::string_view s, uint64_t& out) {
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
  uint64_t v = 0;
  for (size_t i = 2; i < s.size(); ++i) {
    int h = json::hex_value(s[i]);
    if (h < 0) return false;
    v = v << 4 | static_cast<uint64_t>(h);
  }
  out = v;
  return v != 0;
}

// Raw (unescaped) field recovery: the value starts at `start` (after the opening quote); it ends at
// the first quote followed by `, "key":` or by the record's closing brace. Returns the end (the
// closing quote) or nullptr.
const char* find_raw_end(const char* start, const char* e) {
  for (const char* q = start; q < e; ++q) {
    q = static_cast<const char*>(std::memchr(q, '"', static_cast<size_t>(e - q)));
    if (!q) return nullptr;
    const char* r = skip_ws(q + 1, e);
    if (r < e && *r == '}' && skip_ws(r + 1, e) == e) return q;
    if (r < e && *r == ',') {
      r = skip_ws(r + 1, e);
      if (r < e && *r == '"') {
        const char* k = r + 1;
        while (k < e && ((*k >= 'a' && *k <= 'z') || *k == '_')) ++k;
        if (k > r + 1 && k + 1 < e && k[0] == '"' && k[1] == ':') return q;
      }
    }
  }
  return nullptr;
}

// Skips any JSON value (unknown keys); iterative with a depth limit. Returns nullptr when malformed.
const char* skip_value(const char* p, const char* e) {
  int depth = 0;
  p = skip_ws(p, e);
  do {
    if (p >= e) return nullptr;
    char c = *p;
    if (c == '"') {
      ++p;
      while (p < e && *p != '"') p += (*p == '\\') ? 2 : 1;
      if (p >= e) return nullptr;
      ++p;
    } else if (c == '{' || c == '[') {
      if (++depth > 256) return nullptr;
      ++p;
      p = skip_ws(p, e);
      if (p < e && (*p == '}' || *p == ']')) {
        --depth;
        ++p;
      } else {
        continue;  // parse the first element / key
      }
    } else if (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n') {
      while (p < e && *p != ',' && *p != '}' && *p != ']' && !ws(*p)) ++p;
    } else {
      return nullptr;
    }
    // after a value: inside a container expect ',' (then maybe "key":) or a closer
    while (depth > 0) {
      p = skip_ws(p, e);
      if (p >= e) return nullptr;
      if (*p == ',') {
        ++p;
        p = skip_ws(p, e);
        // object key?
        if (p < e && *p == '"') {
          const char* k = p + 1;
          while (k < e && *k != '"') k += (*k == '\\') ? 2 : 1;
          const char* colon = skip_ws(k + 1, e);
          if (k < e && colon < e && *colon == ':') p = skip_ws(colon + 1, e);
        }
        break;
      }
      if (*p == '}' || *p == ']') {
        ++p;
        --depth;
        continue;
      }
      if (*p == ':') {  // after an object's first key
        p = skip_ws(p + 1, e);
        break;
      }
      return nullptr;
    }
  } while (depth > 0);
  return p;
}

// The "flags" object as dump_all writes it ({"wb_protected":true, "old":true, ...}: plain keys,
// literal values), read key by key. Returns the end of the object, or nullptr for anything else (the
// caller then falls back to skip_value and a substring search, which also handles nested values).
const char* scan_flags(const char* p, const char* e, uint8_t& flags) {
  // What most records of a dump made after a GC carry, in the order Ruby writes the keys: one compare.
  static constexpr std::string_view kCommon =
      R"({"wb_protected":true, "old":true, "uncollectible":true, "marked":true})";
  if (static_cast<size_t>(e - p) >= kCommon.size() && std::memcmp(p, kCommon.data(), kCommon.size()) == 0) {
    flags |= kWbProtected | kOld | kUncollectible;
    return p + kCommon.size();
  }
  if (p >= e || *p != '{') return nullptr;
  ++p;
  uint8_t found = 0;
  for (;;) {
    p = skip_ws(p, e);
    if (p >= e) return nullptr;
    if (*p == '}') break;
    if (*p != '"') return nullptr;
    const char* k = ++p;
    while (p < e && *p != '"' && *p != '\\') ++p;
    if (p >= e || *p != '"') return nullptr;
    std::string_view key(k, static_cast<size_t>(p - k));
    p = skip_ws(p + 1, e);
    if (p >= e || *p != ':') return nullptr;
    p = skip_ws(p + 1, e);
    const char* v = p;
    while (p < e && *p >= 'a' && *p <= 'z') ++p;
    if (p == v) return nullptr;  // a string, number or container value: not the plain shape
    if (p - v == 4 && std::memcmp(v, "true", 4) == 0) {
      if (key == "old") found |= kOld;
      else if (key == "uncollectible") found |= kUncollectible;
      else if (key == "wb_protected") found |= kWbProtected;
    }
    p = skip_ws(p, e);
    if (p < e && *p == ',') ++p;
    else if (p >= e || *p != '}') return nullptr;
  }
  flags |= found;
  return p + 1;
}

// Integer value: returns 1 = ok, 0 = not a number, -1 = negative, 2 = not an integer/out of range.
int parse_int(const char*& p, const char* e, uint64_t& out) {
  bool neg = false;
  if (p < e && *p == '-') {
    neg = true;
    ++p;
  }
  if (p >= e || *p < '0' || *p > '9') return 0;
  uint64_t v = 0;
  bool overflow = false;
  while (p < e && *p >= '0' && *p <= '9') {
    uint64_t d = static_cast<uint64_t>(*p - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = true;
    v = v * 10 + d;
    ++p;
  }
  bool fraction = false;
  if (p < e && (*p == '.' || *p == 'e' || *p == 'E')) {
    fraction = true;
    while (p < e && *p != ',' && *p != '}' && !ws(*p)) ++p;
  }
  out = v;
  if (overflow || fraction) return 2;
  return neg ? (v ? -1 : 1) : 1;
}

// Eight bytes at a time: this runs over every byte of the dump.
bool has_high_byte(std::string_view s) {
  const char* p = s.data();
  const size_t n = s.size();
  uint64_t acc = 0;
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    uint64_t w[4];
    std::memcpy(w, p + i, 32);
    acc |= w[0] | w[1] | w[2] | w[3];
  }
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    acc |= w;
  }
  for (; i < n; ++i) acc |= static_cast<unsigned char>(p[i]);
  return (acc & 0x8080808080808080ull) != 0;
}

}  // namespace

void DumpParser::complain(bool is_error, int kind, uint64_t line, uint64_t offset, std::string message) {
  if (complaints_[kind] < kMaxDiagnostics) report_(is_error, line, offset, std::move(message));
  else if (complaints_[kind] == kMaxDiagnostics)
    report_(false, line, offset,
            "more problems of this kind follow; only the first " + std::to_string(kMaxDiagnostics) +
                " are listed (all are counted)");
  ++complaints_[kind];
}

void DumpParser::line(std::string_view text, uint64_t number, uint64_t offset) {
  ++c_.physical_lines;
  if (has_high_byte(text) && !utf8::is_valid(text)) ++c_.invalid_utf8_lines;
  if (!pending_.empty()) {
    // A record is open from an earlier line: a continuation never starts a new record.
    std::string_view t = text;
    size_t k = 0;
    while (k < t.size() && ws(t[k])) ++k;
    bool new_record = k + 1 < t.size() && t[k] == '{' && t[k + 1] == '"';
    if (!new_record && pending_lines_ < kMaxJoinedLines) {
      pending_.push_back('\n');
      pending_.append(text.data(), text.size());
      ++pending_lines_;
      cur_line_ = pending_line_;
      cur_offset_ = pending_offset_;
      std::string why;
      Parse r = parse_record(pending_, true, why);
      if (r == Parse::kIncomplete && pending_lines_ < kMaxJoinedLines) return;
      if (r == Parse::kOk) {
        c_.recovered_records++;
        c_.recovered_lines += static_cast<uint64_t>(pending_lines_);
        complain(false, kJoined, pending_line_, static_cast<int64_t>(pending_offset_),
                 "record split over lines " + std::to_string(pending_line_) + "-" + std::to_string(number) +
                     " by a raw newline in a field Ruby wrote unescaped; recovered");
        commit();
      } else {
        c_.unparseable_lines += static_cast<uint64_t>(pending_lines_);
        complain(true, kUnparseable, pending_line_, static_cast<int64_t>(pending_offset_),
                 "record spanning lines " + std::to_string(pending_line_) + "-" + std::to_string(number) +
                     " could not be read: " + why);
      }
      pending_.clear();
      pending_lines_ = 0;
      return;
    }
    // The open record never closed.
    c_.unparseable_lines += static_cast<uint64_t>(pending_lines_);
    complain(true, kUnparseable, pending_line_, static_cast<int64_t>(pending_offset_),
             "record is cut off: the line ends before its closing '}' and the next line starts a new record");
    pending_.clear();
    pending_lines_ = 0;
  }
  size_t k = 0;
  while (k < text.size() && ws(text[k])) ++k;
  if (k == text.size()) {
    ++c_.blank_lines;
    return;
  }
  cur_line_ = number;
  cur_offset_ = offset;
  if (text[k] != '{') {
    ++c_.records;
    ++c_.rejected_records;
    std::string found(text.substr(k, 20));
    for (char& ch : found)
      if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x80) ch = '?';
    complain(false, kRejected, number, static_cast<int64_t>(offset),
             "expected a JSON object record starting with '{', found \"" + found + "\"; line skipped");
    return;
  }
  std::string why;
  Parse r = parse_record(text, false, why);
  if (r == Parse::kOk) {
    if (recovered_) {
      c_.recovered_records++;
      c_.recovered_lines++;
      complain(
          false, kJoined, number, static_cast<int64_t>(offset),
          "a field Ruby wrote unescaped (quote, backslash or control byte in a file or class name); record recovered");
    }
    commit();
  } else if (r == Parse::kIncomplete) {
    pending_.assign(text.data(), text.size());
    pending_line_ = number;
    pending_offset_ = offset;
    pending_lines_ = 1;
  } else {
    ++c_.unparseable_lines;
    complain(true, kUnparseable, number, static_cast<int64_t>(offset), "unreadable record: " + why);
  }
}

void DumpParser::finish() {
  if (pending_.empty()) return;
  c_.unparseable_lines += static_cast<uint64_t>(pending_lines_);
  c_.truncated = true;
  complain(true, kTruncated, pending_line_, static_cast<int64_t>(pending_offset_),
           "the input ends inside a record (line " + std::to_string(pending_line_) +
               "): expected the record's closing '}'; the records before it are kept");
  pending_.clear();
  pending_lines_ = 0;
}

// The record being read: the read position, the record's end, the key whose value is next, and
// what parse_record reports.
struct DumpParser::Cursor {
  Cursor(const char* begin, const char* end, std::string& why_out) : p(begin), e(end), why(why_out) {}
  const char* p;
  const char* e;
  std::string& why;
  std::string_view key;
  Parse r = Parse::kOk;  // a field reader's failure, when it returned false
  std::string_view type;
  bool type_seen = false;
};

DumpParser::Parse DumpParser::read_string(Cursor& c, std::string_view& out, std::string& scratch, bool raw_field) {
  if (*c.p != '"') return Parse::kBad;
  const char* open = c.p + 1;
  const char* q = open;
  json::StringStatus s = json::decode_string(q, c.e, out, scratch);
  if (s == json::StringStatus::kOk) {
    const char* after = skip_ws(q, c.e);
    if (after >= c.e || *after == ',' || *after == '}') {
      c.p = q;
      return Parse::kOk;
    }
  }
  if (!raw_field) {
    bool bad_escape = s == json::StringStatus::kBadEscape || s == json::StringStatus::kBadUnicodeEscape;
    c.why = bad_escape ? "invalid escape in the value of \"" + std::string(c.key) + "\""
                       : "unterminated or malformed string in \"" + std::string(c.key) + "\"";
    return s == json::StringStatus::kUnterminated ? Parse::kIncomplete : Parse::kBad;
  }
  // Ruby writes this field unescaped: take the raw bytes up to the next key.
  const char* end = find_raw_end(open, c.e);
  if (!end) {
    c.why = "unescaped \"" + std::string(c.key) + "\" value without a following key";
    return Parse::kIncomplete;
  }
  out = std::string_view(open, static_cast<size_t>(end - open));
  c.p = end + 1;
  recovered_ = true;
  return Parse::kOk;
}

bool DumpParser::want_string(Cursor& c, std::string_view& dst, std::string& scratch, bool raw) {
  if (*c.p != '"') {
    const char* n = skip_value(c.p, c.e);
    if (!n) {
      c.why = "malformed value of \"" + std::string(c.key) + "\"";
      c.r = Parse::kBad;
      return false;
    }
    c.p = n;
    warnings_.push_back("\"" + std::string(c.key) + "\" is not a string; ignored");
    return false;
  }
  c.r = read_string(c, dst, scratch, raw);
  return c.r == Parse::kOk;
}

bool DumpParser::want_uint(Cursor& c, uint64_t& dst, uint64_t limit) {
  const char* before = c.p;
  int k = parse_int(c.p, c.e, dst);
  if (k == 1 && dst <= limit) return true;
  const std::string key(c.key);
  if (k == 0) {
    const char* n = skip_value(before, c.e);
    if (!n) {
      c.why = "malformed value of \"" + key + "\"";
      c.r = Parse::kBad;
      return false;
    }
    c.p = n;
    warnings_.push_back("\"" + key + "\" is not a number; counted as absent");
  } else if (k == -1) {
    warnings_.push_back("\"" + key + "\" is negative (" + std::string(before, static_cast<size_t>(c.p - before)) +
                        "); counted as absent");
  } else {
    warnings_.push_back("\"" + key + "\" is not a plausible integer (" +
                        std::string(before, static_cast<size_t>(std::min<std::ptrdiff_t>(c.p - before, 40))) +
                        "); counted as absent");
  }
  dst = 0;
  return false;
}

// A string field's value into dst: kOk also when the value is not a string (skipped with a warning).
DumpParser::Parse DumpParser::string_field(Cursor& c, std::string_view& dst, std::string& scratch, bool raw) {
  want_string(c, dst, scratch, raw);
  return c.r;
}

// "references": an array of "0x…" address strings; other entries' addresses are dropped.
DumpParser::Parse DumpParser::read_references(Cursor& c) {
  if (*c.p != '[') {
    const char* n = skip_value(c.p, c.e);
    if (!n) {
      c.why = "malformed \"references\"";
      return Parse::kBad;
    }
    c.p = n;
    warnings_.push_back("\"references\" is not an array; ignored");
    return Parse::kOk;
  }
  ++c.p;
  refs_ok_ = true;
  for (;;) {
    c.p = skip_ws(c.p, c.e);
    if (c.p >= c.e) {
      c.why = "the line ends inside \"references\"";
      return Parse::kIncomplete;
    }
    if (*c.p == ']') {
      ++c.p;
      return Parse::kOk;
    }
    if (*c.p == ',') {
      ++c.p;
      continue;
    }
    if (*c.p != '"') {
      c.why = "expected an address string in \"references\"";
      return Parse::kBad;
    }
    const char* s = ++c.p;
    while (c.p < c.e && *c.p != '"') ++c.p;
    if (c.p >= c.e) {
      c.why = "the line ends inside \"references\"";
      return Parse::kIncomplete;
    }
    uint64_t a = 0;
    if (parse_hex_address(std::string_view(s, static_cast<size_t>(c.p - s)), a)) refs_.push_back(a);
    ++c.p;
  }
}

// "flags": {"wb_protected":true, "old":true, ...}: only its booleans matter here.
DumpParser::Parse DumpParser::read_flags(Cursor& c) {
  if (const char* n = scan_flags(c.p, c.e, obj_.flags)) {
    c.p = n;
    return Parse::kOk;
  }
  const char* n = skip_value(c.p, c.e);
  if (!n) {
    c.why = "malformed \"flags\"";
    return Parse::kIncomplete;
  }
  std::string_view f(c.p, static_cast<size_t>(n - c.p));
  if (f.find("\"old\":true") != std::string_view::npos) obj_.flags |= kOld;
  if (f.find("\"uncollectible\":true") != std::string_view::npos) obj_.flags |= kUncollectible;
  if (f.find("\"wb_protected\":true") != std::string_view::npos) obj_.flags |= kWbProtected;
  c.p = n;
  return Parse::kOk;
}

// Reads the value of a key the model keeps. `handled` is false when the value is still to be
// skipped: an unknown key, or a key whose value was only peeked at (a literal `true` flag).
DumpParser::Parse DumpParser::read_known_field(Cursor& c, bool& handled) {
  const std::string_view key = c.key;
  const char* p = c.p;
  const bool is_true = p + 4 <= c.e && std::memcmp(p, "true", 4) == 0;
  std::string_view sv;
  uint64_t v = 0;
  handled = true;
  switch (key.empty() ? 0 : key[0]) {
    case 'a':
      if (key != "address") break;
      if (*p == '"') {
        Parse ar = read_string(c, sv, scratch_[3], false);
        if (ar != Parse::kOk) return ar;
        address_ok_ = parse_hex_address(sv, obj_.address);
        if (!address_ok_)
          warnings_.push_back("address \"" + std::string(sv.substr(0, 24)) + "\" is not a 0x… hex address");
      } else {
        want_string(c, sv, scratch_[3], false);
        if (c.r != Parse::kOk) return c.r;
        address_ok_ = false;
      }
      return Parse::kOk;
    case 't':
      if (key != "type") break;
      if (c.type_seen) warnings_.push_back("\"type\" appears twice; the last one wins");
      c.type_seen = true;
      if (!want_string(c, c.type, scratch_[3], false)) {
        if (c.r != Parse::kOk) return c.r;
        c.type = {};
      }
      return Parse::kOk;
    case 'c':
      if (key != "class") break;
      if (want_string(c, sv, scratch_[3], false)) {
        uint64_t a = 0;
        if (parse_hex_address(sv, a)) obj_.class_address = a;
      }
      return c.r;
    case 'r':
      if (key == "references") return read_references(c);
      if (key == "root") {
        want_string(c, root_category_, scratch_[2], false);
        if (c.r == Parse::kOk) is_root_ = true;
        return c.r;
      }
      // A singleton or anonymous class: the name of the class its instances really are.
      if (key == "real_class_name") return string_field(c, obj_.detail, scratch_[4], false);
      break;
    case 'f':
      if (key == "file") return string_field(c, obj_.file, scratch_[0], true);
      if (key == "flags") return read_flags(c);
      if (key == "frozen" && is_true) obj_.flags |= kFrozen;
      if (key == "fstring" && is_true) obj_.flags |= kFstring;
      break;
    case 'l':
      if (key != "line") break;
      if (want_uint(c, v, 0xFFFFFFFEull)) obj_.line = static_cast<uint32_t>(v);
      return c.r;
    case 'g':
      if (key != "generation") break;
      if (want_uint(c, v, 0x7FFFFFFFull)) obj_.generation = static_cast<uint32_t>(v);
      return c.r;
    case 'm':
      if (key == "memsize") {
        if (want_uint(c, v, 1ull << 40)) obj_.memsize = v;
        return c.r;
      }
      if (key == "method") return string_field(c, obj_.method, scratch_[2], false);
      break;
    case 'n':
      if (key == "name") return string_field(c, obj_.name, scratch_[1], true);
      break;
    case 'v':
      if (key != "value" || *p != '"') break;
      if (Parse vr = read_string(c, obj_.value, scratch_[5], false); vr != Parse::kOk) return vr;
      obj_.has_value = true;
      return Parse::kOk;
    case 'b':
      if (key != "bytesize") break;
      if (want_uint(c, v, 0xFFFFFFFFull)) obj_.bytesize = static_cast<uint32_t>(v);
      return c.r;
    case 'i':
      if (key == "imemo_type") return string_field(c, obj_.detail, scratch_[4], false);
      break;
    case 's':
      if (key == "struct") return string_field(c, obj_.detail, scratch_[4], false);
      if (key == "shared" && is_true) obj_.flags |= kShared;
      if (key == "singleton" && is_true) obj_.flags |= kSingleton;
      if (key == "shape_id" || key == "slot_size") c_.has_shape_id = true;
      break;
    case 'e':
      if (key == "embedded" && is_true) obj_.flags |= kEmbedded;
      break;
  }
  handled = false;
  return Parse::kOk;
}

DumpParser::Parse DumpParser::parse_record(std::string_view text, bool joined, std::string& why) {
  obj_ = ObjectInfo{};
  refs_.clear();
  refs_ok_ = false;
  is_root_ = false;
  address_ok_ = false;
  recovered_ = joined;
  root_category_ = {};
  warnings_.clear();
  Cursor c(text.data(), text.data() + text.size(), why);
  const char*& p = c.p;
  const char* const e = c.e;
  p = skip_ws(p, e);
  ++p;  // '{'
  for (;;) {
    p = skip_ws(p, e);
    if (p >= e) {
      why = "the line ends before the record's closing '}'";
      return Parse::kIncomplete;
    }
    if (*p == '}') break;
    if (*p != '"') {
      why = std::string("expected a key in quotes at column ") + std::to_string(p - text.data() + 1) + ", found '" +
            (static_cast<unsigned char>(*p) < 0x80 && static_cast<unsigned char>(*p) >= 0x20 ? std::string(1, *p)
                                                                                             : std::string("?")) +
            "'";
      return Parse::kBad;
    }
    ++p;
    const char* ks = p;
    while (p < e && *p != '"') ++p;
    if (p >= e) {
      why = "the line ends inside a key";
      return Parse::kIncomplete;
    }
    std::string_view key(ks, static_cast<size_t>(p - ks));
    p = skip_ws(p + 1, e);
    if (p >= e || *p != ':') {
      why = "expected ':' after key \"" + std::string(key.substr(0, 40)) + "\"";
      return p >= e ? Parse::kIncomplete : Parse::kBad;
    }
    p = skip_ws(p + 1, e);
    if (p >= e) {
      why = "the line ends before the value of \"" + std::string(key) + "\"";
      return Parse::kIncomplete;
    }
    c.key = key;
    c.r = Parse::kOk;
    bool handled = true;
    if (Parse r = read_known_field(c, handled); r != Parse::kOk) return r;
    if (!handled) {
      const char* n = skip_value(p, e);
      if (!n) {
        why = "malformed value of \"" + std::string(key.substr(0, 40)) + "\"";
        // A value cut by the end of the line may continue on the next one.
        return Parse::kIncomplete;
      }
      p = n;
    }
    p = skip_ws(p, e);
    if (p >= e) {
      why = "the line ends before the record's closing '}'";
      return Parse::kIncomplete;
    }
    if (*p == ',') {
      ++p;
      continue;
    }
    if (*p == '}') break;
    why = std::string("expected ',' or '}' after the value of \"") + std::string(key.substr(0, 40)) + "\"";
    return Parse::kBad;
  }
  ++p;
  p = skip_ws(p, e);
  if (p != e) {
    why = "text after the record's closing '}'";
    return Parse::kBad;
  }
  set_record_type(c.type);
  return Parse::kOk;
}

// The record's "type" (empty when absent or not a string): a ROOT record or an object's type.
void DumpParser::set_record_type(std::string_view type) {
  if (type.empty()) {
    obj_.type = kUnknownType;
    if (!is_root_) warnings_.push_back("record without \"type\"");
  } else if (type == "ROOT") {
    is_root_ = true;
  } else {
    obj_.type = type_from_name(type);
    if (obj_.type == kUnknownType && type != "UNKNOWN")
      warnings_.push_back("unknown type \"" + std::string(type.substr(0, 40)) + "\"; kept as UNKNOWN");
  }
}

void DumpParser::commit() {
  ++c_.records;
  for (auto& w : warnings_) {
    ++c_.coerced_values;
    complain(false, kCoerced, cur_line_, static_cast<int64_t>(cur_offset_), w);
  }
  if (is_root_) {
    ++c_.root_records;
    std::string_view cat = root_category_.empty() ? std::string_view("(unnamed root)") : root_category_;
    for (uint64_t a : refs_) model_.add_root(cat, a);
    return;
  }
  if (obj_.type == kNoneType) {
    ++c_.free_slots;
    return;
  }
  if (obj_.type == kShape) {
    ++c_.shape_records;
    return;
  }
  if (!address_ok_) {
    ++c_.rejected_records;
    complain(false, kRejected, cur_line_, static_cast<int64_t>(cur_offset_),
             "record without a \"0x…\" address string; skipped (objects need an address to be referenced)");
    return;
  }
  if (obj_.generation != kNoGeneration && obj_.generation + 1ull > c_.max_generation_plus1)
    c_.max_generation_plus1 = obj_.generation + 1ull;
  if (!obj_.has_value || obj_.type != kString) {
    obj_.has_value = false;
    obj_.value = {};
  }
  model_.add_object(obj_);
  for (uint64_t a : refs_) model_.add_reference(a);
}

}  // namespace gcscope::heap
