// Format identification: "what is this file?" from its first decoded bytes, never from its name.
// Each format has a probe that looks for evidence in the head (tool output often starts with prose,
// e.g. BCC's *_example.txt, so probes look at many lines, not just the first) and the strongest
// evidence wins. The result carries the reason, so a wrong guess is explainable.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gcscope {

namespace format_id {
inline constexpr const char* kJvmGcLog = "jvm-gc-log";
inline constexpr const char* kTuneMyGc = "tunemygc-payload";
inline constexpr const char* kStackprof = "stackprof";
inline constexpr const char* kRubyHeapDump = "ruby-heap-dump";
inline constexpr const char* kRbkit = "rbkit-capture";
inline constexpr const char* kBpftraceText = "bpftrace-text";
inline constexpr const char* kBpftraceJson = "bpftrace-json";
inline constexpr const char* kFoldedStacks = "folded-stacks";
inline constexpr const char* kPerfScript = "perf-script";
inline constexpr const char* kBccOutput = "bcc-output";
inline constexpr const char* kUnrecognized = "unrecognized";
}  // namespace format_id

// Every format ID the product knows, in a stable order.
const char* const* all_format_ids(size_t* count);
bool is_known_format(std::string_view id);

struct Identification {
  std::string format = format_id::kUnrecognized;
  std::string reason;          // the evidence (or, when unrecognized, what was looked for)
  nlohmann::json details = nlohmann::json::object();  // e.g. {"unified":true,"collector":"G1"} or {"ruby_version":"3.1.2"}
  bool recognized() const { return format != format_id::kUnrecognized; }
};

// How many decoded bytes identification wants before deciding (less is fine at end of input).
inline constexpr size_t kIdentifyHeadBytes = 64 * 1024;

// `head` is the beginning of the decoded input; `complete` says it is the whole input.
Identification identify(std::string_view head, bool complete);

}  // namespace gcscope
