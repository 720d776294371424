// A heap dump's dominator tree as the shared stack model (wasm/profile/), so the heap icicle is a
// mode of the one flame graph and the stacks.* questions, transforms and exports serve heaps too.
// The model is the report's bounded dominator tree (heap_analysis.h dominator_tree): node i, frame i
// and tree node i are one object (node 0 the GC roots), so a frame index of the page's graph names
// the object at dominator_tree.address[i]. Weights are bytes: each node carries its retained size
// minus the retained sizes of its children in the tree, so a node's total is its retained size and
// the objects the bound leaves out still count in the dominator that holds them.
#pragma once
#include <nlohmann/json.hpp>

#include "profile/export.h"
#include "profile/stack_model.h"

namespace gcscope::heap {

// From the report's dominator_tree columns; a model without samples when they are absent or malformed.
profile::StackModel dominator_stack_model(const nlohmann::json& dominator_tree);
// pprof's sample type for retained bytes ("retained_space", "bytes").
profile::ExportInfo dominator_export_info(const std::string& name);

}  // namespace gcscope::heap
