// How identification recognizes an rbkit capture (registered in register.cpp).
#pragma once
#include "core/identify.h"

namespace gcscope::rbkit {

// msgpack maps that start with rbkit's event_type and timestamp keys.
bool probe_capture(const Head& head, Identification& out);

}  // namespace gcscope::rbkit
