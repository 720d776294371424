// Many payloads dropped together (a folder, a zip, several files): one analyzer per payload, as for a
// single one, then the fleet: processes grouped by app and Ruby, a per-process table, outliers, one
// merged advice per strategy for each group. A single payload's report is the payload's own report.
#pragma once
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analyzer.h"

namespace gcscope::rubygc {

// Makes the analyzer of one payload (register.cpp's).
using PayloadAnalyzerFactory = std::function<std::unique_ptr<Analyzer>()>;

// The analyzer registered for the format: every payload of the input set goes through it.
std::unique_ptr<Analyzer> make_fleet_analyzer(PayloadAnalyzerFactory make_payload_analyzer);

// One analyzed payload as the fleet sees it.
struct FleetMember {
  std::string path;
  nlohmann::json report;  // the payload's own report (what a single drop shows)
};

// The fleet section of the report for two or more payloads:
//   {"processes": [row...], "groups": [group...], "notes": [text...]}
nlohmann::json fleet_report(const std::vector<FleetMember>& members);

// What a comparison reads of one side (its processes' figures), and the comparison of two sides
// (before, after): the FormatHandler's compare_family "rubygc" (compare.cpp).
nlohmann::json compare_side_of(const std::vector<FleetMember>& members);
nlohmann::json compare_runs(const nlohmann::json& before, const nlohmann::json& after);

}  // namespace gcscope::rubygc
