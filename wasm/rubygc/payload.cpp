#include "payload.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace gcscope::rubygc {

namespace {

const char* const kEventNames[kEventCount] = {"BOOTED",           "PROCESSING_STARTED", "PROCESSING_ENDED",
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

// Nesting depth outside strings, scanned before nlohmann parses the payload (nlohmann's parser is
// iterative, but bounding the depth also bounds the work of everything that walks the document).
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

const char* kHeaderNames11[] = {"application token",
                                "Ruby version",
                                "Rails version",
                                "RUBY_GC_* environment",
                                "agent version",
                                "compile options",
                                "GC::INTERNAL_CONSTANTS",
                                "GC.stat keys",
                                "hostname",
                                "parent pid",
                                "pid"};

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

size_t Payload::complete_samples() const {
  const size_t kept = std::min({n, ts.size(), event.size(), rss.size(), peak_rss.size(), thread.size()});
  return width ? std::min(kept, stat.size() / width) : kept;
}

std::vector<CounterSeries> counter_series(const Payload& p) {
  const StatColumns& c = p.col;
  std::vector<CounterSeries> s;
  auto stat = [&](const char* name, int col) {
    if (col >= 0) s.push_back({name, [&p, col](size_t i) { return p.at(i, col); }});
  };
  if (c.heap_available >= 0) s.push_back({"heap_available_slots", [&p](size_t i) { return p.heap_available(i); }});
  stat("heap_live_slots", c.heap_live);
  stat("heap_free_slots", c.heap_free);
  stat("old_objects", c.old_objects);
  s.push_back({"rss_bytes", [&p](size_t i) { return p.rss[i]; }});
  s.push_back({"peak_rss_bytes", [&p](size_t i) { return p.peak_rss[i]; }});
  stat("gc_count", c.count);
  stat("minor_gc_count", c.minor);
  stat("major_gc_count", c.major);
  stat("malloc_increase_bytes", c.malloc_increase);
  stat("malloc_increase_bytes_limit", c.malloc_limit);
  stat("oldmalloc_increase_bytes", c.oldmalloc_increase);
  stat("oldmalloc_increase_bytes_limit", c.oldmalloc_limit);
  return s;
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
    return bad(
        "invalid JSON: " + what + " (byte " + std::to_string(e.byte) + " of " + std::to_string(bytes.size()) + ")",
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
    return bad("payload must be a JSON array [header, sample, ...] (element 0 = header); found " +
                   (extra.empty() ? describe(doc) : "an object" + extra),
               d);
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
      return bad(
          "header[7] (GC.stat keys) element " + std::to_string(k) + " must be a string; found " + describe(h[7][k]),
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
    else if (key == "remembered_wb_unprotected_objects_limit" || key == "remembered_shady_object_limit")
      c.shady_limit = i;
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
  if (doc.size() < 2)
    return bad("no samples: the payload has a header (element 0) but no sample after it", {{"samples", 0}});
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
        return bad(
            sample_label(idx) + " has " + std::to_string(s.size()) +
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
      return bad(
          sample_label(idx) + ": unknown event \"" + ev +
              "\"; expected BOOTED, PROCESSING_STARTED, PROCESSING_ENDED, GC_CYCLE_STARTED, GC_CYCLE_ENDED or TERMINATED",
          {{"sample", idx}, {"element", o + 3}, {"found", ev}});
    const char* evn = kEventNames[e];
    auto elem_bad = [&](size_t k, const char* what, const char* expected) {
      return bad(sample_label(idx, evn) + " element " + std::to_string(k) + " (" + what + ") must be " + expected +
                     "; found " + describe(s[k]),
                 {{"sample", idx}, {"event", evn}, {"element", k}, {"expected", expected}, {"found", describe(s[k])}});
    };
    if (!s[o].is_number()) return elem_bad(o, "timestamp", "a number (seconds)");
    if (!non_negative_integer(s[o + 1]))
      return elem_bad(o + 1, "peak RSS", "a non-negative integer (bytes; 0 = unknown)");
    if (!non_negative_integer(s[o + 2])) return elem_bad(o + 2, "RSS", "a non-negative integer (bytes; 0 = unknown)");
    const nlohmann::json& st = s[o + 4];
    if (!st.is_array()) return elem_bad(o + 4, "GC.stat values", "an array");
    if (st.size() != width)
      return bad(sample_label(idx, evn) + " element " + std::to_string(o + 4) + " (GC.stat values) has " +
                     std::to_string(st.size()) + " values; header[7] names " + std::to_string(width) + " keys",
                 {{"sample", idx}, {"event", evn}, {"element", o + 4}, {"expected", width}, {"found", st.size()}});
    for (size_t k = 0; k < width; ++k) {
      if (!non_negative_integer(st[k]))
        return bad(sample_label(idx, evn) + " GC.stat value " + out.header.stat_keys[k] + " (index " +
                       std::to_string(k) + ") must be a non-negative integer; found " + describe(st[k]),
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
    // The same conversion as the fast path, from the number's shortest text (what Ruby wrote).
    double ts = 0;
    if (!s[o].is_number_float() || !parse_json_double(s[o].dump(), &ts)) ts = s[o].get<double>();
    out.ts.push_back(ts);
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

// ---- the fast path: a hand-written scanner for well-formed payloads -------------------------------
// A 3 MB payload is ~10k samples of ~30 integers. nlohmann's lexer appends every character to a
// token string and converts floats with strtod (long-double arithmetic, emulated in wasm): fine for the
// header and the meta hashes, 20x too slow for the samples in the browser. This scanner reads the
// sample arrays itself; the header and each meta hash are handed to nlohmann as substrings. At the
// first deviation from the well-formed shape it gives up, and the caller reruns the DOM reader above,
// whose checks name the problem precisely. Both readers apply the same rules and convert timestamps
// with the same function (tests/rubygc compare their reports on every corpus payload).
namespace {

using json = nlohmann::json;

struct Scanner {
  const char* p;
  const char* end;
  void ws() {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) ++p;
  }
  bool eat(char c) {
    ws();
    if (p < end && *p == c) {
      ++p;
      return true;
    }
    return false;
  }
  bool peek(char c) {
    ws();
    return p < end && *p == c;
  }
  bool literal(const char* word) {
    size_t n = std::strlen(word);
    if (static_cast<size_t>(end - p) >= n && std::memcmp(p, word, n) == 0) {
      p += n;
      return true;
    }
    return false;
  }
  // A string's raw contents (escapes left as they are; callers compare plain ASCII names only).
  bool string(std::string_view* out) {
    ws();
    if (p >= end || *p != '"') return false;
    const char* b = ++p;
    while (p < end && *p != '"') {
      if (*p == '\\') ++p;
      else if (static_cast<unsigned char>(*p) < 0x20) return false;
      ++p;
    }
    if (p >= end) return false;
    *out = std::string_view(b, static_cast<size_t>(p - b));
    ++p;
    return true;
  }
  // The extent of one JSON value (object/array by bracket matching outside strings).
  bool skip_value(std::string_view* out) {
    ws();
    const char* b = p;
    if (p < end && (*p == '{' || *p == '[')) {
      int depth = 0;
      while (p < end) {
        char c = *p++;
        if (c == '"') {
          while (p < end && *p != '"') p += (*p == '\\') ? 2 : 1;
          if (p >= end) return false;
          ++p;
        } else if (c == '{' || c == '[') {
          if (++depth > 32) return false;
        } else if (c == '}' || c == ']') {
          if (--depth == 0) break;
        }
      }
      if (depth != 0) return false;
    } else {
      return false;
    }
    *out = std::string_view(b, static_cast<size_t>(p - b));
    return true;
  }
};

enum class Tok { kNone, kInt, kFloat, kString, kNull, kStat, kInfo, kMeta, kOther };

struct Elem {
  Tok kind = Tok::kNone;
  int64_t i = 0;
  double d = 0;
  std::string_view s;
};

// JSON number at p: integers exactly (fail beyond int64), floats with parse_json_double.
bool scan_number(Scanner& sc, Elem& e) {
  sc.ws();
  const char* b = sc.p;
  bool neg = false, is_float = false;
  if (sc.p < sc.end && *sc.p == '-') neg = true, ++sc.p;
  uint64_t v = 0;
  int digits = 0;
  while (sc.p < sc.end && *sc.p >= '0' && *sc.p <= '9') {
    if (v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(*sc.p++ - '0');
    ++digits;
  }
  if (!digits) return false;
  if (sc.p < sc.end && (*sc.p == '.' || *sc.p == 'e' || *sc.p == 'E')) {
    is_float = true;
    while (sc.p < sc.end && ((*sc.p >= '0' && *sc.p <= '9') || *sc.p == '.' || *sc.p == 'e' || *sc.p == 'E' ||
                             *sc.p == '+' || *sc.p == '-'))
      ++sc.p;
  }
  if (is_float) {
    e.kind = Tok::kFloat;
    if (!parse_json_double(std::string_view(b, static_cast<size_t>(sc.p - b)), &e.d)) return false;
    return true;
  }
  if (v > static_cast<uint64_t>(INT64_MAX)) return false;
  e.kind = Tok::kInt;
  e.i = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

class FastScanner {
 public:
  FastScanner(const std::string& bytes, Payload& out) : sc_{bytes.data(), bytes.data() + bytes.size()}, out_(out) {}

  bool run() {
    if (!sc_.eat('[')) return false;
    std::string_view header;
    if (!sc_.skip_value(&header) || header.empty() || header[0] != '[') return false;
    try {
      out_.doc = json::parse(header.begin(), header.end());
    } catch (const std::exception&) {
      return false;
    }
    if (!header_ready()) return false;
    size_t samples = 0;
    while (sc_.eat(',')) {
      if (!sample()) return false;
      ++samples;
    }
    if (!sc_.eat(']')) return false;
    sc_.ws();
    return sc_.p == sc_.end && samples > 0;
  }

 private:
  bool header_ready() {
    const json& h = out_.doc;
    if (!h.is_array() || h.size() < 8 || !h[7].is_array()) return false;
    width_ = h[7].size();
    for (size_t k = 0; k < width_; ++k) {
      if (!h[7][k].is_string()) return false;
    }
    out_.width = width_;
    return true;
  }

  bool info(int8_t* major, int8_t* gc_by, int8_t* need) {
    *major = kMajorNone, *gc_by = kGcByNone, *need = kMajorNone;
    if (!sc_.eat('{')) return false;
    if (sc_.eat('}')) return true;
    do {
      std::string_view key, val;
      if (!sc_.string(&key) || !sc_.eat(':')) return false;
      sc_.ws();
      if (sc_.peek('"')) {
        if (!sc_.string(&val)) return false;
        json j{std::string(val)};
        if (key == "major_by") *major = major_code(j[0]);
        else if (key == "gc_by") *gc_by = gc_by_code(j[0]);
        else if (key == "need_major_by") *need = major_code(j[0]);
      } else if (sc_.literal("null") || sc_.literal("true") || sc_.literal("false")) {
      } else {
        Elem e;
        if (!scan_number(sc_, e)) return false;  // nested values: let the DOM reader look
      }
    } while (sc_.eat(','));
    return sc_.eat('}');
  }

  bool sample() {
    if (!sc_.eat('[')) return false;
    Elem el[8];
    int n = 0, stat_pos = -1;
    int8_t major = kMajorNone, gc_by = kGcByNone, need = kMajorNone;
    const json* meta = nullptr;
    if (!sc_.peek(']')) {
      do {
        if (n >= 8) return false;
        Elem& e = el[n];
        sc_.ws();
        char c = sc_.p < sc_.end ? *sc_.p : 0;
        if (c == '"') {
          e.kind = Tok::kString;
          if (!sc_.string(&e.s)) return false;
        } else if (c == 'n') {
          if (!sc_.literal("null")) return false;
          e.kind = Tok::kNull;
        } else if (c == '[') {
          if (stat_pos >= 0) return false;
          stat_pos = n;
          e.kind = Tok::kStat;
          row_.clear();
          sc_.eat('[');
          if (!sc_.peek(']')) {
            do {
              Elem x;
              if (!scan_number(sc_, x) || x.kind != Tok::kInt || x.i < 0) return false;
              row_.push_back(x.i);
            } while (sc_.eat(','));
          }
          if (!sc_.eat(']')) return false;
        } else if (c == '{') {
          if (stat_pos >= 0 && n == stat_pos + 1) {
            e.kind = Tok::kInfo;
            if (!info(&major, &gc_by, &need)) return false;
          } else if (stat_pos >= 0 && n == stat_pos + 2) {
            e.kind = Tok::kMeta;
            std::string_view text;
            if (!sc_.skip_value(&text)) return false;
            try {
              out_.owned_meta.push_back(json::parse(text.begin(), text.end()));
            } catch (const std::exception&) {
              return false;
            }
            meta = &out_.owned_meta.back();
          } else {
            return false;
          }
        } else if (c == '-' || (c >= '0' && c <= '9')) {
          if (!scan_number(sc_, e)) return false;
        } else {
          return false;
        }
        ++n;
      } while (sc_.eat(','));
    }
    if (!sc_.eat(']')) return false;
    // The same rules as read_samples.
    Layout layout;
    if (n == 8 && el[4].kind == Tok::kString) layout = Layout::kThreadFirst8;
    else if (n == 7 && el[3].kind == Tok::kString) layout = Layout::kNoThread7;
    else if (n == 8 && el[3].kind == Tok::kString) layout = Layout::kThreadLast8;
    else return false;
    if (out_.layout == Layout::kUnknown) out_.layout = layout;
    else if (out_.layout != layout) return false;
    const int o = layout == Layout::kThreadFirst8 ? 1 : 0;
    if (stat_pos != o + 4 || el[o + 5].kind != Tok::kInfo) return false;
    if (el[o + 6].kind != Tok::kMeta && el[o + 6].kind != Tok::kNull) return false;
    int e = -1;
    for (int k = 0; k < kEventCount; ++k)
      if (el[o + 3].s == kEventNames[k]) e = k;
    if (e < 0) return false;
    const Elem& ts = el[o];
    if (ts.kind != Tok::kInt && ts.kind != Tok::kFloat) return false;
    if (el[o + 1].kind != Tok::kInt || el[o + 1].i < 0 || el[o + 2].kind != Tok::kInt || el[o + 2].i < 0) return false;
    if (row_.size() != width_) return false;
    int64_t thread = Payload::kNoThread;
    if (layout != Layout::kNoThread7) {
      const Elem& t = el[layout == Layout::kThreadFirst8 ? 0 : 7];
      if (t.kind == Tok::kInt) thread = t.i;
      else if (t.kind != Tok::kNull) return false;
    }
    out_.ts.push_back(ts.kind == Tok::kInt ? static_cast<double>(ts.i) : ts.d);
    out_.peak_rss.push_back(el[o + 1].i);
    out_.rss.push_back(el[o + 2].i);
    out_.event.push_back(static_cast<uint8_t>(e));
    out_.stat.insert(out_.stat.end(), row_.begin(), row_.end());
    out_.major_by.push_back(major);
    out_.gc_by.push_back(gc_by);
    out_.need_major.push_back(need);
    out_.meta.push_back(meta);
    out_.thread.push_back(thread);
    ++out_.n;
    return true;
  }

  Scanner sc_;
  Payload& out_;
  std::vector<int64_t> row_;
  size_t width_ = 0;
};

}  // namespace

bool read_fast(const std::string& bytes, Payload& out) {
  FastScanner scanner(bytes, out);
  return scanner.run();
}

bool parse_json_double(std::string_view text, double* out) {
  // Fast exact path: up to 15 significant digits and a power of ten up to 22 (both exact doubles, one
  // rounding). Longer decimals (Ruby prints shortest round-trip floats, e.g. 1795257973.6756852):
  // integer part + fraction / 10^k, within one ulp. Anything else: strtod.
  size_t i = 0;
  bool neg = false;
  if (i < text.size() && text[i] == '-') neg = true, ++i;
  uint64_t ip = 0, fp = 0;
  int id = 0, fd = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9' && id < 19)
    ip = ip * 10 + static_cast<uint64_t>(text[i++] - '0'), ++id;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && fd < 19)
      fp = fp * 10 + static_cast<uint64_t>(text[i++] - '0'), ++fd;
  }
  static const double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (i == text.size() && id > 0 && id + fd <= 15) {
    uint64_t m = ip;
    for (int k = 0; k < fd; ++k) m *= 10;
    m += fp;
    double v = static_cast<double>(m) / kPow10[fd];
    *out = neg ? -v : v;
    return true;
  }
  if (i == text.size() && id > 0 && id <= 15 && fd <= 15) {
    double v = static_cast<double>(ip) + static_cast<double>(fp) / kPow10[fd];
    *out = neg ? -v : v;
    return true;
  }
  std::string s(text);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return false;
  *out = v;
  return true;
}

}  // namespace gcscope::rubygc
