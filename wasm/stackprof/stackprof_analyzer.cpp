#include "stackprof_analyzer.h"

#include "core/query.h"
#include "profile.h"
#include "profile/compare.h"
#include "profile/stack_queries.h"
#include "report_json.h"
#include "reports.h"
#include "stack_source.h"
#include "tables.h"

namespace gcscope::stackprof {

namespace {

// The stackprof-specific methods (besides stacks.*):
//   stackprof.method {frame}  → --method's figures for one frame (report_json.h method_json)
//   stackprof.text   {sort_total?, select_files?, reject_files?, select_names?, reject_names?,
//                     offset?, limit?} → --text's rows after its filters (report_json.h text_json)
const char* const kMethod = "stackprof.method";
const char* const kText = "stackprof.text";

std::vector<std::string> string_list(const nlohmann::json& args, const char* key) {
  std::vector<std::string> out;
  if (!args.contains(key) || args[key].is_null()) return out;
  const auto& v = args[key];
  if (v.is_string()) {
    if (!v.get_ref<const std::string&>().empty()) out.push_back(v.get<std::string>());
    return out;
  }
  if (!v.is_array()) throw QueryError(std::string("argument '") + key + "' must be a string or a list of strings");
  for (const auto& s : v) {
    if (!s.is_string()) throw QueryError(std::string("argument '") + key + "' must be a string or a list of strings");
    if (!s.get_ref<const std::string&>().empty()) out.push_back(s.get<std::string>());
  }
  return out;
}

class StackprofAnalyzer final : public Analyzer {
 public:
  void begin_member(const std::string& path) override {
    Analyzer::begin_member(path);
    loader_ = std::make_unique<DumpLoader>();
    const std::string encoding = identification().details.value("encoding", "");
    if (encoding == "marshal") loader_->expect(Encoding::Marshal);
    else if (encoding == "json") loader_->expect(Encoding::Json);
  }
  void feed(const char* data, size_t len) override {
    if (loader_) loader_->feed(data, len);
  }
  void end_member() override {
    if (!loader_) return;
    Profile p;
    std::vector<Problem> problems;
    bool ok = loader_->finish(p, problems);
    loader_.reset();
    for (const auto& pr : problems) {
      if (pr.error) error(-1, pr.offset, pr.message);
      else warning(-1, pr.offset, pr.message);
    }
    if (ok) {
      parts_.push_back(std::move(p));
      part_paths_.push_back(current_path());
    }
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
    // Raw records per dump: a sum keeps them in this order, so exports can give one profile per dump.
    profile::ExportInfo info;
    size_t first = 0;
    for (size_t i = 0; i < n; ++i) {
      size_t records = parts_[i].stack_begin.empty() ? 0 : parts_[i].stack_begin.size() - 1;
      info.parts.push_back({part_paths_[i], first, first + records});
      first += records;
    }
    std::string err;
    if (!sum_profiles(parts_, sum_, err)) {
      error(-1, -1, "cannot sum these dumps: " + err + "; showing the first one only");
      sum_ = std::move(parts_.front());
      n = 1;
      info.parts.resize(1);
    }
    parts_.clear();
    has_profile_ = true;
    stacks_.reset(stack_model(sum_));
    info.name = part_paths_.size() == 1 ? part_paths_[0] : std::to_string(n) + " stackprof dumps";
    if (n == 1) info.parts.clear();
    table_paths_.assign(part_paths_.begin(), part_paths_.begin() + static_cast<std::ptrdiff_t>(n));
    table_parts_ = info.parts;
    set_pprof_types(info);
    stacks_.set_export_info(std::move(info));
    write_report(sum_, n, stacks_.base(), report);
  }

  std::vector<tables::Schema> tables() const override { return profile_tables(); }
  bool write_table(const std::string& name, tables::RowSink& sink) override {
    return write_profile_table({&sum_, &stacks_.base(), table_paths_, table_parts_}, name, sink);
  }

  // Every dump of the set was refused (empty, truncated before its frames, not a profile...).
  bool rejected() const override { return !has_profile_; }

