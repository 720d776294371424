// One stackprof profile in memory: what StackProf.results holds, read from a Marshal or JSON dump,
// plus the sum of several dumps (`stackprof a.dump b.dump`). Frames keep stackprof's identity
// (the frame id; SHA-256 hex strings in combined dumps) and the order the dump lists them in,
// because stackprof's reports iterate in that order.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace gcscope::stackprof {

// Frame keys: numeric ids as they are; string keys (combined dumps) interned, tagged with this bit.
inline constexpr uint64_t kStringKeyBit = uint64_t(1) << 63;
inline constexpr uint32_t kNoFrame = UINT32_MAX;

enum class LineKind : uint8_t { Absent, Nil, Int };  // `:line` omitted (line 0), nil (C frames), a number

struct LineStat {
  int64_t line = 0;
  int64_t total = 0;
  int64_t self = 0;
  bool scalar = false;  // version 1.0: the value was one Integer (stored in both total and self)
};

// stackprof's add_lines(a, b) for a line seen again (sums, --file): Integers add; an Integer added
// to a [total, self] pair adds to self only; pairs add element-wise.
inline void add_line(LineStat& into, const LineStat& l) {
  if (into.scalar && l.scalar) {
    into.total += l.total;
    into.self += l.self;
  } else if (l.scalar) {
    into.self += l.self;
  } else {
    into.total += l.total;
    into.self += l.self;
    into.scalar = false;
  }
}

struct Edge {
  uint64_t to_key = 0;
  int64_t weight = 0;
  uint32_t to = kNoFrame;  // index into Profile::frames once resolved
};

// The fields of a frame hash, in the order they appeared (for --json).
enum FrameField : uint8_t {
  kFieldName,
  kFieldFile,
  kFieldLine,
  kFieldTotal,
  kFieldSelf,
  kFieldEdges,
  kFieldLines,
  kFieldHash
};

struct Frame {
  uint64_t key = 0;
  std::string name, file, hash;
  bool has_name = false, has_file = false, has_hash = false;
  LineKind line_kind = LineKind::Absent;
  int64_t line = 0;
  int64_t total = 0, self = 0;
  bool has_total = false, has_self = false, has_edges = false, has_lines = false;
  std::vector<Edge> edges;
  std::vector<LineStat> lines;
  std::vector<uint8_t> fields;
  bool placeholder = false;  // made up for an id that raw refers to but frames lacks
  int64_t line_or(int64_t dflt) const { return line_kind == LineKind::Int ? line : dflt; }
};

enum class Encoding : uint8_t { Marshal, Json };

struct Problem {
  bool error = true;
  int64_t offset = -1;
  std::string message;
};

struct Profile {
  Encoding encoding = Encoding::Marshal;
  bool has_version = false, has_mode = false, has_interval = false, has_samples = false, has_gc_samples = false,
       has_missed_samples = false, has_metadata = false, has_frames = false;
  double version = 0;
  std::string version_text;
  std::string mode;
  int64_t interval = 0, samples = 0, gc_samples = 0, missed_samples = 0;
  nlohmann::json metadata = nlohmann::json::object();
  std::vector<Frame> frames;
  std::vector<std::string> string_keys;          // interned string frame keys
  std::unordered_map<uint64_t, uint32_t> index;  // frame key -> position in frames
  bool has_raw = false, has_raw_lines = false, has_timestamps = false, has_deltas = false;
  std::vector<uint64_t> raw;  // [len, key_root .. key_leaf, weight]...
  std::vector<int64_t> raw_lines, raw_sample_timestamps, raw_timestamp_deltas;
  std::vector<std::string> top_keys;                // top-level keys in stream order
  nlohmann::json other = nlohmann::json::object();  // unknown top-level keys (display form)
  bool combined = false;                            // frame keys are SHA-256 strings (a sum)

  // Raw records resolved to frame indices: stack of record r = stack_frames[stack_begin[r] .. stack_begin[r+1]).
  std::vector<uint32_t> stack_frames;
  std::vector<uint32_t> stack_begin;
  std::vector<int64_t> record_weight;
  int64_t raw_weight_total = 0;

  std::string key_text(uint64_t key) const {
    // A raw id >= 2^63 in a damaged dump is not an interned string: print it as the number it is.
    uint64_t i = key & ~kStringKeyBit;
    return (key & kStringKeyBit) && i < string_keys.size() ? string_keys[static_cast<size_t>(i)] : std::to_string(key);
  }
  const Frame* frame_by_key(uint64_t key) const {
    auto it = index.find(key);
    return it == index.end() ? nullptr : &frames[it->second];
  }
  bool empty() const { return frames.empty() && raw.empty(); }
};

// Reads one dump (Marshal or JSON, detected from the first bytes) fed in chunks.
class DumpLoader {
 public:
  DumpLoader();
  ~DumpLoader();
  DumpLoader(const DumpLoader&) = delete;
  DumpLoader& operator=(const DumpLoader&) = delete;
  // The dump's encoding, as identification found it; without this call, before the first feed(),
  // the loader tells it from the first byte.
  void expect(Encoding encoding);
  void feed(const char* data, size_t len);
  // Completes the profile: checks required keys, resolves edges and raw stacks. Problems (errors
  // and warnings with byte offsets) are appended; the profile keeps whatever was read. Returns
  // false when nothing usable was read.
  bool finish(Profile& out, std::vector<Problem>& problems);

 private:
  struct Impl;
  Impl* impl_;
};

// Resolves edge targets and raw stacks, adds placeholder frames, and checks the counters. Called by
// DumpLoader::finish; public for sums and tests.
void resolve(Profile& p, std::vector<Problem>& problems);

// The sum of several profiles as `stackprof p0 p1 ... --dump` computes it (Report#+ folded from the
// last file to the first; frames re-keyed by SHA-256(name file line)). Unlike stackprof, raw samples
// are kept (concatenated, re-keyed) so flame graphs work on sums. Returns false with a message when
// stackprof would refuse (different mode/interval or version).
bool sum_profiles(std::vector<Profile>& parts, Profile& out, std::string& error);

std::string sha256_hex(const std::string& data);

// Ruby's Float#to_s (shortest round-trip digits, "1.0e+20" beyond 16 digits).
std::string ruby_float(double v);

}  // namespace gcscope::stackprof
