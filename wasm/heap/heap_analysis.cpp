#include "heap/heap_analysis.h"

#include <algorithm>
#include <string>

namespace gcscope::heap {

namespace {

using nlohmann::json;

struct Group {
  uint64_t count = 0, bytes = 0;
};
}  // namespace

namespace {
template <typename T, typename Less>
std::vector<T> top_n(std::vector<T> v, size_t n, Less less) {
  if (v.size() > n) {
    std::partial_sort(v.begin(), v.begin() + static_cast<long>(n), v.end(), less);
    v.resize(n);
  } else {
    std::sort(v.begin(), v.end(), less);
  }
  return v;
}

// Rows of a grouping table: the union of the top `limit` groups by bytes and the top `limit / 4` by
// count, so that the table is right whichever way it is sorted. Groups with count 0 are absent.
std::vector<uint32_t> top_rows(const std::vector<Group>& groups, size_t limit) {
  std::vector<uint32_t> ids;
  for (uint32_t id = 0; id < groups.size(); ++id)
    if (groups[id].count) ids.push_back(id);
  auto by_bytes = top_n(ids, limit, [&](uint32_t a, uint32_t b) {
    return groups[a].bytes != groups[b].bytes ? groups[a].bytes > groups[b].bytes : a < b;
  });
  auto by_count = top_n(ids, limit / 4, [&](uint32_t a, uint32_t b) {
    return groups[a].count != groups[b].count ? groups[a].count > groups[b].count : a < b;
  });
  std::vector<uint8_t> listed(groups.size(), 0);
  std::vector<uint32_t> rows;
  for (auto* list : {&by_bytes, &by_count})
    for (uint32_t id : *list)
      if (!listed[id]) {
        listed[id] = 1;
        rows.push_back(id);
      }
  return rows;
}

// {file, line} of a location key (file string id << 32 | line); line 0 = unknown → null.
void put_location(const HeapModel& m, uint64_t key, json& row) {
  const uint32_t line = static_cast<uint32_t>(key);
  row["file"] = to_valid_utf8(m.strings.get(static_cast<uint32_t>(key >> 32)));
  row["line"] = line ? json(line) : json(nullptr);
}

}  // namespace

// ---- Dominators ------------------------------------------------------------------------------

namespace {

// The object graph with a virtual root, index n, whose successors are the roots' targets.
struct RootedGraph {
  const HeapModel& m;
  uint32_t n;
  const uint32_t* succ_begin(uint32_t v) const {
    return v == n ? m.root_targets.data() : m.ref_targets.data() + m.ref_begin[v];
  }
  const uint32_t* succ_end(uint32_t v) const {
    return v == n ? m.root_targets.data() + m.root_targets.size() : m.ref_targets.data() + m.ref_begin[v + 1];
  }
};

// The depth-first tree from the virtual root: every reachable vertex's preorder number (dfnum,
// kNoIndex when unreachable), the vertex of each number, and each number's tree parent's number.
struct DfsTree {
  std::vector<uint32_t> dfnum, vertex, parent;
};

// Iterative, so that a deep chain of references cannot overflow the stack.
DfsTree depth_first_tree(const RootedGraph& g) {
  const uint32_t n = g.n;
  DfsTree t;
  t.dfnum.assign(n + 1, kNoIndex);
  t.vertex.reserve(n + 1);
  t.parent.reserve(n + 1);
  std::vector<uint32_t> stack_node, stack_pos;
  t.dfnum[n] = 0;
  t.vertex.push_back(n);
  t.parent.push_back(kNoIndex);
  stack_node.push_back(n);
  stack_pos.push_back(0);
  while (!stack_node.empty()) {
    uint32_t v = stack_node.back();
    const uint32_t* b = g.succ_begin(v);
    const uint32_t* e = g.succ_end(v);
    uint32_t& pos = stack_pos.back();
    bool descended = false;
    while (b + pos < e) {
      uint32_t w = b[pos++];
      if (t.dfnum[w] != kNoIndex) continue;
      t.dfnum[w] = static_cast<uint32_t>(t.vertex.size());
      t.vertex.push_back(w);
      t.parent.push_back(t.dfnum[v]);
      stack_node.push_back(w);
      stack_pos.push_back(0);
      descended = true;
      break;
    }
    if (!descended) {
      stack_node.pop_back();
      stack_pos.pop_back();
    }
  }
  return t;
}

// Predecessors in DFS-number space (CSR: preds[pred_begin[w] .. pred_begin[w + 1])). The edges are
// mapped to DFS numbers once (one pass of random reads into dfnum); counting and filling then read
// that list in order.
void dfs_predecessors(const RootedGraph& g, const DfsTree& t, std::vector<uint32_t>& pred_begin,
                      std::vector<uint32_t>& preds) {
  const uint32_t R = static_cast<uint32_t>(t.vertex.size());
  pred_begin.assign(R + 1, 0);
  std::vector<uint32_t> edge_to, edge_begin(R + 1, 0);
  edge_to.reserve(g.m.ref_targets.size() + g.m.root_targets.size());
  for (uint32_t dv = 0; dv < R; ++dv) {
    for (const uint32_t* p = g.succ_begin(t.vertex[dv]); p != g.succ_end(t.vertex[dv]); ++p)
      edge_to.push_back(t.dfnum[*p]);
    edge_begin[dv + 1] = static_cast<uint32_t>(edge_to.size());
  }
  for (uint32_t to : edge_to) ++pred_begin[to + 1];
  for (uint32_t i = 0; i < R; ++i) pred_begin[i + 1] += pred_begin[i];
  preds.resize(pred_begin[R]);
  std::vector<uint32_t> fill(pred_begin.begin(), pred_begin.end() - 1);
  for (uint32_t dv = 0; dv < R; ++dv)
    for (uint32_t k = edge_begin[dv]; k < edge_begin[dv + 1]; ++k) preds[fill[edge_to[k]]++] = dv;
}

// Lengauer–Tarjan (simple version: path compression, no balancing): each DFS number's immediate
// dominator's DFS number (kNoIndex for the root, 0). Its working arrays are freed on return.
std::vector<uint32_t> immediate_dominators(const RootedGraph& g, const DfsTree& t) {
  const uint32_t R = static_cast<uint32_t>(t.vertex.size());
  std::vector<uint32_t> pred_begin, preds;
  dfs_predecessors(g, t, pred_begin, preds);
  std::vector<uint32_t> semi(R), idom(R, kNoIndex), ancestor(R, kNoIndex), label(R), bucket_head(R, kNoIndex),
      bucket_next(R, kNoIndex), path;
  for (uint32_t i = 0; i < R; ++i) semi[i] = label[i] = i;
  auto eval = [&](uint32_t v) -> uint32_t {
    if (ancestor[v] == kNoIndex) return v;
    path.clear();
    uint32_t x = v;
    while (ancestor[ancestor[x]] != kNoIndex) {
      path.push_back(x);
      x = ancestor[x];
    }
    while (!path.empty()) {
      uint32_t y = path.back();
      path.pop_back();
      uint32_t a = ancestor[y];
      if (semi[label[a]] < semi[label[y]]) label[y] = label[a];
      ancestor[y] = ancestor[a];
    }
    return label[v];
  };
  for (uint32_t w = R - 1; w >= 1; --w) {
    for (uint32_t k = pred_begin[w]; k < pred_begin[w + 1]; ++k) {
      uint32_t u = eval(preds[k]);
      if (semi[u] < semi[w]) semi[w] = semi[u];
    }
    bucket_next[w] = bucket_head[semi[w]];
    bucket_head[semi[w]] = w;
    uint32_t p = t.parent[w];
    ancestor[w] = p;
    for (uint32_t v = bucket_head[p]; v != kNoIndex; v = bucket_next[v]) {
      uint32_t u = eval(v);
      idom[v] = semi[u] < semi[v] ? u : p;
    }
    bucket_head[p] = kNoIndex;
  }
  for (uint32_t w = 1; w < R; ++w)
    if (idom[w] != semi[w]) idom[w] = idom[idom[w]];
  return idom;
}

// Shortest paths from the roots (BFS), and which root category reaches each object first.
void shortest_paths_from_roots(const RootedGraph& g, size_t reachable, Dominators& d) {
  const HeapModel& m = g.m;
  const uint32_t n = g.n;
  d.bfs_parent.assign(n, kNoIndex);
  d.root_edge.assign(n, kNoIndex);
  std::vector<uint32_t> queue;
  queue.reserve(reachable);
  std::vector<uint8_t> seen(n, 0);
  for (size_t k = 0; k < m.root_targets.size(); ++k) {
    uint32_t t = m.root_targets[k];
    if (seen[t]) continue;
    seen[t] = 1;
    d.bfs_parent[t] = n;
    uint32_t cat = 0;
    while (cat < m.root_categories.size() && m.root_categories[cat] != m.root_category[k]) ++cat;
    d.root_edge[t] = cat;
    queue.push_back(t);
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    uint32_t v = queue[head];
    for (const uint32_t* p = g.succ_begin(v); p != g.succ_end(v); ++p)
      if (!seen[*p]) {
        seen[*p] = 1;
        d.bfs_parent[*p] = v;
        queue.push_back(*p);
      }
  }
}

}  // namespace

Dominators compute_dominators(const HeapModel& m) {
  Dominators d;
  const uint32_t n = static_cast<uint32_t>(m.size());
  d.root = n;
  if (m.root_targets.empty()) return d;
  const RootedGraph g{m, n};
  const DfsTree t = depth_first_tree(g);
  const uint32_t R = static_cast<uint32_t>(t.vertex.size());
  const std::vector<uint32_t> idom = immediate_dominators(g, t);

  // Retained sizes: children have larger DFS numbers than their immediate dominator.
  std::vector<uint64_t> ret(R, 0);
  for (uint32_t w = 1; w < R; ++w) ret[w] = m.memsize[t.vertex[w]];
  for (uint32_t w = R - 1; w >= 1; --w) ret[idom[w]] += ret[w];
  d.idom.assign(n, kNoIndex);
  d.retained.assign(n + 1, 0);
  for (uint32_t w = 1; w < R; ++w) {
    d.idom[t.vertex[w]] = t.vertex[idom[w]];
    d.retained[t.vertex[w]] = ret[w];
  }
  d.retained[n] = ret[0];
  d.reachable = R - 1;
  d.reachable_bytes = ret[0];
  shortest_paths_from_roots(g, R, d);
  return d;
}

std::vector<uint32_t> path_to_root(const Dominators& d, uint32_t object, size_t max_len) {
  std::vector<uint32_t> path;
  uint32_t v = object;
  while (v != kNoIndex && v != d.root && path.size() < max_len) {
    path.push_back(v);
    v = d.bfs_parent[v];
  }
  return path;
}

// ---- Summaries -------------------------------------------------------------------------------

void write_summaries(const HeapModel& m, const ReportLimits& lim, json& out) {
  const size_t n = m.size();
  uint64_t bytes = 0, with_site = 0, without_gen = 0;
  Group by_type[kTypeCount];
  std::vector<Group> by_class(m.strings.size());
  // Tables sized for the objects there are (they grow): a small dump does not zero 32 KiB for them.
  U64Map loc_index(std::min<size_t>(n, 1024));
  std::vector<Group> loc_groups;
  std::vector<uint64_t> loc_keys;
  U64Map gen_index(std::min<size_t>(n, 64));
  std::vector<Group> gen_groups;
  std::vector<uint64_t> gen_keys;
  std::vector<uint32_t> dup_count(m.strings.size(), 0);
  std::vector<uint32_t> dup_bytesize(m.strings.size(), 0);
  std::vector<uint64_t> dup_memsize(m.strings.size(), 0);
  for (size_t i = 0; i < n; ++i) {
    uint64_t sz = m.memsize[i];
    bytes += sz;
    by_type[m.type[i]].count++;
    by_type[m.type[i]].bytes += sz;
    Group& c = by_class[m.class_id[i]];
    c.count++;
    c.bytes += sz;
    if (m.file_id[i]) {
      ++with_site;
      uint64_t key = static_cast<uint64_t>(m.file_id[i]) << 32 | m.line[i];
      bool inserted = false;
      uint32_t& g = loc_index.find_or_insert(key, static_cast<uint32_t>(loc_groups.size()), &inserted);
      if (inserted) {
        loc_groups.push_back({});
        loc_keys.push_back(key);
      }
      loc_groups[g].count++;
      loc_groups[g].bytes += sz;
    }
    if (m.generation[i] == kNoGeneration) ++without_gen;
    {
      uint64_t key = static_cast<uint64_t>(m.generation[i]) + 1;  // kNoGeneration+1 ≠ 0
      bool inserted = false;
      uint32_t& g = gen_index.find_or_insert(key, static_cast<uint32_t>(gen_groups.size()), &inserted);
      if (inserted) {
        gen_groups.push_back({});
        gen_keys.push_back(m.generation[i]);
      }
      gen_groups[g].count++;
      gen_groups[g].bytes += sz;
    }
    if (m.type[i] == kString && m.value_id[i] && !(m.flags[i] & kShared)) {
      uint32_t v = m.value_id[i];
      dup_count[v]++;
      dup_bytesize[v] = m.bytesize[i] ? m.bytesize[i] : static_cast<uint32_t>(m.strings.get(v).size());
      dup_memsize[v] += sz;
    }
  }
  out["objects"] = n;
  out["bytes"] = bytes;
  out["objects_with_allocation_site"] = with_site;
  out["objects_without_generation"] = without_gen;
  out["total_references"] = m.references_total;
  out["dangling_references"] = m.dangling_references;
  if (!m.dangling_examples.empty()) {
    json ex = json::array();
    for (uint64_t a : m.dangling_examples) ex.push_back(format_address(a));
    out["dangling_reference_examples"] = ex;
  }
  out["duplicate_addresses"] = m.duplicate_addresses;

  json bt = json::object();
  for (uint8_t t = 0; t < kTypeCount; ++t)
    if (by_type[t].count) bt[type_name(t)] = {{"count", by_type[t].count}, {"bytes", by_type[t].bytes}};
  out["by_type"] = bt;

  out["classes"] = static_cast<uint64_t>(
      std::count_if(by_class.begin(), by_class.end(), [](const Group& g) { return g.count > 0; }));
  {
    json rows = json::array();
    for (uint32_t id : top_rows(by_class, lim.classes))
      rows.push_back(
          {{"class", to_valid_utf8(m.strings.get(id))}, {"count", by_class[id].count}, {"bytes", by_class[id].bytes}});
    out["by_class"] = rows;
  }
  out["locations"] = loc_groups.size();
  {
    json rows = json::array();
    for (uint32_t g : top_rows(loc_groups, lim.locations)) {
      json row = json::object();
      put_location(m, loc_keys[g], row);
      row["count"] = loc_groups[g].count;
      row["bytes"] = loc_groups[g].bytes;
      rows.push_back(std::move(row));
    }
    out["by_location"] = rows;
  }
  {
    std::vector<uint32_t> ids(gen_groups.size());
    for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) { return gen_keys[a] < gen_keys[b]; });
    json rows = json::array();
    for (uint32_t g : ids)
      rows.push_back({{"generation", gen_keys[g] == kNoGeneration ? json(nullptr) : json(gen_keys[g])},
                      {"count", gen_groups[g].count},
                      {"bytes", gen_groups[g].bytes}});
    out["by_generation"] = rows;
  }
  {
    std::vector<uint32_t> ids;
    uint64_t wasted_total = 0;
    for (uint32_t v = 0; v < dup_count.size(); ++v)
      if (dup_count[v] > 1) {
        ids.push_back(v);
        wasted_total += static_cast<uint64_t>(dup_count[v] - 1) * dup_bytesize[v];
      }
    auto wasted = [&](uint32_t v) { return static_cast<uint64_t>(dup_count[v] - 1) * dup_bytesize[v]; };
    auto top = top_n(ids, lim.duplicate_strings, [&](uint32_t a, uint32_t b) {
      return wasted(a) != wasted(b)         ? wasted(a) > wasted(b)
             : dup_count[a] != dup_count[b] ? dup_count[a] > dup_count[b]
                                            : a < b;
    });
    json rows = json::array();
    for (uint32_t v : top) {
      std::string_view s = m.strings.get(v);
      rows.push_back({{"value", to_valid_utf8(s.substr(0, 300))},
                      {"count", dup_count[v]},
                      {"bytesize", dup_bytesize[v]},
                      {"wasted_bytes", wasted(v)},
                      {"memsize", dup_memsize[v]}});
    }
    out["duplicate_strings"] = rows;
    out["duplicate_string_values"] = ids.size();
    out["duplicate_strings_wasted_bytes"] = wasted_total;
  }
  json cats = json::array();
  uint64_t root_refs = 0;
  for (size_t k = 0; k < m.root_categories.size(); ++k) {
    cats.push_back(
        {{"category", to_valid_utf8(m.strings.get(m.root_categories[k]))}, {"references", m.root_records[k]}});
    root_refs += m.root_records[k];
  }
  out["root_categories"] = cats;
  out["root_references"] = root_refs;
}

