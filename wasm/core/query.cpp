#include "query.h"

#include <cmath>

namespace gcscope::query_args {

namespace {
const nlohmann::json* find(const nlohmann::json& args, const char* key) {
  if (!args.is_object()) return nullptr;
  auto it = args.find(key);
  if (it == args.end() || it->is_null()) return nullptr;
  return &*it;
}
}  // namespace

double number(const nlohmann::json& args, const char* key, double fallback) {
  const nlohmann::json* v = find(args, key);
  if (!v) return fallback;
  if (!v->is_number()) throw QueryError(std::string("argument '") + key + "' must be a number");
  return v->get<double>();
}

int64_t integer(const nlohmann::json& args, const char* key, int64_t fallback, int64_t lo, int64_t hi) {
  const nlohmann::json* v = find(args, key);
  if (!v) return fallback;
  double d = v->is_number() ? v->get<double>() : NAN;
  if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi))
    throw QueryError(std::string("argument '") + key + "' must be an integer from " + std::to_string(lo) + " to " +
                     std::to_string(hi));
  return static_cast<int64_t>(d);
}

std::string string(const nlohmann::json& args, const char* key, const std::string& fallback) {
  const nlohmann::json* v = find(args, key);
  if (!v) return fallback;
  if (!v->is_string()) throw QueryError(std::string("argument '") + key + "' must be a string");
  return v->get<std::string>();
}

bool boolean(const nlohmann::json& args, const char* key, bool fallback) {
  const nlohmann::json* v = find(args, key);
  if (!v) return fallback;
  if (!v->is_boolean()) throw QueryError(std::string("argument '") + key + "' must be true or false");
  return v->get<bool>();
}

const nlohmann::json& required(const nlohmann::json& args, const char* key) {
  const nlohmann::json* v = find(args, key);
  if (!v) throw QueryError(std::string("missing argument '") + key + "'");
  return *v;
}

}  // namespace gcscope::query_args
