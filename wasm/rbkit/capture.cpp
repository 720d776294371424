#include "rbkit/capture.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gcscope::rbkit {

const char* event_type_name(int type) {
  static const char* const kNames[kEventTypeCount] = {
      "obj_created",       "obj_destroyed", "gc_start",         "gc_end_m",  "gc_end_s",
      "object_space_dump", "gc_stats",      "event_collection", "handshake", "cpu_sample"};
  return type >= 0 && type < kEventTypeCount ? kNames[type] : "unknown";
}

namespace {
const char* token_kind_name(const Token& t) {
  switch (t.kind) {
    case Tok::Nil: return "nil";
    case Tok::False:
    case Tok::True: return "a boolean";
    case Tok::UInt: return "an unsigned integer";
    case Tok::NegInt: return "a negative integer";
    case Tok::Float: return "a float";
    case Tok::Str: return "a string";
    case Tok::Bin: return "a bin";
    case Tok::Ext: return "an ext value";
    case Tok::Array: return "an array";
    case Tok::Map: return "a map";
    case Tok::Unused: return "byte 0xC1";
  }
  return "?";
}

nlohmann::json scalar_json(const Token& t) {
  switch (t.kind) {
    case Tok::Nil: return nullptr;
    case Tok::False: return false;
    case Tok::True: return true;
    case Tok::UInt: return t.u <= (uint64_t(1) << 53) ? nlohmann::json(t.u) : nlohmann::json(std::to_string(t.u));
    case Tok::NegInt: return t.i >= -(int64_t(1) << 53) ? nlohmann::json(t.i) : nlohmann::json(std::to_string(t.i));
    case Tok::Float: return std::isfinite(t.f) ? nlohmann::json(t.f) : nlohmann::json(nullptr);
    case Tok::Str:
    case Tok::Bin: return utf8::repaired(t.bytes);
    default: return nullptr;
  }
}
}  // namespace

CaptureDecoder::CaptureDecoder(Complaints& complaints) : complaints_(complaints), stream_(*this) {
  stack_.reserve(kMaxDepth);
}

// ---- Token dispatch ---------------------------------------------------------------------------

void CaptureDecoder::feed(const char* data, size_t len) { stream_.feed(data, len); }

void CaptureDecoder::on_token(const Token& t) {
  bytes_seen_ = t.offset + 1;
  if (t.kind == Tok::Unused) {
    structural_error(t.offset, "byte 0xC1 at offset " + std::to_string(t.offset) +
                                   " is never used by msgpack; expected the start of a value");
    return;
  }
  if (stack_.empty()) {
    begin_top(t);
    return;
  }
  Frame& f = stack_.back();
  if (f.is_map && f.want_key) on_key(f, t);
  else on_value(f, t);
}

void CaptureDecoder::begin_top(const Token& t) {
  top_offset_ = t.offset;
  if (t.kind == Tok::Map) {
    ev_[0] = EventScratch{};
    ev_[0].offset = t.offset;
    kv_.clear();
    if (t.u == 0) {
      ++messages_;
      reject(ev_[0], 0, "empty map");
      return;
    }
    push(Role::Message, t, 0);
    return;
  }
  ++rejected_messages_;
  reason_scratch_.assign("top-level value is ").append(token_kind_name(t)).append(", not a map");
  rejection_reasons_[reason_scratch_]++;
  complaints_.complain(false, "rejected", t.offset,
                       !complaints_.listing("rejected")
                           ? std::string()
                           : std::string("top-level value at offset ") + std::to_string(t.offset) + " is " +
                                 token_kind_name(t) + ", expected an rbkit message (a map with integer keys); skipped");
  if (is_container(t) && t.u > 0) {
    push(Role::Skip, t, 0);
  } else {
    ++messages_;
  }
}

bool CaptureDecoder::push(Role role, const Token& t, uint8_t level) {
  if (stack_.size() >= kMaxDepth) {
    structural_error(t.offset, "nesting deeper than " + std::to_string(kMaxDepth) + " levels at offset " +
                                   std::to_string(t.offset) +
                                   " (rbkit messages nest at most 6 levels); the message is rejected");
    return false;
  }
  Frame f;
  f.role = role;
  f.is_map = t.kind == Tok::Map;
  f.want_key = f.is_map;
  f.level = level;
  f.left = f.is_map ? t.u * 2 : t.u;
  f.key = kKeyOther;
  stack_.push_back(f);
  if (f.left == 0) {  // empty container: complete at once
    Frame done = stack_.back();
    stack_.pop_back();
    close(done);
    if (!stack_.empty()) item_done();
  }
  return true;
}

