#include "export.h"

#include <zlib.h>

#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>
#include <unordered_map>

#include "core/version.h"

namespace gcscope::profile {

// ---- speedscope ---------------------------------------------------------------------------------

namespace {

const char* speedscope_unit(const std::string& unit) {
  if (unit == "bytes") return "bytes";
  if (unit == "µs" || unit == "microseconds") return "microseconds";
  if (unit == "ns" || unit == "nanoseconds") return "nanoseconds";
  return "none";  // counts: samples, allocations, events
}

nlohmann::json weight_json(double w) {
  if (w == std::floor(w) && std::fabs(w) < 9.007199254740992e15) return static_cast<int64_t>(w);
  return w;
}

}  // namespace

std::string speedscope_json(const StackModel& m, const ExportInfo& info) {
  nlohmann::json frames = nlohmann::json::array();
  for (const auto& f : m.frames) {
    nlohmann::json fr = {{"name", f.name}};
    if (!f.file.empty()) fr["file"] = f.file;
    if (f.line != kNoLine) fr["line"] = f.line;
    frames.push_back(std::move(fr));
  }
  std::vector<ExportInfo::Part> parts = info.parts;
  if (parts.empty()) parts.push_back({info.name, 0, m.sample_node.size()});
  nlohmann::json profiles = nlohmann::json::array();
  std::vector<uint32_t> path;
  for (const auto& part : parts) {
    nlohmann::json samples = nlohmann::json::array(), weights = nlohmann::json::array();
    double total = 0, run = 0;
    int32_t run_node = -2;
    auto flush = [&] {
      if (run_node == -2) return;
      m.path_of(run_node, path);
      samples.push_back(path);
      weights.push_back(weight_json(run));
    };
    for (size_t s = part.first; s < part.end && s < m.sample_node.size(); ++s) {
      total += m.sample_weight[s];
      if (m.sample_node[s] != run_node) {
        flush();
        run_node = m.sample_node[s];
        run = 0;
      }
      run += m.sample_weight[s];
    }
    flush();
    profiles.push_back({{"type", "sampled"},
                        {"name", part.name},
                        {"unit", speedscope_unit(m.unit)},
                        {"startValue", 0},
                        {"endValue", weight_json(total)},
                        {"samples", std::move(samples)},
                        {"weights", std::move(weights)}});
  }
  nlohmann::json doc = {{"$schema", "https://www.speedscope.app/file-format-schema.json"},
                        {"shared", {{"frames", std::move(frames)}}},
                        {"profiles", std::move(profiles)},
                        {"name", info.name},
                        {"activeProfileIndex", 0},
                        {"exporter", std::string("gcscope ") + kVersion}};
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// ---- pprof (profile.proto) ----------------------------------------------------------------------

namespace {

// Protocol buffers' wire format: varints, tags and length-delimited fields.
struct Proto {
  std::string out;
  void varint(uint64_t v) {
    while (v >= 0x80) {
      out.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<char>(v));
  }
  void tag(int field, int wire) { varint(static_cast<uint64_t>(field) << 3 | static_cast<uint64_t>(wire)); }
  void int_field(int field, int64_t v) {
    if (v == 0) return;
    tag(field, 0);
    varint(static_cast<uint64_t>(v));
  }
  void bytes_field(int field, const std::string& b) {
    tag(field, 2);
    varint(b.size());
    out += b;
  }
  void packed(int field, const std::vector<int64_t>& vs) {
    if (vs.empty()) return;
    Proto p;
    for (int64_t v : vs) p.varint(static_cast<uint64_t>(v));
    bytes_field(field, p.out);
  }
};

class StringTable {
 public:
  StringTable() { index(""); }
  int64_t index(const std::string& s) {
    auto [it, fresh] = ids_.emplace(s, static_cast<int64_t>(list_.size()));
    if (fresh) list_.push_back(s);
    return it->second;
  }
  const std::vector<std::string>& list() const { return list_; }

 private:
  std::unordered_map<std::string, int64_t> ids_;
  std::vector<std::string> list_;
};

// Profile fields (profile.proto): 1 sample_type, 2 sample, 4 location, 5 function, 6 string_table,
// 11 period_type, 12 period. ValueType: 1 type, 2 unit. Sample: 1 location_id, 2 value.
// Location: 1 id, 4 line. Line: 1 function_id, 2 line. Function: 1 id, 2 name, 3 system_name,
// 4 filename, 5 start_line.
std::string value_type(StringTable& st, const ExportInfo::ValueType& t) {
  Proto v;
  v.int_field(1, st.index(t.type));
  v.int_field(2, st.index(t.unit));
  return v.out;
}

}  // namespace

std::string pprof_message(const StackModel& m, const ExportInfo& info) {
  StringTable st;
  Proto p;
  std::vector<ExportInfo::ValueType> types = info.pprof_types;
  if (types.empty()) types.push_back({m.unit, "count", 1});
  for (const auto& t : types) p.bytes_field(1, value_type(st, t));
  // One sample per stack: the weights of its samples summed.
  std::vector<double> self = m.node_self();
  std::vector<uint32_t> path;
  double empty_weight = 0;
  for (size_t s = 0; s < m.sample_node.size(); ++s)
    if (m.sample_node[s] < 0) empty_weight += m.sample_weight[s];
  auto sample = [&](const std::vector<uint32_t>& root_first, double w) {
    Proto sp;
    std::vector<int64_t> locations(root_first.rbegin(), root_first.rend());  // leaf first
    for (auto& l : locations) l += 1;
    sp.packed(1, locations);
    std::vector<int64_t> values;
    for (const auto& t : types) values.push_back(std::llround(w * t.per_weight));
    sp.packed(2, values);
    p.bytes_field(2, sp.out);
  };
  for (size_t n = 0; n < self.size(); ++n) {
    if (self[n] == 0) continue;
    m.path_of(static_cast<int32_t>(n), path);
    sample(path, self[n]);
  }
  if (empty_weight > 0) sample({}, empty_weight);
  // Locations are frames (id = index + 1); functions are distinct (name, file, line).
  std::map<std::tuple<std::string, std::string, int64_t>, int64_t> functions;
  std::string function_msgs;
  for (size_t f = 0; f < m.frames.size(); ++f) {
    const Frame& fr = m.frames[f];
    int64_t line = fr.line == kNoLine ? 0 : fr.line;
    auto [it, fresh] =
        functions.emplace(std::make_tuple(fr.name, fr.file, line), static_cast<int64_t>(functions.size() + 1));
    if (fresh) {
      Proto fn;
      fn.int_field(1, it->second);
      fn.int_field(2, st.index(fr.name));
      fn.int_field(3, st.index(fr.name));
      fn.int_field(4, st.index(fr.file));
      fn.int_field(5, line);
      Proto wrap;
      wrap.bytes_field(5, fn.out);
      function_msgs += wrap.out;
    }
    Proto ln, loc;
    ln.int_field(1, it->second);
    ln.int_field(2, line);
    loc.int_field(1, static_cast<int64_t>(f + 1));
    loc.bytes_field(4, ln.out);
    p.bytes_field(4, loc.out);
  }
  p.out += function_msgs;
  if (info.pprof_period > 0) {
    p.bytes_field(11, value_type(st, types.back()));
    p.int_field(12, info.pprof_period);
  }
  for (const auto& s : st.list()) p.bytes_field(6, s);
  return p.out;
}

std::string gzip_bytes(const std::string& data) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return std::string();
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(&out[0]);
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return rc == Z_STREAM_END ? out : std::string();
}

namespace {
const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
}

std::string base64(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8 | uint8_t(bytes[i + 2]);
    for (int k = 18; k >= 0; k -= 6) out.push_back(kAlphabet[(v >> k) & 63]);
  }
  if (i < bytes.size()) {
    uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 | (i + 1 < bytes.size() ? uint32_t(uint8_t(bytes[i + 1])) << 8 : 0);
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

bool unbase64(const std::string& text, std::string& out) {
  out.clear();
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    const char* at = std::strchr(kAlphabet, c);
    if (!at || c == '\0') return false;
    acc = acc << 6 | static_cast<uint32_t>(at - kAlphabet);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return true;
}

}  // namespace gcscope::profile
