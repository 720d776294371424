// The CLI's subcommands. Each is `int run(args)` returning the process exit status
// (0 success, 2 usage error, 3 every input rejected); domains add theirs to the table in main.cpp.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gcscope::cli {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);
};

int run_analyze(const std::vector<std::string>& args);
int run_identify(const std::vector<std::string>& args);
int run_stackprof(const std::vector<std::string>& args);
int run_compare(const std::vector<std::string>& args);
int run_query(const std::vector<std::string>& args);    // cmd_query.cpp
int run_formats(const std::vector<std::string>& args);  // cmd_query.cpp
int run_tables(const std::vector<std::string>& args);   // cmd_tables.cpp
int run_export(const std::vector<std::string>& args);   // cmd_export.cpp

// `analyze --follow FILE`: one JSON line per interval until a limit or SIGINT (cmd_follow.cpp).
struct FollowLimits {
  double interval_s = 2;      // --interval SECONDS
  int64_t max_intervals = 0;  // --max-intervals N (0: no limit)
  double follow_for_s = 0;    // --follow-for SECONDS (0: no limit)
};
int run_follow(const std::string& path, nlohmann::json options, const FollowLimits& limits);

// Prints a usage error to stderr and returns 2.
int usage_error(const std::string& message);

}  // namespace gcscope::cli