  nlohmann::json query(const std::string& method, const nlohmann::json& args) override {
    if (!has_profile_) throw QueryError("no stackprof profile was read from this input");
    if (method == kMethod) {
      query_args::required(args, "frame");
      int64_t idx = query_args::integer(args, "frame", 0, 0, static_cast<int64_t>(sum_.frames.size()) - 1);
      if (callers_.empty()) callers_ = caller_index(sum_);
      return method_json(sum_, static_cast<uint32_t>(idx), callers_);
    }
    if (method == kText) return text(args);
    if (method == "compare.side") return side();
    if (method.rfind("stacks.", 0) == 0) {
      if (!sum_.has_raw)
        throw QueryError("profile does not include raw samples (add `raw: true` to collecting StackProf.run)");
      return stacks_.answer(method, args);
    }
    return Analyzer::query(method, args);
  }

 private:
  nlohmann::json text(const nlohmann::json& args) {
    TextFilters f;
    f.select_files = string_list(args, "select_files");
    f.reject_files = string_list(args, "reject_files");
    f.select_names = string_list(args, "select_names");
    f.reject_names = string_list(args, "reject_names");
    std::string err;
    if (!check_filters(f, err)) throw QueryError(err);
    bool sort_total = query_args::boolean(args, "sort_total", false);
    int64_t offset = query_args::integer(args, "offset", 0);
    int64_t limit = query_args::integer(args, "limit", 1000, 0, 100000);
    return text_json(sum_, sort_total, &f, static_cast<size_t>(offset), static_cast<size_t>(limit));
  }

  // pprof's sample types, after the mode: cpu and wall samples also as time (samples x interval).
  void set_pprof_types(profile::ExportInfo& info) const {
    if ((sum_.mode == "cpu" || sum_.mode == "wall") && sum_.interval > 0) {
      double ns = static_cast<double>(sum_.interval) * 1000.0;
      info.pprof_types = {{"samples", "count", 1}, {sum_.mode, "nanoseconds", ns}};
      info.pprof_period = static_cast<int64_t>(ns);
    } else if (sum_.mode == "object") {
      info.pprof_types = {{"objects", "count", 1}};
    } else {
      info.pprof_types = {{"samples", "count", 1}};
    }
  }

  // Per-frame figures from stackprof's own frame table (as --text prints them, raw or not), the
  // stack tree from raw samples when there are some.
  nlohmann::json side() {
    std::vector<double> self(sum_.frames.size()), total(sum_.frames.size());
    for (size_t i = 0; i < sum_.frames.size(); ++i) {
      if (sum_.frames[i].placeholder) continue;
      self[i] = static_cast<double>(sum_.frames[i].self);
      total[i] = static_cast<double>(sum_.frames[i].total);
    }
    const profile::StackModel& m = stacks_.base();
    return profile::compare_side(m.frames, self, total, static_cast<double>(sum_.samples), m.unit, sum_.mode,
                                 sum_.has_raw ? &m : nullptr);
  }

  std::unique_ptr<DumpLoader> loader_;
  std::vector<Profile> parts_;
  std::vector<std::string> part_paths_;
  std::vector<std::string> table_paths_;                // the dumps the tables' rows come from
  std::vector<profile::ExportInfo::Part> table_parts_;  // their raw records, for a sum
  Profile sum_;
  bool has_profile_ = false;
  profile::StackQueries stacks_;
  CallerIndex callers_;
};

}  // namespace

std::unique_ptr<Analyzer> make_analyzer() { return std::make_unique<StackprofAnalyzer>(); }

const std::vector<std::string>& query_methods() {
  static const std::vector<std::string> kMethods = [] {
    std::vector<std::string> m = {kMethod, kText};
    for (const auto& s : profile::stack_methods()) m.push_back(s);
    return m;
  }();
  return kMethods;
}

nlohmann::json compare_sides(const nlohmann::json& a, const nlohmann::json& b) {
  return profile::compare_profiles(a, b);
}

}  // namespace gcscope::stackprof
