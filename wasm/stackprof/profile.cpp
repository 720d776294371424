#include "profile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "json_reader.h"
#include "marshal_reader.h"
#include "value_sink.h"

namespace gcscope::stackprof {

namespace {

enum TopKey : uint8_t {
  kTopVersion,
  kTopMode,
  kTopInterval,
  kTopSamples,
  kTopGcSamples,
  kTopMissed,
  kTopMetadata,
  kTopFrames,
  kTopRaw,
  kTopRawLines,
  kTopTimestamps,
  kTopDeltas,
  kTopUnknown
};

TopKey top_key(std::string_view k) {
  static const std::pair<std::string_view, TopKey> kKeys[] = {{"version", kTopVersion},
                                                              {"mode", kTopMode},
                                                              {"interval", kTopInterval},
                                                              {"samples", kTopSamples},
                                                              {"gc_samples", kTopGcSamples},
                                                              {"missed_samples", kTopMissed},
                                                              {"metadata", kTopMetadata},
                                                              {"frames", kTopFrames},
                                                              {"raw", kTopRaw},
                                                              {"raw_lines", kTopRawLines},
                                                              {"raw_sample_timestamps", kTopTimestamps},
                                                              {"raw_timestamp_deltas", kTopDeltas}};
  for (const auto& [name, key] : kKeys)
    if (name == k) return key;
  return kTopUnknown;
}

int frame_field(std::string_view k) {
  static const std::pair<std::string_view, FrameField> kFields[] = {
      {"name", kFieldName},    {"file", kFieldFile},   {"line", kFieldLine},   {"total_samples", kFieldTotal},
      {"samples", kFieldSelf}, {"edges", kFieldEdges}, {"lines", kFieldLines}, {"hash", kFieldHash}};
  for (const auto& [name, f] : kFields)
    if (name == k) return f;
  return -1;
}

bool all_digits(std::string_view s) {
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// stackprof's from_json turns keys matching /\A[0-9]*\z/ into Integers ("" -> 0).
uint64_t digits_value(std::string_view s) {
  uint64_t v = 0;
  for (char c : s) v = v * 10 + static_cast<uint64_t>(c - '0');
  return v;
}

struct Scalar {
  enum Kind : uint8_t { Int, UInt, Float, Str, Sym, Nil, Bool, Opaque } kind;
  explicit Scalar(Kind k) : kind(k) {}
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  std::string_view s;
};

const char* kind_name(Scalar::Kind k) {
  switch (k) {
    case Scalar::Int:
    case Scalar::UInt: return "an Integer";
    case Scalar::Float: return "a Float";
    case Scalar::Str: return "a String";
    case Scalar::Sym: return "a Symbol";
    case Scalar::Nil: return "nil";
    case Scalar::Bool: return "a boolean";
    default: return "an object";
  }
}

nlohmann::json display(const Scalar& v) {
  switch (v.kind) {
    case Scalar::Int:
      if (v.i > (int64_t(1) << 53) || v.i < -(int64_t(1) << 53)) return std::to_string(v.i);
      return v.i;
    case Scalar::UInt: return std::to_string(v.u);
    case Scalar::Float: return std::isfinite(v.d) ? nlohmann::json(v.d) : nlohmann::json(std::string(v.s));
    case Scalar::Str: return std::string(v.s);
    case Scalar::Sym: return ":" + std::string(v.s);
    case Scalar::Nil: return nullptr;
    case Scalar::Bool: return v.i != 0;
    default: return std::string(v.s);
  }
}

std::string key_string(const Scalar& v) {
  switch (v.kind) {
    case Scalar::Int: return std::to_string(v.i);
    case Scalar::UInt: return std::to_string(v.u);
    case Scalar::Float: return std::string(v.s);
    case Scalar::Nil: return "nil";
    case Scalar::Bool: return v.i ? "true" : "false";
    default: return std::string(v.s);
  }
}

// Keeps what a profile needs from the value events of either reader.
class ProfileBuilder final : public ValueSink {
 public:
  ProfileBuilder(Profile& p, bool json_keys) : p_(p), json_keys_(json_keys) {
    levels_.push_back({Ctx::Root, false, false, 0, 0, 0});
  }

  void begin_map(std::string_view label) override { begin(true, label); }
  void begin_list(std::string_view label) override { begin(false, label); }
  void end() override {
    if (levels_.size() <= 1) return;
    Level done = levels_.back();
    levels_.pop_back();
    if (done.ctx == Ctx::Metadata) {
      nlohmann::json v = std::move(meta_stack_.back());
      meta_stack_.pop_back();
      std::string label = std::move(meta_labels_.back());
      meta_labels_.pop_back();
      meta_keys_.pop_back();
      if (!label.empty()) {
        if (v.is_object()) {
          nlohmann::json o = {{"$type", label}};
          for (auto& [k, x] : v.items()) o[k] = std::move(x);
          v = std::move(o);
        } else {
          v = {{"$type", label}, {"values", std::move(v)}};
        }
      }
      if (meta_stack_.empty()) store_top_json(done.key, std::move(v));
      else meta_put(std::move(v));
    } else if (done.ctx == Ctx::LinePair) {
      // [total, self]; anything shorter keeps zeros
    }
    Level& parent = levels_.back();
    if (parent.is_map) parent.expect_key = !parent.expect_key;
  }
  void on_int(int64_t v) override {
    Level& t = levels_.back();
    if (t.ctx == Ctx::IntList && !(t.is_map)) {  // hot path: raw and timestamp arrays
      push_int(t, v);
      return;
    }
    Scalar s{Scalar::Int};
    s.i = v;
    scalar(s);
  }
  void on_uint(uint64_t v) override {
    Level& t = levels_.back();
    if (t.ctx == Ctx::IntList && t.key == kTopRaw) {
      p_.raw.push_back(v);
      return;
    }
    Scalar s{Scalar::UInt};
    s.u = v;
    scalar(s);
  }
  void on_float(double v, std::string_view text) override {
    Scalar s{Scalar::Float};
    s.d = v;
    s.s = text;
    scalar(s);
  }
  void on_string(std::string_view v) override {
    Scalar s{Scalar::Str};
    s.s = v;
    scalar(s);
  }
  void on_symbol(std::string_view v) override {
    Scalar s{Scalar::Sym};
    s.s = v;
    scalar(s);
  }
  void on_nil() override { scalar(Scalar{Scalar::Nil}); }
  void on_bool(bool b) override {
    Scalar s{Scalar::Bool};
    s.i = b;
    scalar(s);
  }
  void on_opaque(std::string_view d) override {
    Scalar s{Scalar::Opaque};
    s.s = d;
    scalar(s);
  }

  std::vector<Problem> problems;
  std::string frames_found_as;  // what the top-level frames key held when it was not a Hash
  bool saw_root_map = false;
  bool root_not_map = false;

 private:
  enum class Ctx : uint8_t { Root, Top, Frames, Frame, Edges, Lines, LinePair, IntList, Metadata, Skip };
  struct Level {
    Ctx ctx;
    bool is_map;
    bool expect_key;
    uint8_t key;       // Top: TopKey; Frame: FrameField (255 = unknown); IntList: which list
    uint64_t key_num;  // Frames/Edges/Lines: the pending key
    uint32_t item;     // LinePair: position
  };

  void warn(std::string m) {
    if (problems.size() < 50) problems.push_back({false, -1, std::move(m)});
  }

  void push_int(Level& t, int64_t v) {
    switch (t.key) {
      case kTopRaw:
        if (v < 0) {
          if (!negative_raw_) warn("raw holds a negative number (" + std::to_string(v) + ")");
          negative_raw_ = true;
          v = 0;
        }
        p_.raw.push_back(static_cast<uint64_t>(v));
        break;
      case kTopRawLines: p_.raw_lines.push_back(v); break;
      case kTopTimestamps: p_.raw_sample_timestamps.push_back(v); break;
      default: p_.raw_timestamp_deltas.push_back(v); break;
    }
  }

  uint64_t frame_key(const Scalar& v, bool* ok) {
    *ok = true;
    switch (v.kind) {
      case Scalar::Int:
        if (v.i >= 0) return static_cast<uint64_t>(v.i);
        break;
      case Scalar::UInt: return v.u;
      case Scalar::Str:
      case Scalar::Sym:
        if (json_keys_ && all_digits(v.s)) return digits_value(v.s);
        return intern(v.s);
      default: break;
    }
    *ok = false;
    return 0;
  }

  uint64_t intern(std::string_view s) {
    auto it = interned_.find(std::string(s));
    if (it != interned_.end()) return it->second;
    uint64_t id = kStringKeyBit | p_.string_keys.size();
    p_.string_keys.emplace_back(s);
    interned_.emplace(std::string(s), id);
    return id;
  }

  void store_top_json(uint8_t key, nlohmann::json v) {
    if (key == kTopMetadata) {
      p_.metadata = std::move(v);
      p_.has_metadata = true;
    } else {
      p_.other[unknown_key_] = std::move(v);
    }
  }

  void meta_put(nlohmann::json v) {
    nlohmann::json& top = meta_stack_.back();
    if (top.is_object()) top[meta_keys_.back()] = std::move(v);
    else top.push_back(std::move(v));
  }

  void begin(bool is_map, std::string_view label) {
    Level& t = levels_.back();
    bool key_position = t.is_map && t.expect_key;
    Ctx child = Ctx::Skip;
    uint8_t key = 0;
    if (key_position) {
      if (t.ctx == Ctx::Metadata) meta_keys_.back() = "(complex key)";
      else if (t.ctx == Ctx::Frames) current_frame_ = kNoFrame;
      // A top-level key that is itself a Hash or an Array: listed under a name of its own, so the
      // warning about its value names it (and does not read a key list that may still be empty).
      else if (t.ctx == Ctx::Top) p_.top_keys.emplace_back("(complex key)");
      t.key = 255;
    } else {
      switch (t.ctx) {
        case Ctx::Root:
          if (is_map) {
            child = Ctx::Top;
            saw_root_map = true;
          } else {
            root_not_map = true;
          }
          break;
        case Ctx::Top:
          key = t.key;
          if (t.key == kTopFrames && is_map) {
            child = Ctx::Frames;
            p_.has_frames = true;
          } else if (t.key == kTopMetadata || t.key == kTopUnknown) {
            child = Ctx::Metadata;
          } else if (!is_map &&
                     (t.key == kTopRaw || t.key == kTopRawLines || t.key == kTopTimestamps || t.key == kTopDeltas)) {
            child = Ctx::IntList;
            if (t.key == kTopRaw) p_.has_raw = true;
            if (t.key == kTopRawLines) p_.has_raw_lines = true;
            if (t.key == kTopTimestamps) p_.has_timestamps = true;
            if (t.key == kTopDeltas) p_.has_deltas = true;
          } else {
            if (t.key == kTopFrames) frames_found_as = "an Array";
            warn("top-level key " + p_.top_keys.back() + " holds " + (is_map ? "a Hash" : "an Array") + " (ignored)");
          }
          break;
        case Ctx::Frames:
          if (is_map && current_frame_ != kNoFrame) child = Ctx::Frame;
          else if (current_frame_ != kNoFrame)
            warn("frame " + p_.key_text(p_.frames[current_frame_].key) + " is not a Hash");
          break;
        case Ctx::Frame: {
          Frame& f = p_.frames[current_frame_];
          if (is_map && t.key == kFieldEdges) {
            child = Ctx::Edges;
            f.has_edges = true;
          } else if (is_map && t.key == kFieldLines) {
            child = Ctx::Lines;
            f.has_lines = true;
          }
          break;
        }
        case Ctx::Lines:
          if (!is_map && current_frame_ != kNoFrame && t.key != 255) {
            child = Ctx::LinePair;
            LineStat ls;
            ls.line = static_cast<int64_t>(t.key_num);
            p_.frames[current_frame_].lines.push_back(ls);
          }
          break;
        case Ctx::Metadata: child = Ctx::Metadata; break;
        default: break;
      }
    }
    if (child == Ctx::Metadata) {
      meta_stack_.push_back(is_map ? nlohmann::json::object() : nlohmann::json::array());
      meta_labels_.emplace_back(label);
      meta_keys_.emplace_back();
    }
    levels_.push_back({child, is_map, true, key, 0, 0});
  }

  void scalar(const Scalar& v) {
    Level& t = levels_.back();
    if (t.is_map && t.expect_key) {
      take_key(t, v);
      t.expect_key = false;
      return;
    }
    take_value(t, v);
    if (t.is_map) t.expect_key = true;
  }

  void take_key(Level& t, const Scalar& v) {
    switch (t.ctx) {
      case Ctx::Top: {
        std::string name = key_string(v);
        t.key = (v.kind == Scalar::Str || v.kind == Scalar::Sym) ? top_key(v.s) : kTopUnknown;
        if (t.key == kTopUnknown) unknown_key_ = name;
        p_.top_keys.push_back(std::move(name));
        break;
      }
      case Ctx::Frames: {
        bool ok = false;
        uint64_t k = frame_key(v, &ok);
        if (!ok) {
          warn("frames has a key that is " + std::string(kind_name(v.kind)) + " (ignored)");
          current_frame_ = kNoFrame;
          break;
        }
        current_frame_ = static_cast<uint32_t>(p_.frames.size());
        p_.frames.emplace_back();
        p_.frames.back().key = k;
        break;
      }
      case Ctx::Frame:
        t.key = (v.kind == Scalar::Str || v.kind == Scalar::Sym) ? static_cast<uint8_t>(frame_field(v.s) & 0xff) : 255;
        if (t.key != 255) p_.frames[current_frame_].fields.push_back(t.key);
        break;
      case Ctx::Edges: {
        bool ok = false;
        t.key_num = frame_key(v, &ok);
        t.key = ok ? 0 : 255;
        break;
      }
      case Ctx::Lines:
        if (v.kind == Scalar::Int) {
          t.key_num = static_cast<uint64_t>(v.i);
          t.key = 0;
        } else if (v.kind == Scalar::Str && json_keys_ && all_digits(v.s)) {
          t.key_num = digits_value(v.s);
          t.key = 0;
        } else {
          t.key = 255;
        }
        break;
      case Ctx::Metadata: meta_keys_.back() = key_string(v); break;
      default: break;
    }
  }

  void type_warning(const char* what, const Scalar& v) {
    warn(std::string(what) + " is " + kind_name(v.kind) + ", expected an Integer (ignored)");
  }

  void take_value(Level& t, const Scalar& v) {
    switch (t.ctx) {
      case Ctx::Root: root_not_map = true; break;
      case Ctx::Top: top_value(t, v); break;
      case Ctx::Frame: frame_value(t, v); break;
      case Ctx::Edges:
        if (t.key == 0 && (v.kind == Scalar::Int)) {
          Edge e;
          e.to_key = t.key_num;
          e.weight = v.i;
          p_.frames[current_frame_].edges.push_back(e);
        }
        break;
      case Ctx::Lines:
        if (t.key == 0 && v.kind == Scalar::Int) {
          LineStat ls;
          ls.line = static_cast<int64_t>(t.key_num);
          ls.total = ls.self = v.i;
          ls.scalar = true;
          p_.frames[current_frame_].lines.push_back(ls);
        }
        break;
      case Ctx::LinePair: {
        LineStat& ls = p_.frames[current_frame_].lines.back();
        int64_t x = v.kind == Scalar::Int ? v.i : 0;
        if (t.item == 0) ls.total = x;
        else if (t.item == 1) ls.self = x;
        ++t.item;
        break;
      }
      case Ctx::IntList:
        if (v.kind == Scalar::UInt) push_int(t, static_cast<int64_t>(v.u & INT64_MAX));
        else if (v.kind == Scalar::Int) push_int(t, v.i);
        else if (!bad_list_item_) {
          bad_list_item_ = true;
          warn("a raw array holds " + std::string(kind_name(v.kind)) + " (counted as 0)");
          push_int(t, 0);
        }
        break;
      case Ctx::Metadata: meta_put(display(v)); break;
      default: break;
    }
  }

  void top_value(Level& t, const Scalar& v) {
    auto int_field = [&](int64_t& dst, bool& has, const char* name) {
      if (v.kind == Scalar::Int) {
        dst = v.i;
        has = true;
      } else if (v.kind != Scalar::Nil) {
        type_warning(name, v);
      }
    };
    switch (t.key) {
      case kTopVersion:
        if (v.kind == Scalar::Float) {
          p_.version = v.d;
          p_.version_text = std::string(v.s);
          p_.has_version = true;
        } else if (v.kind == Scalar::Int) {
          p_.version = static_cast<double>(v.i);
          p_.version_text = std::to_string(v.i);
          p_.has_version = true;
        } else {
          warn(std::string("version is ") + kind_name(v.kind) + ", expected a Float");
        }
        break;
      case kTopMode:
        if (v.kind == Scalar::Str || v.kind == Scalar::Sym) {
          p_.mode = std::string(v.s);
          p_.has_mode = true;
        } else {
          warn(std::string("mode is ") + kind_name(v.kind) + ", expected a Symbol");
        }
        break;
      case kTopInterval: int_field(p_.interval, p_.has_interval, "interval"); break;
      case kTopSamples: int_field(p_.samples, p_.has_samples, "samples"); break;
      case kTopGcSamples: int_field(p_.gc_samples, p_.has_gc_samples, "gc_samples"); break;
      case kTopMissed: int_field(p_.missed_samples, p_.has_missed_samples, "missed_samples"); break;
      case kTopMetadata: store_top_json(kTopMetadata, display(v)); break;
      case kTopUnknown: store_top_json(kTopUnknown, display(v)); break;
      default:
        if (t.key == kTopFrames) frames_found_as = kind_name(v.kind);
        warn(p_.top_keys.back() + " is " + kind_name(v.kind) + " (ignored)");
        break;
    }
  }

  void frame_value(Level& t, const Scalar& v) {
    Frame& f = p_.frames[current_frame_];
    bool is_text = v.kind == Scalar::Str || v.kind == Scalar::Sym;
    // A field of an unexpected type is left unset, as if the dump did not have it.
    auto take_text = [&](bool ok, std::string& to, bool& has) {
      if (ok) to = std::string(v.s), has = true;
    };
    auto take_int = [&](int64_t& to, bool& has) {
      if (v.kind == Scalar::Int) to = v.i, has = true;
    };
    switch (t.key) {
      case kFieldName: take_text(is_text || v.kind == Scalar::Opaque, f.name, f.has_name); break;
      case kFieldFile: take_text(is_text, f.file, f.has_file); break;
      case kFieldHash: take_text(is_text, f.hash, f.has_hash); break;
      case kFieldTotal: take_int(f.total, f.has_total); break;
      case kFieldSelf: take_int(f.self, f.has_self); break;
      case kFieldLine:
        if (v.kind == Scalar::Int) {
          f.line_kind = LineKind::Int;
          f.line = v.i;
        } else if (v.kind == Scalar::Nil) {
          f.line_kind = LineKind::Nil;
        }
        break;
      default: break;
    }
  }

  Profile& p_;
  bool json_keys_;
  std::vector<Level> levels_;
  uint32_t current_frame_ = kNoFrame;
  std::unordered_map<std::string, uint64_t> interned_;
  std::vector<nlohmann::json> meta_stack_;
  std::vector<std::string> meta_labels_, meta_keys_;
  std::string unknown_key_;
  bool negative_raw_ = false, bad_list_item_ = false;
};

}  // namespace

struct DumpLoader::Impl {
  Profile profile;
  enum class Kind { Unknown, Marshal, Json, Other } kind = Kind::Unknown;
  std::string head;  // bytes until the kind is known
  std::unique_ptr<ProfileBuilder> builder;
  std::unique_ptr<MarshalReader> marshal;
  std::unique_ptr<JsonReader> json;
  uint64_t total = 0;

