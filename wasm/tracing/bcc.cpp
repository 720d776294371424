// BCC tool output: the Ruby USDT tools (ucalls, uflow, ugc, uobjnew, ustat), log2 histograms
// (funclatency, argdist -H, biolatency: "lo -> hi : count |***|", hi inclusive) and stacks
// (profile / stackcount: frames leaf first, "-  comm (pid)", count; or profile -f folded lines).
// Tool output is often pasted with prose around it (the *_example.txt files): a table starts at its
// header line and ends at the first line that is not a row.
#include <algorithm>

#include "analyzers.h"
#include "line_analyzer.h"
#include "probe_listing.h"
#include "core/line_splitter.h"
#include "core/text_scan.h"
#include "trace_model.h"
#include "tracing/tables.h"

namespace gcscope::tracing {
namespace {

using text::contains;
using text::ends_with;
using text::starts_with;
using text::trim;

std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  size_t p = 0;
  while (p < s.size()) {
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) ++p;
    size_t b = p;
    while (p < s.size() && s[p] != ' ' && s[p] != '\t') ++p;
    if (p > b) out.push_back(s.substr(b, p - b));
  }
  return out;
}

bool tok_u64(std::string_view s, uint64_t& v) {
  if (s.empty() || s.size() > 20) return false;
  size_t p = 0;
  return text::parse_u64(s, p, v) && p == s.size();
}

bool tok_dec(std::string_view s, double& v) {
  size_t p = 0;
  return text::parse_decimal(s, p, v) && p == s.size();
}

// A printed decimal as u64, clamped (negative or absurd values must not be undefined behaviour).
uint64_t clamp_u64(double v) {
  if (!(v > 0)) return 0;
  if (v >= 1.8e19) return UINT64_MAX;
  return static_cast<uint64_t>(v);
}

// uobjnew (Debian bcc 0.26) prints Python bytes reprs: b'String'
std::string strip_bytes_repr(std::string_view s) {
  if (s.size() >= 3 && s[0] == 'b' && (s[1] == '\'' || s[1] == '"') && s.back() == s[1])
    return std::string(s.substr(2, s.size() - 3));
  return std::string(s);
}

class BccAnalyzer final : public LineAnalyzer<BccAnalyzer> {
 public:
  using LineAnalyzer::LineAnalyzer;
  friend LineAnalyzer;  // it calls on_line and member_ended

  void finish(nlohmann::json& report) override {
    d_.tool = tool_.empty() ? "bcc" : tool_;
    if (!listing_.empty() && tables_seen_ == 0 && d_.stacks.unique() == 0 && log2_.empty()) {
      d_.tool = "tplist";  // `tplist` lists probes: no table, histogram or stack
      d_.finish(report, options_);
      listing_.write(report, "tplist");
      return;
    }
    if (!method_order_.empty()) {
      // maps named for the latency table: calls and total ns per method (ucalls -L)
      MapBlock calls{"@calls", "map", {}, -1, false}, total{"@total_ns", "map", {}, -1, false};
      for (const auto& m : method_order_) {
        const MethodTotal& t = method_totals_[m];
        MapEntry e;
        e.has_key = true;
        e.key = m;
        e.value.kind = MapValue::kInt;
        e.value.i = Int{t.calls, false};
        calls.entries.push_back(e);
        if (t.timed) {
          e.value.i = Int{t.ns, false};
          total.entries.push_back(e);
        }
      }
      d_.maps.push_back(std::move(calls));
      if (!total.entries.empty()) d_.maps.push_back(std::move(total));
    }
    if (!language_.empty()) d_.extra["language"] = language_;
    if (!log2_.empty()) d_.extra["log2_histograms"] = log2_;
    if (uflow_events_) {
      d_.extra["uflow"] = {{"events", uflow_events_},
                           {"entries", uflow_entries_},
                           {"returns", uflow_returns_},
                           {"first", uflow_first_},
                           {"time_span_s", uflow_last_t_ - uflow_first_t_},
                           {"note", "TIME is seconds since the tool started, read at poll time (not per event)"}};
    }
    if (folded_lines_) d_.extra["folded_lines"] = folded_lines_;
    if (tables_seen_ > 0 && rows_total_ == 0)
      d_.hint("empty_capture",
              "The tool printed its table header but no rows. Ruby's method__entry/method__return probes (ucalls, "
              "uflow) fire only while a TracePoint is enabled (e.g. TracePoint.new(:call){}.enable in the app).");
    if (tables_seen_ == 0 && d_.stacks.unique() == 0 && log2_.empty())
      error(-1, -1, "no BCC tool table, histogram or stack found");
    d_.finish(report, options_);
  }

