// Identification: the Head probes read, core's own refusals, and the rank-ordered run of every
// registered format's probes (the probes themselves live in the domain folders).
#include "identify.h"

#include <algorithm>

#include "analyzer.h"
#include "text_scan.h"

namespace gcscope {

namespace {

constexpr size_t kHeadLines = 2000;

// Every registered title, for reasons that say what was looked for.
std::string titles(const FormatRegistry& registry) {
  std::string out;
  for (const auto& h : registry.handlers()) out += (out.empty() ? "" : ", ") + h.title;
  return out;
}

// Binary data that no binary probe took: text probes would only find noise in it.
bool refuse_binary(const FormatRegistry&, const Head& head, Identification& out) {
  std::string_view t = head.text();
  size_t control = 0, probe_len = std::min<size_t>(t.size(), 4096);
  for (size_t i = 0; i < probe_len; ++i) {
    unsigned char c = static_cast<unsigned char>(t[i]);
    if (c < 9 || (c > 13 && c < 32)) ++control;
  }
  if (control * 20 <= probe_len) return false;
  out.reason = "binary data (" + std::to_string(control) + " control bytes in the first " + std::to_string(probe_len) +
               ") that no format's probe recognizes";
  return true;
}

// JSON that no JSON probe took (it is checked after the log and tool probes: a unified JVM log line
// starts with '[' too).
bool refuse_json(const FormatRegistry& registry, const Head& head, Identification& out) {
  if (head.first_char() != '{' && head.first_char() != '[') return false;
  out.reason = "JSON, but not one of the formats gcscope reads (" + titles(registry) + ")";
  return true;
}

bool refuse_markup(const FormatRegistry&, const Head& head, Identification& out) {
  if (head.first_char() != '<') return false;
  out.reason = "looks like HTML/XML, not the output of a supported tool";
  return true;
}

}  // namespace

Head::Head(std::string_view bytes, bool complete) : bytes_(bytes), text_(bytes), complete_(complete) {
  if (text::starts_with(text_, "\xEF\xBB\xBF")) text_.remove_prefix(3);
  first_ = text::skip_ws(text_, 0);
}

const std::vector<std::string_view>& Head::lines() const {
  if (have_lines_) return lines_;
  have_lines_ = true;
  size_t pos = 0;
  while (pos < text_.size() && lines_.size() < kHeadLines) {
    size_t nl = text_.find('\n', pos);
    if (nl == std::string_view::npos) {
      if (complete_) lines_.push_back(text_.substr(pos));
      break;
    }
    std::string_view line = text_.substr(pos, nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines_.push_back(line);
    pos = nl + 1;
  }
  if (lines_.empty()) lines_.push_back(text_);
  return lines_;
}

std::string_view Head::first_record() const {
  std::string_view first_line;
  for (auto l : lines())
    if (!text::trim(l).empty()) {
      first_line = text::trim(l);
      break;
    }
  return first_line.size() < 8 ? text_.substr(0, 4096) : first_line.substr(0, 4096);
}

FormatRegistry::FormatRegistry() {
  core_probes_ = {{probe_rank::kBinaryGate, refuse_binary},
                  {probe_rank::kJsonGate, refuse_json},
                  {probe_rank::kNearMiss + 50, refuse_markup}};
  rank_probes();
}

bool FormatRegistry::run(const RankedProbe& p, const Head& head, Identification& out) const {
  out = Identification{};
  if (p.handler == kCoreProbe) return core_probes_[p.probe].decide(*this, head, out);
  out.format = handlers_[p.handler].id;
  return handlers_[p.handler].probes[p.probe].decide(head, out);
}

Identification FormatRegistry::identify(std::string_view bytes, bool complete) const {
  Identification out;
  if (bytes.empty()) {
    out.reason = "empty input (0 bytes)";
    return out;
  }
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
      static_cast<unsigned char>(bytes[1]) == 0x8b) {
    out.reason = "gzip data nested where decoded text was expected";
    return out;
  }
  Head head(bytes, complete);
  for (const auto& p : ranked_)
    if (run(p, head, out)) return out;
  out = Identification{};
  out.reason = "text matching none of the formats gcscope reads (" + titles(*this) + ")";
  return out;
}

Identification FormatRegistry::identify_as(const FormatHandler& format, std::string_view bytes, bool complete) const {
  Head head(bytes, complete);
  Identification out;
  for (const auto& p : ranked_) {
    if (p.handler == kCoreProbe || handlers_[p.handler].id != format.id) continue;
    if (run(p, head, out) && out.format == format.id) return out;
  }
  out = Identification{};
  out.format = format.id;
  return out;
}

Identification identify(std::string_view head, bool complete) {
  return FormatRegistry::builtin().identify(head, complete);
}

}  // namespace gcscope
