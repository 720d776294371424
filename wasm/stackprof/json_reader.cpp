#include "json_reader.h"

#include <cstdlib>
#include <vector>

#include "core/json_string.h"

namespace gcscope::stackprof {

namespace {

constexpr size_t kMaxDepth = 512;

inline bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

class Scanner {
 public:
  Scanner(const char* b, size_t n, ValueSink& sink, JsonError& err) : b_(b), n_(n), sink_(sink), err_(err) {}

  bool run() {
    // Containers: '{' or '['. After a value inside one: ',' or the closer.
    skip_ws();
    if (!value()) return false;
    while (!stack_.empty()) {
      skip_ws();
      if (p_ >= n_) return truncated();
      char c = b_[p_];
      char open = stack_.back();
      if (c == ',') {
        ++p_;
        skip_ws();
        if (open == '{') {
          if (!key()) return false;
        }
        if (!value()) return false;
      } else if ((open == '{' && c == '}') || (open == '[' && c == ']')) {
        ++p_;
        stack_.pop_back();
        sink_.end();
      } else {
        return fail(std::string("expected ',' or '") + (open == '{' ? '}' : ']') + "'", c);
      }
    }
    skip_ws();
    if (p_ < n_) return fail("expected the end of the document", b_[p_]);
    return true;
  }

 private:
  void skip_ws() {
    while (p_ < n_ && is_ws(b_[p_])) ++p_;
  }
  bool truncated() {
    err_.offset = n_;
    err_.truncated = true;
    err_.message = "JSON ends early at byte " + std::to_string(n_) + " (truncated?)";
    return false;
  }
  bool fail(const std::string& what, char found) {
    err_.offset = p_;
    char buf[16];
    if (static_cast<unsigned char>(found) >= 0x20 && static_cast<unsigned char>(found) < 0x7f)
      std::snprintf(buf, sizeof buf, "'%c'", found);
    else
      std::snprintf(buf, sizeof buf, "byte 0x%02x", static_cast<unsigned char>(found));
    err_.message = "invalid JSON at byte " + std::to_string(p_) + ": " + what + ", found " + buf;
    return false;
  }

  // A key and its colon, in an object.
  bool key() {
    if (p_ >= n_) return truncated();
    if (b_[p_] != '"') return fail("expected a string key", b_[p_]);
    std::string_view k;
    if (!string(k)) return false;
    sink_.on_string(k);
    skip_ws();
    if (p_ >= n_) return truncated();
    if (b_[p_] != ':') return fail("expected ':'", b_[p_]);
    ++p_;
    skip_ws();
    return true;
  }

  // One value; a container is opened (and its first key read) and left on the stack.
  bool value() {
    if (p_ >= n_) return truncated();
    char c = b_[p_];
    switch (c) {
      case '{':
      case '[': {
        if (stack_.size() >= kMaxDepth) return fail("nesting deeper than " + std::to_string(kMaxDepth) + " levels", c);
        ++p_;
        if (c == '{') sink_.begin_map(""); else sink_.begin_list("");
        skip_ws();
        if (p_ >= n_) return truncated();
        char close = c == '{' ? '}' : ']';
        if (b_[p_] == close) {  // empty
          ++p_;
          sink_.end();
          return true;
        }
        stack_.push_back(c);
        if (c == '{') {
          if (!key()) return false;
        }
        return value();
      }
      case '"': {
        std::string_view s;
        if (!string(s)) return false;
        sink_.on_string(s);
        return true;
      }
      case 't': return literal("true", [&] { sink_.on_bool(true); });
      case 'f': return literal("false", [&] { sink_.on_bool(false); });
      case 'n': return literal("null", [&] { sink_.on_nil(); });
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        return fail("expected a value", c);
    }
  }

  template <typename F>
  bool literal(const char* word, F emit) {
    size_t len = std::char_traits<char>::length(word);
    for (size_t i = 0; i < len; ++i) {
      if (p_ + i >= n_) return truncated();
      if (b_[p_ + i] != word[i]) {
        p_ += i;
        return fail(std::string("expected ") + word, b_[p_]);
      }
    }
    p_ += len;
    emit();
    return true;
  }

  bool number() {
    size_t start = p_;
    bool neg = b_[p_] == '-';
    if (neg) ++p_;
    if (p_ >= n_) return truncated();
    if (b_[p_] < '0' || b_[p_] > '9') return fail("expected a digit", b_[p_]);
    uint64_t v = 0;
    bool overflow = false;
    while (p_ < n_ && b_[p_] >= '0' && b_[p_] <= '9') {
      uint64_t d = static_cast<uint64_t>(b_[p_] - '0');
      if (v > (UINT64_MAX - d) / 10) overflow = true;
      v = v * 10 + d;
      ++p_;
    }
    bool fraction = p_ < n_ && (b_[p_] == '.' || b_[p_] == 'e' || b_[p_] == 'E');
    if (fraction) {
      if (b_[p_] == '.') {
        ++p_;
        if (p_ >= n_) return truncated();
        if (b_[p_] < '0' || b_[p_] > '9') return fail("expected a digit after '.'", b_[p_]);
        while (p_ < n_ && b_[p_] >= '0' && b_[p_] <= '9') ++p_;
      }
      if (p_ < n_ && (b_[p_] == 'e' || b_[p_] == 'E')) {
        ++p_;
        if (p_ < n_ && (b_[p_] == '+' || b_[p_] == '-')) ++p_;
        if (p_ >= n_) return truncated();
        if (b_[p_] < '0' || b_[p_] > '9') return fail("expected an exponent", b_[p_]);
        while (p_ < n_ && b_[p_] >= '0' && b_[p_] <= '9') ++p_;
      }
    }
    if (p_ >= n_ && stack_.empty() == false) return truncated();  // a number can only end the document at top level
    if (fraction || overflow || (neg && v > static_cast<uint64_t>(INT64_MAX) + 1)) {
      std::string text(b_ + start, p_ - start);
      sink_.on_float(std::strtod(text.c_str(), nullptr), text);
    } else if (neg) {
      sink_.on_int(v == static_cast<uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<int64_t>(v));
    } else if (v <= static_cast<uint64_t>(INT64_MAX)) {
      sink_.on_int(static_cast<int64_t>(v));
    } else {
      sink_.on_uint(v);
    }
    return true;
  }

  // A string at p_ (the opening quote). Without escapes it points into the buffer.
  bool string(std::string_view& out) {
    const char* p = b_ + p_ + 1;
    json::StringStatus st = json::decode_string(p, b_ + n_, out, scratch_, /*reject_control=*/true);
    p_ = static_cast<size_t>(p - b_);
    switch (st) {
      case json::StringStatus::kOk: return true;
      case json::StringStatus::kUnterminated: return truncated();
      case json::StringStatus::kControlChar: return fail("control character in a string", *p);
      case json::StringStatus::kBadEscape: return fail("invalid escape", *p);
      case json::StringStatus::kBadUnicodeEscape: return fail("expected 4 hex digits after \\u", *p);
    }
    return false;
  }

  const char* b_;
  size_t n_;
  size_t p_ = 0;
  ValueSink& sink_;
  JsonError& err_;
  std::vector<char> stack_;
  std::string scratch_;
};

}  // namespace

bool read_json(const char* data, size_t size, ValueSink& sink, JsonError& error) {
  Scanner s(data, size, sink, error);
  return s.run();
}

}  // namespace gcscope::stackprof
