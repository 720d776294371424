#include "tracing/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <vector>

#include "core/query.h"
#include "profile/compare.h"
#include "tracing/report_number.h"
#include "tracing/stack_source.h"

namespace gcscope::tracing {

namespace {

// {"a", "b", "delta", "delta_percent"} of one scalar field.
nlohmann::json scalar_delta(const nlohmann::json* a, const nlohmann::json* b) {
  nlohmann::json out = {{"a", a ? *a : nlohmann::json()},
                        {"b", b ? *b : nlohmann::json()},
                        {"delta", nullptr},
                        {"delta_percent", nullptr}};
  if (!a || !b) return out;
  Num na = num_of(*a), nb = num_of(*b);
  if (!na.ok || !nb.ok) return out;
  out["delta"] = diff_json(nb, na);
  if (na.d != 0) out["delta_percent"] = 100.0 * (nb.d - na.d) / std::fabs(na.d);
  return out;
}

// A percentile as [lo, hi]: an exact value v is [v, v]; a bucket pair as printed (null = unbounded).
struct Bounds {
  bool ok = false, exact = false;
  bool has_lo = false, has_hi = false;
  Num lo, hi;
};

Bounds bounds_of(const nlohmann::json* v) {
  Bounds b;
  if (!v || v->is_null()) return b;
  if (v->is_array() && v->size() == 2) {
    const auto& lo = (*v)[0];
    const auto& hi = (*v)[1];
    b.ok = true;
    if (!lo.is_null()) b.lo = num_of(lo), b.has_lo = b.lo.ok;
    if (!hi.is_null()) b.hi = num_of(hi), b.has_hi = b.hi.ok;
    b.exact = b.has_lo && b.has_hi && b.lo.integral && b.hi.integral && b.lo.i == b.hi.i;
    return b;
  }
  Num n = num_of(*v);
  if (!n.ok) return b;
  b.ok = b.exact = b.has_lo = b.has_hi = true;
  b.lo = b.hi = n;
  return b;
}

nlohmann::json percentile_delta(const nlohmann::json* a, const nlohmann::json* b) {
  nlohmann::json out = {{"a", a ? *a : nlohmann::json()},
                        {"b", b ? *b : nlohmann::json()},
                        {"delta", nullptr},
                        {"delta_bounds", nullptr}};
  Bounds ba = bounds_of(a), bb = bounds_of(b);
  if (!ba.ok || !bb.ok) return out;
  if (ba.exact && bb.exact) out["delta"] = diff_json(bb.lo, ba.lo);
  // p_b - p_a lies in [lo_b - hi_a, hi_b - lo_a]
  out["delta_bounds"] = nlohmann::json::array({bb.has_lo && ba.has_hi ? diff_json(bb.lo, ba.hi) : nlohmann::json(),
                                               bb.has_hi && ba.has_lo ? diff_json(bb.hi, ba.lo) : nlohmann::json()});
  return out;
}

nlohmann::json side(const nlohmann::json& r) {
  nlohmann::json s = nlohmann::json::object();
  s["format"] = r.is_object() ? r.value("format", "") : "";
  s["inputs"] = r.is_object() && r.contains("inputs") ? r["inputs"] : nlohmann::json::array();
  s["tool"] = r.is_object() && r.contains("tool") ? r["tool"] : nlohmann::json();
  if (r.is_object() && r.contains("set")) s["set"] = r["set"];
  return s;
}

const nlohmann::json* field(const nlohmann::json* row, const char* key) {
  if (!row || !row->contains(key)) return nullptr;
  const nlohmann::json& v = (*row)[key];
  return v.is_null() ? nullptr : &v;
}

// folded text -> weight of every stack of a report
struct StackWeights {
  std::vector<std::string> order;
  std::unordered_map<std::string, double> weight;
  size_t unique = 0;
  double total = 0;
  std::string unit;
};

StackWeights stacks_of(const nlohmann::json& r) {
  StackWeights out;
  if (!r.is_object() || !r.contains("stacks") || !r["stacks"].is_object()) return out;
  const auto& s = r["stacks"];
  out.unit = s.value("weight_unit", "");
  if (!s.contains("frames") || !s.contains("stacks") || !s.contains("weights")) return out;
  const auto& frames = s["frames"];
  const auto& stacks = s["stacks"];
  const auto& weights = s["weights"];
  if (!frames.is_array() || !stacks.is_array() || !weights.is_array()) return out;
  for (size_t i = 0; i < stacks.size() && i < weights.size(); ++i) {
    std::string key;
    bool first = true;
    for (const auto& f : stacks[i]) {
      if (!f.is_number_unsigned() || f.get<uint64_t>() >= frames.size()) continue;
      if (!first) key.push_back(';');
      first = false;
      const auto& name = frames[f.get<size_t>()];
      if (name.is_string()) key += name.get_ref<const std::string&>();
    }
    Num w = num_of(weights[i]);
    if (!w.ok) continue;
    auto [it, fresh] = out.weight.emplace(key, 0.0);
    if (fresh) out.order.push_back(key);
    it->second += w.d;
    out.total += w.d;
  }
  out.unique = out.order.size();
  return out;
}

nlohmann::json weight_json(double w) {
  if (w == std::floor(w) && std::fabs(w) <= 9007199254740992.0) return static_cast<int64_t>(w);
  return w;
}

// Per-frame deltas of the two captures' stacks, the profile compare's (profile/compare.h): unit,
// totals, frames and the differential tree. Weights of different units (perf periods against
// sample counts) are not compared; `frames_omitted` says why.
void add_frame_deltas(const nlohmann::json& a, const nlohmann::json& b, nlohmann::json& out) {
  static const nlohmann::json kNone;
  const nlohmann::json& sa = a.is_object() && a.contains("stacks") ? a["stacks"] : kNone;
  const nlohmann::json& sb = b.is_object() && b.contains("stacks") ? b["stacks"] : kNone;
  profile::StackModel ma = stack_model(sa), mb = stack_model(sb);
  if (ma.empty() || mb.empty()) return;
  if (ma.unit != mb.unit) {
    out["frames_omitted"] =
        "the stacks of A count " + ma.unit + " and those of B " + mb.unit + ": per-frame deltas need one unit";
    return;
  }
  try {
    nlohmann::json p = profile::compare_profiles(profile::compare_side(ma), profile::compare_side(mb));
    for (const char* key : {"unit", "totals", "frames", "tree"}) out[key] = std::move(p[key]);
  } catch (const QueryError& e) {
    out["frames_omitted"] = e.what();
  }
}

}  // namespace

bool is_tracing_format(const std::string& f) {
  return f == "bpftrace-text" || f == "bpftrace-json" || f == "bcc-output" || f == "folded-stacks" ||
         f == "perf-script";
}

nlohmann::json compare_reports(const nlohmann::json& a, const nlohmann::json& b, size_t max_stack_rows) {
  nlohmann::json out = {{"kind", "tracing"}, {"a", side(a)}, {"b", side(b)}};

  // ---- probes (latency rows), in a's order then b's new ones ----
  std::vector<std::string> order;
  std::map<std::string, std::pair<const nlohmann::json*, const nlohmann::json*>> rows;
  auto collect = [&](const nlohmann::json& r, bool is_b) {
    if (!r.is_object() || !r.contains("latency") || !r["latency"].is_array()) return;
    for (const auto& row : r["latency"]) {
      if (!row.is_object() || !row.contains("probe") || !row["probe"].is_string()) continue;
      const std::string& p = row["probe"].get_ref<const std::string&>();
      auto [it, fresh] = rows.emplace(p, std::make_pair(nullptr, nullptr));
      if (fresh) order.push_back(p);
      (is_b ? it->second.second : it->second.first) = &row;
    }
  };
  collect(a, false);
  collect(b, true);
  nlohmann::json probes = nlohmann::json::array();
  for (const auto& p : order) {
    const auto [ra, rb] = rows[p];
    nlohmann::json row = {{"probe", p}, {"in", ra && rb ? "both" : ra ? "a" : "b"}};
    row["exact_a"] = ra && ra->contains("exact") ? (*ra)["exact"] : nlohmann::json();
    row["exact_b"] = rb && rb->contains("exact") ? (*rb)["exact"] : nlohmann::json();
    for (const char* k : {"calls", "total", "mean", "min", "max"}) row[k] = scalar_delta(field(ra, k), field(rb, k));
    for (const char* k : {"p50", "p90", "p99"}) row[k] = percentile_delta(field(ra, k), field(rb, k));
    probes.push_back(std::move(row));
  }
  out["probes"] = std::move(probes);

  // ---- stacks ----
  StackWeights sa = stacks_of(a), sb = stacks_of(b);
  struct StackRow {
    const std::string* key;
    double wa, wb;
    bool in_a, in_b;
  };
  std::vector<StackRow> srows;
  size_t common = 0;
  for (const auto& k : sa.order) {
    auto it = sb.weight.find(k);
    bool in_b = it != sb.weight.end();
    common += in_b;
    srows.push_back({&k, sa.weight[k], in_b ? it->second : 0.0, true, in_b});
  }
  for (const auto& k : sb.order)
    if (!sa.weight.count(k)) srows.push_back({&k, 0.0, sb.weight[k], false, true});
  std::stable_sort(srows.begin(), srows.end(), [](const StackRow& x, const StackRow& y) {
    double dx = std::fabs(x.wb - x.wa), dy = std::fabs(y.wb - y.wa);
    if (dx != dy) return dx > dy;
    return *x.key < *y.key;
  });
  nlohmann::json srows_json = nlohmann::json::array();
  for (size_t i = 0; i < srows.size() && i < max_stack_rows; ++i) {
    const StackRow& r = srows[i];
    double share_a = sa.total > 0 ? 100.0 * r.wa / sa.total : 0.0;
    double share_b = sb.total > 0 ? 100.0 * r.wb / sb.total : 0.0;
    srows_json.push_back({{"stack", *r.key},
                          {"a", r.in_a ? weight_json(r.wa) : nlohmann::json()},
                          {"b", r.in_b ? weight_json(r.wb) : nlohmann::json()},
                          {"delta", weight_json(r.wb - r.wa)},
                          {"share_a", share_a},
                          {"share_b", share_b},
                          {"share_delta", share_b - share_a}});
  }
  out["stacks"] = {{"a", {{"unique", sa.unique}, {"total_weight", weight_json(sa.total)}, {"weight_unit", sa.unit}}},
                   {"b", {{"unique", sb.unique}, {"total_weight", weight_json(sb.total)}, {"weight_unit", sb.unit}}},
                   {"common", common},
                   {"only_a", sa.unique - common},
                   {"only_b", sb.unique - common},
                   {"rows", std::move(srows_json)},
                   {"rows_omitted", srows.size() > max_stack_rows ? srows.size() - max_stack_rows : 0}};
  add_frame_deltas(a, b, out);
  return out;
}

}  // namespace gcscope::tracing
