// Before and after: two payloads (or two drops of payloads) of one app, one recorded with advice
// applied. A side is its processes' figures (compare_side_of); the comparison aggregates each side
// the same way and gives every metric its delta and a verdict, plus the RUBY_GC_* settings that
// changed between the runs (read from each payload's header). Lower is better for every metric.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "fleet.h"
#include "gc_params.h"

namespace gcscope::rubygc {

using nlohmann::json;

namespace {

constexpr double kSameWithin = 0.05;  // POLICY: a change under 5 % of the before value is "same"

double num_or(const json& v, double fallback = 0) { return v.is_number() ? v.get<double>() : fallback; }

json process_side(const FleetMember& m) {
  const json& r = m.report;
  const json mt = r.value("metrics", json::object());
  const json cols = r.value("units_of_work", json::object()).value("columns", json::object());
  const json h = r.value("header", json::object());
  double unit_ms = 0, gc_ms = 0;
  bool have_time = false;
  json durations = json::array();
  for (const auto& d : cols.value("duration_ms", json::array())) {
    unit_ms += num_or(d);
    durations.push_back(d);
  }
  for (const auto& g : cols.value("gc_time_ms", json::array()))
    if (g.is_number()) gc_ms += g.get<double>(), have_time = true;
  const double page = num_or(mt["page_obj_limit"]);
  json settings = json::object();
  const json env = h.value("existing_env", json::object());
  for (auto& [k, v] : env.items())
    if (!is_agent_control_var(k)) settings[k] = v;
  return {
      {"path", m.path},
      {"pid", h.value("pid", json())},
      {"hostname", h.value("hostname", json())},
      {"ruby_version", h.value("ruby_version", json())},
      {"status", r["verdict"].value("status", 400)},
      {"settings", settings},
      {"boot_gcs", mt["gc_at_boot"]},
      {"units", mt["units"]},
      {"gcs_while_working", mt["gcs_during_processing"]},
      {"majors_by", mt.value("majors_by", json::object())},
      {"gc_time_ms", have_time ? json(gc_ms) : json(nullptr)},
      {"unit_ms", unit_ms},
      {"duration_ms", durations},
      {"heap_slots", mt["max_heap_available_processing"]},
      {"heap_pages", page > 0 ? json(std::ceil(num_or(mt["max_heap_available_processing"]) / page)) : json(nullptr)},
      {"peak_rss_mb", std::max(num_or(mt["peak_rss_mb"]), num_or(mt["max_rss_mb"]))}};
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v[(v.size() - 1) / 2];
}

double pct_of(std::vector<double> v, double pct) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  double k = std::floor(pct / 100.0 * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(static_cast<size_t>(k), v.size() - 1)];
}

// One side's figures: per-process quantities as the median over its processes (a process boots
// once), rates pooled over all units of work.
std::map<std::string, double> aggregate(const json& side) {
  std::vector<double> boot, slots, pages, rss, durations;
  double units = 0, gcs = 0, gc_ms = 0, unit_ms = 0;
  bool have_time = false;
  std::map<std::string, double> majors;
  for (const auto& p : side["processes"]) {
    if (p["boot_gcs"].is_number()) boot.push_back(p["boot_gcs"].get<double>());
    if (p["heap_slots"].is_number()) slots.push_back(p["heap_slots"].get<double>());
    if (p["heap_pages"].is_number()) pages.push_back(p["heap_pages"].get<double>());
    if (num_or(p["peak_rss_mb"]) > 0) rss.push_back(p["peak_rss_mb"].get<double>());
    for (const auto& d : p["duration_ms"]) durations.push_back(num_or(d));
    units += num_or(p["units"]);
    gcs += num_or(p["gcs_while_working"]);
    unit_ms += num_or(p["unit_ms"]);
    if (p["gc_time_ms"].is_number()) gc_ms += p["gc_time_ms"].get<double>(), have_time = true;
    for (auto& [reason, n] : p["majors_by"].items()) majors[reason] += num_or(n);
  }
  std::map<std::string, double> out = {{"boot_gcs", median(boot)},
                                       {"gcs_per_unit", units > 0 ? gcs / units : NAN},
                                       {"gc_time_share_pct", have_time && unit_ms > 0 ? 100.0 * gc_ms / unit_ms : NAN},
                                       {"heap_slots", median(slots)},
                                       {"heap_pages", median(pages)},
                                       {"peak_rss_mb", median(rss)},
                                       {"unit_ms_p50", pct_of(durations, 50)},
                                       {"unit_ms_p95", pct_of(durations, 95)},
                                       {"units", units}};
  for (auto& [reason, n] : majors) out["majors_by." + reason] = units > 0 ? 1000.0 * n / units : NAN;
  return out;
}

std::string shown(double v) {
  if (std::isnan(v)) return "?";
  char buf[48];
  if (std::fabs(v - std::round(v)) < 1e-9) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, std::fabs(v) < 10 ? "%.3g" : "%.1f", v);
  return buf;
}

