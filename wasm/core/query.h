// The query protocol: after its first report, an analysis session answers questions
// ({method, args} → result) from what its analyzers kept. The page asks these instead of computing
// anything itself, the CLI's `gcscope query` prints the same answers, and an embedding dashboard
// reaches them through postMessage. Method names are "<domain>.<what>" (e.g. "jvm.summary").
#pragma once
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace gcscope {

// A question that cannot be answered: unknown method, missing or malformed argument. The message
// is shown to the user as is, so it names the argument and what was expected.
class QueryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace query_args {

// args[key] as a number; `fallback` when absent or null; QueryError when present but not a number.
double number(const nlohmann::json& args, const char* key, double fallback);
// args[key] as an integer in [lo, hi]; `fallback` when absent or null.
int64_t integer(const nlohmann::json& args, const char* key, int64_t fallback, int64_t lo = 0,
                int64_t hi = std::numeric_limits<int64_t>::max());
// args[key] as a string; `fallback` when absent or null.
std::string string(const nlohmann::json& args, const char* key, const std::string& fallback = "");
// args[key] as a boolean; `fallback` when absent or null.
bool boolean(const nlohmann::json& args, const char* key, bool fallback);
// args[key] must be present.
const nlohmann::json& required(const nlohmann::json& args, const char* key);

}  // namespace query_args
}  // namespace gcscope
