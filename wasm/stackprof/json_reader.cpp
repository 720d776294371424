#include "json_reader.h"

#include <cstdlib>
#include <vector>

namespace gcscope::stackprof {

namespace {

constexpr size_t kMaxDepth = 512;

inline bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

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
    ++p_;
    size_t start = p_;
    while (p_ < n_) {
      char c = b_[p_];
      if (c == '"') {
        out = std::string_view(b_ + start, p_ - start);
        ++p_;
        return true;
      }
      if (c == '\\') break;
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string", c);
      ++p_;
    }
    if (p_ >= n_) return truncated();
    scratch_.assign(b_ + start, p_ - start);
    while (p_ < n_) {
      char c = b_[p_];
      if (c == '"') {
        ++p_;
        out = scratch_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string", c);
      if (c != '\\') {
        scratch_.push_back(c);
        ++p_;
        continue;
      }
      if (p_ + 1 >= n_) return truncated();
      char e = b_[p_ + 1];
      p_ += 2;
      switch (e) {
        case '"': scratch_.push_back('"'); break;
        case '\\': scratch_.push_back('\\'); break;
        case '/': scratch_.push_back('/'); break;
        case 'b': scratch_.push_back('\b'); break;
        case 'f': scratch_.push_back('\f'); break;
        case 'n': scratch_.push_back('\n'); break;
        case 'r': scratch_.push_back('\r'); break;
        case 't': scratch_.push_back('\t'); break;
        case 'u': {
          uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xd800 && cp < 0xdc00 && p_ + 1 < n_ && b_[p_] == '\\' && b_[p_ + 1] == 'u') {
            p_ += 2;
            uint32_t lo = 0;
            if (!hex4(lo)) return false;
            if (lo >= 0xdc00 && lo < 0xe000) cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            else { append_utf8(scratch_, 0xfffd); cp = lo; }
          } else if (cp >= 0xd800 && cp < 0xe000) {
            cp = 0xfffd;  // a lone surrogate
          }
          append_utf8(scratch_, cp);
          break;
        }
        default:
          p_ -= 1;
          return fail("invalid escape", e);
      }
    }
    return truncated();
  }

  bool hex4(uint32_t& cp) {
    if (p_ + 4 > n_) return truncated();
    for (int i = 0; i < 4; ++i) {
      char h = b_[p_ + static_cast<size_t>(i)];
      uint32_t d = h >= '0' && h <= '9' ? static_cast<uint32_t>(h - '0')
                   : h >= 'a' && h <= 'f' ? static_cast<uint32_t>(h - 'a' + 10)
                   : h >= 'A' && h <= 'F' ? static_cast<uint32_t>(h - 'A' + 10) : 16;
      if (d == 16) {
        p_ += static_cast<size_t>(i);
        return fail("expected 4 hex digits after \\u", h);
      }
      cp = cp * 16 + d;
    }
    p_ += 4;
    return true;
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
