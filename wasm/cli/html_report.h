// The self-contained HTML report (`gcscope analyze --html FILE`): the same single file the page's
// "Save as HTML report" writes, from the same template and viewer code.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace gcscope::cli {

std::string render_html_report(const nlohmann::json& document);

}  // namespace gcscope::cli
