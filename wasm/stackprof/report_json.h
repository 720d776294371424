// The `format: "stackprof"` report: header fields, stackprof's text order, and the columnar tables
// the web views need (frames, edges, per-line counts, per-file sums, raw samples as a stack tree).
#pragma once
#include <nlohmann/json.hpp>

#include "profile.h"
#include "profile/stack_model.h"
#include "reports.h"

namespace gcscope::stackprof {

// `model`: the profile as the stack model (stack_source.h), whose tree the report carries.
void write_report(const Profile& p, size_t dumps, const profile::StackModel& model, nlohmann::json& r);

// The method view of frame `idx` (stackprof --method's figures): {frame, name, file, line, self,
// total, self_pct, total_pct, callers: [{frame, name, weight, pct}], callees_total, callees (null
// when the frame has no edges), lines: [{line, total, self, total_pct, self_pct}], code: [first, last]}.
// Percentages as stackprof prints them (callers of total, callees of total - self, lines of samples);
// null where stackprof would print NaN or Inf.
nlohmann::json method_json(const Profile& p, uint32_t idx, const CallerIndex& callers);

// stackprof --text's rows after its filters: {samples, count, rows: [{frame, name, file, line, total,
// total_pct, self, self_pct}]} from `offset`, at most `limit`.
nlohmann::json text_json(const Profile& p, bool sort_total, const TextFilters* filters, size_t offset, size_t limit);

}  // namespace gcscope::stackprof
