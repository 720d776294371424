// The RUBY_GC_* environment variables per Ruby version: which names a given Ruby reads, their
// defaults, and the exact rules Ruby uses to accept or ignore a value. Every recommendation the tuner
// shows is checked here first, so it never prints something the target Ruby would ignore.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gcscope::rubygc {

struct RubyVersion {
  int major = 0, minor = 0, patch = 0;
  bool valid = false;
  std::string text;
  // Compares (major, minor, patch) against the given triple.
  bool at_least(int M, int m, int p = 0) const {
    if (major != M) return major > M;
    if (minor != m) return minor > m;
    return patch >= p;
  }
  std::string series() const { return std::to_string(major) + "." + std::to_string(minor); }
};
// "3.1.2", "2.2.0", "3.4.1", "3.3.0-preview1" (suffixes after the numbers are kept in text only).
RubyVersion parse_ruby_version(std::string_view s);
// Compares dotted numeric versions ("1.0.15" < "1.0.53"); non-numeric parts count as 0.
int compare_dotted(std::string_view a, std::string_view b);

enum class ParamKind {
  kSize,    // get_envparam_size: strtoll(base 0) + optional k/m/g, trailing spaces, must be > lower bound
  kDouble,  // get_envparam_double: strtod over the whole string, (lower, upper], optional exact 0
};

struct GcParam {
  const char* name;
  ParamKind kind;
  // Versions reading it: [since, until) as major*100+minor (until 0 = still read).
  int since, until;
  double default_value;  // 0 for "off" sizes (GROWTH_MAX_SLOTS)
  double lower_bound;    // value must be > lower_bound
  double upper_bound;    // 0 = none (gc.c: "ignore upper_bound if it is 0.0")
  bool accept_zero;      // doubles: exactly 0 accepted despite the lower bound
  const char* what;      // one line: what it controls
  const char* source;    // where the fact comes from
};

// The whole table (every name any supported version reads, plus per-heap names 0..4).
const std::vector<GcParam>& gc_params();
// The entry for `name` if `version` reads it, else nullptr.
const GcParam* find_param(std::string_view name, const RubyVersion& version);
// The entry regardless of version (to explain "removed in 3.3" / "new in 2.4").
const GcParam* find_param_any_version(std::string_view name);

// Agent-control variables the TuneMyGC agent itself reads: not GC settings (never count as tuning).
bool is_agent_control_var(std::string_view name);

// Result of Ruby's own parsing of one VAR=value for one version.
struct ParamCheck {
  enum Status { kAccepted, kIgnored, kUnknownName } status = kUnknownName;
  double effective = 0;  // the value Ruby uses when accepted (sizes: bytes/slots after k/m/g)
  std::string message;   // why ignored / what Ruby does with it
};
// Mirrors gc.c get_envparam_size / get_envparam_double for `version` (pointer_bits: 64 or 32,
// which bounds strtol on 32-bit builds such as ruby.wasm).
ParamCheck check_param(std::string_view name, std::string_view value, const RubyVersion& version,
                       int pointer_bits = 64);

// Formats a value the way we emit it: sizes as plain decimal integers, doubles with up to 3 decimals
// (always with a dot so it reads as a factor, e.g. "3.0").
std::string format_param_value(const GcParam& p, double value);

// Series label used in reports ("2.1" .. "3.4+").
std::string table_series(const RubyVersion& v);

}  // namespace gcscope::rubygc
