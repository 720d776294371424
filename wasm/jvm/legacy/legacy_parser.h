// LegacyGcLogParser: the pre-unified (JDK 1.4.2 - 8, -XX:+PrintGCDetails era) GC log parser.
//
// Fed whole lines, it emits GcEvents / SafepointEvents / tenuring records / unparsed lines into a
// GcEventSink as soon as each record is complete, and fills a Diary. It never holds more than one
// pending GC record, so memory does not depend on the log length.
//
// Legacy logs are not line-oriented: the JVM writes a collection record in several `print` calls, so
// CMS concurrent phases, tenuring-distribution tables, FLS statistics, G1 ergonomics and application
// output land in the middle of a record. Instead of a preprocessing pass, a small state machine keeps
// the record that is still open (its '[' brackets not yet balanced), handles the lines that are
// records of their own as they come (also when cut into the middle of another line) and appends
// everything else to the open record until it balances. A parsed record stays "open" until the next
// record begins, so its trailing " [Times: ...]" line and G1's indented detail block attach to it.
//
// The files: legacy_parser.cpp reads lines (the state machine above), legacy_record.cpp reads one
// record, and what a record means per collector family is in legacy_generational.cpp (Serial,
// Parallel), legacy_cms.cpp (ParNew/CMS), legacy_g1.cpp and legacy_shenandoah.cpp; legacy_diary.cpp
// reads the header lines and decides the diary; legacy_scan.h is their shared core. Line stamps are
// read by jvm/decorations.h.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jvm/decorations.h"
#include "jvm/gc_event.h"

namespace gcscope::jvm {

class LegacyGcLogParser {
 public:
  LegacyGcLogParser(GcEventSink& sink, Diary& diary, uint32_t member = 0);

  // One line without its "\n" (a trailing "\r" is tolerated); line numbers are 1-based.
  void feed_line(std::string_view line, uint64_t line_no);
  // Flushes the open record (a log cut in the middle of a record keeps what was read) and decides the
  // diary flags from everything seen.
  void finish();

  const Diary& diary() const { return *diary_; }
  // Starts a new member of a rotating set (events carry this index).
  void set_member(uint32_t member) { member_ = member; }
  // A copy of this parser's state that emits into `sink` and fills `diary` (LogParser::clone).
  void rebind(GcEventSink& sink, Diary& diary) { sink_ = &sink, diary_ = &diary; }

  struct Stats {
    uint64_t lines = 0, events = 0, safepoints = 0, tenuring_records = 0, unparsed = 0, stitched_records = 0,
             extracted_inline_records = 0;
  };
  const Stats& stats() const { return stats_; }

 private:
  using Stamp = decorations::Legacy;  // a line's stamps

  // Types passed between the parts of process() and parse_record(): Markers in legacy_parser.cpp,
  // RecordShape in legacy_record.cpp, RecordFacts in legacy_scan.h (the collector families read it).
  struct Markers;      // where the markers of cut-in records and blocks first occur in a line
  struct RecordShape;  // a record's bracket structure
  struct RecordFacts;  // what a record's keyword and sub-records say, gathered for its type
  static Markers scan_markers(std::string_view s);

