// bpftrace's text output (0.14 .. 0.26), and DTrace aggregations that read the same way.
//
// Grammar (checked against real output of bpftrace 0.17 and of its output code up to 0.26):
//   Attaching N probes...            (stdout <= 0.23; "Attached N probes" on stderr from 0.24)
//   @name: V   @name[k1, k2]: V       keys unquoted: split at the LAST "]: "
//   @name[line1                       a key with newlines spans lines (ustack, caller strings)
//   line2]: V
//   @s[k]: count N, average N, total N        stats (<= 0.23)
//   @s[k]: { .count = N, .average = N, .total = N }   (>= 0.24)
//   @h[k]:  (trailing space <= 0.23)  then rows  "[lo, hi)   count |@@@@   |", "[0]", "(..., 0)", "[x, ...)"
//   @t:  then a tseries chart ("hh:mm:ss" axis, "*" marker, value in the last column)  (>= 0.24)
//   anything else: printf output (or stderr noise: ERROR:, WARNING:, open(...), ...)
// `bpftrace -l` prints no maps but a probe per line ("usdt:/path:provider:name"): a file that starts
// with such lines is a listing, reported as "probes" (probe_listing.h).
// A map printed every interval appears as several blocks ("snapshots").
#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_set>

#include "analyzers.h"
#include "line_analyzer.h"
#include "core/line_splitter.h"
#include "core/text_scan.h"
#include "hist_label.h"
#include "probe_listing.h"
#include "trace_model.h"
#include "tracing/tables.h"

namespace gcscope::tracing {
namespace {

using text::ends_with;
using text::starts_with;
using text::trim;

bool is_stderr_noise(std::string_view l) {
  static const char* kPrefixes[] = {"ERROR:",     "WARNING:",        "open(",  "Lost ", "libbpf:", "stdin:",
                                    "failed to ", "perf_event_open", "Error ", "HINT:", "ERROR ",  "WARNING "};
  for (const char* p : kPrefixes)
    if (starts_with(l, p)) return true;
  return false;
}

bool parse_u64_tok(std::string_view s, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  size_t p = 0;
  return text::parse_u64(s, p, out) && p == s.size();
}

class BpftraceTextAnalyzer final : public LineAnalyzer<BpftraceTextAnalyzer> {
 public:
  using LineAnalyzer::LineAnalyzer;
  friend LineAnalyzer;  // it calls on_line and member_ended

  void end_member() override {
    final_partial_ = lines_.has_partial_line();
    finish_lines();
    final_partial_ = false;
    if (in_multikey_) {
      error(multikey_line_, -1, "map key starting here is never closed by \"]: value\" (input ends inside it)");
      in_multikey_ = false;
    }
    close_hist();
  }

  void finish(nlohmann::json& report) override {
    if (saw_dtrace_) d_.tool = "dtrace";
    if (!listing_.empty() && d_.maps.empty() && d_.printf_count == 0) {
      d_.finish(report, options_);
      listing_.write(report, "bpftrace");
      return;
    }
    if (d_.maps.empty() && foreign_line_ > 0)
      error(foreign_line_, -1,
            "no bpftrace maps found: this line looks like " + foreign_what_ + ", not bpftrace output");
    else if (d_.maps.empty() && d_.attached_probes < 0 && d_.printf_count > 0)
      warning(-1, -1,
              "no bpftrace maps found and no \"Attaching N probes\" line: only unrecognized lines, read as "
              "printf output (is this another tool's output?)");
    if (d_.maps.empty() && d_.printf_count == 0 && d_.stacks.unique() == 0) {
      // probes attached but nothing fired is a capture result (with a hint), not a parse error
      if (d_.attached_probes < 0)
        error(-1, -1, "no bpftrace maps found (no \"@name: value\" lines or histograms, and no printf output)");
      d_.hint("empty_capture",
              "Nothing was captured. Ruby's own method__entry/method__return probes fire only while a TracePoint is "
              "enabled (e.g. TracePoint.new(:call){}.enable); ruby-static-tracing providers exist only after the "
              "first `kill -PROF <pid>`.");
    }
    d_.finish(report, options_);
  }

 private:
  // Listing lines count only before any map, printf line or "Attaching" header: later, a line
  // such as "kprobe:x" is printf output.
  bool listing_possible() const {
    return d_.maps.empty() && d_.printf_count == 0 && d_.attached_probes < 0 && d_.stderr_lines == 0;
  }

