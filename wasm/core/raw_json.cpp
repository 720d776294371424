#include "core/raw_json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace gcscope::raw_json {

using nlohmann::json;

namespace {
json raw_value(std::string_view text) {
  return json::binary(std::vector<std::uint8_t>(text.begin(), text.end()), kRawSubtype);
}
std::string_view raw_text(const json& v) {
  const auto& b = v.get_binary();
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}
}  // namespace

bool is_raw(const json& v) {
  return v.is_binary() && v.get_binary().has_subtype() && v.get_binary().subtype() == kRawSubtype;
}

ArrayWriter::ArrayWriter(size_t expected_items) {
  text_.reserve(2 + expected_items * 8);
  start();
}

void ArrayWriter::null() {
  separator();
  text_.put("null");
}

void ArrayWriter::integer(int64_t v) {
  separator();
  text_.put_int(v);
}

void ArrayWriter::unsigned_integer(uint64_t v) {
  separator();
  text_.put_int(v);
}

void ArrayWriter::number(double v) {
  separator();
  if (!std::isfinite(v)) {
    text_.put("null");
    return;
  }
  text_.put_with(64, [v](char* first, char* last) { return nlohmann::detail::to_chars(first, last, v); });
}

void ArrayWriter::value(const json& v) {
  switch (v.type()) {
    case json::value_t::null: null(); break;
    case json::value_t::number_integer: integer(v.get<int64_t>()); break;
    case json::value_t::number_unsigned: unsigned_integer(v.get<uint64_t>()); break;
    case json::value_t::number_float: number(v.get<double>()); break;
    default:
      separator();
      text_.put(v.dump(-1, ' ', false, json::error_handler_t::replace));
      break;
  }
}

json ArrayWriter::take() {
  text_.put(']');
  json out = raw_value(text_.view());
  start();
  return out;
}

namespace {
// Whether text has a byte that JSON escapes or that is not ASCII ('"', '\\', < 0x20, >= 0x80). Eight
// bytes per step (the texts are MBs of packed columns): a byte b of a word w is flagged by the high bit of (b - k) &
// ~b, which is set only when b < k (for b < 0x80); '"' and '\\' are the bytes that XOR to zero.
bool needs_escaping(std::string_view text) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHigh = 0x8080808080808080ull;
  const auto below = [](uint64_t w, uint8_t k) { return (w - kOnes * k) & ~w & kHigh; };
  const char* p = text.data();
  size_t n = text.size();
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    if ((w & kHigh) | below(w, 0x20) | below(w ^ (kOnes * '"'), 1) | below(w ^ (kOnes * '\\'), 1)) return true;
  }
  for (; n > 0; ++p, --n) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return true;
  }
  return false;
}
}  // namespace

nlohmann::json plain_string(std::string_view text) {
  if (needs_escaping(text)) return json(std::string(text));
  std::vector<std::uint8_t> quoted;  // the binary value's bytes, built in place (the text can be MBs)
  quoted.reserve(text.size() + 2);
  quoted.push_back('"');
  quoted.insert(quoted.end(), text.begin(), text.end());
  quoted.push_back('"');
  return json::binary(std::move(quoted), kRawSubtype);
}

namespace {

// Objects and arrays are walked here; every other value goes to nlohmann's own serializer, so the
// output is byte for byte what dump() writes, raw values apart.
class DocumentWriter {
 public:
  explicit DocumentWriter(std::string& out)
      : out_(out),
        ser_(nlohmann::detail::output_adapter<char, std::string>(out), ' ', json::error_handler_t::replace) {}

  void write(const json& v) {
    if (v.is_object()) {
      out_ += '{';
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (!first) out_ += ',';
        first = false;
        key_ = it.key();
        ser_.dump(key_, false, false, 0);
        out_ += ':';
        write(it.value());
      }
      out_ += '}';
    } else if (v.is_array()) {
      out_ += '[';
      bool first = true;
      for (const auto& e : v) {
        if (!first) out_ += ',';
        first = false;
        write(e);
      }
      out_ += ']';
    } else if (is_raw(v)) {
      out_.append(raw_text(v));
    } else {
      ser_.dump(v, false, false, 0);
    }
  }

 private:
  std::string& out_;
  nlohmann::detail::serializer<json> ser_;
  json key_;
};

}  // namespace

std::string dump_document(const json& doc, int indent) {
  if (indent >= 0) {
    json copy = doc;
    resolve(copy);
    return copy.dump(indent, ' ', false, json::error_handler_t::replace);
  }
  std::string out;
  DocumentWriter(out).write(doc);
  return out;
}

void resolve(json& doc) {
  if (doc.is_object() || doc.is_array()) {
    for (auto& v : doc) resolve(v);
  } else if (is_raw(doc)) {
    doc = json::parse(raw_text(doc));
  }
}

}  // namespace gcscope::raw_json
