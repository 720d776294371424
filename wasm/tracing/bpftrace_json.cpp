// bpftrace -f json: one event object per line ({"type": "...", "data": ...}), blank lines from Ctrl-C,
// and also pretty-printed objects (bpftrace's own test fixtures, jq output).
//
// The hot path is the printf event stream (one line per traced call): such lines are scanned by
// hand, no DOM. Other events are rare (attached_probes, map dumps) and parsed with nlohmann's
// ordered_json, which keeps map entry order and reads integers up to 2^64-1 exactly.
// Raw non-UTF-8 bytes (bpftrace passes str()/buf bytes through its escaper) are replaced by U+FFFD
// with a warning instead of failing the line.
#include <algorithm>
#include <cstring>

#include "analyzers.h"
#include "line_analyzer.h"
#include "core/json_string.h"
#include "core/line_splitter.h"
#include "core/text_scan.h"
#include "core/utf8.h"
#include "trace_model.h"
#include "tracing/tables.h"

namespace gcscope::tracing {
namespace {

using ojson = nlohmann::ordered_json;
using text::starts_with;

bool json_to_int(const ojson& v, Int& out) {
  if (v.is_number_unsigned()) {
    out = Int{v.get<uint64_t>(), false};
    return true;
  }
  if (v.is_number_integer()) {
    int64_t i = v.get<int64_t>();
    out = i < 0 ? Int{static_cast<uint64_t>(-(i + 1)) + 1, true} : Int{static_cast<uint64_t>(i), false};
    return true;
  }
  // >= 0.24 quotes integers that a double cannot hold
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    Int t;
    if (parse_int(s, t) && t.mag > 9007199254740992ULL) {
      out = t;
      return true;
    }
  }
  return false;
}

constexpr int kMaxDepth = 128;

class BpftraceJsonAnalyzer final : public LineAnalyzer<BpftraceJsonAnalyzer> {
 public:
  using LineAnalyzer::LineAnalyzer;
  friend LineAnalyzer;  // it calls on_line and member_ended

  void feed(const char* data, size_t len) override {
    chunk_begin_ = data;
    chunk_end_ = data + len;
    feed_lines(data, len);
    // the last printf text seen in this chunk: copied once per chunk, not once per event
    flush_last_printf();
    chunk_begin_ = chunk_end_ = nullptr;
  }

  void end_member() override {
    chunk_begin_ = chunk_end_ = nullptr;
    finish_lines();
    if (depth_ > 0) {
      error(obj_line_, -1, "invalid JSON: the input ends inside the event object starting on this line (truncated)");
      reset_object();
    }
  }

  void finish(nlohmann::json& report) override {
    flush_last_printf();
    if (printf_events_) d_.event_types["printf"] += printf_events_;
    if (d_.printf_count == 0 && d_.maps.empty() && d_.stacks.unique() == 0 && d_.other_events.empty())
      d_.hint("empty_capture",
              "Nothing was captured. Ruby's own method__entry/method__return probes fire only while a TracePoint is "
              "enabled; ruby-static-tracing providers exist only after the first `kill -PROF <pid>`.");
    d_.finish(report, options_);
  }

 private:
  void reset_object() {
    depth_ = 0;
    in_string_ = false;
    escape_ = false;
    obj_.clear();
  }

  // Tracks nesting across lines (pretty-printed objects); returns the depth after `s`.
  int track_depth(std::string_view s) {
    for (char c : s) {
      if (in_string_) {
        if (escape_) escape_ = false;
        else if (c == '\\') escape_ = true;
        else if (c == '"') in_string_ = false;
        continue;
      }
      if (c == '"') in_string_ = true;
      else if (c == '{' || c == '[') ++depth_;
      else if (c == '}' || c == ']') --depth_;
    }
    return depth_;
  }

