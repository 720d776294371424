// The Ruby GC tuner's tables (core/tables.h, docs/TABLES.md): one row per sample of a TuneMyGC
// payload (gc_samples with chosen counters, tuner_samples with every GC.stat key as a column), one row
// per GC.stat value of each sample (every key the payload's Ruby wrote, in the
// header's order), so that SQL reaches every counter whatever the Ruby version; one row per unit of
// work (pair_units) and one per GC band of the timeline (gc_bands).
#pragma once
#include <string>
#include <vector>

#include "core/tables.h"
#include "rubygc/payload.h"

namespace gcscope::rubygc {

// tuner_samples: the fixed columns (input, sample, t_s, ts, event, thread), then one int64 column per
// GC.stat key of the payload's header, in header order, named as the key. Its columns follow the
// payload: a fleet's analyzer unions them by name (fleet_analyzer.cpp), a key missing from a
// payload being null in its rows.
inline constexpr const char* kTunerSamples = "tuner_samples";

std::vector<tables::Schema> payload_tables(const Payload& p);
// The rows of table `name` of payload `p`, read from `input`; false when there is no such table.
bool write_payload_table(const Payload& p, const std::string& input, const std::string& name, tables::RowSink& sink);

}  // namespace gcscope::rubygc
