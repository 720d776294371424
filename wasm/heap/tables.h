// The Ruby heap dump's tables (core/tables.h, docs/TABLES.md): objects, object_references (SQL
// reserves `references`) and roots of a snapshot, read from its finalized HeapModel (whole, or
// reduced by keep_table_columns()). A set of several dumps writes each dump's rows in turn, each
// row's `input` naming its dump.
#pragma once
#include <string>
#include <vector>

#include "core/tables.h"
#include "heap/heap_model.h"

namespace gcscope::heap {

std::vector<tables::Schema> heap_tables();
// Rows of table `name` of the finalized `model`, read from `input`; false when there is no such table.
// The implicit object → class edges of finalize(true) are the engine's, not the dump's, and stay out
// of object_references.
bool write_heap_table(const HeapModel& model, const std::string& input, const std::string& name, tables::RowSink& sink);

}  // namespace gcscope::heap
