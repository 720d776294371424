// What the tuner prints: every recommended value validated with Ruby's own parsing rules, copyable
// exports per strategy, and the lint of the settings the run started with, with the conflicts that
// make a 412 (H10, H11).
#include <algorithm>
#include <cmath>

#include "tuner_run.h"

namespace gcscope::rubygc {

using nlohmann::json;

namespace {

constexpr double kConflictRatio = 2.0;        // H10: our value vs an existing one
constexpr double kConflictFromDefault = 4.0;  // H10: an existing value we do not recommend vs the default

// One existing setting checked with Ruby's rules (the lint row).
json lint_row(const Run& run, const std::string& name, const std::string& value, const ParamCheck& pc) {
  json item = {{"variable", name}, {"value", value}};
  if (name == "RUBY_GC_LIBRARY") {  // not a tuning value: which GC implementation runs (3.4+)
    item["status"] = "info";
    item["message"] = run.version.at_least(3, 4)
                          ? "selects the GC implementation (modular GC, in Ruby builds configured for it): "
                            "the RUBY_GC_* values apply to the default GC"
                          : "Ruby " + run.version.series() + " has no modular GC: ignored";
    return item;
  }
  if (pc.status != ParamCheck::kAccepted) {
    item["status"] = "ignored";
    item["message"] = pc.message;
    return item;
  }
  item["status"] = "ok";
  item["effective"] = pc.effective;
  if (name == "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR" && pc.effective < 1.0) {
    item["status"] = "warn";
    item["message"] =
        "accepted, but < 1.0 (0 = every GC is major) forces a major GC almost every time the old generation grows";
  } else if (name == "RUBY_GC_HEAP_INIT_SLOTS" && run.v32) {
    item["status"] = "warn";
    item["message"] = "Ruby 3.2 applies it, but its 5 size pools make it a poor knob (no per-pool variable before 3.3)";
  }
  return item;
}

double ratio(double a, double b) {
  if (a <= 0 || b <= 0) return a == b ? 1.0 : INFINITY;
  return std::max(a / b, b / a);
}

// The conflict of one accepted existing setting with our advice or with the run, if any (H10).
std::optional<json> conflict_of(const Run& run, const std::string& name, const std::string& value, const ParamCheck& pc,
                                const json& recommendations) {
  const GcParam* param = find_param(name, run.version);
  std::optional<double> ours;  // our speed advice for this variable, if any
  for (auto& r : recommendations)
    if (r["strategy"] == "speed" && r["variable"] == name)
      ours = check_param(name, r["value"].get<std::string>(), run.version, run.p.pointer_bits).effective;
  json conflict = {
      {"variable", name}, {"existing", value}, {"default", format_param_value(*param, param->default_value)}};
  if (ours) {
    double f = ratio(pc.effective, *ours);
    if (f <= kConflictRatio) return std::nullopt;
    conflict["ours"] = format_param_value(*param, *ours);
    conflict["factor"] = std::isinf(f) ? json("inf") : json(r1(f));
    conflict["why"] = "our speed advice differs from the existing value by more than " + fmt(kConflictRatio, 0) + "x";
    return conflict;
  }
  if (param->name == std::string("RUBY_GC_HEAP_INIT_SLOTS") && run.retained > 0) {
    // The oracle does not flag this; a boot heap far above what survives GCs costs RSS for nothing.
    double need = static_cast<double>(pages_up(run.retained, run.page));
    if (pc.effective <= kConflictFromDefault * need) return std::nullopt;
    conflict["ours"] = nullptr;
    conflict["retained_slots"] = run.retained;
    conflict["factor"] = r1(pc.effective / need);
    conflict["why"] = "the boot heap is " + fmt(pc.effective / need) + "x the most slots that survive a GC (" +
                      num(run.retained) +
                      ", live after the full GCs at BOOTED/TERMINATED and old objects): memory spent for nothing";
    return conflict;
  }
  if (param->default_value > 0 && param->name != std::string("RUBY_GC_HEAP_FREE_SLOTS") &&
      std::string(param->name).find("INIT_SLOTS") == std::string::npos) {
    double f = ratio(pc.effective, param->default_value);
    if (f <= kConflictFromDefault) return std::nullopt;
    conflict["ours"] = nullptr;
    conflict["factor"] = std::isinf(f) ? json("inf") : json(r1(f));
    conflict["why"] = "set " + fmt(f) + "x away from Ruby's default and nothing in this run supports it";
    return conflict;
  }
  return std::nullopt;
}

}  // namespace

json exports_of(const json& strategies) {
  json exports = json::object();
  for (auto it = strategies.begin(); it != strategies.end(); ++it) {
    std::string shell, docker, heroku = "heroku config:set", systemd = "[Service]\n";
    size_t k = 0;
    for (auto v = it.value().begin(); v != it.value().end(); ++v, ++k) {
      std::string kv = v.key() + "=" + v.value().get<std::string>();
      shell += "export " + kv + "\n";
      docker += (k == 0 ? "ENV " : "    ") + kv + (k + 1 < it.value().size() ? " \\\n" : "\n");
      heroku += " " + kv;
      systemd += "Environment=" + kv + "\n";
    }
    if (k == 0) continue;
    exports[it.key()] = {{"shell", shell}, {"dockerfile", docker}, {"heroku", heroku + "\n"}, {"systemd", systemd}};
  }
  return exports;
}

void write_recommendations(const Run& run, const Advice& advice, json& report) {
  const Payload& p = run.p;
  json recommendations = json::array(), dropped = json::array();
  json strategies = {{"speed", json::object()}, {"memory", json::object()}, {"rss_budget", json::object()}};
  for (auto& r : advice.recs) {
    const GcParam* param = find_param(r.variable, run.version);
    if (!param) {
      dropped.push_back({{"strategy", r.strategy},
                         {"variable", r.variable},
                         {"why", "Ruby " + run.version.series() + " does not read it"}});
      continue;
    }
    std::string value = format_param_value(*param, r.value);
    ParamCheck pc = check_param(r.variable, value, run.version, p.pointer_bits);
    if (pc.status != ParamCheck::kAccepted) {
      dropped.push_back({{"strategy", r.strategy}, {"variable", r.variable}, {"value", value}, {"why", pc.message}});
      continue;
    }
    json current = nullptr;
    for (auto& kv : p.header.env)
      if (kv.first == r.variable) current = kv.second;
    bool unchanged = false;
    if (auto cur = run.existing_value(r.variable)) {
      double d = std::fabs(*cur - pc.effective);
      unchanged = param->kind == ParamKind::kSize ? (d <= std::max(0.01 * *cur, 1000.0)) : d < 1e-9;
    }
    recommendations.push_back({{"strategy", r.strategy},
                               {"variable", r.variable},
                               {"value", value},
                               {"current", current},
                               {"default", format_param_value(*param, param->default_value)},
                               {"reason", r.reason},
                               {"evidence", r.evidence},
                               {"unchanged", unchanged}});
    if (!unchanged) strategies[r.strategy][r.variable] = value;
  }
  report["recommendations"] = recommendations;
  report["dropped_recommendations"] = dropped;
  report["exports"] = exports_of(strategies);
  report["strategies"] = std::move(strategies);
}

json lint_existing(const Run& run, json& report) {
  json lint = json::array(), agent_env = json::object(), conflicts = json::array();
  for (auto& kv : run.p.header.env) {
    if (is_agent_control_var(kv.first)) {
      agent_env[kv.first] = kv.second;
      continue;
    }
    ParamCheck pc = check_param(kv.first, kv.second, run.version, run.p.pointer_bits);
    lint.push_back(lint_row(run, kv.first, kv.second, pc));
    if (pc.status != ParamCheck::kAccepted) continue;
    if (auto c = conflict_of(run, kv.first, kv.second, pc, report["recommendations"]))
      conflicts.push_back(std::move(*c));
  }
  report["lint"] = lint;
  report["agent_env"] = agent_env;
  report["conflicts"] = conflicts;
  return conflicts;
}

}  // namespace gcscope::rubygc
