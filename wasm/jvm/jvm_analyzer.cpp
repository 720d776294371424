// The Analyzer for `jvm-gc-log`: one per input set (rotating logs are several members). For each
// member it buffers the first 64 KiB, creates the LogParser of the dialect identification found
// (details "unified") and then streams whole lines to it; both parsers emit into one GcAggregator.
//
// Rotating sets: members arrive in any order (zip order, directory order, streaming) and which of
// them belong to the latest JVM run is only known once every member's head has been seen. Design:
// each member's parser emits into that member's own GcAggregator (+ LegacyFindingsAccumulator for
// legacy members); finish() plans the rotation from the members' heads (scan_segment_head on the
// 64 KiB head the analyzer buffers, plan_rotation) and merges the selected
// members' aggregators in plan order into the first selected one. The aggregators hold compact
// columns, so memory is what a single aggregator over all members would hold; the common
// single-member case is exactly one aggregator and no merge/copy at all, and a dropped run costs
// its columns only until finish(). Every event keeps its arrival member index; the merge order
// (plan.order) is the order of the columns. The merged aggregator stays as the session that
// query() asks after the report.
#include <cmath>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "core/analyzer.h"
#include "core/line_splitter.h"
#include "core/query.h"
#include "core/timeline.h"
#include "core/text_scan.h"
#include "jvm/aggregator.h"
#include "jvm/legacy/legacy_findings.h"
#include "jvm/log_parser.h"
#include "jvm/rotation.h"
#include "jvm/timeline.h"
#include "jvm/tables.h"

namespace gcscope::jvm {

namespace {

constexpr size_t kDetectBytes = 64 * 1024;

// Where one member's parser emits: its own aggregator, and the legacy findings for legacy members.
class MemberSink final : public GcEventSink {
 public:
  GcAggregator aggregator;
  LegacyFindingsAccumulator legacy_findings;
  bool legacy = false;

  void on_event(const GcEvent& e) override {
    aggregator.on_event(e);
    if (legacy) legacy_findings.add(e);
  }
  void on_safepoint(const SafepointEvent& e) override { aggregator.on_safepoint(e); }
  void on_unparsed(uint32_t member, uint64_t line, std::string_view text) override {
    aggregator.on_unparsed(member, line, text);
  }
  void on_application_time(uint32_t member, double uptime_s, double seconds) override {
    aggregator.on_application_time(member, uptime_s, seconds);
  }
  void on_stall(uint32_t member, uint64_t line, double uptime_s, double seconds, bool relocation) override {
    aggregator.on_stall(member, line, uptime_s, seconds, relocation);
  }
};

// Unified findings that a legacy finding covers with JDK <= 8 specific advice: when both are raised,
// the report keeps the legacy one only (one finding per issue).
struct Supersedes {
  const char* legacy;
  const char* unified;
};
constexpr Supersedes kSupersedes[] = {
    {"explicit_gc", "explicit_system_gc"},
    {"g1_humongous_allocations", "humongous_allocations"},
    {"g1_evacuation_failure", "g1_evacuation_failure"},
    {"gc_locker", "gclocker"},
    {"cms_serial_full_gc", "full_gc_concurrent_collector"},
    {"g1_serial_full_gc", "full_gc_concurrent_collector"},
    {"cms_concurrent_mode_failure", "full_gc_concurrent_collector"},
    {"print_gc_details_missing", "missing_gc_details"},
    {"application_stopped_time_missing", "missing_safepoint_logging"},
};

class JvmAnalyzer final : public Analyzer {
 public:
  explicit JvmAnalyzer(const AnalyzeOptions& options) {
    if (options.is_object()) {
      // --set jvm_series=false: the report without per-event columns (summary, tables, findings).
      if (options.contains("jvm_series") && options["jvm_series"] == false) with_series_ = false;
      // --set all_runs=true: keep every JVM run of a rotating set, not only the latest.
      if (options.contains("all_runs")) {
        const auto& v = options["all_runs"];
        all_runs_ = v == true || v == "true" || v == 1;
      }
    }
  }

  void begin_member(const std::string& path) override {
    Analyzer::begin_member(path);
    path_ = path;
    head_.clear();
    parser_.reset();
    splitter_ = LineSplitter();
    decided_ = false;
    dialect_ = LogDialect::kUnknown;
    sinks_.push_back(std::make_unique<MemberSink>());
    heads_.emplace_back();
    heads_.back().name = path;
    dialects_.push_back("unknown");
    member_open_ = true;
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
      LogParser* p = parser_.get();
      uint64_t& lines = heads_.back().lines;
      splitter_.finish([p, &lines](std::string_view line, uint64_t no, uint64_t) {
        lines = no;
        p->feed_line(line, no);
      });
      parser_->finish();
      sinks_.back()->aggregator.merge_diary(parser_->diary());
      diaries_.resize(sinks_.size());
      diaries_.back() = parser_->diary();
      sinks_.back()->aggregator.set_live_diary(nullptr);
    }
    sinks_.back()->aggregator.flush();
    parser_.reset();
    member_open_ = false;
    ++member_;
  }

