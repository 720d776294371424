// For streaming parsers that stop at a token cut by the end of a chunk (a Marshal value, a JSON
// number or string): the cut token's bytes wait here and are completed with the next chunk, while
// everything else is parsed in place in the chunk it arrived in (no copy of whole chunks).
#pragma once
#include <algorithm>
#include <cstddef>
#include <string>

namespace gcscope {

class TokenCarry {
 public:
  // parse(const char* p, size_t n) -> size_t: parses what it can of p[0..n) and returns how many
  // bytes it used (it stops before an incomplete token). stopped() -> bool: the parser failed or the
  // stream ended, so nothing more is to be parsed.
  template <typename Parse, typename Stopped>
  void feed(const char* data, size_t len, Parse&& parse, Stopped&& stopped) {
    // Complete the carried token with pieces of this chunk (pieces grow with the carry, so a long
    // token is rescanned a bounded number of times), then hand the unused part of the last piece
    // back, so the rest of the chunk is parsed in place.
    while (!carry_.empty() && len > 0) {
      size_t old = carry_.size();
      size_t take = std::min(len, std::max(kPiece, old));
      carry_.append(data, take);
      data += take;
      len -= take;
      size_t used = parse(carry_.data(), carry_.size());
      if (stopped()) {
        release();
        return;
      }
      if (used >= old) {
        size_t back = carry_.size() - used;
        data -= back;
        len += back;
        carry_.clear();
      } else {
        carry_.erase(0, used);
      }
    }
    if (len == 0) return;
    size_t used = parse(data, len);
    if (!stopped() && used < len) carry_.assign(data + used, len - used);
  }

  bool empty() const { return carry_.empty(); }
  const char* data() const { return carry_.data(); }
  size_t size() const { return carry_.size(); }
  void release() { std::string().swap(carry_); }

 private:
  static constexpr size_t kPiece = size_t(64) << 10;
  std::string carry_;
};

}  // namespace gcscope
