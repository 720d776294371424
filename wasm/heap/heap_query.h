// Questions about one heap snapshot after its report (the query protocol, core/query.h): any object
// by its address, not only the few the report has room for. Every list is paged ({offset, limit},
// limit at most 1000) and says its total.
//
//   heap.object     {address}                 → brief + retained_bytes (null when unreachable),
//                                               reachable, dominator, held_by_root, parent_count,
//                                               reference_count, dominated_count
//   heap.parents    {address, offset, limit}  → {address, total, offset, rows}: the objects that
//                                               reference it (each once), most retained first
//   heap.references {address, offset, limit}  → {address, total, offset, rows}: the objects it
//                                               references (each once, in the dump's order; its
//                                               class last: the GC marks it, dump_all leaves it out)
//   heap.path       {address}                 → {address, reachable, path_to_root (object first),
//                                               root_category}: a shortest path from a GC root
//   heap.dominators {address, offset, limit}  → {address, total, offset, rows}: its dominators, the
//                                               immediate one first, up to the GC roots
//   heap.children   {address?, offset, limit} → {address, total, offset, rows}: the objects it
//                                               dominates directly, most retained first (no address:
//                                               those of the GC roots)
//   heap.subtree    {address?, max_nodes}     → its dominator subtree, the max_nodes (≤ 20000) most
//                                               retaining nodes, columnar like the report's
//                                               dominator_tree {nodes, address, label, class,
//                                               retained, self, parent, location, children, hidden}
//                                               in preorder, node 0 the object; plus `ancestors`
//                                               (its dominators, GC roots first) and `stacks`
//                                               (the subtree as a stacks.tree answer, stack_source.h)
//
// A row is object_brief (heap_analysis.h) plus retained_bytes. Addresses are "0x…" strings; an
// address that is not in the dump is a QueryError naming it.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "heap/heap_analysis.h"
#include "heap/heap_model.h"

namespace gcscope::heap {

class HeapQueries {
 public:
  // `dom` may be empty (a dump without roots): then nothing is reachable and the retention
  // questions answer so.
  HeapQueries(const HeapModel& model, const Dominators& dom) : m_(model), d_(dom), labels_(model) {}
  nlohmann::json answer(const std::string& method, const nlohmann::json& args);
  static const std::vector<std::string>& methods();

  // heap.object + the first 200 parents + path + dominators of one object: the report's `focus`
  // (option heap_focus), for the CLI.
  nlohmann::json focus(uint64_t address);

 private:
  uint32_t object_of(const nlohmann::json& args) const;  // args.address → index; QueryError if absent
  bool reachable(uint32_t i) const { return !d_.idom.empty() && d_.idom[i] != kNoIndex; }
  nlohmann::json row(uint32_t i) const;
  nlohmann::json object(uint32_t i);
  nlohmann::json parents(uint32_t i, size_t offset, size_t limit);
  nlohmann::json references(uint32_t i, size_t offset, size_t limit) const;
  nlohmann::json path(uint32_t i) const;
  nlohmann::json dominators(uint32_t i, size_t offset, size_t limit) const;
  nlohmann::json children(uint32_t node, size_t offset, size_t limit);
  nlohmann::json subtree(uint32_t node, size_t max_nodes);
  nlohmann::json page(const std::vector<uint32_t>& list, size_t total, size_t offset, size_t limit,
                      const std::string& address) const;
  void build_parents();
  void build_children();
  std::vector<uint32_t> distinct_references(uint32_t i) const;
  bool by_retained(uint32_t a, uint32_t b) const;

  const HeapModel& m_;
  const Dominators& d_;
  ObjectLabels labels_;
  // Built on the first question that needs them: referrers (CSR, each referrer once per target)
  // and dominator-tree children (CSR over objects + the virtual root, most retained first).
  std::vector<uint32_t> parent_begin_, parent_end_, parents_;
  std::vector<uint32_t> child_begin_, children_;
};

// "0x7f…" (or "7f…") → address; false when it is not a hex address.
bool parse_address(const std::string& text, uint64_t& address);

}  // namespace gcscope::heap
