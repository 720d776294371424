// An append-only byte buffer for writers of big texts (report columns): numbers are formatted straight
// into its spare room. Why not std::string::append: per number it costs a call, a capacity check and a
// memmove call, which in wasm (V8) was ~70 ms for the ~500,000 numbers of a 200 MB JVM log's report.
#pragma once
#include <charconv>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace gcscope {

class TextBuffer {
 public:
  void reserve(size_t n) {
    if (n > cap_) regrow(n);
  }
  void put(char c) {
    room(1)[0] = c;
    ++len_;
  }
  void put(std::string_view s) {
    std::memcpy(room(s.size()), s.data(), s.size());
    len_ += s.size();
  }
  template <typename Int>
  void put_int(Int v) {
    char* p = room(24);
    len_ += static_cast<size_t>(std::to_chars(p, p + 24, v).ptr - p);
  }
  // Formats with a function f(char* first, char* last) -> char* end, given `most` bytes of room.
  template <typename F>
  void put_with(size_t most, F&& f) {
    char* p = room(most);
    len_ += static_cast<size_t>(f(p, p + most) - p);
  }
  std::string_view view() const { return {data_.get(), len_}; }
  size_t size() const { return len_; }
  bool empty() const { return len_ == 0; }
  void clear() { len_ = 0; }

 private:
  char* room(size_t n) {
    if (cap_ - len_ < n) regrow(len_ + n);
    return data_.get() + len_;
  }
  void regrow(size_t need) {
    size_t cap = cap_ ? cap_ * 2 : 256;
    while (cap < need) cap *= 2;
    std::unique_ptr<char[]> grown(new char[cap]);
    if (len_) std::memcpy(grown.get(), data_.get(), len_);
    data_ = std::move(grown);
    cap_ = cap;
  }
  std::unique_ptr<char[]> data_;
  size_t len_ = 0, cap_ = 0;
};

}  // namespace gcscope