void CaptureDecoder::on_key(Frame& f, const Token& t) {
  if (t.kind == Tok::UInt) f.key = t.u <= INT64_MAX ? static_cast<int64_t>(t.u) : kKeyOther;
  else if (t.kind == Tok::NegInt) f.key = t.i == INT64_MIN ? kKeyOther : t.i;
  else if (t.kind == Tok::Str || t.kind == Tok::Bin) {
    f.key = kKeyString;
    if (f.role == Role::Payload) strkey_.assign(t.bytes.data(), t.bytes.size());
    if (f.role == Role::Message || f.role == Role::Event) ev_[f.level].string_keys = true;
  } else {
    f.key = kKeyOther;
  }
  if (is_container(t) && t.u > 0) {
    push(Role::Skip, t, f.level);
    return;
  }
  item_done();
}

void CaptureDecoder::on_value(Frame& f, const Token& t) {
  switch (f.role) {
    case Role::Message:
    case Role::Event: event_value(f, ev_[f.level], t); return;
    case Role::Payload: payload_value(f, ev_[f.level], t); return;
    case Role::DumpObject: dump_object_value(f, t); return;
    case Role::Frame: cpu_frame_value(f, t); return;
    case Role::Events: {
      EventScratch& e = ev_[1];
      ++ev_[0].nested_seen;
      if (t.kind == Tok::Map) {
        e = EventScratch{};
        e.offset = t.offset;
        if (t.u == 0) {
          reject(e, 1, "empty map");
          item_done();
          return;
        }
        push(Role::Event, t, 1);
        return;
      }
      ++rejected_events_;
      reason_scratch_.assign("event is ").append(token_kind_name(t)).append(", not a map");
      rejection_reasons_[reason_scratch_]++;
      complaints_.complain(false, "rejected", t.offset,
                           !complaints_.listing("rejected")
                               ? std::string()
                               : std::string("event at offset ") + std::to_string(t.offset) + " is " +
                                     token_kind_name(t) + ", expected a map; skipped");
      if (is_container(t) && t.u > 0) push(Role::Skip, t, f.level);
      else item_done();
      return;
    }
    case Role::Dump: {
      if (t.kind == Tok::Map) {
        obj_ = DumpObjectScratch{};
        obj_.obj.ref_begin = static_cast<uint32_t>(staging_refs_.size());
        if (t.u == 0) {
          ++staging_invalid_;
          item_done();
          return;
        }
        push(Role::DumpObject, t, f.level);
        return;
      }
      ++staging_invalid_;
      if (is_container(t) && t.u > 0) push(Role::Skip, t, f.level);
      else item_done();
      return;
    }
    case Role::Refs: {
      if (t.kind == Tok::UInt) {
        staging_refs_.push_back(t.u);
        ++obj_.obj.ref_count;
      } else {
        ++staging_invalid_refs_;
        if (is_container(t) && t.u > 0) {
          push(Role::Skip, t, f.level);
          return;
        }
      }
      item_done();
      return;
    }
    case Role::Frames: {
      if (t.kind == Tok::Map && t.u > 0) {
        cpu_frame_ = CpuFrameScratch{};
        push(Role::Frame, t, f.level);
        return;
      }
      if (is_container(t) && t.u > 0) push(Role::Skip, t, f.level);
      else item_done();
      return;
    }
    case Role::Skip:
      if (is_container(t) && t.u > 0) push(Role::Skip, t, f.level);
      else item_done();
      return;
  }
}

// Millisecond timestamps beyond year 33658 (or before 1970) are not clock readings; rejecting them
// also keeps the per-second binning within int64.
static bool plausible_ms(double ms) { return ms >= 0 && ms <= 1e15; }

bool CaptureDecoder::read_timestamp(const Token& t, EventScratch& e) {
  if (!read_timestamp_value(t, e)) return false;
  if (!plausible_ms(e.ts)) {
    e.ts_problem = "timestamp out of range (not milliseconds since 1970)";
    return false;
  }
  return true;
}

