#include "heap/heap_query.h"

#include <algorithm>
#include <cstdint>
#include <queue>
#include <unordered_map>

#include "core/query.h"
#include "heap/stack_source.h"
#include "profile/stack_queries.h"

namespace gcscope::heap {

namespace {
using nlohmann::json;
constexpr int64_t kMaxPage = 1000;
constexpr int64_t kMaxSubtreeNodes = 20000;
constexpr size_t kMaxAncestors = 100;

std::string root_category_of(const HeapModel& m, const Dominators& d, uint32_t i) {
  if (d.root_edge.empty() || d.root_edge[i] >= m.root_categories.size()) return {};
  return to_valid_utf8(m.strings.get(m.root_categories[d.root_edge[i]]));
}
}  // namespace

bool parse_address(const std::string& text, uint64_t& address) {
  size_t k = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X') ? 2 : 0;
  if (k >= text.size() || text.size() - k > 16) return false;
  uint64_t v = 0;
  for (; k < text.size(); ++k) {
    char c = text[k];
    int h = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (h < 0) return false;
    v = v << 4 | static_cast<uint64_t>(h);
  }
  address = v;
  return v != 0;
}

const std::vector<std::string>& HeapQueries::methods() {
  static const std::vector<std::string> list = {"heap.object",     "heap.parents",  "heap.references", "heap.path",
                                                "heap.dominators", "heap.children", "heap.subtree"};
  return list;
}

uint32_t HeapQueries::object_of(const json& args) const {
  const json& a = query_args::required(args, "address");
  uint64_t address = 0;
  if (!a.is_string() || !parse_address(a.get<std::string>(), address))
    throw QueryError("argument 'address' must be an object's address as a string, e.g. \"0x7f8a1c0b2a40\"");
  uint32_t i = m_.index_of(address);
  if (i == kNoIndex) throw QueryError("no object at address " + format_address(address) + " in this dump");
  return i;
}

bool HeapQueries::by_retained(uint32_t a, uint32_t b) const {
  uint64_t ra = d_.retained.empty() ? 0 : d_.retained[a], rb = d_.retained.empty() ? 0 : d_.retained[b];
  return ra != rb ? ra > rb : a < b;
}

json HeapQueries::row(uint32_t i) const {
  json o = object_brief(m_, labels_, i);
  o["retained_bytes"] = reachable(i) ? json(d_.retained[i]) : json(nullptr);
  return o;
}

json HeapQueries::page(const std::vector<uint32_t>& list, size_t total, size_t offset, size_t limit,
                       const std::string& address) const {
  json rows = json::array();
  for (size_t k = offset; k < list.size() && k < offset + limit; ++k) rows.push_back(row(list[k]));
  return {{"address", address}, {"total", total}, {"offset", offset}, {"rows", std::move(rows)}};
}

void HeapQueries::build_parents() {
  if (!parents_.empty() || !parent_begin_.empty()) return;
  const uint32_t n = static_cast<uint32_t>(m_.size());
  parent_begin_.assign(n + 1, 0);
  for (uint32_t t : m_.ref_targets) ++parent_begin_[t + 1];
  for (uint32_t i = 0; i < n; ++i) parent_begin_[i + 1] += parent_begin_[i];
  parents_.resize(parent_begin_[n]);
  parent_end_.assign(parent_begin_.begin(), parent_begin_.end() - 1);
  // Sources in increasing order: a source that references a target twice lands next to itself.
  for (uint32_t v = 0; v < n; ++v)
    for (uint32_t r = m_.ref_begin[v]; r < m_.ref_begin[v + 1]; ++r) {
      uint32_t t = m_.ref_targets[r];
      uint32_t& end = parent_end_[t];
      if (end > parent_begin_[t] && parents_[end - 1] == v) continue;
      parents_[end++] = v;
    }
}

void HeapQueries::build_children() {
  if (!child_begin_.empty()) return;
  const uint32_t n = static_cast<uint32_t>(m_.size());
  child_begin_.assign(n + 2, 0);
  if (d_.idom.empty()) return;
  for (uint32_t i = 0; i < n; ++i)
    if (d_.idom[i] != kNoIndex) ++child_begin_[d_.idom[i] + 1];
  for (uint32_t i = 0; i <= n; ++i) child_begin_[i + 1] += child_begin_[i];
  children_.resize(child_begin_[n + 1]);
  std::vector<uint32_t> fill(child_begin_.begin(), child_begin_.end() - 1);
  for (uint32_t i = 0; i < n; ++i)
    if (d_.idom[i] != kNoIndex) children_[fill[d_.idom[i]]++] = i;
  for (uint32_t v = 0; v <= n; ++v)
    std::sort(children_.begin() + child_begin_[v], children_.begin() + child_begin_[v + 1],
              [&](uint32_t a, uint32_t b) { return by_retained(a, b); });
}

std::vector<uint32_t> HeapQueries::distinct_references(uint32_t i) const {
  std::vector<uint32_t> out;
  for (uint32_t r = m_.ref_begin[i]; r < m_.ref_begin[i + 1]; ++r)
    if (std::find(out.begin(), out.end(), m_.ref_targets[r]) == out.end()) out.push_back(m_.ref_targets[r]);
  return out;
}

json HeapQueries::object(uint32_t i) {
  build_parents();
  build_children();
  json o = row(i);
  o["reachable"] = reachable(i);
  if (!reachable(i)) o["dominator"] = nullptr;
  else if (d_.idom[i] == d_.root) o["dominator"] = {{"address", nullptr}, {"label", "(GC roots)"}};
  else o["dominator"] = row(d_.idom[i]);
  std::string held = root_category_of(m_, d_, i);
  o["held_by_root"] = held.empty() ? json(nullptr) : json(held);
  o["parent_count"] = parent_end_[i] - parent_begin_[i];
  o["reference_count"] = distinct_references(i).size();
  o["dominated_count"] = child_begin_[i + 1] - child_begin_[i];
  return o;
}

json HeapQueries::parents(uint32_t i, size_t offset, size_t limit) {
  build_parents();
  std::vector<uint32_t> list(parents_.begin() + parent_begin_[i], parents_.begin() + parent_end_[i]);
  size_t want = std::min(list.size(), offset + limit);
  std::partial_sort(list.begin(), list.begin() + static_cast<long>(want), list.end(),
                    [&](uint32_t a, uint32_t b) { return by_retained(a, b); });
  return page(list, list.size(), offset, limit, format_address(m_.address[i]));
}

json HeapQueries::references(uint32_t i, size_t offset, size_t limit) const {
  std::vector<uint32_t> list = distinct_references(i);
  return page(list, list.size(), offset, limit, format_address(m_.address[i]));
}

json HeapQueries::path(uint32_t i) const {
  json out = {{"address", format_address(m_.address[i])}, {"reachable", reachable(i)}};
  json steps = json::array();
  std::vector<uint32_t> p = reachable(i) ? path_to_root(d_, i, SIZE_MAX) : std::vector<uint32_t>();
  const size_t shown = 1000;
  for (size_t k = 0; k < p.size() && k < shown; ++k) steps.push_back(row(p[k]));
  out["length"] = p.size();
  out["path_to_root"] = std::move(steps);
  out["omitted"] = p.size() > shown ? p.size() - shown : 0;  // between the last shown step and the root
  std::string root = p.empty() ? std::string() : root_category_of(m_, d_, p.back());
  out["root_category"] = root.empty() ? json(nullptr) : json(root);
  return out;
}

json HeapQueries::dominators(uint32_t i, size_t offset, size_t limit) const {
  std::vector<uint32_t> chain;
  if (reachable(i))
    for (uint32_t a = d_.idom[i]; a != d_.root && a != kNoIndex; a = d_.idom[a]) chain.push_back(a);
  return page(chain, chain.size(), offset, limit, format_address(m_.address[i]));
}

json HeapQueries::children(uint32_t node, size_t offset, size_t limit) {
  build_children();
  std::vector<uint32_t> list(children_.begin() + child_begin_[node], children_.begin() + child_begin_[node + 1]);
  return page(list, list.size(), offset, limit, node == d_.root ? std::string() : format_address(m_.address[node]));
}

// Best-first: the subtree's most retaining nodes. A node's children are expanded in retained
// order, so the included children of every node are a prefix of its sorted child list.
json HeapQueries::subtree(uint32_t node, size_t max_nodes) {
  build_children();
  auto less = [&](uint32_t a, uint32_t b) { return by_retained(b, a); };  // max-heap on retained
  std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(less)> frontier(less);
  std::unordered_map<uint32_t, uint32_t> taken;  // node → included children
  taken[node] = 0;
  for (uint32_t c = child_begin_[node]; c < child_begin_[node + 1]; ++c) frontier.push(children_[c]);
  while (taken.size() < max_nodes && !frontier.empty()) {
    uint32_t v = frontier.top();
    frontier.pop();
    taken[v] = 0;
    ++taken[d_.idom[v]];
    for (uint32_t c = child_begin_[v]; c < child_begin_[v + 1]; ++c) frontier.push(children_[c]);
  }
  json addr = json::array(), lab = json::array(), cls = json::array(), ret = json::array(), self = json::array(),
       par = json::array(), loc = json::array(), kids = json::array(), hidden = json::array();
  std::vector<std::pair<uint32_t, int64_t>> stack{{node, -1}};
  while (!stack.empty()) {
    auto [v, parent] = stack.back();
    stack.pop_back();
    const int64_t at = static_cast<int64_t>(addr.size());
    const uint32_t total = child_begin_[v + 1] - child_begin_[v], shown = taken[v];
    if (v == d_.root) {
      addr.push_back(nullptr);
      lab.push_back("(GC roots)");
      cls.push_back("(GC roots)");
      self.push_back(0);
      loc.push_back(nullptr);
    } else {
      addr.push_back(format_address(m_.address[v]));
      lab.push_back(labels_(v));
      cls.push_back(to_valid_utf8(m_.strings.get(m_.class_id[v])));
      self.push_back(m_.memsize[v]);
      loc.push_back(m_.file_id[v]
                        ? json(to_valid_utf8(m_.strings.get(m_.file_id[v])) + ":" + std::to_string(m_.line[v]))
                        : json(nullptr));
    }
    ret.push_back(d_.retained.empty() ? 0 : d_.retained[v]);
    par.push_back(parent);
    kids.push_back(total);
    hidden.push_back(total - shown);
    for (uint32_t k = shown; k-- > 0;) stack.push_back({children_[child_begin_[v] + k], at});
  }
  json out = {{"nodes", addr.size()}, {"address", addr}, {"label", lab},    {"class", cls},     {"retained", ret},
              {"self", self},         {"parent", par},   {"location", loc}, {"children", kids}, {"hidden", hidden}};
  std::vector<uint32_t> up;
  if (node != d_.root)
    for (uint32_t a = d_.idom[node]; a != d_.root && a != kNoIndex; a = d_.idom[a]) up.push_back(a);
  json ancestors = json::array(
      {{{"address", nullptr}, {"label", "(GC roots)"}, {"retained", d_.retained.empty() ? 0 : d_.retained[d_.root]}}});
  const size_t first = up.size() > kMaxAncestors ? up.size() - kMaxAncestors : 0;  // the nearest ones
  for (size_t k = up.size(); k-- > first;)
    ancestors.push_back(
        {{"address", format_address(m_.address[up[k]])}, {"label", labels_(up[k])}, {"retained", d_.retained[up[k]]}});
  out["ancestors"] = std::move(ancestors);
  out["ancestors_omitted"] = first;
  out["stacks"] = profile::tree_json(dominator_stack_model(out));  // the icicle of this subtree
  return out;
}

json HeapQueries::answer(const std::string& method, const json& args) {
  auto offset = [&] { return static_cast<size_t>(query_args::integer(args, "offset", 0)); };
  auto limit = [&] { return static_cast<size_t>(query_args::integer(args, "limit", 50, 1, kMaxPage)); };
  // heap.children / heap.subtree without an address: the GC roots (the virtual root).
  auto node = [&]() -> uint32_t {
    if (!args.is_object() || !args.contains("address") || args["address"].is_null()) return d_.root;
    uint32_t i = object_of(args);
    if (!reachable(i))
      throw QueryError("object " + format_address(m_.address[i]) +
                       " is not reachable from the GC roots: it has no place in the dominator tree");
    return i;
  };
  const bool retention =
      method == "heap.path" || method == "heap.dominators" || method == "heap.children" || method == "heap.subtree";
  if (retention && d_.idom.empty())
    throw QueryError("this dump has no GC roots (ROOT records), so no paths to roots or dominator tree");
  if (method == "heap.object") return object(object_of(args));
  if (method == "heap.parents") return parents(object_of(args), offset(), limit());
  if (method == "heap.references") return references(object_of(args), offset(), limit());
  if (method == "heap.path") return path(object_of(args));
  if (method == "heap.dominators") return dominators(object_of(args), offset(), limit());
  if (method == "heap.children") return children(node(), offset(), limit());
  if (method == "heap.subtree")
    return subtree(node(), static_cast<size_t>(query_args::integer(args, "max_nodes", 2000, 1, kMaxSubtreeNodes)));
  throw QueryError("a heap dump does not answer '" + method + "'");
}

json HeapQueries::focus(uint64_t address) {
  uint32_t i = m_.index_of(address);
  if (i == kNoIndex) return {{"address", format_address(address)}, {"found", false}};
  json f = object(i);
  f["found"] = true;
  json ps = parents(i, 0, 200);
  f["parents"] = ps["rows"];
  if (!d_.idom.empty()) {
    json p = path(i);
    f["path_to_root"] = p["path_to_root"];
    f["root_category"] = p["root_category"];
    f["dominators"] = dominators(i, 0, 1000)["rows"];
  }
  return f;
}

}  // namespace gcscope::heap
