// `gcscope compare A B [--format ID] [--set KEY=VALUE] [--pretty]`: analyzes A and B separately (each may
// be a file, a directory or an archive, like `analyze`) and prints the KPIs of their first reports with
// deltas (b - a) as JSON: {"gcscope", "compare": {"a", "b", "kpis"}, "errors"}. Two tracing reports
// compare per probe and per stack instead (tracing/compare.h: {"kind": "tracing", "a", "b", "probes", "stacks"}).
#include <iostream>

#include "commands.h"
#include "core/input_set.h"
#include "core/version.h"
#include "file_walk.h"
#include "jvm/compare.h"
#include "tracing/compare.h"

namespace gcscope::cli {

namespace {

nlohmann::json analyze_one(const std::string& path, const nlohmann::json& options) {
  std::vector<PathError> path_errors;
  InputSet set(options);
  for (const auto& file : expand_paths({path}, path_errors)) {
    set.begin_file(file);
    std::string err;
    if (!read_file_chunks(file, [&](const unsigned char* d, size_t n) { set.feed(d, n); }, err))
      path_errors.push_back({file, err});
    set.end_file();
  }
  nlohmann::json doc = set.finish();
  for (const auto& e : path_errors)
    doc["errors"].push_back({{"path", e.path}, {"line", nullptr}, {"offset", nullptr}, {"message", e.message}});
  return doc;
}

}  // namespace

int run_compare(const std::vector<std::string>& args) {
  std::vector<std::string> paths;
  nlohmann::json options = nlohmann::json::object();
  bool pretty = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--pretty") {
      pretty = true;
    } else if (a == "--format" || a == "--set") {
      if (i + 1 >= args.size()) return usage_error(a + " needs a value");
      const std::string& v = args[++i];
      if (a == "--format") {
        options["format"] = v;
      } else {
        size_t eq = v.find('=');
        if (eq == std::string::npos || eq == 0) return usage_error("--set needs KEY=VALUE");
        nlohmann::json parsed = nlohmann::json::parse(v.substr(eq + 1), nullptr, false);
        options[v.substr(0, eq)] = parsed.is_discarded() ? nlohmann::json(v.substr(eq + 1)) : parsed;
      }
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option '" + a + "'");
    } else {
      paths.push_back(a);
    }
  }
  if (paths.size() != 2) return usage_error("compare needs exactly two PATHs (A and B)");

  nlohmann::json doc_a = analyze_one(paths[0], options), doc_b = analyze_one(paths[1], options);
  nlohmann::json out = {{"gcscope", kVersion}};
  nlohmann::json errors = nlohmann::json::array();
  for (const auto& [tag, doc] : {std::pair<const char*, const nlohmann::json&>{"a", doc_a}, {"b", doc_b}})
    for (const auto& e : doc.value("errors", nlohmann::json::array())) {
      nlohmann::json tagged = e;
      tagged["side"] = tag;
      errors.push_back(std::move(tagged));
    }
  const auto& ra = doc_a.value("reports", nlohmann::json::array());
  const auto& rb = doc_b.value("reports", nlohmann::json::array());
  int status = 0;
  if (ra.empty() || rb.empty()) {
    status = 3;
    errors.push_back({{"path", ra.empty() ? paths[0] : paths[1]}, {"line", nullptr}, {"offset", nullptr},
                      {"message", "nothing to compare: no report for this input"}});
  }
  const nlohmann::json& first_a = ra.empty() ? nlohmann::json::object() : ra[0];
  const nlohmann::json& first_b = rb.empty() ? nlohmann::json::object() : rb[0];
  // Tracing captures (bpftrace, BCC, folded stacks, perf script) compare per probe and per stack.
  if (tracing::is_tracing_format(first_a.value("format", "")) && tracing::is_tracing_format(first_b.value("format", "")))
    out["compare"] = tracing::compare_reports(first_a, first_b);
  else
    out["compare"] = jvm::compare_reports(first_a, first_b);
  out["compare"]["a"]["path"] = paths[0];
  out["compare"]["b"]["path"] = paths[1];
  out["errors"] = std::move(errors);
  std::cout << out.dump(pretty ? 2 : -1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return status;
}

}  // namespace gcscope::cli