bool CaptureDecoder::read_timestamp_value(const Token& t, EventScratch& e) {
  switch (t.kind) {
    case Tok::Float:
      if (!std::isfinite(t.f)) {
        e.ts_problem = "timestamp is not a finite number";
        return false;
      }
      e.ts = normalize_ts(t.f);
      return true;
    case Tok::UInt: e.ts = normalize_ts(static_cast<double>(t.u)); return true;
    case Tok::NegInt: e.ts_problem = "timestamp is negative"; return false;
    case Tok::Ext:
      // msgpack's timestamp extension (type -1): 32-bit seconds, 30-bit ns + 34-bit s, or 32-bit ns + 64-bit s.
      if (t.ext_type == -1 && !t.clipped) {
        const auto* p = reinterpret_cast<const uint8_t*>(t.bytes.data());
        double sec = 0, ns = 0;
        if (t.bytes.size() == 4) {
          sec = load_be32(p);
        } else if (t.bytes.size() == 8) {
          uint64_t v = load_be64(p);
          ns = static_cast<double>(v >> 34);
          sec = static_cast<double>(v & ((uint64_t(1) << 34) - 1));
        } else if (t.bytes.size() == 12) {
          ns = load_be32(p);
          sec = static_cast<double>(static_cast<int64_t>(load_be64(p + 4)));
        } else {
          e.ts_problem = "timestamp ext(-1) of an invalid length";
          return false;
        }
        e.ts = sec * 1000.0 + ns / 1e6;
        ++ts_from_ext_;
        return true;
      }
      e.ts_problem = "timestamp is an ext value that is not msgpack's timestamp type (-1)";
      return false;
    case Tok::Str: e.ts_problem = "timestamp is a string (not converted into a time)"; return false;
    default: e.ts_problem = "timestamp is not a number"; return false;
  }
}

// Servers write wall-clock milliseconds; one legacy fixture has seconds (1.4e9). Values that read
// as a date between 1973 and 5138 only in seconds are taken as seconds.
double CaptureDecoder::normalize_ts(double ts) {
  if (ts >= 1e8 && ts < 1e11) {
    ++ts_in_seconds_;
    return ts * 1000.0;
  }
  return ts;
}

void CaptureDecoder::event_value(Frame& f, EventScratch& e, const Token& t) {
  const bool container = is_container(t) && t.u > 0;
  switch (f.key) {
    case 0:
      if (t.kind == Tok::UInt) {
        e.has_type = true;
        e.type = t.u <= 1000000 ? static_cast<int64_t>(t.u) : 1000000;
      } else if (t.kind == Tok::NegInt) {
        e.has_type = true;
        e.type = t.i < -1000000 ? -1000000 : t.i;
      } else {
        e.type_bad = true;
      }
      break;
    case 1:
      if (read_timestamp(t, e)) e.ts_state = 1;
      else e.ts_state = 2;
      break;
    case 2: {
      e.has_payload = true;
      if (!container) {
        if (!(is_container(t))) e.payload_problem = "payload is not a map or an array";
        else if (t.kind == Tok::Map) e.kv_begin = kv_.size();  // empty map
        break;
      }
      const int type = e.has_type ? static_cast<int>(e.type) : -1;
      if (t.kind == Tok::Array) {
        if (type == kEventCollection && f.level == 0) {
          push(Role::Events, t, 0);
          return;
        }
        if (type == kObjectSpaceDump) {
          staging_.clear();
          staging_refs_.clear();
          staging_invalid_ = staging_invalid_refs_ = 0;
          push(Role::Dump, t, f.level);
          return;
        }
        if (type == kCpuSample) {
          cpu_stack_.clear();
          push(Role::Frames, t, f.level);
          return;
        }
        if (type == kEventCollection) e.payload_problem = "event_collection nested inside an event_collection";
        else if (!e.has_type) e.payload_problem = "payload array before the event_type (rbkit writes event_type first)";
        else e.payload_problem = "payload is an array where this event type has a map";
      } else {
        if (!e.has_type || type == kObjCreated || type == kObjDestroyed || type == kGcStats || type == kHandshake) {
          e.kv_begin = kv_.size();
          push(Role::Payload, t, f.level);
          return;
        }
        e.payload_problem = "payload is a map where this event type has an array";
      }
      push(Role::Skip, t, f.level);
      return;
    }
    case 9:
      if (t.kind == Tok::UInt) e.has_counter = true, e.counter = t.u;
      else e.counter_bad = true;
      break;
    case 10:
      if (t.kind == Tok::UInt) e.has_corr = true, e.corr = t.u;
      else e.corr_bad = true;
      break;
    case 11:
      if (t.kind == Tok::UInt) e.has_total = true, e.total = t.u;
      else e.total_bad = true;
      break;
    default: break;  // other keys (a later protocol's fields) are tolerated
  }
  if (container) {
    if (f.key == 0) e.type_bad = true;
    push(Role::Skip, t, f.level);
    return;
  }
  item_done();
}

