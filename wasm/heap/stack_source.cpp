#include "heap/stack_source.h"

#include <string>
#include <vector>

namespace gcscope::heap {

namespace {

// "lib/app.rb:12" → file and line; a location without a line keeps the whole text as the file.
void split_location(const nlohmann::json& loc, profile::Frame& f) {
  if (!loc.is_string()) return;
  const std::string& s = loc.get_ref<const std::string&>();
  size_t colon = s.rfind(':');
  if (colon != std::string::npos && colon + 1 < s.size() &&
      s.find_first_not_of("0123456789", colon + 1) == std::string::npos && s.size() - colon <= 18) {
    f.file = s.substr(0, colon);
    f.line = std::stoll(s.substr(colon + 1));
  } else {
    f.file = s;
  }
}

bool columns_ok(const nlohmann::json& t, size_t& n) {
  if (!t.is_object()) return false;
  for (const char* k : {"label", "retained", "parent", "location"}) {
    auto it = t.find(k);
    if (it == t.end() || !it->is_array()) return false;
  }
  n = t["parent"].size();
  return t["label"].size() == n && t["retained"].size() == n && t["location"].size() == n;
}

}  // namespace

profile::StackModel dominator_stack_model(const nlohmann::json& t) {
  profile::StackModel m;
  m.unit = "bytes";
  size_t n = 0;
  if (!columns_ok(t, n)) return m;
  const auto &label = t["label"], &retained = t["retained"], &parent = t["parent"], &location = t["location"];
  std::vector<double> self(n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    if (!parent[i].is_number_integer() || !retained[i].is_number()) return profile::StackModel();
    int64_t p = parent[i].get<int64_t>();
    if (p >= static_cast<int64_t>(i) || (p < 0 && i > 0)) return profile::StackModel();  // preorder, one root
    profile::Frame f;
    f.name = label[i].is_string() ? label[i].get<std::string>() : "?";
    split_location(location[i], f);
    uint32_t fi = m.add_frame(std::move(f));
    m.child(static_cast<int32_t>(p), fi);  // node i: frames are unique, so every child is new
    self[i] += retained[i].get<double>();
    if (p >= 0) self[static_cast<size_t>(p)] -= retained[i].get<double>();
  }
  for (size_t i = 0; i < n; ++i)
    if (self[i] > 0) m.add_sample(static_cast<int32_t>(i), self[i]);
  return m;
}

profile::ExportInfo dominator_export_info(const std::string& name) {
  profile::ExportInfo info;
  info.name = name;
  info.pprof_types = {{"retained_space", "bytes", 1}};
  return info;
}

}  // namespace gcscope::heap
