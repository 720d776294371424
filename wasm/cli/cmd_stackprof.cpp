// `gcscope stackprof [--text [--limit N] [--sort-total]] [--method RE] [--file FILTER] [--files]
//  [--graphviz] [--callgrind] [--stackcollapse] [--flamegraph] [--alphabetical-flamegraph]
//  [--d3-flamegraph] [--json] DUMP...`: stackprof 0.2.21's CLI reports, same bytes.
// Several dumps are summed like `stackprof a.dump b.dump`; gzip'd dumps are inflated.
// --d3-flamegraph differs on purpose: stackprof's page loads d3 and d3-flame-graph from CDNs
// (blank offline); ours is gcscope's self-contained HTML report of the same dumps (the page's
// stackprof view: flame graph with zoom/search/sandwich, tables), one file with no network use.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include <unistd.h>

#include "commands.h"
#include "core/gzip_decoder.h"
#include "core/input_set.h"
#include "file_walk.h"
#include "html_report.h"
#include "stackprof/profile.h"
#include "stackprof/reports.h"

namespace gcscope::cli {

namespace {

enum class Report {
  Text,
  Method,
  File,
  Files,
  Graphviz,
  Callgrind,
  Stackcollapse,
  Flamegraph,
  AlphabeticalFlamegraph,
  D3Flamegraph,
  Json
};

// --d3-flamegraph: the HTML report of the dumps, as `gcscope analyze --html` writes it.
int print_d3_flamegraph(const std::vector<std::string>& paths) {
  InputSet set(nlohmann::json{{"format", "stackprof"}});
  for (const auto& path : paths) {
    set.begin_file(path);
    std::string err;
    if (!read_file_chunks(
            path, [&](const unsigned char* d, size_t n) { set.feed(d, n); }, err))
      std::cerr << "gcscope stackprof: " << path << ": " << err << "\n";
    set.end_file();
  }
  nlohmann::json doc = set.finish();
  const nlohmann::json* report = nullptr;
  for (const auto& r : doc["reports"])
    if (r.value("format", "") == "stackprof") report = &r;
  for (const auto& e : doc["errors"])
    std::cerr << "gcscope stackprof: " << e.value("path", "") << ": " << e.value("message", "") << "\n";
  if (!report) return 3;
  if (!report->value("has_raw", false)) {
    std::cerr
        << "gcscope stackprof: profile does not include raw samples (add `raw: true` to collecting StackProf.run)\n";
    return 1;
  }
  std::string html = render_html_report(doc);
  std::fwrite(html.data(), 1, html.size(), stdout);
  return 0;
}

// File.readlines: lines keep their "\n"; the last may lack it.
bool read_source_lines(const std::string& file, std::vector<std::string>& lines) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t pos = 0;
  while (pos < all.size()) {
    size_t nl = all.find('\n', pos);
    size_t end = nl == std::string::npos ? all.size() : nl + 1;
    lines.push_back(all.substr(pos, end - pos));
    pos = end;
  }
  return true;
}

bool load_dump(const std::string& path, stackprof::Profile& out) {
  stackprof::DumpLoader loader;
  std::unique_ptr<GzipDecoder> gzip;
  bool decided = false, gzip_failed = false;
  std::string err;
  bool read = read_file_chunks(
      path,
      [&](const unsigned char* d, size_t n) {
        if (!decided) {
          decided = true;
          if (looks_gzip(d, n)) gzip = std::make_unique<GzipDecoder>();
        }
        if (gzip) {
          if (!gzip_failed && !gzip->feed(d, n, [&](const char* o, size_t k) { loader.feed(o, k); })) {
            gzip_failed = true;
            std::cerr << "gcscope stackprof: " << path << ": " << gzip->error() << "\n";
          }
        } else {
          loader.feed(reinterpret_cast<const char*>(d), n);
        }
      },
      err);
  if (!read) {
    std::cerr << "gcscope stackprof: " << path << ": " << err << "\n";
    return false;
  }
  if (gzip && !gzip_failed && !gzip->finish())
    std::cerr << "gcscope stackprof: " << path << ": " << gzip->error() << "\n";
  std::vector<stackprof::Problem> problems;
  bool ok = loader.finish(out, problems);
  for (const auto& p : problems) {
    std::cerr << "gcscope stackprof: " << path << ": " << (p.error ? "" : "warning: ");
    if (p.offset >= 0) std::cerr << "byte " << p.offset << ": ";
    std::cerr << p.message << "\n";
  }
  return ok;
}

}  // namespace

