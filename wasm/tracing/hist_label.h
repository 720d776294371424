// Histogram row labels as tools print them: bpftrace "[4K, 8K)", "[0]", "(..., 0)", "[100, ...)";
// numbers with K/M/G/T/P/E suffixes meaning powers of 1024.
#pragma once
#include <string>
#include <string_view>

#include "trace_model.h"

namespace gcscope::tracing {

// "4K" -> 4096, "-5" -> -5. `bad` receives the offending token when it fails.
bool parse_suffixed(std::string_view tok, Int& out);

// Parses the label at the start of a bpftrace histogram row into a bucket (hi inclusive).
// Returns the position after the label, or npos with `bad_token` set.
size_t parse_bpftrace_label(std::string_view line, Bucket& b, std::string& bad_token);

// Int arithmetic used for bounds (saturating at the u64/i64 ends).
Int int_minus_one(Int v);

}  // namespace gcscope::tracing