// ---- Labels ----------------------------------------------------------------------------------

uint32_t ObjectLabels::class_object(uint32_t i) const {
  return m_.class_address[i] ? m_.index_of(m_.class_address[i]) : kNoIndex;
}

std::string ObjectLabels::operator()(uint32_t i) const { return label(i, 0); }

std::string ObjectLabels::label(uint32_t i, int depth) const {
  const uint8_t t = m_.type[i];
  auto name = [&](uint32_t k) { return to_valid_utf8(m_.strings.get(m_.name_id[k])); };
  if (t == kClass || t == kModule) {
    if (m_.name_id[i]) return (t == kClass ? "Class " : "Module ") + name(i);
    if (t != kClass || !(m_.flags[i] & kSingleton)) return t == kClass ? "Class (anonymous)" : "Module (anonymous)";
    if (!attached_built_) {
      // Each object's class is its singleton class when it has one: one pass finds every owner.
      attached_built_ = true;
      U64Map cache(256);
      std::vector<std::pair<uint32_t, uint32_t>> pairs;
      for (uint32_t j = 0; j < m_.size(); ++j) {
        // An iClass's class is its module and an IMEMO's the receiver's class (callcache): neither owns it.
        if (m_.type[j] == kIclass || m_.type[j] == kImemo || !m_.class_address[j]) continue;
        bool inserted = false;
        uint32_t& c = cache.find_or_insert(m_.class_address[j], kNoIndex, &inserted);
        if (inserted) {
          c = m_.index_of(m_.class_address[j]);
          if (c != kNoIndex && !(m_.type[c] == kClass && (m_.flags[c] & kSingleton))) c = kNoIndex - 1;
        }
        if (c < kNoIndex - 1) pairs.emplace_back(c, j);
      }
      std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (const auto& [c, j] : pairs)
        if (singletons_.empty() || singletons_.back() != c) {
          singletons_.push_back(c);
          attached_.push_back(j);
        }
    }
    auto it = std::lower_bound(singletons_.begin(), singletons_.end(), i);
    if (it == singletons_.end() || *it != i || depth > 3) return "singleton class";
    const uint32_t a = attached_[static_cast<size_t>(it - singletons_.begin())];
    const bool module_like = m_.type[a] == kClass || m_.type[a] == kModule;
    if (module_like && m_.name_id[a]) return "singleton class of " + name(a);
    if (module_like && (m_.flags[a] & kSingleton)) return "singleton class of " + label(a, depth + 1);
    return "singleton class of " + label(a, depth + 1) + " " + format_address(m_.address[a]);
  }
  if (t == kIclass) {
    const uint32_t c = class_object(i);
    if (c == kNoIndex) return "iClass";
    return "iClass of " + (m_.name_id[c] ? name(c) : label(c, depth + 1));
  }
  // An object with a singleton class is an instance of that class's real class (the report's
  // groupings keep the convention of counting it under "(unnamed class)").
  const uint32_t c = t == kImemo ? kNoIndex : class_object(i);
  if (c != kNoIndex && m_.type[c] == kClass && (m_.flags[c] & kSingleton) && m_.detail_id[c])
    return to_valid_utf8(m_.strings.get(m_.detail_id[c]));
  return to_valid_utf8(m_.strings.get(m_.class_id[i]));
}