  // ---- blocks ----
  MapBlock& block_for(std::string_view name, bool has_key, const std::string& key, const char* kind, int64_t line) {
    bool reuse = cur_ >= 0 && !block_broken_ && d_.maps[static_cast<size_t>(cur_)].name == name;
    if (reuse) {
      std::string id = has_key ? "k" + key : std::string("-");
      if (!cur_keys_.insert(id).second) reuse = false;
    }
    if (!reuse) {
      MapBlock b;
      b.name = std::string(name);
      b.kind = kind;
      b.line = line;
      d_.maps.push_back(std::move(b));
      cur_ = static_cast<int>(d_.maps.size()) - 1;
      cur_keys_.clear();
      cur_keys_.insert(has_key ? "k" + key : std::string("-"));
      block_broken_ = false;
    }
    return d_.maps[static_cast<size_t>(cur_)];
  }

  void close_hist() {
    if (hist_block_ < 0) return;
    MapEntry& e = d_.maps[static_cast<size_t>(hist_block_)].entries[hist_entry_];
    if (e.value.kind == MapValue::kHist && !bars_.empty()) {
      // bars are scaled to the largest count: bar = count * width / max (integer division)
      uint64_t mx = 0;
      for (const auto& r : bars_) mx = std::max(mx, r.count);
      for (const auto& r : bars_) {
        if (mx == 0 || r.width == 0) break;
        uint64_t expect = static_cast<uint64_t>((static_cast<unsigned __int128>(r.count) * r.width) / mx);
        if (expect != r.bar) {
          warning(r.line, -1,
                  "bar length disagrees with count: count " + std::to_string(r.count) + " but the bar has " +
                      std::to_string(r.bar) + " of " + std::to_string(r.width) + " marks (expected " +
                      std::to_string(expect) + " for a largest count of " + std::to_string(mx) +
                      "); the count is used");
          break;
        }
      }
    }
    bars_.clear();
    hist_block_ = -1;
    hist_entry_ = 0;
    hist_rows_ = 0;
    tseries_ = false;
  }

  MapEntry& hist_target() { return d_.maps[static_cast<size_t>(hist_block_)].entries[hist_entry_]; }

  void add_bucket(const Bucket& b, int64_t line) {
    Histogram& h = hist_target().value.hist;
    if (!h.buckets.empty() && h.valid) {
      const Bucket& prev = h.buckets.back();
      bool ok = prev.has_hi && b.has_lo && prev.hi < b.lo;
      if (!ok) {
        h.valid = false;
        error(line, -1,
              "histogram buckets not increasing / overlapping: this row does not start after the previous one");
      }
    }
    h.buckets.push_back(b);
    h.total += b.count;
    ++hist_rows_;
  }

  // ---- map lines ----
  bool on_map_line(std::string_view line, int64_t ln) {
    size_t i = 1;
    while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
    if (i >= line.size()) return false;
    std::string_view name = line.substr(0, i);
    if (line[i] == ':') {
      std::string_view value = line.substr(i + 1);
      if (!value.empty() && value[0] == ' ') value.remove_prefix(1);
      if (line.size() == i + 1) version_hint(">= 0.24");
      entry(name, false, std::string(), value, ln);
      return true;
    }
    if (line[i] != '[') return false;
    size_t close = line.rfind("]: ");
    std::string_view value;
    if (close != std::string_view::npos && close > i) {
      value = line.substr(close + 3);
    } else if (ends_with(line, "]:") && line.size() >= i + 3) {
      close = line.size() - 2;
      version_hint(">= 0.24");
    } else {
      // a key that continues on the next lines
      in_multikey_ = true;
      multikey_name_ = std::string(name);
      multikey_.assign(line.substr(i + 1));
      multikey_line_ = ln;
      multikey_lines_ = 1;
      return true;
    }
    entry(name, true, std::string(line.substr(i + 1, close - i - 1)), value, ln);
    return true;
  }

