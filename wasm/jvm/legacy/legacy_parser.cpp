// The line-level core of the legacy parser: what kind each line is (a record, a line cut into
// another, a block to skip, a standalone line), the pending and open records, the emission of
// events. Records are read in legacy_record.cpp, what they mean per collector family in
// legacy_generational.cpp (Serial, Parallel), legacy_cms.cpp (ParNew/CMS), legacy_g1.cpp and
// legacy_shenandoah.cpp; the header lines and the diary in legacy_diary.cpp.
#include "jvm/legacy/legacy_parser.h"

#include <cmath>
#include <string>

#include "core/text_scan.h"
#include "jvm/decorations.h"
#include "jvm/legacy/legacy_scan.h"

namespace gcscope::jvm {

using namespace legacy_scan;
using text::contains;
using text::is_digit;
using text::starts_with;

// Where the few markers that need special handling first occur in a line, found in one pass over its bytes
// (most lines have none; searching for each with find() cost more than parsing the record).
struct LegacyGcLogParser::Markers {
  static constexpr size_t npos = std::string_view::npos;
  size_t class_histogram = npos, g1_ergonomics = npos, cms_concurrent = npos, gc_concurrent = npos, heap_before = npos,
         heap_after = npos, cms_collector = npos, tlab = npos, as_cms_concurrent = npos;
};

namespace {

struct InterestingBytes {
  bool table[256] = {};
  constexpr InterestingBytes() : table() {
    table[static_cast<unsigned char>('[')] = true;
    table[static_cast<unsigned char>(']')] = true;
    table[static_cast<unsigned char>('{')] = true;
    table[static_cast<unsigned char>('H')] = true;
  }
};
constexpr InterestingBytes kInteresting;

}  // namespace

LegacyGcLogParser::Markers LegacyGcLogParser::scan_markers(std::string_view s) {
  Markers m;
  const unsigned char* d = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n; ++i) {
    if (!kInteresting.table[d[i]]) continue;
    const unsigned char next = i + 1 < n ? d[i + 1] : 0;
    switch (d[i]) {
      case '[':  // "[CMS-concurrent-", "[Class Histogram", "[GC concurrent-", "[G1Ergonomics", "[GC TLAB: gc thread"
        if (next == 'C') {
          if (m.cms_concurrent == Markers::npos && at(s, i, "[CMS-concurrent-")) m.cms_concurrent = i;
          else if (m.class_histogram == Markers::npos && at(s, i, "[Class Histogram")) m.class_histogram = i;
        } else if (next == 'G') {
          if (m.gc_concurrent == Markers::npos && at(s, i, "[GC concurrent-")) m.gc_concurrent = i;
          else if (m.g1_ergonomics == Markers::npos && at(s, i, "[G1Ergonomics")) m.g1_ergonomics = i;
          else if (m.tlab == Markers::npos && at(s, i, "[GC TLAB: gc thread")) m.tlab = i + 4;
        } else if (next == 'A' && m.as_cms_concurrent == Markers::npos && at(s, i, "[ASCMS-concurrent-")) {
          m.as_cms_concurrent = i;
        }
        break;
      case ']':  // "CMSCollector shouldConcurrentCollect: " lands right after a record's ']'
        if (next == 'C' && m.cms_collector == Markers::npos && at(s, i + 1, "CMSCollector shouldConcurrentCollect: "))
          m.cms_collector = i + 1;
        break;
      case '{':
        if (m.heap_before == Markers::npos && at(s, i, "{Heap before")) m.heap_before = i;
        break;
      case 'H':
        if (m.heap_after == Markers::npos && next == 'e' && at(s, i, "Heap after ")) m.heap_after = i;
        break;
    }
  }
  return m;
}

namespace {

// Lines of -XX:+PrintFLSStatistics blocks (printed by CMS inside ParNew/CMS records).
bool is_fls_line(std::string_view l) {
  if (l.empty()) return false;
  switch (l[0]) {
    case 'S':
    case '-':
    case 'T':
    case 'M':
    case 'N':
    case 'A':
    case 'B':
    case 'C':
    case 's':
    case 'd': break;
    default: return false;
  }
  static const char* const kPrefixes[] = {"Statistics for BinaryTreeDictionary",
                                          "Statistics for IndexedFreeLists",
                                          "------------------------------------",
                                          "Total Free Space:",
                                          "Max   Chunk Size:",
                                          "Number of Blocks:",
                                          "Av.  Block  Size:",
                                          "Tree      Height:",
                                          "Before GC:",
                                          "After GC:",
                                          "CMS: Large ",
                                          "size[",
                                          "demand"};
  for (const char* p : kPrefixes)
    if (starts_with(l, p)) return true;
  return false;
}

}  // namespace

