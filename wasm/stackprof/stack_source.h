// A stackprof profile as the shared stack model (wasm/profile/): frames 1:1 with the dump's frames
// (same indices, so the report's frame_table and the model agree), one sample per raw record with
// its weight and, when raw_timestamp_deltas cover raw, its duration in microseconds.
#pragma once
#include "profile.h"
#include "profile/stack_model.h"

namespace gcscope::stackprof {

// Empty samples when the dump has no raw samples (recorded without raw: true).
profile::StackModel stack_model(const Profile& p);
// What one sample counts in this profile's mode.
std::string sample_unit(const Profile& p);

}  // namespace gcscope::stackprof
