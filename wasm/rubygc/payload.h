// A TuneMyGC payload read and checked against the protocol as real agents sent it:
//   [header, sample, sample, ...]
//   header  = [token|null, ruby_version, rails_version, {RUBY_GC_* env}, agent_version,
//              [compile options], {GC::INTERNAL_CONSTANTS}, [GC.stat keys],
//              (spy id — agents >= 1.0.7 only, 12 elements), hostname, ppid, pid]
//   sample  = one of three layouts, told apart by where the event string sits:
//     "7"              [ts, peak_rss, rss, EVENT, stat[], latest_gc_info{}, meta]        (agents <= 1.0.52)
//     "8-thread-first" [thread_id, ts, peak_rss, rss, EVENT, stat[], info{}, meta]     (1.0.53)
//     "8-thread-last"  [ts, peak_rss, rss, EVENT, stat[], info{}, meta, thread_id|null] (1.0.54 .. 1.0.71)
// Samples are stored in columns; the JSON document is kept for the per-sample meta hashes.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gc_params.h"

namespace gcscope::rubygc {

enum Event : uint8_t {
  kBooted,
  kProcessingStarted,
  kProcessingEnded,
  kGcCycleStarted,
  kGcCycleEnded,
  kTerminated,
  kEventCount
};
const char* event_name(int e);

enum class Layout { kUnknown, kNoThread7, kThreadFirst8, kThreadLast8 };
const char* layout_name(Layout l);

// GC.latest_gc_info reasons, as small codes.
enum MajorBy : int8_t {
  kMajorNone,
  kMajorNofree,
  kMajorOldgen,
  kMajorShady,
  kMajorForce,
  kMajorOldmalloc,
  kMajorOther
};
enum GcBy : int8_t { kGcByNone, kGcByNewobj, kGcByMalloc, kGcByMethod, kGcByCapi, kGcByStress, kGcByOther };
const char* major_by_name(int m);
const char* gc_by_name(int g);

// A protocol verdict (the HTTP code the service would have answered, offline).
struct Verdict {
  int status = 200;
  std::string message;
  nlohmann::json details = nlohmann::json::object();
};

struct Header {
  int arity = 0;
  nlohmann::json token;  // string or null
  std::string ruby_version, rails_version, agent_version, spy, hostname;
  int64_t ppid = 0, pid = 0;
  std::vector<std::pair<std::string, std::string>> env;  // header[3] in payload order
  nlohmann::json compile_options = nlohmann::json::array();
  nlohmann::json internal_constants = nlohmann::json::object();
  std::vector<std::string> stat_keys;
};

// Column indexes of the GC.stat keys we use (-1 when the Ruby version has no such key).
struct StatColumns {
  int count = -1, time = -1, marking_time = -1, sweeping_time = -1;
  int heap_available = -1, heap_live = -1, heap_free = -1, heap_allocated_pages = -1;
  int total_allocated = -1, total_freed = -1;
  int malloc_increase = -1, malloc_limit = -1, oldmalloc_increase = -1, oldmalloc_limit = -1;
  int minor = -1, major = -1, compact_count = -1;
  int old_objects = -1, old_objects_limit = -1, shady = -1, shady_limit = -1;
  // Ruby 2.1 names (heap_used pages, heap_live_slot, ...): available = heap_used x HEAP_OBJ_LIMIT.
  bool ruby21_names = false;
};

// A sample written after samples that read newer GC counters: threads interleave (a thread reads
// GC.stat, another thread runs a GC and writes its sample first) and GC hooks deliver their reading
// late. `newer` is the highest value written before it, at sample `newer_at`.
struct LaggedSample {
  size_t sample = 0, newer_at = 0;
  std::string key;
  int64_t value = 0, newer = 0;
};

struct Payload {
  Header header;
  Layout layout = Layout::kUnknown;
  StatColumns col;
  size_t n = 0;      // samples
  size_t width = 0;  // GC.stat values per sample (= header.stat_keys.size())
  std::vector<double> ts;
  std::vector<int64_t> peak_rss, rss, thread;  // thread: kNoThread when null / absent
  std::vector<uint8_t> event;
  std::vector<int64_t> stat;  // n x width, row-major
  std::vector<int8_t> major_by, gc_by, need_major;
  std::vector<const nlohmann::json*> meta;  // into `doc` or `owned_meta` (null when the meta slot is null)
  std::vector<LaggedSample> lagged;         // filled by check_counter_order
  nlohmann::json doc;                       // the whole document (DOM path) or the header (fast path)
  std::deque<nlohmann::json> owned_meta;    // meta hashes kept by the fast path
  int64_t page_obj_limit = 0;               // HEAP_PAGE_OBJ_LIMIT (or HEAP_OBJ_LIMIT on 2.1/2.2); 0 = unknown
  int64_t slot_size = 0;                    // RVALUE_SIZE / BASE_SLOT_SIZE
  int pointer_bits = 64;

