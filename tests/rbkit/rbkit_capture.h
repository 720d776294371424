// An rbkit capture fed whole through an InputSet, as the worker feeds it; the set stays open for
// queries, and *report (when given) receives its rbkit report.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "support.h"

namespace gcscope::test {

inline std::unique_ptr<InputSet> open_capture(const std::string& path, nlohmann::json* report = nullptr) {
  auto set = std::make_unique<InputSet>(nlohmann::json::object());
  std::string bytes = read_file(path);
  set->begin_file(path);
  set->feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  set->end_file();
  nlohmann::json doc = set->finish();
  raw_json::resolve(doc);
  if (report) *report = report_of(doc, "rbkit-capture");
  return set;
}

// Several captures in one InputSet (one report each, as a folder of them is analyzed), kept open
// for queries: each {path it is analyzed as, file read}.
inline std::unique_ptr<InputSet> open_captures(const std::vector<std::pair<std::string, std::string>>& files) {
  auto set = std::make_unique<InputSet>(nlohmann::json::object());
  for (const auto& [name, path] : files) {
    std::string bytes = read_file(path);
    set->begin_file(name);
    set->feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    set->end_file();
  }
  set->finish();
  return set;
}

}  // namespace gcscope::test