  void finish(nlohmann::json& report) override {
    write_members_report(sinks_, diaries_, heads_, report);
    sinks_.clear();
    sinks_.shrink_to_fit();
  }

  // A log still being written: the report of every complete line fed so far, written from copies
  // of the members' aggregators and of the open member's parser (its open records end in the copy),
  // so the originals read on. The open member's dialect and collector are decided from the bytes
  // present at its first report when it is shorter than the 64 KiB the decision otherwise reads.
  bool follows() const override { return true; }
  void snapshot(nlohmann::json& report) override {
    if (member_open_ && !decided_ && head_.find('\n') != std::string::npos) {
      decide();
      pump(head_.data(), head_.size());
      head_.clear();
      head_.shrink_to_fit();
    }
    // An open member without a whole line yet has nothing to say (not even its dialect).
    const size_t members = member_open_ && !decided_ ? sinks_.size() - 1 : sinks_.size();
    std::vector<std::unique_ptr<MemberSink>> copies;
    std::vector<Diary> diaries = diaries_;
    diaries.resize(members);
    for (size_t i = 0; i < members; ++i) {
      auto copy = std::make_unique<MemberSink>();
      copy->aggregator.copy_from(sinks_[i]->aggregator);
      copy->legacy_findings = sinks_[i]->legacy_findings;
      copy->legacy = sinks_[i]->legacy;
      if (member_open_ && i + 1 == sinks_.size()) {
        if (parser_) {
          std::unique_ptr<LogParser> parser = parser_->clone(*copy);
          copy->aggregator.set_live_diary(&parser->diary());
          parser->finish();
          copy->aggregator.merge_diary(parser->diary());
          diaries[i] = parser->diary();
          copy->aggregator.set_live_diary(nullptr);
        }
        copy->aggregator.flush();
      }
      copies.push_back(std::move(copy));
    }
    write_members_report(copies, diaries, std::vector<SegmentHead>(heads_.begin(), heads_.begin() + members), report);
  }

 private:
  // The report of members `sinks` (one per member, in arrival order; their columns are moved into
  // the merged one, which becomes the session the questions read) with their parsers' diaries.
  void write_members_report(std::vector<std::unique_ptr<MemberSink>>& sinks, std::vector<Diary>& diaries,
                            const std::vector<SegmentHead>& heads, nlohmann::json& report) {
    have_legacy_diary_ = false;
    if (sinks.empty()) {
      session_ = std::make_unique<MemberSink>();
      session_->aggregator.set_with_series(with_series_);
      session_->aggregator.write_report(report);
      keep_compare_side(report);
      keep_findings(report, "");
      return;
    }
    diaries.resize(sinks.size());
    const RotationPlan plan = plan_rotation(heads, all_runs_);
    std::vector<uint32_t> rank(sinks.size());
    for (size_t k = 0; k < plan.order.size(); ++k) rank[plan.order[k]] = static_cast<uint32_t>(k);
    std::vector<bool> selected(sinks.size(), false);
    for (size_t i : plan.selected) selected[i] = true;

    // Merge the selected members, oldest first, into the first of them (no copy for one member).
    std::vector<size_t> merge_order;
    for (size_t i : plan.order)
      if (selected[i]) merge_order.push_back(i);
    MemberSink& into = *sinks[merge_order.front()];
    Diary legacy_diary;
    bool any_legacy = false;
    for (size_t k = 0; k < merge_order.size(); ++k) {
      MemberSink& m = *sinks[merge_order[k]];
      if (k > 0) {
        into.aggregator.merge_from(m.aggregator);
        into.legacy_findings.merge(m.legacy_findings);
        sinks[merge_order[k]].reset();  // its columns are in `into` now
      }
      if (dialects_[merge_order[k]] == std::string("legacy")) {
        any_legacy = true;
        merge_legacy_diary(legacy_diary, diaries[merge_order[k]]);
      }
    }
    for (size_t i = 0; i < sinks.size(); ++i)
      if (!selected[i]) sinks[i].reset();  // dropped runs
    into.aggregator.set_with_series(with_series_);
    into.aggregator.write_report(report);

    if (any_legacy) add_legacy_findings(report, into.legacy_findings.finish(legacy_diary));
    if (report.contains("findings")) rank_findings(report["findings"]);

    // Members in the order given, with their place in the set.
    nlohmann::json members = nlohmann::json::array();
    for (size_t i = 0; i < heads.size(); ++i)
      members.push_back({{"path", heads[i].name},
                         {"dialect", dialects_[i]},
                         {"lines", heads[i].lines},
                         {"rank", rank[i]},
                         {"selected", static_cast<bool>(selected[i])}});
    report["members"] = std::move(members);
    nlohmann::json order = nlohmann::json::array(), sel = nlohmann::json::array();
    for (size_t i : plan.order) order.push_back(heads[i].name);
    for (size_t i : merge_order) sel.push_back(heads[i].name);
    report["rotation"] = {{"order", std::move(order)},
                          {"selected", std::move(sel)},
                          {"restarts", plan.runs.empty() ? 0 : plan.runs.size() - 1},
                          {"ordered_by_wall_clock", plan.ordered_by_wall_clock},
                          {"note", plan.note}};
    // The merged member is the session; the others' columns are in it.
    session_ = std::move(sinks[merge_order.front()]);
    session_->legacy_findings = LegacyFindingsAccumulator();
    keep_compare_side(report);
    keep_findings(report, heads[merge_order.front()].name);
  }

