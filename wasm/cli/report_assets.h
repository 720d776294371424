// The viewer assets compiled into the CLI for `--html` (generated from web/ by
// scripts/embed_assets.cmake at build time).
#pragma once

namespace gcscope::cli {

struct ReportAssets {
  const char* template_html;  // web/report-template.html with {{TITLE}} {{STYLE}} {{DATE}} {{DATA}} {{SCRIPTS}}
  const char* style_css;
  const char* uplot_css;
  const char* uplot_js;
  const char* bundle_js;
};

const ReportAssets& report_assets();

}  // namespace gcscope::cli
