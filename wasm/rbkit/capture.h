// rbkit capture decoding: the msgpack token stream → rbkit messages and events → the capture model
// (timeline bins, GC cycles, gc_stats series, CPU samples, object_space_dump snapshots).
//
// What the wire looks like (code-mancers/rbkit server, see docs in the shared notes): every message
// is a map with small integer keys (0 event_type, 1 timestamp, 2 payload, 9 message_counter,
// 10 correlation_id, 11 complete_message_count, ...). The handshake reply and, on the PUB socket,
// event_collection maps {0:7, 1:ts, 9:counter, 2:[events…]} are the top-level messages; events are
// maps of the same shape. The decoder follows the structure with an explicit stack of frames, each
// knowing its role (message, event, payload, dumped object, reference list, CPU frame …), so nothing
// recurses and no message has to be held in memory as a whole.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "core/tables.h"
#include "profile/stack_model.h"
#include "rbkit/event_log.h"
#include "rbkit/id_map.h"
#include "rbkit/msgpack_stream.h"
#include "rbkit/snapshot.h"
#include "rbkit/string_table.h"

namespace gcscope::rbkit {

enum EventType : int {
  kObjCreated = 0,
  kObjDestroyed = 1,
  kGcStart = 2,
  kGcEndMark = 3,
  kGcEndSweep = 4,
  kObjectSpaceDump = 5,
  kGcStats = 6,
  kEventCollection = 7,
  kHandshake = 8,
  kCpuSample = 9,
};
inline constexpr int kEventTypeCount = 10;
const char* event_type_name(int type);

// rbkit messages nest at most 6 levels (collection → events → dump event → objects → object →
// references); anything deeper is not rbkit and is rejected instead of followed.
inline constexpr size_t kMaxDepth = 64;

// Where complaints go (the Analyzer's error()/warning(), with a per-kind cap applied by the caller).
struct Complaints {
  virtual ~Complaints() = default;
  virtual void complain(bool is_error, const char* kind, uint64_t offset, std::string message) = 0;
  // Whether the next complaint of `kind` will be listed: past the cap only its count is kept, so
  // the decoder does not build its message (a damaged capture has one complaint per byte).
  virtual bool listing(const char* kind) const = 0;
};

struct GcCycle {
  double start_ms = 0;
  double mark_end_ms = -1;  // -1: no gc_end_m seen inside the cycle
  double end_ms = 0;
};

struct TimeBinClass {
  uint32_t cls;
  uint32_t created;
  uint32_t destroyed;
};
struct TimeBin {
  uint64_t created = 0, destroyed = 0;
  uint64_t live = 0;  // objects created in the capture and not yet destroyed, after this second
  std::vector<TimeBinClass> by_class;
};

struct GcStatsSample {
  double t_ms;
  std::vector<std::pair<uint32_t, nlohmann::json>> values;  // (key index, scalar)
};

struct CpuFrameKey {
  uint32_t label, file, method;
  uint64_t line;
  bool operator<(const CpuFrameKey& o) const {
    return std::tie(label, file, line, method) < std::tie(o.label, o.file, o.line, o.method);
  }
};

class CaptureDecoder {
 public:
  explicit CaptureDecoder(Complaints& complaints);

  // Defined next to on_token() so the tokenizer's per-token calls into the decoder inline.
  void feed(const char* data, size_t len);
  // End of the member: reports a message cut by the end of the input, keeps what it had.
  void end_of_input();
  void write_report(nlohmann::json& report);

  // Sink interface of MsgpackStream.
  void on_token(const Token& t);
  void on_resync(uint64_t offset, uint64_t skipped);

  // Read access for tests and the report.
  uint64_t messages() const { return messages_; }
  // The cpu_sample stacks as the shared stack model (wasm/profile/): frames 1:1 with the report's
  // cpu_samples.frames (name = the frame's label, else its method name), stacks root first (rbkit
  // sends them leaf first), one model sample per run of consecutive samples of one stack, weighing
  // the run's length, its time (sample_time, ms since the epoch) that of the run's first sample and
  // its duration (µs) the sum of its samples' gaps to the cpu_sample before each; samples without
  // frames are left out, as from cpu_samples.stacks.
  const profile::StackModel& cpu_model() const { return cpu_model_; }

