// The fleet: several payloads of one drop. Processes are grouped by what makes advice transferable
// between them — Ruby and Rails version, GC::INTERNAL_CONSTANTS, the kind of work (spy) and the
// RUBY_GC_* settings they ran with (a heap plateau reflects the settings, so runs with other settings
// are another group: compare them instead) — and ordered host → ppid → pid. Each group gets one
// merged advice per strategy from its processes with advice (status 200).
#include "fleet.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "gc_params.h"
#include "tuner.h"

namespace gcscope::rubygc {

using nlohmann::json;

namespace {

// ---- policy numbers (ours) ----
constexpr double kOutlierGcFactor = 3.0;      // a process with 3x the GCs of the others' median
constexpr double kOutlierMemoryFactor = 2.0;  // a process with 2x the heap or RSS of the others' median
constexpr double kMergePercentile = 90.0;     // sizes: the high percentile of the processes' values

double number_or(const json& v, double fallback) { return v.is_number() ? v.get<double>() : fallback; }

json settings_of(const json& header) {
  json out = json::object();
  const json env = header.value("existing_env", json::object());
  for (auto& [k, v] : env.items())
    if (!is_agent_control_var(k)) out[k] = v;
  return out;
}

std::string spy_of(const json& header) {
  if (header.value("spy", json()).is_string()) return header["spy"];
  const json env = header.value("existing_env", json::object());
  return env.value("RUBY_GC_SPY", std::string());
}

// The figures of one process, from its own report.
json process_row(size_t index, const FleetMember& m) {
  const json& r = m.report;
  const json h = r.value("header", json::object());
  const json mt = r.value("metrics", json::object());
  const json v = r.value("verdict", json::object());
  json row = {{"process", index},
              {"path", m.path},
              {"status", v.value("status", 400)},
              {"message", v.value("message", "")},
              {"hostname", h.value("hostname", json())},
              {"ppid", h.value("ppid", json())},
              {"pid", h.value("pid", json())},
              {"ruby_version", h.value("ruby_version", json())},
              {"rails_version", h.value("rails_version", json())},
              {"settings", settings_of(h)}};
  if (mt.empty()) return row;
  const double units = number_or(mt["units"], 0), gcs = number_or(mt["gcs_during_processing"], 0);
  row["units"] = mt["units"];
  row["boot_gcs"] = mt["gc_at_boot"];
  row["gcs_while_working"] = mt["gcs_during_processing"];
  row["gcs_per_unit"] = units > 0 ? json(std::round(gcs / units * 1000) / 1000) : json(nullptr);
  row["minors"] = mt["minors"];
  row["majors"] = mt["majors"];
  row["peak_slots"] = mt["max_heap_available_processing"];
  row["peak_rss_mb"] = std::max(number_or(mt["peak_rss_mb"], 0), number_or(mt["max_rss_mb"], 0));
  row["gc_time_share_pct"] = mt["gc_time_share_pct"];
  row["leak_suspected"] = r.value("leak_suspected", false);
  row["confidence"] = r.value("confidence", json::object()).value("level", "");
  return row;
}

json group_key(const json& report) {
  const json h = report.value("header", json::object());
  return {{"ruby_version", h.value("ruby_version", json())},
          {"rails_version", h.value("rails_version", json())},
          {"internal_constants", h.value("internal_constants", json())},
          {"spy", spy_of(h)},
          {"settings", settings_of(h)}};
}

std::string group_label(const json& key) {
  if (key["ruby_version"].is_null()) return "payloads whose header could not be read";
  std::string s = "Ruby " + key["ruby_version"].get<std::string>();
  const std::string rails = key["rails_version"].is_string() ? key["rails_version"].get<std::string>() : "0.0";
  s += rails == "0.0" ? ", no Rails" : ", Rails " + rails;
  if (!key["spy"].get<std::string>().empty()) s += ", units: " + key["spy"].get<std::string>();
  std::string settings;
  for (auto& [k, v] : key["settings"].items())
    settings += (settings.empty() ? "" : " ") + k + "=" + v.get<std::string>();
  return s + (settings.empty() ? ", no RUBY_GC_* settings" : ", settings " + settings);
}

// Nearest-rank percentile of the values (one of them, never above the largest).
size_t rank_of(size_t n, double pct) {
  size_t k = static_cast<size_t>(std::ceil(pct / 100.0 * static_cast<double>(n)));
  return std::min(n, std::max<size_t>(k, 1)) - 1;
}

double median_of_others(const std::vector<json>& rows, size_t self, const char* key) {
  std::vector<double> v;
  for (size_t i = 0; i < rows.size(); ++i)
    if (i != self && rows[i][key].is_number()) v.push_back(rows[i][key].get<double>());
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[rank_of(v.size(), 50)];
}

// Processes far above the others of their group, with the reason.
void flag_outliers(std::vector<json>& rows) {
  struct Check {
    const char* key;
    double factor;
    const char* what;
  };
  const Check checks[] = {{"gcs_per_unit", kOutlierGcFactor, "GCs per unit of work"},
                          {"boot_gcs", kOutlierGcFactor, "GCs during boot"},
                          {"peak_slots", kOutlierMemoryFactor, "heap slots"},
                          {"peak_rss_mb", kOutlierMemoryFactor, "peak RSS"}};
  for (size_t i = 0; i < rows.size(); ++i) {
    json reasons = json::array();
    for (const Check& c : checks) {
      if (!rows[i][c.key].is_number()) continue;
      double mine = rows[i][c.key].get<double>(), others = median_of_others(rows, i, c.key);
      if (others > 0 && mine >= c.factor * others) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%.1fx the %s of the other processes (%g vs median %g)", mine / others, c.what,
                      mine, others);
        reasons.push_back(buf);
      }
    }
    size_t leaking = 0;
    for (auto& r : rows) leaking += r.value("leak_suspected", false);
    if (rows[i].value("leak_suspected", false) && 2 * leaking < rows.size())
      reasons.push_back("leak suspected in this process only");
    rows[i]["outlier"] = reasons;
  }
}

