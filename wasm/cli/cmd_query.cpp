// `gcscope query PATH... --method NAME [--args JSON] [--format ID] [--set KEY=VALUE] [--pretty]`: forms
// the input set exactly as `analyze` does, then asks it one question of the query protocol (the one
// the page asks its worker) and prints {"result": ...} (exit 0) or {"error": "..."} (exit 3).
// `gcscope formats`: the registered formats as JSON (FormatRegistry::describe).
#include <iostream>

#include "commands.h"
#include "core/analyzer.h"
#include "core/query.h"
#include "core/raw_json.h"
#include "input_loader.h"

namespace gcscope::cli {

namespace {

struct QueryArgs {
  std::vector<std::string> paths;
  nlohmann::json options = nlohmann::json::object();
  std::string method;
  nlohmann::json args = nlohmann::json::object();
  bool pretty = false;
};

int parse_query_args(const std::vector<std::string>& args, QueryArgs& out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool takes_value = a == "--method" || a == "--args";
    if (takes_value && i + 1 >= args.size()) return usage_error(a + " needs a value");
    if (a == "--method") {
      out.method = args[++i];
    } else if (a == "--args") {
      out.args = nlohmann::json::parse(args[++i], nullptr, false);
      if (!out.args.is_object()) return usage_error("--args needs a JSON object, e.g. '{\"t0\": 5, \"t1\": 10}'");
    } else if (a == "--pretty") {
      out.pretty = true;
    } else if (int rc = take_input_arg(args, i, out.options, out.paths)) {
      return rc;
    }
  }
  if (out.paths.empty()) return usage_error("query needs at least one PATH");
  if (out.method.empty()) return usage_error("query needs --method NAME (gcscope formats lists each format's methods)");
  return 0;
}

void print(const nlohmann::json& j, bool pretty) { std::cout << raw_json::dump_document(j, pretty ? 2 : -1) << "\n"; }

}  // namespace

int run_query(const std::vector<std::string>& args) {
  QueryArgs q;
  if (int rc = parse_query_args(args, q)) return rc;
  LoadedSet loaded = load_input_set(q.paths, q.options);
  try {
    print({{"result", loaded.set->query(q.method, q.args)}}, q.pretty);
    return 0;
  } catch (const QueryError& e) {
    nlohmann::json out = {{"error", e.what()}};
    if (loaded.doc["reports"].empty()) out["errors"] = loaded.doc["errors"];
    print(out, q.pretty);
    return 3;
  }
}

int run_formats(const std::vector<std::string>& args) {
  if (!args.empty()) return usage_error("formats takes no arguments");
  print(FormatRegistry::builtin().describe(), true);
  return 0;
}

}  // namespace gcscope::cli
