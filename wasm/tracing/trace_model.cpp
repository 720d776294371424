#include "trace_model.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "core/iso_datetime.h"
#include "core/text_scan.h"

namespace gcscope::tracing {

namespace {
constexpr uint64_t kMaxSafe = 9007199254740992ULL;  // 2^53

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

nlohmann::json bound_json(bool has, Int v) { return has ? int_json(v) : nlohmann::json(); }

std::string_view strip_offset(std::string_view f) {
  // "func+0x1a" / "func+26" (ustack, DTrace): the offset is noise for a flame graph.
  size_t plus = f.rfind('+');
  if (plus == std::string_view::npos || plus == 0 || plus + 1 >= f.size()) return f;
  for (size_t i = plus + 1; i < f.size(); ++i) {
    char c = f[i];
    bool hex = text::is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == 'x';
    if (!hex) return f;
  }
  return f.substr(0, plus);
}
}  // namespace

nlohmann::json bucket_pair(const Histogram& h, int idx) {
  if (idx < 0) return nullptr;
  const Bucket& b = h.buckets[static_cast<size_t>(idx)];
  return nlohmann::json::array({bound_json(b.has_lo, b.lo), bound_json(b.has_hi, b.hi)});
}

bool parse_int(std::string_view s, Int& out) {
  if (s.empty()) return false;
  size_t p = 0;
  bool neg = false;
  if (s[0] == '-') {
    neg = true;
    p = 1;
  }
  if (p >= s.size()) return false;
  uint64_t v = 0;
  for (; p < s.size(); ++p) {
    if (!text::is_digit(s[p])) return false;
    uint64_t d = static_cast<uint64_t>(s[p] - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  if (neg && v > 9223372036854775808ULL) return false;
  out.mag = v;
  out.neg = neg && v != 0;
  return true;
}

nlohmann::json int_json(Int v) {
  if (v.mag <= kMaxSafe) {
    if (v.neg) return nlohmann::json(-static_cast<int64_t>(v.mag));
    return nlohmann::json(v.mag);
  }
  return (v.neg ? "-" : "") + std::to_string(v.mag);
}

nlohmann::json u64_json(uint64_t v) { return v <= kMaxSafe ? nlohmann::json(v) : nlohmann::json(std::to_string(v)); }

// ---- probes and Ruby frames -------------------------------------------------------------------

bool parse_probe_name(std::string_view raw, ProbeName& out) {
  // usdt:[path:]provider:name (bpftrace prints the binary path, /proc/<pid>/root/... for -p);
  // "usdt:my_controller:index" in hand-written examples.
  if (!(text::starts_with(raw, "usdt:") || text::starts_with(raw, "uprobe:") || text::starts_with(raw, "tracepoint:")))
    return false;
  size_t last = raw.rfind(':');
  if (last == std::string_view::npos || last + 1 >= raw.size()) return false;
  size_t prev = raw.rfind(':', last - 1);
  if (prev == std::string_view::npos) return false;
  out.raw = std::string(raw);
  out.name = std::string(raw.substr(last + 1));
  out.provider = std::string(raw.substr(prev + 1, last - prev - 1));
  if (out.provider.empty() || out.provider.find('/') != std::string::npos) {
    // "uprobe:/path/lib.so:func": no provider, the binary's file name instead.
    std::string_view path = raw.substr(prev + 1, last - prev - 1);
    size_t slash = path.rfind('/');
    out.provider = std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
  }
  return true;
}

bool looks_ruby_frame(std::string_view line) {
  // "<path>:<line>:in `meth'" or (Ruby 3.4) "<path>:<line>:in 'Klass#meth'"; a cut string may end
  // anywhere after ":in".
  size_t in = line.find(":in ");
  if (in == std::string_view::npos || in == 0) {
    // A string cut right after the line number ("app.rb:28:i") still starts like a frame.
    size_t c = line.find(':');
    if (c == std::string_view::npos || c == 0 || c + 1 >= line.size() || !text::is_digit(line[c + 1])) return false;
    size_t p = c + 1;
    while (p < line.size() && text::is_digit(line[p])) ++p;
    return p == line.size() || (line[p] == ':' && line.substr(p).size() < 4);
  }
  size_t c = line.rfind(':', in - 1);
  if (c == std::string_view::npos || c + 1 >= in) return false;
  for (size_t i = c + 1; i < in; ++i)
    if (!text::is_digit(line[i])) return false;
  return true;
}

bool ruby_frame_truncated(std::string_view line) {
  size_t in = line.find(":in ");
  if (in == std::string_view::npos) return true;
  std::string_view rest = line.substr(in + 4);
  if (rest.size() < 2) return true;
  char open = rest[0];
  if (open != '`' && open != '\'') return true;
  return rest.back() != '\'';
}

// ---- StackTable --------------------------------------------------------------------------------

size_t StackTextHash::operator()(std::string_view s) const noexcept {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ (s.size() * 0xC2B2AE3D27D4EB4FULL);
  auto mix = [&h](uint64_t w) {
    h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
    h ^= h >> 29;
  };
  const char* p = s.data();
  size_t n = s.size();
  if (n < 8) {
    uint64_t w = 0;
    std::memcpy(&w, p, n);
    mix(w);
  } else if (n <= 128) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      mix(w);
    }
    uint64_t w;
    std::memcpy(&w, p + n - 8, 8);  // the tail (overlapping the last whole word)
    mix(w);
  } else {
    for (size_t k = 0; k < 16; ++k) {
      uint64_t w;
      std::memcpy(&w, p + (n - 8) * k / 15, 8);
      mix(w);
    }
  }
  return static_cast<size_t>(h ^ (h >> 32));
}

uint32_t StackTable::intern_frame(std::string_view name) {
  auto it = frame_index_.find(name);
  if (it != frame_index_.end()) return it->second;
  storage_.emplace_back(name);
  std::string_view stable(storage_.back());
  uint32_t idx = static_cast<uint32_t>(frame_names_.size());
  frame_names_.push_back(stable);
  frame_index_.emplace(stable, idx);
  return idx;
}

uint32_t StackTable::find_or_add(std::string_view identity, const std::vector<uint32_t>& frames, bool truncated) {
  auto it = stack_index_.find(identity);
  if (it != stack_index_.end()) {
    if (truncated && !truncated_[it->second]) {
      truncated_[it->second] = 1;
      ++truncated_count_;
    }
    return it->second;
  }
  storage_.emplace_back(identity);
  uint32_t idx = static_cast<uint32_t>(stacks_.size());
  stack_index_.emplace(std::string_view(storage_.back()), idx);
  stacks_.push_back(frames);
  weights_.push_back(0);
  truncated_.push_back(truncated ? 1 : 0);
  if (truncated) ++truncated_count_;
  return idx;
}

void StackTable::add(const std::vector<std::string_view>& frames, double weight, bool truncated) {
  std::string identity;
  scratch_.clear();
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i) identity.push_back(';');
    identity.append(frames[i]);
    scratch_.push_back(intern_frame(frames[i]));
  }
  uint32_t idx = find_or_add(identity, scratch_, truncated);
  weights_[idx] += weight;
  total_ += weight;
  ++samples_;
}

