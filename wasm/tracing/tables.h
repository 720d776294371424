// The tracing domain's tables (docs/TABLES.md): events, maps, histogram_bins, stacks — the same for
// the five tracing formats, written from their TraceData after finish().
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/tables.h"
#include "tracing/trace_model.h"

namespace gcscope::tracing {

std::vector<tables::Schema> trace_tables();
// The Unix-epoch milliseconds of an event's timestamp (ns): as it is past 2001, else boot_epoch_s
// plus it (bpftrace nsecs count from boot); NaN when neither.
double epoch_ms_of(uint64_t ts_ns, double boot_epoch_s);
// Rows of table `name` of one capture (`input` is its path); false when tracing has no such table.
bool write_trace_table(const TraceData& data, const std::string& input, const std::string& name, tables::RowSink& sink);

}  // namespace gcscope::tracing