 private:
  enum class Mode { kNone, kUcalls, kUflow, kUgc, kUobjnew, kUstat, kLog2 };

  void set_tool(const char* t) {
    if (tool_.empty() || tool_ == "log2hist" || tool_ == "profile") tool_ = t;
  }

  void begin_table(Mode m, std::string_view header, int64_t ln) {
    end_table();
    mode_ = m;
    table_ = {{"columns", tokens(header).size()},
              {"header", std::string(trim(header))},
              {"line", ln},
              {"rows", nlohmann::json::array()}};
    if (!label_.empty()) table_["label"] = label_;
    ++tables_seen_;
    rows_in_table_ = 0;
    merged_.clear();
  }

  void end_table() {
    if (mode_ == Mode::kNone) return;
    if (mode_ == Mode::kLog2) {
      finish_log2();
    } else {
      table_["tool"] = tool_name(mode_);
      table_["row_count"] = rows_in_table_;
      if (mode_ == Mode::kUcalls) {
        table_["distinct"] = merged_.size();
        table_["duplicated"] = duplicated_;
        // per-method totals over all tables (interval printouts, or several runs pasted together)
        for (const auto& r : table_["rows"]) {
          const std::string m = r["method"].get<std::string>();
          auto it = method_totals_.find(m);
          if (it == method_totals_.end()) {
            it = method_totals_.emplace(m, MethodTotal{}).first;
            method_order_.push_back(m);
          }
          it->second.calls += r["calls"].get<uint64_t>();
          if (r.contains("time_ns")) {
            it->second.ns += r["time_ns"].get<uint64_t>();
            it->second.timed = true;
          }
        }
      }
      d_.tables.push_back(table_);
    }
    duplicated_ = nlohmann::json::array();
    mode_ = Mode::kNone;
    label_.clear();
  }

  static const char* tool_name(Mode m) {
    switch (m) {
      case Mode::kUcalls: return "ucalls";
      case Mode::kUflow: return "uflow";
      case Mode::kUgc: return "ugc";
      case Mode::kUobjnew: return "uobjnew";
      case Mode::kUstat: return "ustat";
      case Mode::kLog2: return "log2hist";
      default: return "";
    }
  }

  bool header(std::string_view t, int64_t ln) {
    if (starts_with(t, "METHOD") && contains(t, "# CALLS")) {
      begin_table(Mode::kUcalls, t, ln);
      time_scale_ = contains(t, "(ms)") ? 1000000.0 : 1000.0;
      has_time_ = contains(t, "TIME");
      set_tool("ucalls");
      return true;
    }
    if (starts_with(t, "CPU") && contains(t, "PID") && contains(t, "TIME") && contains(t, "METHOD")) {
      begin_table(Mode::kUflow, t, ln);
      set_tool("uflow");
      return true;
    }
    if (starts_with(t, "START") && contains(t, "TIME") && contains(t, "DESCRIPTION")) {
      begin_table(Mode::kUgc, t, ln);
      time_scale_ = contains(t, "(ms)") ? 1000000.0 : 1000.0;
      set_tool("ugc");
      return true;
    }
    if ((starts_with(t, "TYPE") || starts_with(t, "NAME/TYPE")) && contains(t, "# ALLOCS")) {
      begin_table(Mode::kUobjnew, t, ln);
      set_tool("uobjnew");
      return true;
    }
    if (starts_with(t, "PID") && contains(t, "CMDLINE") && contains(t, "METHOD/s")) {
      begin_table(Mode::kUstat, t, ln);
      set_tool("ustat");
      return true;
    }
    if (contains(t, ": count") && contains(t, "distribution")) {
      begin_table(Mode::kLog2, t, ln);
      log2_unit_ = std::string(trim(t.substr(0, t.find(':'))));
      log2_hist_ = Histogram{};
      log2_line_ = ln;
      set_tool("log2hist");
      return true;
    }
    return false;
  }

