// The Analyzer for `jvm-gc-log`: one per input set (rotating logs are several members). For each
// member it buffers the first 64 KiB, decides unified vs legacy from those lines, creates the
// matching LogParser and then streams whole lines to it; both parsers emit into one GcAggregator.
//
// Member order: members are parsed in the order given and every event carries its member index;
// the aggregator orders its series by (member rank, time). Content-based ordering of a rotating set
// (and restart detection) plugs in by computing a rank per member and calling
// GcAggregator::set_member_rank() before the report is written (see finish()).
#include <memory>
#include <string>

#include "core/analyzer.h"
#include "core/line_splitter.h"
#include "core/text_scan.h"
#include "jvm/aggregator.h"
#include "jvm/log_parser.h"

namespace gcscope::jvm {

namespace {

// A unified line starts with decorations "[0.003s]", "[2020-…]", "[info]", "[gc…]", or has none
// and starts with "GC(n) " / "Using "; a legacy one with "[GC", "[Full GC", "1.234: [GC",
// "2020-…: 1.234: [GC", or the JDK 8 banner lines.
LogDialect classify_line(std::string_view l) {
  using text::starts_with;
  if (l.empty()) return LogDialect::kUnknown;
  if (l[0] == '[') {
    if (starts_with(l, "[GC") || starts_with(l, "[Full GC") || starts_with(l, "[ParNew") ||
        starts_with(l, "[CMS") || starts_with(l, "[PSYoungGen") || starts_with(l, "[DefNew") ||
        starts_with(l, "[Times:") || starts_with(l, "[Eden:") || starts_with(l, "[YG occupancy") ||
        starts_with(l, "[Parallel Time") || starts_with(l, "[1 CMS") || starts_with(l, "[Heap"))
      return LogDialect::kLegacy;
    size_t close = l.find(']');
    if (close == std::string_view::npos) return LogDialect::kUnknown;
    std::string_view tok = l.substr(1, close - 1);
    if (tok.empty()) return LogDialect::kUnknown;
    // "[0.003s]", "[12ms]", "[info]", "[gc,start ]", "[2020-01-01T…]", "[1234]" followed by "[" or " "
    bool next_ok = close + 1 >= l.size() || l[close + 1] == '[' || l[close + 1] == ' ';
    if (!next_ok) return LogDialect::kUnknown;
    char c = tok[0];
    if (text::is_digit(c) || (c >= 'a' && c <= 'z')) return LogDialect::kUnified;
    return LogDialect::kUnknown;
  }
  if (starts_with(l, "GC(") || starts_with(l, "Using ")) return LogDialect::kUnified;
  if (text::is_digit(l[0])) {
    // "1.234: [GC" / "2020-01-01T00:00:00.000+0000: 1.234: [GC"
    if (l.find(": [") != std::string_view::npos) return LogDialect::kLegacy;
    return LogDialect::kUnknown;
  }
  if (starts_with(l, "Java HotSpot(TM)") || starts_with(l, "OpenJDK ") || starts_with(l, "Memory: ") ||
      starts_with(l, "CommandLine flags: ") || starts_with(l, "{Heap before") || starts_with(l, "Total time for which") ||
      starts_with(l, "Application time:") || starts_with(l, " par new generation") || starts_with(l, "Heap"))
    return LogDialect::kLegacy;
  return LogDialect::kUnknown;
}

}  // namespace

LogDialect detect_dialect(std::string_view head) {
  size_t unified = 0, legacy = 0, p = 0, lines = 0;
  while (p < head.size() && lines < 400) {
    size_t nl = head.find('\n', p);
    std::string_view l = head.substr(p, nl == std::string_view::npos ? head.size() - p : nl - p);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    switch (classify_line(l)) {
      case LogDialect::kUnified: ++unified; break;
      case LogDialect::kLegacy: ++legacy; break;
      default: break;
    }
    ++lines;
    if (nl == std::string_view::npos) break;
    p = nl + 1;
  }
  if (unified == 0 && legacy == 0) return LogDialect::kUnknown;
  return unified >= legacy ? LogDialect::kUnified : LogDialect::kLegacy;
}

namespace {

constexpr size_t kDetectBytes = 64 * 1024;

class JvmAnalyzer final : public Analyzer {
 public:
  explicit JvmAnalyzer(const AnalyzeOptions& options) {
    // --set jvm_series=false: the report without per-event columns (summary, tables, findings).
    if (options.is_object() && options.contains("jvm_series") && options["jvm_series"] == false)
      aggregator_.set_with_series(false);
  }

