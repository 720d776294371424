// The rbkit-capture analyzer: a capture (rbkit server messages concatenated as received) streamed
// through the msgpack tokenizer into the capture model.
#include "core/analyzer.h"
#include "core/identify.h"
#include "core/query.h"
#include "core/timeline.h"
#include "profile/stack_queries.h"
#include "rbkit/capture.h"
#include "rbkit/compare.h"
#include "rbkit/probe.h"

namespace gcscope {
namespace {

class RbkitAnalyzer final : public Analyzer, private rbkit::Complaints {
 public:
  void feed(const char* data, size_t len) override {
    bytes_ += len;
    decoder_.feed(data, len);
  }
  void end_member() override {
    if (bytes_ == 0)
      error(-1, 0,
            "empty capture: the file has no bytes (an rbkit capture starts with the handshake reply or an "
            "event_collection message)");
    decoder_.end_of_input();
  }
  // rbkit.range {t0, t1} (seconds since the epoch, the timeline's x): the range's figures.
  // stacks.* (profile/stack_queries.h): the shared stack questions over the cpu_sample stacks.
  // compare.side: what the rbkit compare reads (rbkit/compare.h).
  nlohmann::json query(const std::string& method, const nlohmann::json& args) override {
    if (method.rfind("stacks.", 0) == 0) {
      if (stacks_.base().empty())
        throw QueryError("this capture has no cpu_sample stacks (rbkit's CPU profiling was off or sent no frames)");
      return stacks_.answer(method, args);
    }
    if (method == timeline::kMethod) return decoder_.timeline(args);
    if (method == "compare.side") return rbkit::compare_side(decoder_.cpu_model(), decoder_.compare_figures());
    if (method != "rbkit.range") return Analyzer::query(method, args);
    query_args::required(args, "t0");
    query_args::required(args, "t1");
    double t0 = query_args::number(args, "t0", 0), t1 = query_args::number(args, "t1", 0);
    if (!(t1 >= t0)) throw QueryError("argument 't1' must not be before 't0'");
    return decoder_.range(t0, t1);
  }

  void begin_member(const std::string& path) override {
    Analyzer::begin_member(path);
    if (paths_.size() < 3) paths_.push_back(path);
    bytes_ = 0;
  }

  std::vector<tables::Schema> tables() const override { return rbkit::CaptureDecoder::table_schemas(); }
  bool write_table(const std::string& name, tables::RowSink& sink) override {
    return decoder_.write_table(current_path(), name, sink);
  }

  void finish(nlohmann::json& report) override {
    decoder_.write_report(report);
    stacks_.reset(decoder_.cpu_model());
    profile::ExportInfo info;
    info.name = paths_.size() == 1 ? paths_[0] : "rbkit capture";
    info.pprof_types = {{"samples", "count", 1}};
    stacks_.set_export_info(std::move(info));
    for (const auto& [kind, n] : suppressed_)
      warning(-1, -1, std::to_string(n) + " more '" + kind + "' diagnostic(s) not listed");
  }

 private:
  // At most kPerKind diagnostics of each kind: a damaged 1 GB capture must not produce millions.
  static constexpr uint64_t kPerKind = 20;
  void complain(bool is_error, const char* kind, uint64_t offset, std::string message) override {
    auto it = counts_.find(kind);
    if (it == counts_.end()) it = counts_.emplace(kind, 0).first;
    uint64_t& n = it->second;
    if (++n > kPerKind) {
      auto sit = suppressed_.find(kind);
      if (sit == suppressed_.end()) sit = suppressed_.emplace(kind, 0).first;
      ++sit->second;
      return;
    }
    if (is_error) error(-1, static_cast<int64_t>(offset), std::move(message));
    else warning(-1, static_cast<int64_t>(offset), std::move(message));
  }

  bool listing(const char* kind) const override {
    auto it = counts_.find(kind);
    return it == counts_.end() || it->second < kPerKind;
  }

  rbkit::CaptureDecoder decoder_{*this};
  profile::StackQueries stacks_;
  std::vector<std::string> paths_;  // the first members' paths: the exports' profile name
  uint64_t bytes_ = 0;
  // std::less<>: looked up by the kind's literal without making a string per complaint.
  std::map<std::string, uint64_t, std::less<>> counts_, suppressed_;
};

}  // namespace

void register_rbkit(FormatRegistry& registry) {
  FormatHandler h;
  h.id = "rbkit-capture";
  h.title = "rbkit capture";
  h.methods = {"rbkit.range", timeline::kMethod};
  for (const auto& m : profile::stack_methods()) h.methods.push_back(m);
  h.make = [](const AnalyzeOptions&) -> std::unique_ptr<Analyzer> { return std::make_unique<RbkitAnalyzer>(); };
  h.compare_family = "rbkit";
  h.compare = [](const nlohmann::json& a, const nlohmann::json& b) { return rbkit::compare_captures(a, b); };
  h.sum_sides = rbkit::sum_sides;  // one report per capture: a folder of captures is a set
  // The live-object map and bins (~0.3 of a capture's bytes) and the rbkit_events log (about 4
  // bytes an event, ~0.16 of the real server's capture, up to twice that while the log grows).
  h.memory_per_input_byte = 0.5;
  h.probes = {{probe_rank::kBinary + 10, rbkit::probe_capture}};
  registry.add(std::move(h));
}

}  // namespace gcscope