nlohmann::json object_brief(const HeapModel& m, const ObjectLabels& labels, uint32_t i) {
  json o = {{"address", format_address(m.address[i])},
            {"label", labels(i)},
            {"class", to_valid_utf8(m.strings.get(m.class_id[i]))},
            {"type", type_name(m.type[i])},
            {"bytes", m.memsize[i]}};
  if (m.file_id[i]) {
    o["file"] = to_valid_utf8(m.strings.get(m.file_id[i]));
    o["line"] = m.line[i] ? json(m.line[i]) : json(nullptr);
  }
  if (m.name_id[i]) o["name"] = to_valid_utf8(m.strings.get(m.name_id[i]));
  return o;
}

// ---- Retention -------------------------------------------------------------------------------

namespace {

// The dominator tree's children of every node, the virtual root (index n) included, as CSR:
// children[child_begin[v] .. child_begin[v + 1]).
struct DominatorChildren {
  std::vector<uint32_t> child_begin, children;
  DominatorChildren(uint32_t n, const Dominators& d, const std::vector<uint32_t>& reach) : child_begin(n + 2, 0) {
    for (uint32_t i : reach) ++child_begin[d.idom[i] + 1];
    for (uint32_t i = 0; i <= n; ++i) child_begin[i + 1] += child_begin[i];
    children.resize(child_begin[n + 1]);
    std::vector<uint32_t> fill(child_begin.begin(), child_begin.end() - 1);
    for (uint32_t i : reach) children[fill[d.idom[i]]++] = i;
  }
};

// Orders objects by retained size, largest first, then by index.
struct ByRetained {
  const Dominators& d;
  bool operator()(uint32_t a, uint32_t b) const {
    return d.retained[a] != d.retained[b] ? d.retained[a] > d.retained[b] : a < b;
  }
};

// Retained bytes and object count per group (group_of[object], kNoIndex = none) without double
// counting: an object's retained size counts only when no dominator above it is in the same group,
// so nested instances are not summed twice.
void retained_by_group(uint32_t n, const Dominators& d, const DominatorChildren& tree,
                       const std::vector<uint32_t>& group_of, size_t groups, std::vector<uint64_t>& total,
                       std::vector<uint32_t>& count) {
  std::vector<uint32_t> active(groups, 0);
  total.assign(groups, 0);
  count.assign(groups, 0);
  std::vector<uint32_t> stack_node{n}, stack_pos{0};
  while (!stack_node.empty()) {
    uint32_t v = stack_node.back();
    uint32_t& pos = stack_pos.back();
    if (pos == 0 && v != n) {
      uint32_t k = group_of[v];
      if (k != kNoIndex) {
        if (!active[k]++) total[k] += d.retained[v];
        count[k]++;
      }
    }
    if (tree.child_begin[v] + pos < tree.child_begin[v + 1]) {
      uint32_t c = tree.children[tree.child_begin[v] + pos++];
      stack_node.push_back(c);
      stack_pos.push_back(0);
    } else {
      if (v != n && group_of[v] != kNoIndex) --active[group_of[v]];
      stack_node.pop_back();
      stack_pos.pop_back();
    }
  }
}

// Rows of retained_by_class / retained_by_location: the groups retaining most, labelled by `label`.
template <typename Label>
json retained_rows(uint32_t n, const Dominators& d, const DominatorChildren& tree,
                   const std::vector<uint32_t>& group_of, size_t groups, size_t limit, Label label) {
  std::vector<uint64_t> total;
  std::vector<uint32_t> count;
  retained_by_group(n, d, tree, group_of, groups, total, count);
  std::vector<uint32_t> ids;
  for (uint32_t id = 0; id < groups; ++id)
    if (count[id]) ids.push_back(id);
  auto top =
      top_n(ids, limit, [&](uint32_t a, uint32_t b) { return total[a] != total[b] ? total[a] > total[b] : a < b; });
  json rows = json::array();
  for (uint32_t id : top) {
    json row = json::object();
    label(id, row);
    row["count"] = count[id];
    row["retained_bytes"] = total[id];
    rows.push_back(std::move(row));
  }
  return rows;
}

void write_retained_groups(const HeapModel& m, const Dominators& d, const DominatorChildren& tree,
                           const ReportLimits& lim, json& out) {
  const uint32_t n = static_cast<uint32_t>(m.size());
  out["retained_by_class"] =
      retained_rows(n, d, tree, m.class_id, m.strings.size(), lim.retained_groups,
                    [&](uint32_t id, json& row) { row["class"] = to_valid_utf8(m.strings.get(id)); });
  U64Map loc_index(std::min<size_t>(n, 1024));
  std::vector<uint64_t> loc_keys;
  std::vector<uint32_t> loc_of(n, kNoIndex);
  for (uint32_t i = 0; i < n; ++i)
    if (m.file_id[i]) {
      uint64_t key = static_cast<uint64_t>(m.file_id[i]) << 32 | m.line[i];
      bool inserted = false;
      uint32_t& g = loc_index.find_or_insert(key, static_cast<uint32_t>(loc_keys.size()), &inserted);
      if (inserted) loc_keys.push_back(key);
      loc_of[i] = g;
    }
  out["retained_by_location"] = retained_rows(n, d, tree, loc_of, loc_keys.size(), lim.retained_groups,
                                              [&](uint32_t g, json& row) { put_location(m, loc_keys[g], row); });
}

// Top retainers with their referrers (the first lim.parents) and, for the first lim.paths, a
// shortest path to a root.
void write_top_retainers(const HeapModel& m, const Dominators& d, const ObjectLabels& labels,
                         const std::vector<uint32_t>& reach, const ReportLimits& lim, json& out) {
  const uint32_t n = static_cast<uint32_t>(m.size());
  std::vector<uint32_t> top = top_n(reach, lim.top_retainers, ByRetained{d});
  std::vector<uint32_t> slot(n, kNoIndex);
  for (uint32_t k = 0; k < top.size(); ++k) slot[top[k]] = k;
  std::vector<std::vector<uint32_t>> parents(top.size());
  std::vector<uint32_t> parent_total(top.size(), 0);
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t r = m.ref_begin[i]; r < m.ref_begin[i + 1]; ++r) {
      uint32_t s = slot[m.ref_targets[r]];
      if (s == kNoIndex) continue;
      ++parent_total[s];
      if (parents[s].size() < lim.parents) parents[s].push_back(i);
    }
  json rows = json::array();
  for (uint32_t k = 0; k < top.size(); ++k) {
    uint32_t i = top[k];
    json o = object_brief(m, labels, i);
    o["retained_bytes"] = d.retained[i];
    o["dominator"] = d.idom[i] == d.root ? json("(GC roots)") : json(format_address(m.address[d.idom[i]]));
    json ps = json::array();
    for (uint32_t p : parents[k]) ps.push_back(object_brief(m, labels, p));
    o["parents"] = ps;
    o["parent_count"] = parent_total[k];
    if (d.root_edge[i] != kNoIndex && d.root_edge[i] < m.root_categories.size())
      o["held_by_root"] = to_valid_utf8(m.strings.get(m.root_categories[d.root_edge[i]]));
    if (k < lim.paths) {
      json path = json::array();
      auto p = path_to_root(d, i);
      for (uint32_t v : p) path.push_back(object_brief(m, labels, v));
      o["path_to_root"] = path;
      if (!p.empty() && d.root_edge[p.back()] != kNoIndex && d.root_edge[p.back()] < m.root_categories.size())
        o["root_category"] = to_valid_utf8(m.strings.get(m.root_categories[d.root_edge[p.back()]]));
    }
    rows.push_back(o);
  }
  out["top_retainers"] = rows;
}

