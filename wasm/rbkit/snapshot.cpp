#include "rbkit/snapshot.h"

#include "heap/heap_analysis.h"
#include "heap/heap_model.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace gcscope::rbkit {

namespace {
nlohmann::json u64_json(uint64_t v) {
  if (v <= (uint64_t(1) << 53)) return v;
  return std::to_string(v);
}

// Root categories of Ruby's GC (gc.c's mark phases) as pre-2.0 rbkit servers named their pseudo-objects.
bool is_root_category(std::string_view c) {
  static const char* const kRoots[] = {"vm",        "machine_context", "global_list", "global_tbl",
                                       "end_proc",  "finalizers",      "finalizer",   "symbols",
                                       "encodings", "objspace",        "mark_stack"};
  for (const char* r : kRoots)
    if (c == r) return true;
  return false;
}

// The snapshot as a heap model; source[i] = the snapshot object of model object i (pre-2.0 root
// pseudo-objects become roots, not objects).
void build_model(const Snapshot& s, const StringTable& classes, const StringTable& files, heap::HeapModel& model,
                 std::vector<uint32_t>& source) {
  const bool legacy = !s.has_corr;
  source.reserve(s.objects.size());
  for (uint32_t k = 0; k < s.objects.size(); ++k) {
    const auto& o = s.objects[k];
    const std::string& cls = classes.shown(o.cls);
    if (legacy && is_root_category(cls)) {
      for (uint32_t r = 0; r < o.ref_count; ++r) model.add_root(cls, s.refs[o.ref_begin + r]);
      continue;
    }
    heap::ObjectInfo info;
    info.address = o.id;
    info.class_name = o.cls ? std::string_view(cls) : std::string_view("(nil)");
    if (o.file) info.file = files.shown(o.file);
    info.line = o.line > UINT32_MAX ? 0 : static_cast<uint32_t>(o.line);
    info.memsize = o.size_nil ? 0 : o.size;
    model.add_object(info);
    for (uint32_t r = 0; r < o.ref_count; ++r) model.add_reference(s.refs[o.ref_begin + r]);
    source.push_back(k);
  }
  model.finalize(false);
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

  // Everything about the objects: one heap model, one pass of the shared summaries.
  heap::HeapModel m;
  std::vector<uint32_t> source;
  build_model(s, classes, files, m, source);
  const uint32_t n = static_cast<uint32_t>(m.size());

  // By allocation site (class@file:line): over the snapshot's records, as rbkit-client lists them
  // (pre-2.0 root pseudo-objects too: some carry a site); the heap model groups by file:line only.
  uint64_t zero_sizes = 0;
  std::map<std::tuple<uint32_t, uint32_t, uint64_t>, std::pair<uint64_t, uint64_t>> by_site;
  for (const auto& o : s.objects) {
    if (o.size_nil) ++zero_sizes;
    if (o.file) {
      auto& a = by_site[{o.cls, o.file, o.line}];
      ++a.first;
      a.second += o.size_nil ? 0 : o.size;
    }
  }
  j["objects_without_size"] = zero_sizes;
  std::vector<std::pair<std::tuple<uint32_t, uint32_t, uint64_t>, std::pair<uint64_t, uint64_t>>> sites(by_site.begin(),
                                                                                                        by_site.end());
  std::sort(sites.begin(), sites.end(), [](const auto& a, const auto& b) {
    return a.second.first != b.second.first ? a.second.first > b.second.first : a.first < b.first;
  });
  j["site_count"] = sites.size();
  nlohmann::json sc = nlohmann::json::array(), sf = nlohmann::json::array(), sl = nlohmann::json::array(),
                 sn = nlohmann::json::array(), sb = nlohmann::json::array();
  for (size_t i = 0; i < sites.size() && i < top_n; ++i) {
    sc.push_back(classes.shown(std::get<0>(sites[i].first)));
    sf.push_back(files.shown(std::get<1>(sites[i].first)));
    sl.push_back(u64_json(std::get<2>(sites[i].first)));
    sn.push_back(sites[i].second.first);
    sb.push_back(u64_json(sites[i].second.second));
  }
  j["by_site"] = {{"class", sc}, {"file", sf}, {"line", sl}, {"count", sn}, {"bytes", sb}};

  // In-degrees from the model's references (resolved to object indices: dangling ones are already out).
  std::vector<uint32_t> in_degree(n, 0);
  for (uint32_t r : m.ref_targets) ++in_degree[r];

  uint64_t unreferenced = 0;
  std::vector<uint32_t> referenced;
  for (uint32_t i = 0; i < n; ++i) {
    if (!in_degree[i]) ++unreferenced;
    else referenced.push_back(i);
  }
  j["objects_never_referenced"] = unreferenced;
  size_t k = std::min<size_t>(referenced.size(), 20);
  std::partial_sort(referenced.begin(), referenced.begin() + k, referenced.end(), [&](uint32_t a, uint32_t b) {
    return in_degree[a] != in_degree[b] ? in_degree[a] > in_degree[b] : m.address[a] < m.address[b];
  });
  nlohmann::json mi = nlohmann::json::array(), mc = nlohmann::json::array(), mn = nlohmann::json::array();
  for (size_t i = 0; i < k; ++i) {
    mi.push_back(std::to_string(m.address[referenced[i]]));
    mc.push_back(std::string(m.strings.get(m.class_id[referenced[i]])));
    mn.push_back(in_degree[referenced[i]]);
  }
  j["most_referenced"] = {{"id", mi}, {"class", mc}, {"referrers", mn}};

  // Largest objects (size as rb_obj_memsize_of reported it).
  std::vector<uint32_t> big;
  for (uint32_t i = 0; i < n; ++i)
    if (!s.objects[source[i]].size_nil) big.push_back(i);
  k = std::min<size_t>(big.size(), 20);
  std::partial_sort(big.begin(), big.begin() + k, big.end(), [&](uint32_t a, uint32_t b) {
    return m.memsize[a] != m.memsize[b] ? m.memsize[a] > m.memsize[b] : a < b;
  });
  nlohmann::json li = nlohmann::json::array(), lc = nlohmann::json::array(), ls = nlohmann::json::array(),
                 lr = nlohmann::json::array(), lf = nlohmann::json::array(), ll = nlohmann::json::array();
  for (size_t i = 0; i < k; ++i) {
    const uint32_t v = big[i];
    li.push_back(std::to_string(m.address[v]));
    lc.push_back(std::string(m.strings.get(m.class_id[v])));
    ls.push_back(u64_json(m.memsize[v]));
    lr.push_back(s.objects[source[v]].ref_count);  // as sent, including references out of the snapshot
    lf.push_back(m.file_id[v] ? nlohmann::json(std::string(m.strings.get(m.file_id[v]))) : nlohmann::json());
    ll.push_back(m.file_id[v] ? nlohmann::json(m.line[v]) : nlohmann::json());
  }
  j["largest"] = {{"id", li}, {"class", lc}, {"size", ls}, {"references", lr}, {"file", lf}, {"line", ll}};

  // The dump_all analyzer's fields over the same model.
  heap::ReportLimits limits;
  limits.classes = 200;
  limits.locations = 200;
  limits.top_retainers = 50;
  limits.paths = 20;
  limits.tree_nodes = 500;
  limits.retained_groups = 100;
  nlohmann::json h = nlohmann::json::object();
  heap::write_report(m, limits, h);
  const bool legacy = !s.has_corr;
  h["roots_from_pseudo_objects"] = legacy && !m.root_targets.empty();
  if (h["dominators"].value("available", true) == false) {
    if (legacy) {
      h["dominators"]["reason"] =
          "this pre-2.0 snapshot's root pseudo-objects (vm, machine_context, ...) reference no object of the "
          "snapshot, so there are no GC roots to compute retained sizes from";
    } else {
      // What the 2.x wire format carries, and why no honest retention follows from it.
      const uint64_t refs = m.references_total, dangling = m.dangling_references;
      h["dominators"]["reason"] =
          "rbkit snapshots carry no GC roots: the server walks the heap (rb_objspace_each_objects) without a GC "
          "first and sends every slot's id, class name, references, file, line and size, but no ROOT records, no "
          "type and no generation. So retained sizes and paths to roots cannot be computed. Taking the " +
          std::to_string(unreferenced) +
          " objects that nothing in the snapshot references as roots would not approximate them either: those "
          "include garbage not yet swept (it would count as live), and an object that a GC root holds and "
          "another object also references would look owned by that object (the root edge is not sent), so "
          "retained sizes would be overstated by an unknown amount" +
          (dangling ? "; and " + std::to_string(dangling) + " of " + std::to_string(refs) +
                          " references point to objects the walk left out (it skips IMEMO/ICLASS/ZOMBIE slots), so "
                          "the paths through them are lost."
                    : ".");
      h["dominators"]["unreferenced_objects"] = unreferenced;
      h["dominators"]["references_out_of_snapshot"] = dangling;
    }
  }
  j["heap"] = std::move(h);
  return j;
}

}  // namespace gcscope::rbkit
