#include "rbkit/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "core/query.h"
#include "core/side_label.h"
#include "profile/compare.h"

namespace gcscope::rbkit {

namespace {

using nlohmann::json;

double number_or_nan(const json& side, const char* key) {
  const json& f = side.contains("rbkit") ? side["rbkit"] : json();
  return f.is_object() && f.contains(key) && f[key].is_number() ? f[key].get<double>() : NAN;
}

double gc_figure(const json& side, const char* key) {
  if (!side.contains("rbkit") || !side["rbkit"].contains("gc")) return NAN;
  const json& g = side["rbkit"]["gc"];
  return g.contains(key) && g[key].is_number() ? g[key].get<double>() : NAN;
}

json opt(double v) { return std::isnan(v) ? json() : json(v); }

json delta(double a, double b, bool with_percent) {
  json out = {{"a", opt(a)}, {"b", opt(b)}, {"delta", std::isnan(a) || std::isnan(b) ? json() : json(b - a)}};
  if (with_percent)
    out["delta_percent"] = std::isnan(a) || std::isnan(b) || a == 0 ? json() : json(100.0 * (b - a) / a);
  return out;
}

// per second of the capture's span; NaN without a span
double rate(double n, double span_s) { return span_s > 0 ? n / span_s : NAN; }

json class_rows(const json& a, const json& b, double span_a, double span_b, size_t max_classes, size_t& omitted) {
  struct Row {
    std::string name;
    double ca = 0, cb = 0;
  };
  std::map<std::string, Row> by_name;
  for (const auto* side : {&a, &b}) {
    if (!side->contains("rbkit") || !(*side)["rbkit"].contains("classes")) continue;
    for (const auto& [name, n] : (*side)["rbkit"]["classes"].items()) {
      Row& r = by_name[name];
      r.name = name;
      (side == &a ? r.ca : r.cb) += n.get<double>();
    }
  }
  const bool rates = span_a > 0 && span_b > 0;
  auto change = [&](const Row& r) { return rates ? std::fabs(r.cb / span_b - r.ca / span_a) : std::fabs(r.cb - r.ca); };
  std::vector<const Row*> rows;
  for (const auto& [name, r] : by_name) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(), [&](const Row* x, const Row* y) { return change(*x) > change(*y); });
  json out = json::array();
  for (size_t i = 0; i < rows.size() && i < max_classes; ++i) {
    const Row& r = *rows[i];
    double pa = rate(r.ca, span_a), pb = rate(r.cb, span_b);
    out.push_back({{"class", r.name},
                   {"created_a", r.ca},
                   {"created_b", r.cb},
                   {"per_s_a", opt(pa)},
                   {"per_s_b", opt(pb)},
                   {"per_s_delta", rates ? json(pb - pa) : json()}});
  }
  omitted = rows.size() > max_classes ? rows.size() - max_classes : 0;
  return out;
}

}  // namespace

json compare_side(const profile::StackModel& cpu, json figures) {
  json side = cpu.empty() ? json{{"kind", "profile"}, {"samples", 0}} : profile::compare_side(cpu);
  side["rbkit"] = std::move(figures);
  return side;
}

json compare_captures(const json& a, const json& b, size_t max_classes) {
  json out = {{"kind", "profile"}};
  const bool samples_a = a.value("samples", 0.0) > 0, samples_b = b.value("samples", 0.0) > 0;
  if (samples_a && samples_b) {
    try {
      out = profile::compare_profiles(a, b);
    } catch (const QueryError& e) {
      out["frames_omitted"] = e.what();
    }
  } else {
    out["frames_omitted"] = std::string(!samples_a && !samples_b ? "neither capture has"
                                        : !samples_a             ? "capture A has no"
                                                                 : "capture B has no") +
                            " cpu_sample stacks (rbkit's CPU profiling was off or sent no frames)";
  }
  const double span_a = number_or_nan(a, "span_s"), span_b = number_or_nan(b, "span_s");
  const double made_a = number_or_nan(a, "objects_created"), made_b = number_or_nan(b, "objects_created");
  const double gc_a = gc_figure(a, "cycles"), gc_b = gc_figure(b, "cycles");
  size_t omitted = 0;
  json r = {{"span_s", {{"a", opt(span_a)}, {"b", opt(span_b)}}},
            {"objects_created", delta(made_a, made_b, false)},
            {"objects_per_s", delta(rate(made_a, span_a), rate(made_b, span_b), true)},
            {"gc_cycles", delta(gc_a, gc_b, false)},
            {"gc_per_s", delta(rate(gc_a, span_a), rate(gc_b, span_b), true)},
            {"gc_total_ms", delta(gc_figure(a, "total_ms"), gc_figure(b, "total_ms"), false)},
            {"gc_max_ms", delta(gc_figure(a, "max_ms"), gc_figure(b, "max_ms"), false)}};
  r["classes"] = class_rows(a, b, span_a, span_b, max_classes, omitted);
  r["classes_omitted"] = omitted;
  out["rbkit"] = std::move(r);
  for (const auto& [label, side] : {std::pair<const char*, const json*>{"a", &a}, {"b", &b}})
    if (side->contains("set")) out[label]["set"] = (*side)["set"];
  return out;
}

json sum_sides(const std::vector<json>& sides) {
  std::vector<std::string> labels;
  std::vector<const json*> ptrs;
  json inputs = json::array(), notes = json::array(), classes = json::object();
  double span = 0, made = 0, cycles = 0, gc_ms = 0, gc_max = 0;
  bool spans = true;
  for (size_t i = 0; i < sides.size(); ++i) {
    const json& s = sides[i];
    ptrs.push_back(&s);
    const json side_inputs = s.value("inputs", json::array());
    for (const auto& in : side_inputs) inputs.push_back(in);
    const std::string label = side_label(s, i);
    labels.push_back(label);
    const double s_span = number_or_nan(s, "span_s");
    if (std::isnan(s_span) && spans) {
      spans = false;
      notes.push_back(label + " has no timestamps: the set has no span, so no rates per second");
    }
    span += std::isnan(s_span) ? 0 : s_span;
    const double s_made = number_or_nan(s, "objects_created");
    made += std::isnan(s_made) ? 0 : s_made;
    for (auto [sum, key] : {std::pair<double*, const char*>{&cycles, "cycles"}, {&gc_ms, "total_ms"}}) {
      const double v = gc_figure(s, key);
      *sum += std::isnan(v) ? 0 : v;
    }
    const double longest = gc_figure(s, "max_ms");
    if (!std::isnan(longest)) gc_max = std::max(gc_max, longest);
    if (s.contains("rbkit") && s["rbkit"].contains("classes") && s["rbkit"]["classes"].is_object())
      for (const auto& [name, n] : s["rbkit"]["classes"].items())
        if (n.is_number()) classes[name] = classes.value(name, 0.0) + n.get<double>();
  }
  json out = profile::sum_profile_sides(ptrs, labels, notes);
  out["inputs"] = std::move(inputs);
  out["rbkit"] = {{"span_s", spans ? json(span) : json()},
                  {"objects_created", made},
                  {"gc", {{"cycles", cycles}, {"total_ms", gc_ms}, {"max_ms", gc_max}}},
                  {"classes", std::move(classes)}};
  out["set"] = {{"captures", sides.size()}, {"not_summed", std::move(notes)}};
  return out;
}

}  // namespace gcscope::rbkit