 public:
  // The questions of the JVM view and `gcscope query` (register.cpp lists them).
  void prepare() override {
    if (session_) session_->aggregator.prepare();
  }

  // jvm.series's `pools`: the pools whose figures the heap chart gets (absent: every pool printed).
  static std::optional<std::vector<std::string>> series_pools(const nlohmann::json& args) {
    if (!args.contains("pools") || args["pools"].is_null()) return std::nullopt;
    const nlohmann::json& list = args["pools"];
    std::vector<std::string> pools;
    if (list.is_array())
      for (const auto& v : list)
        if (v.is_string()) pools.push_back(v.get<std::string>());
    if (!list.is_array() || pools.size() != list.size())
      throw QueryError("argument 'pools' must be a list of pool names (eden, survivor, old, ...)");
    for (const std::string& name : pools) {
      int k = 0;
      while (k < kPoolCount && name != pool_name(k)) ++k;
      if (k == kPoolCount) throw QueryError("argument 'pools': no pool named '" + name + "'");
    }
    return pools;
  }

  nlohmann::json query(const std::string& method, const nlohmann::json& args) override {
    if (method == "compare.side") return compare_side_;
    if (!session_) throw QueryError("the analysis has not finished yet");
    const GcAggregator& a = session_->aggregator;
    const double t0 = query_args::number(args, "t0", NAN), t1 = query_args::number(args, "t1", NAN);
    if (!std::isnan(t0) && !std::isnan(t1) && t1 < t0) throw QueryError("argument 't1' must not be before 't0'");
    if (method == "jvm.summary") return a.summary(t0, t1);
    if (method == "jvm.storage") return a.storage();
    if (method == timeline::kMethod) return pause_timeline(a, args);
    if (method == "jvm.series")
      return a.series(t0, t1, static_cast<int>(query_args::integer(args, "width", 1000, 1, 20000)), series_pools(args));
    if (method == "jvm.events") {
      EventPageQuery q;
      q.offset = static_cast<size_t>(query_args::integer(args, "offset", 0));
      q.limit = static_cast<size_t>(query_args::integer(args, "limit", 100, 1, 1000));
      q.sort = query_args::string(args, "sort", "t");
      q.desc = query_args::boolean(args, "desc", false);
      q.filter = query_args::string(args, "filter", "");
      q.t0 = t0, q.t1 = t1;
      return a.events_page(q);
    }
    return Analyzer::query(method, args);
  }

  // The tables of jvm/tables.h: the session's columns, and the report's findings.
  std::vector<tables::Schema> tables() const override { return gc_log_tables(); }
  bool write_table(const std::string& name, tables::RowSink& sink) override {
    std::vector<std::string> members;
    for (const auto& h : heads_) members.push_back(h.name);
    if (name == "findings") {
      write_findings_table(findings_, members, findings_input_, sink);
      return true;
    }
    if (!session_) return false;
    return session_->aggregator.write_table(name, members, sink);
  }

 private:
  // What `gcscope compare` reads of a JVM report (jvm/compare.h): its KPI groups, as the report has
  // them, without the minimum pause that compare has never listed.
  void keep_compare_side(const nlohmann::json& report) {
    compare_side_ = nlohmann::json::object();
    for (const char* key : {"format", "inputs", "pauses", "heap", "rates", "throughput_percent", "percent_paused"})
      if (report.contains(key)) compare_side_[key] = report[key];
    if (compare_side_.contains("pauses")) compare_side_["pauses"].erase("min_s");
    if (report.contains("events")) compare_side_["events"] = {{"total", report["events"]["total"]}};
  }