void StackTable::add_folded(std::string_view stack_text, double weight) {
  auto it = stack_index_.find(stack_text);
  if (it != stack_index_.end()) {
    weights_[it->second] += weight;
    total_ += weight;
    ++samples_;
    return;
  }
  scratch_.clear();
  size_t start = 0;
  while (start <= stack_text.size()) {
    size_t semi = stack_text.find(';', start);
    if (semi == std::string_view::npos) semi = stack_text.size();
    scratch_.push_back(intern_frame(stack_text.substr(start, semi - start)));
    start = semi + 1;
  }
  uint32_t idx = find_or_add(stack_text, scratch_, false);
  weights_[idx] += weight;
  total_ += weight;
  ++samples_;
}

std::string StackTable::folded(size_t i) const {
  std::string out;
  for (size_t k = 0; k < stacks_[i].size(); ++k) {
    if (k) out.push_back(';');
    out.append(frame_names_[stacks_[i][k]]);
  }
  return out;
}

nlohmann::json StackTable::to_json(const std::string& weight_unit) const {
  nlohmann::json frames = nlohmann::json::array();
  for (auto f : frame_names_) frames.push_back(std::string(f));
  nlohmann::json stacks = nlohmann::json::array();
  for (const auto& s : stacks_) stacks.push_back(s);
  nlohmann::json weights = nlohmann::json::array();
  for (double w : weights_) {
    if (w == std::floor(w) && w >= 0 && w < 9007199254740992.0) weights.push_back(static_cast<uint64_t>(w));
    else weights.push_back(w);
  }
  nlohmann::json truncated = nlohmann::json::array();
  for (size_t i = 0; i < truncated_.size(); ++i)
    if (truncated_[i]) truncated.push_back(i);
  double tw = total_;
  return {{"unique", stacks_.size()},
          {"total_weight", tw == std::floor(tw) && tw >= 0 && tw < 9007199254740992.0
                               ? nlohmann::json(static_cast<uint64_t>(tw))
                               : nlohmann::json(tw)},
          {"truncated", truncated_count_},
          {"samples", samples_},
          {"weight_unit", weight_unit},
          {"frames", frames},
          {"stacks", stacks},
          {"weights", weights},
          {"truncated_stacks", truncated}};
}

// ---- percentiles -------------------------------------------------------------------------------

