// What every tracing analyzer shares: its input read line by line, everything it finds kept in one
// TraceData, whose tables and queries are the analyzer's. A format is a class Format deriving from
// LineAnalyzer<Format> that defines on_line and, when a member's end closes something (a table, a
// histogram, a sample), member_ended. Both are called on Format itself, not through a virtual call:
// on_line runs once per line of the input, and the line loop inlines it.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/analyzer.h"
#include "core/line_splitter.h"
#include "trace_model.h"
#include "tracing/tables.h"

namespace gcscope::tracing {

template <class Format>
class LineAnalyzer : public Analyzer {
 public:
  explicit LineAnalyzer(const AnalyzeOptions& options) : options_(options) {}

  void feed(const char* data, size_t len) override { feed_lines(data, len); }
  void end_member() override {
    finish_lines();
    format().member_ended();
  }

  std::vector<tables::Schema> tables() const override { return trace_tables(); }
  bool write_table(const std::string& name, tables::RowSink& sink) override {
    return write_trace_table(d_, current_path(), name, sink);
  }
  nlohmann::json query(const std::string& method, const nlohmann::json& args) override {
    return d_.query(method, args);
  }

 protected:
  // Format defines: void on_line(std::string_view line, uint64_t number, uint64_t offset): one line
  // of the input, its text (no line ending), its 1-based number, its byte offset.
  // After a member's last line (Format's own member_ended hides this one).
  void member_ended() {}

  void feed_lines(const char* data, size_t len) {
    lines_.feed(data, len, [&](std::string_view line, uint64_t n, uint64_t off) { format().on_line(line, n, off); });
  }
  void finish_lines() {
    lines_.finish([&](std::string_view line, uint64_t n, uint64_t off) { format().on_line(line, n, off); });
  }

  AnalyzeOptions options_;
  LineSplitter lines_;
  TraceData d_;

 private:
  Format& format() { return static_cast<Format&>(*this); }
};

}  // namespace gcscope::tracing
