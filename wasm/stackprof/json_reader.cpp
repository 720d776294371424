#include "json_reader.h"

#include <algorithm>
#include <cstdlib>

#include "core/json_string.h"

namespace gcscope::stackprof {

namespace {
inline bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

JsonReader::Step JsonReader::fail(uint64_t at, const std::string& what, char found) {
  char buf[16];
  if (static_cast<unsigned char>(found) >= 0x20 && static_cast<unsigned char>(found) < 0x7f)
    std::snprintf(buf, sizeof buf, "'%c'", found);
  else std::snprintf(buf, sizeof buf, "byte 0x%02x", static_cast<unsigned char>(found));
  failed_ = true;
  error_.offset = static_cast<size_t>(at);
  error_.truncated = false;
  error_.message = "invalid JSON at byte " + std::to_string(at) + ": " + what + ", found " + buf;
  return Step::Failed;
}

size_t JsonReader::parse(const char* b, size_t n, uint64_t base, bool final) {
  size_t p = 0;
  for (;;) {
    while (p < n && is_ws(b[p])) ++p;
    if (p >= n) return p;
    size_t mark = p;
    Step s = token(b, n, p, base, final);
    if (s == Step::Incomplete) return mark;
    if (s == Step::Failed) return p;
    if (expect_ == Expect::End && root_end_ < 0) root_end_ = static_cast<int64_t>(base + p) - 1;
  }
}

// One token at b[p] (not whitespace), as the state allows.
JsonReader::Step JsonReader::token(const char* b, size_t n, size_t& p, uint64_t base, bool final) {
  char c = b[p];
  switch (expect_) {
    case Expect::End: return fail(base + p, "expected the end of the document", c);
    case Expect::Colon:
      if (c != ':') return fail(base + p, "expected ':'", c);
      ++p;
      expect_ = Expect::Value;
      return Step::Done;
    case Expect::CommaOrClose: {
      char open = stack_.back();
      if (c == ',') {
        ++p;
        expect_ = open == '{' ? Expect::Key : Expect::Value;
        return Step::Done;
      }
      if ((open == '{' && c == '}') || (open == '[' && c == ']')) {
        ++p;
        stack_.pop_back();
        sink_.end();
        after_value();
        return Step::Done;
      }
      return fail(base + p, std::string("expected ',' or '") + (open == '{' ? '}' : ']') + "'", c);
    }
    case Expect::FirstKeyOrClose:
    case Expect::FirstValueOrClose:
      if (c == (expect_ == Expect::FirstKeyOrClose ? '}' : ']')) {  // an empty container
        ++p;
        stack_.pop_back();
        sink_.end();
        after_value();
        return Step::Done;
      }
      expect_ = expect_ == Expect::FirstKeyOrClose ? Expect::Key : Expect::Value;
      return token(b, n, p, base, final);
    case Expect::Key: {
      if (c != '"') return fail(base + p, "expected a string key", c);
      std::string_view k;
      Step s = string(b, n, p, base, k);
      if (s != Step::Done) return s;
      sink_.on_string(k);
      expect_ = Expect::Colon;
      return Step::Done;
    }
    case Expect::Value: return value(b, n, p, base, final);
  }
  return Step::Failed;
}

JsonReader::Step JsonReader::value(const char* b, size_t n, size_t& p, uint64_t base, bool final) {
  char c = b[p];
  switch (c) {
    case '{':
    case '[':
      if (stack_.size() >= kMaxDepth)
        return fail(base + p, "nesting deeper than " + std::to_string(kMaxDepth) + " levels", c);
      ++p;
      stack_.push_back(c);
      if (c == '{') sink_.begin_map("");
      else sink_.begin_list("");
      expect_ = c == '{' ? Expect::FirstKeyOrClose : Expect::FirstValueOrClose;
      return Step::Done;
    case '"': {
      std::string_view s;
      Step st = string(b, n, p, base, s);
      if (st != Step::Done) return st;
      sink_.on_string(s);
      after_value();
      return Step::Done;
    }
    case 't': return literal(b, n, p, base, "true");
    case 'f': return literal(b, n, p, base, "false");
    case 'n': return literal(b, n, p, base, "null");
    default:
      if (c == '-' || is_digit(c)) return number(b, n, p, base, final);
      return fail(base + p, "expected a value", c);
  }
}

JsonReader::Step JsonReader::literal(const char* b, size_t n, size_t& p, uint64_t base, const char* word) {
  size_t len = std::char_traits<char>::length(word);
  for (size_t i = 0; i < len; ++i) {
    if (p + i >= n) return Step::Incomplete;
    if (b[p + i] != word[i]) return fail(base + p + i, std::string("expected ") + word, b[p + i]);
  }
  p += len;
  if (word[0] == 't') sink_.on_bool(true);
  else if (word[0] == 'f') sink_.on_bool(false);
  else sink_.on_nil();
  after_value();
  return Step::Done;
}

// A number ends at the first byte that cannot continue it; one that reaches the end of the buffer
// may go on in the next chunk, so it waits (unless the input is complete and it ends the document).
JsonReader::Step JsonReader::number(const char* b, size_t n, size_t& p, uint64_t base, bool final) {
  size_t q = p;
  bool neg = b[q] == '-';
  if (neg) ++q;
  if (q >= n) return Step::Incomplete;
  if (!is_digit(b[q])) return fail(base + q, "expected a digit", b[q]);
  uint64_t v = 0;
  bool overflow = false;
  while (q < n && is_digit(b[q])) {
    uint64_t d = static_cast<uint64_t>(b[q] - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = true;
    v = v * 10 + d;
    ++q;
  }
  bool fraction = q < n && (b[q] == '.' || b[q] == 'e' || b[q] == 'E');
  if (fraction) {
    if (b[q] == '.') {
      ++q;
      if (q >= n) return Step::Incomplete;
      if (!is_digit(b[q])) return fail(base + q, "expected a digit after '.'", b[q]);
      while (q < n && is_digit(b[q])) ++q;
    }
    if (q < n && (b[q] == 'e' || b[q] == 'E')) {
      ++q;
      if (q < n && (b[q] == '+' || b[q] == '-')) ++q;
      if (q >= n) return Step::Incomplete;
      if (!is_digit(b[q])) return fail(base + q, "expected an exponent", b[q]);
      while (q < n && is_digit(b[q])) ++q;
    }
  }
  if (q >= n && (!final || !stack_.empty())) return Step::Incomplete;
  if (fraction || overflow || (neg && v > static_cast<uint64_t>(INT64_MAX) + 1)) {
    std::string text(b + p, q - p);
    sink_.on_float(std::strtod(text.c_str(), nullptr), text);
  } else if (neg) {
    sink_.on_int(v == static_cast<uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<int64_t>(v));
  } else if (v <= static_cast<uint64_t>(INT64_MAX)) {
    sink_.on_int(static_cast<int64_t>(v));
  } else {
    sink_.on_uint(v);
  }
  p = q;
  after_value();
  return Step::Done;
}

// A string at b[p] (the opening quote). Without escapes it points into the buffer.
JsonReader::Step JsonReader::string(const char* b, size_t n, size_t& p, uint64_t base, std::string_view& out) {
  const char* q = b + p + 1;
  json::StringStatus st = json::decode_string(q, b + n, out, scratch_, /*reject_control=*/true);
  size_t at = static_cast<size_t>(q - b);
  switch (st) {
    case json::StringStatus::kOk: p = at; return Step::Done;
    case json::StringStatus::kUnterminated: return Step::Incomplete;
    case json::StringStatus::kControlChar: return fail(base + at, "control character in a string", *q);
    case json::StringStatus::kBadEscape: return fail(base + at, "invalid escape", *q);
    case json::StringStatus::kBadUnicodeEscape: return fail(base + at, "expected 4 hex digits after \\u", *q);
  }
  return Step::Failed;
}

void JsonReader::feed(const char* data, size_t len) {
  total_ += len;
  if (failed_ || len == 0) return;
  carry_.feed(
      data, len,
      [&](const char* p, size_t n) {
        size_t used = parse(p, n, consumed_, false);
        consumed_ += used;
        return used;
      },
      [&] { return failed_; });
}

bool JsonReader::finish() {
  if (failed_) return false;
  if (!carry_.empty()) {
    consumed_ += parse(carry_.data(), carry_.size(), consumed_, true);
    carry_.release();
    if (failed_) return false;
  }
  if (expect_ != Expect::End) {
    failed_ = true;
    error_.offset = static_cast<size_t>(total_);
    error_.truncated = true;
    error_.message = "JSON ends early at byte " + std::to_string(total_) + " (truncated?)";
    return false;
  }
  return true;
}

bool read_json(const char* data, size_t size, ValueSink& sink, JsonError& error) {
  JsonReader r(sink);
  r.feed(data, size);
  bool ok = r.finish();
  if (!ok) error = r.error();
  return ok;
}

}  // namespace gcscope::stackprof