  void on_line(std::string_view line, uint64_t n, uint64_t /*offset*/) {
    int64_t ln = static_cast<int64_t>(n);
    if (depth_ > 0) {
      if (starts_with(line, "{\"type\"") || starts_with(line, "{ \"type\"")) {
        error(obj_line_, -1,
              "invalid JSON: the event object starting on this line is cut off (a new event starts on line " +
                  std::to_string(ln) + ")");
        reset_object();
      } else {
        obj_.append(line);
        obj_.push_back('\n');
        if (track_depth(line) <= 0) {
          std::string text;
          text.swap(obj_);
          reset_object();
          process_object(text, obj_line_);
        } else if (obj_.size() > (64u << 20)) {
          error(obj_line_, -1, "JSON event object starting here exceeds 64 MiB; skipped");
          reset_object();
        }
        return;
      }
    }
    size_t b = 0;
    while (b < line.size() && (line[b] == ' ' || line[b] == '\t')) ++b;
    if (b == line.size()) return;
    if (fast_printf(line, ln)) return;
    if (line[b] == '{') {
      in_string_ = escape_ = false;
      depth_ = 0;
      if (track_depth(line) <= 0) {
        depth_ = 0;
        process_object(line, ln);
      } else {
        obj_.assign(line);
        obj_.push_back('\n');
        obj_line_ = ln;
      }
      return;
    }
    std::string_view t = text::trim(line);
    if (starts_with(t, "ERROR") || starts_with(t, "WARNING") || starts_with(t, "open(") ||
        starts_with(t, "Attaching ") || starts_with(t, "Attached ") || t == "^C" || starts_with(t, "libbpf:")) {
      ++d_.stderr_lines;
      return;
    }
    if (++non_json_ <= 20)
      error(ln, -1,
            "expected a bpftrace JSON event ({\"type\": ..., \"data\": ...}), found \"" + std::string(t.substr(0, 60)) +
                "\"");
  }

  // {"type": "printf", "data": "..."} without building a DOM: a hand scan beside nlohmann because this
  // is one line per traced call, and a DOM per line is what it avoids. The common line of an event stream is
  // `{"type": "printf", "data": "<text>\n"}`: its only escape is the final \n, so the text is a view
  // of the line (two memchr, no decoding); anything else goes through the JSON string decoder.
  bool fast_printf(std::string_view line, int64_t ln) {
    static constexpr std::string_view kSpaced = "{\"type\": \"printf\", \"data\": \"";
    static constexpr std::string_view kCompact = "{\"type\":\"printf\",\"data\":\"";
    size_t p;
    if (starts_with(line, kSpaced)) p = kSpaced.size();
    else if (starts_with(line, kCompact)) p = kCompact.size();
    else return false;
    const char* s = line.data() + p;
    const char* end = line.data() + line.size();
    const char* cursor;
    std::string_view data;
    bool newline = false;  // the text ends with a "\n" left out of `data`
    const char* bs = static_cast<const char*>(std::memchr(s, '\\', static_cast<size_t>(end - s)));
    const char* stop = bs ? bs : end;
    const char* quote = static_cast<const char*>(std::memchr(s, '"', static_cast<size_t>(stop - s)));
    if (quote) {  // no escape at all
      data = std::string_view(s, static_cast<size_t>(quote - s));
      cursor = quote + 1;
    } else if (bs && end - bs >= 3 && bs[1] == 'n' && bs[2] == '"') {
      data = std::string_view(s, static_cast<size_t>(bs - s));
      newline = true;
      cursor = bs + 3;
    } else {
      cursor = s;
      if (json::decode_string(cursor, end, data, scratch_) != json::StringStatus::kOk) return false;
      if (!data.empty() && data.back() == '\n' && data.find('\n') == data.size() - 1) {
        data.remove_suffix(1);
        newline = true;
      }
    }
    size_t q = static_cast<size_t>(cursor - line.data());
    while (q < line.size() && line[q] == ' ') ++q;
    if (q >= line.size() || line[q] != '}') return false;
    ++q;
    while (q < line.size() && (line[q] == ' ' || line[q] == '\t')) ++q;
    if (q != line.size()) return false;
    if (has_high_byte(data)) {
      size_t bad = utf8::repair(data, clean_);
      if (bad) {
        warning(ln, -1, "invalid UTF-8 in printf data: " + std::to_string(bad) + " byte(s) replaced by U+FFFD");
        str_.swap(clean_);
        data = str_;
      }
    }
    ++d_.events;
    ++printf_events_;
    note_printf(data, newline);
    on_printf(data, /*counted=*/true);
    return true;
  }