LegacyGcLogParser::LegacyGcLogParser(GcEventSink& sink, Diary& diary, uint32_t member)
    : sink_(&sink), diary_(&diary), member_(member) {
  diary_->unified = Tri::kFalse;
}

void LegacyGcLogParser::feed_line(std::string_view line, uint64_t line_no) {
  line_no_ = line_no;
  ++stats_.lines;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (g1_heap_line_cut_) {
    g1_heap_line_cut_ = false;
    std::string_view t = text::trim_left(line);
    if (open_ && !t.empty() && is_digit(t[0])) {
      attach_detail("[ " + std::string(t));
      return;
    }
  }
  process(line, 0);
}

void LegacyGcLogParser::process(std::string_view line, int depth_guard) {
  if (depth_guard > 8) return;
  if (line.empty()) return;
  if (take_tenuring_line(line)) return;
  if (skip_in_block(line, depth_guard)) return;

  // The common case first: a whole record on one line with nothing cut into it (no marker of the cases
  // below inside it) is parsed in a single walk.
  if (pending_.empty() && !in_heap_block_ && (is_digit(line[0]) || line[0] == '[') &&
      parse_record(line, line_no_, /*only_if_complete=*/true, /*plain_only=*/true))
    return;

  const Markers mk = scan_markers(line);
  if (take_cut_in(line, mk, depth_guard)) return;
  if (take_block_line(line, mk, depth_guard)) return;
  if ((line[0] == ' ' || line[0] == '\t') && take_indented_line(line)) return;
  take_stamped_line(line, mk, depth_guard);
}

// Tenuring-distribution table: "Desired survivor size N bytes, new threshold T (max M)" + "- age a: b bytes,
// c total". Any other line closes an open table.
bool LegacyGcLogParser::take_tenuring_line(std::string_view line) {
  if (line[0] == '-' && starts_with(line, "- age")) {
    ev_.age_table = true;
    if (tenuring_open_) {
      size_t p = 5;
      p = text::skip_ws(line, p);
      uint64_t age = 0, bytes = 0;
      if (text::parse_u64(line, p, age) && p < line.size() && line[p] == ':') {
        p = text::skip_ws(line, p + 1);
        if (text::parse_u64(line, p, bytes))
          tenuring_.bytes_by_age.emplace_back(static_cast<int>(age), static_cast<int64_t>(bytes));
      }
    }
    return true;
  }
  flush_tenuring();
  if (!(line[0] == 'D' && starts_with(line, "Desired survivor size "))) return false;
  ev_.tenuring = true;
  tenuring_open_ = true;
  tenuring_ = TenuringRecord{};
  tenuring_.line = line_no_;
  tenuring_.member = member_;
  tenuring_.uptime_s = open_ ? open_event_.uptime_s : kUnknown;
  size_t p = 22;
  uint64_t v;
  if (text::parse_u64(line, p, v)) tenuring_.desired_survivor_bytes = static_cast<int64_t>(v);
  size_t t = line.find("new threshold ");
  if (t != std::string_view::npos) {
    p = t + 14;
    if (text::parse_u64(line, p, v)) tenuring_.new_threshold = static_cast<int>(v);
    size_t m = line.find("(max ", p);
    if (m != std::string_view::npos) {
      p = m + 5;
      if (text::parse_u64(line, p, v)) tenuring_.max_threshold = static_cast<int>(v);
    }
  }
  // MaxTenuringThreshold is capped at 15 (4 age bits); a larger "(max N)" is a misconfiguration.
  if (tenuring_.max_threshold > 15 ||
      (tenuring_.max_threshold >= 0 && tenuring_.new_threshold > tenuring_.max_threshold))
    ev_.threshold_violation = true;
  // Pending record start time: the ParNew/DefNew line before the table carries it.
  if (!pending_.empty()) {
    decorations::Legacy pre;
    decorations::read_legacy(pending_, 0, pre);
    tenuring_.uptime_s = pre.uptime_s;
    tenuring_.wall_epoch_ms = pre.wall_ms;
  }
  return true;
}

