#include "gc_params.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace gcscope::rubygc {

namespace {

// Sources of the table (facts, checked where we could):
//  [gc.c]   Ruby's gc.c `ruby_gc_set_params` / `get_envparam_size` / `get_envparam_double`
//           (3.1.2 Debian source; 3.3 gc.c and ruby/ruby gc/default/default.c read through the
//           code search: strtoll base 0, k/K/m/M/g/G suffix, trailing spaces only, value > lower bound;
//           doubles: strtod over the whole string, (lower, upper], accept_zero = exactly 0).
//  [W2]     Debian ruby 3.1.2 `ruby -W2` output for each variable (prints "NAME=value (default value: D)"
//           or why it is ignored) — tests/rubygc/test_gc_params.cpp re-runs this against the table.
//  [NEWS]   Ruby NEWS: 2.4 (FREE_SLOTS_{MIN,GOAL,MAX}_RATIO, Feature #12500 era), 3.3 (Feature #19785:
//           RUBY_GC_HEAP_INIT_SLOTS removed, RUBY_GC_HEAP_%d_INIT_SLOTS added), and the shady-limit
//           ratio RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO (3.3).
//  [defaults] each default checked against Ruby 3.1.2, 3.3.8 and the current gc/default/default.c.
constexpr int kNow = 0;
constexpr double kMiB = 1024.0 * 1024.0;

const std::vector<GcParam> kParams = {
    {"RUBY_GC_HEAP_INIT_SLOTS", ParamKind::kSize, 201, 303, 10000, 0, 0, false,
     "slots allocated at boot (and the floor below which the heap is not shrunk)",
     "gc.c GC_HEAP_INIT_SLOTS; [W2] default 10000; removed in 3.3 [NEWS 3.3, Feature #19785]"},
    {"RUBY_GC_HEAP_0_INIT_SLOTS", ParamKind::kSize, 303, kNow, 10000, 0, 0, false,
     "slots of heap 0 (smallest slot size) allocated at boot; also a floor for that heap",
     "gc.c gc_set_initial_pages (3.3: snprintf \"RUBY_GC_HEAP_%d_INIT_SLOTS\"); [NEWS 3.3]"},
    {"RUBY_GC_HEAP_1_INIT_SLOTS", ParamKind::kSize, 303, kNow, 10000, 0, 0, false, "slots of heap 1 allocated at boot",
     "as RUBY_GC_HEAP_0_INIT_SLOTS"},
    {"RUBY_GC_HEAP_2_INIT_SLOTS", ParamKind::kSize, 303, kNow, 10000, 0, 0, false, "slots of heap 2 allocated at boot",
     "as RUBY_GC_HEAP_0_INIT_SLOTS"},
    {"RUBY_GC_HEAP_3_INIT_SLOTS", ParamKind::kSize, 303, kNow, 10000, 0, 0, false, "slots of heap 3 allocated at boot",
     "as RUBY_GC_HEAP_0_INIT_SLOTS"},
    {"RUBY_GC_HEAP_4_INIT_SLOTS", ParamKind::kSize, 303, kNow, 10000, 0, 0, false,
     "slots of heap 4 (largest slot size) allocated at boot", "as RUBY_GC_HEAP_0_INIT_SLOTS"},
    {"RUBY_GC_HEAP_FREE_SLOTS", ParamKind::kSize, 201, kNow, 4096, 0, 0, false,
     "free slots to have after a GC before the heap grows (replaced RUBY_FREE_MIN in 2.1)",
     "gc.c GC_HEAP_FREE_SLOTS; [W2] default 4096"},
    {"RUBY_GC_HEAP_GROWTH_FACTOR", ParamKind::kDouble, 201, kNow, 1.8, 1.0, 0, false,
     "heap growth factor (since 2.4 the cap on the goal-ratio growth)",
     "gc.c get_envparam_double(..., 1.0, 0.0, FALSE); [W2] default 1.8, 0.9 ignored (must be > 1.0)"},
    {"RUBY_GC_HEAP_GROWTH_MAX_SLOTS", ParamKind::kSize, 201, kNow, 0, 0, 0, false,
     "upper bound of one heap growth step in slots (0 = unbounded)", "gc.c; [W2] default 0"},
    {"RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO", ParamKind::kDouble, 204, kNow, 0.20, 0.0, 1.0, false,
     "grow the heap when free slots after GC are below this share", "gc.c (0.0, 1.0]; [W2] default 0.2"},
    {"RUBY_GC_HEAP_FREE_SLOTS_GOAL_RATIO", ParamKind::kDouble, 204, kNow, 0.40, 0.20, 0.65, true,
     "free-slot share the heap grows to (0 = use GROWTH_FACTOR directly)",
     "gc.c (MIN_RATIO, MAX_RATIO] or 0; [W2] default 0.4"},
    {"RUBY_GC_HEAP_FREE_SLOTS_MAX_RATIO", ParamKind::kDouble, 204, kNow, 0.65, 0.20, 1.0, false,
     "release pages when free slots exceed this share", "gc.c (MIN_RATIO, 1.0]; [W2] default 0.65"},
    {"RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR", ParamKind::kDouble, 201, kNow, 2.0, 0.0, 0, true,
     "next major GC when old objects exceed (old objects after the last major) x factor",
     "gc.c (0 accepted = every GC major); since 2.1.1; [W2] default 2.0"},
    {"RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO", ParamKind::kDouble, 303, kNow, 0.01, 0.0, 0, true,
     "shady (write-barrier-unprotected) objects allowed as a share of old objects before a major GC",
     "gc.c 3.3 get_envparam_double(..., 0.0, 0.0, TRUE); [notes] default 0.01"},
    {"RUBY_GC_MALLOC_LIMIT", ParamKind::kSize, 201, kNow, 16 * kMiB, 0, 0, false,
     "bytes malloc'd by Ruby objects before a minor GC (the limit adapts between this and _MAX)",
     "gc.c GC_MALLOC_LIMIT_MIN; [W2] default 16777216; k/m/g accepted (600k = 614400)"},
    {"RUBY_GC_MALLOC_LIMIT_MAX", ParamKind::kSize, 201, kNow, 32 * kMiB, 0, 0, false,
     "upper bound of the adaptive malloc limit",
     "gc.c GC_MALLOC_LIMIT_MAX; [W2] default 33554432, 0 ignored (must be > 0)"},
    {"RUBY_GC_MALLOC_LIMIT_GROWTH_FACTOR", ParamKind::kDouble, 201, kNow, 1.4, 1.0, 0, false,
     "growth of the malloc limit when it was exceeded", "gc.c; [W2] default 1.4"},
    {"RUBY_GC_OLDMALLOC_LIMIT", ParamKind::kSize, 201, kNow, 16 * kMiB, 0, 0, false,
     "bytes malloc'd by old objects before the next GC is a major one (major_by: oldmalloc)",
     "gc.c GC_OLDMALLOC_LIMIT_MIN; [W2] default 16777216"},
    {"RUBY_GC_OLDMALLOC_LIMIT_MAX", ParamKind::kSize, 201, kNow, 128 * kMiB, 0, 0, false,
     "upper bound of the adaptive oldmalloc limit", "gc.c GC_OLDMALLOC_LIMIT_MAX; [W2] default 134217728"},
    {"RUBY_GC_OLDMALLOC_LIMIT_GROWTH_FACTOR", ParamKind::kDouble, 201, kNow, 1.2, 1.0, 0, false,
     "growth of the oldmalloc limit when it was exceeded", "gc.c; [W2] default 1.2"},
};

// Names people set that no Ruby reads (so Ruby ignores them silently), and what they meant.
struct Obsolete {
  const char* name;
  const char* note;
};
const Obsolete kObsolete[] = {
    {"RUBY_GC_MALLOC_LIMIT_MIN", "no such variable (TuneMyGC emitted it); RUBY_GC_MALLOC_LIMIT is the minimum"},
    {"RUBY_GC_OLDMALLOC_LIMIT_MIN", "no such variable (TuneMyGC emitted it); RUBY_GC_OLDMALLOC_LIMIT is the minimum"},
    {"RUBY_GC_HEAP_SLOTS_INCREMENT", "REE-era name; Ruby 2.1+ reads RUBY_GC_HEAP_GROWTH_FACTOR/_MAX_SLOTS"},
    {"RUBY_GC_HEAP_SLOTS_GROWTH_FACTOR", "REE-era name; Ruby 2.1+ reads RUBY_GC_HEAP_GROWTH_FACTOR"},
};

const char* const kAgentVars[] = {"RUBY_GC_TOKEN",        "RUBY_GC_TUNE",         "RUBY_GC_TUNE_HOST",
                                  "RUBY_GC_TUNE_VERBOSE", "RUBY_GC_TUNE_DEBUG",   "RUBY_GC_SPY",
                                  "RUBY_GC_MAX_SAMPLES",  "RUBY_GC_SYNC_ALWAYS",  "RUBY_GC_SYNC_NEVER",
                                  "RUBY_GC_TUNE_OUTPUT",  "RUBY_GC_TUNE_SENTINEL"};

int version_code(const RubyVersion& v) { return v.major * 100 + v.minor; }

bool reads(const GcParam& p, const RubyVersion& v) {
  int c = version_code(v);
  if (c < p.since) return false;
  if (p.until && c >= p.until) return false;
  // RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR appeared in 2.1.1.
  if (!std::strcmp(p.name, "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR") && c == 201 && v.patch < 1) return false;
  return true;
}

std::string fmt_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%f", v);  // gc.c prints doubles with %f
  return buf;
}

}  // namespace

