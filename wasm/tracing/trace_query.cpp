// TraceData's answers after its report (trace_model.h: tracing.probe, tracing.histogram) and the
// report's ranking of the slowest probes.
#include <algorithm>
#include <cmath>

#include "core/query.h"
#include "core/timeline.h"
#include "stack_source.h"
#include "tracing/timeline.h"
#include "trace_model.h"

namespace gcscope::tracing {

namespace {

using nlohmann::json;

// A report number (a JSON number, or a decimal string past 2^53) as a double; NAN when it is neither.
double number_of(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    Int i;
    if (parse_int(v.get_ref<const std::string&>(), i)) return i.as_double();
  }
  return NAN;
}

// An argument that is a u64 value (a JSON number, or a decimal string for values past 2^53).
bool u64_arg(const json& args, const char* key, uint64_t& out) {
  if (!args.is_object() || !args.contains(key) || args[key].is_null()) return false;
  const json& v = args[key];
  Int i;
  bool ok = v.is_number_unsigned()  ? (i.mag = v.get<uint64_t>(), true)
            : v.is_number_integer() ? parse_int(std::to_string(v.get<int64_t>()), i)
            : v.is_string()         ? parse_int(v.get_ref<const std::string&>(), i)
                                    : false;
  if (!ok || i.neg) throw QueryError(std::string("argument '") + key + "' must be a non-negative integer");
  out = i.mag;
  return true;
}

}  // namespace

const std::vector<std::string>& TraceData::query_methods() {
  static const std::vector<std::string> list = [] {
    std::vector<std::string> l = {"tracing.probe", "tracing.histogram", timeline::kMethod, "compare.parts"};
    for (const auto& m : profile::stack_methods()) l.push_back(m);
    return l;
  }();
  return list;
}

const EventSeries* TraceData::series_of(const std::string& probe) const {
  auto it = series_by_probe_.find(probe);
  return it == series_by_probe_.end() ? nullptr : &series_[it->second];
}

json TraceData::probe_detail(const std::string& probe) const {
  json row;
  for (const auto& r : latency_)
    if (r.value("probe", "") == probe) row = r;
  json hists = json::array();
  for (size_t i = 0; i < histograms_.size(); ++i) {
    const json& h = histograms_[i];
    const json& key = h["key"];
    if ((key.is_string() && probe_display_name(key.get<std::string>()) == probe) ||
        (key.is_null() && h.value("name", "") == probe)) {
      json entry = h;
      entry["index"] = i;
      hists.push_back(std::move(entry));
    }
  }
  if (row.is_null() && hists.empty()) throw QueryError("no probe named '" + probe + "' in this capture");
  json out = {{"probe", probe}, {"row", row}, {"histograms", std::move(hists)}, {"events", nullptr}};
  if (const EventSeries* s = series_of(probe)) {
    json ev = {{"count", s->values.size()}, {"timestamps", !s->timestamps.empty()}, {"rate", nullptr}};
    if (s->timestamps.size() > 1) {
      auto [lo, hi] = std::minmax_element(s->timestamps.begin(), s->timestamps.end());
      uint64_t span = *hi - *lo, bin = 1000000000ULL;  // 1 s, ×10 until at most 2000 bins
      while (span / bin > 2000) bin *= 10;
      std::vector<uint64_t> counts(static_cast<size_t>(span / bin) + 1, 0);
      for (uint64_t t : s->timestamps) counts[static_cast<size_t>((t - *lo) / bin)]++;
      ev["rate"] = {{"t0_ns", u64_json(*lo)}, {"bin_s", static_cast<double>(bin) / 1e9}, {"count", counts}};
    }
    out["events"] = std::move(ev);
  }
  return out;
}

json TraceData::event_bins(const std::string& probe, const EventSeries& s, const json& args) const {
  auto [mn, mx] = std::minmax_element(s.values.begin(), s.values.end());
  uint64_t lo = *mn, hi = *mx;
  u64_arg(args, "lo", lo);
  u64_arg(args, "hi", hi);
  if (hi < lo) throw QueryError("argument 'hi' must not be below 'lo'");
  const auto bins = static_cast<unsigned __int128>(query_args::integer(args, "bins", 40, 1, 1000));
  // Equal integer ranges: width = ceil((hi - lo + 1) / bins), so that [lo, hi] is covered exactly.
  const unsigned __int128 span = static_cast<unsigned __int128>(hi) - lo + 1;
  const unsigned __int128 width = std::max<unsigned __int128>(1, (span + bins - 1) / bins);
  const size_t n = static_cast<size_t>((span + width - 1) / width);
  std::vector<uint64_t> counts(n, 0);
  uint64_t below = 0, above = 0;
  for (uint64_t v : s.values) {
    if (v < lo) ++below;
    else if (v > hi) ++above;
    else counts[static_cast<size_t>((static_cast<unsigned __int128>(v) - lo) / width)]++;
  }
  json out_bins = json::array();
  for (size_t k = 0; k < n; ++k) {
    unsigned __int128 b_lo = lo + width * k, b_hi = std::min<unsigned __int128>(b_lo + width - 1, hi);
    out_bins.push_back({{"lo", u64_json(static_cast<uint64_t>(b_lo))},
                        {"hi", u64_json(static_cast<uint64_t>(b_hi))},
                        {"count", counts[k]}});
  }
  return {{"probe", probe},
          {"source", "events"},
          {"lo", u64_json(lo)},
          {"hi", u64_json(hi)},
          {"width", u64_json(static_cast<uint64_t>(width))},
          {"bins", std::move(out_bins)},
          {"below", below},
          {"above", above},
          {"total", s.values.size()}};
}