// Lines inside a block that is skipped: a class histogram's table, Shenandoah's statistics. Also ends a
// -XX:+PrintHeapAtGC block at the first line that cannot belong to it.
bool LegacyGcLogParser::skip_in_block(std::string_view line, int depth_guard) {
  if (in_heap_block_ && line[0] != ' ' && line[0] != '}' && line[0] != 'H')
    in_heap_block_ = false;  // the block ends with its "}" or the next record

  // -XX:+PrintClassHistogramBefore/AfterFullGC: "[Class Histogram…" then a table whose class names ("[C",
  // "[Ljava.lang.Object;") would unbalance the brackets, then ", 38.69 secs]". The table is skipped.
  if (in_histogram_) {
    size_t end = line.find("secs]");
    if (line[0] == ',' && end != std::string_view::npos) {
      in_histogram_ = false;
      std::string_view after = line.substr(end + 5);
      if (!text::trim(after).empty()) process(after, depth_guard + 1);
    }
    return true;
  }
  if (in_shenandoah_stats_) {
    if (!(is_digit(line[0]) || line[0] == '[')) return true;
    in_shenandoah_stats_ = false;
  }
  return false;
}

// Blocks that open in the middle of a record line (a class histogram, a heap block, FLS statistics) and
// JDK 6's "[ASCMS-concurrent-" names: the record part is processed on its own.
bool LegacyGcLogParser::take_cut_in(std::string_view line, const Markers& mk, int depth_guard) {
  if (mk.as_cms_concurrent != Markers::npos) {
    // JDK 6 CMS with -XX:+UseAdaptiveSizePolicy prefixes its names with "AS": "[ASCMS-concurrent-mark: …]".
    std::string plain(line);
    for (size_t at = plain.find("[ASCMS-concurrent-"); at != std::string::npos;
         at = plain.find("[ASCMS-concurrent-", at))
      plain.erase(at + 1, 2);
    process(plain, depth_guard + 1);
    return true;
  }
  if (size_t ch = mk.class_histogram; ch != std::string_view::npos) {
    size_t start = decorations::legacy_start_before(line, ch);
    if (start > 0) process(line.substr(0, start), depth_guard + 1);
    in_histogram_ = true;
    return true;
  }

  // A -XX:+PrintHeapAtGC block opened in the middle of a record line ("[GC[YG occupancy: …]{Heap before GC …"):
  // the record part continues, the block is skipped (up to its "}" when that is on the same line).
  if (size_t hb = mk.heap_before; hb != std::string_view::npos && hb > 0) {
    ev_.heap_at_gc = true;
    size_t close = line.find('}', hb);
    std::string head(line.substr(0, hb));
    if (close != std::string_view::npos) {
      head.append(line.substr(close + 1));
      process(head, depth_guard + 1);
    } else {
      // A time stamp alone before the block ("2.385: {Heap before GC …") starts a record printed after the
      // block, with its own stamp: nothing to parse.
      decorations::Legacy stamp;
      size_t after_stamp = decorations::read_legacy(head, 0, stamp);
      if (!text::trim(std::string_view(head).substr(after_stamp)).empty()) process(head, depth_guard + 1);
      in_heap_block_ = true;
    }
    return true;
  }
  if (size_t ha = mk.heap_after; ha != std::string_view::npos && ha > 0 && !in_heap_block_) {
    process(line.substr(0, ha), depth_guard + 1);
    in_heap_block_ = true;
    return true;
  }
  // -XX:+PrintFLSStatistics prints "Before GC:" / "After GC:" at the end of a record line, then its block.
  if (line.back() == ':' && (ends_with(line, "Before GC:") || ends_with(line, "After GC:")) && line.size() > 10) {
    ev_.fls = true;
    size_t cut = line.size() - (ends_with(line, "Before GC:") ? 10 : 9);
    process(line.substr(0, cut), depth_guard + 1);
    return true;
  }
  return false;
}

