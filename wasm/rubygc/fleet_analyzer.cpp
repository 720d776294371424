// The format's analyzer: each payload of the set goes to its own payload analyzer (register.cpp),
// which is finished as soon as its bytes end (the bytes are freed, the samples kept for queries).
// One payload: its report is the report. Several: the fleet (fleet.cpp) plus each process's report on
// demand (query "rubygc.process").
#include <exception>

#include "core/query.h"
#include "fleet.h"

namespace gcscope::rubygc {

using nlohmann::json;

namespace {

class FleetAnalyzer final : public Analyzer {
 public:
  explicit FleetAnalyzer(PayloadAnalyzerFactory make) : make_(std::move(make)) {}

  void begin_member(const std::string& path) override {
    Analyzer::begin_member(path);
    members_.push_back({path, json::object()});
    analyzers_.push_back(make_());
    analyzers_.back()->attach(&diagnostics());
    analyzers_.back()->begin_member(path);
  }

  void feed(const char* data, size_t len) override {
    if (!analyzers_.empty()) analyzers_.back()->feed(data, len);
  }

  void end_member() override {
    if (analyzers_.empty()) return;
    Analyzer& a = *analyzers_.back();
    json& report = members_.back().report;
    try {
      a.end_member();
      a.finish(report);
    } catch (const std::exception& e) {
      // One payload's internal failure leaves the others' analyses standing.
      report["verdict"] = {{"status", 400},
                           {"message", std::string("internal error: ") + e.what()},
                           {"details", json::object()},
                           {"warnings", json::array()}};
      error(-1, -1, std::string("internal error in the tunemygc-payload analyzer: ") + e.what());
    }
  }

  void finish(json& report) override {
    if (members_.size() == 1) {
      for (auto& [k, v] : members_[0].report.items()) report[k] = v;
      return;
    }
    json fleet = fleet_report(members_);
    size_t advised = 0;
    for (const auto& p : fleet["processes"]) advised += p["status"] == 200 || p["status"] == 412;
    report["fleet"] = std::move(fleet);
    report["verdict"] = {{"status", advised ? 200 : 400},
                         {"message", std::to_string(members_.size()) + " payloads in " +
                                         std::to_string(report["fleet"]["groups"].size()) + " group(s); " +
                                         std::to_string(advised) + " analyzed"},
                         {"details", json::object()},
                         {"warnings", json::array()}};
  }

  json query(const std::string& method, const json& args) override {
    if (method == "compare.side") return compare_side_of(members_);
    const int64_t last = static_cast<int64_t>(members_.size()) - 1;
    if (last < 0) throw QueryError("no payload was analyzed");
    const size_t process = static_cast<size_t>(query_args::integer(args, "process", 0, 0, last));
    if (method == "rubygc.process") return members_[process].report;
    return analyzers_[process]->query(method, args);
  }

  // Every payload's rows, one payload after the other (each row's input column names its payload).
  std::vector<tables::Schema> tables() const override {
    return analyzers_.empty() ? std::vector<tables::Schema>() : analyzers_.front()->tables();
  }
  bool write_table(const std::string& name, tables::RowSink& sink) override {
    bool known = !analyzers_.empty();
    for (auto& a : analyzers_) known = a->write_table(name, sink) && known;
    return known;
  }

 private:
  PayloadAnalyzerFactory make_;
  std::vector<FleetMember> members_;
  std::vector<std::unique_ptr<Analyzer>> analyzers_;
};

}  // namespace

std::unique_ptr<Analyzer> make_fleet_analyzer(PayloadAnalyzerFactory make_payload_analyzer) {
  return std::make_unique<FleetAnalyzer>(std::move(make_payload_analyzer));
}

}  // namespace gcscope::rubygc
