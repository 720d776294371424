// What a note calls one side of those a SumSidesFunction (analyzer.h) sums: InputSet gives each
// side the paths of its report's inputs as "inputs", and the first path names the capture.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace gcscope {

// The side's first input path; "capture N" (N = i + 1) when it has none.
inline std::string side_label(const nlohmann::json& side, size_t i) {
  if (side.is_object() && side.contains("inputs") && side["inputs"].is_array() && !side["inputs"].empty() &&
      side["inputs"][0].is_string())
    return side["inputs"][0].get<std::string>();
  return "capture " + std::to_string(i + 1);
}

}  // namespace gcscope