// Lines of blocks the report does not read (heap blocks, TLAB and FLS statistics, CMS initiation
// statistics), noted in the diary and skipped; a record part before them is processed.
bool LegacyGcLogParser::take_block_line(std::string_view line, const Markers& mk, int depth_guard) {
  // -XX:+PrintHeapAtGC blocks.
  if (line[0] == '{' && starts_with(line, "{Heap before")) {
    ev_.heap_at_gc = true;
    in_heap_block_ = true;
    return true;
  }
  if (line[0] == '}') {
    in_heap_block_ = false;
    if (line.size() > 1) process(text::trim_left(line.substr(1)), depth_guard + 1);
    return true;
  }
  if (line[0] == 'H' && (starts_with(line, "Heap after") || starts_with(line, "Heap before") || line == "Heap" ||
                         text::trim_right(line) == "Heap")) {
    in_heap_block_ = true;
    return true;
  }
  if (in_heap_block_ && line.size() > 1 && text::trim_left(line).size() > 0 &&
      ((text::trim_left(line)[0] >= 'a' && text::trim_left(line)[0] <= 'z') ||
       (text::trim_left(line)[0] >= 'A' && text::trim_left(line)[0] <= 'Z'))) {
    if (contains(line, "Metaspace") || contains(line, "class space")) ev_.metaspace = true;
    return true;
  }

  // -XX:+PrintTLAB statistics, also printed right after "[GC " of the record they interrupt.
  if (line[0] == 'T' && (starts_with(line, "TLAB: ") || starts_with(line, "TLAB totals"))) {
    ev_.tlab = true;
    return true;
  }
  // -XX:+PrintCMSInitiationStatistics: "CMSCollector shouldConcurrentCollect: <uptime>" is printed by another
  // thread and lands inside records ("…(273716K)]CMSCollector shouldConcurrentCollect: , 21.56 secs]2118041.535"):
  // the phrase is taken out, its uptime left alone at the end is ignored.
  if (size_t cd = mk.cms_collector; cd != std::string_view::npos && cd > 0) {
    ev_.cms_debug = true;
    std::string rest(line.substr(0, cd));
    rest.append(line.substr(cd + 38));
    process(rest, depth_guard + 1);
    return true;
  }
  if (size_t tlab = mk.tlab; tlab != std::string_view::npos && tlab > 0) {
    ev_.tlab = true;
    process(line.substr(0, tlab), depth_guard + 1);
    return true;
  }

  if (is_fls_line(line)) {
    ev_.fls = true;
    return true;
  }
  return false;
}

// An indented line: G1's detail block and the " [Times: ...]" of the open record, or the continuation of a
// pending one. False for an indented line that is none of them (it is read as a stamped line).
bool LegacyGcLogParser::take_indented_line(std::string_view line) {
  std::string_view t = text::trim_left(line);
  if (starts_with(t, "Concurrent RS processed") || starts_with(t, "Recent concurrent refinement statistics")) {
    ev_.rset = true;  // -XX:+G1SummarizeRSetStats: its indented block is skipped
    return true;
  }
  if (contains(t.substr(0, 40), "[G1Ergonomics")) {
    ev_.adaptive = true;
    return true;
  }
  if (!t.empty() && t[0] == '[') {
    if (!pending_.empty()) {
      start_or_append_record(line, false);
      return true;
    }
    // JDK 6 G1: a concurrent phase cut in right after the "[" of the detail block's heap line, whose
    // figures then start the next line: "   [[GC concurrent-mark-start]" + " 7399M->4700M(10240M)]".
    if (starts_with(t, "[[GC concurrent-")) {
      size_t end = match_bracket(t, 1);
      if (end != std::string_view::npos && text::trim(t.substr(end)).empty()) {
        handle_standalone(t.substr(1, end - 1), Stamp{}, line);
        g1_heap_line_cut_ = open_;
        return true;
      }
    }
    attach_detail(t);
    return true;
  }
  if (!t.empty() && t[0] == '(' && !pending_.empty()) {  // " (concurrent mode failure)" continuation
    start_or_append_record(line, false);
    return true;
  }
  return t.empty();
}

