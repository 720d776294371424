// The `format: "stackprof"` report: header fields, stackprof's text order, and the columnar tables
// the web views need (frames, edges, per-line counts, per-file sums, raw samples as a stack tree).
#pragma once
#include <nlohmann/json.hpp>

#include "profile.h"

namespace gcscope::stackprof {

void write_report(const Profile& p, size_t dumps, nlohmann::json& r);

}  // namespace gcscope::stackprof