// The bounded dominator tree (icicle): the top nodes by retained size plus their dominators, in
// dominator-tree preorder so that every parent precedes its children. Node 0 = the GC roots.
// `pos` gets each object's node (kNoIndex when not in the tree).
json bounded_dominator_tree(const HeapModel& m, const Dominators& d, const ObjectLabels& labels,
                            const DominatorChildren& tree, const std::vector<uint32_t>& reach, size_t tree_nodes,
                            std::vector<uint32_t>& pos) {
  const uint32_t n = static_cast<uint32_t>(m.size());
  const ByRetained by_retained{d};
  std::vector<uint32_t> chosen = top_n(reach, tree_nodes, by_retained);
  std::vector<uint8_t> in(n + 1, 0);
  in[n] = 1;
  for (uint32_t v : chosen) in[v] = 1;
  for (uint32_t v : chosen)
    for (uint32_t a = d.idom[v]; a != kNoIndex && a != n && !in[a]; a = d.idom[a]) in[a] = 1;
  json addr = json::array(), cls = json::array(), lab = json::array(), ret = json::array(), self = json::array(),
       par = json::array(), loc = json::array();
  pos.assign(n + 1, kNoIndex);
  std::vector<uint32_t> stack{n};
  while (!stack.empty()) {
    uint32_t v = stack.back();
    stack.pop_back();
    pos[v] = static_cast<uint32_t>(addr.size());
    if (v == n) {
      addr.push_back(nullptr);
      cls.push_back("(GC roots)");
      lab.push_back("(GC roots)");
      ret.push_back(d.retained[n]);
      self.push_back(0);
      par.push_back(-1);
      loc.push_back(nullptr);
    } else {
      addr.push_back(format_address(m.address[v]));
      cls.push_back(to_valid_utf8(m.strings.get(m.class_id[v])));
      lab.push_back(labels(v));
      ret.push_back(d.retained[v]);
      self.push_back(m.memsize[v]);
      par.push_back(pos[d.idom[v]]);
      loc.push_back(m.file_id[v] ? json(to_valid_utf8(m.strings.get(m.file_id[v])) + ":" + std::to_string(m.line[v]))
                                 : json(nullptr));
    }
    // Children in decreasing retained order (pushed reversed so the biggest comes first).
    std::vector<uint32_t> kids;
    for (uint32_t c = tree.child_begin[v]; c < tree.child_begin[v + 1]; ++c)
      if (in[tree.children[c]]) kids.push_back(tree.children[c]);
    std::sort(kids.begin(), kids.end(), [&](uint32_t a, uint32_t b) { return by_retained(b, a); });
    for (uint32_t c : kids) stack.push_back(c);
  }
  return {{"nodes", addr.size()}, {"address", addr}, {"class", cls},  {"label", lab},
          {"retained", ret},      {"self", self},    {"parent", par}, {"location", loc}};
}

