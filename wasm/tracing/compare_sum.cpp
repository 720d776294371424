// The captures of one side of a comparison summed into one side (compare.h, sum_sides), as one
// capture of them all would have given: latency rows by probe, stacks by folded text.
#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>

#include "core/side_label.h"
#include "tracing/compare.h"
#include "tracing/report_number.h"
#include "tracing/trace_model.h"

namespace gcscope::tracing {

namespace {

using nlohmann::json;

// One probe's latency rows, one per capture that has the probe, with that capture's parts.
struct ProbeRows {
  std::string probe;
  std::vector<const json*> rows;
  std::vector<const json*> parts;  // null when the capture gave none for this probe
  std::vector<size_t> capture;
};

bool int_of(const json& v, Int& out) {
  if (v.is_number_unsigned()) return out = Int{v.get<uint64_t>(), false}, true;
  if (v.is_number_integer()) return parse_int(std::to_string(v.get<int64_t>()), out);
  if (v.is_string()) return parse_int(v.get_ref<const std::string&>(), out);
  return false;
}

const json* field_of(const json& row, const char* key) {
  if (!row.contains(key) || row[key].is_null()) return nullptr;
  return &row[key];
}

// Whether any capture's row gives `key`: a field none gives is absent from the sum, not lost.
bool any_has(const ProbeRows& p, const char* key) {
  for (const json* r : p.rows)
    if (r->contains(key) && !(*r)[key].is_null()) return true;
  return false;
}

// Each row's `key` with its number, in row order: none when no row gives it (a field none gives is
// absent from the sum, not lost); false with a note when only some rows give it.
bool row_numbers(const ProbeRows& p, const char* key, const std::vector<std::string>& labels, json& notes,
                 std::vector<std::pair<const json*, Num>>& out) {
  out.clear();
  if (!any_has(p, key)) return true;
  for (size_t k = 0; k < p.rows.size(); ++k) {
    const json* v = field_of(*p.rows[k], key);
    Num n = v ? num_of(*v) : Num();
    if (!n.ok) {
      notes.push_back(p.probe + ": " + key + " not summed: " + labels[p.capture[k]] + " gives none");
      out.clear();
      return false;
    }
    out.push_back({v, n});
  }
  return true;
}

// Σ row[key] over the rows (exact for integers); null when some rows lack it (row_numbers).
json summed(const ProbeRows& p, const char* key, const std::vector<std::string>& labels, json& notes) {
  std::vector<std::pair<const json*, Num>> values;
  if (!row_numbers(p, key, labels, notes, values) || values.empty()) return nullptr;
  Num sum;
  sum.ok = sum.integral = true;
  for (const auto& [v, n] : values) {
    sum.integral = sum.integral && n.integral;
    sum.i += n.i;
    sum.d += n.d;
  }
  return sum.integral ? int128_json(sum.i) : json(sum.d);
}

// The smallest (or largest) row[key]; null when some rows lack it (row_numbers).
json extreme(const ProbeRows& p, const char* key, bool largest, const std::vector<std::string>& labels, json& notes) {
  std::vector<std::pair<const json*, Num>> values;
  if (!row_numbers(p, key, labels, notes, values) || values.empty()) return nullptr;
  const std::pair<const json*, Num>* best = nullptr;
  for (const auto& x : values) {
    const Num& n = x.second;
    bool integral = n.integral && (!best || best->second.integral);
    bool better = !best || (integral ? (largest ? n.i > best->second.i : n.i < best->second.i)
                                     : (largest ? n.d > best->second.d : n.d < best->second.d));
    if (better) best = &x;
  }
  return *best->first;
}

using BucketKey = std::tuple<bool, Int, bool, Int>;  // has_lo, lo, has_hi, hi
bool key_less(const BucketKey& x, const BucketKey& y) {
  // unbounded below first, then by lower bound, then by upper bound
  if (std::get<0>(x) != std::get<0>(y)) return !std::get<0>(x);
  if (!(std::get<1>(x) == std::get<1>(y))) return std::get<1>(x) < std::get<1>(y);
  if (std::get<2>(x) != std::get<2>(y)) return std::get<2>(x);
  return std::get<3>(x) < std::get<3>(y);
}

// The captures' histograms of one probe as one: the counts of equal buckets added, an event
// stream's values counted into the bucket holding each. False with `why` when a capture has
// neither, when the buckets overlap (different layouts) or a value falls in no bucket.
bool summed_histogram(const ProbeRows& p, const std::vector<std::string>& labels, Histogram& out, std::string& why) {
  std::vector<std::pair<BucketKey, uint64_t>> buckets;
  for (size_t k = 0; k < p.rows.size(); ++k) {
    const json* parts = p.parts[k];
    if (!parts || (!parts->contains("buckets") && !parts->contains("values"))) {
      why = labels[p.capture[k]] + " gives neither its values nor its histogram";
      return false;
    }
    if (!parts->contains("buckets")) continue;
    for (const auto& b : (*parts)["buckets"]) {
      BucketKey key{!b["lo"].is_null(), Int{}, !b["hi"].is_null(), Int{}};
      if ((std::get<0>(key) && !int_of(b["lo"], std::get<1>(key))) ||
          (std::get<2>(key) && !int_of(b["hi"], std::get<3>(key)))) {
        why = labels[p.capture[k]] + " has a histogram bucket that is not an integer range";
        return false;
      }
      Num c = num_of(b["count"]);
      buckets.push_back({key, c.ok && c.integral && c.i > 0 ? static_cast<uint64_t>(c.i) : 0});
    }
  }
  std::stable_sort(buckets.begin(), buckets.end(),
                   [](const auto& x, const auto& y) { return key_less(x.first, y.first); });
  out = Histogram();
  for (const auto& [key, count] : buckets) {
    if (!out.buckets.empty()) {
      Bucket& last = out.buckets.back();
      if (last.has_lo == std::get<0>(key) && last.lo == std::get<1>(key) && last.has_hi == std::get<2>(key) &&
          last.hi == std::get<3>(key)) {
        last.count += count;
        continue;
      }
      if (!last.has_hi || !std::get<0>(key) || !(last.hi < std::get<1>(key))) {
        why = "the captures' histograms have different buckets, which overlap";
        return false;
      }
    }
    out.buckets.push_back({std::get<0>(key), std::get<2>(key), std::get<1>(key), std::get<3>(key), count});
  }
  for (size_t k = 0; k < p.rows.size(); ++k) {
    const json* parts = p.parts[k];
    if (parts->contains("buckets")) continue;
    for (const auto& v : (*parts)["values"]) {
      Int x{v.get<uint64_t>(), false};
      auto in = std::find_if(out.buckets.begin(), out.buckets.end(),
                             [&](const Bucket& b) { return (!b.has_lo || !(x < b.lo)) && (!b.has_hi || !(b.hi < x)); });
      if (in == out.buckets.end()) {
        why = "a value of " + labels[p.capture[k]] + " falls in none of the other captures' histogram buckets";
        return false;
      }
      in->count++;
    }
  }
  for (const auto& b : out.buckets) out.total += b.count;
  return true;
}

json sum_probe(const ProbeRows& p, const std::vector<std::string>& labels, json& notes) {
  json row = {{"probe", p.probe}};
  if (p.rows[0]->contains("raw")) row["raw"] = (*p.rows[0])["raw"];
  json sources = json::array();
  bool all_values = true, any_exact = false;
  for (size_t k = 0; k < p.rows.size(); ++k) {
    for (const auto& s : p.rows[k]->value("sources", json::array()))
      if (std::find(sources.begin(), sources.end(), s) == sources.end()) sources.push_back(s);
    all_values = all_values && p.parts[k] && p.parts[k]->contains("values");
    any_exact = any_exact || p.rows[k]->value("exact", false) == true;
  }
  if (all_values) {
    std::vector<uint64_t> values;
    for (const json* parts : p.parts)
      for (const auto& v : (*parts)["values"]) values.push_back(v.get<uint64_t>());
    series_latency(values, row);
    row["exact"] = true;
  } else {
    row["calls"] = summed(p, "calls", labels, notes);
    row["total"] = summed(p, "total", labels, notes);
    Num calls = num_of(row["calls"]), total = num_of(row["total"]);
    // bpftrace's averages (stats(), avg()) are integer quotients; an event stream's mean is not
    if (!calls.ok || !total.ok || calls.d == 0) {
      if (any_has(p, "mean")) notes.push_back(p.probe + ": mean not summed: it needs the calls and the total");
      row["mean"] = nullptr;
    } else if (!any_exact && calls.integral && total.integral) {
      row["mean"] = int128_json(total.i / calls.i);
    } else {
      row["mean"] = total.d / calls.d;
    }
    row["min"] = extreme(p, "min", false, labels, notes);
    row["max"] = extreme(p, "max", true, labels, notes);
    Histogram h;
    std::string why;
    bool any_percentile = false;
    for (const json* r : p.rows) any_percentile = any_percentile || r->contains("p50");
    if (any_percentile && summed_histogram(p, labels, h, why)) {
      for (int pct : {50, 90, 99}) row["p" + std::to_string(pct)] = bucket_pair(h, percentile_bucket(h, pct));
      row["exact"] = false;
    } else if (any_percentile) {
      notes.push_back(p.probe + ": p50/p90/p99 not summed: " + why);
      row["exact"] = false;
    }
  }
  for (const char* k : {"calls", "total", "mean", "min", "max"})
    if (row.contains(k) && row[k].is_null()) row.erase(k);
  row["sources"] = std::move(sources);
  row["captures"] = p.rows.size();
  return row;
}

// The captures' stacks as one stack table (equal folded stacks added); none with a note when two
// captures weigh their stacks in different units.
json summed_stacks(const std::vector<json>& sides, const std::vector<std::string>& labels, json& notes) {
  StackTable table;
  std::string unit;
  size_t unit_from = 0;
  bool any = false;
  std::vector<std::string_view> names;
  for (size_t i = 0; i < sides.size(); ++i) {
    if (!sides[i].contains("stacks")) continue;
    const json& s = sides[i]["stacks"];
    if (!s.is_object() || !s.contains("weights") || !s["weights"].is_array() || s["weights"].empty()) continue;
    std::string u = s.value("weight_unit", "samples");
    if (!any) {
      unit = u, unit_from = i, any = true;
    } else if (u != unit) {
      notes.push_back("stacks not summed: " + labels[unit_from] + " weighs its stacks in " + unit + " and " +
                      labels[i] + " in " + u);
      return nullptr;
    }
    const json& frames = s["frames"];
    const json& stacks = s["stacks"];
    const json& weights = s["weights"];
    for (size_t k = 0; k < stacks.size() && k < weights.size(); ++k) {
      names.clear();
      for (const auto& f : stacks[k])
        if (f.is_number_unsigned() && f.get<size_t>() < frames.size() && frames[f.get<size_t>()].is_string())
          names.push_back(frames[f.get<size_t>()].get_ref<const std::string&>());
      Num w = num_of(weights[k]);
      if (w.ok) table.add(names, w.d);
    }
  }
  return table.to_json(any ? unit : "samples");
}

}  // namespace

json sum_sides(const std::vector<json>& sides) {
  std::vector<std::string> labels;
  json inputs = json::array(), formats = json::array(), tools = json::array(), notes = json::array();
  std::vector<ProbeRows> probes;
  std::map<std::string, size_t> probe_index;
  for (size_t i = 0; i < sides.size(); ++i) {
    const json& side = sides[i];
    labels.push_back(side_label(side, i));
    for (const auto& in : side.value("inputs", json::array())) inputs.push_back(in);
    for (auto [key, list] : {std::pair<const char*, json*>{"format", &formats}, {"tool", &tools}}) {
      const json v = side.value(key, json());
      if (!v.is_null() && std::find(list->begin(), list->end(), v) == list->end()) list->push_back(v);
    }
    static const json kNone = json::object();
    const json* parts = &kNone;
    if (side.contains("parts") && side["parts"].contains("probes")) parts = &side["parts"]["probes"];
    if (!side.contains("latency") || !side["latency"].is_array()) continue;
    for (const auto& row : side["latency"]) {
      if (!row.is_object() || !row.contains("probe") || !row["probe"].is_string()) continue;
      const std::string& name = row["probe"].get_ref<const std::string&>();
      auto [it, fresh] = probe_index.emplace(name, probes.size());
      if (fresh) probes.push_back({name, {}, {}, {}});
      ProbeRows& p = probes[it->second];
      p.rows.push_back(&row);
      p.parts.push_back(parts->contains(name) ? &(*parts)[name] : nullptr);
      p.capture.push_back(i);
    }
  }
  json latency = json::array();
  for (const auto& p : probes) latency.push_back(sum_probe(p, labels, notes));
  json out = {{"format", formats.size() == 1 ? formats[0] : json("mixed")},
              {"inputs", std::move(inputs)},
              {"tool", tools.size() == 1 ? tools[0]
                       : tools.empty()   ? json()
                                         : json(tools)},
              {"latency", std::move(latency)}};
  json stacks = summed_stacks(sides, labels, notes);
  if (!stacks.is_null()) out["stacks"] = std::move(stacks);
  out["set"] = {{"captures", sides.size()}, {"formats", std::move(formats)}, {"not_summed", std::move(notes)}};
  return out;
}

}  // namespace gcscope::tracing