  static constexpr int64_t kNoThread = INT64_MIN;
  int64_t at(size_t sample, int column) const {
    return column < 0 ? -1 : stat[sample * width + static_cast<size_t>(column)];
  }
  // Whether the samples hold a value at GC.stat column `column` (a StatColumns index; -1 = no such key).
  bool has(int column) const { return column >= 0 && static_cast<size_t>(column) < width; }
  // A GC.stat counter's change from sample `from` to sample `to`; none without the column.
  std::optional<int64_t> gain(size_t from, size_t to, int column) const {
    if (!has(column)) return std::nullopt;
    return at(to, column) - at(from, column);
  }
  // Samples every column holds: a reader that stopped at a problem keeps the samples before it.
  size_t complete_samples() const;
  int64_t heap_available(size_t i) const;
  int64_t heap_live(size_t i) const { return at(i, col.heap_live); }
};

// A timestamp past the start of 2001 (UTC) is wall-clock time, Unix-epoch seconds (TuneMyGC's agents up
// to 1.0.69); a monotonic clock's (agents 1.0.70 on, gcscope's recorder) counts seconds since boot, and
// no machine's uptime reaches 31 years.
inline bool is_wall_clock(double t_s) { return t_s >= 978307200.0; }

// A per-sample counter a timeline shows: its name and its value at sample i.
struct CounterSeries {
  const char* name;
  std::function<int64_t(size_t)> value;
};
// The counters of the report's timeline and of rubygc.timeline: RSS always, each GC.stat counter
// when the payload's header has its key. The values refer to `p`, which must outlive them.
std::vector<CounterSeries> counter_series(const Payload& p);

// Parses `bytes` as JSON and checks the top level and the header. On a verdict other than 200 the
// payload keeps whatever was read before the problem so the report can still show it.
// `byte_offset` receives the byte of a JSON syntax error (-1 otherwise).
Verdict read_header(std::string&& bytes, Payload& out, int64_t* byte_offset);
// Checks the header tuple (header[0..11]) and fills out.header / out.col.
Verdict check_header(const nlohmann::json& header, Payload& out);
// The fast path for well-formed payloads: a hand-written scanner storing samples straight into the
// columns (out.doc = the header, parsed by nlohmann, as are the meta hashes). False at the first
// deviation from the valid shape: then rerun with read_header + read_samples, which name the problem.
bool read_fast(const std::string& bytes, Payload& out);
// A JSON number's text to double, identically in both readers (exact up to 15 digits).
bool parse_json_double(std::string_view text, double* out);
// Checks and stores the samples (after read_header succeeded); stops at the first violation and
// keeps the samples before it.
Verdict read_samples(Payload& out);
// GC.stat count, minor_gc_count and major_gc_count over the stored samples (either reader): a value
// lower than one written before it is a recorder's lag (kept in out.lagged) when it is causally
// possible, else a 400 naming the sample, and the samples from it on are dropped. Possible means:
//   * a sample of a thread is not lower than anything written up to that thread's previous sample
//     (a thread reads and writes its own samples in order; only other threads can overtake it);
//   * a GC hook sample (GC_CYCLE_*), or a thread's first sample, is lower by at most the cycles in
//     flight: one per thread seen so far (with one thread: within one GC cycle).
// A restart, a second process spliced in or a corrupted counter drops further than that.
Verdict check_counter_order(Payload& out);

// One unit of work (a request or a job): a PROCESSING_STARTED / PROCESSING_ENDED pair of one thread,
// as sample indexes.
struct Unit {
  size_t start, end;
  int64_t thread;
};
struct UnitPairing {
  std::vector<Unit> units;    // ordered by start
  size_t unfinished = 0;      // PROCESSING_STARTED never ended
  size_t unmatched_ends = 0;  // PROCESSING_ENDED with no open start on its thread
};
// The payload's units of work: each thread's PROCESSING_ENDED closes its latest open start.
UnitPairing pair_units(const Payload& p);
// "Controller#action" from the meta hash of the unit's end (else its start); empty when neither has one.
std::string unit_label(const Payload& p, const Unit& u);

}  // namespace gcscope::rubygc
