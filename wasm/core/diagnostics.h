// Diagnostics: precise, user-facing complaints about an input (file, line or byte offset, what was
// expected). Parsers never throw for bad input; they record here and keep whatever they already had.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gcscope {

struct Diagnostic {
  std::string path;                // the member path as the user sees it ("logs.zip/gc.log.1")
  int64_t line = -1;               // 1-based line, -1 when the input is not line-oriented
  int64_t offset = -1;             // 0-based byte offset in the decoded member, -1 when unknown
  std::string message;             // what was found and what was expected
  std::string severity = "error";  // "error" or "warning"
};

class Diagnostics {
 public:
  void error(std::string path, int64_t line, int64_t offset, std::string message) {
    items_.push_back({std::move(path), line, offset, std::move(message), "error"});
  }
  void warning(std::string path, int64_t line, int64_t offset, std::string message) {
    items_.push_back({std::move(path), line, offset, std::move(message), "warning"});
  }
  const std::vector<Diagnostic>& items() const { return items_; }
  size_t size() const { return items_.size(); }

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace gcscope