int percentile_bucket(const Histogram& h, int percent) {
  if (!h.valid || h.total == 0) return -1;
  // nearest rank: the smallest bucket whose cumulative count reaches ceil(p% of total)
  unsigned __int128 rank = (static_cast<unsigned __int128>(h.total) * static_cast<unsigned>(percent) + 99) / 100;
  if (rank == 0) rank = 1;
  unsigned __int128 cum = 0;
  for (size_t i = 0; i < h.buckets.size(); ++i) {
    cum += h.buckets[i].count;
    if (cum >= rank) return static_cast<int>(i);
  }
  return static_cast<int>(h.buckets.size()) - 1;
}

void select_percentiles(std::vector<uint64_t>& v, uint64_t& p50, uint64_t& p90, uint64_t& p99) {
  if (v.empty()) return;
  auto rank = [&](int percent) {
    size_t r = (v.size() * static_cast<size_t>(percent) + 99) / 100;
    return r == 0 ? size_t{0} : r - 1;
  };
  size_t r50 = rank(50), r90 = rank(90), r99 = rank(99);
  auto b = v.begin();
  std::nth_element(b, b + static_cast<std::ptrdiff_t>(r50), v.end());
  p50 = v[r50];
  std::nth_element(b + static_cast<std::ptrdiff_t>(r50), b + static_cast<std::ptrdiff_t>(r90), v.end());
  p90 = v[r90];
  std::nth_element(b + static_cast<std::ptrdiff_t>(r90), b + static_cast<std::ptrdiff_t>(r99), v.end());
  p99 = v[r99];
}

void series_latency(const std::vector<uint64_t>& values, nlohmann::json& row, std::vector<uint64_t>* log2_counts) {
  // one pass: min, max, sum and the log2 bucket counts (for the chart)
  // The sum is an exact 128-bit integer: long double is a software-emulated 128-bit float in wasm,
  // too slow to add every value of a large capture in.
  uint64_t mn = UINT64_MAX, mx = 0;
  unsigned __int128 sum = 0;
  std::vector<uint64_t> counts(65, 0);
  for (uint64_t v : values) {
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    sum += v;
    counts[static_cast<size_t>(v == 0 ? 0 : 64 - __builtin_clzll(v))]++;  // 0 -> [0], 1 -> [1], 2..3 -> k=2
  }
  row["calls"] = values.size();
  row["total"] = static_cast<double>(sum);
  if (!values.empty()) {
    const auto n = static_cast<unsigned __int128>(values.size());
    row["mean"] = static_cast<double>(sum / n) + static_cast<double>(sum % n) / static_cast<double>(values.size());
    row["min"] = u64_json(mn);
    row["max"] = u64_json(mx);
    // nearest-rank percentiles, on a copy: the values stay in the capture's order for the events
    // table (tracing/tables.cpp)
    uint64_t p50 = 0, p90 = 0, p99 = 0;
    std::vector<uint64_t> selected(values);
    select_percentiles(selected, p50, p90, p99);
    row["p50"] = u64_json(p50);
    row["p90"] = u64_json(p90);
    row["p99"] = u64_json(p99);
  }
  if (log2_counts) *log2_counts = std::move(counts);
}

uint64_t exact_percentile(std::vector<uint64_t>& v, int percent) {
  if (v.empty()) return 0;
  size_t rank = (v.size() * static_cast<size_t>(percent) + 99) / 100;
  if (rank == 0) rank = 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(rank - 1), v.end());
  return v[rank - 1];
}

// ---- TraceData ---------------------------------------------------------------------------------

uint32_t TraceData::series_index(std::string_view name) {
  // Event streams name a handful of probes: a linear scan comparing lengths and then the bytes
  // from the end (USDT names share their long /proc/<pid>/root/... prefix) beats hashing the name.
  if (series_.size() <= 16) {
    for (size_t i = 0; i < series_.size(); ++i) {
      const std::string& n = series_[i].name;
      if (n.size() == name.size() && (n.empty() || n.back() == name.back()) &&
          std::memcmp(n.data(), name.data(), n.size()) == 0)
        return static_cast<uint32_t>(i);
    }
    if (series_.size() < 16) {
      uint32_t idx = static_cast<uint32_t>(series_.size());
      series_.push_back(EventSeries{std::string(name), {}, {}});
      return idx;
    }
    // the 17th name: index the 16 so far, then hash from now on
    for (size_t i = 0; i < series_.size(); ++i) {
      name_storage_.emplace_back(series_[i].name);
      series_index_.emplace(std::string_view(name_storage_.back()), static_cast<uint32_t>(i));
    }
  }
  auto it = series_index_.find(name);
  if (it != series_index_.end()) return it->second;
  name_storage_.emplace_back(name);
  std::string_view stable(name_storage_.back());
  uint32_t idx = static_cast<uint32_t>(series_.size());
  series_.push_back(EventSeries{std::string(name), {}, {}});
  series_index_.emplace(stable, idx);
  return idx;
}

