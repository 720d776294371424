// One rbkit heap snapshot (all object_space_dump chunks sharing a correlation_id) as it arrives (id,
// class, file, line, size, outgoing references), and its report entry, computed through the shared
// heap model (one model per snapshot, one pass of summaries).
//
// rbkit walks the heap with rb_objspace_each_objects WITHOUT running a GC first: a snapshot holds
// every slot that was not swept yet, unreachable garbage included, and it has no root set. So
// "retained" cannot be told from "dead but not swept" here, and dominators are not computed.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rbkit/string_table.h"

namespace gcscope::rbkit {

struct SnapshotObject {
  uint64_t id = 0;
  uint64_t size = 0;
  uint64_t line = 0;
  uint32_t cls = 0;        // classes table; 0 = nil class name
  uint32_t file = 0;       // files table; 0 = no allocation site
  uint32_t ref_begin = 0;  // into Snapshot::refs
  uint32_t ref_count = 0;
  bool size_nil = true;
};

struct Snapshot {
  bool has_corr = false;
  uint64_t corr = 0;
  bool has_total = false;
  uint64_t total = 0;           // complete_message_count: the number of OBJECTS rbkit announced
  bool total_conflict = false;  // chunks disagreed on the total
  uint64_t messages = 0;        // object_space_dump chunks
  uint64_t invalid_objects = 0, invalid_refs = 0;
  bool cut_short = false;  // a chunk was cut by the end of the input or an error
  double first_ms = 0, last_ms = 0;
  std::vector<SnapshotObject> objects;
  std::vector<uint64_t> refs;
};

// A snapshot's report entry: the snapshot's own facts (correlation_id, chunks, completeness, distinct
// ids) and, computed once through the shared heap model (wasm/heap/heap_model.h), everything about its
// objects: `heap` = the dump_all analyzer's fields (objects, bytes, by_class, by_location, references,
// dominators where roots exist) and the rbkit tables by_site (class@file:line), most_referenced,
// largest, objects_without_size, objects_never_referenced (ids as strings: they exceed 2^53).
//
// Protocol 2.x snapshots have no roots. Pre-2.0 servers dumped the GC root categories as
// pseudo-objects (class "vm", "machine_context", "global_tbl", ...; see the rbkit-client fixtures):
// those become the model's roots, so retained sizes exist for such snapshots.
nlohmann::json summarize_snapshot(const Snapshot& s, const StringTable& classes, const StringTable& files,
                                  size_t top_n);

}  // namespace gcscope::rbkit
