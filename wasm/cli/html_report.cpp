#include "html_report.h"

#include <ctime>
#include <string_view>

#include "core/raw_json.h"
#include "report_assets.h"

namespace gcscope::cli {

namespace {

// Text inlined into <script>/<style> must not end the element early (same rule as web/embed.js).
std::string no_close_tag(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 64);
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '<' && i + 1 < s.size() && s[i + 1] == '/' && i + 7 < s.size()) {
      std::string_view tag = s.substr(i + 2, 6);
      auto lower = [](std::string_view t) {
        std::string r(t);
        for (auto& c : r) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
        return r;
      };
      std::string t = lower(tag);
      if (t == "script" || t.substr(0, 5) == "style") {
        out += "<\\/";
        ++i;
        continue;
      }
    }
    if (s.substr(i, 4) == "<!--") {
      out += "<\\!--";
      i += 3;
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

std::string escape_html(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&#60;"; break;
      case '>': out += "&#62;"; break;
      case '&': out += "&#38;"; break;
      case '"': out += "&#34;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string json_for_script(const nlohmann::json& doc) {
  std::string text = gcscope::raw_json::dump_document(doc);
  std::string out;
  out.reserve(text.size() + 64);
  for (char c : text) {
    if (c == '<') out += "\\u003c";
    else out.push_back(c);
  }
  return out;
}

}  // namespace

std::string render_html_report(const nlohmann::json& document) {
  const ReportAssets& a = report_assets();
  std::string title = "gcscope report — ";
  bool first = true;
  for (const auto& in : document.value("inputs", nlohmann::json::array())) {
    title += (first ? "" : ", ") + in.value("path", std::string());
    first = false;
  }
  char date[64];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::string_view tpl = a.template_html;
  std::string out;
  size_t pos = 0;
  while (pos < tpl.size()) {
    size_t open = tpl.find("{{", pos);
    if (open == std::string_view::npos) {
      out.append(tpl.substr(pos));
      break;
    }
    out.append(tpl.substr(pos, open - pos));
    size_t close = tpl.find("}}", open);
    std::string_view key = tpl.substr(open + 2, close - open - 2);
    if (key == "TITLE") out += escape_html(title);
    else if (key == "STYLE") out += no_close_tag(std::string(a.uplot_css) + "\n" + a.style_css);
    else if (key == "DATE") out += date;
    else if (key == "DATA") out += json_for_script(document);
    else if (key == "SCRIPTS") out += no_close_tag(a.uplot_js) + "\n" + no_close_tag(a.bundle_js);
    else out.append(tpl.substr(open, close + 2 - open));
    pos = close + 2;
  }
  return out;
}

}  // namespace gcscope::cli
