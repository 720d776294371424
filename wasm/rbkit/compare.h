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
// `set` (a side summed from several captures, sum_sides) is copied to the result's "a"/"b".
nlohmann::json compare_captures(const nlohmann::json& a, const nlohmann::json& b, size_t max_classes = 200);

// Several captures of one side (the rbkit format's FormatHandler::sum_sides), each its compare_side
// with "inputs", as one side: the cpu_sample stacks merged (profile::sum_profile_sides), objects
// created, GC cycles and GC time added, per class too, the longest GC the longest of all, and the
// span the sum of the captures' spans, so rates are per second of all the time captured (null when
// a capture has no span). What cannot be summed is named in "set": {captures, not_summed: [text]}.
nlohmann::json sum_sides(const std::vector<nlohmann::json>& sides);

}  // namespace gcscope::rbkit
