#include "follow.h"

#include <algorithm>
#include <cmath>

namespace gcscope {

FollowCursor::Step FollowCursor::next(uint64_t size, std::string_view head) const {
  Step s;
  const size_t common = std::min(head.size(), head_.size());
  s.rotated = size < offset_ || head.compare(0, common, std::string_view(head_).substr(0, common)) != 0;
  s.from = s.rotated ? 0 : offset_;
  s.to = size;
  return s;
}

void FollowCursor::advance(std::string_view bytes) {
  if (offset_ < kHeadBytes) {
    const size_t want = static_cast<size_t>(kHeadBytes - offset_);
    head_.append(bytes.substr(0, std::min(want, bytes.size())));
  }
  offset_ += bytes.size();
}

namespace {
double number_at(const nlohmann::json& j, const char* a, const char* b) {
  if (!j.contains(a) || !j[a].is_object() || !j[a].contains(b) || !j[a][b].is_number()) return 0;
  return j[a][b].get<double>();
}
int64_t count_at(const nlohmann::json& j, const char* a, const char* b) {
  if (!j.contains(a) || !j[a].is_object() || !j[a].contains(b) || !j[a][b].is_number_integer()) return 0;
  return j[a][b].get<int64_t>();
}
}  // namespace

nlohmann::json follow_figures(const nlohmann::json& document) {
  nlohmann::json out = nlohmann::json::array();
  if (!document.contains("reports")) return out;
  for (const auto& r : document["reports"]) {
    nlohmann::json ids = nlohmann::json::array();
    if (r.contains("findings") && r["findings"].is_array())
      for (const auto& f : r["findings"])
        if (f.contains("id")) ids.push_back(f["id"]);
    out.push_back({{"pauses", count_at(r, "pauses", "count")},
                   {"pause_total_s", number_at(r, "pauses", "total_s")},
                   {"pause_max_s", number_at(r, "pauses", "max_s")},
                   {"events", count_at(r, "events", "total")},
                   {"findings", std::move(ids)}});
  }
  return out;
}

nlohmann::json follow_changes(const nlohmann::json& before, const nlohmann::json& after) {
  const nlohmann::json none = {
      {"pauses", 0}, {"pause_total_s", 0}, {"events", 0}, {"findings", nlohmann::json::array()}};
  const nlohmann::json& b = before.is_array() && !before.empty() ? before[0] : none;
  const nlohmann::json& a = after.is_array() && !after.empty() ? after[0] : none;
  nlohmann::json added = nlohmann::json::array();
  for (const auto& id : a["findings"])
    if (std::find(b["findings"].begin(), b["findings"].end(), id) == b["findings"].end()) added.push_back(id);
  const double total = a["pause_total_s"].get<double>() - b["pause_total_s"].get<double>();
  return {{"pauses", a["pauses"].get<int64_t>() - b["pauses"].get<int64_t>()},
          {"pause_total_s", std::round(total * 1e6) / 1e6},
          {"events", a["events"].get<int64_t>() - b["events"].get<int64_t>()},
          {"findings", std::move(added)}};
}

}  // namespace gcscope