  void continue_multikey(std::string_view line, int64_t ln) {
    multikey_.push_back('\n');
    size_t close = line.rfind("]: ");
    bool header = false;
    if (close == std::string_view::npos && ends_with(line, "]:")) {
      close = line.size() - 2;
      header = true;
    }
    if (close == std::string_view::npos) {
      multikey_.append(line);
      if (++multikey_lines_ > 4096 || multikey_.size() > (1u << 20)) {
        error(multikey_line_, -1,
              "map key starting here is not closed after " + std::to_string(multikey_lines_) + " lines");
        in_multikey_ = false;
      }
      return;
    }
    multikey_.append(line.substr(0, close));
    in_multikey_ = false;
    std::string_view value = header ? std::string_view() : line.substr(close + 3);
    (void)ln;
    entry(multikey_name_, true, multikey_, value, multikey_line_);
  }

  void entry(std::string_view name, bool has_key, const std::string& key, std::string_view value_text, int64_t ln) {
    close_hist();
    d_.end_ruby_stack();
    MapEntry e;
    e.has_key = has_key;
    e.key = key;
    e.line = ln;
    std::string_view v = text::trim_right(value_text);
    const char* kind = has_key ? "map" : "scalar";
    if (v.empty()) {
      e.value.kind = MapValue::kHist;
      kind = "hist";
      if (value_text.size() > 0) version_hint("<= 0.23");
    } else if (starts_with(v, "count ") && text::contains(v, ", average ") && text::contains(v, ", total ")) {
      if (!parse_stats(v, e.value.stats, "count ", ", average ", ", total ")) {
        error(ln, -1, "stats value \"" + std::string(v) + "\" is not \"count N, average N, total N\"");
        return;
      }
      e.value.kind = MapValue::kStats;
      kind = "stats";
    } else if (starts_with(v, "{ .count = ")) {
      if (!parse_stats(v, e.value.stats, "{ .count = ", ", .average = ", ", .total = ")) {
        error(ln, -1, "stats value \"" + std::string(v) + "\" is not \"{ .count = N, .average = N, .total = N }\"");
        return;
      }
      e.value.kind = MapValue::kStats;
      kind = "stats";
      version_hint(">= 0.24");
    } else if (parse_int(v, e.value.i)) {
      e.value.kind = MapValue::kInt;
    } else {
      e.value.kind = MapValue::kString;
      e.value.s = std::string(v);
    }
    MapBlock& b = block_for(name, has_key, key, kind, ln);
    if (e.value.kind == MapValue::kInt && has_key) d_.add_map_entry_stack(b, key, e.value.i.as_double());
    b.entries.push_back(std::move(e));
    if (b.entries.back().value.kind == MapValue::kHist) {
      hist_block_ = cur_;
      hist_entry_ = b.entries.size() - 1;
      hist_rows_ = 0;
    }
  }

  static bool parse_stats(std::string_view v, Stats& s, const char* a, const char* b, const char* c) {
    size_t pa = v.find(a), pb = v.find(b), pc = v.find(c);
    if (pa != 0 || pb == std::string_view::npos || pc == std::string_view::npos || pb < pa || pc < pb) return false;
    std::string_view cs = trim(v.substr(std::strlen(a), pb - std::strlen(a)));
    std::string_view as = trim(v.substr(pb + std::strlen(b), pc - pb - std::strlen(b)));
    std::string_view ts = v.substr(pc + std::strlen(c));
    if (ends_with(ts, "}")) ts.remove_suffix(1);
    ts = trim(ts);
    return parse_int(cs, s.count) && parse_int(as, s.average) && parse_int(ts, s.total);
  }

  void version_hint(const char* v) {
    if (d_.tool_version.empty()) d_.tool_version = v;
  }

