// `gcscope export PATH... --to speedscope|pprof [--transforms JSON] [--format ID] [--set KEY=VALUE]
// -o FILE`: forms the input set as `analyze` does and writes its stacks (transformed when asked)
// as a file another tool opens: speedscope's JSON or pprof's gzipped profile.proto. The engine's
// stacks.export answer is the file (profile/export.h), so the page's download is the same bytes.
#include <fstream>
#include <iostream>

#include "commands.h"
#include "core/query.h"
#include "input_loader.h"
#include "profile/export.h"

namespace gcscope::cli {

namespace {

struct ExportArgs {
  std::vector<std::string> paths;
  nlohmann::json options = nlohmann::json::object();
  nlohmann::json args = nlohmann::json::object();
  std::string out;
};

int parse_export_args(const std::vector<std::string>& args, ExportArgs& e) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool takes_value = a == "--to" || a == "--transforms" || a == "-o";
    if (takes_value && i + 1 >= args.size()) return usage_error(a + " needs a value");
    if (a == "--to") {
      e.args["to"] = args[++i];
    } else if (a == "--transforms") {
      e.args["transforms"] = nlohmann::json::parse(args[++i], nullptr, false);
      if (!e.args["transforms"].is_array())
        return usage_error("--transforms needs a JSON list, e.g. '[{\"focus_function\": \"Foo#bar\"}]'");
    } else if (a == "-o") {
      e.out = args[++i];
    } else if (int rc = take_input_arg(args, i, e.options, e.paths)) {
      return rc;
    }
  }
  if (e.paths.empty()) return usage_error("export needs at least one PATH");
  if (e.args.value("to", "") != "speedscope" && e.args.value("to", "") != "pprof")
    return usage_error("export needs --to speedscope or --to pprof");
  if (e.out.empty()) return usage_error("export needs -o FILE");
  return 0;
}

}  // namespace

int run_export(const std::vector<std::string>& args) {
  ExportArgs e;
  if (int rc = parse_export_args(args, e)) return rc;
  LoadedSet loaded = load_input_set(e.paths, e.options);
  std::string bytes;
  try {
    nlohmann::json answer = loaded.set->query("stacks.export", e.args);
    if (e.args["to"] == "pprof") {
      if (!profile::unbase64(answer.get<std::string>(), bytes)) throw QueryError("the pprof export came back damaged");
    } else {
      bytes = answer.get<std::string>();
    }
  } catch (const QueryError& err) {
    nlohmann::json out = {{"error", err.what()}, {"errors", loaded.doc["errors"]}};
    std::cerr << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 3;
  }
  std::ofstream f(e.out, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) {
    std::cerr << "gcscope: cannot write " << e.out << "\n";
    return 3;
  }
  return 0;
}

}  // namespace gcscope::cli
