#include "stack_source.h"

#include <vector>

namespace gcscope::tracing {

namespace {

// Consecutive stacks share prefixes: the previous stack's nodes are reused before any hash lookup.
class PathBuilder {
 public:
  explicit PathBuilder(profile::StackModel& m) : m_(m) {}
  void add(const std::vector<uint32_t>& path, double weight) {
    size_t common = 0;
    while (common < path.size() && common < frames_.size() && frames_[common] == path[common]) ++common;
    frames_.resize(common);
    nodes_.resize(common);
    for (size_t d = common; d < path.size(); ++d) {
      nodes_.push_back(m_.child(d == 0 ? -1 : nodes_[d - 1], path[d]));
      frames_.push_back(path[d]);
    }
    m_.add_sample(path.empty() ? -1 : nodes_.back(), weight);
  }

 private:
  profile::StackModel& m_;
  std::vector<uint32_t> frames_;
  std::vector<int32_t> nodes_;
};

profile::Frame frame_named(std::string name) {
  profile::Frame f;
  f.name = std::move(name);
  return f;
}

}  // namespace

profile::StackModel stack_model(const StackTable& table, const std::string& unit) {
  profile::StackModel m;
  m.unit = unit;
  // Every frame of the table, in its order: frame indices are the report's.
  m.frames.reserve(table.frame_count());
  for (uint32_t f = 0; f < table.frame_count(); ++f) m.add_frame(frame_named(std::string(table.frame_name(f))));
  PathBuilder paths(m);
  for (size_t i = 0; i < table.unique(); ++i) paths.add(table.frames_of(i), table.weight(i));
  return m;
}

profile::StackModel stack_model(const nlohmann::json& stacks) {
  profile::StackModel m;
  if (!stacks.is_object()) return m;
  auto frames = stacks.find("frames"), list = stacks.find("stacks"), weights = stacks.find("weights");
  if (frames == stacks.end() || list == stacks.end() || weights == stacks.end() || !frames->is_array() ||
      !list->is_array() || !weights->is_array() || list->size() != weights->size())
    return m;
  m.unit = stacks.value("weight_unit", std::string("samples"));
  for (const auto& name : *frames) m.add_frame(frame_named(name.is_string() ? name.get<std::string>() : ""));
  PathBuilder paths(m);
  std::vector<uint32_t> path;
  for (size_t i = 0; i < list->size(); ++i) {
    const auto& s = (*list)[i];
    const auto& w = (*weights)[i];
    if (!s.is_array() || !w.is_number()) continue;
    path.clear();
    bool ok = true;
    for (const auto& f : s) {
      ok = f.is_number_unsigned() && f.get<uint64_t>() < m.frames.size();
      if (!ok) break;
      path.push_back(static_cast<uint32_t>(f.get<uint64_t>()));
    }
    if (ok) paths.add(path, w.get<double>());
  }
  return m;
}

}  // namespace gcscope::tracing