// A line after its optional time stamps: a record (started, continued or cut into), a standalone line
// (concurrent phase, safepoint, application time), a G1 detail line, or a header/unparsed line.
void LegacyGcLogParser::take_stamped_line(std::string_view line, const Markers& mk, int depth_guard) {
  decorations::Legacy pre;
  size_t body = decorations::read_legacy(line, 0, pre);
  note_uptime(pre.uptime_s);
  std::string_view rest = line.substr(body);

  // Records of their own cut into the middle of this line (CMS/G1 concurrent phases) are taken out first.
  if ((mk.g1_ergonomics != Markers::npos || mk.cms_concurrent != Markers::npos || mk.gc_concurrent != Markers::npos) &&
      extract_inline(line, depth_guard))
    return;

  const Stamp& st = pre;
  if (!rest.empty() && rest[0] == '[') {
    if (is_record_start(rest)) {
      if (starts_with(rest, "[GC concurrent-")) {
        handle_standalone(rest, st, line);
        return;
      }
      start_or_append_record(line, true);
      return;
    }
    if (handle_standalone(rest, st, line)) return;
    if (!pending_.empty()) {
      start_or_append_record(line, false);
      return;
    }
    // A G1 detail line whose indentation was trimmed away ("[Eden: …]", "[GC Worker Start (ms): …]")
    // belongs to the open G1 pause; anything else in brackets is not a legacy record.
    if (body == 0 && (open_g1_pause() || starts_with(rest, "[Times:") || starts_with(rest, "[Eden: "))) {
      attach_detail(rest);
      return;
    }
  } else {
    // The stamp of a record cut into the previous line, then G1's indented detail line of the open pause:
    // "371.856:    [Parallel Time: 268.0 ms]".
    if (body > 0 && open_ && pending_.empty() && !rest.empty() && (rest[0] == ' ' || rest[0] == '\t')) {
      std::string_view t = text::trim_left(rest);
      if (!t.empty() && t[0] == '[' && !is_record_start(t)) {
        attach_detail(t);
        return;
      }
    }
    if (handle_standalone(rest, st, line)) return;
    if (!pending_.empty()) {
      start_or_append_record(line, false);
      return;
    }
    if (take_record_after_text(line, depth_guard)) return;
  }
  note_header(line);
}

// Application output with a GC record appended to it: "...some text1.234: [GC ...": the text is unparsed,
// the record processed.
bool LegacyGcLogParser::take_record_after_text(std::string_view line, int depth_guard) {
  size_t gc = line.find(": [GC");
  if (gc == std::string_view::npos) gc = line.find(": [Full GC");
  if (gc == std::string_view::npos) return false;
  size_t start = decorations::legacy_start_before(line, gc + 2);
  if (start == 0 || start >= line.size()) return false;
  sink_->on_unparsed(member_, line_no_, line.substr(0, start));
  ++stats_.unparsed;
  process(line.substr(start), depth_guard + 1);
  return true;
}

// Takes "[CMS-concurrent-…]" / "[GC concurrent-…]" records (with their timestamp prefix and an optional
// " [Times: …]") out of the middle of a line, handles them, and processes what is left as the line.
bool LegacyGcLogParser::extract_inline(std::string_view line, int depth_guard) {
  // -XX:+PrintAdaptiveSizePolicy: G1 prints "[G1Ergonomics …" inside the pause record, sometimes with the
  // bracket closed only on a later line.
  if (size_t at = line.find("[G1Ergonomics"); at != std::string_view::npos) {
    size_t start = decorations::legacy_start_before(line, at);
    if (start > 0) {
      ev_.adaptive = true;
      size_t end = match_bracket(line, at);
      std::string outer(line.substr(0, start));
      if (end != std::string_view::npos) outer.append(line.substr(end));
      ++stats_.extracted_inline_records;
      process(outer, depth_guard + 1);
      return true;
    }
  }
  static const std::string_view kMarkers[] = {"[CMS-concurrent-", "[GC concurrent-"};
  for (std::string_view marker : kMarkers) {
    size_t at = line.find(marker);
    if (at == std::string_view::npos) continue;
    size_t start = decorations::legacy_start_before(line, at);
    if (start == 0) {
      // The line begins with the concurrent record: anything after it is another record (or a continuation).
      size_t end = match_bracket(line, at);
      if (end == std::string_view::npos) return false;
      size_t after = end;
      size_t t = line.find("[Times:", after);
      if (t != std::string_view::npos && text::trim(line.substr(after, t - after)).empty()) {
        size_t te = match_bracket(line, t);
        if (te != std::string_view::npos) after = te;
      }
      std::string_view tail = line.substr(after);
      if (text::trim(tail).empty()) return false;  // an ordinary standalone line
      ++stats_.extracted_inline_records;
      // Copy: processing the head may reuse scratch buffers.
      std::string tail_copy(tail);
      process(line.substr(0, after), depth_guard + 1);
      process(text::trim_left(std::string_view(tail_copy)), depth_guard + 1);
      return true;
    }
    size_t end = match_bracket(line, at);
    if (end == std::string_view::npos) continue;
    size_t after = end;
    size_t t = line.find("[Times:", after);
    if (t != std::string_view::npos && text::trim(line.substr(after, t - after)).empty()) {
      size_t te = match_bracket(line, t);
      if (te != std::string_view::npos) after = te;
    }
    ++stats_.extracted_inline_records;
    std::string inner(line.substr(start, after - start));
    std::string outer;
    outer.reserve(line.size() - (after - start));
    outer.append(line.substr(0, start));
    std::string_view tail = line.substr(after);
    // A trailing space printed after the inner record belongs to it, not to the outer record.
    while (!tail.empty() && tail[0] == ' ' && (outer.empty() || outer.back() != ' ')) tail.remove_prefix(1);
    outer.append(tail);
    process(inner, depth_guard + 1);
    process(outer, depth_guard + 1);
    return true;
  }
  return false;
}

