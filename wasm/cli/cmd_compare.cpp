// `gcscope compare A B [--format ID] [--set KEY=VALUE] [--pretty]`: analyzes A and B separately (each
// may be a file, a directory or an archive, like `analyze`) and compares them with the compare
// function their format registers (the same the page runs): {"gcscope", "compare", "errors"}. A side
// of several reports of the first report's compare family (a folder of tracing captures) is their sum
// (FormatHandler::sum_sides); a family without a sum compares the first and says so in "not_summed".
// JVM logs compare KPI by KPI (jvm/compare.h), tracing captures per probe and per stack
// (tracing/compare.h; per frame too when both hold stacks), stackprof profiles per frame
// (profile/compare.h).
// `--fail-on-regression PCT` (comparisons with per-frame deltas: profiles, stack captures): exit 4
// when a frame's total share grew by more than PCT percentage points; the frames that did are listed
// under "regressions".
#include <cstdlib>
#include <iostream>

#include "commands.h"
#include "core/query.h"
#include "core/version.h"
#include "profile/compare.h"
#include "input_loader.h"

namespace gcscope::cli {

namespace {

nlohmann::json side_errors(const nlohmann::json& doc, const char* side) {
  nlohmann::json errors = nlohmann::json::array();
  for (const auto& e : doc.value("errors", nlohmann::json::array())) {
    nlohmann::json tagged = e;
    tagged["side"] = side;
    errors.push_back(std::move(tagged));
  }
  return errors;
}

nlohmann::json error_entry(const std::string& path, const std::string& message) {
  return {{"path", path}, {"line", nullptr}, {"offset", nullptr}, {"message", message}};
}

// --fail-on-regression: 4 when a frame's total share grew by more than `points`.
int check_regressions(nlohmann::json& out, double points, nlohmann::json& errors, const std::string& path) {
  if (!out["compare"].contains("frames")) {
    std::string why = out["compare"].value("frames_omitted", std::string());
    errors.push_back(error_entry(path,
                                 "--fail-on-regression applies to comparisons of stacks (stackprof dumps, "
                                 "folded stacks, perf scripts, bpftrace/BCC stack maps); ignored here" +
                                     (why.empty() ? std::string() : ": " + why)));
    return 0;
  }
  std::vector<nlohmann::json> grew = profile::regressions(out["compare"], points);
  out["regressions"] = grew;
  return grew.empty() ? 0 : 4;
}

}  // namespace

int run_compare(const std::vector<std::string>& args) {
  std::vector<std::string> paths;
  nlohmann::json options = nlohmann::json::object();
  bool pretty = false;
  double fail_points = -1;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--pretty") {
      pretty = true;
    } else if (a == "--fail-on-regression") {
      if (i + 1 >= args.size()) return usage_error(a + " needs a value (percentage points)");
      char* end = nullptr;
      fail_points = std::strtod(args[++i].c_str(), &end);
      if (!end || *end || !(fail_points >= 0))
        return usage_error("--fail-on-regression needs a number of percentage points >= 0");
    } else if (int rc = take_input_arg(args, i, options, paths)) {
      return rc;
    }
  }
  if (paths.size() != 2) return usage_error("compare needs exactly two PATHs (A and B)");

  LoadedSet a = load_input_set({paths[0]}, options), b = load_input_set({paths[1]}, options);
  nlohmann::json out = {{"gcscope", kVersion}};
  nlohmann::json errors = side_errors(a.doc, "a");
  for (auto& e : side_errors(b.doc, "b")) errors.push_back(std::move(e));
  int status = 0;
  if (a.doc["reports"].empty() || b.doc["reports"].empty()) {
    status = 3;
    errors.push_back(
        error_entry(a.doc["reports"].empty() ? paths[0] : paths[1], "nothing to compare: no report for this input"));
  } else {
    try {
      nlohmann::json side_a = a.set->query("compare.side", {{"report", 0}, {"set", true}});
      out["compare"] = b.set->query("compare.with", {{"report", 0}, {"other", side_a}, {"set", true}});
      out["compare"]["a"]["path"] = paths[0];
      out["compare"]["b"]["path"] = paths[1];
      if (fail_points >= 0) status = check_regressions(out, fail_points, errors, paths[0]);
    } catch (const QueryError& e) {
      status = 3;
      errors.push_back(error_entry(paths[0], std::string("cannot compare: ") + e.what()));
    }
  }
  out["errors"] = std::move(errors);
  std::cout << out.dump(pretty ? 2 : -1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return status;
}

}  // namespace gcscope::cli
