// What the subcommands that read inputs share: forming one input set from PATHs exactly as
// `gcscope analyze` does, and the options every one of them takes (--format, --set).
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/input_set.h"

namespace gcscope::cli {

// An analyzed input set, still alive for queries, and its document (read and path errors included).
struct LoadedSet {
  std::unique_ptr<InputSet> set;
  nlohmann::json doc;
};
LoadedSet load_input_set(const std::vector<std::string>& paths, const nlohmann::json& options);

// `--set KEY=VALUE` into options: VALUE as JSON when it is valid JSON, else as a string. False when
// the text has no KEY.
bool parse_set_option(const std::string& key_value, nlohmann::json& options);

// `--format ID`: "" when ID is a registered format, else the usage error's text.
std::string check_format_id(const std::string& id);

// Takes args[i] when it is an argument every input-reading subcommand shares: `--format ID`,
// `--set KEY=VALUE`, `--` (every later argument is a PATH) or a PATH; any other argument starting
// with '-' is an unknown option. Leaves i on the last argument it took, so the caller's loop goes on
// after it. Returns 0, or the exit status of the usage error it printed.
int take_input_arg(const std::vector<std::string>& args, size_t& i, nlohmann::json& options,
                   std::vector<std::string>& paths);

}  // namespace gcscope::cli
