// The `gc_cycles` table, which two formats write (rubygc: a TuneMyGC payload's GC bands; rbkit: a
// capture's gc_start events): a table name means one set of columns across formats (one output file,
// one SQL table over both), so its columns — names, types, units, order — are defined here once.
// Each format says what the table and each column mean for its input.
#pragma once
#include "core/tables.h"

namespace gcscope::tables {

// What each gc_cycles column means for one format's input (docs/TABLES.md, that format's section).
struct GcCyclesMeaning {
  const char* table;
  const char* input;
  const char* cycle;
  const char* t_s;
  const char* ts;
  const char* duration_ms;
  const char* mark_ms;
  const char* sweep_ms;
  const char* kind;
  const char* gcs;
  const char* window_s;
};

inline Schema gc_cycles_schema(const GcCyclesMeaning& m) {
  return {"gc_cycles",
          m.table,
          {{"input", Type::kString, "", m.input},
           {"cycle", Type::kInt64, "", m.cycle},
           {"t_s", Type::kFloat64, "s", m.t_s},
           {"ts", Type::kTimestamp, "", m.ts},
           {"duration_ms", Type::kFloat64, "ms", m.duration_ms},
           {"mark_ms", Type::kFloat64, "ms", m.mark_ms},
           {"sweep_ms", Type::kFloat64, "ms", m.sweep_ms},
           {"kind", Type::kString, "", m.kind},
           {"gcs", Type::kInt64, "", m.gcs},
           {"window_s", Type::kFloat64, "s", m.window_s}}};
}

}  // namespace gcscope::tables