  // ---- histogram rows ----
  bool on_hist_row(std::string_view line, int64_t ln) {
    size_t p1 = line.find('|');
    if (p1 == std::string_view::npos) return false;
    Bucket b;
    std::string bad;
    size_t after = parse_bpftrace_label(line, b, bad);
    if (after == std::string_view::npos) {
      error(ln, -1,
            "invalid bucket label '" + bad + "' (expected a number with an optional K/M/G/T/P/E suffix in \"" +
                std::string(line.substr(0, std::min<size_t>(p1, 40))) + "\")");
      return true;
    }
    size_t q = text::skip_ws(line, after);
    uint64_t count = 0;
    size_t before = q;
    if (!text::parse_u64(line, q, count) || q == before) {
      error(ln, -1, "histogram row without a count after its label");
      return true;
    }
    q = text::skip_ws(line, q);
    if (q >= line.size() || line[q] != '|') {
      error(ln, -1, "histogram row: expected '|' after the count");
      return true;
    }
    size_t p2 = line.find('|', q + 1);
    if (p2 == std::string_view::npos || text::trim_right(line.substr(p2 + 1)).size() > 0) {
      if (final_partial_)
        error(ln, -1,
              "truncated final line: histogram row \"" +
                  std::string(line.substr(0, std::min<size_t>(line.size(), 40))) +
                  "...\" has no closing '|' (the input ends inside it); the row is not counted");
      else error(ln, -1, "histogram row without its closing '|'; the row is not counted");
      return true;
    }
    b.count = count;
    if (hist_block_ < 0) {
      // rows with no "@name:" header: an anonymous histogram, never attached to a previous map
      warning(ln, -1, "histogram buckets without a '@name:' header: kept as an anonymous histogram");
      MapBlock blk;
      blk.name = "";
      blk.kind = "hist";
      blk.line = ln;
      MapEntry e;
      e.value.kind = MapValue::kHist;
      e.value.hist.headerless = true;
      e.line = ln;
      blk.entries.push_back(std::move(e));
      d_.maps.push_back(std::move(blk));
      cur_ = static_cast<int>(d_.maps.size()) - 1;
      cur_keys_.clear();
      block_broken_ = true;
      hist_block_ = cur_;
      hist_entry_ = 0;
    }
    uint64_t bar = 0;
    for (size_t i = q + 1; i < p2; ++i)
      if (line[i] == '@' || line[i] == '*') ++bar;
    bars_.push_back({count, bar, static_cast<uint64_t>(p2 - q - 1), ln});
    add_bucket(b, ln);
    return true;
  }

  // tseries chart (>= 0.24): "@a:" then axis / "hh:mm:ss" / rows "label |  *  | value" / "v___v"
  bool on_tseries_line(std::string_view line) {
    if (hist_block_ < 0) return false;
    MapEntry& e = hist_target();
    std::string_view t = trim(line);
    if (!tseries_) {
      if (hist_rows_ != 0) return false;
      bool axis = !t.empty() && (text::is_digit(t[0]) || t[0] == '-') && line[0] == ' ';
      if (!(axis || starts_with(t, "hh:mm:ss"))) return false;
      tseries_ = true;
      e.value.kind = MapValue::kTseries;
      d_.maps[static_cast<size_t>(hist_block_)].kind = "tseries";
      version_hint(">= 0.24");
      return true;
    }
    if (line.empty() || line[0] == ' ' || starts_with(t, "hh:mm:ss")) return true;  // axis, ruler
    size_t sp = t.find(' ');
    size_t last = t.rfind(' ');
    if (sp == std::string_view::npos || last == std::string_view::npos) return true;
    TseriesPoint pt;
    pt.label = std::string(t.substr(0, sp));
    std::string_view val = t.substr(last + 1);
    if (val == "-") {
      pt.present = false;
    } else {
      size_t p = 0;
      if (!text::parse_decimal(val, p, pt.value) || p != val.size()) return true;
    }
    e.value.points.push_back(std::move(pt));
    return true;
  }