  static bool has_high_byte(std::string_view s) {
    const char* p = s.data();
    size_t n = s.size(), i = 0;
    uint64_t acc = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      acc |= w;
    }
    for (; i < n; ++i) acc |= static_cast<unsigned char>(p[i]);
    return (acc & 0x8080808080808080ULL) != 0;
  }

  // printf_first / printf_last as the report shows them (with the text's final newline). The last
  // one is remembered as a view while it lies in the caller's chunk and copied when the chunk ends.
  void note_printf(std::string_view data, bool newline) {
    ++d_.printf_count;
    if (d_.printf_count == 1) {
      d_.printf_first = std::string(data);
      if (newline) d_.printf_first.push_back('\n');
    }
    if (chunk_begin_ && data.data() >= chunk_begin_ && data.data() + data.size() <= chunk_end_) {
      last_printf_ = data;
      last_printf_newline_ = newline;
      last_printf_pending_ = true;
    } else {
      last_printf_pending_ = false;
      d_.printf_last.assign(data.data(), data.size());
      if (newline) d_.printf_last.push_back('\n');
    }
  }
  void flush_last_printf() {
    if (!last_printf_pending_) return;
    d_.printf_last.assign(last_printf_.data(), last_printf_.size());
    if (last_printf_newline_) d_.printf_last.push_back('\n');
    last_printf_pending_ = false;
  }

  void on_printf(std::string_view data, bool counted = false) {
    if (!counted) {
      flush_last_printf();
      ++d_.printf_count;
      if (d_.printf_count == 1) d_.printf_first = std::string(data);
      d_.printf_last.assign(data.data(), data.size());
    }
    size_t nl = data.find('\n');
    if (nl == std::string_view::npos || nl + 1 == data.size()) {
      std::string_view l = nl == std::string_view::npos ? data : data.substr(0, nl);
      if (looks_ruby_frame(l)) {
        d_.add_ruby_frame_line(l);
        d_.end_ruby_stack();
      } else {
        d_.add_event_line(l);
      }
      return;
    }
    // several lines: a stack-tracer string (caller.join("\n")) or several records
    size_t start = 0;
    while (start < data.size()) {
      size_t e = data.find('\n', start);
      if (e == std::string_view::npos) e = data.size();
      std::string_view l = data.substr(start, e - start);
      bool last = e + 1 >= data.size();
      // a stack string cut by the string limit ends in a fragment of a frame ("app/contr")
      if (looks_ruby_frame(l) || (last && !l.empty() && d_.in_ruby_stack())) d_.add_ruby_frame_line(l);
      else if (!l.empty()) {
        d_.end_ruby_stack();
        d_.add_event_line(l);
      }
      start = e + 1;
    }
    d_.end_ruby_stack();
  }