  void process(std::string_view line, int depth_guard);
  // The kinds of lines process() tells apart, in the order it tries them; each returns true when it
  // took the line.
  bool take_tenuring_line(std::string_view line);
  bool skip_in_block(std::string_view line, int depth_guard);
  bool take_cut_in(std::string_view line, const Markers& mk, int depth_guard);
  bool take_block_line(std::string_view line, const Markers& mk, int depth_guard);
  bool take_indented_line(std::string_view line);
  void take_stamped_line(std::string_view line, const Markers& mk, int depth_guard);
  bool take_record_after_text(std::string_view line, int depth_guard);
  bool open_g1_pause() const;
  bool extract_inline(std::string_view line, int depth_guard);
  bool handle_standalone(std::string_view rest, const Stamp& st, std::string_view line);
  bool is_standalone_line(std::string_view line) const;
  void start_or_append_record(std::string_view line, bool starts_record);
  // Parses one record; with only_if_complete, returns false (and does nothing) when its brackets do not
  // balance on this text.
  // plain_only: also refuse (return false) a record with a marker the line-level cases must handle first.
  bool parse_record(std::string_view text, uint64_t first_line, bool only_if_complete, bool plain_only = false);
  // The parts of parse_record: the bracket walk, the keyword, each sub-record, the type per collector
  // family, the records nested in this one.
  bool walk_record(std::string_view rec, bool only_if_complete, bool plain_only, RecordShape& s);
  void read_record_head(RecordFacts& f, GcEvent& e);
  void read_sub_record(std::string_view sub, RecordFacts& f, GcEvent& e);
  void classify_record(const RecordFacts& f, GcEvent& e);
  void type_without_details(const RecordFacts& f, GcEvent& e);
  void parse_nested_records(std::string_view rec, const RecordShape& s, uint64_t first_line);
  void parse_concurrent(std::string_view body, const Stamp& st);
  // Per collector family: legacy_cms.cpp (ParNew/CMS), legacy_generational.cpp (Serial, Parallel),
  // legacy_g1.cpp, legacy_shenandoah.cpp. The read_*_sub and type_*_without_details functions return
  // false for what is not of their family.
  bool read_cms_sub(std::string_view sub, RecordFacts& f, GcEvent& e);
  bool type_cms_without_details(const RecordFacts& f, GcEvent& e);
  void split_parnew_cms(const RecordFacts& f, GcEvent& e);
  bool type_cms_concurrent(std::string_view rec, GcEvent& e);
  bool read_generational_sub(std::string_view sub, RecordFacts& f, GcEvent& e);
  void type_full(const RecordFacts& f, GcEvent& e);
  void type_g1_pause(const RecordFacts& f, GcEvent& e);
  bool type_g1_without_details(const RecordFacts& f, GcEvent& e);
  bool type_g1_concurrent(std::string_view rec, GcEvent& e);
  void attach_detail(std::string_view line);
  bool parse_shenandoah(std::string_view flat, double uptime_s, double wall_ms, uint64_t first_line);
  bool take_shenandoah_line(std::string_view line);
  void flush_open();
  void flush_pending_as_is();
  void flush_tenuring();
  void note_header(std::string_view line);
  void decide_diary();
  // The time span of stamped lines (Diary::first/last_uptime_s: the runtime throughput is computed over).
  void emit(const GcEvent& e);  // to the sink, extending the diary's time range to the end of a pause
  void note_uptime(double u) {
    if (u != u) return;
    if (!(diary_->first_uptime_s <= u)) diary_->first_uptime_s = u;
    if (!(diary_->last_uptime_s >= u)) diary_->last_uptime_s = u;
  }

  GcEventSink* sink_;
  Diary* diary_;
  uint32_t member_ = 0;
  uint64_t line_no_ = 0;
  Stats stats_;

  // A record whose brackets are not balanced yet (stitched from several lines).
  std::string pending_;
  uint64_t pending_line_ = 0;
  int pending_lines_ = 0;
  int records_inside_pending_ = 0;
  std::string outer_pending_;  // a CMS remark record waiting while its scavenge record completes
  uint64_t outer_pending_line_ = 0;
  // Scratch buffers reused across lines (no allocation per line once warm).
  std::string scratch_;
  // The depth-1 text of the record being parsed: its first flat_len bytes (see parse_record). A plain
  // buffer, not a std::string: the segments are short, and appending them called memcpy, whose small
  // copies are slow in wasm.
  std::vector<char> flat_;

  // The last parsed record, held until the next record begins.
  bool open_ = false;
  GcEvent open_event_;
  std::string open_cause_;
  std::string open_phase_name_;  // Shenandoah phase of the open event (its phases entry)
  bool in_shenandoah_stats_ = false;

  // Tenuring distribution being read ("Desired survivor size" + "- age" lines).
  bool tenuring_open_ = false;
  TenuringRecord tenuring_;

  bool in_heap_block_ = false;  // inside a -XX:+PrintHeapAtGC block
  bool in_fls_block_ = false;
  bool in_histogram_ = false;      // inside a class histogram table
  bool g1_heap_line_cut_ = false;  // a G1 heap line was cut after its "[": its figures start the next line
  bool cms_cycle_open_ = false;
  bool nested_ = false;
  bool gc_locker_pending_ =
      false;  // "GC locker: Trying a full collection" seen, flags the next record  // parsing a record nested in
              // another one: emit it at once  // no-details CMS: an initial mark was seen, the remark is next

  // Evidence for the diary, decided in finish().
  struct Evidence {
    bool parnew = false, defnew = false, psyoung = false, parold = false, psold = false, cms = false, tenured = false,
         g1 = false, icms = false, shenandoah = false, details = false, g1_details = false, tenuring = false,
         cause = false, system_pre740 = false, perm = false, metaspace = false, stopped = false,
         concurrent_time = false, heap_at_gc = false, adaptive = false, reference = false, rset = false, fls = false,
         promotion_failure_size = false, tlab = false, young_no_details = false, full_no_details = false,
         cms_no_details = false, threshold_violation = false, cms_debug = false, generational_without_cause = false,
         age_table = false;
    int jdk_major = 0, jdk_update = -1;
  } ev_;
};

}  // namespace gcscope::jvm
