// LineSplitter: turns arbitrarily cut chunks into whole lines without copying the common case.
// A line that straddles two chunks is the only thing ever copied (into `carry_`), so a parser sees
// the same lines whatever the chunk size — the property the chunk-boundary tests check.
// The newline search is bytes::find_byte (glibc memchr natively, 16 bytes per step in wasm with SIMD).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "core/byte_find.h"

namespace gcscope {

class LineSplitter {
 public:
  // `on_line(std::string_view line, uint64_t line_number, uint64_t offset)` gets each line without
  // its "\n" (and without a trailing "\r"); line numbers are 1-based, offsets are byte offsets of the
  // line's first byte in the whole stream.
  template <typename OnLine>
  void feed(const char* data, size_t len, OnLine&& on_line) {
    const char* p = data;
    const char* end = data + len;
    if (!carry_.empty()) {
      const char* nl = bytes::find_byte(p, end, '\n');
      if (!nl) {
        carry_.append(p, static_cast<size_t>(end - p));
        return;
      }
      carry_.append(p, static_cast<size_t>(nl - p));
      emit(std::string_view(carry_), on_line);
      offset_ += carry_.size() + 1;
      carry_.clear();
      p = nl + 1;
    }
    while (p < end) {
      const char* nl = bytes::find_byte(p, end, '\n');
      if (!nl) break;
      emit(std::string_view(p, static_cast<size_t>(nl - p)), on_line);
      offset_ += static_cast<uint64_t>(nl - p) + 1;
      p = nl + 1;
    }
    if (p < end) carry_.assign(p, static_cast<size_t>(end - p));
  }

  // Delivers a last line that had no "\n" (a truncated log, or a file without a final newline).
  template <typename OnLine>
  void finish(OnLine&& on_line) {
    if (!carry_.empty()) {
      emit(std::string_view(carry_), on_line);
      offset_ += carry_.size();
      carry_.clear();
    }
  }

  uint64_t lines() const { return line_; }
  uint64_t bytes() const { return offset_ + carry_.size(); }
  bool has_partial_line() const { return !carry_.empty(); }

 private:
  template <typename OnLine>
  void emit(std::string_view line, OnLine& on_line) {
    ++line_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    on_line(line, line_, offset_);
  }

  std::string carry_;
  uint64_t line_ = 0;
  uint64_t offset_ = 0;
};

}  // namespace gcscope
