// How identification recognizes a Ruby heap dump (registered in register.cpp).
#pragma once
#include "core/identify.h"

namespace gcscope::heap {

// JSON lines of ObjectSpace.dump_all: records with "address" and "type", or a ROOT record.
bool probe_dump(const Head& head, Identification& out);

}  // namespace gcscope::heap