RubyVersion parse_ruby_version(std::string_view s) {
  RubyVersion v;
  v.text = std::string(s);
  int parts[3] = {0, 0, 0};
  size_t i = 0;
  int n = 0;
  while (n < 3 && i < s.size() && s[i] >= '0' && s[i] <= '9') {
    long x = 0;
    size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - start < 6) x = x * 10 + (s[i++] - '0');
    parts[n++] = static_cast<int>(x);
    if (i < s.size() && s[i] == '.') ++i;
    else break;
  }
  v.valid = n >= 2;
  v.major = parts[0];
  v.minor = parts[1];
  v.patch = parts[2];
  return v;
}

int compare_dotted(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    long x = 0, y = 0;
    while (i < a.size() && a[i] != '.') {
      if (a[i] >= '0' && a[i] <= '9' && x < 100000000) x = x * 10 + (a[i] - '0');
      ++i;
    }
    while (j < b.size() && b[j] != '.') {
      if (b[j] >= '0' && b[j] <= '9' && y < 100000000) y = y * 10 + (b[j] - '0');
      ++j;
    }
    if (x != y) return x < y ? -1 : 1;
    if (i < a.size()) ++i;
    if (j < b.size()) ++j;
  }
  return 0;
}

const std::vector<GcParam>& gc_params() { return kParams; }

