#include "rbkit/snapshot.h"

#include "heap/heap_analysis.h"
#include "heap/heap_model.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace gcscope::rbkit {

namespace {
nlohmann::json u64_json(uint64_t v) {
  if (v <= (uint64_t(1) << 53)) return v;
  return std::to_string(v);
}
}  // namespace

nlohmann::json summarize_snapshot(const Snapshot& s, const StringTable& classes, const StringTable& files,
                                  size_t top_n) {
  nlohmann::json j;
  j["correlation_id"] = s.has_corr ? u64_json(s.corr) : nlohmann::json();
  j["messages"] = s.messages;
  j["objects"] = s.objects.size();
  j["complete_message_count"] = s.has_total ? u64_json(s.total) : nlohmann::json();

  // Distinct ids (legacy captures dump root pseudo-objects under repeated ids).
  std::vector<uint64_t> ids;
  ids.reserve(s.objects.size());
  for (const auto& o : s.objects) ids.push_back(o.id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  j["distinct_ids"] = ids.size();

  // rbkit-client's own rule: complete when as many distinct objects arrived as announced.
  if (s.has_total) {
    bool complete = !s.total_conflict && ids.size() >= s.total && !s.cut_short;
    j["complete"] = complete;
  } else {
    j["complete"] = nullptr;  // pre-2.0 dumps do not announce a total
  }
  j["cut_short"] = s.cut_short;
  j["invalid_objects"] = s.invalid_objects;
  j["invalid_references"] = s.invalid_refs;
  j["first_ms"] = s.first_ms;
  j["last_ms"] = s.last_ms;

  // Totals, by class and by allocation site.
  uint64_t bytes = 0, nil_sizes = 0, with_site = 0;
  struct Agg {
    uint64_t count = 0, bytes = 0;
  };
  std::vector<Agg> by_class(classes.size());
  std::map<std::tuple<uint32_t, uint32_t, uint64_t>, Agg> by_site;
  for (const auto& o : s.objects) {
    if (o.size_nil) ++nil_sizes;
    else bytes += o.size;
    auto& c = by_class[o.cls];
    ++c.count;
    c.bytes += o.size_nil ? 0 : o.size;
    if (o.file) {
      ++with_site;
      auto& a = by_site[{o.cls, o.file, o.line}];
      ++a.count;
      a.bytes += o.size_nil ? 0 : o.size;
    }
  }
  j["bytes"] = u64_json(bytes);
  j["objects_without_size"] = nil_sizes;
  j["objects_with_allocation_site"] = with_site;

  std::vector<uint32_t> order;
  for (uint32_t c = 0; c < by_class.size(); ++c)
    if (by_class[c].count) order.push_back(c);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return by_class[a].count != by_class[b].count ? by_class[a].count > by_class[b].count : a < b;
  });
  j["class_count"] = order.size();
  nlohmann::json cn = nlohmann::json::array(), cc = nlohmann::json::array(), cb = nlohmann::json::array();
  for (size_t i = 0; i < order.size() && i < top_n; ++i) {
    cn.push_back(classes.shown(order[i]));
    cc.push_back(by_class[order[i]].count);
    cb.push_back(u64_json(by_class[order[i]].bytes));
  }
  j["by_class"] = {{"class", cn}, {"count", cc}, {"bytes", cb}};

  std::vector<std::pair<std::tuple<uint32_t, uint32_t, uint64_t>, Agg>> sites(by_site.begin(), by_site.end());
  std::sort(sites.begin(), sites.end(), [](const auto& a, const auto& b) {
    return a.second.count != b.second.count ? a.second.count > b.second.count : a.first < b.first;
  });
  j["site_count"] = sites.size();
  nlohmann::json sc = nlohmann::json::array(), sf = nlohmann::json::array(), sl = nlohmann::json::array(),
                 sn = nlohmann::json::array(), sb = nlohmann::json::array();
  for (size_t i = 0; i < sites.size() && i < top_n; ++i) {
    sc.push_back(classes.shown(std::get<0>(sites[i].first)));
    sf.push_back(files.shown(std::get<1>(sites[i].first)));
    sl.push_back(u64_json(std::get<2>(sites[i].first)));
    sn.push_back(sites[i].second.count);
    sb.push_back(u64_json(sites[i].second.bytes));
  }
  j["by_site"] = {{"class", sc}, {"file", sf}, {"line", sl}, {"count", sn}, {"bytes", sb}};

  // References: how many, how many point outside the snapshot, who is referenced most.
  std::unordered_map<uint64_t, uint64_t> in_degree;
  in_degree.reserve(ids.size());
  uint64_t dangling = 0;
  for (uint64_t r : s.refs) {
    if (!std::binary_search(ids.begin(), ids.end(), r)) {
      ++dangling;
      continue;
    }
    ++in_degree[r];
  }
  j["references"] = s.refs.size();
  j["dangling_references"] = dangling;
  uint64_t unreferenced = 0;
  for (uint64_t id : ids)
    if (!in_degree.count(id)) ++unreferenced;
  j["objects_never_referenced"] = unreferenced;

  std::unordered_map<uint64_t, uint32_t> class_of;
  class_of.reserve(s.objects.size());
  for (const auto& o : s.objects) class_of.emplace(o.id, o.cls);
  std::vector<std::pair<uint64_t, uint64_t>> most(in_degree.begin(), in_degree.end());
  size_t k = std::min<size_t>(most.size(), 20);
  std::partial_sort(most.begin(), most.begin() + k, most.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  nlohmann::json mi = nlohmann::json::array(), mc = nlohmann::json::array(), mn = nlohmann::json::array();
  for (size_t i = 0; i < k; ++i) {
    mi.push_back(std::to_string(most[i].first));
    mc.push_back(classes.shown(class_of[most[i].first]));
    mn.push_back(most[i].second);
  }
  j["most_referenced"] = {{"id", mi}, {"class", mc}, {"referrers", mn}};

  // Largest objects (size as rb_obj_memsize_of reported it).
  std::vector<uint32_t> big;
  for (uint32_t i = 0; i < s.objects.size(); ++i)
    if (!s.objects[i].size_nil) big.push_back(i);
  k = std::min<size_t>(big.size(), 20);
  std::partial_sort(big.begin(), big.begin() + k, big.end(), [&](uint32_t a, uint32_t b) {
    return s.objects[a].size != s.objects[b].size ? s.objects[a].size > s.objects[b].size : a < b;
  });
  nlohmann::json li = nlohmann::json::array(), lc = nlohmann::json::array(), ls = nlohmann::json::array(),
                 lr = nlohmann::json::array(), lf = nlohmann::json::array(), ll = nlohmann::json::array();
  for (size_t i = 0; i < k; ++i) {
    const auto& o = s.objects[big[i]];
    li.push_back(std::to_string(o.id));
    lc.push_back(classes.shown(o.cls));
    ls.push_back(u64_json(o.size));
    lr.push_back(o.ref_count);
    lf.push_back(o.file ? nlohmann::json(files.shown(o.file)) : nlohmann::json());
    ll.push_back(o.file ? u64_json(o.line) : nlohmann::json());
  }
  j["largest"] = {{"id", li}, {"class", lc}, {"size", ls}, {"references", lr}, {"file", lf}, {"line", ll}};
  return j;
}

