#include <iostream>

#include "commands.h"
#include "core/identify.h"
#include "core/input_set.h"
#include "file_walk.h"

namespace gcscope::cli {

namespace {

struct AnalyzeArgs {
  std::vector<std::string> paths;
  nlohmann::json options = nlohmann::json::object();
  bool pretty = false;
};

// Returns 0 when parsed, otherwise the exit status of the usage error.
int parse_analyze_args(const std::vector<std::string>& args, AnalyzeArgs& out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) -> const std::string* {
      if (i + 1 >= args.size()) return nullptr;
      (void)flag;
      return &args[++i];
    };
    if (a == "--format") {
      const std::string* v = value("--format");
      if (!v) return usage_error("--format needs a format ID");
      if (!is_known_format(*v)) {
        std::string ids;
        size_t n = 0;
        const char* const* all = all_format_ids(&n);
        for (size_t k = 0; k < n; ++k) ids += std::string(k ? ", " : "") + all[k];
        return usage_error("unknown format '" + *v + "'; known formats: " + ids);
      }
      out.options["format"] = *v;
    } else if (a == "--diff") {
      // Ruby heap dumps: list objects allocated after the first dump and alive in the last (2 or 3 dumps).
      out.options["heap_diff"] = true;
    } else if (a == "--pretty") {
      out.pretty = true;
    } else if (a == "--set") {
      // Domain options as key=value (value parsed as JSON when it is valid JSON, else a string).
      const std::string* v = value("--set");
      size_t eq = v ? v->find('=') : std::string::npos;
      if (!v || eq == std::string::npos || eq == 0) return usage_error("--set needs KEY=VALUE");
      std::string key = v->substr(0, eq), raw = v->substr(eq + 1);
      nlohmann::json parsed = nlohmann::json::parse(raw, nullptr, false);
      out.options[key] = parsed.is_discarded() ? nlohmann::json(raw) : parsed;
    } else if (a == "--") {
      out.paths.insert(out.paths.end(), args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option '" + a + "'");
    } else {
      out.paths.push_back(a);
    }
  }
  if (out.paths.empty()) return usage_error("analyze needs at least one PATH");
  return 0;
}

}  // namespace

int run_analyze(const std::vector<std::string>& args) {
  AnalyzeArgs a;
  if (int rc = parse_analyze_args(args, a)) return rc;
  std::vector<PathError> path_errors;
  std::vector<std::string> files = expand_paths(a.paths, path_errors);
  InputSet set(a.options);
  std::vector<PathError> read_errors;
  for (const auto& path : files) {
    set.begin_file(path);
    std::string err;
    if (!read_file_chunks(path, [&](const unsigned char* d, size_t n) { set.feed(d, n); }, err))
      read_errors.push_back({path, err});
    set.end_file();
  }
  nlohmann::json doc = set.finish();
  for (const auto& e : path_errors)
    doc["errors"].push_back({{"path", e.path}, {"line", nullptr}, {"offset", nullptr}, {"message", e.message}});
  for (const auto& e : read_errors)
    doc["errors"].push_back({{"path", e.path}, {"line", nullptr}, {"offset", nullptr}, {"message", e.message}});
  std::cout << (a.pretty ? doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                         : doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
            << "\n";
  return InputSet::exit_status(doc);
}

// `gcscope identify PATH...`: one line per member, "path<TAB>format<TAB>reason" (quick triage).
int run_identify(const std::vector<std::string>& args) {
  AnalyzeArgs a;
  if (int rc = parse_analyze_args(args, a)) return rc;
  std::vector<PathError> path_errors;
  int recognized = 0, total = 0;
  for (const auto& path : expand_paths(a.paths, path_errors)) {
    InputSet set;
    set.begin_file(path);
    std::string err;
    read_file_chunks(path, [&](const unsigned char* d, size_t n) { set.feed(d, n); }, err);
    set.end_file();
    nlohmann::json doc = set.finish();
    for (const auto& in : doc["inputs"]) {
      auto print = [&](const nlohmann::json& m) {
        ++total;
        std::string fmt = m.value("format", "unrecognized");
        if (fmt != "unrecognized") ++recognized;
        std::cout << m.value("path", "") << '\t' << fmt << '\t' << m["identification"].dump(-1, ' ', false,
                                                                                             nlohmann::json::error_handler_t::replace)
                  << '\n';
      };
      if (in["members"].empty()) print(in);
      for (const auto& m : in["members"]) print(m);
    }
  }
  for (const auto& e : path_errors) std::cerr << e.path << ": " << e.message << "\n";
  return recognized > 0 ? 0 : 3;
}

}  // namespace gcscope::cli