// One strategy's advice merged over the processes with advice: a variable advised by most of
// them; sizes at the high percentile of their values, factors at the median (each one of the values).
json merge_strategy(const std::vector<const FleetMember*>& with_advice, const std::vector<size_t>& index,
                    const char* strategy, json& not_merged) {
  std::map<std::string, std::vector<std::pair<double, std::pair<size_t, std::string>>>> values;
  for (size_t k = 0; k < with_advice.size(); ++k)
    for (auto& [var, v] : with_advice[k]->report["strategies"][strategy].items())
      values[var].push_back({std::atof(v.get<std::string>().c_str()), {index[k], v.get<std::string>()}});
  json merged = json::object(), spread = json::object();
  for (auto& [var, vs] : values) {
    json per_process = json::array();
    for (auto& x : vs) per_process.push_back({{"process", x.second.first}, {"value", x.second.second}});
    if (2 * vs.size() <= with_advice.size()) {  // advised by most of them, or not merged
      not_merged.push_back(
          {{"strategy", strategy}, {"variable", var}, {"advised_by", per_process}, {"of", with_advice.size()}});
      continue;
    }
    std::sort(vs.begin(), vs.end());
    const GcParam* p = find_param_any_version(var);
    bool size = p && p->kind == ParamKind::kSize;
    const auto& chosen = vs[rank_of(vs.size(), size ? kMergePercentile : 50)];
    merged[var] = chosen.second.second;
    spread[var] = {{"min", vs.front().second.second},
                   {"max", vs.back().second.second},
                   {"value", chosen.second.second},
                   {"rule", size ? "90th percentile of the processes' values" : "median of the processes' values"},
                   {"advised_by", per_process},
                   {"of", with_advice.size()}};
  }
  return {{"values", merged}, {"spread", spread}};
}

// Forking servers: processes of one host whose ppid is another process's pid (or shared by several).
json clusters_of(const std::vector<json>& rows) {
  std::map<std::pair<std::string, int64_t>, std::vector<int64_t>> by_parent;
  std::set<std::pair<std::string, int64_t>> pids;
  for (const auto& r : rows) {
    if (!r["pid"].is_number_integer() || !r["ppid"].is_number_integer()) continue;
    std::string host = r["hostname"].is_string() ? r["hostname"].get<std::string>() : "";
    by_parent[{host, r["ppid"].get<int64_t>()}].push_back(r["pid"].get<int64_t>());
    pids.insert({host, r["pid"].get<int64_t>()});
  }
  json out = json::array();
  for (auto& [parent, workers] : by_parent) {
    bool recorded = pids.count(parent) > 0;
    if (!recorded) continue;  // a shared ppid alone is also any shell that started two runs
    out.push_back({{"hostname", parent.first},
                   {"parent_pid", parent.second},
                   {"parent_recorded", recorded},
                   {"workers", workers}});
  }
  return out;
}

