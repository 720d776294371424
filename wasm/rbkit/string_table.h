// Interned strings (class names, file paths, frame labels) of one capture. Keyed by the raw bytes as
// rbkit sent them, so two different invalid byte sequences stay two classes; each entry also has a
// display form that is valid UTF-8 (invalid bytes → U+FFFD), which is what goes into the JSON report.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gcscope::rbkit {

// Valid UTF-8 (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF); each byte that does not start a
// valid sequence becomes U+FFFD.
inline std::string to_valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size(), i = 0;
  while (i < n) {
    unsigned char c = b[i];
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c == 0xe0) len = 3, lo = 0xa0;
    else if (c >= 0xe1 && c <= 0xec) len = 3;
    else if (c == 0xed) len = 3, hi = 0x9f;
    else if (c >= 0xee && c <= 0xef) len = 3;
    else if (c == 0xf0) len = 4, lo = 0x90;
    else if (c >= 0xf1 && c <= 0xf3) len = 4;
    else if (c == 0xf4) len = 4, hi = 0x8f;
    bool ok = len && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) {
      unsigned char cc = b[i + k];
      if (k == 1 ? (cc < lo || cc > hi) : (cc < 0x80 || cc > 0xbf)) ok = false;
    }
    if (ok) {
      out.append(s.data() + i, len);
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

inline bool is_valid_utf8(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80) return to_valid_utf8(s) == s;
  return true;
}

class StringTable {
 public:
  explicit StringTable(std::string_view first = "") { intern(first); }  // index 0: "none"/"(nil)"

  uint32_t intern(std::string_view raw) {
    if (last_ < raw_.size() && raw_[last_] == raw) return last_;  // runs of one class are common
    auto it = index_.find(raw);
    if (it != index_.end()) return last_ = it->second;
    raw_.emplace_back(raw);
    const std::string& kept = raw_.back();
    std::string shown = to_valid_utf8(kept);
    if (shown != kept) ++invalid_utf8_;
    shown_.push_back(std::move(shown));
    uint32_t id = static_cast<uint32_t>(shown_.size() - 1);
    index_.emplace(std::string_view(kept), id);
    return last_ = id;
  }
  const std::string& shown(uint32_t id) const { return shown_[id]; }
  size_t size() const { return shown_.size(); }
  size_t invalid_utf8() const { return invalid_utf8_; }

 private:
  std::deque<std::string> raw_;  // stable addresses for the string_view keys
  std::vector<std::string> shown_;
  std::unordered_map<std::string_view, uint32_t> index_;
  uint32_t last_ = UINT32_MAX;
  size_t invalid_utf8_ = 0;
};

}  // namespace gcscope::rbkit