const GcParam* find_param(std::string_view name, const RubyVersion& version) {
  for (const auto& p : kParams)
    if (name == p.name) return reads(p, version) ? &p : nullptr;
  return nullptr;
}

const GcParam* find_param_any_version(std::string_view name) {
  for (const auto& p : kParams)
    if (name == p.name) return &p;
  return nullptr;
}

bool is_agent_control_var(std::string_view name) {
  for (const char* a : kAgentVars)
    if (name == a) return true;
  return false;
}

ParamCheck check_param(std::string_view name, std::string_view value_sv, const RubyVersion& version, int pointer_bits) {
  ParamCheck r;
  const GcParam* any = find_param_any_version(name);
  const GcParam* p = find_param(name, version);
  if (!p) {
    r.status = ParamCheck::kUnknownName;
    for (const auto& o : kObsolete)
      if (name == o.name) {
        r.message = std::string(o.note) + "; Ruby ignores it silently";
        return r;
      }
    // The per-heap names of Ruby 3.3's previews (PR #7235), renamed before the release (PR #8335).
    if (name.rfind("RUBY_GC_HEAP_INIT_SIZE_", 0) == 0) {
      r.message =
          "a Ruby 3.3 preview name; released Rubies (3.3 .. 4.0) read RUBY_GC_HEAP_%d_INIT_SLOTS instead "
          "and ignore it silently";
      return r;
    }
    if (any) {
      int c = version_code(version);
      if (any->until && c >= any->until)
        r.message = "Ruby " + version.series() + " no longer reads it (removed in " + std::to_string(any->until / 100) +
                    "." + std::to_string(any->until % 100) + ")";
      else
        r.message = "Ruby " + version.series() + " does not read it yet (new in " + std::to_string(any->since / 100) +
                    "." + std::to_string(any->since % 100) + (any->since == 201 ? ".1" : "") + ")";
      if (name == "RUBY_GC_HEAP_INIT_SLOTS")
        r.message += "; set RUBY_GC_HEAP_0_INIT_SLOTS .. RUBY_GC_HEAP_4_INIT_SLOTS instead";
    } else {
      r.message = "not a variable Ruby " + version.series() + " reads; ignored silently";
    }
    return r;
  }
  const std::string value(value_sv);
  // getenv returns "" for VAR= : gc.c skips empty values (`ptr != NULL && *ptr`).
  if (value.empty()) {
    r.status = ParamCheck::kIgnored;
    r.message = "empty value: Ruby keeps the default";
    return r;
  }
  if (p->kind == ParamKind::kSize) {
    // strtoll(ptr, &end, 0) — decimal, 0x hex or 0 octal, optional sign and leading spaces;
    // on 32-bit builds strtol saturates at LONG_MAX/LONG_MIN.
    const char* ptr = value.c_str();
    char* end = nullptr;
    errno = 0;
    long long val = std::strtoll(ptr, &end, 0);
    if (pointer_bits == 32) {
      if (val > std::numeric_limits<int32_t>::max()) val = std::numeric_limits<int32_t>::max();
      if (val < std::numeric_limits<int32_t>::min()) val = std::numeric_limits<int32_t>::min();
    }
    long long unit = 0;
    switch (*end) {
      case 'k':
      case 'K':
        unit = 1024;
        ++end;
        break;
      case 'm':
      case 'M':
        unit = 1024LL * 1024;
        ++end;
        break;
      case 'g':
      case 'G':
        unit = 1024LL * 1024 * 1024;
        ++end;
        break;
      default: break;
    }
    while (*end && std::isspace(static_cast<unsigned char>(*end))) ++end;
    if (*end) {
      r.status = ParamCheck::kIgnored;
      r.message = "invalid string for " + std::string(name) + ": " + value +
                  " (Ruby accepts an integer with an optional k/m/g suffix; the value is ignored)";
      return r;
    }
    if (unit > 0) {
      // gc.c: val outside +-(SIZE_MAX / 2 / unit) "is ignored because it overflows".
      unsigned long long size_max = pointer_bits == 32 ? 0xFFFFFFFFULL : 0xFFFFFFFFFFFFFFFFULL;
      long long lim = static_cast<long long>(size_max / 2 / static_cast<unsigned long long>(unit));
      if (val < -lim || lim < val) {
        r.status = ParamCheck::kIgnored;
        r.message = std::string(name) + "=" + value + " is ignored because it overflows";
        return r;
      }
      val *= unit;
    }
    if (val > 0 && static_cast<double>(val) > p->lower_bound) {
      r.status = ParamCheck::kAccepted;
      r.effective = static_cast<double>(val);
      return r;
    }
    r.status = ParamCheck::kIgnored;
    r.effective = static_cast<double>(val);
    r.message = std::string(name) + "=" + std::to_string(val) + " is ignored because it must be greater than " +
                std::to_string(static_cast<long long>(p->lower_bound));
    return r;
  }
  // Doubles: strtod must consume the whole string (no trailing spaces).
  const char* ptr = value.c_str();
  char* end = nullptr;
  double val = std::strtod(ptr, &end);
  if (*end) {
    r.status = ParamCheck::kIgnored;
    r.message = "invalid string for " + std::string(name) + ": " + value + " (Ruby ignores it)";
    return r;
  }
  r.effective = val;
  if (p->accept_zero && val == 0.0) {
    r.status = ParamCheck::kAccepted;
    return r;
  }
  if (val <= p->lower_bound) {
    r.status = ParamCheck::kIgnored;
    r.message = std::string(name) + "=" + fmt_double(val) + " is ignored because it must be greater than " +
                fmt_double(p->lower_bound);
    return r;
  }
  if (p->upper_bound != 0.0 && val > p->upper_bound) {
    r.status = ParamCheck::kIgnored;
    r.message = std::string(name) + "=" + fmt_double(val) + " is ignored because it must be lower than " +
                fmt_double(p->upper_bound);
    return r;
  }
  r.status = ParamCheck::kAccepted;
  return r;
}

std::string format_param_value(const GcParam& p, double value) {
  char buf[64];
  if (p.kind == ParamKind::kSize) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(std::llround(value)));
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.3f", value);
  std::string s = buf;
  while (s.size() > 1 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
}

std::string table_series(const RubyVersion& v) {
  if (v.at_least(3, 4)) return "3.4+";
  return v.series();
}

}  // namespace gcscope::rubygc
