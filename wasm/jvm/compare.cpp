#include "jvm/compare.h"

#include <cmath>
#include <map>

namespace gcscope::jvm {

namespace {

void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, double>& out, int depth) {
  if (depth > 8) return;  // reports are shallow; bound the walk anyway
  if (j.is_number()) {
    double v = j.get<double>();
    if (std::isfinite(v)) out[prefix] = v;
    return;
  }
  if (!j.is_object()) return;
  for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, out, depth + 1);
}

std::map<std::string, double> kpi_map(const nlohmann::json& report) {
  std::map<std::string, double> out;
  if (!report.is_object()) return out;
  for (const char* group : {"pauses", "heap", "rates"})
    if (report.contains(group)) flatten(report[group], group, out, 0);
  for (const char* scalar : {"throughput_percent", "percent_paused"})
    if (report.contains(scalar)) flatten(report[scalar], scalar, out, 0);
  if (report.contains("events") && report["events"].is_object() && report["events"].contains("total"))
    flatten(report["events"]["total"], "events.total", out, 0);
  return out;
}

nlohmann::json side(const nlohmann::json& report) {
  nlohmann::json s = nlohmann::json::object();
  s["format"] = report.is_object() ? report.value("format", "") : "";
  s["inputs"] = report.is_object() && report.contains("inputs") ? report["inputs"] : nlohmann::json::array();
  return s;
}

}  // namespace

nlohmann::json kpis_of(const nlohmann::json& report) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : kpi_map(report)) out[k] = v;
  return out;
}

nlohmann::json compare_reports(const nlohmann::json& a, const nlohmann::json& b) {
  auto ka = kpi_map(a), kb = kpi_map(b);
  std::map<std::string, int> keys;
  for (const auto& [k, v] : ka) keys[k] |= 1, (void)v;
  for (const auto& [k, v] : kb) keys[k] |= 2, (void)v;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& [k, which] : keys) {
    nlohmann::json row = {{"key", k}, {"a", nullptr}, {"b", nullptr}, {"delta", nullptr}, {"delta_percent", nullptr}};
    if (which & 1) row["a"] = ka[k];
    if (which & 2) row["b"] = kb[k];
    if (which == 3) {
      double d = kb[k] - ka[k];
      row["delta"] = d;
      if (ka[k] != 0) row["delta_percent"] = 100.0 * d / std::fabs(ka[k]);
    }
    rows.push_back(std::move(row));
  }
  return {{"a", side(a)}, {"b", side(b)}, {"kpis", std::move(rows)}};
}

}  // namespace gcscope::jvm
