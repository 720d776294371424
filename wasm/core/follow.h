// Following a file that grows (a GC log still being written): where reading stands, whether the
// file was rotated, and what changed between two reports. The CLI's `analyze --follow` and the
// page's Follow use the same rules.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gcscope {

class FollowCursor {
 public:
  // How many first bytes of the file are compared to notice a replaced file.
  static constexpr uint64_t kHeadBytes = 64;

  struct Step {
    bool rotated = false;       // the file was truncated or replaced: read it again from 0 as a new file
    uint64_t from = 0, to = 0;  // the bytes to read next
  };
  // The next read, given the file's size now and its first min(size, kHeadBytes) bytes now. The
  // file was rotated when it is shorter than what was read of it, or when it no longer starts with
  // the bytes it started with.
  Step next(uint64_t size, std::string_view head) const;
  // A new file starts (the first, or a rotated one's new content): reading starts at 0.
  void restart() { offset_ = 0, head_.clear(); }
  // `bytes` were read where reading stood.
  void advance(std::string_view bytes);
  uint64_t offset() const { return offset_; }

 private:
  uint64_t offset_ = 0;
  std::string head_;  // the current file's first bytes, as read
};

// The figures of a document that a follower watches, per report: {pauses, pause_total_s,
// pause_max_s, events, findings: [id]} (the fields a report has of these).
nlohmann::json follow_figures(const nlohmann::json& document);
// What changed from figures `before` to `after` (follow_figures answers), for the first report:
// {pauses, pause_total_s, events, findings: [ids not there before]}.
nlohmann::json follow_changes(const nlohmann::json& before, const nlohmann::json& after);

}  // namespace gcscope
