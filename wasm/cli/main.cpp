// gcscope: the native command line. `gcscope analyze FILE...` prints the same JSON report the web
// page renders; other subcommands are listed in kCommands.
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "core/version.h"

namespace gcscope::cli {

namespace {
const Command kCommands[] = {
    {"analyze",
     "analyze PATH... [--format ID] [--set KEY=VALUE] [--diff] [--pretty] [--html FILE] [--fail-on SEVERITY] [--max-p99-ms N]\n"
     "                 print the JSON report; --html also writes the self-contained HTML report\n"
     "analyze --follow FILE [--interval SECONDS] [--max-intervals N] [--follow-for SECONDS]\n"
     "                 follow a GC log as it grows: one JSON line per interval (pauses, what changed) until\n"
     "                 a limit or Ctrl+C; a truncated or replaced file continues as the log's next member",
     run_analyze},
    {"identify", "identify PATH...  print each input's format and the evidence, one line each", run_identify},
    {"stackprof",
     "stackprof [--text [--limit N] [--sort-total] [--select-files P] [--reject-files P] [--select-names RE] [--reject-names RE]] [--method RE] [--file PART] [--files] [--graphviz] [--callgrind] [--stackcollapse] [--flamegraph] [--alphabetical-flamegraph] [--d3-flamegraph] [--json] DUMP...  stackprof's reports",
     run_stackprof},
    {"compare",
     "compare A B [--format ID] [--set KEY=VALUE] [--fail-on-regression PCT] [--pretty]  two analyses compared, with deltas (JSON)",
     run_compare},
    {"query",
     "query PATH... --method NAME [--args JSON] [--format ID] [--set KEY=VALUE] [--pretty]\n"
     "                 ask the analysis one question: {\"result\": ...} or {\"error\": ...} (exit 3)",
     run_query},
    {"formats", "formats  the registered formats, their titles and query methods (JSON)", run_formats},
    {"tables",
     "tables PATH... --out DIR [--as csv|ndjson] [--gzip] [-j N] [--from FILE] [--format ID] [--set KEY=VALUE]\n"
     "                 each PATH's tables (docs/TABLES.md), one file per table in DIR, rows of every input appended",
     run_tables},
    {"export",
     "export PATH... --to speedscope|pprof [--transforms JSON] -o FILE  the stacks as a speedscope or pprof file",
     run_export},
};

void print_usage(std::ostream& os) {
  os << "gcscope " << kVersion << " - runtime memory and performance analyzer\n\nusage:\n";
  for (const auto& c : kCommands) os << "  gcscope " << c.summary << "\n";
  os << "\nexit status: 0 analyzed, 2 usage error, 3 every input rejected (reasons in \"errors\"),\n"
        "             4 a --fail-on / --max-p99-ms gate failed (reasons on stderr)\n";
}
}  // namespace

int usage_error(const std::string& message) {
  std::cerr << "gcscope: " << message << "\n\n";
  print_usage(std::cerr);
  return 2;
}

}  // namespace gcscope::cli

int main(int argc, char** argv) {
  using namespace gcscope::cli;
  std::ios::sync_with_stdio(false);
  if (argc < 2) return usage_error("missing command");
  std::string cmd = argv[1];
  if (cmd == "--version" || cmd == "version") {
    std::cout << "gcscope " << gcscope::kVersion << "\n";
    return 0;
  }
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    print_usage(std::cout);
    return 0;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const auto& c : kCommands)
    if (cmd == c.name) return c.run(args);
  return usage_error("unknown command '" + cmd + "'");
}