void CaptureDecoder::payload_value(Frame& f, EventScratch& e, const Token& t) {
  const bool container = is_container(t) && t.u > 0;
  if (f.key == 3) {
    if (t.kind == Tok::UInt) e.has_id = true, e.id = t.u;
    else e.id_bad = true;
  } else if (f.key == 4) {
    if (t.kind == Tok::Str || t.kind == Tok::Bin) e.cls = intern_class(t);
    else if (t.kind == Tok::Nil) e.cls = 0;
    else e.class_bad = true;
  } else if (f.key == kKeyString) {
    kv_.emplace_back(utf8::repaired(strkey_), container ? nlohmann::json(token_kind_name(t)) : scalar_json(t));
  }
  if (container) {
    push(Role::Skip, t, f.level);
    return;
  }
  item_done();
}

void CaptureDecoder::dump_object_value(Frame& f, const Token& t) {
  SnapshotObject& o = obj_.obj;
  switch (f.key) {
    case 3:
      if (t.kind == Tok::UInt) obj_.has_id = true, o.id = t.u;
      else obj_.bad = true;
      break;
    case 4:
      if (t.kind == Tok::Str || t.kind == Tok::Bin) o.cls = intern_class(t);
      else if (t.kind == Tok::Nil) o.cls = 0;
      else obj_.bad = true;
      break;
    case 5:
      if (t.kind == Tok::Array) {
        if (t.u > 0) {
          push(Role::Refs, t, f.level);
          return;
        }
      } else if (t.kind != Tok::Nil) {
        obj_.bad = true;
      }
      break;
    case 6:
      if (t.kind == Tok::Str || t.kind == Tok::Bin) o.file = files_.intern(t.bytes);
      break;
    case 7:
      if (t.kind == Tok::UInt) o.line = t.u;
      break;
    case 8:
      if (t.kind == Tok::UInt) o.size = t.u, o.size_nil = false;
      break;
    default: break;
  }
  if (is_container(t) && t.u > 0) {
    push(Role::Skip, t, f.level);
    return;
  }
  item_done();
}

void CaptureDecoder::cpu_frame_value(Frame& f, const Token& t) {
  const bool str = t.kind == Tok::Str || t.kind == Tok::Bin;
  switch (f.key) {
    case 12:
      if (str) cpu_frame_.method = labels_.intern(t.bytes);
      break;
    case 13:
      if (str) cpu_frame_.label = labels_.intern(t.bytes);
      break;
    case 6:
      if (str) cpu_frame_.file = files_.intern(t.bytes);
      break;
    case 7:
      if (t.kind == Tok::UInt) cpu_frame_.line = t.u;
      break;
    case 15:
      if (t.kind == Tok::UInt) cpu_frame_.thread = t.u;
      break;
    default: break;
  }
  if (is_container(t) && t.u > 0) {
    push(Role::Skip, t, f.level);
    return;
  }
  item_done();
}

// ---- Structure ---------------------------------------------------------------------------------

void CaptureDecoder::item_done() {
  while (!stack_.empty()) {
    Frame& f = stack_.back();
    if (f.is_map) f.want_key = !f.want_key;
    if (--f.left > 0) return;
    Frame done = f;
    stack_.pop_back();
    close(done);
  }
}

void CaptureDecoder::close(const Frame& f) {
  switch (f.role) {
    case Role::Message:
      finish_event(0);
      ++messages_;
      break;
    case Role::Event: finish_event(1); break;
    case Role::DumpObject:
      if (obj_.has_id && !obj_.bad) {
        staging_.push_back(obj_.obj);
      } else {
        ++staging_invalid_;
        staging_refs_.resize(obj_.obj.ref_begin);
      }
      break;
    case Role::Frame: {
      CpuFrameKey key{cpu_frame_.label, cpu_frame_.file, cpu_frame_.method, cpu_frame_.line};
      auto it = frame_index_.find(key);
      uint32_t idx;
      if (it == frame_index_.end()) {
        idx = static_cast<uint32_t>(frames_.size());
        frames_.push_back(key);
        frame_index_.emplace(key, idx);
        add_cpu_frame(key);
      } else {
        idx = it->second;
      }
      cpu_stack_.push_back(idx);
      break;
    }
    case Role::Skip:
      if (stack_.empty()) ++messages_;  // a rejected top-level container, now skipped entirely
      break;
    default: break;
  }
}

