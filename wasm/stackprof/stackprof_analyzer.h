// The stackprof analyzer: every member of the set is one dump (Marshal or JSON, gzip'd or not: the
// core inflates); several dumps give their sum, as `stackprof a.dump b.dump` does. After its report
// it answers the stackprof.* and stacks.* methods (listed by query_methods()) and compare.side.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/analyzer.h"

namespace gcscope::stackprof {

std::unique_ptr<Analyzer> make_analyzer();
const std::vector<std::string>& query_methods();
// The profile compare (wasm/profile/compare.h) over two stackprof compare.side answers.
nlohmann::json compare_sides(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace gcscope::stackprof
