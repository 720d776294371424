// The RUBY_GC_* version table and Ruby's parsing rules. Expected values: gc.c's rules as quoted in the
// table's sources, and — natively, when a `ruby` is on PATH — Ruby itself: `ruby -W2` prints for every
// GC variable it reads either "NAME=value (default value: D)" or why it ignored the value.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rubygc/gc_params.h"

using namespace gcscope::rubygc;

TEST_CASE("rubygc params: sizes follow strtoll(base 0) + k/m/g, doubles must parse whole", "[rubygc]") {
  const RubyVersion v31 = parse_ruby_version("3.1.2");
  REQUIRE(v31.valid);
  auto accepted = [&](const char* name, const char* value, double expect) {
    INFO(name << "=" << value);
    ParamCheck c = check_param(name, value, v31);
    CHECK(c.status == ParamCheck::kAccepted);
    CHECK(c.effective == expect);
  };
  auto ignored = [&](const char* name, const char* value, const char* why) {
    INFO(name << "=" << value);
    ParamCheck c = check_param(name, value, v31);
    CHECK(c.status == ParamCheck::kIgnored);
    CHECK(c.message.find(why) != std::string::npos);
  };
  accepted("RUBY_GC_MALLOC_LIMIT", "600k", 614400);         // 600 x 1024
  accepted("RUBY_GC_MALLOC_LIMIT", "010", 8);               // octal, base 0
  accepted("RUBY_GC_OLDMALLOC_LIMIT", "0x100", 256);        // hex
  accepted("RUBY_GC_OLDMALLOC_LIMIT", "16M ", 16777216);    // trailing spaces allowed for sizes
  accepted("RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR", "0", 0);  // accept_zero
  accepted("RUBY_GC_HEAP_GROWTH_FACTOR", "1.25", 1.25);
  ignored("RUBY_GC_HEAP_GROWTH_FACTOR", "0.9", "must be greater than 1.000000");
  ignored("RUBY_GC_HEAP_GROWTH_FACTOR", "1.0", "must be greater than");
  ignored("RUBY_GC_HEAP_GROWTH_FACTOR", "1.2 ", "invalid string");         // strtod leaves the space
  ignored("RUBY_GC_OLDMALLOC_LIMIT_MAX", "49174003.5", "invalid string");  // TuneMyGC emitted this
  ignored("RUBY_GC_MALLOC_LIMIT_MAX", "0", "must be greater than 0");
  ignored("RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO", "1.5", "must be lower than");
  ignored("RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR", "-1", "must be greater than");
  CHECK(check_param("RUBY_GC_MALLOC_LIMIT_MIN", "2000000", v31).status == ParamCheck::kUnknownName);
  CHECK(check_param("RUBY_GC_HEAP_0_INIT_SLOTS", "5", v31).status == ParamCheck::kUnknownName);
  CHECK(check_param("RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO", "0.02", v31).status ==
        ParamCheck::kUnknownName);
}

TEST_CASE("rubygc params: names and defaults per version, 2.1 .. 3.4+", "[rubygc]") {
  auto reads = [](const char* version, const char* name) {
    return find_param(name, parse_ruby_version(version)) != nullptr;
  };
  CHECK(reads("2.1.0", "RUBY_GC_HEAP_INIT_SLOTS"));
  CHECK_FALSE(reads("2.1.0", "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR"));  // 2.1.1
  CHECK(reads("2.1.1", "RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR"));
  CHECK_FALSE(reads("2.3.8", "RUBY_GC_HEAP_FREE_SLOTS_GOAL_RATIO"));  // 2.4
  CHECK(reads("2.4.0", "RUBY_GC_HEAP_FREE_SLOTS_GOAL_RATIO"));
  CHECK(reads("3.2.2", "RUBY_GC_HEAP_INIT_SLOTS"));
  CHECK_FALSE(reads("3.3.0", "RUBY_GC_HEAP_INIT_SLOTS"));  // Feature #19785
  CHECK(reads("3.3.0", "RUBY_GC_HEAP_4_INIT_SLOTS"));
  CHECK_FALSE(reads("3.2.2", "RUBY_GC_HEAP_0_INIT_SLOTS"));
  CHECK(reads("3.4.1", "RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO"));
  CHECK(reads("4.0.0", "RUBY_GC_HEAP_0_INIT_SLOTS"));
  CHECK(table_series(parse_ruby_version("4.0.0")) == "3.4+");
  ParamCheck c = check_param("RUBY_GC_HEAP_INIT_SLOTS", "600000", parse_ruby_version("3.3.8"));
  CHECK(c.status == ParamCheck::kUnknownName);
  CHECK(c.message.find("RUBY_GC_HEAP_0_INIT_SLOTS") != std::string::npos);
  // 32-bit builds (ruby.wasm): strtol saturates at 2^31-1; "2g" overflows SIZE_MAX/2.
  const RubyVersion v33 = parse_ruby_version("3.3.3");
  CHECK(check_param("RUBY_GC_OLDMALLOC_LIMIT", "2000000000", v33, 32).status == ParamCheck::kAccepted);
  CHECK(check_param("RUBY_GC_OLDMALLOC_LIMIT", "2g", v33, 32).status == ParamCheck::kIgnored);
  CHECK(check_param("RUBY_GC_OLDMALLOC_LIMIT", "2g", v33, 64).status == ParamCheck::kAccepted);
  // Emitted forms: integers for sizes, a dot for factors.
  CHECK(format_param_value(*find_param_any_version("RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR"), 3) == "3.0");
  CHECK(format_param_value(*find_param_any_version("RUBY_GC_HEAP_GROWTH_FACTOR"), 1.25) == "1.25");
  CHECK(format_param_value(*find_param_any_version("RUBY_GC_MALLOC_LIMIT"), 33554432) == "33554432");
  CHECK(compare_dotted("1.0.2", "1.0.15") < 0);
  CHECK(compare_dotted("1.0.53", "1.0.15") > 0);
  CHECK(compare_dotted("1.0.70", "1.0.70") == 0);
}

