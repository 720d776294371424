#include "rbkit/probe.h"

#include <string>

namespace gcscope::rbkit {

// Every message and event is a msgpack map that starts with key 0 (event_type, 0-9) and key 1 (the
// timestamp: float64 ms, an integer, or msgpack's timestamp ext), e.g. 84 00 07 01 cb ... for an
// event_collection or 83 00 08 01 cb ... for the handshake reply. Counts such event maps in the head;
// one is enough when it starts the input, otherwise it must come within the first 4 KiB (damaged
// captures: a resynchronising reader finds it). Plain text can never match (it has no 0x00 bytes).
bool probe_capture(const Head& head, Identification& out) {
  std::string_view bytes = head.bytes();
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  const size_t n = bytes.size();
  auto timestamp_start = [](unsigned char c) {
    return c == 0xcb || c == 0xca || c <= 0x7f || (c >= 0xcc && c <= 0xcf) || c == 0xd6 || c == 0xd7 || c == 0xc7;
  };
  size_t first = std::string_view::npos, maps = 0;
  int first_type = -1;
  for (size_t i = 0; i + 5 <= n; ++i) {
    size_t k;
    if (b[i] >= 0x81 && b[i] <= 0x8f) k = i + 1;
    else if (b[i] == 0xde && i + 7 <= n) k = i + 3;  // map16 (gc_stats payloads of old servers use it)
    else continue;
    if (b[k] != 0x00 || b[k + 1] > 0x09 || b[k + 2] != 0x01 || !timestamp_start(b[k + 3])) continue;
    if (first == std::string_view::npos) {
      first = i;
      first_type = b[k + 1];
    }
    ++maps;
  }
  if (first == std::string_view::npos || first > 4096) return false;
  static const char* const kTypes[] = {"obj_created", "obj_destroyed",     "gc_start", "gc_end_m",
                                       "gc_end_s",    "object_space_dump", "gc_stats", "event_collection",
                                       "handshake",   "cpu_sample"};
  nlohmann::json d = {{"first_event_type", first_type}, {"event_maps_in_head", maps}};
  if (first) d["first_event_offset"] = first;
  size_t unused = 0;
  while (unused < first && b[unused] == 0xc1) ++unused;
  if (unused) d["leading_invalid_bytes"] = unused;  // 0xC1 is never valid msgpack
  // The handshake reply names the protocol: "rbkit_protocol_version" then a fixstr.
  const std::string_view key = "\xb6rbkit_protocol_version";
  size_t at = bytes.find(key);
  if (at != std::string_view::npos && at + key.size() < n) {
    unsigned char h = b[at + key.size()];
    size_t len = h >= 0xa0 && h <= 0xbf ? h & 0x1f : 0;
    if (len && at + key.size() + 1 + len <= n)
      d["protocol_version"] = std::string(bytes.substr(at + key.size() + 1, len));
  }
  out.reason = std::to_string(maps) +
               " msgpack map(s) starting with event_type (key 0) and timestamp (key 1); the first, at byte " +
               std::to_string(first) + ", is " + kTypes[first_type];
  out.details = std::move(d);
  return true;
}

}  // namespace gcscope::rbkit
