#include "payload.h"

#include <cstring>

namespace gcscope::rubygc {

namespace {

const char* const kEventNames[kEventCount] = {"BOOTED",         "PROCESSING_STARTED", "PROCESSING_ENDED",
                                              "GC_CYCLE_STARTED", "GC_CYCLE_ENDED",     "TERMINATED"};
const char* const kMajorNames[] = {"none", "nofree", "oldgen", "shady", "force", "oldmalloc", "other"};
const char* const kGcByNames[] = {"none", "newobj", "malloc", "method", "capi", "stress", "other"};

// Deepest nesting a real payload has: [ [sample [stat] {info} {meta {stat_heap {heap {..}}}}] ] = 6.
constexpr int kMaxDepth = 32;

// "a string \"3.1\"", "a number 2.2", "an object", "null" — what was found, for messages.
std::string describe(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::boolean: return std::string("the boolean ") + (v.get<bool>() ? "true" : "false");
    case nlohmann::json::value_t::string: {
      std::string s = v.get<std::string>();
      if (s.size() > 40) s = s.substr(0, 40) + "...";
      return "a string \"" + s + "\"";
    }
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float: return "the number " + v.dump();
    case nlohmann::json::value_t::object: return "an object with " + std::to_string(v.size()) + " keys";
    case nlohmann::json::value_t::array: return "an array of " + std::to_string(v.size()) + " elements";
    default: return "an unsupported value";
  }
}

// A JSON integer in [0, 2^63): GC counters and sizes (larger values would wrap in int64 columns).
bool non_negative_integer(const nlohmann::json& v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX);
  return v.is_number_integer() && v.get<int64_t>() >= 0;
}

int8_t major_code(const nlohmann::json& v) {
  if (!v.is_string()) return kMajorNone;
  const auto& s = v.get_ref<const std::string&>();
  if (s == "nofree") return kMajorNofree;
  if (s == "oldgen") return kMajorOldgen;
  if (s == "shady") return kMajorShady;
  if (s == "force") return kMajorForce;
  if (s == "oldmalloc") return kMajorOldmalloc;
  return kMajorOther;
}

int8_t gc_by_code(const nlohmann::json& v) {
  if (!v.is_string()) return kGcByNone;
  const auto& s = v.get_ref<const std::string&>();
  if (s == "newobj") return kGcByNewobj;
  if (s == "malloc") return kGcByMalloc;
  if (s == "method") return kGcByMethod;
  if (s == "capi") return kGcByCapi;
  if (s == "stress") return kGcByStress;
  return kGcByOther;
}

// Nesting depth outside strings (nlohmann's parser is iterative, but bounding the depth also
// bounds the work of everything that walks the document afterwards).
int max_depth(const std::string& s, size_t* where) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > kMaxDepth) {
          *where = i;
          return deepest;
        }
      }
    } else if (c == ']' || c == '}') --depth;
  }
  return deepest;
}

Verdict bad(std::string message, nlohmann::json details = nlohmann::json::object()) {
  Verdict v;
  v.status = 400;
  v.message = std::move(message);
  v.details = std::move(details);
  return v;
}

std::string sample_label(size_t idx, const char* event = nullptr) {
  std::string s = "sample #" + std::to_string(idx) + " (payload element " + std::to_string(idx + 1);
  if (event) s += std::string(", ") + event;
  return s + ")";
}

const char* kHeaderNames11[] = {"application token", "Ruby version", "Rails version", "RUBY_GC_* environment",
                                "agent version", "compile options", "GC::INTERNAL_CONSTANTS", "GC.stat keys",
                                "hostname", "parent pid", "pid"};

}  // namespace

const char* event_name(int e) { return e >= 0 && e < kEventCount ? kEventNames[e] : "?"; }
const char* major_by_name(int m) { return m >= 0 && m <= kMajorOther ? kMajorNames[m] : "?"; }
const char* gc_by_name(int g) { return g >= 0 && g <= kGcByOther ? kGcByNames[g] : "?"; }

const char* layout_name(Layout l) {
  switch (l) {
    case Layout::kNoThread7: return "7";
    case Layout::kThreadFirst8: return "8-thread-first";
    case Layout::kThreadLast8: return "8-thread-last";
    default: return "unknown";
  }
}

int64_t Payload::heap_available(size_t i) const {
  if (col.heap_available < 0) return -1;
  int64_t v = at(i, col.heap_available);
  return col.ruby21_names ? v * page_obj_limit : v;  // 2.1: heap_used pages
}

