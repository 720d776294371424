// How identification recognizes the tracing formats (registered in register.cpp). The text formats
// share one tally of the head's lines; their probes run in rank order and each takes the head when
// its evidence is the strongest left (perf, then bpftrace, BCC, DTrace aggregations, folded stacks).
#pragma once
#include "core/identify.h"

namespace gcscope::tracing {

bool probe_bpftrace_json(const Head& head, Identification& out);
bool probe_perf_script(const Head& head, Identification& out);
bool probe_bpftrace_text(const Head& head, Identification& out);
// `bpftrace -l` and BCC `tplist` listings: every line names a probe. They rank before the other tool
// outputs and are read by the analyzer of the tool that printed them (bpftrace-text, bcc-output).
bool probe_bpftrace_listing(const Head& head, Identification& out);
bool probe_tplist_listing(const Head& head, Identification& out);
bool probe_bcc_output(const Head& head, Identification& out);
// DTrace aggregations (quantize, count tables) are read as bpftrace-text.
bool probe_dtrace_aggregation(const Head& head, Identification& out);
bool probe_folded_stacks(const Head& head, Identification& out);
// DTrace stack aggregations (module`function+offset frames) are read as folded-stacks.
bool probe_dtrace_stacks(const Head& head, Identification& out);

}  // namespace gcscope::tracing