  bool row(std::string_view t, int64_t ln) {
    auto tk = tokens(t);
    switch (mode_) {
      case Mode::kUcalls: {
        size_t need = has_time_ ? 3 : 2;
        if (tk.size() < need) return false;
        uint64_t calls = 0;
        double time = 0;
        if (has_time_ ? !(tok_u64(tk[tk.size() - 2], calls) && tok_dec(tk.back(), time)) : !tok_u64(tk.back(), calls))
          return false;
        std::string method;
        for (size_t i = 0; i + need - 1 < tk.size(); ++i) {
          if (i) method.push_back(' ');
          method.append(tk[i]);
        }
        auto it = merged_.find(method);
        if (it != merged_.end()) {
          // bcc 0.26 prints the same method on several rows: merge them
          auto& r = table_["rows"][it->second];
          r["calls"] = r["calls"].get<uint64_t>() + calls;
          if (has_time_) {
            r["time"] = r["time"].get<double>() + time;
            r["time_ns"] = r["time_ns"].get<uint64_t>() + clamp_u64(time * time_scale_ + 0.5);
          }
          r["merged_rows"] = r.value("merged_rows", 1) + 1;
          if (std::find(duplicated_.begin(), duplicated_.end(), method) == duplicated_.end())
            duplicated_.push_back(method);
        } else {
          nlohmann::json r = {{"method", method}, {"calls", calls}, {"line", ln}};
          if (has_time_) {
            r["time"] = time;
            r["time_ns"] = clamp_u64(time * time_scale_ + 0.5);
          }
          merged_[method] = table_["rows"].size();
          table_["rows"].push_back(r);
        }
        break;
      }
      case Mode::kUflow: {
        if (tk.size() < 6) return false;
        uint64_t cpu, pid, tid;
        double time;
        if (!tok_u64(tk[0], cpu) || !tok_u64(tk[1], pid) || !tok_u64(tk[2], tid) || !tok_dec(tk[3], time)) return false;
        bool entry = tk[4] == "->";
        if (!entry && tk[4] != "<-") return false;
        size_t time_end = static_cast<size_t>(tk[3].data() - t.data()) + tk[3].size();
        size_t arrow = static_cast<size_t>(tk[4].data() - t.data());
        int64_t pad = std::max<int64_t>(0, 8 - static_cast<int64_t>(tk[3].size()));
        int64_t indent = static_cast<int64_t>(arrow - time_end) - pad - 1;
        int depth = static_cast<int>(std::max<int64_t>(0, indent) / 2 + 1);
        std::string method(t.substr(static_cast<size_t>(tk[5].data() - t.data())));
        if (uflow_events_ == 0) {
          uflow_first_ = {{"cpu", cpu},      {"pid", pid},     {"tid", tid},
                          {"time_s", time},  {"depth", depth}, {"dir", entry ? "entry" : "return"},
                          {"method", method}};
          uflow_first_t_ = time;
        }
        uflow_last_t_ = time;
        ++uflow_events_;
        auto& stack = uflow_stacks_[tid];
        if (depth > 4096) depth = 4096;
        stack.resize(static_cast<size_t>(depth - 1), std::string("[caller before the trace started]"));
        if (entry) {
          ++uflow_entries_;
          stack.push_back(method);
          std::vector<std::string_view> fs(stack.begin(), stack.end());
          d_.stacks.add(fs, 1);
        } else {
          ++uflow_returns_;
        }
        ++rows_in_table_;
        ++rows_total_;
        ++d_.events;
        return true;  // rows not kept: uflow output can be hundreds of MB
      }
      case Mode::kUgc: {
        if (tk.size() < 2) return false;
        double start, time;
        if (!tok_dec(tk[0], start) || !tok_dec(tk[1], time)) return false;
        std::string desc =
            tk.size() > 2 ? std::string(trim(t.substr(static_cast<size_t>(tk[2].data() - t.data())))) : "";
        table_["rows"].push_back({{"start_s", start}, {"time", time}, {"description", desc}});
        d_.add_event(desc.empty() ? "GC" : desc, clamp_u64(time * time_scale_ + 0.5), true, clamp_u64(start * 1e9));
        break;
      }
      case Mode::kUobjnew: {
        if (tk.size() < 3) return false;
        uint64_t allocs, bytes;
        if (!tok_u64(tk[tk.size() - 2], allocs) || !tok_u64(tk.back(), bytes)) return false;
        std::string_view name = trim(t.substr(0, static_cast<size_t>(tk[tk.size() - 2].data() - t.data())));
        table_["rows"].push_back({{"name", strip_bytes_repr(name)}, {"allocs", allocs}, {"bytes", bytes}});
        break;
      }
      case Mode::kUstat: {
        if (tk.size() < 8) return false;
        uint64_t pid;
        uint64_t v[6];
        if (!tok_u64(tk[0], pid)) return false;
        for (int i = 0; i < 6; ++i)
          if (!tok_u64(tk[tk.size() - 6 + static_cast<size_t>(i)], v[i])) return false;
        std::string_view cmd =
            trim(t.substr(tk[0].size(), static_cast<size_t>(tk[tk.size() - 6].data() - t.data()) - tk[0].size()));
        table_["rows"].push_back({{"pid", pid},
                                  {"cmdline", std::string(cmd)},
                                  {"method_s", v[0]},
                                  {"gc_s", v[1]},
                                  {"objnew_s", v[2]},
                                  {"cload_s", v[3]},
                                  {"exc_s", v[4]},
                                  {"thr_s", v[5]}});
        break;
      }
      case Mode::kLog2: {
        // "   2048 -> 4095       : 124      |****    |"
        if (tk.size() < 5 || tk[1] != "->" || tk[3] != ":") return false;
        uint64_t lo, hi, count;
        if (!tok_u64(tk[0], lo) || !tok_u64(tk[2], hi) || !tok_u64(tk[4], count)) return false;
        Bucket b;
        b.lo = Int{lo, false};
        b.hi = Int{hi, false};
        b.count = count;
        if (!log2_hist_.buckets.empty() && !(log2_hist_.buckets.back().hi < b.lo)) {
          log2_hist_.valid = false;
          error(ln, -1, "histogram buckets not increasing / overlapping");
        }
        log2_hist_.buckets.push_back(b);
        log2_hist_.total += count;
        return true;
      }
      default: return false;
    }
    ++rows_in_table_;
    ++rows_total_;
    ++d_.events;
    return true;
  }

