// How identification recognizes a stackprof dump (registered in register.cpp).
#pragma once
#include "core/identify.h"

namespace gcscope::stackprof {

// Ruby Marshal 4.x (or 3.x) holding stackprof's Symbol keys; details {"encoding": "marshal"}.
bool probe_marshal(const Head& head, Identification& out);
// A Marshal stream without those keys: refused (some other Ruby object was dumped).
bool refuse_other_marshal(const Head& head, Identification& out);
// JSON with stackprof's version/mode/frames keys; details {"encoding": "json"}.
bool probe_json(const Head& head, Identification& out);

}  // namespace gcscope::stackprof