bool LegacyGcLogParser::handle_standalone(std::string_view rest, const Stamp& st, std::string_view line) {
  if (rest.empty()) return false;
  if (rest[0] == '[') {
    if (starts_with(rest, "[CMS-concurrent-") || starts_with(rest, "[GC concurrent-")) {
      parse_concurrent(rest, st);
      return true;
    }
    if (starts_with(rest, "[Preclean ")) {  // CMS preclean reference processing (-XX:+PrintReferenceGC)
      ev_.reference = true;
      return true;
    }
    if (starts_with(rest, "[G1Ergonomics")) {
      ev_.adaptive = true;
      return true;
    }
    return false;
  }
  static constexpr std::string_view kStopped = "Total time for which application threads were stopped: ";
  if (rest[0] == 'T' && starts_with(rest, kStopped)) {
    ev_.stopped = true;
    SafepointEvent sp;
    sp.uptime_s = st.uptime_s;
    sp.wall_epoch_ms = st.wall_ms;
    size_t p = kStopped.size();
    double v;
    if (log_decimal(rest, p, v)) sp.stopped_s = v;
    size_t s = rest.find("Stopping threads took: ", p);
    if (s != std::string_view::npos) {
      p = s + 23;
      if (log_decimal(rest, p, v)) sp.reaching_s = v;
    }
    // The line is printed when the safepoint ends: its start is the stamp minus the stopped time (as the
    // unified parser does, and garbagecat's timestamps).
    if (sp.stopped_s == sp.stopped_s) {
      if (sp.uptime_s == sp.uptime_s) sp.uptime_s -= sp.stopped_s;
      if (sp.wall_epoch_ms == sp.wall_epoch_ms) sp.wall_epoch_ms -= sp.stopped_s * 1000.0;
    }
    sp.line = line_no_;
    sp.member = member_;
    sink_->on_safepoint(sp);
    ++stats_.safepoints;
    return true;
  }
  if (rest[0] == 'A' && starts_with(rest, "Application time: ")) {
    ev_.concurrent_time = true;
    size_t p = 18;
    double v;
    if (log_decimal(rest, p, v)) sink_->on_application_time(member_, st.uptime_s, v);
    return true;
  }
  (void)line;
  return false;
}

// A concurrent phase's record ("[CMS-concurrent-mark: 2.497/2.538 secs]", "[GC concurrent-mark-end,
// 0.0116 secs]"): an event at its end; the "-start" records only announce it.
void LegacyGcLogParser::parse_concurrent(std::string_view body, const Stamp& st) {
  size_t end = match_bracket(body, 0);
  std::string_view rec = end == std::string_view::npos ? body : body.substr(0, end);
  GcEvent e;
  e.stop_the_world = false;
  e.uptime_s = st.uptime_s;
  e.wall_epoch_ms = st.wall_ms;
  e.first_line = line_no_;
  e.member = member_;
  const bool typed = starts_with(rec, "[CMS-concurrent-") ? type_cms_concurrent(rec, e) : type_g1_concurrent(rec, e);
  if (!typed) return;
  parse_times(body, e);
  emit(e);
}