  // ---- DTrace quantize / lquantize and column aggregations ----
  bool on_dtrace_line(std::string_view line, int64_t ln) {
    std::string_view t = trim(line);
    if (starts_with(t, "value") && text::contains(t, "Distribution") && ends_with(t, "count")) {
      saw_dtrace_ = true;
      close_hist();
      // "Elapsed times (us)," titles a section of keyed histograms; each key line precedes its header
      if (!prev_text_.empty() && prev_text_.back() == ',' && prev_text_line_ < last_text_line_)
        dtrace_section_ = prev_text_.substr(0, prev_text_.size() - 1);
      std::string section = dtrace_section_;
      std::string key = last_text_;
      // the key line was counted as printf output before the header told us what it was
      if (d_.printf_count > 0 && last_text_line_ == ln - 1) --d_.printf_count;
      std::string name = section.empty() ? "@" : section;
      MapEntry e;
      e.has_key = !key.empty();
      e.key = key;
      e.line = ln;
      e.value.kind = MapValue::kHist;
      bool reuse = cur_ >= 0 && d_.maps[static_cast<size_t>(cur_)].name == name && dtrace_block_ == cur_;
      if (!reuse) {
        MapBlock b;
        b.name = name;
        b.kind = "hist";
        b.line = ln;
        d_.maps.push_back(std::move(b));
        cur_ = static_cast<int>(d_.maps.size()) - 1;
        dtrace_block_ = cur_;
      }
      d_.maps[static_cast<size_t>(cur_)].entries.push_back(std::move(e));
      hist_block_ = cur_;
      hist_entry_ = d_.maps[static_cast<size_t>(cur_)].entries.size() - 1;
      dtrace_hist_ = true;
      return true;
    }
    if (!dtrace_hist_ || hist_block_ < 0) return false;
    // "   value |@@@@@   count"; lquantize also prints "< 0" and ">= 100"
    size_t bar = t.find('|');
    if (bar == std::string_view::npos) return false;
    std::string_view label = trim(t.substr(0, bar));
    std::string_view rest = trim(t.substr(bar + 1));
    size_t sp = rest.find_last_of(" @");
    std::string_view cnt = sp == std::string_view::npos ? rest : rest.substr(sp + 1);
    uint64_t count = 0;
    if (!parse_u64_tok(cnt, count)) return false;
    Bucket b;
    Int v;
    if (starts_with(label, "< ") && parse_int(trim(label.substr(2)), v)) {
      b.has_lo = false;
      b.hi = int_minus_one(v);
    } else if (starts_with(label, ">= ") && parse_int(trim(label.substr(3)), v)) {
      b.lo = v;
      b.has_hi = false;
    } else if (parse_int(label, v)) {
      b.lo = v;
      b.hi = v;  // fixed below from the next row: buckets are [value, next value)
    } else {
      error(ln, -1, "invalid DTrace bucket value '" + std::string(label) + "'");
      return true;
    }
    b.count = count;
    Histogram& h = hist_target().value.hist;
    if (!h.buckets.empty()) {
      Bucket& prev = h.buckets.back();
      if (prev.has_hi && b.has_lo && prev.lo < b.lo) prev.hi = int_minus_one(b.lo);
    }
    // the last row's upper bound: quantize doubles (value 2^k covers [2^k, 2^(k+1)))
    if (b.has_lo && b.has_hi && !b.lo.neg && b.lo.mag > 0 && b.lo.mag < (1ULL << 62))
      b.hi = Int{b.lo.mag * 2 - 1, false};
    add_bucket(b, ln);
    return true;
  }

  // DTrace count aggregations printed as columns under an upper-case header (rb_calls.d:
  // "FILE TYPE NAME CALLS"): one keyed map named after the last column.
  bool on_dtrace_table(std::string_view t, int64_t ln) {
    std::vector<std::string_view> tok;
    for (size_t p = 0; p < t.size();) {
      while (p < t.size() && (t[p] == ' ' || t[p] == '\t')) ++p;
      size_t b = p;
      while (p < t.size() && t[p] != ' ' && t[p] != '\t') ++p;
      if (p > b) tok.push_back(t.substr(b, p - b));
    }
    if (dtrace_table_cols_ > 0 && tok.size() == dtrace_table_cols_) {
      Int v;
      if (parse_int(tok.back(), v)) {
        std::string key;
        for (size_t i = 0; i + 1 < tok.size(); ++i) {
          if (i) key += ", ";
          key.append(tok[i]);
        }
        MapEntry e;
        e.has_key = true;
        e.key = key;
        e.line = ln;
        e.value.kind = MapValue::kInt;
        e.value.i = v;
        d_.maps[static_cast<size_t>(dtrace_table_block_)].entries.push_back(std::move(e));
        return true;
      }
    }
    dtrace_table_cols_ = 0;
    if (tok.size() < 2) return false;
    for (auto w : tok)
      for (char c : w)
        if (!((c >= 'A' && c <= 'Z') || c == '_' || c == '/' || c == '#' || c == '(' || c == ')')) return false;
    close_hist();
    MapBlock b;
    b.name = "@" + std::string(tok.back());
    b.kind = "map";
    b.line = ln;
    d_.maps.push_back(std::move(b));
    dtrace_table_block_ = static_cast<int>(d_.maps.size()) - 1;
    cur_ = -1;
    dtrace_table_cols_ = tok.size();
    return true;
  }

