#include "rubygc/probe.h"

#include <string>

#include "core/text_scan.h"

namespace gcscope::rubygc {

namespace {

using text::contains;

// Reads a JSON string or null at `p`; returns the position after it, or npos.
size_t json_string_or_null(std::string_view s, size_t p, std::string* value, bool* is_null) {
  p = text::skip_ws(s, p);
  if (s.substr(p, 4) == "null") {
    *is_null = true;
    return p + 4;
  }
  if (p >= s.size() || s[p] != '"') return std::string_view::npos;
  *is_null = false;
  value->clear();
  for (size_t i = p + 1; i < s.size(); ++i) {
    if (s[i] == '\\') {
      if (++i < s.size()) value->push_back(s[i]);
    } else if (s[i] == '"') {
      return i + 1;
    } else {
      value->push_back(s[i]);
    }
  }
  return std::string_view::npos;
}

// TuneMyGC event names: strong evidence in any JSON that is not a well-formed payload.
bool has_events(std::string_view head) {
  int n = 0;
  for (const char* ev : {"\"BOOTED\"", "\"PROCESSING_STARTED\"", "\"PROCESSING_ENDED\"", "\"GC_CYCLE_STARTED\"",
                         "\"GC_CYCLE_ENDED\"", "\"TERMINATED\""})
    if (contains(head, ev)) ++n;
  return n >= 2;
}

}  // namespace

// [[token|null, "ruby version", "rails version", {env}, "agent version", ...], samples...]
bool probe_payload(const Head& head, Identification& out) {
  if (head.first_char() != '[') return false;
  std::string_view t = head.text();
  size_t p = text::skip_ws(t, head.first() + 1);
  if (p < t.size() && t[p] == ']' && text::skip_ws(t, p + 1) >= t.size()) {
    out.reason = "empty JSON array: a TuneMyGC payload without its header";
    out.details = {{"malformed", true}};
    return true;
  }
  if (p < t.size() && t[p] != '[' && has_events(t)) {
    out.reason = "JSON array with TuneMyGC event names but no header tuple first";
    out.details = {{"malformed", true}};
    return true;
  }
  if (p >= t.size() || t[p] != '[') return false;
  std::string token, ruby, rails;
  bool null_token = false, null_ruby = false, null_rails = false;
  p = json_string_or_null(t, p + 1, &token, &null_token);
  if (p == std::string_view::npos) return false;
  p = text::skip_ws(t, p);
  if (p >= t.size() || t[p] != ',') return false;
  nlohmann::json d = nlohmann::json::object();
  size_t q = json_string_or_null(t, p + 1, &ruby, &null_ruby);
  if (q != std::string_view::npos && !null_ruby) {
    d["ruby_version"] = ruby;
    q = text::skip_ws(t, q);
    if (q < t.size() && t[q] == ',' && json_string_or_null(t, q + 1, &rails, &null_rails) != std::string_view::npos &&
        !null_rails)
      d["rails_version"] = rails;
  }
  out.reason = "JSON array whose first element is a TuneMyGC header tuple";
  out.details = std::move(d);
  return true;
}

// E.g. {"header": [...], "samples": [...]}: the tuner rejects it with "payload must be a JSON array".
// An object without event names is not taken.
bool probe_wrapped_payload(const Head& head, Identification& out) {
  std::string_view t = head.text();
  if (head.first_char() != '{' || !has_events(t)) return false;
  if (!(contains(t, "\"heap_live_slot") || contains(t, "\"total_allocated_object") || contains(t, "RUBY_GC_")))
    return false;
  out.reason = "JSON object holding TuneMyGC header and samples (the protocol needs an array)";
  out.details = {{"malformed", true}};
  return true;
}

}  // namespace gcscope::rubygc