  void process_object(std::string_view raw, int64_t ln) {
    std::string_view text = raw;
    bool high = false;
    for (char c : raw)
      if (static_cast<unsigned char>(c) >= 0x80) {
        high = true;
        break;
      }
    size_t bad = 0;
    if (high) {
      bad = utf8::repair(raw, clean_);
      text = clean_;
    }
    // bpftrace nests a few levels (tuples in values); refuse pathological nesting before building
    // a DOM whose copy/dump would recurse that deep
    {
      int depth = 0, max_depth = 0;
      bool in_str = false, esc = false;
      for (char c : text) {
        if (in_str) {
          if (esc) esc = false;
          else if (c == '\\') esc = true;
          else if (c == '"') in_str = false;
        } else if (c == '"') {
          in_str = true;
        } else if (c == '{' || c == '[') {
          max_depth = std::max(max_depth, ++depth);
        } else if (c == '}' || c == ']') {
          --depth;
        }
      }
      if (max_depth > kMaxDepth) {
        error(ln, -1,
              "JSON event nested " + std::to_string(max_depth) + " levels deep (more than " +
                  std::to_string(kMaxDepth) + "): not a bpftrace event; skipped");
        return;
      }
    }
    ojson ev;
    try {
      ev = ojson::parse(text.begin(), text.end());
    } catch (const std::exception& e) {
      error(ln, -1, std::string("invalid JSON: ") + e.what());
      return;
    }
    if (!ev.is_object() || !ev.contains("type") || !ev["type"].is_string()) {
      error(ln, -1, "event without type: expected {\"type\": ..., \"data\": ...}");
      return;
    }
    std::string type = ev["type"].get<std::string>();
    if (bad)
      warning(ln, -1, "invalid UTF-8 in " + type + " data: " + std::to_string(bad) + " byte(s) replaced by U+FFFD");
    ++d_.event_types[type];
    // `events` counts what the probes printed (printf, time, join, ...): the tool's own records
    // (attached_probes, map printouts, errors, lost_events) are counted by type in event_types.
    const bool tool_record = type == "attached_probes" || type == "map" || type == "stats" || type == "hist" ||
                             type == "lhist" || type == "tseries" || type == "helper_error" || type == "errorf" ||
                             type == "warnf" || type == "runtime_error" || type == "lost_events";
    if (!tool_record) ++d_.events;
    if (type == "lost_events") {
      // {"type": "lost_events", "data": {"events": N}}: N events the kernel buffer dropped.
      const bool counted = ev.contains("data") && ev["data"].is_object() && ev["data"].contains("events") &&
                           ev["data"]["events"].is_number_unsigned();
      d_.lost_events += counted ? ev["data"]["events"].get<uint64_t>() : 0;
      if (!counted) warning(ln, -1, "lost_events record without a data.events count");
    }
    if (!ev.contains("data")) {
      if (type != "lost_events") error(ln, -1, "\"" + type + "\" event without data");
      return;
    }
    const ojson& data = ev["data"];
    if (type == "attached_probes") {
      if (data.is_object() && data.contains("probes") && data["probes"].is_number_integer())
        d_.attached_probes = data["probes"].get<int64_t>();
      else error(ln, -1, "attached_probes event without an integer data.probes");
      if (ev.contains("count") || data.contains("count")) d_.tool_version = ">= 0.24";
      return;
    }
    if (type == "printf") {
      if (!data.is_string()) {
        error(ln, -1, "printf event whose data is not a string");
        return;
      }
      on_printf(data.get_ref<const std::string&>());
      return;
    }
    if (type == "map" || type == "stats" || type == "hist" || type == "lhist" || type == "tseries") {
      if (!data.is_object() || data.size() != 1) {
        error(ln, -1,
              type + " event must hold exactly one map (found " + std::to_string(data.is_object() ? data.size() : 0) +
                  ")");
        return;
      }
      auto it = data.begin();
      map_event(type, it.key(), it.value(), ln);
      return;
    }
    if (type == "helper_error" || type == "errorf" || type == "warnf" || type == "runtime_error" ||
        type == "lost_events") {
      ++d_.stderr_lines;
      if (d_.other_events.size() < 100) d_.other_events.push_back(nlohmann::json::parse(ev.dump()));
      return;
    }
    // value (print of a non-map), time, join, cat, syscall, ...
    if (d_.other_events.size() < 100) d_.other_events.push_back(nlohmann::json::parse(ev.dump()));
  }

  bool hist_from_json(const ojson& arr, Histogram& h, int64_t ln, const std::string& where) {
    if (!arr.is_array()) {
      error(ln, -1, "hist value is not a bucket list (" + where + ")");
      return false;
    }
    for (const auto& b : arr) {
      if (!b.is_object() || !b.contains("count")) {
        error(ln, -1, "hist bucket is not {\"min\", \"max\", \"count\"} (" + where + ")");
        return false;
      }
      Bucket bk;
      Int c;
      if (!json_to_int(b["count"], c) || c.neg) {
        error(ln, -1, "hist bucket count is not a non-negative integer (" + where + ")");
        return false;
      }
      bk.count = c.mag;
      bk.has_lo = b.contains("min") && json_to_int(b["min"], bk.lo);
      bk.has_hi = b.contains("max") && json_to_int(b["max"], bk.hi);
      if (!bk.has_lo && !bk.has_hi) {
        error(ln, -1, "hist bucket without min and max (" + where + ")");
        return false;
      }
      if (!h.buckets.empty() && h.valid) {
        const Bucket& prev = h.buckets.back();
        if (!(prev.has_hi && bk.has_lo && prev.hi < bk.lo)) {
          h.valid = false;
          error(
              ln, -1,
              "histogram buckets not increasing / overlapping in " + where + ": kept as printed, without percentiles");
        }
      }
      h.buckets.push_back(bk);
      h.total += bk.count;
    }
    return true;
  }