size_t iso_datetime_ns(std::string_view s, uint64_t& epoch_ns) {
  iso8601::DateTime t;
  const size_t n = iso8601::parse_date_time(s, 0, t, /*allow_space=*/true);
  // Unsigned nanoseconds hold 1970 on; the limit of int64 nanoseconds (2262-04-11) is kept.
  if (n == 0 || t.epoch_s < 0 || t.epoch_s > 9223372035) return 0;
  epoch_ns = static_cast<uint64_t>(t.epoch_s) * 1000000000u + t.nanos;
  return n;
}

bool TraceData::add_event_line(std::string_view line) {
  // Tokens: [ts] name... value. The name may contain spaces (a method label); value and ts are
  // unsigned decimals (nanoseconds); ts may also be an ISO 8601 date-time (iso_datetime_ns).
  size_t n = line.size();
  while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\n' || line[n - 1] == '\r')) --n;
  size_t b = 0;
  while (b < n && (line[b] == ' ' || line[b] == '\t')) ++b;
  if (b >= n) return false;
  size_t vs = n;
  while (vs > b && text::is_digit(line[vs - 1])) --vs;
  if (vs == n || vs == b || (line[vs - 1] != ' ' && line[vs - 1] != '\t')) return false;
  if (n - vs > 19) return false;
  uint64_t value = 0;
  for (size_t i = vs; i < n; ++i) value = value * 10 + static_cast<uint64_t>(line[i] - '0');
  size_t ne = vs - 1;
  while (ne > b && (line[ne - 1] == ' ' || line[ne - 1] == '\t')) --ne;
  size_t ns = b;
  bool has_ts = false;
  uint64_t ts = 0;
  size_t p = b;
  while (p < ne && text::is_digit(line[p])) ++p;
  const size_t iso = p == b + 4 ? iso_datetime_ns(line.substr(b, ne - b), ts) : 0;
  if (iso > 0 && b + iso < ne && (line[b + iso] == ' ' || line[b + iso] == '\t')) {
    has_ts = true;
    p = b + iso;
  } else if (p > b && p < ne && (line[p] == ' ' || line[p] == '\t') && p - b <= 19) {
    has_ts = true;
    ts = 0;
    for (size_t i = b; i < p; ++i) ts = ts * 10 + static_cast<uint64_t>(line[i] - '0');
  }
  if (has_ts) {
    ns = p;
    while (ns < ne && (line[ns] == ' ' || line[ns] == '\t')) ++ns;
  }
  if (ns >= ne) return false;
  std::string_view name = line.substr(ns, ne - ns);
  EventSeries& s = series_[series_index(name)];
  s.values.push_back(value);
  if (has_ts) s.timestamps.push_back(ts);
  return true;
}

void TraceData::add_event(std::string_view name, uint64_t value, bool has_ts, uint64_t ts) {
  EventSeries& s = series_[series_index(name)];
  s.values.push_back(value);
  if (has_ts) s.timestamps.push_back(ts);
}

void TraceData::add_ruby_frame_line(std::string_view line) {
  if (pending_frames_.size() < 4096) pending_frames_.emplace_back(line);
}

void TraceData::end_ruby_stack() {
  if (pending_frames_.empty()) return;
  // caller strings are leaf first: reverse to root first
  bool truncated = ruby_frame_truncated(pending_frames_.back());
  std::vector<std::string_view> frames;
  for (auto it = pending_frames_.rbegin(); it != pending_frames_.rend(); ++it) frames.push_back(*it);
  stacks.add(frames, 1, truncated);
  pending_frames_.clear();
}

bool TraceData::add_stack_key(std::string_view key, double weight) {
  if (key.find('\n') == std::string_view::npos || !(weight >= 0)) return false;
  std::vector<std::string_view> leaf_first;
  size_t start = 0;
  bool ruby = false;
  while (start <= key.size()) {
    size_t nl = key.find('\n', start);
    if (nl == std::string_view::npos) nl = key.size();
    std::string_view f = text::trim(key.substr(start, nl - start));
    if (!f.empty()) {
      if (looks_ruby_frame(f)) ruby = true;
      leaf_first.push_back(f);
    }
    start = nl + 1;
  }
  if (leaf_first.empty()) return false;
  bool truncated = ruby && ruby_frame_truncated(leaf_first.back());
  std::vector<std::string_view> frames;
  for (auto it = leaf_first.rbegin(); it != leaf_first.rend(); ++it) frames.push_back(ruby ? *it : strip_offset(*it));
  stacks.add(frames, weight, truncated);
  return true;
}

void TraceData::add_map_entry_stack(MapBlock& b, std::string_view key, double weight) {
  if (key.find('\n') != std::string_view::npos && add_stack_key(key, weight)) {
    if (b.holds_stacks) return;
    b.holds_stacks = true;
    if (b.stackless_weight == 0) return;
    weight = b.stackless_weight;
  } else if (key.find_first_not_of(" \t\r\n") != std::string_view::npos || !(weight > 0)) {
    return;  // not an empty key, or no weight to count
  } else if (!b.holds_stacks) {
    b.stackless_weight += weight;
    return;
  }
  stacks.add({kNoStackFrame}, weight);
}

