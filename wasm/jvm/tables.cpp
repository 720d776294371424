#include "jvm/tables.h"

#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include "jvm/aggregator.h"
#include "jvm/column_scan.h"
#include "jvm/wall_clock.h"

namespace gcscope::jvm {

namespace {

using tables::Column;
using tables::RowWriter;
using tables::Schema;
using tables::Type;
constexpr int64_t kNull = IntColumn::kNull;

// The columns every table of one event's rows starts with.
std::vector<Column> event_key_columns(const char* input_meaning) {
  return {
      {"input", Type::kString, "", input_meaning},
      {"t_s", Type::kFloat64, "s", "the collection's start in seconds of JVM uptime (null when the log printed none)"},
      {"ts", Type::kTimestamp, "",
       "the collection's start as wall-clock time, where the log printed one (time, utctime or timemillis "
       "decorations, legacy date stamps); null otherwise"},
      {"gc_id", Type::kInt64, "", "the collection's GC(n) number (unified logs; null in legacy logs)"},
      {"type", Type::kString, "", "the collection's type, named as GCToolKit's GarbageCollectionTypes"}};
}

std::vector<Column> with(std::vector<Column> head, std::vector<Column> tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

const std::vector<Schema>& schemas() {
  static const std::vector<Schema> all = {
      {"gc_events", "One row per GC event (a collection, a concurrent cycle or phase), in time order.",
       with(event_key_columns("the log file (or rotated member, or archive member) the event came from"),
            {{"cause", Type::kString, "", "the cause the log printed (\"G1 Evacuation Pause\"), null when none"},
             {"kind", Type::kString, "", "pause (the event stopped the application) or concurrent"},
             {"duration_ms", Type::kFloat64, "ms",
              "the pause time of a stop-the-world event, the elapsed time of a concurrent one"},
             {"paused_ms", Type::kFloat64, "ms",
              "the application's stopped time the event accounts for: its own pause, or the pauses within a "
              "concurrent cycle (ZGC, Shenandoah)"},
             {"heap_before_kb", Type::kInt64, "KiB", "heap occupancy before the collection"},
             {"heap_after_kb", Type::kInt64, "KiB", "heap occupancy after the collection"},
             {"heap_committed_kb", Type::kInt64, "KiB", "heap size (committed) after the collection"},
             {"allocated_kb", Type::kInt64, "KiB",
              "heap growth since the previous collection's heap after (0 when unknown or none)"},
             {"line", Type::kInt64, "", "1-based line of the member where the event's record starts"}})},
      {"pauses",
       "One row per pause: every stop-the-world event and every pause inside a concurrent cycle.",
       {{"input", Type::kString, "", "the log file (or rotated member, or archive member) the pause came from"},
        {"t_s", Type::kFloat64, "s", "the pause's start in seconds of JVM uptime (null when the log printed none)"},
        {"ts", Type::kTimestamp, "",
         "the pause's start as wall-clock time: the uptime plus the offset between the two clocks at the "
         "member's latest event printed with both; null when the member printed no wall-clock time"},
        {"gc_id", Type::kInt64, "", "GC(n) of the collection or cycle the pause belongs to (null in legacy logs)"},
        {"type", Type::kString, "", "the type of the collection or cycle the pause belongs to (GCToolKit's names)"},
        {"cause", Type::kString, "", "the cause of that collection or cycle, null when none was printed"},
        {"kind", Type::kString, "",
         "the pause's name as the report's pause_kinds lists it: Pause <type> for a stop-the-world collection, the "
         "printed name for a pause inside a cycle (Pause Mark Start)"},
        {"duration_ms", Type::kFloat64, "ms", "the pause's duration as the log printed it"},
        {"line", Type::kInt64, "", "1-based line of the member that printed the pause"}}},
      {"phases",
       "One row per phase an event printed (G1's Pre Evacuate Collection Set, a ZGC cycle's Concurrent Mark, ...).",
       with(event_key_columns("the log file (or rotated member, or archive member) the event came from"),
            {{"phase", Type::kString, "", "the phase's name as printed"},
             {"duration_ms", Type::kFloat64, "ms", "the phase's duration (null when the log printed none)"},
             {"line", Type::kInt64, "", "1-based line of the member where the event's record starts"}})},
      {"safepoints",
       "One row per safepoint the log printed (unified safepoint tag, legacy PrintGCApplicationStoppedTime).",
       {{"input", Type::kString, "", "the log file (or rotated member, or archive member) the safepoint came from"},
        {"t_s", Type::kFloat64, "s", "the safepoint's time in seconds of JVM uptime (null when the log printed none)"},
        {"ts", Type::kTimestamp, "",
         "wall-clock time: the uptime plus the offset between the two clocks at the member's latest event printed "
         "with both; null when the member printed no wall-clock time"},
        {"stopped_ms", Type::kFloat64, "ms", "total time the application threads were stopped"},
        {"reaching_ms", Type::kFloat64, "ms", "time to reach the safepoint (null when not printed)"}}},
      {"heap_pools", "One row per event and memory pool the log printed figures for.",
       with(event_key_columns("the log file (or rotated member, or archive member) the event came from"),
            {{"pool", Type::kString, "", "young, eden, survivor, old, humongous or metaspace"},
             {"before_kb", Type::kInt64, "KiB", "the pool's occupancy before the collection (null when not printed)"},
             {"after_kb", Type::kInt64, "KiB", "the pool's occupancy after the collection (null when not printed)"},
             {"line", Type::kInt64, "", "1-based line of the member where the event's record starts"}})},
      {"findings",
       "One row per finding of the report, most serious first.",
       {{"input", Type::kString, "",
         "the member the finding names (legacy findings of a rotated set), else the log (its first selected member)"},
        {"id", Type::kString, "", "the finding's identifier (\"explicit_system_gc\")"},
        {"severity", Type::kString, "", "error, warning or info"},
        {"message", Type::kString, "", "what was found and what to do about it"},
        {"count", Type::kInt64, "", "how many times it occurred (null when the finding does not count)"},
        {"first_line", Type::kInt64, "", "1-based line of its first occurrence (null when it has none)"}}},
  };
  return all;
}

double ms(int64_t ns) { return ns == kNull ? NAN : static_cast<double>(ns) / 1e6; }
RowWriter& value(RowWriter& w, int64_t v) { return w.i64_or_null(v, v != kNull); }
RowWriter& line_cell(RowWriter& w, int64_t line) { return w.i64_or_null(line, line != kNull && line > 0); }

}  // namespace

std::vector<tables::Schema> gc_log_tables() { return schemas(); }

const tables::Schema& gc_log_table(const std::string& name) {
  for (const auto& s : schemas())
    if (s.name == name) return s;
  throw std::logic_error("jvm: no table " + name);
}

bool GcAggregator::write_table(const std::string& name, const std::vector<std::string>& members,
                               tables::RowSink& sink) const {
  if (name == "gc_events") write_event_rows(members, sink);
  else if (name == "pauses") write_pause_rows(members, sink);
  else if (name == "phases") write_phase_rows(members, sink);
  else if (name == "heap_pools") write_pool_rows(members, sink);
  else if (name == "safepoints") {
    const GcColumns::Safepoints& s = cols_.safepoints;
    RowWriter w(gc_log_table(name), sink);
    MemberRuns runs(cols_.safepoint_members, members);
    WallClock clock(cols_);
    Reader t(s.t), stopped(s.stopped), reaching(s.reaching);
    for (size_t i = 0; i < s.size(); ++i) {
      const uint32_t member = runs.member(i);
      w.str(runs.path(member)).f64(seconds(t(i))).ts_ms(clock.epoch_ms(member, t(i)));
      w.f64(ms(stopped(i))).f64(ms(reaching(i))).end_row();
    }
  } else {
    return false;
  }
  return true;
}

void GcAggregator::write_event_rows(const std::vector<std::string>& members, tables::RowSink& sink) const {
  const GcColumns::Events& e = cols_.events;
  RowWriter w(gc_log_table("gc_events"), sink);
  MemberRuns runs(cols_.event_members, members);
  Reader t(e.t), wall(e.wall_ms), gc_id(e.gc_id), type(e.type), cause(e.cause), flags(e.flags), duration(e.duration),
      paused(e.paused), before(e.heap_before), after(e.heap_after), committed(e.heap_committed), allocated(e.allocated),
      line(e.line);
  for (size_t i = 0; i < e.size(); ++i) {
    const int64_t c = cause(i), stamp = wall(i);
    w.str(runs.path(runs.member(i))).f64(seconds(t(i))).ts_ms(stamp == kNull ? NAN : static_cast<double>(stamp));
    value(w, gc_id(i)).str(gc_type_name(static_cast<GcType>(type(i))));
    w.str_or_null(c >= 0 ? std::string_view(causes_[static_cast<size_t>(c)]) : std::string_view(), c >= 0);
    w.str((flags(i) & kStwFlag) ? "pause" : "concurrent").f64(ms(duration(i))).f64(ms(paused(i)));
    value(w, before(i));
    value(w, after(i));
    value(w, committed(i));
    value(w, allocated(i));
    line_cell(w, line(i)).end_row();
  }
}

void GcAggregator::write_pause_rows(const std::vector<std::string>& members, tables::RowSink& sink) const {
  const GcColumns::Pauses& p = cols_.pauses;
  RowWriter w(gc_log_table("pauses"), sink);
  MemberRuns runs(cols_.pause_members, members);
  WallClock clock(cols_);
  Reader t(p.t), gc_id(p.gc_id), type(p.type), cause(p.cause), name(p.name), duration(p.duration), line(p.line);
  for (size_t i = 0; i < p.size(); ++i) {
    const uint32_t member = runs.member(i);
    const int64_t c = cause(i);
    w.str(runs.path(member)).f64(seconds(t(i))).ts_ms(clock.epoch_ms(member, t(i)));
    value(w, gc_id(i)).str(gc_type_name(static_cast<GcType>(type(i))));
    w.str_or_null(c >= 0 ? std::string_view(causes_[static_cast<size_t>(c)]) : std::string_view(), c >= 0);
    w.str(phases_[static_cast<size_t>(name(i))]).f64(ms(duration(i)));
    line_cell(w, line(i)).end_row();
  }
}

void GcAggregator::write_phase_rows(const std::vector<std::string>& members, tables::RowSink& sink) const {
  const GcColumns::Events& e = cols_.events;
  RowWriter w(gc_log_table("phases"), sink);
  MemberRuns runs(cols_.event_members, members);
  Reader t(e.t), wall(e.wall_ms), gc_id(e.gc_id), type(e.type), line(e.line), phase_end(e.phase_end),
      phase_name(e.phase_name), phase_ns(e.phase_ns);
  size_t row = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    const size_t end = static_cast<size_t>(phase_end(i));
    const std::string& input = runs.path(runs.member(i));
    for (; row < end; ++row) {
      const int64_t stamp = wall(i);
      w.str(input).f64(seconds(t(i))).ts_ms(stamp == kNull ? NAN : static_cast<double>(stamp));
      value(w, gc_id(i)).str(gc_type_name(static_cast<GcType>(type(i))));
      w.str(phases_[static_cast<size_t>(phase_name(row))]).f64(ms(phase_ns(row)));
      line_cell(w, line(i)).end_row();
    }
  }
}

void GcAggregator::write_pool_rows(const std::vector<std::string>& members, tables::RowSink& sink) const {
  const GcColumns::Events& e = cols_.events;
  RowWriter w(gc_log_table("heap_pools"), sink);
  MemberRuns runs(cols_.event_members, members);
  Reader t(e.t), wall(e.wall_ms), gc_id(e.gc_id), type(e.type), line(e.line);
  std::vector<int> printed;  // the pools the log printed figures for
  for (int p = 0; p < kPoolCount; ++p)
    if (e.pool_before[p].any_value() || e.pool_after[p].any_value()) printed.push_back(p);
  for (size_t i = 0; i < e.size(); ++i) {
    const std::string& input = runs.path(runs.member(i));
    for (int p : printed) {
      const int64_t before = e.pool_before[p][i], after = e.pool_after[p][i];
      if (before == kNull && after == kNull) continue;
      const int64_t stamp = wall(i);
      w.str(input).f64(seconds(t(i))).ts_ms(stamp == kNull ? NAN : static_cast<double>(stamp));
      value(w, gc_id(i)).str(gc_type_name(static_cast<GcType>(type(i)))).str(pool_name(p));
      value(w, before);
      value(w, after);
      line_cell(w, line(i)).end_row();
    }
  }
}

void write_findings_table(const nlohmann::json& findings, const std::vector<std::string>& members,
                          const std::string& whole_input, tables::RowSink& sink) {
  RowWriter w(gc_log_table("findings"), sink);
  if (!findings.is_array()) return;
  auto text = [](const nlohmann::json& f, const char* key) {
    const auto it = f.find(key);
    return it != f.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto count = [](const nlohmann::json& f, const char* key) -> int64_t {
    const auto it = f.find(key);
    return it != f.end() && it->is_number_integer() ? it->get<int64_t>() : -1;
  };
  for (const auto& f : findings) {
    const int64_t member = count(f, "member"), n = count(f, "count"), line = count(f, "first_line");
    const bool named = member >= 0 && static_cast<size_t>(member) < members.size();
    w.str(named ? members[static_cast<size_t>(member)] : whole_input).str(text(f, "id")).str(text(f, "severity"));
    w.str(text(f, "message")).i64_or_null(n, n >= 0).i64_or_null(line, line > 0).end_row();
  }
}

}  // namespace gcscope::jvm