Verdict read_header(std::string&& bytes, Payload& out, int64_t* byte_offset) {
  *byte_offset = -1;
  size_t deep_at = 0;
  if (max_depth(bytes, &deep_at) > kMaxDepth) {
    *byte_offset = static_cast<int64_t>(deep_at);
    return bad("JSON nested deeper than " + std::to_string(kMaxDepth) + " levels at byte " + std::to_string(deep_at) +
                   "; a TuneMyGC payload nests 6 levels at most",
               {{"byte", deep_at}});
  }
  try {
    out.doc = nlohmann::json::parse(bytes);
  } catch (const nlohmann::json::parse_error& e) {
    *byte_offset = static_cast<int64_t>(e.byte);
    std::string what = e.what();
    size_t p = what.find("] ");
    if (p != std::string::npos) what = what.substr(p + 2);
    return bad("invalid JSON: " + what + " (byte " + std::to_string(e.byte) + " of " + std::to_string(bytes.size()) + ")",
               {{"byte", e.byte}, {"bytes", bytes.size()}});
  }
  std::string().swap(bytes);  // the text is no longer needed
  const nlohmann::json& doc = out.doc;
  if (!doc.is_array()) {
    nlohmann::json d = {{"found", doc.type_name()}};
    std::string extra;
    if (doc.is_object()) {
      nlohmann::json keys = nlohmann::json::array();
      for (auto it = doc.begin(); it != doc.end() && keys.size() < 8; ++it) keys.push_back(it.key());
      d["keys"] = keys;
      extra = " with keys " + keys.dump();
    }
    return bad("payload must be a JSON array [header, sample, ...]; found " + (extra.empty() ? describe(doc) : "an object" + extra), d);
  }
  if (doc.empty()) return bad("empty payload: the array has no header (element 0) and no samples", {{"elements", 0}});

  return check_header(doc[0], out);
}

