// Functions over a finalized HeapModel: summaries, the dominator tree with retained sizes, paths to
// GC roots, and the JSON fields of the report (shared by the dump analyzer and rbkit snapshots).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "heap/heap_model.h"

namespace gcscope::heap {

struct ReportLimits {
  size_t classes = 1000;    // by_class rows (sorted by bytes; the rest summed in *_rest)
  size_t locations = 1000;  // by_location rows
  size_t duplicate_strings = 200;
  size_t top_retainers = 100;
  size_t paths = 100;            // path-to-root for the first N top retainers
  size_t parents = 8;            // referrers listed per top retainer
  size_t tree_nodes = 2000;      // bounded dominator tree for the icicle view
  size_t retained_groups = 200;  // retained_by_class / retained_by_location rows
};

// Dominator tree of the object graph rooted at a virtual node (index = model.size()) whose
// successors are the GC roots' targets. Lengauer–Tarjan with path compression, iterative (no
// recursion: millions of nodes), arrays indexed by DFS number.
struct Dominators {
  uint32_t root = 0;                 // the virtual root's index (= number of objects)
  std::vector<uint32_t> idom;        // per object: immediate dominator (root or an object), kNoIndex = unreachable
  std::vector<uint64_t> retained;    // per object: retained bytes (0 when unreachable); [root] = all reachable
  std::vector<uint32_t> bfs_parent;  // per object: predecessor on a shortest path from the roots
  std::vector<uint32_t> root_edge;   // per object reached straight from a root: index into model.root_categories
  uint64_t reachable = 0;            // objects reachable from the roots
  uint64_t reachable_bytes = 0;
};

// Empty (reachable = 0) when the model has no roots (partial `since:` dumps, rbkit snapshots).
Dominators compute_dominators(const HeapModel& model);

// What one object is called wherever it is shown (tables, icicle, paths, exports): its display class
// ("String", "Order", "<callcache> (IMEMO)"), except that classes and modules are named for what
// they are: "Class Object", "Module Gem", "singleton class of Foo", "iClass of Comparable",
// "Class (anonymous)". A singleton class's object is the one whose class it is (the dump does not
// name it); an iClass's module is its class field (Ruby points an iClass at the included module).
class ObjectLabels {
 public:
  explicit ObjectLabels(const HeapModel& model) : m_(model) {}
  std::string operator()(uint32_t object) const;

 private:
  std::string label(uint32_t object, int depth) const;
  uint32_t class_object(uint32_t object) const;  // index of the object's class record, kNoIndex if absent
  const HeapModel& m_;
  mutable std::vector<uint32_t> singletons_, attached_;  // sorted singleton indices → attached object
  mutable bool attached_built_ = false;
};

// {address, label, class, type, bytes, file?, line?, name?} of one object.
nlohmann::json object_brief(const HeapModel& model, const ObjectLabels& labels, uint32_t object);

// Report fields: objects, bytes, by_type, by_class, by_location, by_generation, duplicate_strings,
// totals and counts (see docs in the analyzer). The model must be finalized.
void write_summaries(const HeapModel& model, const ReportLimits& limits, nlohmann::json& out);
// Report fields from the dominator tree: top_retainers (with path to root and parents),
// retained_by_class, retained_by_location, unreachable, dominator_tree (columnar, bounded).
void write_retention(const HeapModel& model, const Dominators& dom, const ReportLimits& limits, nlohmann::json& out);
// Both, computing the dominators when the model has roots (otherwise says why there are none).
// `keep`: receives the dominators, for the queries that follow the report (heap_query.h).
void write_report(const HeapModel& model, const ReportLimits& limits, nlohmann::json& out, Dominators* keep = nullptr);

// Path from an object to a GC root along dom.bfs_parent: object first, the root-adjacent object last.
std::vector<uint32_t> path_to_root(const Dominators& dom, uint32_t object, size_t max_len = 64);

}  // namespace gcscope::heap
