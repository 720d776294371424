// The member and the wall-clock time of a record of the session's columns (aggregator.h): what the
// tables and the timeline give each pause and safepoint.
#pragma once
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "jvm/aggregator.h"
#include "jvm/column_scan.h"

namespace gcscope::jvm {

// The member of each row of a stream, read in row order from its (first row, member) runs.
class MemberRuns {
 public:
  MemberRuns(const std::vector<std::pair<size_t, uint32_t>>& runs, const std::vector<std::string>& paths)
      : runs_(runs), paths_(paths) {}
  uint32_t member(size_t row) {
    while (k_ + 1 < runs_.size() && runs_[k_ + 1].first <= row) ++k_;
    return runs_.empty() ? 0 : runs_[k_].second;
  }
  const std::string& path(uint32_t member) const {
    static const std::string none;
    return member < paths_.size() ? paths_[member] : paths_.empty() ? none : paths_.front();
  }

 private:
  const std::vector<std::pair<size_t, uint32_t>>& runs_;
  const std::vector<std::string>& paths_;
  size_t k_ = 0;
};

// The wall-clock time of an uptime in one member, from the member's events: the latest event
// starting at or before it that was printed with both clocks (else the member's first such event)
// gives the offset between the clocks, so a pause inside a concurrent cycle or a safepoint gets the
// instant its uptime stands for. Questions about one member come in time order (every stream is in
// time order within a member), so each member's events are read once.
class WallClock {
 public:
  explicit WallClock(const GcColumns& c) : t_(c.events.t), wall_(c.events.wall_ms), any_(c.events.wall_ms.any_value()) {
    const auto& runs = c.event_members;
    for (size_t s = 0; s < runs.size(); ++s) {
      const size_t end = s + 1 < runs.size() ? runs[s + 1].first : c.events.size();
      members_[runs[s].second].ranges.emplace_back(runs[s].first, end);
    }
    for (auto& m : members_) m.second.restart();
  }

  // Epoch milliseconds of uptime `t` (ns) of `member`; NaN when unknown.
  double epoch_ms(uint32_t member, int64_t t) {
    if (!any_ || t == IntColumn::kNull) return NAN;
    const auto it = members_.find(member);
    if (it == members_.end()) return NAN;
    Member& m = it->second;
    if (m.anchored && !m.first && t < m.t) m.restart();  // an earlier time than the last question's
    while (m.k < m.ranges.size()) {
      if (m.row >= m.ranges[m.k].second) {
        if (++m.k < m.ranges.size()) m.row = m.ranges[m.k].first;
        continue;
      }
      const int64_t te = t_(m.row), wall = wall_(m.row);
      if (te != IntColumn::kNull && wall != IntColumn::kNull) {
        if (m.anchored && te > t) break;
        m.first = !m.anchored;
        m.anchored = true;
        m.t = te, m.wall = wall;
      }
      ++m.row;
    }
    return m.anchored ? static_cast<double>(m.wall) + static_cast<double>(t - m.t) / 1e6 : NAN;
  }

 private:
  struct Member {
    std::vector<std::pair<size_t, size_t>> ranges;  // the member's event rows
    size_t k = 0, row = 0;                          // the next event row to read
    bool anchored = false, first = false;           // an anchor is held; it is the member's first
    int64_t t = 0, wall = 0;                        // the anchor: uptime ns, epoch ms
    void restart() {
      k = 0, row = ranges.empty() ? 0 : ranges[0].first;
      anchored = first = false;
    }
  };
  Reader t_, wall_;
  bool any_;
  std::map<uint32_t, Member> members_;
};

}  // namespace gcscope::jvm