Verdict check_header(const nlohmann::json& h, Payload& out) {
  if (!h.is_array())
    return bad("payload element 0 (the header) must be an array of 11 or 12 elements; found " + describe(h),
               {{"element", 0}});
  Header& hd = out.header;
  hd.arity = static_cast<int>(h.size());
  if (h.size() != 11 && h.size() != 12)
    return bad("header has " + std::to_string(h.size()) +
                   " elements; expected 11 (protocol document) or 12 (agents >= 1.0.7 add the spy id at [8])",
               {{"element", "header"}, {"expected", "11 or 12"}, {"found", h.size()}});
  auto header_bad = [&](size_t k, const char* expected) {
    size_t name_index = (h.size() == 12 && k >= 8) ? (k == 8 ? 99 : k - 1) : k;
    std::string name = name_index == 99 ? "spy id" : kHeaderNames11[name_index];
    return bad("header[" + std::to_string(k) + "] (" + name + ") must be " + expected + "; found " + describe(h[k]),
               {{"element", "header[" + std::to_string(k) + "]"}, {"expected", expected}, {"found", describe(h[k])}});
  };
  if (!h[0].is_string() && !h[0].is_null()) return header_bad(0, "a string or null");
  hd.token = h[0];
  if (!h[1].is_string()) return header_bad(1, "a string such as \"3.1.2\"");
  hd.ruby_version = h[1].get<std::string>();
  if (!h[2].is_string()) return header_bad(2, "a string (\"0.0\" outside Rails)");
  hd.rails_version = h[2].get<std::string>();
  if (!h[3].is_object()) return header_bad(3, "an object of RUBY_GC_* name => string value");
  for (auto it = h[3].begin(); it != h[3].end(); ++it) {
    if (!it.value().is_string())
      return bad("header[3] (RUBY_GC_* environment): the value of " + it.key() +
                     " must be a string (environment values are strings); found " + describe(it.value()),
                 {{"element", "header[3]." + it.key()}, {"expected", "string"}, {"found", describe(it.value())}});
    hd.env.emplace_back(it.key(), it.value().get<std::string>());
  }
  if (!h[4].is_string()) return header_bad(4, "a string such as \"1.0.53\"");
  hd.agent_version = h[4].get<std::string>();
  if (!h[5].is_array()) return header_bad(5, "an array of GC compile option names");
  hd.compile_options = h[5];
  if (!h[6].is_object()) return header_bad(6, "an object (GC::INTERNAL_CONSTANTS)");
  hd.internal_constants = h[6];
  if (!h[7].is_array() || h[7].empty()) return header_bad(7, "a non-empty array of GC.stat key names");
  for (size_t k = 0; k < h[7].size(); ++k) {
    if (!h[7][k].is_string())
      return bad("header[7] (GC.stat keys) element " + std::to_string(k) + " must be a string; found " + describe(h[7][k]),
                 {{"element", "header[7][" + std::to_string(k) + "]"}});
    hd.stat_keys.push_back(h[7][k].get<std::string>());
  }
  size_t base = 8;
  if (h.size() == 12) {
    if (!h[8].is_string() && !h[8].is_null()) return header_bad(8, "a string (spy id such as \"action_controller\")");
    if (h[8].is_string()) hd.spy = h[8].get<std::string>();
    base = 9;
  }
  if (!h[base].is_string() && !h[base].is_null()) return header_bad(base, "a string");
  if (h[base].is_string()) hd.hostname = h[base].get<std::string>();
  if (!h[base + 1].is_number_integer()) return header_bad(base + 1, "an integer");
  hd.ppid = h[base + 1].get<int64_t>();
  if (!h[base + 2].is_number_integer()) return header_bad(base + 2, "an integer");
  hd.pid = h[base + 2].get<int64_t>();

  // Stat key columns, by name (positions differ per Ruby version).
  StatColumns& c = out.col;
  for (size_t k = 0; k < hd.stat_keys.size(); ++k) {
    const std::string& key = hd.stat_keys[k];
    int i = static_cast<int>(k);
    if (key == "count") c.count = i;
    else if (key == "time") c.time = i;
    else if (key == "marking_time") c.marking_time = i;
    else if (key == "sweeping_time") c.sweeping_time = i;
    else if (key == "heap_available_slots") c.heap_available = i;
    else if (key == "heap_used") c.heap_available = i, c.ruby21_names = true;
    else if (key == "heap_live_slots" || key == "heap_live_slot") c.heap_live = i;
    else if (key == "heap_free_slots" || key == "heap_free_slot") c.heap_free = i;
    else if (key == "heap_allocated_pages") c.heap_allocated_pages = i;
    else if (key == "total_allocated_objects" || key == "total_allocated_object") c.total_allocated = i;
    else if (key == "total_freed_objects" || key == "total_freed_object") c.total_freed = i;
    else if (key == "malloc_increase_bytes" || key == "malloc_increase") c.malloc_increase = i;
    else if (key == "malloc_increase_bytes_limit" || key == "malloc_limit") c.malloc_limit = i;
    else if (key == "oldmalloc_increase_bytes" || key == "oldmalloc_increase") c.oldmalloc_increase = i;
    else if (key == "oldmalloc_increase_bytes_limit" || key == "oldmalloc_limit") c.oldmalloc_limit = i;
    else if (key == "minor_gc_count") c.minor = i;
    else if (key == "major_gc_count") c.major = i;
    else if (key == "compact_count") c.compact_count = i;
    else if (key == "old_objects" || key == "old_object") c.old_objects = i;
    else if (key == "old_objects_limit" || key == "old_object_limit") c.old_objects_limit = i;
    else if (key == "remembered_wb_unprotected_objects" || key == "remembered_shady_object") c.shady = i;
    else if (key == "remembered_wb_unprotected_objects_limit" || key == "remembered_shady_object_limit") c.shady_limit = i;
  }
  if (c.count < 0)
    return bad("header[7] (GC.stat keys) has no \"count\": the GC counter every analysis needs",
               {{"element", "header[7]"}, {"expected", "a key named count"}});
  const auto& k = hd.internal_constants;
  for (const char* name : {"HEAP_PAGE_OBJ_LIMIT", "HEAP_OBJ_LIMIT"})
    if (k.contains(name) && k[name].is_number_integer() && k[name].get<int64_t>() > 0) {
      out.page_obj_limit = k[name].get<int64_t>();
      break;
    }
  for (const char* name : {"BASE_SLOT_SIZE", "RVALUE_SIZE"})
    if (k.contains(name) && k[name].is_number_integer() && k[name].get<int64_t>() > 0) {
      out.slot_size = k[name].get<int64_t>();
      break;
    }
  // A 20-byte RVALUE is a 32-bit build (ruby.wasm): strtol there is 32-bit.
  if (out.slot_size == 20) out.pointer_bits = 32;
  return Verdict{};
}

