// The stackprof domain's tables (core/tables.h, docs/TABLES.md): frames (stackprof's own frame table
// with its per-frame counts, what `stackprof --text` prints), samples (the raw records in the dump's
// order) and stacks (the distinct raw stacks, the same columns as tracing's stacks, so that a
// stackprof profile joins a perf or bpftrace capture on `folded`).
#pragma once
#include <string>
#include <vector>

#include "profile.h"
#include "profile/export.h"
#include "profile/stack_model.h"
#include "core/tables.h"

namespace gcscope::stackprof {

std::vector<tables::Schema> profile_tables();

// What the tables read of one analysis: the profile (the sum of the set's dumps), its stack model
// (stack_model(profile): one model sample per raw record), the dumps' paths and, for a sum, which
// raw records came from which dump (ExportInfo parts; empty for one dump).
struct TableSource {
  const Profile* profile = nullptr;
  const profile::StackModel* model = nullptr;
  std::vector<std::string> paths;
  std::vector<profile::ExportInfo::Part> parts;
};

// Rows of table `name`; false when stackprof has no such table.
bool write_profile_table(const TableSource& source, const std::string& name, tables::RowSink& sink);

}  // namespace gcscope::stackprof