// Shortest paths to a root for every node of the bounded tree, shared as one forest (paths share
// prefixes): path_tree rows {address, class, parent (-1 = held by a root), root}; the tree's
// column path[i] is the row of node i (-1 when the forest's bound was reached).
json shortest_path_forest(const HeapModel& m, const Dominators& d, const ObjectLabels& labels,
                          const std::vector<uint32_t>& pos, size_t tree_nodes, json& path_col) {
  const uint32_t n = static_cast<uint32_t>(m.size());
  json paddr = json::array(), pcls = json::array(), plab = json::array(), ppar = json::array(), proot = json::array();
  U64Map prow(std::min<size_t>(n, 4096));  // keys are objects: at most n of them
  std::vector<uint32_t> chain;
  const size_t max_rows = tree_nodes * 12;
  for (uint32_t v = 0; v < n; ++v) {
    if (pos[v] == kNoIndex) continue;
    chain.clear();
    uint32_t x = v;
    uint32_t known = kNoIndex;
    while (x != kNoIndex && x != n) {
      uint32_t row = prow.find(static_cast<uint64_t>(x) + 1);
      if (row != kNoIndex) {
        known = row;
        break;
      }
      chain.push_back(x);
      x = d.bfs_parent[x];
    }
    if (paddr.size() + chain.size() > max_rows) continue;
    uint32_t parent_row = known;
    for (size_t c = chain.size(); c-- > 0;) {
      uint32_t o = chain[c];
      uint32_t row = static_cast<uint32_t>(paddr.size());
      prow.find_or_insert(static_cast<uint64_t>(o) + 1, row);
      paddr.push_back(format_address(m.address[o]));
      pcls.push_back(to_valid_utf8(m.strings.get(m.class_id[o])));
      plab.push_back(labels(o));
      ppar.push_back(parent_row == kNoIndex ? json(-1) : json(parent_row));
      proot.push_back(d.bfs_parent[o] == n && d.root_edge[o] < m.root_categories.size()
                          ? json(to_valid_utf8(m.strings.get(m.root_categories[d.root_edge[o]])))
                          : json(nullptr));
      parent_row = row;
    }
    path_col[pos[v]] = parent_row == kNoIndex ? json(-1) : json(parent_row);
  }
  return {{"rows", paddr.size()}, {"address", paddr}, {"class", pcls},
          {"label", plab},        {"parent", ppar},   {"root", proot}};
}

}  // namespace

