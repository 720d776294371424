// How identification recognizes a TuneMyGC payload (registered in register.cpp). Malformed payloads
// are recognized too (details {"malformed": true}): the tuner answers them with the protocol's 400
// and the precise reason.
#pragma once
#include "core/identify.h"

namespace gcscope::rubygc {

// A JSON array: the header tuple first, or an empty array, or samples with the protocol's events.
bool probe_payload(const Head& head, Identification& out);
// A JSON object wrapping TuneMyGC header and samples (the protocol needs an array).
bool probe_wrapped_payload(const Head& head, Identification& out);

}  // namespace gcscope::rubygc
