// Format identification: "what is this file?" from its first decoded bytes, never from its name.
// Each format registers probes (FormatHandler::probes, in its domain folder) that look for evidence
// in the head; tool output often starts with prose (e.g. BCC's *_example.txt), so probes look at many
// lines, not just the first. Probes of all formats run in rank order and the first that decides
// wins; the result carries the evidence, so a wrong guess is explainable.
#pragma once
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace gcscope {

namespace format_id {
inline constexpr const char* kUnrecognized = "unrecognized";
}  // namespace format_id

struct Identification {
  std::string format = format_id::kUnrecognized;
  std::string reason;                                 // the evidence (or, when unrecognized, what was looked for)
  nlohmann::json details = nlohmann::json::object();  // e.g. {"unified":true,"collector":"G1"} or {"encoding":"json"}
  bool recognized() const { return format != format_id::kUnrecognized; }
};

// How many decoded bytes identification wants before deciding (less is fine at end of input).
inline constexpr size_t kIdentifyHeadBytes = 64 * 1024;

// What a probe looks at: the first decoded bytes of one member, with the views text probes share.
class Head {
 public:
  Head(std::string_view bytes, bool complete);
  // As decoded (binary probes read these).
  std::string_view bytes() const { return bytes_; }
  // Without a UTF-8 byte order mark (text probes read these).
  std::string_view text() const { return text_; }
  // Whether the head is the whole input (so its last line is complete).
  bool complete() const { return complete_; }
  // The first 2000 lines of text() without "\r\n" ends; an unfinished last line only when complete().
  // A head without any newline is one line (legacy JVM logs without newlines between records).
  const std::vector<std::string_view>& lines() const;
  // Offset of the first non-blank byte of text(), and that byte ('\0' when there is none).
  size_t first() const { return first_; }
  char first_char() const { return first_ < text_.size() ? text_[first_] : '\0'; }
  // Where JSON-lines probes look for their first record: the first non-blank line (at most 4 KiB),
  // or the first 4 KiB of text() when that line is shorter than 8 bytes (pretty-printed JSON puts
  // only "{" on it).
  std::string_view first_record() const;

  // Evidence computed once per head and shared by one domain's probes (e.g. the tracing formats'
  // line tallies): compute(*this) on the first call, the same object afterwards.
  template <class T>
  const T& memo(T (*compute)(const Head&)) const {
    const void* key = reinterpret_cast<const void*>(compute);
    for (const auto& m : memos_)
      if (m.first == key) return *static_cast<const T*>(m.second.get());
    auto value = std::make_shared<T>(compute(*this));
    memos_.emplace_back(key, value);
    return *value;
  }

 private:
  std::string_view bytes_, text_;
  bool complete_;
  size_t first_;
  mutable std::vector<std::string_view> lines_;
  mutable bool have_lines_ = false;
  mutable std::vector<std::pair<const void*, std::shared_ptr<void>>> memos_;
};

// A probe decides (returns true) or passes (false). Before it runs, `out` names its format with an
// empty reason; a probe that decides fills the reason and details. It may instead set out.format to
// format_id::kUnrecognized when the head is surely a near miss of its format that no other probe
// should take (a Ruby Marshal stream without stackprof's keys), with the reason why.
using ProbeFunction = std::function<bool(const Head&, Identification&)>;

// Probes run lowest rank first; the bands keep precedence readable across domain folders:
namespace probe_rank {
inline constexpr int kBinary = 100;      // byte signatures (Marshal, msgpack), before the binary gate
inline constexpr int kBinaryGate = 200;  // core: other binary data is refused here
inline constexpr int kJson = 300;        // JSON documents and JSON lines
inline constexpr int kLog = 400;         // line-oriented logs (JVM)
inline constexpr int kToolOutput = 500;  // text output of tracing tools, folded stacks
inline constexpr int kJsonGate = 800;    // core: other JSON is refused here
inline constexpr int kNearMiss = 900;    // weak evidence, after everything else (Java application output)
}  // namespace probe_rank

struct Probe {
  int rank;
  ProbeFunction decide;
};

// Identification by the built-in registry's probes (FormatRegistry::identify).
Identification identify(std::string_view head, bool complete);

}  // namespace gcscope