void TraceData::add_probe(std::string_view raw) {
  if (probes_.count(std::string(raw))) return;
  ProbeName p;
  if (!parse_probe_name(raw, p)) return;
  if (probes_.size() >= 10000) return;
  probe_order_.emplace_back(raw);
  probes_.emplace(std::string(raw), p);
}

void TraceData::hint(const std::string& id, const std::string& text) {
  for (const auto& h : hints)
    if (h["id"] == id) return;
  hints.push_back({{"id", id}, {"text", text}});
}

nlohmann::json TraceData::histograms_json(nlohmann::json& maps_out) const {
  nlohmann::json hists = nlohmann::json::array();
  std::map<std::string, int> snapshot_of;
  for (const auto& m : maps) {
    int snap = snapshot_of[m.name]++;
    nlohmann::json entries = nlohmann::json::array();
    for (const auto& e : m.entries) {
      nlohmann::json key = e.has_key ? nlohmann::json(e.key) : nlohmann::json();
      nlohmann::json value;
      const MapValue& v = e.value;
      switch (v.kind) {
        case MapValue::kInt: value = int_json(v.i); break;
        case MapValue::kString: value = v.s; break;
        case MapValue::kJson: value = v.j; break;
        case MapValue::kStats:
          value = {{"count", int_json(v.stats.count)},
                   {"average", int_json(v.stats.average)},
                   {"total", int_json(v.stats.total)}};
          break;
        case MapValue::kTseries: {
          nlohmann::json labels = nlohmann::json::array(), values = nlohmann::json::array();
          for (const auto& p : v.points) {
            labels.push_back(p.label);
            values.push_back(p.present ? nlohmann::json(p.value) : nlohmann::json());
          }
          value = {{"interval_start", labels}, {"value", values}};
          break;
        }
        case MapValue::kHist: {
          const Histogram& h = v.hist;
          nlohmann::json buckets = nlohmann::json::array();
          for (const auto& b : h.buckets)
            buckets.push_back(
                {{"lo", bound_json(b.has_lo, b.lo)}, {"hi", bound_json(b.has_hi, b.hi)}, {"count", u64_json(b.count)}});
          nlohmann::json hj = {{"name", m.name},
                               {"key", key},
                               {"snapshot", snap},
                               {"buckets", std::move(buckets)},
                               {"total", u64_json(h.total)},
                               {"p50", bucket_pair(h, percentile_bucket(h, 50))},
                               {"p90", bucket_pair(h, percentile_bucket(h, 90))},
                               {"p99", bucket_pair(h, percentile_bucket(h, 99))},
                               {"valid", h.valid},
                               {"source", "histogram"}};
          // mode: the first bucket with the largest count
          int mode = -1;
          uint64_t best = 0;
          for (size_t i = 0; i < h.buckets.size(); ++i)
            if (h.buckets[i].count > best) {
              best = h.buckets[i].count;
              mode = static_cast<int>(i);
            }
          hj["mode"] = h.valid ? bucket_pair(h, mode) : nlohmann::json();
          if (h.headerless) hj["headerless"] = true;
          if (e.line >= 0) hj["line"] = e.line;
          value = {{"total", u64_json(h.total)}, {"histogram", hists.size()}};
          hists.push_back(std::move(hj));
          break;
        }
      }
      entries.push_back({{"key", key}, {"value", value}});
    }
    nlohmann::json mj = {{"name", m.name}, {"kind", m.kind}, {"snapshot", snap}, {"entries", std::move(entries)}};
    if (m.line >= 0) mj["line"] = m.line;
    if (m.partial) mj["partial"] = true;
    maps_out.push_back(std::move(mj));
  }
  return hists;
}

namespace {

struct LatencyRow {
  std::string key;
  nlohmann::json row = nlohmann::json::object();
  std::vector<std::string> sources;
};

enum class Agg { kNone, kCount, kSum, kAvg, kMin, kMax };
Agg classify_map_name(std::string_view name) {
  std::string n = lower(name);
  if (!n.empty() && n[0] == '@') n.erase(0, 1);
  if (n.find("count") != std::string::npos || n.find("calls") != std::string::npos || n == "c" || n == "cnt")
    return Agg::kCount;
  if (n.find("avg") != std::string::npos || n.find("mean") != std::string::npos) return Agg::kAvg;
  if (n.rfind("min", 0) == 0) return Agg::kMin;
  if (n.rfind("max", 0) == 0) return Agg::kMax;
  if (n.find("sum") != std::string::npos || n.find("total") != std::string::npos) return Agg::kSum;
  return Agg::kNone;
}

// The latency table: one row per probe display name, in the order probes are first met.
struct LatencyTable {
  std::vector<LatencyRow> rows;
  std::unordered_map<std::string, size_t> row_of;