void CaptureDecoder::structural_error(uint64_t offset, const std::string& message) {
  complaints_.complain(true, "structure", offset, message);
  abandon_open_message();
  stream_.resync();
}

// The current message cannot be finished (structural error or end of input): what it already
// delivered stays (events were counted as they completed); a heap dump chunk in progress is kept
// as a cut-short part of its snapshot.
void CaptureDecoder::abandon_open_message() {
  if (stack_.empty()) return;
  for (const Frame& f : stack_) {
    if (f.role == Role::Dump) {
      commit_dump(ev_[f.level], true);
      break;
    }
  }
  ++broken_messages_;
  stack_.clear();
}

void CaptureDecoder::on_resync(uint64_t offset, uint64_t skipped) {
  ++resyncs_;
  skipped_bytes_ += skipped;
  complaints_.complain(false, "resync", offset,
                       "resumed at offset " + std::to_string(offset) +
                           " (a map whose key 0 holds an event type) after skipping " + std::to_string(skipped) +
                           " bytes");
}

void CaptureDecoder::end_of_input() {
  if (stream_.inside_token() || !stack_.empty()) {
    uint64_t start = stack_.empty() ? stream_.open_token_offset() : top_offset_;
    const bool in_message = !stack_.empty() && stack_.front().role == Role::Message;
    std::string what;
    if (stream_.pending_missing())
      what = "inside a string/bin of " + std::to_string(stream_.pending_declared()) + " declared bytes, " +
             std::to_string(stream_.pending_missing()) + " of them missing";
    else if (stream_.inside_token())
      what = "inside a value header at offset " + std::to_string(stream_.open_token_offset());
    else
      what = "with " + std::to_string(stack_.back().left) + " declared item(s) of an open " +
             (stack_.back().is_map ? "map" : "array") + " missing";
    uint64_t nested = ev_[0].nested_accepted;
    complaints_.complain(
        true, "truncated", start,
        "capture is truncated: the message starting at offset " + std::to_string(start) + " ends at byte " +
            std::to_string(stream_.position()) + " " + what +
            (!in_message ? std::string()
                         : "; the " + std::to_string(nested) + " complete event(s) it already delivered are kept"));
    truncated_at_ = static_cast<int64_t>(start);
    abandon_open_message();
  } else if (stream_.resyncing()) {
    complaints_.complain(false, "resync", stream_.resync_from(),
                         "no further rbkit message after offset " + std::to_string(stream_.resync_from()) + ": " +
                             std::to_string(stream_.position() - stream_.resync_from()) + " bytes skipped");
    skipped_bytes_ += stream_.position() - stream_.resync_from();
  }
  flush_second();
  if (gc_open_) {
    trailing_open_gc_ = true;
  }
}

// ---- Events ------------------------------------------------------------------------------------

void CaptureDecoder::reject(const EventScratch& e, uint8_t level, const std::string& why) {
  if (level == 0) ++rejected_messages_;
  else ++rejected_events_;
  rejection_reasons_[why]++;
  complaints_.complain(false, "rejected", e.offset,
                       !complaints_.listing("rejected")
                           ? std::string()
                           : std::string(level == 0 ? "message" : "event") + " at offset " + std::to_string(e.offset) +
                                 " rejected: " + why);
}

