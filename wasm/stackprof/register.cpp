// The stackprof analyzer: every member of the set is one dump (Marshal or JSON, gzip'd or not: the
// core inflates); several dumps give their sum, as `stackprof a.dump b.dump` does.
#include <memory>

#include "core/analyzer.h"
#include "core/identify.h"
#include "profile.h"
#include "report_json.h"

namespace gcscope {

namespace {

class StackprofAnalyzer final : public Analyzer {
 public:
  void begin_member(const std::string& path) override {
    Analyzer::begin_member(path);
    loader_ = std::make_unique<stackprof::DumpLoader>();
  }
  void feed(const char* data, size_t len) override {
    if (loader_) loader_->feed(data, len);
  }
  void end_member() override {
    if (!loader_) return;
    stackprof::Profile p;
    std::vector<stackprof::Problem> problems;
    bool ok = loader_->finish(p, problems);
    loader_.reset();
    for (const auto& pr : problems) {
      if (pr.error)
        error(-1, pr.offset, pr.message);
      else
        warning(-1, pr.offset, pr.message);
    }
    if (ok) parts_.push_back(std::move(p));
  }
  void finish(nlohmann::json& report) override {
    if (loader_) end_member();
    if (parts_.empty()) {
      report["samples"] = nullptr;
      report["frames"] = 0;
      report["has_raw"] = false;
      report["top"] = nlohmann::json::array();
      return;
    }
    size_t n = parts_.size();
    stackprof::Profile sum;
    std::string err;
    if (!stackprof::sum_profiles(parts_, sum, err)) {
      error(-1, -1, "cannot sum these dumps: " + err + "; showing the first one only");
      sum = std::move(parts_.front());
      n = 1;
    }
    stackprof::write_report(sum, n, report);
  }

 private:
  std::unique_ptr<stackprof::DumpLoader> loader_;
  std::vector<stackprof::Profile> parts_;
};

}  // namespace

void register_stackprof(FormatRegistry& registry) {
  FormatHandler h;
  h.id = format_id::kStackprof;
  h.title = "stackprof profile";
  h.accepts_many_members = true;  // several dumps are summed, as stackprof's CLI does
  h.make = [](const AnalyzeOptions&) { return std::unique_ptr<Analyzer>(new StackprofAnalyzer()); };
  h.memory_per_input_byte = 2.3;
  registry.add(std::move(h));
}

}  // namespace gcscope