json TraceData::histogram_bins(size_t index, const json& args) const {
  if (index >= histograms_.size())
    throw QueryError("argument 'index' must name one of the capture's " + std::to_string(histograms_.size()) +
                     " histograms");
  const json& h = histograms_[index];
  uint64_t lo = 0, hi = UINT64_MAX;
  u64_arg(args, "lo", lo);
  u64_arg(args, "hi", hi);
  json bins = json::array();
  for (const auto& b : h["buckets"]) {
    double b_lo = b["lo"].is_null() ? -INFINITY : number_of(b["lo"]),
           b_hi = b["hi"].is_null() ? INFINITY : number_of(b["hi"]);
    if (b_hi >= static_cast<double>(lo) && b_lo <= static_cast<double>(hi)) bins.push_back(b);
  }
  return {{"index", index},          {"name", h["name"]},
          {"key", h["key"]},         {"source", h.value("source", "histogram")},
          {"bins", std::move(bins)}, {"total", h["total"]}};
}

json TraceData::stack_answer(const std::string& method, const json& args) {
  if (stacks.unique() == 0) throw QueryError("this " + tool + " capture holds no stacks");
  if (!stack_queries_ready_) {
    stack_queries_.reset(stack_model(stacks, stack_weight_unit));
    profile::ExportInfo info;
    info.name = tool + " stacks";
    stack_queries_.set_export_info(std::move(info));
    stack_queries_ready_ = true;
  }
  return stack_queries_.answer(method, args);
}

json TraceData::query(const std::string& method, const json& args) {
  if (method.rfind("stacks.", 0) == 0) return stack_answer(method, args);
  if (method == timeline::kMethod) return event_timeline(*this, args);
  if (method == "tracing.probe") {
    const json& p = query_args::required(args, "probe");
    if (!p.is_string()) throw QueryError("argument 'probe' must be a probe's name as the latency table shows it");
    return probe_detail(p.get<std::string>());
  }
  if (method == "tracing.histogram") {
    std::string probe = query_args::string(args, "probe");
    if (!probe.empty()) {
      if (const EventSeries* s = series_of(probe)) return event_bins(probe, *s, args);
      throw QueryError("probe '" + probe + "' has no event stream to bin (its histograms are asked by index)");
    }
    return histogram_bins(static_cast<size_t>(query_args::integer(args, "index", 0)), args);
  }
  if (method == "compare.parts") return compare_parts();
  throw QueryError("a tracing capture does not answer '" + method + "'");
}

json TraceData::compare_parts() const {
  json probes = json::object();
  for (const auto& [probe, index] : series_by_probe_) probes[probe] = {{"values", series_[index].values}};
  for (const auto& [probe, at] : hist_by_probe_) {
    if (probes.contains(probe)) continue;
    const Histogram& h = maps[at.first].entries[at.second].value.hist;
    json buckets = json::array();
    for (const auto& b : h.buckets)
      buckets.push_back({{"lo", b.has_lo ? int_json(b.lo) : json()},
                         {"hi", b.has_hi ? int_json(b.hi) : json()},
                         {"count", u64_json(b.count)}});
    probes[probe] = {{"buckets", std::move(buckets)}};
  }
  return {{"probes", std::move(probes)}};
}

// The probes that take longest, for the view's first screen: by p99 (for a bucket, its lower
// bound: at least that slow), then probes with only a mean, by mean. At most 10.
json TraceData::slowest_probes(const json& latency) const {
  struct Ranked {
    int tier;  // 0: by p99, 1: by mean
    double value;
    size_t row;
  };
  std::vector<Ranked> ranked;
  for (size_t i = 0; i < latency.size(); ++i) {
    const json& r = latency[i];
    double p99 = NAN;
    if (r.contains("p99")) {
      const json& v = r["p99"];
      p99 = v.is_array() ? (v[0].is_null() ? 0.0 : number_of(v[0])) : number_of(v);
    }
    double mean = r.contains("mean") ? number_of(r["mean"]) : NAN;
    if (!std::isnan(p99)) ranked.push_back({0, p99, i});
    else if (!std::isnan(mean)) ranked.push_back({1, mean, i});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    return a.tier != b.tier ? a.tier < b.tier : a.value > b.value;
  });
  json out = json::array();
  for (size_t k = 0; k < ranked.size() && k < 10; ++k) {
    const json& r = latency[ranked[k].row];
    out.push_back({{"probe", r["probe"]},
                   {"by", ranked[k].tier == 0 ? "p99" : "mean"},
                   {"value", ranked[k].tier == 0 ? r["p99"] : r["mean"]}});
  }
  return out;
}

}  // namespace gcscope::tracing