int run_stackprof(const std::vector<std::string>& args) {
  Report report = Report::Text;
  bool sort_total = false;
  long limit = -1;  // unset
  std::string method, file_filter;
  std::vector<std::string> paths;
  stackprof::TextFilters filters;
  // File.expand_path for --select-files/--reject-files: relative prefixes are taken from the cwd.
  auto expand = [](const std::string& p) {
    if (!p.empty() && p[0] == '/') return p;
    char buf[4096];
    std::string cwd = getcwd(buf, sizeof buf) ? buf : ".";
    return p.empty() ? cwd : cwd + "/" + p;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--text") report = Report::Text;
    else if (a == "--files") report = Report::Files;
    else if (a == "--graphviz") report = Report::Graphviz;
    else if (a == "--callgrind") report = Report::Callgrind;
    else if (a == "--stackcollapse") report = Report::Stackcollapse;
    else if (a == "--json") report = Report::Json;
    else if (a == "--flamegraph" || a == "--timeline-flamegraph") report = Report::Flamegraph;
    else if (a == "--alphabetical-flamegraph") report = Report::AlphabeticalFlamegraph;
    else if (a == "--d3-flamegraph") report = Report::D3Flamegraph;
    else if (a == "--file" || a.rfind("--file=", 0) == 0) {
      if (a.size() > 6) file_filter = a.substr(7);
      else if (i + 1 < args.size()) file_filter = args[++i];
      else return usage_error("--file needs a part of a file path");
      report = Report::File;
    } else if (a == "--sort-total") sort_total = true;
    else if (a == "--limit" || a.rfind("--limit=", 0) == 0) {
      std::string v = a.size() > 7 ? a.substr(8) : (i + 1 < args.size() ? args[++i] : "");
      char* end = nullptr;
      limit = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || limit < 0) return usage_error("--limit needs a number >= 0");
    } else if (a == "--method" || a.rfind("--method=", 0) == 0) {
      if (a.size() > 8) method = a.substr(9);
      else if (i + 1 < args.size()) method = args[++i];
      else return usage_error("--method needs a regular expression");
      report = Report::Method;
    } else if (a == "--select-files" || a == "--reject-files" || a == "--select-names" || a == "--reject-names") {
      if (i + 1 >= args.size()) return usage_error(a + " needs a value");
      const std::string& v = args[++i];
      if (a == "--select-files") filters.select_files.push_back(expand(v));
      else if (a == "--reject-files") filters.reject_files.push_back(expand(v));
      else if (a == "--select-names") filters.select_names.push_back(v);
      else filters.reject_names.push_back(v);
    } else if (a == "--") {
      paths.insert(paths.end(), args.begin() + static_cast<long>(i) + 1, args.end());
      break;
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option '" + a + "' for stackprof");
    } else {
      paths.push_back(a);
    }
  }
  if (paths.empty()) return usage_error("stackprof needs at least one DUMP");
  {
    std::string bad;
    if (!stackprof::check_filters(filters, bad)) return usage_error(bad);
  }

  if (report == Report::D3Flamegraph) return print_d3_flamegraph(paths);

  std::vector<stackprof::Profile> parts;
  for (const auto& path : paths) {
    stackprof::Profile p;
    if (load_dump(path, p)) parts.push_back(std::move(p));
  }
  if (parts.empty()) return 3;
  stackprof::Profile profile;
  std::string err;
  if (!stackprof::sum_profiles(parts, profile, err)) {
    std::cerr << "gcscope stackprof: " << err << "\n";
    return 1;
  }
  if (limit < 0) limit = report == Report::Graphviz ? 120 : 30;

  stackprof::Out out(stdout);
  bool ok = true;
  switch (report) {
    case Report::Text: stackprof::print_text(profile, out, sort_total, limit, &filters); break;
    case Report::Files: stackprof::print_files(profile, out, limit); break;
    case Report::Graphviz: stackprof::print_graphviz(profile, out, limit, 0.005); break;
    case Report::Callgrind: stackprof::print_callgrind(profile, out); break;
    case Report::Stackcollapse: ok = stackprof::print_stackcollapse(profile, out, err); break;
    case Report::Flamegraph: ok = stackprof::print_flamegraph(profile, out, false, err); break;
    case Report::AlphabeticalFlamegraph: ok = stackprof::print_flamegraph(profile, out, true, err); break;
    case Report::File: stackprof::print_file(profile, out, file_filter, read_source_lines); break;
    case Report::D3Flamegraph: break;
    case Report::Json: ok = stackprof::print_json(profile, out, err); break;
    case Report::Method: ok = stackprof::print_method(profile, out, method, read_source_lines, err); break;
  }
  out.flush();
  if (!ok) {
    std::cerr << "gcscope stackprof: " << err << "\n";
    return 1;
  }
  return 0;
}

}  // namespace gcscope::cli
