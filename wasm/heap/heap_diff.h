// Leak finding over 2 or 3 snapshots (heapy/sheap style: "allocated after dump 1 and still alive in
// the last"), without heapy's address-keyed mistakes.
//
// Identity. Heap addresses are reused (a freed slot gets a new object) and change under GC.compact,
// so an address alone says neither "same object" nor "new object". With allocation tracing on, every
// object carries the GC generation of its allocation, and:
//   - generation > G1 (the highest generation in dump 1) ⇒ allocated after dump 1 (anything older
//     and alive now would have been in dump 1 with that generation);
//   - generation == G1 ⇒ new unless dump 1 has the same (address, type, generation, file, line);
//   - no generation while dump 1 had them ⇒ not a new allocation (allocated before tracing started,
//     or moved by GC.compact, which drops allocation info on Ruby 3.1): counted as "untracked".
// Still alive in dump 3 (3-dump mode): a dump-2 candidate group (type, generation, file, line) with
// generation < G2 matches as many dump-3 objects of that group as exist (they were all alive at
// dump 2, wherever compaction moved them); in the generation == G2 group only exact keys match.
// Without generations in dump 1 the diff falls back to (address, type) keys and says so.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "heap/heap_model.h"

namespace gcscope::heap {

// What is kept of an earlier snapshot (the full model is released).
struct DiffBase {
  bool has_generations = false;
  uint32_t max_generation = 0;
  std::vector<uint64_t> exact_keys;    // sorted hashes of (address,type,gen,file,line) at gen == max
  std::vector<uint64_t> address_keys;  // sorted hashes of (address,type), for the no-generation mode
  uint64_t objects = 0;
};
DiffBase make_diff_base(const HeapModel& m);

// Objects of `m` that are new relative to `base` (indices into m).
std::vector<uint32_t> new_objects(const HeapModel& m, const DiffBase& base, uint64_t* untracked = nullptr);

// Candidates of the middle dump (3-dump mode), reduced to groups.
struct DiffCandidates {
  struct Group {
    uint8_t type;
    uint32_t generation;
    std::string file;
    uint32_t line;
    uint64_t count = 0;
  };
  bool address_mode = false;
  uint32_t max_generation = 0;  // G2
  std::vector<Group> groups;
  std::vector<uint64_t> group_keys;  // parallel to groups: hash of (type,gen,file,line)
  std::vector<uint64_t> exact_keys;  // sorted exact keys of candidates with gen == G2 (or address keys)
  uint64_t count = 0;
};
DiffCandidates make_candidates(const HeapModel& middle, const DiffBase& base, uint64_t* untracked = nullptr);
// Objects of the last dump that are candidates still alive.
std::vector<uint32_t> still_alive(const HeapModel& last, const DiffCandidates& c);

// The report's `diff` field for the chosen objects of the last model.
nlohmann::json diff_json(const HeapModel& last, const std::vector<uint32_t>& objects, size_t limit);

}  // namespace gcscope::heap