void CaptureDecoder::finish_event(uint8_t level) {
  EventScratch& e = ev_[level];
  if (!e.has_type || e.type_bad) {
    reject(e, level,
           e.string_keys ? "keys are strings, not rbkit's integer field ids" : "no integer event_type under key 0");
    return;
  }
  if (e.type < 0 || e.type >= kEventTypeCount) {
    ++unknown_types_[e.type];
    complaints_.complain(false, "unknown", e.offset,
                         !complaints_.listing("unknown")
                             ? std::string()
                             : "event at offset " + std::to_string(e.offset) + " has unknown event_type " +
                                   std::to_string(e.type) + "; skipped");
    return;
  }
  const int type = static_cast<int>(e.type);
  if (e.ts_state != 1) {
    reject(e, level,
           e.ts_state == 0 ? std::string(event_type_name(type)) + " without a timestamp (key 1)"
                           : std::string(event_type_name(type)) + ": " + e.ts_problem);
    return;
  }
  if (e.payload_problem) {
    reject(e, level, std::string(event_type_name(type)) + ": " + e.payload_problem);
    return;
  }
  switch (type) {
    case kObjCreated:
    case kObjDestroyed:
      if (!e.has_id || e.id_bad) {
        reject(e, level,
               std::string(event_type_name(type)) +
                   (e.id_bad ? ": object_id (key 3) is not an unsigned integer" : ": no object_id (key 3)"));
        return;
      }
      if (e.class_bad) {
        reject(e, level, "obj_created: class_name (key 4) is neither a string nor nil");
        return;
      }
      break;
    case kObjectSpaceDump:
      if (!e.has_payload) {
        reject(e, level, "object_space_dump without objects (key 2)");
        return;
      }
      break;
    case kEventCollection:
      if (!e.has_payload) {
        reject(e, level, "event_collection without events (key 2)");
        return;
      }
      break;
    case kGcStats:
    case kHandshake:
      if (!e.has_payload) {
        reject(e, level, std::string(event_type_name(type)) + " without a payload (key 2)");
        return;
      }
      break;
    default: break;
  }
  accept(e, level, type);
}

void CaptureDecoder::accept(const EventScratch& e, uint8_t level, int type) {
  if (type == kEventCollection && e.counter_bad) {
    // Lenient: the events inside were valid and are already counted; the collection itself is not.
    ++rejected_messages_;
    rejection_reasons_["event_collection: message_counter (key 9) is not an unsigned integer"]++;
    complaints_.complain(false, "rejected", e.offset,
                         "event_collection at offset " + std::to_string(e.offset) +
                             ": message_counter is not an unsigned integer; the collection is not counted, its " +
                             std::to_string(e.nested_accepted) + " valid event(s) are kept");
    return;
  }
  ++by_type_[type];
  if (level == 0) ++top_level_by_type_[type];
  else ++ev_[0].nested_accepted;
  if (!has_ts_) {
    ts_min_ = ts_max_ = e.ts;
    has_ts_ = true;
  } else {
    ts_min_ = std::min(ts_min_, e.ts);
    ts_max_ = std::max(ts_max_, e.ts);
  }
  if (type != kEventCollection && type != kObjDestroyed) log_event(e, type, e.cls);
  switch (type) {
    case kObjCreated: {
      ++created_;
      if (e.cls == 0) ++nil_class_created_;
      if (created_by_class_.size() <= e.cls) created_by_class_.resize(classes_.size());
      ++created_by_class_[e.cls];
      const bool added = live_.put(e.id, e.cls) == IdMap::kEmpty;
      if (!added) ++recreated_live_;
      id_min_ = std::min(id_min_, e.id);
      id_max_ = std::max(id_max_, e.id);
      bin_object(e.ts, e.cls, true, added ? 1 : 0);
      break;
    }
    case kObjDestroyed: {
      ++destroyed_;
      uint32_t cls = live_.take(e.id);
      if (cls != IdMap::kEmpty) {
        ++destroyed_of_created_;
        if (destroyed_by_class_.size() <= cls) destroyed_by_class_.resize(classes_.size());
        ++destroyed_by_class_[cls];
      } else {
        cls = kBeforeCapture;
      }
      log_event(e, type, cls == kBeforeCapture ? 0 : cls);
      bin_object(e.ts, cls, false, cls == kBeforeCapture ? 0 : -1);
      break;
    }
    case kGcStart:
      ++gc_start_;
      if (gc_open_) {  // the previous cycle's end was never seen
        ++unclosed_starts_;
        unclosed_start_ms_.push_back(open_.start_ms);
      }
      gc_open_ = true;
      open_ = GcCycle{};
      open_.start_ms = e.ts;
      break;
    case kGcEndMark:
      ++gc_end_m_;
      if (gc_open_ && open_.mark_end_ms < 0) open_.mark_end_ms = e.ts;
      else ++orphan_end_m_;
      break;
    case kGcEndSweep:
      ++gc_end_s_;
      if (!gc_open_) {
        ++orphan_end_s_;  // e.g. the lazy sweep of a GC that began before tracing started
        break;
      }
      gc_open_ = false;
      open_.end_ms = e.ts;
      if (open_.end_ms < open_.start_ms || (open_.mark_end_ms >= 0 && open_.mark_end_ms < open_.start_ms)) {
        ++negative_durations_;  // clocks out of order: no interval rather than a negative one
        break;
      }
      cycles_.push_back(open_);
      break;
    case kObjectSpaceDump: commit_dump(e, false); break;
    case kGcStats: {
      GcStatsSample s;
      s.t_ms = e.ts;
      for (size_t i = e.kv_begin; i < kv_.size(); ++i) {
        uint32_t key = gc_keys_.intern(kv_[i].first);
        if (!kv_[i].second.is_number()) ++gc_non_numeric_[key];
        s.values.emplace_back(key, std::move(kv_[i].second));
      }
      kv_.resize(e.kv_begin);
      gc_stats_.push_back(std::move(s));
      break;
    }
    case kEventCollection:
      if (e.has_counter) {
        if (!has_counter_) {
          has_counter_ = true;
          counter_first_ = e.counter;
        } else if (e.counter == counter_last_) {
          duplicate_counters_.push_back(e.counter);
        } else if (e.counter > counter_last_ + 1) {
          counter_missing_ += e.counter - counter_last_ - 1;
          if (missing_ranges_.size() < 1000) missing_ranges_.emplace_back(counter_last_ + 1, e.counter - 1);
        } else if (e.counter < counter_last_) {
          ++counter_backwards_;  // a restarted server starts again at 0
        }
        counter_last_ = e.counter;
        ++collections_with_counter_;
      }
      break;
    case kHandshake:
      if (handshakes_++ == 0) {
        handshake_ = nlohmann::json::object();
        for (size_t i = e.kv_begin; i < kv_.size(); ++i) handshake_[kv_[i].first] = kv_[i].second;
      }
      kv_.resize(e.kv_begin);
      break;
    case kCpuSample: {
      cpu_t_.push_back(e.ts);
      cpu_leaf_.push_back(cpu_stack_.empty() ? -1 : static_cast<int64_t>(cpu_stack_.front()));
      if (!cpu_stack_.empty()) ++cpu_stacks_[cpu_stack_];
      add_cpu_sample();
      cpu_stack_.clear();
      break;
    }
    default: break;
  }
}