json metric(const std::string& id, const std::string& label, double a, double b) {
  json m = {{"id", id},
            {"label", label},
            {"a", std::isnan(a) ? json(nullptr) : json(a)},
            {"b", std::isnan(b) ? json(nullptr) : json(b)}};
  if (std::isnan(a) || std::isnan(b)) {
    m["verdict"] = "n/a";
    m["text"] = label + ": " + shown(a) + " → " + shown(b) + " (not measured on both sides)";
    return m;
  }
  const double delta = b - a;
  m["delta"] = delta;
  m["delta_pct"] = a != 0 ? json(std::round(1000.0 * delta / a) / 10) : json(nullptr);
  const bool same = std::fabs(delta) <= kSameWithin * std::fabs(a) || (a == 0 && b == 0);
  m["verdict"] = same ? "same" : delta < 0 ? "better" : "worse";
  m["text"] = std::string(same        ? "about the same "
                          : delta < 0 ? "lower "
                                      : "higher ") +
              label + ": " + shown(a) + " → " + shown(b);
  return m;
}

// The RUBY_GC_* settings each side ran with (the union when its processes differ) and what changed.
json settings_changes(const json& a, const json& b, json& notes) {
  auto merged = [&](const json& side, const char* name) {
    json out = json::object();
    std::set<std::string> variants;
    for (const auto& p : side["processes"]) {
      variants.insert(p["settings"].dump());
      for (auto& [k, v] : p["settings"].items()) out[k] = v;
    }
    if (variants.size() > 1)
      notes.push_back(std::string("the processes of ") + name + " ran with different RUBY_GC_* settings");
    return out;
  };
  json sa = merged(a, "before"), sb = merged(b, "after"), changed = json::array();
  std::set<std::string> names;
  for (auto& [k, v] : sa.items()) names.insert(k);
  for (auto& [k, v] : sb.items()) names.insert(k);
  for (const auto& k : names) {
    json va = sa.value(k, json()), vb = sb.value(k, json());
    if (va != vb) changed.push_back({{"variable", k}, {"before", va}, {"after", vb}});
  }
  return {{"before", sa}, {"after", sb}, {"changed", changed}};
}

}  // namespace

json compare_side_of(const std::vector<FleetMember>& members) {
  json processes = json::array();
  for (const auto& m : members)
    if (m.report.contains("metrics") && num_or(m.report["metrics"]["units"]) > 0) processes.push_back(process_side(m));
  return {{"processes", processes}, {"payloads", members.size()}};
}

json compare_runs(const json& before, const json& after) {
  json notes = json::array();
  if (before["processes"].empty() || after["processes"].empty())
    notes.push_back("a side has no payload with units of work: nothing to compare there");
  auto a = aggregate(before), b = aggregate(after);
  std::set<std::string> rubies;
  for (const json* side : {&before, &after})
    for (const auto& p : (*side)["processes"])
      rubies.insert(p["ruby_version"].is_string() ? p["ruby_version"].get<std::string>() : "?");
  if (rubies.size() > 1)
    notes.push_back("the runs are of different Ruby versions: a change may come from Ruby, not the settings");
  const std::pair<const char*, const char*> kMetrics[] = {{"boot_gcs", "GCs during boot"},
                                                          {"gcs_per_unit", "GCs per unit of work"},
                                                          {"gc_time_share_pct", "GC time share of unit wall time (%)"},
                                                          {"heap_slots", "heap slots (peak while working)"},
                                                          {"heap_pages", "heap pages (peak while working)"},
                                                          {"peak_rss_mb", "peak RSS (MB)"},
                                                          {"unit_ms_p50", "unit of work p50 (ms)"},
                                                          {"unit_ms_p95", "unit of work p95 (ms)"}};
  json metrics = json::array();
  for (auto& [id, label] : kMetrics) metrics.push_back(metric(id, label, a[id], b[id]));
  std::set<std::string> reasons;
  for (auto& [k, v] : a)
    if (k.rfind("majors_by.", 0) == 0) reasons.insert(k);
  for (auto& [k, v] : b)
    if (k.rfind("majors_by.", 0) == 0) reasons.insert(k);
  for (const auto& k : reasons) {
    double va = a.count(k) ? a[k] : (a["units"] > 0 ? 0 : NAN), vb = b.count(k) ? b[k] : (b["units"] > 0 ? 0 : NAN);
    metrics.push_back(metric(k, "major GCs by " + k.substr(10) + " per 1000 units", va, vb));
  }
  json settings = settings_changes(before, after, notes);
  return {{"family", "rubygc"},
          {"a",
           {{"processes", before["processes"].size()},
            {"payloads", before.value("payloads", 0)},
            {"units", static_cast<int64_t>(a["units"])},
            {"settings", settings["before"]}}},
          {"b",
           {{"processes", after["processes"].size()},
            {"payloads", after.value("payloads", 0)},
            {"units", static_cast<int64_t>(b["units"])},
            {"settings", settings["after"]}}},
          {"metrics", metrics},
          {"settings_changed", settings["changed"]},
          {"notes", notes}};
}

}  // namespace gcscope::rubygc
