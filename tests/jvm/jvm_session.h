// A JVM analysis kept alive to be asked questions, as the worker and `gcscope query` keep it, and
// the pauses of a unified log counted from its text with regular expressions, independently of the
// parser, for the tests of jvm.summary, jvm.series and jvm.events.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/input_set.h"
#include "core/raw_json.h"
#include "support.h"

namespace gcscope::test {

class JvmSession {
 public:
  explicit JvmSession(const std::vector<std::string>& paths, nlohmann::json options = nlohmann::json::object())
      : set_(std::move(options)) {
    for (const auto& p : paths) add(p, read_file(p));
    finish();
  }
  // One input given as its name and bytes.
  JvmSession(const std::string& name, const std::string& bytes) {
    add(name, bytes);
    finish();
  }
  const nlohmann::json& report() const { return report_of(doc_, "jvm-gc-log"); }
  nlohmann::json ask(const std::string& method, nlohmann::json args = nlohmann::json::object()) {
    nlohmann::json answer = set_.query(method, args);
    raw_json::resolve(answer);
    return answer;
  }

 private:
  void add(const std::string& name, const std::string& bytes) {
    set_.begin_file(name);
    for (size_t off = 0; off < bytes.size(); off += 1 << 20)
      set_.feed(reinterpret_cast<const uint8_t*>(bytes.data()) + off, std::min<size_t>(1 << 20, bytes.size() - off));
    set_.end_file();
  }
  void finish() {
    doc_ = set_.finish();
    raw_json::resolve(doc_);
  }
  InputSet set_;
  nlohmann::json doc_;
};

// One "GC(n) Pause <Kind> … <d>ms" line of a unified log with uptime decorations: its start is the
// uptime of the "[gc,start] GC(n) Pause <Kind>" line of the same collection, its duration the
// figure at the end of the line, in microseconds (the log prints 3 decimals of ms).
struct TextPause {
  double start_s;
  int64_t us;
  std::string kind;  // "Pause Young", "Pause Remark", …
  std::string text;  // the whole end line
};

inline std::vector<TextPause> text_pauses(const std::string& path) {
  static const std::regex start_re(R"(^\[(\d+\.\d+)s\]\[info\s*\]\[gc,start\s*\] GC\((\d+)\) (Pause \w+))");
  static const std::regex end_re(R"(^\[\d+\.\d+s\]\[info\s*\]\[gc\s*\] GC\((\d+)\) (Pause \w+).* (\d+)\.(\d{3})ms$)");
  std::map<std::pair<std::string, std::string>, double> starts;
  std::vector<TextPause> out;
  std::istringstream in(read_file(path));
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (line.find("Pause") == std::string::npos) continue;
    if (std::regex_search(line, m, start_re)) {
      starts[{m[2], m[3]}] = std::stod(m[1]);
    } else if (std::regex_search(line, m, end_re)) {
      auto it = starts.find({m[1], m[2]});
      if (it == starts.end()) continue;
      out.push_back({it->second, std::stoll(m[3]) * 1000 + std::stoll(m[4]), m[2], line});
    }
  }
  return out;
}

// The pauses of `all` that start in [t0, t1].
inline std::vector<TextPause> starting_in(const std::vector<TextPause>& all, double t0, double t1) {
  std::vector<TextPause> out;
  for (const auto& p : all)
    if (p.start_s >= t0 && p.start_s <= t1) out.push_back(p);
  return out;
}

// Nearest-rank percentile of sorted durations: the smallest value with at least q of them at or below it.
inline int64_t nearest_rank(const std::vector<int64_t>& sorted, double q) {
  size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::min(std::max<size_t>(rank, 1), sorted.size()) - 1];
}

}  // namespace gcscope::test
