// Comparing two rbkit captures: the per-frame deltas of their cpu_sample stacks (profile/compare.h,
// the rows every profile compare gives, so `gcscope compare --fail-on-regression` reads them) and
// the deltas of what rbkit measures besides: objects created per second, in all and per class, and
// GC cycles. The rbkit format's registered compare; `gcscope compare A B` and the page run it.
#pragma once
#include <nlohmann/json.hpp>

#include "profile/stack_model.h"

namespace gcscope::rbkit {

// A capture's side: profile::compare_side of its cpu stacks ({kind: "profile", samples: 0} without
// any) with "rbkit": CaptureDecoder::compare_figures().
nlohmann::json compare_side(const profile::StackModel& cpu, nlohmann::json figures);

// {kind: "profile", unit, mode, totals, frames, tree (profile/compare.h) when both sides hold cpu
//  samples, else frames_omitted (why),
//  rbkit: {span_s: {a, b}, objects_created, gc_cycles, gc_total_ms, gc_max_ms: {a, b, delta},
//          objects_per_s, gc_per_s: {a, b, delta, delta_percent} (null without a span),
//          classes: [{class, created_a, created_b, per_s_a, per_s_b, per_s_delta}], classes_omitted}}
// delta = b - a; delta_percent = 100 (b - a) / a, null when a is 0. Rates are per second of each
// capture's span (first to last timestamp), so captures of different lengths compare. Classes are
// matched by name and sorted by |per_s_delta| (|created delta| without spans), then by name, and
// cut at `max_classes`.
nlohmann::json compare_captures(const nlohmann::json& a, const nlohmann::json& b, size_t max_classes = 200);

}  // namespace gcscope::rbkit
