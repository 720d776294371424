#include <cstdlib>
#include <fstream>
#include <iostream>

#include "commands.h"
#include "core/identify.h"
#include "core/input_set.h"
#include "core/raw_json.h"
#include "file_walk.h"
#include "html_report.h"
#include "input_loader.h"

namespace gcscope::cli {

namespace {

struct AnalyzeArgs {
  std::vector<std::string> paths;
  nlohmann::json options = nlohmann::json::object();
  bool pretty = false;
  std::string html_out;        // --html FILE
  int fail_on = -1;            // --fail-on SEVERITY: rank, -1 = off
  double max_p99_ms = -1;      // --max-p99-ms N
  std::string follow;          // --follow FILE
  FollowLimits follow_limits;  // --interval, --max-intervals, --follow-for
};

// The number *v when it is above 0 (or 0 when `zero_ok`), else -1 (also when v is null).
double positive_number(const std::string* v, bool zero_ok) {
  if (!v) return -1;
  char* end = nullptr;
  double x = std::strtod(v->c_str(), &end);
  if (end == v->c_str() || *end || !(x > 0 || (zero_ok && x == 0))) return -1;
  return x;
}

// Finding severities, lowest first (a finding's "severity" field).
const char* const kSeverities[] = {"info", "warning", "error", "critical"};
int severity_rank(const std::string& s) {
  for (int i = 0; i < 4; ++i)
    if (s == kSeverities[i]) return i;
  return -1;
}

// Returns 0 when parsed, otherwise the exit status of the usage error.
int parse_analyze_args(const std::vector<std::string>& args, AnalyzeArgs& out) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string* {
      if (i + 1 >= args.size()) return nullptr;
      return &args[++i];
    };
    if (a == "--diff") {
      // Ruby heap dumps: list objects allocated after the first dump and alive in the last (2 or 3 dumps).
      out.options["heap_diff"] = true;
    } else if (a == "--pretty") {
      out.pretty = true;
    } else if (a == "--html") {
      const std::string* v = value();
      if (!v) return usage_error("--html needs an output file name");
      out.html_out = *v;
    } else if (a == "--fail-on") {
      const std::string* v = value();
      if (!v || severity_rank(*v) < 0)
        return usage_error("--fail-on needs a severity: info, warning, error or critical");
      out.fail_on = severity_rank(*v);
    } else if (a == "--max-p99-ms") {
      const std::string* v = value();
      char* end = nullptr;
      double ms = v ? std::strtod(v->c_str(), &end) : -1;
      if (!v || end == v->c_str() || *end || ms < 0) return usage_error("--max-p99-ms needs a number of milliseconds");
      out.max_p99_ms = ms;
    } else if (a == "--follow") {
      const std::string* v = value();
      if (!v) return usage_error("--follow needs a FILE");
      out.follow = *v;
    } else if (a == "--interval") {
      double s = positive_number(value(), false);
      if (s < 0) return usage_error("--interval needs a number of seconds greater than 0");
      out.follow_limits.interval_s = s;
    } else if (a == "--max-intervals") {
      double n = positive_number(value(), false);
      if (n < 1 || n != static_cast<double>(static_cast<int64_t>(n)))
        return usage_error("--max-intervals needs a whole number of at least 1");
      out.follow_limits.max_intervals = static_cast<int64_t>(n);
    } else if (a == "--follow-for") {
      double s = positive_number(value(), false);
      if (s < 0) return usage_error("--follow-for needs a number of seconds greater than 0");
      out.follow_limits.follow_for_s = s;
    } else if (int rc = take_input_arg(args, i, out.options, out.paths)) {
      return rc;
    }
  }
  if (!out.follow.empty() && !out.paths.empty()) return usage_error("--follow FILE takes no other PATH");
  if (out.follow.empty() && out.paths.empty()) return usage_error("analyze needs at least one PATH");
  return 0;
}

// CI gates: exit 4 (and say why on stderr) when a finding reaches --fail-on's severity or a JVM
// report's p99 pause exceeds --max-p99-ms.
int gate_status(const nlohmann::json& doc, const AnalyzeArgs& a) {
  int failed = 0;
  for (const auto& r : doc["reports"]) {
    std::string inputs = r.contains("inputs") ? r["inputs"].dump() : "";
    if (a.fail_on >= 0 && r.contains("findings") && r["findings"].is_array()) {
      for (const auto& f : r["findings"]) {
        std::string sev = f.value("severity", "");
        if (severity_rank(sev) >= a.fail_on) {
          std::cerr << "gcscope: " << sev << " finding " << f.value("id", "") << " in " << inputs << ": "
                    << f.value("message", "") << "\n";
          ++failed;
        }
      }
    }
    if (a.max_p99_ms >= 0 && r.contains("pauses") && r["pauses"].is_object() && r["pauses"].contains("p99_s") &&
        r["pauses"]["p99_s"].is_number()) {
      double p99_ms = r["pauses"]["p99_s"].get<double>() * 1000.0;
      if (p99_ms > a.max_p99_ms) {
        std::cerr << "gcscope: p99 pause " << p99_ms << " ms in " << inputs << " exceeds --max-p99-ms " << a.max_p99_ms
                  << "\n";
        ++failed;
      }
    }
  }
  return failed ? 4 : 0;
}

}  // namespace

int run_analyze(const std::vector<std::string>& args) {
  AnalyzeArgs a;
  if (int rc = parse_analyze_args(args, a)) return rc;
  if (!a.follow.empty()) return run_follow(a.follow, a.options, a.follow_limits);
  nlohmann::json doc = load_input_set(a.paths, a.options).doc;
  std::cout << gcscope::raw_json::dump_document(doc, a.pretty ? 2 : -1) << "\n";
  if (!a.html_out.empty()) {
    std::ofstream html(a.html_out, std::ios::binary);
    html << render_html_report(doc);
    if (!html) {
      std::cerr << "gcscope: cannot write " << a.html_out << "\n";
      return 2;
    }
  }
  int status = InputSet::exit_status(doc);
  if (status != 0) return status;
  return gate_status(doc, a);
}

// `gcscope identify PATH...`: one line per member, "path<TAB>format<TAB>reason" (quick triage).
int run_identify(const std::vector<std::string>& args) {
  AnalyzeArgs a;
  if (int rc = parse_analyze_args(args, a)) return rc;
  std::vector<PathError> path_errors;
  int recognized = 0, total = 0;
  for (const auto& path : expand_paths(a.paths, path_errors)) {
    InputSet set;
    set.begin_file(path);
    std::string err;
    read_file_chunks(
        path, [&](const unsigned char* d, size_t n) { set.feed(d, n); }, err);
    set.end_file();
    nlohmann::json doc = set.finish();
    for (const auto& in : doc["inputs"]) {
      auto print = [&](const nlohmann::json& m) {
        ++total;
        std::string fmt = m.value("format", "unrecognized");
        if (fmt != "unrecognized") ++recognized;
        std::cout << m.value("path", "") << '\t' << fmt << '\t'
                  << m["identification"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
      };
      if (in["members"].empty()) print(in);
      for (const auto& m : in["members"]) print(m);
    }
  }
  for (const auto& e : path_errors) std::cerr << e.path << ": " << e.message << "\n";
  return recognized > 0 ? 0 : 3;
}

}  // namespace gcscope::cli
