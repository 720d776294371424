#include "heap/dump_parser.h"

#include "core/json_string.h"

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
  static constexpr std::string_view kCommon = R"({"wb_protected":true, "old":true, "uncollectible":true, "marked":true})";
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

bool valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (!len || i + len > s.size() || (len == 2 && c < 0xC2)) return false;
    for (size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

// Eight bytes at a time: this runs over every byte of the dump, and a byte loop cost 13% of the parse.
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
    report_(false, line, offset, "more problems of this kind follow; only the first " + std::to_string(kMaxDiagnostics) +
                                     " are listed (all are counted)");
  ++complaints_[kind];
}

void DumpParser::line(std::string_view text, uint64_t number, uint64_t offset) {
  ++c_.physical_lines;
  if (has_high_byte(text) && !valid_utf8(text)) ++c_.invalid_utf8_lines;
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
      complain(false, kJoined, number, static_cast<int64_t>(offset),
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

DumpParser::Parse DumpParser::parse_record(std::string_view text, bool joined, std::string& why) {
  obj_ = ObjectInfo{};
  refs_.clear();
  refs_ok_ = false;
  is_root_ = false;
  address_ok_ = false;
  recovered_ = joined;
  root_category_ = {};
  warnings_.clear();
  bool type_seen = false;
  std::string_view type_str;
  const char* p = text.data();
  const char* e = p + text.size();
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
            (static_cast<unsigned char>(*p) < 0x80 && static_cast<unsigned char>(*p) >= 0x20 ? std::string(1, *p) : std::string("?")) + "'";
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
    // Strings: the common keys.
    auto read_string = [&](std::string_view& out, std::string& scratch, bool raw_field) -> Parse {
      if (*p != '"') return Parse::kBad;
      const char* open = p + 1;
      const char* q = open;
      json::StringStatus s = json::decode_string(q, e, out, scratch);
      if (s == json::StringStatus::kOk) {
        const char* after = skip_ws(q, e);
        if (after >= e || *after == ',' || *after == '}') {
          p = q;
          return Parse::kOk;
        }
      }
      if (!raw_field) {
        bool bad_escape = s == json::StringStatus::kBadEscape || s == json::StringStatus::kBadUnicodeEscape;
        why = bad_escape ? "invalid escape in the value of \"" + std::string(key) + "\""
                         : "unterminated or malformed string in \"" + std::string(key) + "\"";
        return s == json::StringStatus::kUnterminated ? Parse::kIncomplete : Parse::kBad;
      }
      // Ruby writes this field unescaped: take the raw bytes up to the next key.
      const char* end = find_raw_end(open, e);
      if (!end) {
        why = "unescaped \"" + std::string(key) + "\" value without a following key";
        return Parse::kIncomplete;
      }
      out = std::string_view(open, static_cast<size_t>(end - open));
      p = end + 1;
      recovered_ = true;
      return Parse::kOk;
    };
    Parse r = Parse::kOk;
    std::string_view sv;
    auto want_string = [&](std::string_view& dst, std::string& scratch, bool raw) -> bool {
      if (*p != '"') {
        const char* n = skip_value(p, e);
        if (!n) {
          why = "malformed value of \"" + std::string(key) + "\"";
          r = Parse::kBad;
          return false;
        }
        p = n;
        warnings_.push_back("\"" + std::string(key) + "\" is not a string; ignored");
        return false;
      }
      r = read_string(dst, scratch, raw);
      return r == Parse::kOk;
    };
    auto want_uint = [&](uint64_t& dst, uint64_t limit) -> bool {
      const char* before = p;
      int k = parse_int(p, e, dst);
      if (k == 1 && dst <= limit) return true;
      if (k == 0) {
        const char* n = skip_value(before, e);
        if (!n) {
          why = "malformed value of \"" + std::string(key) + "\"";
          r = Parse::kBad;
          return false;
        }
        p = n;
        warnings_.push_back("\"" + std::string(key) + "\" is not a number; counted as absent");
      } else if (k == -1) {
        warnings_.push_back("\"" + std::string(key) + "\" is negative (" + std::string(before, static_cast<size_t>(p - before)) +
                            "); counted as absent");
      } else {
        warnings_.push_back("\"" + std::string(key) + "\" is not a plausible integer (" +
                            std::string(before, static_cast<size_t>(std::min<std::ptrdiff_t>(p - before, 40))) + "); counted as absent");
      }
      dst = 0;
      return false;
    };
    const char k0 = key.empty() ? 0 : key[0];
    bool handled = true;
    switch (k0) {
      case 'a':
        if (key == "address") {
          if (*p == '"') {
            Parse ar = read_string(sv, scratch_[3], false);
            if (ar != Parse::kOk) return ar;
            address_ok_ = parse_hex_address(sv, obj_.address);
            if (!address_ok_) warnings_.push_back("address \"" + std::string(sv.substr(0, 24)) + "\" is not a 0x… hex address");
          } else {
            want_string(sv, scratch_[3], false);
            if (r != Parse::kOk) return r;
            address_ok_ = false;
          }
        } else handled = false;
        break;
      case 't':
        if (key == "type") {
          if (type_seen) warnings_.push_back("\"type\" appears twice; the last one wins");
          type_seen = true;
          if (!want_string(type_str, scratch_[3], false)) {
            if (r != Parse::kOk) return r;
            type_str = {};
          }
        } else handled = false;
        break;
      case 'c':
        if (key == "class") {
          if (want_string(sv, scratch_[3], false)) {
            uint64_t a = 0;
            if (parse_hex_address(sv, a)) obj_.class_address = a;
          } else if (r != Parse::kOk) return r;
        } else handled = false;
        break;
      case 'r':
        if (key == "references") {
          if (*p != '[') {
            const char* n = skip_value(p, e);
            if (!n) {
              why = "malformed \"references\"";
              return Parse::kBad;
            }
            p = n;
            warnings_.push_back("\"references\" is not an array; ignored");
            break;
          }
          ++p;
          refs_ok_ = true;
          for (;;) {
            p = skip_ws(p, e);
            if (p >= e) {
              why = "the line ends inside \"references\"";
              return Parse::kIncomplete;
            }
            if (*p == ']') {
              ++p;
              break;
            }
            if (*p == ',') {
              ++p;
              continue;
            }
            if (*p != '"') {
              why = "expected an address string in \"references\"";
              return Parse::kBad;
            }
            const char* s = ++p;
            while (p < e && *p != '"') ++p;
            if (p >= e) {
              why = "the line ends inside \"references\"";
              return Parse::kIncomplete;
            }
            uint64_t a = 0;
            if (parse_hex_address(std::string_view(s, static_cast<size_t>(p - s)), a)) refs_.push_back(a);
            ++p;
          }
        } else if (key == "root") {
          if (!want_string(root_category_, scratch_[2], false) && r != Parse::kOk) return r;
          is_root_ = true;
        } else if (key == "real_class_name") {
          // A singleton or anonymous class: the name of the class its instances really are.
          if (!want_string(obj_.detail, scratch_[4], false) && r != Parse::kOk) return r;
        } else handled = false;
        break;
      case 'f':
        if (key == "file") {
          if (!want_string(obj_.file, scratch_[0], true) && r != Parse::kOk) return r;
        } else if (key == "frozen") {
          if (p + 4 <= e && std::memcmp(p, "true", 4) == 0) obj_.flags |= kFrozen;
          handled = false;
        } else if (key == "fstring") {
          if (p + 4 <= e && std::memcmp(p, "true", 4) == 0) obj_.flags |= kFstring;
          handled = false;
        } else if (key == "flags") {
          // {"wb_protected":true, "old":true, ...}: only booleans matter here
          if (const char* n = scan_flags(p, e, obj_.flags)) {
            p = n;
            break;
          }
          const char* n = skip_value(p, e);
          if (!n) {
            why = "malformed \"flags\"";
            return Parse::kIncomplete;
          }
          std::string_view f(p, static_cast<size_t>(n - p));
          if (f.find("\"old\":true") != std::string_view::npos) obj_.flags |= kOld;
          if (f.find("\"uncollectible\":true") != std::string_view::npos) obj_.flags |= kUncollectible;
          if (f.find("\"wb_protected\":true") != std::string_view::npos) obj_.flags |= kWbProtected;
          p = n;
        } else handled = false;
        break;
      case 'l':
        if (key == "line") {
          uint64_t v = 0;
          if (want_uint(v, 0xFFFFFFFEull)) obj_.line = static_cast<uint32_t>(v);
          else if (r != Parse::kOk) return r;
        } else handled = false;
        break;
      case 'g':
        if (key == "generation") {
          uint64_t v = 0;
          if (want_uint(v, 0x7FFFFFFFull)) {
            obj_.generation = static_cast<uint32_t>(v);
          } else if (r != Parse::kOk) return r;
        } else handled = false;
        break;
      case 'm':
        if (key == "memsize") {
          uint64_t v = 0;
          if (want_uint(v, 1ull << 40)) obj_.memsize = v;
          else if (r != Parse::kOk) return r;
        } else if (key == "method") {
          if (!want_string(obj_.method, scratch_[2], false) && r != Parse::kOk) return r;
        } else handled = false;
        break;
      case 'n':
        if (key == "name") {
          if (!want_string(obj_.name, scratch_[1], true) && r != Parse::kOk) return r;
        } else handled = false;
        break;
      case 'v':
        if (key == "value") {
          if (*p == '"') {
            Parse vr = read_string(obj_.value, scratch_[5], false);
            if (vr != Parse::kOk) return vr;
            obj_.has_value = true;
          } else {
            handled = false;
          }
        } else handled = false;
        break;
      case 'b':
        if (key == "bytesize") {
          uint64_t v = 0;
          if (want_uint(v, 0xFFFFFFFFull)) obj_.bytesize = static_cast<uint32_t>(v);
          else if (r != Parse::kOk) return r;
        } else handled = false;
        break;
      case 'i':
        if (key == "imemo_type") {
          if (!want_string(obj_.detail, scratch_[4], false) && r != Parse::kOk) return r;
        } else handled = false;
        break;
      case 's':
        if (key == "struct") {
          if (!want_string(obj_.detail, scratch_[4], false) && r != Parse::kOk) return r;
        } else if (key == "shared") {
          if (p + 4 <= e && std::memcmp(p, "true", 4) == 0) obj_.flags |= kShared;
          handled = false;
        } else if (key == "singleton") {
          if (p + 4 <= e && std::memcmp(p, "true", 4) == 0) obj_.flags |= kSingleton;
          handled = false;
        } else if (key == "shape_id" || key == "slot_size") {
          c_.has_shape_id = true;
          handled = false;
        } else handled = false;
        break;
      case 'e':
        if (key == "embedded") {
          if (p + 4 <= e && std::memcmp(p, "true", 4) == 0) obj_.flags |= kEmbedded;
        }
        handled = false;
        break;
      default:
        handled = false;
    }
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
  if (type_str.empty()) {
    obj_.type = kUnknownType;
    if (!is_root_) warnings_.push_back("record without \"type\"");
  } else if (type_str == "ROOT") {
    is_root_ = true;
  } else {
    obj_.type = type_from_name(type_str);
    if (obj_.type == kUnknownType && type_str != "UNKNOWN")
      warnings_.push_back("unknown type \"" + std::string(type_str.substr(0, 40)) + "\"; kept as UNKNOWN");
  }
  return Parse::kOk;
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
