#include "analyzer.h"
#include "query.h"

namespace gcscope {

nlohmann::json Analyzer::query(const std::string& method, const nlohmann::json&) {
  throw QueryError("unknown method '" + method + "'");
}

void FormatRegistry::add(FormatHandler handler) {
  for (auto& h : handlers_)
    if (h.id == handler.id) {
      h = std::move(handler);
      return;
    }
  handlers_.push_back(std::move(handler));
}

const FormatHandler* FormatRegistry::find(std::string_view id) const {
  for (const auto& h : handlers_)
    if (h.id == id) return &h;
  return nullptr;
}

const FormatRegistry& FormatRegistry::builtin() {
  static const FormatRegistry registry = [] {
    FormatRegistry r;
    register_jvm(r);
    register_rubygc(r);
    register_stackprof(r);
    register_heap(r);
    register_rbkit(r);
    register_tracing(r);
    return r;
  }();
  return registry;
}

namespace {
class IdentificationOnlyAnalyzer final : public Analyzer {
 public:
  void feed(const char*, size_t) override {}
  void finish(nlohmann::json&) override {}
};
}  // namespace

std::unique_ptr<Analyzer> make_identification_only_analyzer(const AnalyzeOptions&) {
  return std::make_unique<IdentificationOnlyAnalyzer>();
}

}  // namespace gcscope