void write_retention(const HeapModel& m, const Dominators& d, const ReportLimits& lim, json& out) {
  const uint32_t n = static_cast<uint32_t>(m.size());
  const ObjectLabels labels(m);
  uint64_t unreachable = 0, unreachable_bytes = 0;
  std::vector<uint32_t> reach;
  reach.reserve(static_cast<size_t>(d.reachable));
  for (uint32_t i = 0; i < n; ++i) {
    if (d.idom[i] == kNoIndex) {
      ++unreachable;
      unreachable_bytes += m.memsize[i];
    } else {
      reach.push_back(i);
    }
  }
  out["reachable"] = {{"objects", d.reachable}, {"bytes", d.reachable_bytes}};
  out["unreachable"] = {{"objects", unreachable}, {"bytes", unreachable_bytes}};
  const DominatorChildren tree(n, d, reach);
  write_retained_groups(m, d, tree, lim, out);
  write_top_retainers(m, d, labels, reach, lim, out);
  std::vector<uint32_t> pos;
  json dominator_tree = bounded_dominator_tree(m, d, labels, tree, reach, lim.tree_nodes, pos);
  json path_col = json::array();
  for (size_t k = 0; k < dominator_tree["nodes"].get<size_t>(); ++k) path_col.push_back(-1);
  out["path_tree"] = shortest_path_forest(m, d, labels, pos, lim.tree_nodes, path_col);
  dominator_tree["path"] = std::move(path_col);
  out["dominator_tree"] = std::move(dominator_tree);
}

void write_report(const HeapModel& m, const ReportLimits& lim, json& out, Dominators* keep) {
  write_summaries(m, lim, out);
  if (m.root_targets.empty()) {
    out["dominators"] = {
        {"available", false},
        {"reason", m.root_categories.empty()
                       ? "no ROOT records (a partial dump made with since:, or a snapshot without roots): "
                         "retained sizes and paths to roots need the GC roots"
                       : "the ROOT records reference no object of the snapshot"}};
    out["top_retainers"] = json::array();
    return;
  }
  Dominators d = compute_dominators(m);
  out["dominators"] = {{"available", true}, {"algorithm", "Lengauer-Tarjan (iterative, path compression)"}};
  write_retention(m, d, lim, out);
  if (keep) *keep = std::move(d);
}

}  // namespace gcscope::heap
