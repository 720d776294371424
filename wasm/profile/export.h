// Exports of a stack model that other tools open: speedscope's file format (its published JSON
// schema, sampled profiles) and pprof's profile.proto (gzipped, as `go tool pprof` reads it).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "stack_model.h"

namespace gcscope::profile {

// What the exports say about the samples beyond the model: one profile per input (a dump, a
// thread) as a range of samples, and what a weight measures in pprof's terms.
struct ExportInfo {
  struct Part {
    std::string name;
    size_t first = 0, end = 0;  // samples [first, end)
  };
  std::vector<Part> parts;  // empty: one profile of every sample, named `name`
  std::string name = "profile";
  // pprof sample types: (type, unit) and what one unit of weight is worth in that type, e.g.
  // {"samples", "count", 1} and {"cpu", "nanoseconds", 1e6} for stackprof's cpu(1000) mode.
  struct ValueType {
    std::string type, unit;
    double per_weight = 1;
  };
  std::vector<ValueType> pprof_types;  // empty: {unit of the model, "count", 1}
  int64_t pprof_period = 0;            // period of the last type, 0: none
};

// speedscope's file format: {"$schema", "shared": {"frames"}, "profiles": [{"type": "sampled", ...}],
// "name", "activeProfileIndex", "exporter"}. Consecutive samples of one stack are merged.
std::string speedscope_json(const StackModel& m, const ExportInfo& info);

// An uncompressed profile.proto message: one sample per stack (weights summed), locations =
// frames, functions = distinct (name, file, line).
std::string pprof_message(const StackModel& m, const ExportInfo& info);

// gzip (RFC 1952) of `data` (zlib's deflate); empty on failure.
std::string gzip_bytes(const std::string& data);

std::string base64(const std::string& bytes);
// False on a character outside the alphabet.
bool unbase64(const std::string& text, std::string& out);

}  // namespace gcscope::profile