json group_json(const json& key, const std::vector<size_t>& members_of_group, const std::vector<FleetMember>& members,
                std::vector<json>& rows) {
  std::vector<json> group_rows;
  std::vector<const FleetMember*> with_advice;
  std::vector<size_t> advice_index;
  for (size_t i : members_of_group) {
    group_rows.push_back(rows[i]);
    if (rows[i]["status"] == 200) {
      with_advice.push_back(&members[i]);
      advice_index.push_back(i);
    }
  }
  flag_outliers(group_rows);
  for (size_t k = 0; k < members_of_group.size(); ++k) rows[members_of_group[k]]["outlier"] = group_rows[k]["outlier"];
  json merged = json::object(), strategies = json::object(), not_merged = json::array();
  for (const char* s : {"speed", "memory", "rss_budget"}) {
    merged[s] = merge_strategy(with_advice, advice_index, s, not_merged);
    strategies[s] = merged[s]["values"];
  }
  json g = {{"key", key},
            {"label", group_label(key)},
            {"processes", members_of_group},
            {"with_advice", advice_index},
            {"merged", merged},
            {"strategies", strategies},
            {"exports", exports_of(strategies)},
            {"not_merged", not_merged},
            {"clusters", clusters_of(group_rows)}};
  if (with_advice.empty())
    g["why_no_advice"] = "no process of this group has advice (status 200): see each process's verdict";
  return g;
}

bool row_before(const json& a, const json& b) {
  auto key = [](const json& r) {
    return std::make_tuple(r["hostname"].is_string() ? r["hostname"].get<std::string>() : "",
                           r["ppid"].is_number() ? r["ppid"].get<int64_t>() : -1,
                           r["pid"].is_number() ? r["pid"].get<int64_t>() : -1, r["process"].get<size_t>());
  };
  return key(a) < key(b);
}

json fleet_notes(const json& groups) {
  json notes = json::array();
  std::set<std::string> rubies;
  for (const auto& g : groups)
    if (g["key"]["ruby_version"].is_string()) rubies.insert(g["key"]["ruby_version"].get<std::string>());
  if (rubies.size() > 1) {
    std::string list;
    for (auto& r : rubies) list += (list.empty() ? "" : ", ") + r;
    notes.push_back("Ruby versions differ (" + list + "): separate groups, no advice merged across them");
  }
  for (size_t i = 0; i < groups.size(); ++i)
    for (size_t j = i + 1; j < groups.size(); ++j) {
      json a = groups[i]["key"], b = groups[j]["key"];
      if (a["settings"] == b["settings"]) continue;
      a.erase("settings");
      b.erase("settings");
      if (a == b)
        notes.push_back(
            "groups " + std::to_string(i + 1) + " and " + std::to_string(j + 1) +
            " are the same app with different RUBY_GC_* settings: compare them (before/after) rather than merge");
    }
  for (const auto& g : groups)
    for (const auto& c : g["clusters"])
      notes.push_back("forking server on " + c["hostname"].get<std::string>() + ": " +
                      std::to_string(c["workers"].size()) + " workers of pid " +
                      std::to_string(c["parent_pid"].get<int64_t>()) +
                      (c["parent_recorded"].get<bool>() ? " (recorded too)" : " (not recorded)") +
                      ": compact before fork (3.times { GC.start }; GC.compact, or Process.warmup on Ruby 3.3+) so the "
                      "workers share more memory with it");
  return notes;
}

}  // namespace

json fleet_report(const std::vector<FleetMember>& members) {
  std::vector<json> rows;
  for (size_t i = 0; i < members.size(); ++i) rows.push_back(process_row(i, members[i]));
  std::vector<json> keys;
  std::vector<std::vector<size_t>> groups_members;
  std::vector<size_t> order(members.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return row_before(rows[a], rows[b]); });
  for (size_t i : order) {
    json key = group_key(members[i].report);
    auto it = std::find(keys.begin(), keys.end(), key);
    size_t g = static_cast<size_t>(it - keys.begin());
    if (it == keys.end()) {
      keys.push_back(key);
      groups_members.emplace_back();
    }
    groups_members[g].push_back(i);
    rows[i]["group"] = g;
  }
  json groups = json::array();
  for (size_t g = 0; g < keys.size(); ++g) groups.push_back(group_json(keys[g], groups_members[g], members, rows));
  json processes = json::array();
  for (size_t i : order) processes.push_back(rows[i]);
  return {{"processes", processes}, {"groups", groups}, {"notes", fleet_notes(groups)}};
}

}  // namespace gcscope::rubygc
