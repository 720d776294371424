// `perf script` output of `perf record -g`: a sample header "comm pid[/tid] [cpu] time: [period] event:"
// followed by frames "addr sym+off (dso)" leaf first, a blank line between samples.
// Folded the way FlameGraph's stackcollapse-perf.pl does by default (its test/results are in the
// corpus): comm as the root frame, offsets stripped, "[unknown]" replaced by "[dso]" when the dso is
// known, arguments after the first '(' dropped, ';' turned into ':', quotes removed, Java's leading
// 'L' dropped for comm "java"; weight = the period when the header has one, else 1.
#include "analyzers.h"
#include "line_analyzer.h"
#include "core/line_splitter.h"
#include "core/text_scan.h"
#include "trace_model.h"
#include "tracing/tables.h"

namespace gcscope::tracing {
namespace {

using text::trim;

bool is_hex(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool is_uint(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!text::is_digit(c)) return false;
  return true;
}

class PerfScriptAnalyzer final : public LineAnalyzer<PerfScriptAnalyzer> {
 public:
  using LineAnalyzer::LineAnalyzer;
  friend LineAnalyzer;  // it calls on_line and member_ended

  void finish(nlohmann::json& report) override {
    d_.tool = "perf";
    d_.stack_weight_unit = any_period_ ? "period" : "samples";
    d_.extra["samples"] = samples_;
    d_.extra["events_seen"] = event_names_;
    if (samples_ == 0)
      error(-1, -1, "no perf samples with stacks found (expected \"comm pid time: event:\" headers and frame lines)");
    d_.events = samples_;
    d_.finish(report, options_);
  }

 private:
  void end_sample() {
    if (in_sample_ && !frames_.empty()) {
      std::vector<std::string_view> fs;
      fs.reserve(frames_.size() + 1);
      fs.push_back(comm_);
      for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) fs.push_back(*it);
      d_.stacks.add(fs, static_cast<double>(period_));
      ++samples_;
    }
    frames_.clear();
    in_sample_ = false;
  }

  bool parse_frame(std::string_view line) {
    std::string_view t = trim(line);
    size_t sp = t.find(' ');
    if (sp == std::string_view::npos || !is_hex(t.substr(0, sp)) || t.back() != ')') return false;
    size_t open = t.rfind(" (");
    if (open == std::string_view::npos || open <= sp) return false;
    std::string_view mod = t.substr(open + 2, t.size() - open - 3);
    std::string func(trim(t.substr(sp + 1, open - sp - 1)));
    // "cpu_startup_entry+0x800047c022ec": the offset is noise
    size_t plus = func.rfind("+0x");
    if (plus != std::string::npos && plus > 0 && is_hex(std::string_view(func).substr(plus + 3))) func.resize(plus);
    if (!func.empty() && func[0] == '(') return true;  // a process name, skipped
    if (func == "[unknown]" && mod != "[unknown]") {
      size_t slash = mod.rfind('/');
      func = "[" + std::string(slash == std::string_view::npos ? mod : mod.substr(slash + 1)) + "]";
    }
    for (auto& c : func)
      if (c == ';') c = ':';
    // everything after the first '(' is arguments, except in Go method names "pkg.(*T).M"
    bool go_method = false;
    size_t dp = func.find(".(");
    if (dp != std::string::npos && func.find(").", dp) != std::string::npos) go_method = true;
    if (!go_method) {
      size_t paren = func.find('(');
      while (paren != std::string::npos && func.compare(paren, 21, "(anonymous namespace)") == 0)
        paren = func.find('(', paren + 21);
      if (paren != std::string::npos && paren > 0) func.resize(paren);
    }
    std::string clean;
    clean.reserve(func.size());
    for (char c : func)
      if (c != '"' && c != '\'') clean.push_back(c);
    if (comm_ == "java" && clean.size() > 1 && clean[0] == 'L' && clean.find('/') != std::string::npos)
      clean.erase(0, 1);
    frames_.push_back(std::move(clean));
    return true;
  }

  void parse_header(std::string_view line, int64_t ln) {
    end_sample();
    // tokens: comm (may contain one space) pid[/tid] [cpu] [time:] [period] event:
    std::vector<std::string_view> tok;
    size_t p = 0;
    while (p < line.size()) {
      while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
      size_t s = p;
      while (p < line.size() && line[p] != ' ' && line[p] != '\t') ++p;
      if (p > s) tok.push_back(line.substr(s, p - s));
    }
    size_t pid_at = 0;
    for (size_t i = 1; i < tok.size() && i <= 3; ++i) {
      std::string_view t = tok[i];
      size_t slash = t.find('/');
      if (is_uint(slash == std::string_view::npos ? t : t.substr(0, slash))) {
        pid_at = i;
        break;
      }
    }
    if (pid_at == 0) {
      if (++bad_headers_ <= 20)
        error(
            ln, -1,
            "unrecognized perf script line (neither a sample header \"comm pid ...: event:\" nor a frame \"addr sym (dso)\")");
      return;
    }
    comm_.clear();
    for (size_t i = 0; i < pid_at; ++i) {
      if (i) comm_.push_back('_');
      comm_.append(tok[i]);
    }
    period_ = 1;
    for (size_t i = pid_at + 1; i + 1 < tok.size(); ++i) {
      if (tok[i].back() == ':' && tok[i].find('.') != std::string_view::npos) {  // the timestamp "666709.771979:"
        if (is_uint(tok[i + 1])) {
          uint64_t v = 0;
          size_t q = 0;
          text::parse_u64(tok[i + 1], q, v);
          period_ = v;
          any_period_ = true;
        }
        break;
      }
    }
    std::string_view ev = tok.back();
    if (ev.back() == ':') ev.remove_suffix(1);
    if (!event_names_.contains(std::string(ev)) && event_names_.size() < 50) event_names_[std::string(ev)] = 0;
    if (event_names_.contains(std::string(ev)))
      event_names_[std::string(ev)] = event_names_[std::string(ev)].get<uint64_t>() + 1;
    in_sample_ = true;
  }

  void member_ended() { end_sample(); }

  void on_line(std::string_view line, uint64_t n, uint64_t /*offset*/) {
    int64_t ln = static_cast<int64_t>(n);
    if (trim(line).empty()) {
      end_sample();
      return;
    }
    if (line[0] == '#') return;
    if (in_sample_ && parse_frame(line)) {
      if (frames_.size() > 100000) frames_.pop_back();
      return;
    }
    size_t before = frames_.size();
    if (!in_sample_ && (line[0] == ' ' || line[0] == '\t') && parse_frame(line)) {
      if (frames_.size() > before) frames_.pop_back();  // a frame without a header: nothing to attribute it to
      if (++orphans_ <= 5) error(ln, -1, "stack frame outside of a sample (no header line before it)");
      return;
    }
    parse_header(line, ln);
  }

  std::string comm_;
  std::vector<std::string> frames_;
  uint64_t period_ = 1;
  bool any_period_ = false;
  bool in_sample_ = false;
  uint64_t samples_ = 0, bad_headers_ = 0, orphans_ = 0;
  nlohmann::json event_names_ = nlohmann::json::object();
};

}  // namespace

std::unique_ptr<Analyzer> make_perf_script(const AnalyzeOptions& options) {
  return std::make_unique<PerfScriptAnalyzer>(options);
}

}  // namespace gcscope::tracing