  // After write_report(): the figures of one time range [t0_s, t1_s] (seconds since the epoch, the
  // timeline's x), exact from the per-second bins (timeline_queries.cpp; method "rbkit.range"):
  // {t0, t1, bin_s, objects: {created, destroyed, net, live_at_start, live_at_end, live_min,
  //  live_max}, by_class: [{class, created, destroyed}] (most active first, ≤ 50), gc: {cycles,
  //  total_ms, mean_ms, max_ms}, cpu_samples, timeline: {t, created, destroyed, live} (≤ 4000 bins)}.
  nlohmann::json range(double t0_s, double t1_s) const;
  // After write_report(): the capture's timeline over {t0?, t1?, width?} (rbkit/timeline.cpp,
  // core/timeline.h: allocation rates and GC cycles in epoch seconds).
  nlohmann::json timeline(const nlohmann::json& args) const;
  // After write_report(): what a comparison reads besides the cpu stacks (rbkit/compare.h):
  // {span_s (first to last timestamp; null without timestamps), objects_created, gc: {cycles,
  //  total_ms, max_ms}, classes: {class: created}}.
  nlohmann::json compare_figures() const;

  // After write_report(): the capture's tables (rbkit/tables.cpp, docs/TABLES.md), the rows of one
  // of them with `input` in their input column; false when rbkit has no table of that name.
  static std::vector<tables::Schema> table_schemas();
  bool write_table(const std::string& input, const std::string& name, tables::RowSink& sink) const;

 private:
  enum class Role : uint8_t { Message, Event, Events, Payload, Dump, DumpObject, Refs, Frames, Frame, Skip };
  struct Frame {
    Role role;
    bool is_map;
    bool want_key;
    uint8_t level;  // events: 0 top-level message, 1 inside an event_collection
    uint64_t left;  // items still to come (maps count keys and values)
    int64_t key;    // current key of a map; kKeyOther when not an integer
  };
  static constexpr int64_t kKeyOther = INT64_MIN;
  static constexpr int64_t kKeyString = INT64_MIN + 1;

  struct EventScratch {
    uint64_t offset = 0;
    bool has_type = false, type_bad = false;
    int64_t type = -1;
    int ts_state = 0;  // 0 missing, 1 ok, 2 bad
    const char* ts_problem = nullptr;
    double ts = 0;
    bool has_counter = false, counter_bad = false;
    uint64_t counter = 0;
    bool has_corr = false, corr_bad = false;
    uint64_t corr = 0;
    bool has_total = false, total_bad = false;
    uint64_t total = 0;
    bool has_payload = false;
    const char* payload_problem = nullptr;
    bool string_keys = false;
    bool has_id = false, id_bad = false;
    uint64_t id = 0;
    bool class_bad = false;
    uint32_t cls = 0;  // 0 = nil / absent
    size_t kv_begin = 0;
    uint32_t nested_accepted = 0, nested_seen = 0;
  };
  struct DumpObjectScratch {
    bool has_id = false, bad = false;
    SnapshotObject obj;
  };
  struct CpuFrameScratch {
    uint32_t label = 0, file = 0, method = 0;
    uint64_t line = 0;
    uint64_t thread = 0;
  };

  void begin_top(const Token& t);
  void on_key(Frame& f, const Token& t);
  void on_value(Frame& f, const Token& t);
  void event_value(Frame& f, EventScratch& e, const Token& t);
  void payload_value(Frame& f, EventScratch& e, const Token& t);
  void dump_object_value(Frame& f, const Token& t);
  void cpu_frame_value(Frame& f, const Token& t);
  bool push(Role role, const Token& t, uint8_t level);
  void item_done();
  void close(const Frame& f);
  void finish_event(uint8_t level);
  void reject(const EventScratch& e, uint8_t level, const std::string& why);
  void accept(const EventScratch& e, uint8_t level, int type);
  void structural_error(uint64_t offset, const std::string& message);
  void abandon_open_message();
  void commit_dump(const EventScratch& e, bool cut_short);
  double normalize_ts(double ts);
  bool read_timestamp(const Token& t, EventScratch& e);
  bool read_timestamp_value(const Token& t, EventScratch& e);
  static bool is_container(const Token& t) { return t.kind == Tok::Array || t.kind == Tok::Map; }
  uint32_t intern_class(const Token& t) { return classes_.intern(t.bytes); }

  // Whether the live curve keeps growing once short-lived objects reached their steady state:
  // the report's `leak` (timeline_queries.cpp states the rule).
  nlohmann::json leak_reading(const std::vector<uint64_t>& live_by_class) const;
  // The sections of write_report, in the order it writes them.
  void write_protocol(nlohmann::json& r);
  void write_event_counts(nlohmann::json& r);
  void write_objects(nlohmann::json& r);
  void write_timeline(nlohmann::json& r);
  void write_gc_cycles(nlohmann::json& r);
  void write_gc_stats(nlohmann::json& r);
  void write_cpu_samples(nlohmann::json& r);
  void write_snapshots(nlohmann::json& r);
  void write_counter_gaps(nlohmann::json& r);
  void write_notes(nlohmann::json& r);

