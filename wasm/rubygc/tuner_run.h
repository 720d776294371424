// Inside the tuner: the figures of one run that every rule reads (Run), what the rules produce
// (Advice), and the steps tune() chains. Only the tuner's own files include this.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tuner.h"

namespace gcscope::rubygc {

constexpr size_t kNone = SIZE_MAX;
constexpr double kMiB = 1024.0 * 1024.0;

// The figures of one payload, computed once, in the order tune() fills the report.
struct Run {
  Run(const Payload& payload, const RubyVersion& ruby, const TunerOptions& opts)
      : p(payload), version(ruby), options(opts), v33(ruby.at_least(3, 3)), v32(ruby.major == 3 && ruby.minor == 2) {}
  const Payload& p;
  const RubyVersion& version;
  const TunerOptions& options;
  const bool v33, v32;

  // samples by event
  std::vector<size_t> by_event;
  size_t booted = kNone, terminated = kNone, first_start = kNone, last_end = kNone;
  // units of work and what pairing left over
  UnitPairing work;
  size_t units_with_gc = 0;
  std::vector<int64_t> allocs;  // per unit
  int64_t p50 = 0, p95 = 0;     // allocations per unit
  double with_gc_pct = 0, unit_ms_total = 0, unit_gc_ms_total = 0;
  // GC cycles and their reasons while working
  bool have_started = false;
  int64_t minors = 0, majors = 0, minor_by_malloc = 0, gcs_processing = 0;
  std::map<std::string, int64_t> majors_by, minors_by;
  // heap and memory
  int64_t page = 0, max_avail_proc = 0, max_live_proc = 0, max_growth_step = 0, retained = 0, peak_rss = 0, max_rss = 0;
  nlohmann::json boot_gc, live_boot, avail_boot;
  std::vector<std::pair<int64_t, int64_t>> heaps;  // (eden slots, slot size) per heap, warm
  // Unit time has plateaued from units[plateau_from] on (tuner_plateau.cpp).
  bool plateaued = false;
  size_t plateau_from = 0;
  bool leak = false;
  nlohmann::json leak_evidence, gc_share;
  std::string confidence;
  bool in_window(size_t i) const {
    return first_start != kNone && last_end != kNone && i >= first_start && i <= last_end;
  }
  int64_t majors_by_reason(const char* reason) const {
    auto it = majors_by.find(reason);
    return it == majors_by.end() ? 0 : it->second;
  }
  // The effective value of a RUBY_GC_* variable the run was started with, if Ruby accepted it.
  std::optional<double> existing_value(const std::string& name) const;
};

// A recommendation before validation.
struct Rec {
  std::string strategy, variable;
  double value;
  std::string reason;
  nlohmann::json evidence;
};

// What the rules say: findings (facts with a severity) and recommendations per strategy.
struct Advice {
  nlohmann::json findings = nlohmann::json::array();
  std::vector<Rec> recs;
  nlohmann::json budget_info = {{"available", false}};
  void finding(const char* id, const char* severity, std::string message,
               nlohmann::json evidence = nlohmann::json::object()) {
    findings.push_back(
        {{"id", id}, {"severity", severity}, {"message", std::move(message)}, {"evidence", std::move(evidence)}});
  }
  void add(const char* strategy, std::string variable, double value, std::string reason, nlohmann::json evidence) {
    recs.push_back({strategy, std::move(variable), value, std::move(reason), std::move(evidence)});
  }
};

// One tuning rule (its H-id, see README.md): reads the run, adds to the advice.
struct Rule {
  const char* id;
  const char* what;
  void (*apply)(const Run&, Advice&);
};
// The rules in the order their advice is listed.
const std::vector<Rule>& tuning_rules();

// Steps of tune(), in order (tuner.cpp, tuner_output.cpp).
void count_events(Run& run, nlohmann::json& report);
void measure_units(Run& run, nlohmann::json& report);
void write_timeline(const Run& run, nlohmann::json& report);
void classify_gc_cycles(Run& run, nlohmann::json& report);
void measure_heap(Run& run, nlohmann::json& report);
void detect_leak(Run& run, nlohmann::json& report);
void rate_confidence(Run& run, nlohmann::json& report);
void write_metrics(const Run& run, nlohmann::json& report);
void read_heaps(Run& run, nlohmann::json& report);
// Whether unit time has plateaued, and from which unit (report "plateau").
void find_plateau(Run& run, nlohmann::json& report);
// Per heap, the largest GC.stat_heap heap_eden_slots at the end of a unit once unit time has
// plateaued (replaces run.heaps when there are such snapshots).
void size_heaps_at_plateau(Run& run, nlohmann::json& report);
void state_facts(const Run& run, Advice& advice);
// Validates every recommendation with Ruby's parsing rules and writes recommendations, strategies
// and exports.
void write_recommendations(const Run& run, const Advice& advice, nlohmann::json& report);
// Lints the existing settings and lists the conflicts with our advice (H10, H11); returns the conflicts.
nlohmann::json lint_existing(const Run& run, nlohmann::json& report);

// Shared helpers.
double r1(double v);
std::string fmt(double v, int decimals = 1);
inline std::string num(int64_t v) { return std::to_string(v); }
int64_t percentile(std::vector<int64_t> v, double pct);
inline int64_t pages_up(int64_t slots, int64_t page) { return page > 0 ? (slots + page - 1) / page * page : slots; }
inline int64_t pages_down(int64_t slots, int64_t page) { return page > 0 ? slots / page * page : slots; }

}  // namespace gcscope::rubygc
