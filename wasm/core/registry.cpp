#include <algorithm>

#include "analyzer.h"
#include "query.h"

namespace gcscope {

nlohmann::json Analyzer::query(const std::string& method, const nlohmann::json&) {
  throw QueryError("unknown method '" + method + "'");
}

void FormatRegistry::add(FormatHandler handler) {
  handler.domain = domain_;
  auto same =
      std::find_if(handlers_.begin(), handlers_.end(), [&](const FormatHandler& h) { return h.id == handler.id; });
  if (same != handlers_.end()) *same = std::move(handler);
  else handlers_.push_back(std::move(handler));
  rank_probes();
}

void FormatRegistry::add_domain(const std::string& name, void (*register_fn)(FormatRegistry&)) {
  domain_ = name;
  register_fn(*this);
  domain_.clear();
}

// Every probe in the order identification runs them: by rank, equal ranks in registration order.
void FormatRegistry::rank_probes() {
  ranked_.clear();
  for (size_t k = 0; k < core_probes_.size(); ++k) ranked_.push_back({core_probes_[k].rank, kCoreProbe, k});
  for (size_t h = 0; h < handlers_.size(); ++h)
    for (size_t k = 0; k < handlers_[h].probes.size(); ++k) ranked_.push_back({handlers_[h].probes[k].rank, h, k});
  std::stable_sort(ranked_.begin(), ranked_.end(),
                   [](const RankedProbe& a, const RankedProbe& b) { return a.rank < b.rank; });
}

const FormatHandler* FormatRegistry::find(std::string_view id) const {
  for (const auto& h : handlers_)
    if (h.id == id) return &h;
  return nullptr;
}

nlohmann::json FormatRegistry::describe() const {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& h : handlers_)
    out.push_back({{"id", h.id},
                   {"title", h.title},
                   {"domain", h.domain},
                   {"accepts_many_members", h.accepts_many_members},
                   {"methods", h.methods},
                   {"compare_family", h.compare_family},
                   {"memory_per_input_byte", h.memory_per_input_byte},
                   {"lighter", h.lighter}});
  return out;
}

std::string FormatRegistry::unknown_format_message(std::string_view id) const {
  if (find(id)) return "";
  std::string ids;
  for (const auto& h : handlers_) ids += (ids.empty() ? "" : ", ") + h.id;
  return "unknown format '" + std::string(id) + "'; known formats: " + ids;
}

const FormatRegistry& FormatRegistry::builtin() {
  static const FormatRegistry registry = [] {
    FormatRegistry r;
    register_builtin_domains(r);
    return r;
  }();
  return registry;
}

}  // namespace gcscope