// Called before the event changes the staged dump chunk or CPU stack, whose sizes it records.
void CaptureDecoder::log_event(const EventScratch& e, int type, uint32_t cls) {
  EventLog::Event ev;
  ev.type = type;
  ev.ts_ms = e.ts;
  ev.has_id = (type == kObjCreated || type == kObjDestroyed) && e.has_id;
  ev.id = e.id;
  ev.cls = ev.has_id ? cls : 0;
  ev.has_corr = type == kObjectSpaceDump && e.has_corr;
  ev.corr = e.corr;
  ev.has_count = type == kObjectSpaceDump || type == kCpuSample;
  ev.count = type == kObjectSpaceDump ? staging_.size() : cpu_stack_.size();
  events_.add(ev);
}

void CaptureDecoder::add_cpu_frame(const CpuFrameKey& key) {
  profile::Frame f;
  f.name = labels_.shown(key.label);
  if (f.name.empty()) f.name = labels_.shown(key.method);
  f.file = files_.shown(key.file);
  // A C function's first line is 0: rb_profile_frame_first_lineno has none to give.
  f.line = key.line > 0 && key.line <= INT64_MAX ? static_cast<int64_t>(key.line) : profile::kNoLine;
  cpu_model_.add_frame(std::move(f));
}

// A sample stands for the time since the previous cpu_sample (stackprof's raw_timestamp_deltas
// have the same meaning), in µs: the first, and any that goes back in time, for none.
void CaptureDecoder::add_cpu_sample() {
  const size_t n = cpu_t_.size();
  const double gap_us = n > 1 ? std::max(0.0, (cpu_t_[n - 1] - cpu_t_[n - 2]) * 1000.0) : 0.0;
  if (cpu_stack_.empty()) return;
  cpu_path_.assign(cpu_stack_.rbegin(), cpu_stack_.rend());
  int32_t node = cpu_model_.node_of(cpu_path_.data(), cpu_path_.size());
  if (!cpu_model_.sample_node.empty() && cpu_model_.sample_node.back() == node) {
    cpu_model_.sample_weight.back() += 1;
    cpu_model_.sample_duration.back() += gap_us;
  } else {
    cpu_model_.add_sample(node, 1);
    cpu_model_.sample_duration.push_back(gap_us);
    cpu_model_.sample_time.push_back(cpu_t_[n - 1]);
  }
}

