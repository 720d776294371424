// The Ruby heap dump's tables (core/tables.h, docs/TABLES.md): objects, object_references (SQL
// reserves `references`) and roots of a
// snapshot, read from its finalized HeapModel. A set of several dumps keeps only the last one's model
// (the heap "now", what the report's summaries describe), so the tables are that dump's.
#pragma once
#include <string>
#include <vector>

#include "core/tables.h"
#include "heap/heap_model.h"

namespace gcscope::heap {

std::vector<tables::Schema> heap_tables();
// Rows of table `name` of the finalized `model`, read from `input`; false when there is no such table.
// class_edges: the model was finalized with the implicit object → class edges, which are the
// engine's, not the dump's, and stay out of object_references.
bool write_heap_table(const HeapModel& model, bool class_edges, const std::string& input, const std::string& name,
                      tables::RowSink& sink);

}  // namespace gcscope::heap