  // Timeline
  // live_change: what the event being binned already did to live_ (+1 created, -1 destroyed, 0):
  // a second's live count is taken before the next second's first event.
  void bin_object(double ts, uint32_t cls, bool created, int live_change);
  void flush_second(int live_change = 0);

  Complaints& complaints_;
  MsgpackStream<CaptureDecoder> stream_;
  std::vector<Frame> stack_;
  EventScratch ev_[2];
  DumpObjectScratch obj_;
  CpuFrameScratch cpu_frame_;
  std::string strkey_;
  std::vector<std::pair<std::string, nlohmann::json>> kv_;
  std::vector<SnapshotObject> staging_;
  std::vector<uint64_t> staging_refs_;
  uint64_t staging_invalid_ = 0, staging_invalid_refs_ = 0;
  std::vector<uint32_t> cpu_stack_;
  uint64_t bytes_seen_ = 0;
  uint64_t top_offset_ = 0;  // where the current top-level value began

  // Counters
  uint64_t messages_ = 0, rejected_messages_ = 0, rejected_events_ = 0, broken_messages_ = 0;
  uint64_t by_type_[kEventTypeCount] = {};
  uint64_t top_level_by_type_[kEventTypeCount] = {};
  std::map<int64_t, uint64_t> unknown_types_;
  std::map<std::string, uint64_t> rejection_reasons_;
  std::string reason_scratch_;  // rejection_reasons_ key being built (no allocation per rejected token)
  double ts_min_ = 0, ts_max_ = 0;
  bool has_ts_ = false;
  uint64_t ts_in_seconds_ = 0, ts_from_ext_ = 0;
  uint64_t resyncs_ = 0, skipped_bytes_ = 0;
  int64_t truncated_at_ = -1;

  // Handshake
  nlohmann::json handshake_;
  uint64_t handshakes_ = 0;

  // Collections / counters
  uint64_t collections_with_counter_ = 0;
  bool has_counter_ = false;
  uint64_t counter_first_ = 0, counter_last_ = 0, counter_missing_ = 0, counter_backwards_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> missing_ranges_;
  std::vector<uint64_t> duplicate_counters_;

  // Objects
  StringTable classes_{"(nil)"};
  StringTable files_{""};
  IdMap live_;
  uint64_t created_ = 0, destroyed_ = 0, destroyed_of_created_ = 0, nil_class_created_ = 0, recreated_live_ = 0;
  std::vector<uint64_t> created_by_class_, destroyed_by_class_;
  uint64_t id_min_ = UINT64_MAX, id_max_ = 0;
  static constexpr uint32_t kBeforeCapture = UINT32_MAX - 1;  // destroyed, created before the capture

  // Timeline bins (seconds since the epoch)
  std::map<int64_t, TimeBin> bins_;
  int64_t cur_sec_ = INT64_MIN;  // start of the bin being filled
  // Seconds per stored bin: 1, doubled whenever more than kMaxStoredBins distinct bins accumulate
  // (a capture whose timestamps are scattered over years must not grow a map entry per event).
  int64_t bin_width_ = 1;
  static constexpr size_t kMaxStoredBins = 100000;
  void coarsen_bins();
  uint64_t cur_created_ = 0, cur_destroyed_ = 0;
  std::vector<uint32_t> cur_c_, cur_d_, touched_;
  uint32_t cur_before_capture_ = 0;

  // GC
  uint64_t gc_start_ = 0, gc_end_m_ = 0, gc_end_s_ = 0, orphan_end_s_ = 0, orphan_end_m_ = 0, unclosed_starts_ = 0,
           negative_durations_ = 0;
  bool gc_open_ = false, trailing_open_gc_ = false;
  GcCycle open_;
  std::vector<GcCycle> cycles_;
  std::vector<double> unclosed_start_ms_;

  // gc_stats
  StringTable gc_keys_{""};
  std::vector<GcStatsSample> gc_stats_;
  std::map<uint32_t, uint64_t> gc_non_numeric_;

  // CPU samples
  StringTable labels_{""};
  std::map<CpuFrameKey, uint32_t> frame_index_;
  std::vector<CpuFrameKey> frames_;
  std::vector<double> cpu_t_;
  std::vector<int64_t> cpu_leaf_;
  std::map<std::vector<uint32_t>, uint64_t> cpu_stacks_;
  profile::StackModel cpu_model_;
  std::vector<uint32_t> cpu_path_;  // scratch: cpu_stack_ root first
  void add_cpu_frame(const CpuFrameKey& key);
  void add_cpu_sample();

  // Snapshots
  std::vector<Snapshot> snapshots_;

  // Every accepted event but the event_collection wrappers, in the order accepted (rbkit_events).
  EventLog events_;
  void log_event(const EventScratch& e, int type, uint32_t cls);
};

}  // namespace gcscope::rbkit
