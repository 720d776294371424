// An rbkit capture fed whole through an InputSet, as the worker feeds it; the set stays open for
// queries, and *report (when given) receives its rbkit report.
#pragma once
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
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

// (name, self, total) of each frame row of `stackprof --text`: "TOTAL (pct) SAMPLES (pct) FRAME".
inline std::multiset<std::tuple<std::string, double, double>> stackprof_text_rows(const std::string& text) {
  std::multiset<std::tuple<std::string, double, double>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    double total = 0, self = 0;
    std::string pct1, pct2, name;
    if (!(l >> total >> pct1 >> self >> pct2)) continue;
    std::getline(l >> std::ws, name);
    rows.emplace(name, self, total);
  }
  return rows;
}

}  // namespace gcscope::test