Verdict read_samples(Payload& out) {
  const nlohmann::json& doc = out.doc;
  if (doc.size() < 2) return bad("no samples: the payload has a header but no sample after it", {{"samples", 0}});
  const size_t width = out.header.stat_keys.size();
  out.width = width;
  const size_t n = doc.size() - 1;
  out.ts.reserve(n);
  out.peak_rss.reserve(n);
  out.rss.reserve(n);
  out.thread.reserve(n);
  out.event.reserve(n);
  out.stat.reserve(n * width);
  out.major_by.reserve(n);
  out.gc_by.reserve(n);
  out.need_major.reserve(n);
  out.meta.reserve(n);
  // Only the GC counters: the protocol document's own examples (sd02) are cut from different moments,
  // so object totals may step back between samples there, but GC counts never do.
  const int monotonic[] = {out.col.count, out.col.minor, out.col.major};
  std::vector<int64_t> last(3, -1);
  std::vector<size_t> last_at(3, 0);
  for (size_t idx = 0; idx < n; ++idx) {
    const nlohmann::json& s = doc[idx + 1];
    if (!s.is_array())
      return bad(sample_label(idx) + " must be an array; found " + describe(s),
                 {{"sample", idx}, {"expected", "array"}, {"found", describe(s)}});
    Layout layout = Layout::kUnknown;
    if (s.size() == 8 && s[4].is_string()) layout = Layout::kThreadFirst8;
    else if (s.size() == 7 && s[3].is_string()) layout = Layout::kNoThread7;
    else if (s.size() == 8 && s[3].is_string()) layout = Layout::kThreadLast8;
    if (layout == Layout::kUnknown) {
      if (s.size() != 7 && s.size() != 8)
        return bad(sample_label(idx) + " has " + std::to_string(s.size()) +
                       " elements; expected 7 [ts, peak_rss, rss, EVENT, stat, info, meta] or 8 (thread id first or last)",
                   {{"sample", idx}, {"expected", "7 or 8 elements"}, {"found", s.size()}});
      return bad(sample_label(idx) + " has no event name at element " + (s.size() == 8 ? "4 or 3" : "3") + "; found " +
                     describe(s[s.size() == 8 ? 4 : 3]),
                 {{"sample", idx}, {"expected", "event string"}});
    }
    if (out.layout == Layout::kUnknown) {
      out.layout = layout;
    } else if (layout != out.layout) {
      return bad(sample_label(idx) + " uses layout " + layout_name(layout) + " but the samples before it use " +
                     layout_name(out.layout) + "; one payload comes from one agent version, mixed layouts are rejected",
                 {{"sample", idx}, {"expected", layout_name(out.layout)}, {"found", layout_name(layout)}});
    }
    const size_t o = layout == Layout::kThreadFirst8 ? 1 : 0;  // offset of ts
    const std::string& ev = s[o + 3].get_ref<const std::string&>();
    int e = -1;
    for (int k = 0; k < kEventCount; ++k)
      if (ev == kEventNames[k]) e = k;
    if (e < 0)
      return bad(sample_label(idx) + ": unknown event \"" + ev +
                     "\"; expected BOOTED, PROCESSING_STARTED, PROCESSING_ENDED, GC_CYCLE_STARTED, GC_CYCLE_ENDED or TERMINATED",
                 {{"sample", idx}, {"element", o + 3}, {"found", ev}});
    const char* evn = kEventNames[e];
    auto elem_bad = [&](size_t k, const char* what, const char* expected) {
      return bad(sample_label(idx, evn) + " element " + std::to_string(k) + " (" + what + ") must be " + expected +
                     "; found " + describe(s[k]),
                 {{"sample", idx}, {"event", evn}, {"element", k}, {"expected", expected}, {"found", describe(s[k])}});
    };
    if (!s[o].is_number()) return elem_bad(o, "timestamp", "a number (seconds)");
    if (!non_negative_integer(s[o + 1])) return elem_bad(o + 1, "peak RSS", "a non-negative integer (bytes; 0 = unknown)");
    if (!non_negative_integer(s[o + 2])) return elem_bad(o + 2, "RSS", "a non-negative integer (bytes; 0 = unknown)");
    const nlohmann::json& st = s[o + 4];
    if (!st.is_array()) return elem_bad(o + 4, "GC.stat values", "an array");
    if (st.size() != width)
      return bad(sample_label(idx, evn) + " element " + std::to_string(o + 4) + " (GC.stat values) has " +
                     std::to_string(st.size()) + " values; header[7] names " + std::to_string(width) + " keys",
                 {{"sample", idx}, {"event", evn}, {"element", o + 4}, {"expected", width}, {"found", st.size()}});
    for (size_t k = 0; k < width; ++k) {
      if (!non_negative_integer(st[k]))
        return bad(sample_label(idx, evn) + " GC.stat value " + out.header.stat_keys[k] + " (index " + std::to_string(k) +
                       ") must be a non-negative integer; found " + describe(st[k]),
                   {{"sample", idx}, {"event", evn}, {"key", out.header.stat_keys[k]}, {"found", describe(st[k])}});
    }
    const nlohmann::json& info = s[o + 5];
    if (!info.is_object()) return elem_bad(o + 5, "GC.latest_gc_info", "an object");
    const nlohmann::json& meta = s[o + 6];
    if (!meta.is_object() && !meta.is_null()) return elem_bad(o + 6, "metadata", "an object or null");
    int64_t thread = Payload::kNoThread;
    if (layout != Layout::kNoThread7) {
      size_t tk = layout == Layout::kThreadFirst8 ? 0 : 7;
      if (s[tk].is_number_integer()) thread = s[tk].get<int64_t>();
      else if (!s[tk].is_null()) return elem_bad(tk, "thread id", "an integer or null");
    }
    // Counters never go back within one process.
    for (int m = 0; m < 3; ++m) {
      if (monotonic[m] < 0) continue;
      int64_t v = st[static_cast<size_t>(monotonic[m])].get<int64_t>();
      if (last[m] >= 0 && v < last[m]) {
        const std::string& key = out.header.stat_keys[static_cast<size_t>(monotonic[m])];
        return bad(sample_label(idx, evn) + ": GC.stat " + key + " = " + std::to_string(v) + " is lower than " +
                       std::to_string(last[m]) + " at sample #" + std::to_string(last_at[m]) +
                       "; counters never decrease within one process (samples from several processes, or corrupted)",
                   {{"sample", idx}, {"key", key}, {"expected", ">= " + std::to_string(last[m])}, {"found", v}});
      }
      last[m] = v;
      last_at[m] = idx;
    }
    out.ts.push_back(s[o].get<double>());
    out.peak_rss.push_back(s[o + 1].get<int64_t>());
    out.rss.push_back(s[o + 2].get<int64_t>());
    out.event.push_back(static_cast<uint8_t>(e));
    for (size_t k = 0; k < width; ++k) out.stat.push_back(st[k].get<int64_t>());
    auto mb = info.find("major_by");
    auto gb = info.find("gc_by");
    auto nb = info.find("need_major_by");
    out.major_by.push_back(mb == info.end() ? static_cast<int8_t>(kMajorNone) : major_code(*mb));
    out.gc_by.push_back(gb == info.end() ? static_cast<int8_t>(kGcByNone) : gc_by_code(*gb));
    out.need_major.push_back(nb == info.end() ? static_cast<int8_t>(kMajorNone) : major_code(*nb));
    out.meta.push_back(meta.is_object() ? &meta : nullptr);
    out.thread.push_back(thread);
    ++out.n;
  }
  return Verdict{};
}