namespace {
// Root categories of Ruby's GC (gc.c's mark phases) as pre-2.0 rbkit servers named their pseudo-objects.
bool is_root_category(std::string_view c) {
  static const char* const kRoots[] = {"vm", "machine_context", "global_list", "global_tbl", "end_proc",
                                       "finalizers", "finalizer", "symbols", "encodings", "objspace", "mark_stack"};
  for (const char* r : kRoots)
    if (c == r) return true;
  return false;
}
}  // namespace

nlohmann::json heap_model_fields(const Snapshot& s, const StringTable& classes, const StringTable& files) {
  heap::HeapModel model;
  const bool legacy = !s.has_corr;
  for (const auto& o : s.objects) {
    const std::string& cls = classes.shown(o.cls);
    if (legacy && is_root_category(cls)) {
      for (uint32_t k = 0; k < o.ref_count; ++k) model.add_root(cls, s.refs[o.ref_begin + k]);
      continue;
    }
    heap::ObjectInfo info;
    info.address = o.id;
    info.class_name = o.cls ? std::string_view(cls) : std::string_view("(nil)");
    if (o.file) info.file = files.shown(o.file);
    info.line = o.line > UINT32_MAX ? 0 : static_cast<uint32_t>(o.line);
    info.memsize = o.size_nil ? 0 : o.size;
    model.add_object(info);
    for (uint32_t k = 0; k < o.ref_count; ++k) model.add_reference(s.refs[o.ref_begin + k]);
  }
  model.finalize(false);
  heap::ReportLimits limits;
  limits.classes = 200;
  limits.locations = 200;
  limits.top_retainers = 50;
  limits.paths = 20;
  limits.tree_nodes = 500;
  limits.retained_groups = 100;
  nlohmann::json out = nlohmann::json::object();
  heap::write_report(model, limits, out);
  out["roots_from_pseudo_objects"] = legacy && !model.root_targets.empty();
  if (out.contains("dominators") && out["dominators"].value("available", true) == false)
    out["dominators"]["reason"] =
        legacy ? "this pre-2.0 snapshot's root pseudo-objects (vm, machine_context, ...) reference no object of the "
                 "snapshot, so there are no GC roots to compute retained sizes from"
               : "rbkit snapshots carry no GC roots (and include unreachable objects: no GC runs before the walk), "
                 "so retained sizes and paths to roots cannot be computed";
  return out;
}

}  // namespace gcscope::rbkit
