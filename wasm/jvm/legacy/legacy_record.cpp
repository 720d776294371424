// A legacy record: one walk over its brackets, its keyword and cause, each sub-record, its type per
// collector family (the families' files hold what their sub-records and records mean), the records
// nested in it.
#include <new>
#include <optional>
#include <string>

#include "core/text_scan.h"
#include "jvm/decorations.h"
#include "jvm/legacy/legacy_parser.h"
#include "jvm/legacy/legacy_scan.h"

namespace gcscope::jvm {

using namespace legacy_scan;
using text::contains;
using text::is_digit;
using text::starts_with;

// The bracket structure of one record, from one walk over it.
struct LegacyGcLogParser::RecordShape {
  struct Sub {
    size_t begin, end;
  };
  Sub subs[24];  // the depth-2 brackets (sub-records), the first 24
  int nsubs = 0;
  int max_depth = 0;
  size_t flat_len = 0;                  // the depth-1 text, in flat_
  size_t end = std::string_view::npos;  // one past the record's closing ']'
  std::string_view sub(std::string_view rec, int i) const {
    return rec.substr(subs[i].begin, subs[i].end - subs[i].begin);
  }
};

// One walk over rec's brackets: the depth-1 text goes to flat_, depth-2 brackets are the sub-records.
// False when the record is refused: with plain_only, a marker that the line-level cases handle first; with
// only_if_complete, brackets that do not balance.
bool LegacyGcLogParser::walk_record(std::string_view rec, bool only_if_complete, bool plain_only, RecordShape& s) {
  // flat_ holds at most the record's bytes.
  if (flat_.size() < rec.size()) flat_.resize(rec.size() + 256);
  char* const flat_out = flat_.data();
  size_t flat_len = 0;
  const auto flat_append = [&](const char* from, size_t n) {
    copy_bytes(flat_out + flat_len, from, n);
    flat_len += n;
  };
  size_t stack[kMaxDepth];
  int depth = 0;
  size_t seg = 0;  // start of the current depth-1 text segment
  const char* data = rec.data();
  const char* const rec_stop = data + rec.size();
  // One pass finds the brackets and, for plain_only, the '{'/'H' of a heap block cut into the record (the
  // line-level cases handle those, so the line goes there: "{Heap before", "Heap after "); '[' and ']'
  // markers of the other line-level cases are checked as they come.
  ByteHits<'[', ']', '{', 'H'> hits(data, rec_stop);
  for (const char* hit = hits.next(); hit; hit = hits.next()) {
    const size_t i = static_cast<size_t>(hit - data);
    const char next = i + 1 < rec.size() ? data[i + 1] : 0;
    const char c = *hit;
    if (c == '[') {
      if (plain_only && (next == 'C' || next == 'G' || next == 'A') &&
          (at(rec, i, "[CMS-concurrent-") || at(rec, i, "[Class Histogram") || at(rec, i, "[GC concurrent-") ||
           at(rec, i, "[G1Ergonomics") || at(rec, i, "[GC TLAB: gc thread") || at(rec, i, "[ASCMS-concurrent-")))
        return false;
      if (depth == 1) flat_append(data + seg, i - seg);
      if (depth < kMaxDepth) stack[depth] = i;
      ++depth;
      if (depth > s.max_depth) s.max_depth = depth;
      if (depth == 1) seg = i + 1;
      continue;
    }
    if (c == '{') {
      if (plain_only && at(rec, i, "{Heap before")) return false;
      continue;
    }
    if (c == 'H') {
      if (plain_only && at(rec, i, "Heap after ")) return false;
      continue;
    }
    if (plain_only && next == 'C' && at(rec, i + 1, "CMSCollector shouldConcurrentCollect: ")) return false;
    if (depth == 0) continue;  // a stray ']' before the record
    if (depth == 2 && s.nsubs < 24) s.subs[s.nsubs++] = {stack[1] + 1, i};
    --depth;
    if (depth == 1) seg = i + 1;
    if (depth == 0) {
      flat_append(data + seg, i - seg);
      s.end = i + 1;
      break;
    }
  }
  if (plain_only && s.end != std::string_view::npos) {
    // The walk stopped at the record's end: the rest of the line may still hold a heap block.
    // (The same hits, continued past the record's end; its brackets do not matter there.)
    for (const char* hit = hits.next(); hit; hit = hits.next()) {
      if (*hit != '{' && *hit != 'H') continue;
      const size_t i = static_cast<size_t>(hit - data);
      if (*hit == '{' ? at(rec, i, "{Heap before") : at(rec, i, "Heap after ")) return false;
    }
  }
  if (s.end == std::string_view::npos) {
    if (only_if_complete) return false;
    if (depth == 1) flat_append(data + seg, rec.size() - seg);
    s.end = rec.size();
  }
  s.flat_len = flat_len;
  return true;
}

// The keyword ("GC", "GC--", "Full GC", "GC pause") and the parenthesised groups right after it: the cause
// (into open_cause_) and, for G1, the pause kind. Sets f.full, f.g1_pause, the G1 modifiers and
// f.tail_of_head (the depth-1 text after them, where the heap figures are).
void LegacyGcLogParser::read_record_head(RecordFacts& f, GcEvent& e) {
  std::string_view flat = f.flat;
  const char f0 = flat.empty() ? '\0' : flat[0];
  f.full = f0 == 'F' && starts_with(flat, "Full GC");
  // Parallel Scavenge (JDK <= 7) marks a scavenge whose survivors did not fit with "GC--".
  const bool gc_dash = f0 == 'G' && flat.size() > 3 && flat[2] == '-' && flat[3] == '-';
  if (gc_dash) e.flags |= kPromotionFailed;
  f.g1_pause = f0 == 'G' && flat.size() > 3 && flat[3] == 'p' && starts_with(flat, "GC pause");
  std::string_view after_kw =
      flat.substr(std::min(flat.size(), static_cast<size_t>(f.full ? 7 : (f.g1_pause ? 8 : (gc_dash ? 4 : 2)))));
  size_t p = text::skip_ws(after_kw, 0);
  while (p < after_kw.size() && after_kw[p] == '(') {
    int pd = 0;
    size_t q = p;
    for (; q < after_kw.size(); ++q) {
      if (after_kw[q] == '(') ++pd;
      else if (after_kw[q] == ')' && --pd == 0) break;
    }
    if (q >= after_kw.size()) break;
    std::string_view group = after_kw.substr(p + 1, q - p - 1);
    if (group == "young") {
      // the default G1 pause kind
    } else if (group == "mixed" || group == "partial") f.mixed_mod = true;
    else if (group == "initial-mark") f.initial_mark_mod = true;
    else if (group == "to-space exhausted" || group == "to-space overflow")
      e.flags |= kToSpaceExhausted | kEvacuationFailure;
    else if (open_cause_.empty()) open_cause_.assign(group);
    p = text::skip_ws(after_kw, q + 1);
  }
  f.cause = open_cause_;
  if (!f.cause.empty()) {
    if (f.cause == "System") ev_.system_pre740 = true;
    else ev_.cause = true;
    if (f.cause == "GCLocker Initiated GC") e.flags |= kGcLocker;
    if (f.cause == "G1 Humongous Allocation") e.flags |= kHumongousAllocation;
  }
  f.tail_of_head = flat.substr(std::min(flat.size(), static_cast<size_t>(after_kw.data() - flat.data()) + p));
}

// One depth-2 sub-record: a pool (legacy_cms.cpp, legacy_generational.cpp), a CMS mark, reference
// processing or a remark phase.
void LegacyGcLogParser::read_sub_record(std::string_view sub, RecordFacts& f, GcEvent& e) {
  // JDK 6 CMS with -XX:+UseAdaptiveSizePolicy: "[ASParNew: …]", "[ASCMS: …]", "[1 ASCMS-initial-mark: …]".
  if (sub.size() > 2 && sub[0] == 'A' && sub[1] == 'S') sub.remove_prefix(2);
  else if (starts_with(sub, "1 ASCMS-")) sub.remove_prefix(4);
  if (!read_cms_sub(sub, f, e) && !read_generational_sub(sub, f, e) &&
      (starts_with(sub, "SoftReference") || starts_with(sub, "WeakReference") || starts_with(sub, "FinalReference") ||
       starts_with(sub, "PhantomReference") || starts_with(sub, "JNI Weak Reference"))) {
    ev_.reference = true;
  }
  // Anything else ("GC ref-proc", CMS/G1 remark phases such as "Rescan", "weak refs processing",
  // "class unloading", "scrub symbol table") carries nothing the report uses.
  if (f.rare && contains(sub, "icms_dc=")) ev_.icms = true;
}

// A record with neither a G1 pause keyword nor a pool, CMS mark or full-collection keyword: a collection
// logged without -XX:+PrintGCDetails, or a G1 remark/cleanup.
void LegacyGcLogParser::type_without_details(const RecordFacts& f, GcEvent& e) {
  if (type_g1_without_details(f, e) || type_cms_without_details(f, e)) return;
  e.type = GcType::Young;
  ev_.young_no_details = true;
}

// The event's type, from the keyword and the sub-records (per collector family).
void LegacyGcLogParser::classify_record(const RecordFacts& f, GcEvent& e) {
  using Young = RecordFacts::Young;
  if (!f.g1_pause && !f.full && f.young == Young::kNone && !f.initial_mark && !f.remark && !f.old_pool) {
    type_without_details(f, e);
  } else if (f.g1_pause) {
    type_g1_pause(f, e);
  } else if (f.young == Young::kParNew && f.cms_old && !f.full) {
    split_parnew_cms(f, e);
  } else if (f.cmf) {
    e.type = GcType::ConcurrentModeFailure;
  } else if (f.cmi) {
    e.type = GcType::ConcurrentModeInterrupted;
  } else if (f.initial_mark) {
    e.type = GcType::InitialMark;
  } else if (f.remark) {
    e.type = GcType::Remark;
  } else if (f.full) {
    type_full(f, e);
  } else if (f.young == Young::kParNew) {
    e.type = (e.flags & kPromotionFailed) ? GcType::ParNewPromotionFailed : GcType::ParNew;
  } else if (f.young == Young::kDefNew) {
    e.type = GcType::DefNew;
  } else if (f.young == Young::kPS) {
    e.type = GcType::PSYoungGen;
  } else {
    e.type = GcType::FullGC;  // "[GC [CMS: …]" without a young pool: an old collection
  }
  if (f.young != Young::kNone || f.old_pool || f.g1_pause || f.initial_mark || f.remark) ev_.details = true;
  if (f.young != Young::kNone && f.cause.empty() && !f.full) ev_.generational_without_cause = true;
}

// Records nested in this one (-XX:+CMSScavengeBeforeRemark prints a whole "[GC … [ParNew: …] …]" inside
// the remark record) are collections of their own, parsed after it while it stays open.
void LegacyGcLogParser::parse_nested_records(std::string_view rec, const RecordShape& s, uint64_t first_line) {
  std::string nested;
  for (int i = 0; i < s.nsubs; ++i) {
    std::string_view sub = s.sub(rec, i);
    if ((starts_with(sub, "GC ") || starts_with(sub, "GC (") || starts_with(sub, "GC[")) &&
        !starts_with(sub, "GC ref-proc") && !starts_with(sub, "GC concurrent") &&
        (contains(sub, "[ParNew") || contains(sub, "[DefNew") || contains(sub, "[PSYoungGen"))) {
      nested.append("[").append(sub).append("]\n");
    }
  }
  std::string_view all(nested);
  size_t start = 0;
  while (start < all.size()) {
    size_t nl = all.find('\n', start);
    std::string_view one = all.substr(start, nl - start);
    nested_ = true;
    parse_record(one, first_line, false);
    nested_ = false;
    start = nl + 1;
  }
}

// Parses one complete (bracket-balanced) GC record.
bool LegacyGcLogParser::parse_record(std::string_view text, uint64_t first_line, bool only_if_complete,
                                     bool plain_only) {
  decorations::Legacy pre;
  size_t open_at = decorations::read_legacy(text, 0, pre);
  note_uptime(pre.uptime_s);
  if (open_at >= text.size() || text[open_at] != '[' || (plain_only && !is_record_start(text.substr(open_at)))) {
    if (only_if_complete) return false;
    if (!nested_) flush_open();
    sink_->on_unparsed(member_, first_line, text);
    ++stats_.unparsed;
    return true;
  }
  std::string_view rec = text.substr(open_at);
  RecordShape shape;
  if (!walk_record(rec, only_if_complete, plain_only, shape)) return false;
  if (!nested_) flush_open();
  RecordFacts f;
  f.flat = std::string_view(flat_.data(), shape.flat_len);
  f.whole = rec.substr(0, shape.end);
  std::string_view trailer = rec.substr(shape.end);

  if ((starts_with(f.flat, "Pause ")) || (starts_with(f.flat, "Concurrent ")))
    return parse_shenandoah(f.flat, pre.uptime_s, pre.wall_ms, first_line);

  // The event is built where it stays open (open_event_, flushed above) rather than moved there at the
  // end: a move is a copy of its ~300 bytes, one more memcpy per collection. A record nested in another
  // is an event of its own (the outer one stays open while its nested records are parsed).
  std::optional<GcEvent> nested_event;
  GcEvent* built = &open_event_;
  if (nested_) {
    built = &nested_event.emplace();
  } else {
    open_event_.~GcEvent();
    ::new (&open_event_) GcEvent();
  }
  GcEvent& e = *built;
  e.uptime_s = pre.uptime_s;
  e.wall_epoch_ms = pre.wall_ms;
  e.first_line = first_line;
  e.member = member_;
  open_cause_.clear();
  if (gc_locker_pending_ && !nested_) {
    e.flags |= kGcLocker;
    gc_locker_pending_ = false;
  }
  read_record_head(f, e);

  // Rare markers, looked for only where they can be: "icms_dc=" sits at depth 1, reference processing is
  // nested (depth >= 2), the GC overhead message follows a full collection's pools.
  // One pass over the record rules most of them out: each contains a byte that a plain ParNew/DefNew/
  // PSYoungGen record does not ('=' of "icms_dc=", 'p' of "promotion failed", 'm' of "concurrent mode",
  // 'f' of "[SoftReference"), and flat and the sub-records are made of the record's bytes.
  f.rare = has_any<'=', 'p', 'm', 'f'>(f.whole.data(), f.whole.data() + f.whole.size());
  if (f.rare && f.flat.find("icms_dc=") != std::string_view::npos) ev_.icms = true;
  if (f.rare && shape.max_depth >= 2 && !ev_.reference && contains(f.whole, "[SoftReference")) ev_.reference = true;
  if (f.full &&
      (contains(f.flat, "GC time would exceed GCTimeLimit") || contains(f.flat, "GC time is exceeding GCTimeLimit")))
    e.flags |= kGcOverheadLimit;
  if (f.g1_pause && (contains(f.whole, "(to-space exhausted)") || contains(f.whole, "(to-space overflow)")))
    e.flags |= kToSpaceExhausted | kEvacuationFailure;

  for (int i = 0; i < shape.nsubs; ++i) read_sub_record(shape.sub(rec, i), f, e);
  // An "[1 CMS-remark" may sit deeper than depth 2 (JDK 8 "[GC (CMS Final Remark) [YG occupancy…]…[1 CMS-remark…]").
  if (shape.max_depth >= 3 && !f.remark && contains(f.whole, "CMS-remark")) f.remark = true, ev_.cms = true;
  if (shape.max_depth >= 3 && !f.initial_mark && contains(f.whole, "CMS-initial-mark"))
    f.initial_mark = true, ev_.cms = true;

  // The heap figures and the pause at depth 1 (a truncated record may have no pause).
  find_transition(f.tail_of_head, e.heap);
  e.duration_s = last_secs(f.flat);
  parse_times(trailer, e);

  // CMS prints its failure inside the CMS bracket ("[CMS (concurrent mode failure): …]"), or at depth 1 when a
  // concurrent phase cut the bracket open.
  if (f.rare && (f.cms_old || (f.full && shape.nsubs == 0) || contains(f.flat, "(concurrent mode"))) {
    f.cmf = contains(f.whole, "concurrent mode failure");
    f.cmi = contains(f.whole, "concurrent mode interrupted");
  }
  if (f.cmf) e.flags |= kConcurrentModeFailure;
  classify_record(f, e);

  if (!nested_) open_ = true;  // e is open_event_
  parse_nested_records(rec, shape, first_line);
  if (nested_) {
    e.cause = open_cause_;
    emit(e);
    return true;
  }

  // Anything after the record on the same line that is not its [Times:] is a record of its own.
  std::string_view rest = text::trim_left(trailer);
  if (starts_with(rest, "[Times:")) {
    size_t te = match_bracket(rest, 0);
    rest = te == std::string_view::npos ? std::string_view() : text::trim_left(rest.substr(te));
  }
  if (!rest.empty()) {
    std::string copy(rest);
    process(copy, 1);
  }
  return true;
}

}  // namespace gcscope::jvm