#ifndef __EMSCRIPTEN__
namespace {
std::string run(const std::string& cmd) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return out;
  char buf[512];
  while (fgets(buf, sizeof buf, f)) out += buf;
  pclose(f);
  return out;
}
}  // namespace

TEST_CASE("rubygc params: the table agrees with the installed ruby's own parsing (ruby -W2)", "[rubygc][ruby]") {
  if (std::system("ruby -e0 >/dev/null 2>&1") != 0) {
    WARN("no ruby on PATH: skipped");
    return;
  }
  const RubyVersion v = parse_ruby_version(run("ruby -e 'print RUBY_VERSION'"));
  REQUIRE(v.valid);
  const std::pair<const char*, const char*> cases[] = {
      {"RUBY_GC_HEAP_INIT_SLOTS", "20000"},
      {"RUBY_GC_HEAP_INIT_SLOTS", "0"},
      {"RUBY_GC_HEAP_FREE_SLOTS", "600k"},
      {"RUBY_GC_HEAP_GROWTH_FACTOR", "1.25"},
      {"RUBY_GC_HEAP_GROWTH_FACTOR", "0.9"},
      {"RUBY_GC_HEAP_GROWTH_FACTOR", "1.2 "},
      {"RUBY_GC_HEAP_GROWTH_MAX_SLOTS", "0x100"},
      {"RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO", "0.3"},
      {"RUBY_GC_HEAP_FREE_SLOTS_MIN_RATIO", "1.5"},
      {"RUBY_GC_HEAP_FREE_SLOTS_GOAL_RATIO", "0.5"},
      {"RUBY_GC_HEAP_FREE_SLOTS_GOAL_RATIO", "0"},
      {"RUBY_GC_HEAP_FREE_SLOTS_MAX_RATIO", "0.7"},
      {"RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR", "0"},
      {"RUBY_GC_HEAP_OLDOBJECT_LIMIT_FACTOR", "-1"},
      {"RUBY_GC_MALLOC_LIMIT", "010"},
      {"RUBY_GC_MALLOC_LIMIT", "49174003.5"},
      {"RUBY_GC_MALLOC_LIMIT_MAX", "0"},
      {"RUBY_GC_MALLOC_LIMIT_MAX", "64m"},
      {"RUBY_GC_MALLOC_LIMIT_GROWTH_FACTOR", "1.5"},
      {"RUBY_GC_OLDMALLOC_LIMIT", "1g"},
      {"RUBY_GC_OLDMALLOC_LIMIT_MAX", "-5"},
      {"RUBY_GC_OLDMALLOC_LIMIT_GROWTH_FACTOR", "1"},
      {"RUBY_GC_MALLOC_LIMIT_MIN", "2000000"},
      {"RUBY_GC_HEAP_0_INIT_SLOTS", "20000"},
      {"RUBY_GC_HEAP_REMEMBERED_WB_UNPROTECTED_OBJECTS_LIMIT_RATIO", "0.02"},
      {"RUBY_GC_OLDMALLOC_LIMIT", "1000000000000"},
  };
  size_t read_by_ruby = 0;
  for (const auto& [name, value] : cases) {
    const std::string out = run(std::string("env '") + name + "=" + value + "' ruby -W2 -e 'nil' 2>&1");
    INFO("ruby " << v.text << ": " << name << "='" << value << "' -> " << out);
    ParamCheck ours = check_param(name, value, v);
    // Ruby prints one line per variable it reads; its name followed by '=' or "invalid string for NAME".
    const std::string prefix = std::string(name) + "=";
    size_t at = out.find(prefix);
    bool mentioned =
        at != std::string::npos || out.find(std::string("invalid string for ") + name) != std::string::npos;
    if (!mentioned) {
      CHECK(ours.status == ParamCheck::kUnknownName);
      continue;
    }
    ++read_by_ruby;
    std::string line = at != std::string::npos ? out.substr(at, out.find('\n', at) - at) : std::string();
    bool ruby_ignored = line.empty() || line.find("is ignored") != std::string::npos;
    CHECK(ours.status == (ruby_ignored ? ParamCheck::kIgnored : ParamCheck::kAccepted));
    if (!ruby_ignored) CHECK(ours.effective == Approx(std::strtod(line.c_str() + prefix.size(), nullptr)));
    // "(default value: D)" is Ruby's compiled-in default: the table's default must be the same.
    size_t d = line.find("(default value: ");
    if (d != std::string::npos) {
      const GcParam* p = find_param(name, v);
      REQUIRE(p);
      CHECK(p->default_value == Approx(std::strtod(line.c_str() + d + 16, nullptr)));
    }
  }
  CHECK(read_by_ruby >= 20);
}
#endif