  // Without an encoding from identification (a forced format): the first byte tells.
  void decide(bool final) {
    // Skip whitespace for JSON; Marshal starts at byte 0.
    const auto* b = reinterpret_cast<const unsigned char*>(head.data());
    if (head.size() >= 1 && (b[0] == 4 || b[0] == 3)) {
      if (head.size() < 2 && !final) return;
      start(Kind::Marshal);
    } else {
      size_t i = 0;
      while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
      if (i == head.size() && !final) return;
      start((i < head.size() && (head[i] == '{' || head[i] == '[')) ? Kind::Json : Kind::Other);
    }
  }

  // Creates the reader of `k` and gives it the bytes held so far.
  void start(Kind k) {
    kind = k;
    if (kind == Kind::Marshal) {
      builder = std::make_unique<ProfileBuilder>(profile, false);
      marshal = std::make_unique<MarshalReader>(*builder);
      std::string h;
      h.swap(head);
      marshal->feed(h.data(), h.size());
    } else if (kind == Kind::Json) {
      profile.encoding = Encoding::Json;
      builder = std::make_unique<ProfileBuilder>(profile, true);
      json = std::make_unique<JsonReader>(*builder);
      std::string h;
      h.swap(head);
      json->feed(h.data(), h.size());
    }
  }
};

DumpLoader::DumpLoader() : impl_(new Impl) {}
DumpLoader::~DumpLoader() { delete impl_; }

void DumpLoader::expect(Encoding encoding) {
  if (impl_->kind == Impl::Kind::Unknown)
    impl_->start(encoding == Encoding::Marshal ? Impl::Kind::Marshal : Impl::Kind::Json);
}

void DumpLoader::feed(const char* data, size_t len) {
  Impl& m = *impl_;
  m.total += len;
  switch (m.kind) {
    case Impl::Kind::Marshal: m.marshal->feed(data, len); return;
    case Impl::Kind::Json: m.json->feed(data, len); return;
    case Impl::Kind::Other: return;
    case Impl::Kind::Unknown:
      m.head.append(data, len);
      if (m.head.size() >= 2 || m.head.find_first_not_of(" \r\n\t") != std::string::npos) m.decide(false);
      return;
  }
}

namespace {
// "a, b, c" (the first 12 keys, then how many more).
std::string key_list(const std::vector<std::string>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size() && i < 12; ++i) out += (i ? ", " : "") + keys[i];
  if (keys.size() > 12) out += ", and " + std::to_string(keys.size() - 12) + " more";
  return out.empty() ? "none" : out;
}
}  // namespace

bool DumpLoader::finish(Profile& out, std::vector<Problem>& problems) {
  Impl& m = *impl_;
  if (m.kind == Impl::Kind::Unknown) {
    if (m.total == 0) {
      problems.push_back({true, 0, "empty file"});
      return false;
    }
    m.decide(true);
  }
  if (m.kind == Impl::Kind::Other) {
    problems.push_back({true, 0, "unrecognised file: neither Ruby Marshal (04 08) nor JSON"});
    return false;
  }
  bool read_ok = true;
  if (m.kind == Impl::Kind::Marshal) {
    if (!m.marshal->finish()) {
      problems.push_back({true, static_cast<int64_t>(m.marshal->error_offset()), m.marshal->error()});
      read_ok = false;
    } else if (m.marshal->trailing_bytes() > 1) {
      problems.push_back(
          {false, static_cast<int64_t>(m.marshal->bytes_seen() - m.marshal->trailing_bytes()),
           std::to_string(m.marshal->trailing_bytes()) + " bytes after the end of the Marshal stream (ignored)"});
    }
  } else {
    if (!m.json->finish()) {
      read_ok = false;
      problems.push_back({true, static_cast<int64_t>(m.json->error().offset), m.json->error().message});
    }
  }
  ProfileBuilder& b = *m.builder;
  for (auto& pr : b.problems) problems.push_back(pr);
  Profile& p = m.profile;
  const bool is_json = m.kind == Impl::Kind::Json;
  const std::string valid = is_json ? "valid JSON" : "valid Marshal";
  if (b.root_not_map || (!b.saw_root_map && read_ok)) {
    problems.push_back({true, 0, valid + ", but not a stackprof profile: the top-level value is not a Hash"});
    return false;
  }
  if (read_ok && !p.has_frames && !p.has_mode && !p.has_samples) {
    problems.push_back({true, 0, valid + ", but not a stackprof profile: missing :frames / :mode / :samples"});
    return false;
  }
  if (!p.has_frames && read_ok) {
    // Where: the end of the top-level Hash (the frames key would have been inside it), and what
    // the key held if it was there.
    int64_t end =
        is_json ? m.json->root_end() : static_cast<int64_t>(m.marshal->bytes_seen() - m.marshal->trailing_bytes()) - 1;
    std::string msg = is_json ? "stackprof JSON without a frames object" : "stackprof dump without a :frames hash";
    std::string path = is_json ? "$.frames" : "[:frames]";
    if (!b.frames_found_as.empty())
      msg += ": " + path + " is " + b.frames_found_as + ", expected " + (is_json ? "an object" : "a Hash");
    else
      msg += ": " + path + " is missing from the top-level " + (is_json ? "object" : "Hash") + " that ends at byte " +
             std::to_string(end) + " (its keys: " + key_list(p.top_keys) + ")";
    problems.push_back({true, end, msg});
  }
  if (!read_ok && p.frames.empty()) return false;
  resolve(p, problems);
  out = std::move(p);
  return true;
}

void resolve(Profile& p, std::vector<Problem>& problems) {
  auto warn = [&](std::string m) { problems.push_back({false, -1, std::move(m)}); };
  p.index.clear();
  p.index.reserve(p.frames.size() * 2);
  for (uint32_t i = 0; i < p.frames.size(); ++i) p.index[p.frames[i].key] = i;
  p.combined = !p.frames.empty() && std::all_of(p.frames.begin(), p.frames.end(),
                                                [](const Frame& f) { return (f.key & kStringKeyBit) != 0; });

  if (p.has_version && p.version != 1.0 && p.version != 1.1 && p.version != 1.2)
    warn("unknown stackprof format version " + p.version_text + " (known: 1.0, 1.1, 1.2)");
  if (p.has_mode && p.mode != "cpu" && p.mode != "wall" && p.mode != "object" && p.mode != "custom")
    warn("unknown mode " + p.mode + " (samples are shown without a unit)");
  if (!p.has_mode) warn("the profile has no mode");

  auto add_placeholder = [&](uint64_t key) -> uint32_t {
    Frame f;
    f.key = key;
    f.name = "(unknown frame " + p.key_text(key) + ")";
    f.has_name = true;
    f.placeholder = true;
    uint32_t idx = static_cast<uint32_t>(p.frames.size());
    p.frames.push_back(std::move(f));
    p.index[key] = idx;
    return idx;
  };

  // Raw records [len, ids..., weight] -> frame indices. A small cache makes the id lookup cheap:
  // consecutive records share most of their frames.
  p.stack_frames.clear();
  p.stack_begin.clear();
  p.record_weight.clear();
  p.raw_weight_total = 0;
  if (p.has_raw) {
    p.stack_frames.reserve(p.raw.size());
    const auto& raw = p.raw;
    size_t i = 0, n = raw.size();
    int unknown_reported = 0;
    uint64_t last_key = 0;
    uint32_t last_idx = kNoFrame;  // kNoFrame: the cache is empty
    while (i < n) {
      uint64_t len = raw[i];
      if (len > n - i - 1 || n - i - 1 - len < 1) {
        warn("raw ends inside a stack record (declared length " + std::to_string(len) + " at index " +
             std::to_string(i) + " of " + std::to_string(n) + "); the " + std::to_string(p.record_weight.size()) +
             " complete records are kept");
        break;
      }
      p.stack_begin.push_back(static_cast<uint32_t>(p.stack_frames.size()));
      for (uint64_t k = 0; k < len; ++k) {
        uint64_t key = raw[i + 1 + k];
        uint32_t idx;
        if (key == last_key && last_idx != kNoFrame) {
          idx = last_idx;
        } else {
          auto it = p.index.find(key);
          if (it != p.index.end()) {
            idx = it->second;
          } else {
            if (unknown_reported++ < 5)
              warn("raw[" + std::to_string(i + 1 + k) + "] refers to frame " + std::to_string(key) +
                   " which is not in frames");
            idx = add_placeholder(key);
          }
          last_key = key;
          last_idx = idx;
        }
        p.stack_frames.push_back(idx);
      }
      int64_t w = static_cast<int64_t>(raw[i + 1 + len] & INT64_MAX);
      p.record_weight.push_back(w);
      p.raw_weight_total += w;
      i += len + 2;
    }
    p.stack_begin.push_back(static_cast<uint32_t>(p.stack_frames.size()));
    if (p.has_deltas && static_cast<int64_t>(p.raw_timestamp_deltas.size()) != p.raw_weight_total)
      warn("raw_timestamp_deltas has " + std::to_string(p.raw_timestamp_deltas.size()) + " entries but raw holds " +
           std::to_string(p.raw_weight_total) + " samples; the time-order view covers only the matching part");
  }

  // Edge targets.
  int unknown_edges = 0;
  for (auto& f : p.frames)
    for (auto& e : f.edges) {
      auto it = p.index.find(e.to_key);
      if (it != p.index.end()) {
        e.to = it->second;
      } else if (unknown_edges++ < 5) {
        warn("frame " + p.key_text(f.key) + " has an edge to " + p.key_text(e.to_key) + " which is not in frames");
      }
    }

  // Missing counters: derive what can be derived, say so.
  if (!p.has_samples) {
    int64_t s = 0;
    if (p.has_raw) {
      s = p.raw_weight_total;
    } else {
      for (const auto& f : p.frames) s += f.self;
    }
    p.samples = s;
    warn("the profile has no samples counter; using " + std::to_string(s) +
         (p.has_raw ? " (sum of raw weights)" : " (sum of self samples)"));
  }
  if (!p.has_missed_samples) warn("the profile has no missed_samples counter (miss rate unknown)");
  if (!p.has_gc_samples) warn("the profile has no gc_samples counter (GC share unknown)");
}

// ---- Sums -----------------------------------------------------------------------------------

namespace {

struct Sha256 {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  void block(const uint8_t* p) {
    static const uint32_t k[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    auto rotr = [](uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = uint32_t(p[4 * i]) << 24 | uint32_t(p[4 * i + 1]) << 16 | uint32_t(p[4 * i + 2]) << 8 |
             uint32_t(p[4 * i + 3]);
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
};

}  // namespace

std::string sha256_hex(const std::string& data) {
  Sha256 s;
  size_t n = data.size();
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  size_t i = 0;
  for (; i + 64 <= n; i += 64) s.block(p + i);
  uint8_t tail[128] = {0};
  size_t rest = n - i;
  std::memcpy(tail, p + i, rest);
  tail[rest] = 0x80;
  size_t len = rest + 1 + 8 <= 64 ? 64 : 128;
  uint64_t bits = static_cast<uint64_t>(n) * 8;
  for (int k = 0; k < 8; ++k) tail[len - 1 - k] = static_cast<uint8_t>(bits >> (8 * k));
  s.block(tail);
  if (len == 128) s.block(tail + 64);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (uint32_t v : s.h)
    for (int k = 7; k >= 0; --k) out.push_back(hex[(v >> (4 * k)) & 15]);
  return out;
}

namespace {

// The identity stackprof gives a frame when summing: SHA-256("#{name}#{file}#{line}").
std::string frame_identity(const Frame& f) {
  return sha256_hex(f.name + f.file + (f.line_kind == LineKind::Int ? std::to_string(f.line) : std::string()));
}

// Report#normalized_frames: frames re-keyed by SHA-256("#{name}#{file}#{line}"); a later frame with
// the same identity replaces an earlier one (in the earlier one's position), as Ruby's Hash does.
std::vector<Frame> normalized(const Profile& p, std::vector<std::string>& keys) {
  std::vector<std::string> hash_of(p.frames.size());
  for (size_t i = 0; i < p.frames.size(); ++i) hash_of[i] = frame_identity(p.frames[i]);
  std::vector<Frame> out;
  std::unordered_map<std::string, size_t> pos;
  keys.clear();
  for (size_t i = 0; i < p.frames.size(); ++i) {
    if (p.frames[i].placeholder) continue;
    Frame f = p.frames[i];
    f.hash = hash_of[i];
    if (!f.has_hash) f.fields.push_back(kFieldHash);
    f.has_hash = true;
    auto it = pos.find(hash_of[i]);
    if (it == pos.end()) {
      pos.emplace(hash_of[i], out.size());
      keys.push_back(hash_of[i]);
      out.push_back(std::move(f));
    } else {
      out[it->second] = std::move(f);
    }
  }
  // Edge keys become their target's position in `keys`; two targets with one identity collapse
  // into one edge holding the later weight (Ruby's Hash assignment).
  for (auto& f : out) {
    std::vector<Edge> edges;
    for (const auto& e : f.edges) {
      auto it = p.index.find(e.to_key);
      Edge ne = e;
      ne.to_key = it == p.index.end() ? kStringKeyBit : pos[hash_of[it->second]];
      auto dup = std::find_if(edges.begin(), edges.end(), [&](const Edge& x) { return x.to_key == ne.to_key; });
      if (dup == edges.end()) edges.push_back(ne);
      else dup->weight = ne.weight;
    }
    f.edges = std::move(edges);
  }
  return out;
}

}  // namespace

bool sum_profiles(std::vector<Profile>& parts, Profile& out, std::string& error) {
  if (parts.empty()) return false;
  if (parts.size() == 1) {
    out = std::move(parts[0]);
    return true;
  }
  // stackprof pops its arguments: ((p[n-1] + p[n-2]) + ...) + p[0].
  struct Acc {
    std::vector<Frame> frames;  // edges' to_key = position in keys
    std::vector<std::string> keys;
    std::unordered_map<std::string, size_t> pos;
  } acc;
  const Profile& last = parts.back();
  std::string modeline = last.mode + "(" + std::to_string(last.interval) + ")";
  for (size_t k = parts.size(); k-- > 0;) {
    const Profile& p = parts[k];
    std::string ml = p.mode + "(" + std::to_string(p.interval) + ")";
    if (ml != modeline) {
      error = "cannot combine " + modeline + " with " + ml + " (" + std::to_string(parts.size() - k) +
              ". file from the end)";
      return false;
    }
    if (p.version_text != last.version_text) {
      error = "cannot combine v" + last.version_text + " with v" + p.version_text;
      return false;
    }
    std::vector<std::string> keys;
    std::vector<Frame> nf = normalized(p, keys);
    // Map this part's key positions to accumulator positions.
    std::vector<size_t> remap(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) {
      auto it = acc.pos.find(keys[i]);
      if (it == acc.pos.end()) {
        remap[i] = acc.keys.size();
        acc.pos.emplace(keys[i], acc.keys.size());
        acc.keys.push_back(keys[i]);
        acc.frames.emplace_back();
        acc.frames.back().key = kStringKeyBit;  // marks "empty slot" until filled
      } else {
        remap[i] = it->second;
      }
    }
    for (size_t i = 0; i < nf.size(); ++i) {
      Frame& src = nf[i];
      for (auto& e : src.edges)
        if (e.to_key != kStringKeyBit) e.to_key = remap[static_cast<size_t>(e.to_key)];
      Frame& dst = acc.frames[remap[i]];
      if (dst.key == kStringKeyBit) {
        dst = std::move(src);
        dst.key = 0;
        continue;
      }
      dst.total += src.total;
      dst.self += src.self;
      // A field the earlier frame lacked is appended to its field order, as Ruby's ||= {} does.
      auto gain = [&dst](bool& has, FrameField field) {
        if (!has) {
          has = true;
          dst.fields.push_back(field);
        }
      };
      if (src.has_edges) {
        gain(dst.has_edges, kFieldEdges);
        for (const auto& e : src.edges) {
          auto it =
              std::find_if(dst.edges.begin(), dst.edges.end(), [&](const Edge& x) { return x.to_key == e.to_key; });
          if (it == dst.edges.end()) dst.edges.push_back(e);
          else it->weight += e.weight;
        }
      }
      if (src.has_lines) {
        gain(dst.has_lines, kFieldLines);
        for (const auto& l : src.lines) {
          auto it =
              std::find_if(dst.lines.begin(), dst.lines.end(), [&](const LineStat& x) { return x.line == l.line; });
          if (it == dst.lines.end()) dst.lines.push_back(l);
          else add_line(*it, l);
        }
      }
    }
  }
  out = Profile();
  out.encoding = last.encoding;
  out.has_version = last.has_version;
  out.version = last.version;
  out.version_text = last.version_text;
  out.has_mode = last.has_mode;
  out.mode = last.mode;
  out.has_interval = last.has_interval;
  out.interval = last.interval;
  out.has_samples = out.has_gc_samples = out.has_missed_samples = true;
  for (const auto& p : parts) {
    out.samples += p.samples;
    out.gc_samples += p.gc_samples;
    out.missed_samples += p.missed_samples;
    out.has_gc_samples = out.has_gc_samples && p.has_gc_samples;
    out.has_missed_samples = out.has_missed_samples && p.has_missed_samples;
  }
  out.top_keys = {"version", "mode", "interval", "samples", "gc_samples", "missed_samples", "frames"};
  out.has_frames = true;
  out.string_keys = acc.keys;
  out.frames = std::move(acc.frames);
  for (size_t i = 0; i < out.frames.size(); ++i) {
    out.frames[i].key = kStringKeyBit | i;
    for (auto& e : out.frames[i].edges)
      e.to_key = e.to_key == kStringKeyBit ? kStringKeyBit : (kStringKeyBit | e.to_key);
  }
  // Raw samples (our addition): concatenated in argument order, ids re-keyed to the sum's frames.
  bool all_raw = std::all_of(parts.begin(), parts.end(), [](const Profile& p) { return p.has_raw; });
  if (all_raw) {
    out.has_raw = true;
    std::unordered_map<std::string, uint64_t> by_hash;
    for (size_t i = 0; i < out.string_keys.size(); ++i) by_hash.emplace(out.string_keys[i], kStringKeyBit | i);
    bool deltas = std::all_of(parts.begin(), parts.end(), [](const Profile& p) { return p.has_deltas; });
    out.has_deltas = deltas;
    for (const auto& p : parts) {
      std::vector<uint64_t> key_of(p.frames.size());
      for (size_t i = 0; i < p.frames.size(); ++i) {
        auto it = by_hash.find(frame_identity(p.frames[i]));
        key_of[i] = it == by_hash.end() ? kStringKeyBit : it->second;
      }
      for (size_t r = 0; r + 1 < p.stack_begin.size(); ++r) {
        out.raw.push_back(p.stack_begin[r + 1] - p.stack_begin[r]);
        for (uint32_t j = p.stack_begin[r]; j < p.stack_begin[r + 1]; ++j) out.raw.push_back(key_of[p.stack_frames[j]]);
        out.raw.push_back(static_cast<uint64_t>(p.record_weight[r]));
      }
      if (deltas)
        out.raw_timestamp_deltas.insert(out.raw_timestamp_deltas.end(), p.raw_timestamp_deltas.begin(),
                                        p.raw_timestamp_deltas.end());
    }
  }
  std::vector<Problem> ignored;
  resolve(out, ignored);
  out.combined = true;
  return true;
}

// ---- Ruby number formatting -----------------------------------------------------------------

std::string ruby_float(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v < 0 ? "-Infinity" : "Infinity";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  // Shortest digits that read back as v.
  // Round-tripping is monotonic in the digit count: binary search the smallest count (1..17)
  // (snprintf/strtod are soft long double in wasm's libc: few calls matter).
  char buf[40];
  int lo = 1, hi = 17;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    std::snprintf(buf, sizeof buf, "%.*e", mid - 1, v);
    if (std::strtod(buf, nullptr) == v) hi = mid;
    else lo = mid + 1;
  }
  std::snprintf(buf, sizeof buf, "%.*e", lo - 1, v);
  // buf = [-]d.ddde[+-]XX
  std::string s(buf);
  bool neg = s[0] == '-';
  if (neg) s.erase(0, 1);
  size_t epos = s.find('e');
  int exp10 = std::atoi(s.c_str() + epos + 1);
  std::string digits;
  for (size_t i = 0; i < epos; ++i)
    if (s[i] != '.') digits.push_back(s[i]);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  int decpt = exp10 + 1;  // value = 0.digits x 10^decpt
  std::string out = neg ? "-" : "";
  if (decpt > 0 && decpt <= 16) {
    if (static_cast<int>(digits.size()) <= decpt) {
      out += digits + std::string(static_cast<size_t>(decpt) - digits.size(), '0') + ".0";
    } else {
      out += digits.substr(0, static_cast<size_t>(decpt)) + "." + digits.substr(static_cast<size_t>(decpt));
    }
  } else if (decpt <= 0 && decpt > -4) {
    out += "0." + std::string(static_cast<size_t>(-decpt), '0') + digits;
  } else {
    out += digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0");
    char e[16];
    std::snprintf(e, sizeof e, "e%+03d", decpt - 1);
    out += e;
  }
  return out;
}

}  // namespace gcscope::stackprof
