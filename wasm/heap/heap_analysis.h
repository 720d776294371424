// Functions over a finalized HeapModel: summaries, the dominator tree with retained sizes, paths to
// GC roots, and the JSON fields of the report (shared by the dump analyzer and rbkit snapshots).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "heap/heap_model.h"

namespace gcscope::heap {

struct ReportLimits {
  size_t classes = 1000;            // by_class rows (sorted by bytes; the rest summed in *_rest)
  size_t locations = 1000;          // by_location rows
  size_t duplicate_strings = 200;
  size_t top_retainers = 100;
  size_t paths = 100;               // path-to-root for the first N top retainers
  size_t parents = 8;               // referrers listed per top retainer
  size_t tree_nodes = 2000;         // bounded dominator tree for the icicle view
  size_t retained_groups = 200;     // retained_by_class / retained_by_location rows
  uint64_t focus_address = 0;       // when set: a `focus` field for that object (parents, path, dominators)
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

// Report fields: objects, bytes, by_type, by_class, by_location, by_generation, duplicate_strings,
// totals and counts (see docs in the analyzer). The model must be finalized.
void write_summaries(const HeapModel& model, const ReportLimits& limits, nlohmann::json& out);
// Report fields from the dominator tree: top_retainers (with path to root and parents),
// retained_by_class, retained_by_location, unreachable, dominator_tree (columnar, bounded).
void write_retention(const HeapModel& model, const Dominators& dom, const ReportLimits& limits, nlohmann::json& out);
// Both, computing the dominators when the model has roots (otherwise says why there are none).
void write_report(const HeapModel& model, const ReportLimits& limits, nlohmann::json& out);

// Path from an object to a GC root along dom.bfs_parent: object first, the root-adjacent object last.
std::vector<uint32_t> path_to_root(const Dominators& dom, uint32_t object, size_t max_len = 64);

}  // namespace gcscope::heap