void LegacyGcLogParser::start_or_append_record(std::string_view line, bool starts_record) {
  if (starts_record) {
    if (pending_.empty() && parse_record(line, line_no_, /*only_if_complete=*/true)) return;  // the common case
    bool complete = bracket_balance(line) == 0;
    // A complete record inside an open one is a collection of its own printed in the middle of the other
    // (CMSScavengeBeforeRemark prints the ParNew inside "[GC[YG occupancy: …]"): keep the open record. A
    // record that stays open across several complete ones was cut off: give up on it.
    if (!pending_.empty() && !complete && outer_pending_.empty() && contains(pending_, "YG occupancy")) {
      // The scavenge before a CMS remark, itself split (by a tenuring table): finish it first, then resume
      // the remark record.
      outer_pending_.swap(pending_);
      outer_pending_line_ = pending_line_;
    } else if (!pending_.empty() && (!complete || ++records_inside_pending_ > 2)) {
      flush_pending_as_is();
    }
    if (complete) {
      parse_record(line, line_no_, false);
      return;
    }
    records_inside_pending_ = 0;
    pending_.assign(line);
    pending_line_ = line_no_;
    pending_lines_ = 1;
    return;
  }
  if (pending_.empty()) {
    note_header(line);
    return;
  }
  pending_.append(line);
  ++pending_lines_;
  if (bracket_balance(pending_) == 0) {
    ++stats_.stitched_records;
    std::string rec;
    rec.swap(pending_);
    parse_record(rec, pending_line_, false);
    pending_.clear();
    pending_lines_ = 0;
    if (!outer_pending_.empty()) {
      pending_.swap(outer_pending_);
      pending_line_ = outer_pending_line_;
      pending_lines_ = 1;
      records_inside_pending_ = 0;
    }
    return;
  }
  if (pending_.size() > kMaxPendingBytes || pending_lines_ > kMaxPendingLines) flush_pending_as_is();
}

void LegacyGcLogParser::flush_pending_as_is() {
  if (pending_.empty() && !outer_pending_.empty()) {
    pending_.swap(outer_pending_);
    pending_line_ = outer_pending_line_;
  }
  if (pending_.empty()) return;
  // A record that never balanced (log cut off, or a line lost): parse what is there, it usually still has
  // the collection's type, heap sizes and often its pause.
  std::string rec;
  rec.swap(pending_);
  pending_lines_ = 0;
  rec.append(std::string(static_cast<size_t>(bracket_balance(rec)), ']'));
  parse_record(rec, pending_line_, false);
}

void LegacyGcLogParser::flush_tenuring() {
  if (!tenuring_open_) return;
  tenuring_open_ = false;
  sink_->on_tenuring(tenuring_);
  ++stats_.tenuring_records;
}

void LegacyGcLogParser::emit(const GcEvent& e) {
  // A record is printed when its pause has ended, stamped with the pause's start: the log covers the
  // run up to the end of its last pause. (Rounded to the 0.1 µs the logs print, so that the sum reads as
  // the decimal it is.)
  if (e.stop_the_world && !std::isnan(e.uptime_s) && !std::isnan(e.duration_s))
    note_uptime(std::round((e.uptime_s + e.duration_s) * 1e7) / 1e7);
  sink_->on_event(e);
  ++stats_.events;
}

void LegacyGcLogParser::flush_open() {
  if (!open_) return;
  open_ = false;
  open_event_.cause = open_cause_;
  if (!open_phase_name_.empty()) {
    open_event_.phases.clear();
    open_event_.phases.emplace_back(open_phase_name_, open_event_.duration_s);
  }
  emit(open_event_);
  open_phase_name_.clear();
}

void LegacyGcLogParser::finish() {
  flush_tenuring();
  if (pending_.empty() && !outer_pending_.empty()) {
    pending_.swap(outer_pending_);
    pending_line_ = outer_pending_line_;
  }
  if (!pending_.empty()) {
    // The log ends inside a record (the JVM was killed, or the file was cut while being written): without
    // its pause time it is not a collection we can report, so it is listed as unparsed, like GCToolKit.
    sink_->on_unparsed(member_, pending_line_, pending_);
    ++stats_.unparsed;
    pending_.clear();
  }
  flush_open();
  decide_diary();
}

}  // namespace gcscope::jvm