// ---- the fast path: one SAX pass that stores valid samples straight into the columns ----------------
// A 3 MB payload is ~10k samples of ~30 integers; building and destroying a DOM for them costs more
// than lexing. This handler accepts only the well-formed shape; at the first deviation it stops, and the
// caller reruns the DOM path above, whose checks produce the precise message. Both paths apply the
// same rules (tests/rubygc run every corpus payload, valid or not, through the pipeline).
namespace {

using json = nlohmann::json;

// Builds a DOM for small subtrees (the header, meta hashes).
struct Builder {
  json root;
  std::vector<json*> stack;
  std::string key;
  bool active() const { return !stack.empty(); }
  json* insert(json v) {
    json* top = stack.back();
    if (top->is_array()) {
      top->push_back(std::move(v));
      return &top->back();
    }
    json& slot = (*top)[key];
    slot = std::move(v);
    return &slot;
  }
  void begin(json container) {
    root = std::move(container);
    stack.assign(1, &root);
  }
  void open(json container) { stack.push_back(insert(std::move(container))); }
  void close() { stack.pop_back(); }
};

class FastReader final : public json::json_sax_t {
 public:
  explicit FastReader(Payload& out) : out_(out) {}
  bool ok = false;

  bool null() override { return scalar(json(nullptr)); }
  bool boolean(bool v) override { return scalar(json(v)); }
  bool number_integer(number_integer_t v) override {
    if (in_stat_) {
      if (v < 0) return false;
      stat_row_.push_back(v);
      return true;
    }
    return scalar(json(v));
  }
  bool number_unsigned(number_unsigned_t v) override {
    if (in_stat_) {
      if (v > static_cast<number_unsigned_t>(INT64_MAX)) return false;
      stat_row_.push_back(static_cast<int64_t>(v));
      return true;
    }
    return scalar(json(v));
  }
  bool number_float(number_float_t v, const string_t&) override {
    if (in_stat_) return false;
    return scalar(json(v));
  }
  bool string(string_t& v) override {
    if (in_stat_) return false;
    if (in_info_) {
      if (depth_ == 3) info_string(v);
      return depth_ == 3;
    }
    return scalar(json(std::move(v)));
  }
  bool binary(binary_t&) override { return false; }
  bool key(string_t& k) override {
    if (builder_.active()) builder_.key = k;
    else if (in_info_) info_key_ = k;
    else return false;
    return true;
  }
  bool start_object(std::size_t) override {
    if (++depth_ > 32) return false;
    if (builder_.active()) {
      builder_.open(json::object());
      return true;
    }
    if (depth_ != 3 || in_sample_elem_ < 0) return false;
    if (stat_pos_ >= 0 && elem_ == stat_pos_ + 1) {
      in_info_ = true;
      major_ = kMajorNone, gc_by_ = kGcByNone, need_ = kMajorNone;
      return true;
    }
    if (stat_pos_ >= 0 && elem_ == stat_pos_ + 2) {
      builder_.begin(json::object());
      meta_builder_ = true;
      return true;
    }
    return false;
  }
  bool end_object() override {
    --depth_;
    if (builder_.active()) {
      builder_.close();
      if (!builder_.active() && meta_builder_) {
        meta_builder_ = false;
        out_.owned_meta.push_back(std::move(builder_.root));
        meta_ = &out_.owned_meta.back();
        ++elem_;
      }
      return true;
    }
    if (in_info_) {
      in_info_ = false;
      info_seen_ = true;
      ++elem_;
      return true;
    }
    return false;
  }
  bool start_array(std::size_t) override {
    if (++depth_ > 32) return false;
    if (depth_ == 1) return true;  // the payload
    if (builder_.active()) {
      builder_.open(json::array());
      return true;
    }
    if (depth_ == 2) {
      if (top_ == 0) {  // the header: a small DOM
        builder_.begin(json::array());
        return true;
      }
      // a sample
      elem_ = 0;
      in_sample_elem_ = 0;
      stat_pos_ = -1;
      info_seen_ = false;
      meta_ = nullptr;
      for (auto& v : scalars_) v = nullptr;
      return true;
    }
    if (depth_ == 3 && in_sample_elem_ >= 0 && stat_pos_ < 0) {
      in_stat_ = true;
      stat_pos_ = elem_;
      stat_row_.clear();
      return true;
    }
    return false;
  }
  bool end_array() override {
    --depth_;
    if (builder_.active()) {
      builder_.close();
      if (!builder_.active()) {  // the header ended
        out_.doc = std::move(builder_.root);
        if (!header_ready()) return false;
        ++top_;
      }
      return true;
    }
    if (in_stat_) {
      in_stat_ = false;
      ++elem_;
      return true;
    }
    if (depth_ == 1) {  // a sample ended
      in_sample_elem_ = -1;
      ++top_;
      return finish_sample();
    }
    if (depth_ == 0) {
      ok = top_ >= 2;
      return true;
    }
    return false;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool scalar(json v) {
    if (builder_.active()) {
      builder_.insert(std::move(v));
      return true;
    }
    if (in_info_) return depth_ == 3;  // other latest_gc_info values: ignored
    if (depth_ != 2 || in_sample_elem_ < 0) return false;
    if (elem_ < 8) scalars_[static_cast<size_t>(elem_)] = std::move(v);
    ++elem_;
    return true;
  }
  void info_string(const std::string& v) {
    json j(v);
    if (info_key_ == "major_by") major_ = major_code(j);
    else if (info_key_ == "gc_by") gc_by_ = gc_by_code(j);
    else if (info_key_ == "need_major_by") need_ = major_code(j);
  }
  bool header_ready() {
    // The full header checks run later (check_header); here only what the samples need.
    const json& h = out_.doc;
    if (!h.is_array() || h.size() < 8 || !h[7].is_array()) return false;
    width_ = h[7].size();
    for (size_t k = 0; k < width_; ++k) {
      if (!h[7][k].is_string()) return false;
      const auto& name = h[7][k].get_ref<const std::string&>();
      if (name == "count") mono_[0] = static_cast<int>(k);
      else if (name == "minor_gc_count") mono_[1] = static_cast<int>(k);
      else if (name == "major_gc_count") mono_[2] = static_cast<int>(k);
    }
    out_.width = width_;
    return true;
  }
  bool finish_sample() {
    const int size = elem_;
    Layout layout;
    if (size == 8 && scalars_[4].is_string()) layout = Layout::kThreadFirst8;
    else if (size == 7 && scalars_[3].is_string()) layout = Layout::kNoThread7;
    else if (size == 8 && scalars_[3].is_string()) layout = Layout::kThreadLast8;
    else return false;
    if (out_.layout == Layout::kUnknown) out_.layout = layout;
    else if (out_.layout != layout) return false;
    const int o = layout == Layout::kThreadFirst8 ? 1 : 0;
    if (stat_pos_ != o + 4 || !info_seen_) return false;
    if (meta_ == nullptr && !scalars_[static_cast<size_t>(o + 6)].is_null()) return false;
    const std::string& ev = scalars_[static_cast<size_t>(o + 3)].get_ref<const std::string&>();
    int e = -1;
    for (int k = 0; k < kEventCount; ++k)
      if (ev == kEventNames[k]) e = k;
    if (e < 0) return false;
    const json& ts = scalars_[static_cast<size_t>(o)];
    const json& peak = scalars_[static_cast<size_t>(o + 1)];
    const json& rss = scalars_[static_cast<size_t>(o + 2)];
    if (!ts.is_number() || !non_negative_integer(peak) || !non_negative_integer(rss)) return false;
    if (stat_row_.size() != width_) return false;
    int64_t thread = Payload::kNoThread;
    if (layout != Layout::kNoThread7) {
      const json& t = scalars_[layout == Layout::kThreadFirst8 ? 0 : 7];
      if (t.is_number_integer()) thread = t.get<int64_t>();
      else if (!t.is_null()) return false;
    }
    for (int m = 0; m < 3; ++m) {
      if (mono_[m] < 0) continue;
      int64_t v = stat_row_[static_cast<size_t>(mono_[m])];
      if (v < last_[m]) return false;
      last_[m] = v;
    }
    out_.ts.push_back(ts.get<double>());
    out_.peak_rss.push_back(peak.get<int64_t>());
    out_.rss.push_back(rss.get<int64_t>());
    out_.event.push_back(static_cast<uint8_t>(e));
    out_.stat.insert(out_.stat.end(), stat_row_.begin(), stat_row_.end());
    out_.major_by.push_back(major_);
    out_.gc_by.push_back(gc_by_);
    out_.need_major.push_back(need_);
    out_.meta.push_back(meta_);
    out_.thread.push_back(thread);
    ++out_.n;
    return true;
  }

  Payload& out_;
  Builder builder_;
  bool meta_builder_ = false;
  int depth_ = 0;
  size_t top_ = 0;  // index in the payload array
  int elem_ = 0, in_sample_elem_ = -1, stat_pos_ = -1;
  bool in_stat_ = false, in_info_ = false, info_seen_ = false;
  std::string info_key_;
  int8_t major_ = kMajorNone, gc_by_ = kGcByNone, need_ = kMajorNone;
  const json* meta_ = nullptr;
  json scalars_[8];
  std::vector<int64_t> stat_row_;
  size_t width_ = 0;
  int mono_[3] = {-1, -1, -1};
  int64_t last_[3] = {-1, -1, -1};
};

}  // namespace

bool read_fast(const std::string& bytes, Payload& out) {
  FastReader reader(out);
  bool parsed = false;
  try {
    parsed = json::sax_parse(bytes, &reader);
  } catch (const std::exception&) {
    return false;
  }
  return parsed && reader.ok;
}

}  // namespace gcscope::rubygc