  // The report's findings, for the findings table; `whole_input` is the input of those about the log
  // as a whole (its first selected member).
  void keep_findings(const nlohmann::json& report, const std::string& whole_input) {
    findings_ = report.contains("findings") ? report["findings"] : nlohmann::json::array();
    findings_input_ = whole_input;
  }

  // The legacy findings' diary: flags of the selected legacy members only (a unified member's
  // "no APPLICATION_STOPPED_TIME" must not raise a legacy logging finding).
  void merge_legacy_diary(Diary& into, const Diary& d) {
    if (!have_legacy_diary_) {
      into = d;
      have_legacy_diary_ = true;
      return;
    }
    for (const auto& f : d.flags) {
      bool found = false;
      for (auto& g : into.flags)
        if (g.first == f.first) {
          found = true;
          if (f.second == Tri::kTrue) g.second = Tri::kTrue;
          else if (g.second == Tri::kUnknown) g.second = f.second;
        }
      if (!found) into.flags.push_back(f);
    }
    for (const auto& c : d.collectors)
      if (std::find(into.collectors.begin(), into.collectors.end(), c) == into.collectors.end())
        into.collectors.push_back(c);
  }

  static void add_legacy_findings(nlohmann::json& report, const std::vector<LegacyFinding>& legacy) {
    nlohmann::json& findings = report["findings"];
    if (!findings.is_array()) findings = nlohmann::json::array();
    for (const auto& f : legacy) {
      for (const auto& s : kSupersedes) {
        if (f.id != s.legacy) continue;
        for (auto it = findings.begin(); it != findings.end();) {
          if ((*it)["id"] == s.unified) it = findings.erase(it);
          else ++it;
        }
      }
      bool dup = false;
      for (const auto& g : findings)
        if (g["id"] == f.id) dup = true;
      if (dup) continue;
      findings.push_back({{"id", f.id},
                          {"severity", f.severity},
                          {"message", f.message},
                          {"first_line", f.first_line},
                          {"member", f.member},
                          {"count", f.count},
                          {"source", "legacy"}});
    }
  }

  void decide() {
    decided_ = true;
    // Identification's JVM probe decided unified vs legacy; a forced format whose head the probe
    // did not recognize has no dialect (kUnknown).
    const auto unified = identification().details.find("unified");
    dialect_ = unified == identification().details.end() || !unified->is_boolean() ? LogDialect::kUnknown
               : unified->get<bool>()                                              ? LogDialect::kUnified
                                                                                   : LogDialect::kLegacy;
    scan_segment_head(head_, heads_.back());
    MemberSink& sink = *sinks_.back();
    if (dialect_ == LogDialect::kLegacy) {
      dialects_.back() = "legacy";
      parser_ = make_legacy_parser(sink, member_);
      sink.legacy = true;
      sink.aggregator.set_live_diary(&parser_->diary());
      return;
    }
    // Unknown: nothing recognizable in the head (e.g. a rotated member that starts mid-record): try
    // the unified parser, which lists what it does not understand.
    dialects_.back() = dialect_ == LogDialect::kUnknown ? "unknown" : "unified";
    parser_ = make_unified_parser(sink, member_);
    parser_->hint_head(head_);
    sink.aggregator.set_live_diary(&parser_->diary());
  }

  void pump(const char* data, size_t len) {
    if (!parser_ || len == 0) return;
    LogParser* p = parser_.get();
    uint64_t& lines = heads_.back().lines;
    splitter_.feed(data, len, [p, &lines](std::string_view line, uint64_t no, uint64_t) {
      lines = no;
      p->feed_line(line, no);
    });
  }

  std::vector<std::unique_ptr<MemberSink>> sinks_;  // one per member, in arrival order
  std::vector<SegmentHead> heads_;                  // one per member: name, first stamps, lines
  std::vector<const char*> dialects_;
  std::vector<Diary> diaries_;
  std::unique_ptr<LogParser> parser_;
  LineSplitter splitter_;
  std::string head_;
  std::string path_;
  bool decided_ = false;
  bool member_open_ = false;  // between begin_member and end_member
  bool with_series_ = true;
  bool all_runs_ = false;
  std::unique_ptr<MemberSink> session_;  // after finish(): the merged aggregator the questions read
  nlohmann::json compare_side_;
  nlohmann::json findings_ = nlohmann::json::array();
  std::string findings_input_;
  bool have_legacy_diary_ = false;
  LogDialect dialect_ = LogDialect::kUnknown;
  uint32_t member_ = 0;
};

}  // namespace

std::unique_ptr<Analyzer> make_jvm_analyzer(const AnalyzeOptions& options) {
  return std::make_unique<JvmAnalyzer>(options);
}

}  // namespace gcscope::jvm