  void finish_log2() {
    MapBlock b;
    b.name = "@" + log2_unit_;
    b.kind = "hist";
    b.line = log2_line_;
    MapEntry e;
    e.has_key = !log2_key_.empty();
    e.key = log2_key_;
    e.line = log2_line_;
    e.value.kind = MapValue::kHist;
    e.value.hist = log2_hist_;
    b.entries.push_back(std::move(e));
    d_.maps.push_back(std::move(b));
    nlohmann::json j = {{"unit", log2_unit_},
                        {"total", log2_hist_.total},
                        {"count_line", nullptr},
                        {"line", log2_line_},
                        {"map_index", d_.maps.size() - 1}};
    if (!log2_key_.empty()) j["key"] = log2_key_;
    if (!label_.empty()) j["label"] = label_;
    log2_.push_back(j);
    log2_key_.clear();
  }

  void on_stack_block(std::string_view t) {
    // "-                cp (9036)": the process of the stack above; then an indented count
    if (starts_with(t, "- ") || t == "-") {
      std::string_view rest = trim(t.substr(1));
      size_t paren = rest.rfind(" (");
      block_comm_ = std::string(paren == std::string_view::npos ? rest : rest.substr(0, paren));
      return;
    }
    if (t == "--") return;  // profile -d: user/kernel delimiter
    uint64_t w = 0;
    if (tok_u64(t, w)) {
      if (block_frames_.empty()) return;
      std::vector<std::string_view> fs;
      if (!block_comm_.empty()) fs.push_back(block_comm_);
      for (auto it = block_frames_.rbegin(); it != block_frames_.rend(); ++it) fs.push_back(*it);
      d_.stacks.add(fs, static_cast<double>(w));
      if (tool_.empty() || tool_ == "log2hist") tool_ = block_comm_.empty() ? "stackcount" : "profile";
      block_frames_.clear();
      block_comm_.clear();
      return;
    }
    if (block_frames_.size() < 10000) block_frames_.emplace_back(t);
  }