  void map_event(const std::string& type, const std::string& name, const ojson& value, int64_t ln) {
    MapBlock block;
    block.name = name;
    block.line = ln;
    bool is_hist = type == "hist" || type == "lhist";
    auto add_value = [&](bool has_key, const std::string& key, const ojson& v) -> bool {
      MapEntry e;
      e.has_key = has_key;
      e.key = key;
      e.line = ln;
      std::string where = name + (has_key ? "[" + key + "]" : "");
      if (is_hist) {
        e.value.kind = MapValue::kHist;
        if (!hist_from_json(v, e.value.hist, ln, where)) return false;
      } else if (type == "tseries") {
        e.value.kind = MapValue::kTseries;
        if (!v.is_array()) {
          error(ln, -1, "tseries value is not a list of points (" + where + ")");
          return false;
        }
        for (const auto& p : v) {
          TseriesPoint pt;
          if (p.is_object() && p.contains("interval_start"))
            pt.label =
                p["interval_start"].is_string() ? p["interval_start"].get<std::string>() : p["interval_start"].dump();
          if (p.is_object() && p.contains("value") && p["value"].is_number()) pt.value = p["value"].get<double>();
          else pt.present = false;
          e.value.points.push_back(pt);
        }
      } else if (type == "stats" && v.is_object()) {
        for (const char* f : {"count", "average", "total"})
          if (!v.contains(f)) {
            error(ln, -1, std::string("stats value missing '") + f + "' (" + where + ")");
            return false;
          }
        e.value.kind = MapValue::kStats;
        if (!json_to_int(v["count"], e.value.stats.count) || !json_to_int(v["average"], e.value.stats.average) ||
            !json_to_int(v["total"], e.value.stats.total)) {
          error(ln, -1, "stats count/average/total are not integers (" + where + ")");
          return false;
        }
      } else if (json_to_int(v, e.value.i)) {
        e.value.kind = MapValue::kInt;  // count/sum/min/max, and avg() (type "stats" in 0.17..0.23)
        if (type == "stats" && d_.tool_version.empty()) d_.tool_version = "0.17 - 0.23";
        if (v.is_string()) d_.tool_version = ">= 0.24";  // quoted 64-bit integers
      } else if (v.is_string()) {
        e.value.kind = MapValue::kString;
        e.value.s = v.get<std::string>();
      } else {
        e.value.kind = MapValue::kJson;
        e.value.j = nlohmann::json::parse(v.dump());
      }
      if (has_key && e.value.kind == MapValue::kInt) d_.add_map_entry_stack(block, key, e.value.i.as_double());
      block.entries.push_back(std::move(e));
      return true;
    };
    // keyed when the value is an object whose members are the entries; a stats() value is itself
    // an object with count/average/total, and a hist value is an array
    bool keyed = value.is_object() && !(type == "stats" && value.contains("count") && value.contains("average")) &&
                 !(type == "stats" && value.contains("count") && !value.begin().value().is_object());
    if (type == "stats" && value.is_object() && !value.empty() && value.begin().value().is_object()) keyed = true;
    if (keyed) {
      for (auto it = value.begin(); it != value.end(); ++it)
        if (!add_value(true, it.key(), it.value())) return;
    } else {
      if (!add_value(false, std::string(), value)) return;
    }
    bool stats_kind = type == "stats" && !block.entries.empty() && block.entries.front().value.kind == MapValue::kStats;
    block.kind = is_hist ? "hist" : type == "tseries" ? "tseries" : stats_kind ? "stats" : (keyed ? "map" : "scalar");
    d_.maps.push_back(std::move(block));
  }

  std::string str_, clean_, scratch_;
  const char* chunk_begin_ = nullptr;
  const char* chunk_end_ = nullptr;
  std::string_view last_printf_;
  bool last_printf_newline_ = false, last_printf_pending_ = false;
  std::string obj_;
  int64_t obj_line_ = 0;
  int depth_ = 0;
  bool in_string_ = false, escape_ = false;
  uint64_t printf_events_ = 0;
  uint64_t non_json_ = 0;
};

}  // namespace

std::unique_ptr<Analyzer> make_bpftrace_json(const AnalyzeOptions& options) {
  return std::make_unique<BpftraceJsonAnalyzer>(options);
}

}  // namespace gcscope::tracing
