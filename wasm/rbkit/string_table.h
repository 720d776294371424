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

#include "core/utf8.h"

namespace gcscope::rbkit {

class StringTable {
 public:
  explicit StringTable(std::string_view first = "") { intern(first); }  // index 0: "none"/"(nil)"

  uint32_t intern(std::string_view raw) {
    if (last_ < raw_.size() && raw_[last_] == raw) return last_;  // runs of one class are common
    auto it = index_.find(raw);
    if (it != index_.end()) return last_ = it->second;
    raw_.emplace_back(raw);
    const std::string& kept = raw_.back();
    std::string shown;
    if (utf8::repair(kept, shown) > 0) ++invalid_utf8_;
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