  bool folded_line(std::string_view t) {
    if (t.find(';') == std::string_view::npos || t[0] == '#') return false;
    size_t sp = t.rfind(' ');
    uint64_t w = 0;
    if (sp == std::string_view::npos || !tok_u64(t.substr(sp + 1), w)) return false;
    d_.stacks.add_folded(trim(t.substr(0, sp)), static_cast<double>(w));
    ++folded_lines_;
    if (tool_.empty() || tool_ == "log2hist") tool_ = "profile";
    return true;
  }

  void member_ended() { end_table(); }

  void on_line(std::string_view line, uint64_t n, uint64_t /*offset*/) {
    int64_t ln = static_cast<int64_t>(n);
    std::string_view t = trim(line);
    if (mode_ != Mode::kNone) {
      if (!t.empty() && row(t, ln)) return;
      end_table();
    }
    if (t.empty()) {
      block_frames_.clear();
      block_comm_.clear();
      return;
    }
    if (tables_seen_ == 0 && log2_.empty() && listing_.take_tplist_line(line, n)) return;
    if (header(t, ln)) return;
    if (starts_with(t, "avg = ") && contains(t, "count: ")) {
      size_t c = t.rfind("count: ");
      uint64_t v = 0;
      if (!log2_.empty() && tok_u64(trim(t.substr(c + 7)), v)) log2_.back()["count_line"] = v;
      return;
    }
    if (starts_with(t, "Function = ")) {
      std::string_view k = t.substr(11);
      size_t br = k.rfind(" [");
      log2_key_ = std::string(br == std::string_view::npos ? k : k.substr(0, br));
      return;
    }
    if (starts_with(t, "Tracing ") && contains(t, "(language: ")) {
      size_t p = t.find("(language: ") + 11;
      size_t q = t.find(')', p);
      if (q != std::string_view::npos) language_ = std::string(t.substr(p, q - p));
    }
    if (t.size() == 8 && t[2] == ':' && t[5] == ':') {  // "20:10:08" interval timestamp (-T)
      label_ = std::string(t);
      return;
    }
    if (contains(t, " loadavg: ")) {  // ustat interval header
      label_ = std::string(t.substr(0, t.find(' ')));
      return;
    }
    if (folded_line(t)) return;
    if (line[0] == ' ' || line[0] == '\t') {
      on_stack_block(t);
      return;
    }
    block_frames_.clear();
    block_comm_.clear();
  }

  struct MethodTotal {
    uint64_t calls = 0, ns = 0;
    bool timed = false;
  };

  ProbeListing listing_;
  std::unordered_map<std::string, MethodTotal> method_totals_;
  std::vector<std::string> method_order_;
  std::string tool_, language_, label_;
  Mode mode_ = Mode::kNone;
  nlohmann::json table_;
  nlohmann::json duplicated_ = nlohmann::json::array();
  std::unordered_map<std::string, size_t> merged_;
  uint64_t tables_seen_ = 0, rows_in_table_ = 0, rows_total_ = 0;
  double time_scale_ = 1000.0;
  bool has_time_ = false;
  // log2
  std::string log2_unit_, log2_key_;
  Histogram log2_hist_;
  int64_t log2_line_ = 0;
  nlohmann::json log2_ = nlohmann::json::array();
  // uflow
  uint64_t uflow_events_ = 0, uflow_entries_ = 0, uflow_returns_ = 0;
  double uflow_first_t_ = 0, uflow_last_t_ = 0;
  nlohmann::json uflow_first_;
  std::unordered_map<uint64_t, std::vector<std::string>> uflow_stacks_;
  // stacks
  std::vector<std::string> block_frames_;
  std::string block_comm_;
  uint64_t folded_lines_ = 0;
};

}  // namespace

std::unique_ptr<Analyzer> make_bcc_output(const AnalyzeOptions& options) {
  return std::make_unique<BccAnalyzer>(options);
}

}  // namespace gcscope::tracing
