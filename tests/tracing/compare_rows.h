// The row of one probe in a tracing compare answer (tracing/compare.h); fails the test without it.
#pragma once
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace gcscope::test {

inline const nlohmann::json& probe_row(const nlohmann::json& cmp, const std::string& probe) {
  for (const auto& r : cmp["probes"])
    if (r["probe"] == probe) return r;
  FAIL("no compare row for " << probe);
  static nlohmann::json none;
  return none;
}

}  // namespace gcscope::test
