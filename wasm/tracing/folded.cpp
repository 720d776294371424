// Folded stacks ("root;...;leaf N", the flame graph input of FlameGraph/inferno; BCC profile -f,
// stackcollapse-*), and DTrace stack aggregations (indented "module`func+0x1a" frames, leaf first,
// then an indented count) which identification also sends here.
//
// The hot path: one memrchr for the weight, one hash lookup of the whole stack text; frames are
// split and interned only the first time a stack is seen (real profiles repeat stacks a lot).
#include <cstring>
#include <numeric>

#include "analyzers.h"
#include "line_analyzer.h"
#include "core/line_splitter.h"
#include "core/text_scan.h"
#include "trace_model.h"
#include "tracing/tables.h"

namespace gcscope::tracing {
namespace {

std::string_view strip_hex_offset(std::string_view f) {
  size_t plus = f.rfind("+0x");
  if (plus == std::string_view::npos || plus == 0) return f;
  for (size_t i = plus + 3; i < f.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(f[i]))) return f;
  return f.substr(0, plus);
}

class FoldedAnalyzer final : public LineAnalyzer<FoldedAnalyzer> {
 public:
  using LineAnalyzer::LineAnalyzer;
  friend LineAnalyzer;  // it calls on_line and member_ended

  void finish(nlohmann::json& report) override {
    if (dtrace_blocks_) d_.tool = "dtrace";
    else d_.tool = "folded";
    // Weights that are all multiples of a large number are sample periods (perf: 10101010 ns per
    // 99 Hz cpu-clock sample), not counts.
    if (gcd_ >= 1000) {
      d_.stack_weight_unit = "period";
      d_.extra["period_gcd"] = gcd_;
      double est = d_.stacks.total_weight() / static_cast<double>(gcd_);
      d_.extra["samples_estimate"] =
          est < 9007199254740992.0 ? nlohmann::json(static_cast<uint64_t>(est)) : nlohmann::json(est);
    }
    d_.extra["folded_lines"] = lines_ok_;
    d_.extra["bad_lines"] = bad_lines_;
    if (d_.stacks.unique() == 0) error(-1, -1, "no folded stacks found (expected lines \"frame;frame;frame COUNT\")");
    d_.events = d_.stacks.samples();
    d_.finish(report, options_);
  }

 private:
  void member_ended() { block_frames_.clear(); }

  void on_line(std::string_view line, uint64_t n, uint64_t /*offset*/) {
    int64_t ln = static_cast<int64_t>(n);
    if (line.empty()) {
      block_frames_.clear();
      return;
    }
    if (line[0] == ' ' || line[0] == '\t') {
      on_block_line(line, ln);
      return;
    }
    if (line[0] == '#') return;
    size_t end = line.size();
    while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
    if (end == 0) return;
    const char* base = line.data();
    const void* sp = nullptr;
    for (size_t i = end; i-- > 0;)
      if (base[i] == ' ' || base[i] == '\t') {
        sp = base + i;
        break;
      }
    if (!sp) {
      bad(ln, "no trailing count: expected \"frame;frame;... COUNT\"");
      return;
    }
    size_t s = static_cast<size_t>(static_cast<const char*>(sp) - base);
    std::string_view count = line.substr(s + 1, end - s - 1);
    uint64_t w = 0;
    size_t i = 0;
    while (i < count.size() && text::is_digit(count[i])) w = w * 10 + static_cast<uint64_t>(count[i++] - '0');
    if (i != count.size() || count.empty() || count.size() > 19) {
      if (!count.empty() && count[0] == '-') bad(ln, "negative count '" + std::string(count) + "'");
      else if (i > 0 && i < count.size() && (count[i] == '.' || count[i] == 'e'))
        bad(ln, "non-integer count '" + std::string(count) + "'");
      else bad(ln, "no trailing count: the last field '" + std::string(count.substr(0, 40)) + "' is not an integer");
      return;
    }
    size_t fe = s;
    while (fe > 0 && (base[fe - 1] == ' ' || base[fe - 1] == '\t')) --fe;
    if (fe == 0) {
      bad(ln, "count without frames");
      return;
    }
    d_.stacks.add_folded(line.substr(0, fe), static_cast<double>(w));
    gcd_ = gcd_ == 0 ? w : std::gcd(gcd_, w);
    ++lines_ok_;
  }

  // DTrace: "              genunix`open+0x25" frames (leaf first), then "                1"
  void on_block_line(std::string_view line, int64_t ln) {
    std::string_view t = text::trim(line);
    if (t.empty()) {
      block_frames_.clear();
      return;
    }
    size_t p = 0;
    uint64_t w = 0;
    if (text::parse_u64(t, p, w) && p == t.size()) {
      if (block_frames_.empty()) return;
      std::vector<std::string_view> frames;
      for (auto it = block_frames_.rbegin(); it != block_frames_.rend(); ++it) frames.push_back(strip_hex_offset(*it));
      d_.stacks.add(frames, static_cast<double>(w));
      gcd_ = gcd_ == 0 ? w : std::gcd(gcd_, w);
      ++dtrace_blocks_;
      block_frames_.clear();
      return;
    }
    if (block_frames_.size() >= 10000) {
      error(ln, -1, "stack of more than 10000 frames; frames past that are dropped");
      return;
    }
    block_frames_.emplace_back(t);
  }

  void bad(int64_t ln, const std::string& msg) {
    ++bad_lines_;
    if (bad_lines_ <= 100) error(ln, -1, msg);
  }

  std::vector<std::string> block_frames_;
  uint64_t dtrace_blocks_ = 0;
  uint64_t gcd_ = 0;
  uint64_t lines_ok_ = 0, bad_lines_ = 0;
};

}  // namespace

std::unique_ptr<Analyzer> make_folded_stacks(const AnalyzeOptions& options) {
  return std::make_unique<FoldedAnalyzer>(options);
}

}  // namespace gcscope::tracing
