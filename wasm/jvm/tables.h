// The JVM domain's tables (core/tables.h, docs/TABLES.md): gc_events, pauses, phases, safepoints,
// heap_pools and findings, read from the session's columns (GcAggregator::write_table) and the
// report's findings. Rows follow the columns' order: members in rank order, time order within each.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/tables.h"

namespace gcscope::jvm {

std::vector<tables::Schema> gc_log_tables();
// The schema of the table named `name` (a programming error for any other name: std::logic_error).
const tables::Schema& gc_log_table(const std::string& name);

// One row per finding of `findings` (the report's list, in its order). A finding naming a member
// (`member`: its index in `members`) is that member's; one about the log as a whole is
// `whole_input`'s.
void write_findings_table(const nlohmann::json& findings, const std::vector<std::string>& members,
                          const std::string& whole_input, tables::RowSink& sink);

}  // namespace gcscope::jvm
