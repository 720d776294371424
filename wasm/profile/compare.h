// Comparing two profiles: per-frame deltas and a differential stack tree. Each side is reduced to a
// compact summary in its own session ("compare.side"); the other session compares the two summaries,
// so two jobs in two workers compare without sharing memory, and `gcscope compare` runs the same code.
//
// Side:   {kind: "profile", unit, mode, samples, frames: {name, file, line, self, total},
//          tree: {parent, frame, self} | null}
// Result: {kind: "profile", unit, mode, totals: {a, b, delta}, frames: [{name, file, line, self_a,
//          self_b, total_a, total_b, self_pct_a, self_pct_b, total_pct_a, total_pct_b, self_delta_pct,
//          total_delta_pct}], tree: {frame, parent, self_a, self_b, total_a, total_b} | null}
// Within a side, frames are one frame when name, file, line and Frame::id agree (a side's total for
// such a frame counts each sample once, from its stacks when it has some), so a side may hold
// several rows of one name, file and line: frames its input kept apart (stackprof's frame ids).
// Across sides, the k-th row of a name, file and line in one is the k-th in the other, each side in
// the order of its frame table. Shares are percentages of the side's samples; rows come by the
// size of the change of total share, largest first. The tree's `frame` indexes `frames`; a node's
// self and subtree weights are per side, so widths can follow either side and colours the change
// of share.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "stack_model.h"

namespace gcscope::profile {

// A side from a model: per-frame self/total from its stacks, samples = its total weight.
nlohmann::json compare_side(const StackModel& m, const std::string& mode = "");
// A side whose per-frame figures come from elsewhere (stackprof's own frame table, which also
// exists without raw samples): self/total per frame of `frames`, `tree` optional (null: no stacks).
nlohmann::json compare_side(const std::vector<Frame>& frames, const std::vector<double>& self,
                            const std::vector<double>& total, double samples, const std::string& unit,
                            const std::string& mode, const StackModel* tree);
nlohmann::json compare_profiles(const nlohmann::json& a, const nlohmann::json& b);

// Several profile sides (compare_side answers of one side's captures) as one: their stack trees
// merged by the path of frame identities, so every frame's self and total are those of one profile
// of all their samples. Sides with no samples add nothing; a side that holds samples without a tree,
// counts another unit than the first, or names another mode (cpu, wall, ...) than the first side
// that names one, cannot be added exactly and is left out, named in `notes` (labels[i] names side i).
// Without any samples: {kind: "profile", samples: 0}.
nlohmann::json sum_profile_sides(const std::vector<const nlohmann::json*>& sides,
                                 const std::vector<std::string>& labels, nlohmann::json& notes);

// The rows of a compare result whose total share grew by more than `points` percentage points.
std::vector<nlohmann::json> regressions(const nlohmann::json& result, double points);

}  // namespace gcscope::profile