  LatencyRow& row_for(const std::string& key) {
    std::string dk = probe_display_name(key);
    auto it = row_of.find(dk);
    if (it != row_of.end()) return rows[it->second];
    row_of[dk] = rows.size();
    rows.push_back({dk, {{"probe", dk}}, {}});
    if (dk != key) rows.back().row["raw"] = key;
    return rows.back();
  }
};

void add_source(LatencyRow& r, const std::string& s) {
  if (std::find(r.sources.begin(), r.sources.end(), s) == r.sources.end()) r.sources.push_back(s);
}

// ruby-static-tracing names a provider after its class (Helpers.underscore): my_controller ->
// MyController. The mapping is not one to one (A::BFoo and ABFoo both give a_b_foo): a guess.
std::string class_guess(const std::string& provider) {
  std::string cls;
  bool up = true;
  for (char c : provider) {
    if (c == '_') {
      up = true;
      continue;
    }
    cls.push_back(up && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
    up = false;
  }
  return cls;
}

// One row per stats() entry of every printout.
nlohmann::json stats_rows(const std::vector<MapBlock>& maps) {
  nlohmann::json stats = nlohmann::json::array();
  std::map<std::string, int> snap;
  for (const auto& m : maps) {
    int s = snap[m.name]++;
    for (const auto& e : m.entries)
      if (e.value.kind == MapValue::kStats)
        stats.push_back({{"name", m.name},
                         {"key", e.has_key ? nlohmann::json(e.key) : nlohmann::json()},
                         {"snapshot", s},
                         {"count", int_json(e.value.stats.count)},
                         {"average", int_json(e.value.stats.average)},
                         {"total", int_json(e.value.stats.total)}});
  }
  return stats;
}

// The events of every series: how many fired, and the first and last timestamps.
struct EventSpan {
  uint64_t fires = 0, ts_min = UINT64_MAX, ts_max = 0;
  void add(const EventSeries& s) {
    fires += s.values.size();
    for (uint64_t t : s.timestamps) {
      ts_min = std::min(ts_min, t);
      ts_max = std::max(ts_max, t);
    }
  }
  bool has_duration() const { return ts_max > ts_min && ts_min != UINT64_MAX; }
};

// An event series' exact statistics into its latency row, and its log2 histogram (for the chart,
// with exact percentile markers) into hists.
void add_series_row(const EventSeries& s, LatencyRow& r, nlohmann::json& hists) {
  std::vector<uint64_t> counts;
  series_latency(s.values, r.row, &counts);
  int first = 0, last = 64;
  while (first < 64 && counts[static_cast<size_t>(first)] == 0) ++first;
  while (last > first && counts[static_cast<size_t>(last)] == 0) --last;
  nlohmann::json buckets = nlohmann::json::array();
  for (int k = first; k <= last; ++k) {
    uint64_t lo = k == 0 ? 0 : (1ULL << (k - 1));
    uint64_t hi = k == 0 ? 0 : (k == 64 ? UINT64_MAX : (1ULL << k) - 1);
    buckets.push_back({{"lo", u64_json(lo)}, {"hi", u64_json(hi)}, {"count", counts[static_cast<size_t>(k)]}});
  }
  const nlohmann::json p50 = r.row["p50"], p90 = r.row["p90"], p99 = r.row["p99"];
  r.row["exact"] = true;
  add_source(r, "events");
  hists.push_back({{"name", "events"},
                   {"key", r.key},
                   {"snapshot", 0},
                   {"buckets", buckets},
                   {"total", s.values.size()},
                   {"p50", nlohmann::json::array({p50, p50})},
                   {"p90", nlohmann::json::array({p90, p90})},
                   {"p99", nlohmann::json::array({p99, p99})},
                   {"valid", true},
                   {"exact", true},
                   {"source", "events"}});
}

// What the last printout of each map adds to the latency rows: the fields events did not fill.
// Returns the calls the count and stats maps counted; `hist_of` gets, per probe whose percentiles
// come from a histogram, that histogram's {block, entry} in `maps`.
uint64_t add_map_rows(const std::vector<MapBlock>& maps, LatencyTable& table,
                      std::unordered_map<std::string, std::pair<size_t, size_t>>& hist_of) {
  std::map<std::string, size_t> last_block;
  for (size_t i = 0; i < maps.size(); ++i) last_block[maps[i].name] = i;
  uint64_t map_calls = 0;
  for (const auto& [name, bi] : last_block) {
    const MapBlock& m = maps[bi];
    for (const auto& e : m.entries) {
      if (!e.has_key) continue;
      const MapValue& v = e.value;
      if (v.kind == MapValue::kStats) {
        LatencyRow& r = table.row_for(e.key);
        if (!r.row.contains("calls")) r.row["calls"] = int_json(v.stats.count);
        if (!r.row.contains("total")) r.row["total"] = int_json(v.stats.total);
        if (!r.row.contains("mean")) r.row["mean"] = int_json(v.stats.average);
        add_source(r, "stats " + name);
        map_calls += v.stats.count.mag;
      } else if (v.kind == MapValue::kHist && v.hist.valid && v.hist.total > 0) {
        LatencyRow& r = table.row_for(e.key);
        if (!r.row.contains("calls")) r.row["calls"] = u64_json(v.hist.total);
        if (!r.row.contains("p50")) hist_of[r.key] = {bi, static_cast<size_t>(&e - m.entries.data())};
        for (int pct : {50, 90, 99}) {
          std::string k = "p" + std::to_string(pct);
          if (!r.row.contains(k)) r.row[k] = bucket_pair(v.hist, percentile_bucket(v.hist, pct));
        }
        if (!r.row.contains("exact")) r.row["exact"] = false;
        add_source(r, "hist " + name);
      } else if (v.kind == MapValue::kInt && m.kind == "map") {
        Agg a = classify_map_name(name);
        const char* field = a == Agg::kCount ? "calls"
                            : a == Agg::kSum ? "total"
                            : a == Agg::kAvg ? "mean"
                            : a == Agg::kMin ? "min"
                            : a == Agg::kMax ? "max"
                                             : nullptr;
        if (!field) continue;
        LatencyRow& r = table.row_for(e.key);
        if (!r.row.contains(field)) r.row[field] = int_json(v.i);
        add_source(r, std::string(field) + " " + name);
        if (a == Agg::kCount && !v.i.neg) map_calls += v.i.mag;
      }
    }
  }
  return map_calls;
}

// Rates over time: each map's total per printout, and the events per time bin.
nlohmann::json rates_json(const std::vector<MapBlock>& maps, const std::vector<EventSeries>& series,
                          const EventSpan& span) {
  nlohmann::json rates = nlohmann::json::object();
  std::map<std::string, std::vector<size_t>> blocks;
  for (size_t i = 0; i < maps.size(); ++i) blocks[maps[i].name].push_back(i);
  nlohmann::json snaps = nlohmann::json::array();
  for (const auto& [name, idx] : blocks) {
    if (idx.size() < 2) continue;
    nlohmann::json totals = nlohmann::json::array(), entries = nlohmann::json::array();
    for (size_t i : idx) {
      long double t = 0;
      for (const auto& e : maps[i].entries) {
        if (e.value.kind == MapValue::kInt) t += static_cast<long double>(e.value.i.as_double());
        else if (e.value.kind == MapValue::kHist) t += static_cast<long double>(e.value.hist.total);
        else if (e.value.kind == MapValue::kStats) t += static_cast<long double>(e.value.stats.count.as_double());
      }
      totals.push_back(static_cast<double>(t));
      entries.push_back(maps[i].entries.size());
    }
    snaps.push_back({{"name", name},
                     {"totals", totals},
                     {"entries", entries},
                     {"last_possibly_partial", true},
                     {"note", "one value per printout; the last printout (at Ctrl-C) may cover a partial interval"}});
  }
  rates["snapshots"] = snaps;
  if (span.has_duration()) {
    uint64_t width = span.ts_max - span.ts_min;
    uint64_t bin = 1000000000ULL;  // 1 s
    while (width / bin > 2000) bin *= 10;
    std::vector<uint64_t> counts(static_cast<size_t>(width / bin) + 1, 0);
    for (const auto& s : series)
      for (uint64_t t : s.timestamps) counts[static_cast<size_t>((t - span.ts_min) / bin)]++;
    rates["events"] = {{"t0_ns", u64_json(span.ts_min)}, {"bin_s", static_cast<double>(bin) / 1e9}, {"count", counts}};
  }
  return rates;
}

// The tracer's overhead estimate: fires per second times the measured cost per traced call.
nlohmann::json overhead_json(const EventSpan& span, uint64_t map_calls, const nlohmann::json& options) {
  uint64_t fires = span.fires ? span.fires : map_calls;
  double duration = 0;
  std::string duration_source;
  if (span.has_duration()) {
    duration = static_cast<double>(span.ts_max - span.ts_min) / 1e9;
    duration_source = "event timestamps";
  }
  if (options.is_object() && options.contains("duration_s")) {
    const auto& d = options["duration_s"];
    double v = d.is_number() ? d.get<double>() : (d.is_string() ? std::atof(d.get<std::string>().c_str()) : 0);
    if (v > 0) {
      duration = v;
      duration_source = "option duration_s";
    }
  }
  nlohmann::json o = {{"fires", fires},
                      {"fires_source", span.fires ? "events" : (map_calls ? "count/stats maps" : "none")},
                      {"cost_per_fire_us",
                       {{"untraced", kUntracedCallUs},
                        {"tracing_enabled_nothing_attached", kTracedNothingAttachedUs},
                        {"bpftrace_attached", kTracedBpftraceAttachedUs}}},
                      {"note",
                       "measured cost per traced call (the gem's own latency figure under-reports it); "
                       "percent of one core's wall time"}};
  if (duration > 0) {
    double rate = static_cast<double>(fires) / duration;
    o["duration_s"] = duration;
    o["duration_source"] = duration_source;
    o["fires_per_s"] = rate;
    o["overhead_pct"] = rate * kTracedBpftraceAttachedUs * 1e-6 * 100.0;
    o["overhead_pct_unattached"] = rate * kTracedNothingAttachedUs * 1e-6 * 100.0;
  } else {
    o["duration_s"] = nullptr;
    o["fires_per_s"] = nullptr;
    o["overhead_pct"] = nullptr;
  }
  return o;
}

}  // namespace

std::string probe_display_name(const std::string& key) {
  ProbeName p;
  if (parse_probe_name(key, p)) return p.provider + ":" + p.name;
  return key;
}

void TraceData::finish(nlohmann::json& report, const nlohmann::json& options) {
  end_ruby_stack();
  if (options.is_object() && options.contains("boot_epoch_s") && options["boot_epoch_s"].is_number())
    boot_epoch_s = options["boot_epoch_s"].get<double>();
  report["tool"] = tool;
  report["tool_version"] = tool_version.empty() ? nlohmann::json() : nlohmann::json(tool_version);
  report["attached_probes"] = attached_probes >= 0 ? nlohmann::json(attached_probes) : nlohmann::json();

  // probes named in map keys and event names
  for (const auto& m : maps)
    for (const auto& e : m.entries)
      if (e.has_key) add_probe(e.key);
  for (const auto& s : series_) add_probe(s.name);
  nlohmann::json probes = nlohmann::json::array();
  for (const auto& raw : probe_order_) {
    const auto& p = probes_.at(raw);
    probes.push_back(
        {{"raw", p.raw}, {"provider", p.provider}, {"name", p.name}, {"class_guess", class_guess(p.provider)}});
  }
  report["probes"] = std::move(probes);

  nlohmann::json maps_out = nlohmann::json::array();
  nlohmann::json hists = histograms_json(maps_out);
  nlohmann::json stats = stats_rows(maps);

  // The per-probe latency table: exact rows from the event series, then what the maps add.
  LatencyTable table;
  EventSpan span;
  for (const auto& s : series_) {
    if (s.values.empty()) continue;
    LatencyRow& r = table.row_for(s.name);
    series_by_probe_[r.key] = static_cast<size_t>(&s - series_.data());
    span.add(s);
    add_series_row(s, r, hists);
  }
  hist_by_probe_.clear();
  const uint64_t map_calls = add_map_rows(maps, table, hist_by_probe_);
  nlohmann::json latency = nlohmann::json::array();
  for (auto& r : table.rows) {
    if (!r.row.contains("exact") && (r.row.contains("p50"))) r.row["exact"] = false;
    r.row["sources"] = r.sources;
    latency.push_back(r.row);
  }
  nlohmann::json rates = rates_json(maps, series_, span);
  report["overhead"] = overhead_json(span, map_calls, options);

  if (stacks.truncated() > 0)
    hint("strlen",
         "Some stack strings were cut by bpftrace's string limit (64 bytes by default before 0.23, "
         "max 200 in 0.17): rerun with BPFTRACE_STRLEN=200 (0.17) or --strlen/BPFTRACE_MAX_STRLEN (>= 0.23).");

  // The report's parts are moved in, not copied (a deep copy of every map entry per report).
  report["maps"] = std::move(maps_out);
  latency_ = latency;
  histograms_ = hists;
  report["slowest_probes"] = slowest_probes(latency);
  report["histograms"] = std::move(hists);
  report["stats"] = std::move(stats);
  report["events"] = events;
  report["lost_events"] = lost_events;
  report["printf_count"] = printf_count;
  if (printf_count) {
    report["printf_first"] = printf_first;
    report["printf_last"] = printf_last;
  }
  nlohmann::json types = nlohmann::json::object();
  for (const auto& [k, v] : event_types) types[k] = v;
  report["event_types"] = std::move(types);
  if (!other_events.empty()) report["other_events"] = other_events;
  report["stderr_lines"] = stderr_lines;
  report["latency"] = std::move(latency);
  report["rates"] = std::move(rates);
  report["stacks"] = stacks.to_json(stack_weight_unit);
  stack_queries_ready_ = false;
  report["tables"] = tables;
  report["hints"] = hints;
  for (auto& [k, v] : extra.items()) report[k] = v;
}

}  // namespace gcscope::tracing