  // ---- dispatch ----
  void on_line(std::string_view line, uint64_t n, uint64_t /*offset*/) {
    int64_t ln = static_cast<int64_t>(n);
    if (in_multikey_) {
      continue_multikey(line, ln);
      return;
    }
    std::string_view t = trim(line);
    if (t.empty()) {
      close_hist();
      d_.end_ruby_stack();
      dtrace_table_cols_ = 0;
      return;
    }
    if (starts_with(line, "Attaching ") || starts_with(line, "Attached ")) {
      size_t p = line.find(' ') + 1;
      uint64_t count = 0;
      size_t q = p;
      if (text::parse_u64(line, q, count) && q > p && text::contains(line, " probe")) {
        d_.attached_probes = static_cast<int64_t>(count);
        d_.tool_version = line[6] == 'i' ? "<= 0.23" : ">= 0.24";
        block_broken_ = true;
        return;
      }
    }
    if (t == "^C") {
      block_broken_ = true;
      return;
    }
    if (listing_possible() && listing_.take_bpftrace_line(t, n)) return;
    if (line[0] == '@' && on_map_line(line, ln)) return;
    if ((line[0] == '[' || line[0] == '(') && line.find('|') != std::string_view::npos && on_hist_row(line, ln)) return;
    if (tseries_ || (hist_block_ >= 0 && hist_rows_ == 0 && !dtrace_hist_)) {
      if (on_tseries_line(line)) return;
    }
    if (on_dtrace_line(line, ln)) return;
    if (is_stderr_noise(line)) {
      ++d_.stderr_lines;
      return;
    }
    if (saw_dtrace_ && on_dtrace_table(t, ln)) return;
    if (starts_with(t, "# ") && ends_with(t, ".d")) saw_dtrace_ = true;
    if (foreign_line_ == 0) {
      if (text::contains(t, ": count") && text::contains(t, "distribution"))
        foreign_what_ = "a BCC log2 histogram header (\"" + std::string(t.substr(0, 40)) + "\")";
      else if (starts_with(t, "METHOD") && text::contains(t, "# CALLS")) foreign_what_ = "a BCC ucalls table header";
      else if (text::contains(t, " -> ") && text::contains(t, " : ") && text::ends_with(t, "|"))
        foreign_what_ = "a BCC log2 histogram row";
      if (!foreign_what_.empty()) foreign_line_ = ln;
    }
    // printf output
    close_hist();
    dtrace_hist_ = false;
    block_broken_ = true;
    ++d_.printf_count;
    ++d_.events;
    if (d_.printf_count == 1) d_.printf_first = std::string(line);
    d_.printf_last.assign(line.data(), line.size());
    if (looks_ruby_frame(t)) {
      d_.add_ruby_frame_line(t);
    } else {
      d_.end_ruby_stack();
      d_.add_event_line(line);
    }
    prev_text_ = last_text_;
    prev_text_line_ = last_text_line_;
    last_text_ = std::string(t);
    last_text_line_ = ln;
  }

  struct BarRow {
    uint64_t count, bar, width;
    int64_t line;
  };

  ProbeListing listing_;
  int cur_ = -1;
  bool block_broken_ = true;
  std::unordered_set<std::string> cur_keys_;
  int hist_block_ = -1;
  size_t hist_entry_ = 0;
  size_t hist_rows_ = 0;
  bool tseries_ = false;
  std::vector<BarRow> bars_;
  bool in_multikey_ = false;
  std::string multikey_name_, multikey_;
  int64_t multikey_line_ = 0;
  size_t multikey_lines_ = 0;
  bool final_partial_ = false;
  bool saw_dtrace_ = false;
  bool dtrace_hist_ = false;
  int dtrace_block_ = -1;
  int dtrace_table_block_ = -1;
  int64_t foreign_line_ = 0;
  std::string foreign_what_;
  size_t dtrace_table_cols_ = 0;
  std::string last_text_, prev_text_, dtrace_section_;
  int64_t last_text_line_ = -1, prev_text_line_ = -1;
};

}  // namespace

std::unique_ptr<Analyzer> make_bpftrace_text(const AnalyzeOptions& options) {
  return std::make_unique<BpftraceTextAnalyzer>(options);
}

}  // namespace gcscope::tracing
