// Compare two tracing captures (two reports of the tracing formats, not necessarily the same one:
// a bpftrace text dump against a -f json capture, a perf script against folded stacks): per-probe
// deltas of the latency table and per-stack weight deltas: the tracing formats' registered compare
// function, which `gcscope compare A B` and the page (compare.side, then compare.with on the other
// job's engine) both run.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gcscope::tracing {

bool is_tracing_format(const std::string& format);

// {"kind": "tracing",
//  "a"/"b": {"format", "inputs", "tool", "set" (a side summed from several captures: sum_sides)},
//  "probes": [{"probe", "in": "both"|"a"|"b", "exact_a", "exact_b",
//              "calls"/"total"/"mean"/"min"/"max": {"a", "b", "delta", "delta_percent"},
//              "p50"/"p90"/"p99": {"a", "b", "delta" (both exact), "delta_bounds": [lo, hi]}}],
//  "stacks": {"a"/"b": {"unique", "total_weight", "weight_unit"}, "common", "only_a", "only_b",
//             "rows": [{"stack", "a", "b", "delta", "share_a", "share_b", "share_delta"}],
//             "rows_omitted"},
//  "unit", "totals", "frames", "tree" (both sides hold stacks of one unit): the per-frame deltas of
//             profile/compare.h, frames [{name, file, line, self_a, self_b, total_a, total_b,
//             self/total_pct_a/b, self/total_delta_pct}] and the differential tree,
//  "frames_omitted" (both hold stacks of different units): why there are no per-frame deltas}
// Probes are matched by the latency table's display name (provider:name for USDT probes). A
// percentile from a histogram is a bucket [lo, hi]; the difference of two such percentiles can only
// be bounded: delta_bounds = [lo_b - hi_a, hi_b - lo_a] (null where a bucket is unbounded). Stacks
// are matched by their folded text ("root;...;leaf"); rows are sorted by |delta| (then by stack)
// and cut at `max_stack_rows`. delta = b - a; delta_percent = 100 (b - a) / |a|, null when a is 0.
nlohmann::json compare_reports(const nlohmann::json& a, const nlohmann::json& b, size_t max_stack_rows = 500);

// Several captures of one side (a folder of them, dropped together) summed into one side, as one
// capture of them all would have given; each side is a report with "format", "inputs" and the
// capture's "compare.parts" answer as "parts" (trace_model.h). Latency rows are matched by probe:
// calls and totals added (exact integers), min/max of the captures', mean = total / calls (an integer
// quotient, like bpftrace's averages, unless an event stream is among them); percentiles come from
// the joined event values (exact) or from the captures' histograms with equal buckets' counts added
// and event values counted into their buckets (bucket bounds). Stacks are added by folded text.
// What cannot be summed honestly (a field a capture lacks, histograms whose buckets overlap, stacks
// in different units) is left out and named in "set": {"captures", "formats", "not_summed": [text]}.
// The result is read by compare_reports like a report: {format ("mixed" when several), inputs,
// tool, latency, stacks?, set}.
nlohmann::json sum_sides(const std::vector<nlohmann::json>& sides);

}  // namespace gcscope::tracing