  void begin_member(const std::string& path) override {
    Analyzer::begin_member(path);
    path_ = path;
    head_.clear();
    parser_.reset();
    splitter_ = LineSplitter();
    decided_ = false;
    dialect_ = LogDialect::kUnknown;
  }

  void feed(const char* data, size_t len) override {
    if (!decided_) {
      size_t take = std::min(len, kDetectBytes - head_.size());
      head_.append(data, take);
      if (head_.size() < kDetectBytes) return;
      decide();
      pump(head_.data(), head_.size());
      head_.clear();
      head_.shrink_to_fit();
      data += take;
      len -= take;
    }
    pump(data, len);
  }

  void end_member() override {
    if (!decided_) {
      decide();
      pump(head_.data(), head_.size());
      head_.clear();
    }
    if (parser_) {
      splitter_.finish([this](std::string_view line, uint64_t no, uint64_t) { parser_->feed_line(line, no); });
      parser_->finish();
      aggregator_.merge_diary(parser_->diary());
    }
    parser_.reset();
    ++member_;
  }

  void finish(nlohmann::json& report) override {
    // Hook for rotating sets: a content-based member order (first timestamp of each member,
    // restart detection) would call aggregator_.set_member_rank(...) here. Members are taken in
    // the order given until then.
    aggregator_.write_report(report);
    if (legacy_unparsed_) {
      report["legacy_not_parsed"] = true;
      report["notes"] = {"pre-unified (JDK <= 8) GC log members were identified, but legacy parsing is not available yet"};
    }
  }

 private:
  void decide() {
    decided_ = true;
    dialect_ = detect_dialect(head_);
    if (dialect_ == LogDialect::kLegacy) {
      parser_ = make_legacy_parser(aggregator_, member_);
      if (!parser_) {
        legacy_unparsed_ = true;
        aggregator_.note_member(path_, "legacy", false);
        // Said in the report (members[].parsed=false, legacy_not_parsed), not as an input error:
        // the input is fine, this build just cannot read it yet.
        return;
      }
      aggregator_.note_member(path_, "legacy", true);
      return;
    }
    if (dialect_ == LogDialect::kUnknown) {
      // Nothing recognizable in the head (e.g. a rotated member that starts mid-record): try the
      // unified parser, which lists what it does not understand.
      aggregator_.note_member(path_, "unknown", true);
    } else {
      aggregator_.note_member(path_, "unified", true);
    }
    parser_ = make_unified_parser(aggregator_, member_);
    parser_->hint_head(head_);
  }

  void pump(const char* data, size_t len) {
    if (!parser_ || len == 0) return;
    LogParser* p = parser_.get();
    splitter_.feed(data, len, [p](std::string_view line, uint64_t no, uint64_t) { p->feed_line(line, no); });
  }

  GcAggregator aggregator_;
  std::unique_ptr<LogParser> parser_;
  LineSplitter splitter_;
  std::string head_;
  std::string path_;
  bool decided_ = false;
  bool legacy_unparsed_ = false;
  LogDialect dialect_ = LogDialect::kUnknown;
  uint32_t member_ = 0;
};

}  // namespace

std::unique_ptr<Analyzer> make_jvm_analyzer(const AnalyzeOptions& options) {
  return std::make_unique<JvmAnalyzer>(options);
}

}  // namespace gcscope::jvm
