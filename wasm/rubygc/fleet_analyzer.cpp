// The format's analyzer: each payload of the set goes to its own payload analyzer (register.cpp),
// which is finished as soon as its bytes end (the bytes are freed, the samples kept for queries).
// One payload: its report is the report. Several: the fleet (fleet.cpp) plus each process's report on
// demand (query "rubygc.process").
#include <algorithm>
#include <exception>

#include "core/query.h"
#include "fleet.h"

namespace gcscope::rubygc {

using nlohmann::json;

namespace {

// Passes the rows of a table with columns `own` on to `sink` as rows of `whole`, which has every
// column of `own` (by name) and more. The columns `own` and `whole` start with alike pass straight
// through; the cells of `own`'s later columns are kept until the row's end, then sent in `whole`'s
// order after that prefix, nulls in the columns `own` lacks.
class ColumnUnionSink final : public tables::RowSink {
 public:
  ColumnUnionSink(const tables::Schema& own, const tables::Schema& whole, tables::RowSink& sink) : sink_(sink) {
    while (direct_ < own.columns.size() && direct_ < whole.columns.size() &&
           own.columns[direct_].name == whole.columns[direct_].name)
      ++direct_;
    cells_.resize(own.columns.size() - direct_);
    for (size_t k = direct_; k < whole.columns.size(); ++k) {
      const int i = own.find(whole.columns[k].name);
      source_.push_back(i < 0 ? -1 : i - static_cast<int>(direct_));
    }
  }
  void begin(const tables::Schema&) override {}
  void null_cell() override { direct() ? sink_.null_cell() : put(Kind::kNull); }
  void int64_cell(int64_t v) override { direct() ? sink_.int64_cell(v) : put(Kind::kInt64, v); }
  void float64_cell(double v) override { direct() ? sink_.float64_cell(v) : put(Kind::kFloat64, 0, v); }
  void string_cell(std::string_view v) override { direct() ? sink_.string_cell(v) : put(Kind::kString, 0, 0, v); }
  void bool_cell(bool v) override { direct() ? sink_.bool_cell(v) : put(Kind::kBool, v); }
  void timestamp_cell(int64_t epoch_us) override {
    direct() ? sink_.timestamp_cell(epoch_us) : put(Kind::kTimestamp, epoch_us);
  }
  void end_row() override {
    for (int k : source_) {
      const Cell& c = k < 0 ? absent_ : cells_[static_cast<size_t>(k)];
      switch (c.kind) {
        case Kind::kNull: sink_.null_cell(); break;
        case Kind::kInt64: sink_.int64_cell(c.i); break;
        case Kind::kFloat64: sink_.float64_cell(c.f); break;
        case Kind::kString: sink_.string_cell(c.s); break;
        case Kind::kBool: sink_.bool_cell(c.i != 0); break;
        case Kind::kTimestamp: sink_.timestamp_cell(c.i); break;
      }
    }
    sink_.end_row();
    col_ = 0;
  }

 private:
  enum class Kind : uint8_t { kNull, kInt64, kFloat64, kString, kBool, kTimestamp };
  struct Cell {
    Kind kind = Kind::kNull;
    int64_t i = 0;
    double f = 0;
    std::string s;
  };
  // Whether the row's next cell is in the prefix (then it is counted here, as passed on).
  bool direct() {
    if (col_ >= direct_) return false;
    ++col_;
    return true;
  }
  void put(Kind kind, int64_t i = 0, double f = 0, std::string_view s = {}) {
    Cell& c = cells_.at(col_++ - direct_);
    c.kind = kind;
    c.i = i;
    c.f = f;
    c.s.assign(s);
  }
  const Cell absent_{};
  tables::RowSink& sink_;
  size_t direct_ = 0;        // how many columns own and whole start with alike
  std::vector<Cell> cells_;  // own's columns after them
  std::vector<int> source_;  // per column of whole after them: its index in cells_, or -1
  size_t col_ = 0;
};

// Adds the columns of `more` that `whole` lacks (by name) to the end of `whole`.
void widen(tables::Schema& whole, tables::Schema&& more) {
  for (auto& c : more.columns)
    if (whole.find(c.name) < 0) whole.columns.push_back(std::move(c));
}

bool same_names(const tables::Schema& a, const tables::Schema& b) {
  if (a.columns.size() != b.columns.size()) return false;
  for (size_t k = 0; k < a.columns.size(); ++k)
    if (a.columns[k].name != b.columns[k].name) return false;
  return true;
}

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
  // A table whose columns follow the payload (tuner_samples: its GC.stat keys) has the union of the
  // payloads' columns by name, in first-seen order: the first payload's, then each later payload's
  // new ones; a payload's rows are null in the columns it lacks.
  std::vector<tables::Schema> tables() const override {
    std::vector<tables::Schema> out;
    for (const auto& a : analyzers_)
      for (auto& schema : a->tables()) {
        auto same = std::find_if(out.begin(), out.end(), [&](const auto& s) { return s.name == schema.name; });
        if (same == out.end()) {
          out.push_back(std::move(schema));
          continue;
        }
        widen(*same, std::move(schema));
      }
    return out;
  }
  bool write_table(const std::string& name, tables::RowSink& sink) override {
    // The table's columns in each payload (an empty name: the payload lacks it) and their union,
    // as tables() makes it.
    std::vector<tables::Schema> own(analyzers_.size());
    tables::Schema whole;
    for (size_t i = 0; i < analyzers_.size(); ++i)
      for (auto& schema : analyzers_[i]->tables())
        if (schema.name == name) {
          own[i] = std::move(schema);
          if (whole.name.empty()) whole = own[i];
          else widen(whole, tables::Schema(own[i]));
        }
    bool known = !analyzers_.empty();
    for (size_t i = 0; i < analyzers_.size(); ++i) {
      if (own[i].name.empty() || same_names(own[i], whole)) {
        known = analyzers_[i]->write_table(name, sink) && known;
        continue;
      }
      ColumnUnionSink widened(own[i], whole, sink);
      known = analyzers_[i]->write_table(name, widened) && known;
    }
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