void CaptureDecoder::commit_dump(const EventScratch& e, bool cut_short) {
  Snapshot* s = nullptr;
  if (e.has_corr) {
    for (auto& x : snapshots_)
      if (x.has_corr && x.corr == e.corr) s = &x;
  }
  if (!s) {
    snapshots_.emplace_back();
    s = &snapshots_.back();
    s->has_corr = e.has_corr;
    s->corr = e.corr;
    s->first_ms = e.ts;
  }
  ++s->messages;
  if (e.has_total) {
    if (s->has_total && s->total != e.total) s->total_conflict = true;
    s->has_total = true;
    s->total = e.total;
  }
  if (cut_short) s->cut_short = true;
  s->last_ms = std::max(s->last_ms, e.ts);
  uint32_t base = static_cast<uint32_t>(s->refs.size());
  s->refs.insert(s->refs.end(), staging_refs_.begin(), staging_refs_.end());
  for (auto o : staging_) {
    o.ref_begin += base;
    s->objects.push_back(o);
  }
  s->invalid_objects += staging_invalid_;
  s->invalid_refs += staging_invalid_refs_;
  staging_.clear();
  staging_refs_.clear();
  staging_invalid_ = staging_invalid_refs_ = 0;
}

// ---- Timeline ----------------------------------------------------------------------------------

void CaptureDecoder::bin_object(double ts, uint32_t cls, bool created, int live_change) {
  int64_t sec = static_cast<int64_t>(std::floor(ts / 1000.0));  // ts is within [0, 1e15] ms
  sec -= sec % bin_width_;
  if (sec != cur_sec_) {
    flush_second(live_change);
    cur_sec_ = sec;
  }
  if (cls == kBeforeCapture) {
    ++cur_before_capture_;
    ++cur_destroyed_;
    return;
  }
  if (cur_c_.size() <= cls) {
    cur_c_.resize(classes_.size(), 0);
    cur_d_.resize(classes_.size(), 0);
  }
  if (cur_c_[cls] == 0 && cur_d_[cls] == 0) touched_.push_back(cls);
  if (created) ++cur_c_[cls], ++cur_created_;
  else ++cur_d_[cls], ++cur_destroyed_;
}

void CaptureDecoder::flush_second(int live_change) {
  if (cur_sec_ == INT64_MIN) return;
  TimeBin& b = bins_[cur_sec_];
  b.created += cur_created_;
  b.destroyed += cur_destroyed_;
  b.live = static_cast<uint64_t>(static_cast<int64_t>(live_.size()) - live_change);
  auto add = [&](uint32_t cls, uint32_t c, uint32_t d) {
    for (auto& x : b.by_class)
      if (x.cls == cls) {
        x.created += c;
        x.destroyed += d;
        return;
      }
    b.by_class.push_back({cls, c, d});
  };
  for (uint32_t cls : touched_) {
    add(cls, cur_c_[cls], cur_d_[cls]);
    cur_c_[cls] = cur_d_[cls] = 0;
  }
  if (cur_before_capture_) add(kBeforeCapture, 0, cur_before_capture_);
  touched_.clear();
  cur_before_capture_ = 0;
  cur_created_ = cur_destroyed_ = 0;
  cur_sec_ = INT64_MIN;
  if (bins_.size() > kMaxStoredBins) coarsen_bins();
}

void CaptureDecoder::coarsen_bins() {
  while (bins_.size() > kMaxStoredBins / 2) {
    bin_width_ *= 2;
    std::map<int64_t, TimeBin> merged;
    for (auto& [sec, b] : bins_) {
      TimeBin& m = merged[sec - sec % bin_width_];
      m.created += b.created;
      m.destroyed += b.destroyed;
      m.live = b.live;  // bins are visited in time order: the later second's value wins
      for (const auto& x : b.by_class) {
        bool found = false;
        for (auto& y : m.by_class)
          if (y.cls == x.cls) {
            y.created += x.created;
            y.destroyed += x.destroyed;
            found = true;
            break;
          }
        if (!found) m.by_class.push_back(x);
      }
    }
    bins_.swap(merged);
  }
}

}  // namespace gcscope::rbkit
