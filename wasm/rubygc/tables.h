// The Ruby GC tuner's tables (core/tables.h, docs/TABLES.md): one row per sample of a TuneMyGC
// payload, one row per GC.stat value of each sample (every key the payload's Ruby wrote, in the
// header's order), so that SQL reaches every counter whatever the Ruby version; one row per unit of
// work (pair_units) and one per GC band of the timeline (gc_bands).
#pragma once
#include <string>
#include <vector>

#include "core/tables.h"
#include "rubygc/payload.h"

namespace gcscope::rubygc {

std::vector<tables::Schema> payload_tables();
// The rows of table `name` of payload `p`, read from `input`; false when there is no such table.
bool write_payload_table(const Payload& p, const std::string& input, const std::string& name, tables::RowSink& sink);

}  // namespace gcscope::rubygc
