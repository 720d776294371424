// How identification recognizes a JVM GC log (registered in register.cpp): unified logging
// (-Xlog) or pre-unified (-XX:+PrintGCDetails era); details {"unified", "collector", "jvm_version"}.
// The analyzer reads "unified" from these details to pick its parser.
#pragma once
#include "core/identify.h"

namespace gcscope::jvm {

bool probe_gc_log(const Head& head, Identification& out);
// Java application output without a GC record in the head (stack traces, a thread dump): read as a
// JVM log whose GC lines, if any come later, are analyzed; details {"application_output": true}.
bool probe_application_output(const Head& head, Identification& out);

}  // namespace gcscope::jvm
