#include "stackprof/probe.h"

#include <cstring>
#include <string>

#include "core/text_scan.h"

namespace gcscope::stackprof {

namespace {

bool marshal_magic(std::string_view b) {
  if (b.size() < 2) return false;
  auto major = static_cast<unsigned char>(b[0]), minor = static_cast<unsigned char>(b[1]);
  return (major == 4 || major == 3) && minor <= 12;
}

// A Symbol in a Marshal stream: ":" then its length (Marshal packs small ints as n+5) and name.
bool marshal_symbol(std::string_view head, const char* name) {
  std::string needle(":");
  needle.push_back(static_cast<char>(std::strlen(name) + 5));
  needle += name;
  return head.find(needle) != std::string_view::npos;
}

}  // namespace

bool probe_marshal(const Head& head, Identification& out) {
  std::string_view b = head.bytes();
  if (!marshal_magic(b)) return false;
  // A combined dump (stackprof A B --dump) re-keys frames but keeps the Symbol top-level keys.
  bool keys = marshal_symbol(b, "frames") || marshal_symbol(b, "mode") ||
              (marshal_symbol(b, "version") && marshal_symbol(b, "samples"));
  if (!keys) return false;
  std::string v =
      std::to_string(static_cast<unsigned char>(b[0])) + "." + std::to_string(static_cast<unsigned char>(b[1]));
  out.reason = "Ruby Marshal " + v + " stream holding stackprof's :mode/:frames keys";
  out.details = {{"encoding", "marshal"}, {"marshal_version", v}};
  return true;
}

bool refuse_other_marshal(const Head& head, Identification& out) {
  if (!marshal_magic(head.bytes())) return false;
  out.format = format_id::kUnrecognized;
  out.reason = "Ruby Marshal stream, but without stackprof's :mode/:frames keys";
  return true;
}

bool probe_json(const Head& head, Identification& out) {
  if (head.first_char() != '{') return false;
  std::string_view big = head.text().substr(0, 8192);
  if (!(text::contains(big, "\"mode\"") && (text::contains(big, "\"frames\"") || text::contains(big, "\"interval\"")) &&
        text::contains(big, "\"version\"")))
    return false;
  out.reason = "JSON object with stackprof's version/mode/frames keys";
  out.details = {{"encoding", "json"}};
  return true;
}

}  // namespace gcscope::stackprof
