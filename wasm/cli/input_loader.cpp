#include "input_loader.h"

#include "commands.h"
#include "core/analyzer.h"
#include "file_walk.h"

namespace gcscope::cli {

LoadedSet load_input_set(const std::vector<std::string>& paths, const nlohmann::json& options) {
  std::vector<PathError> path_errors, read_errors;
  std::vector<std::string> files = expand_paths(paths, path_errors);
  LoadedSet out;
  out.set = std::make_unique<InputSet>(options);
  for (const auto& path : files) {
    out.set->begin_file(path);
    std::string err;
    if (!read_file_chunks(
            path, [&](const unsigned char* d, size_t n) { out.set->feed(d, n); }, err))
      read_errors.push_back({path, err});
    out.set->end_file();
  }
  out.doc = out.set->finish();
  for (const auto* list : {&path_errors, &read_errors})
    for (const auto& e : *list)
      out.doc["errors"].push_back({{"path", e.path}, {"line", nullptr}, {"offset", nullptr}, {"message", e.message}});
  return out;
}

bool parse_set_option(const std::string& key_value, nlohmann::json& options) {
  size_t eq = key_value.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  std::string raw = key_value.substr(eq + 1);
  nlohmann::json parsed = nlohmann::json::parse(raw, nullptr, false);
  options[key_value.substr(0, eq)] = parsed.is_discarded() ? nlohmann::json(raw) : parsed;
  return true;
}

std::string check_format_id(const std::string& id) { return FormatRegistry::builtin().unknown_format_message(id); }

int take_input_arg(const std::vector<std::string>& args, size_t& i, nlohmann::json& options,
                   std::vector<std::string>& paths) {
  const std::string& a = args[i];
  if (a == "--format" || a == "--set") {
    if (i + 1 >= args.size()) return usage_error(a + " needs a value");
    const std::string& value = args[++i];
    if (a == "--set") return parse_set_option(value, options) ? 0 : usage_error("--set needs KEY=VALUE");
    if (std::string bad = check_format_id(value); !bad.empty()) return usage_error(bad);
    options["format"] = value;
  } else if (a == "--") {
    paths.insert(paths.end(), args.begin() + static_cast<long>(i) + 1, args.end());
    i = args.size() - 1;
  } else if (a.size() > 1 && a[0] == '-') {
    return usage_error("unknown option '" + a + "'");
  } else {
    paths.push_back(a);
  }
  return 0;
}

}  // namespace gcscope::cli
