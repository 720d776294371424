// The JVM report: the first screen of the view, bounded whatever the log's length. The whole-log
// summary (the answer of summary() for the whole range), the findings, the diary, the unparsed-line
// samples, and for the charts and the event table what they show first: the series decimated to
// kReportSeriesWidth pixels and the first page of events. Everything else is asked of the session.
#include <cmath>
#include <tuple>

#include "jvm/aggregator.h"

namespace gcscope::jvm {
namespace {

using nlohmann::json;

// Pixel columns of the report's series: wider than the view's charts on common screens.
constexpr int kReportSeriesWidth = 2000;
// Rows of the event table in the report.
constexpr size_t kReportEventRows = 100;

json tri_json(Tri t) { return t == Tri::kTrue ? json(true) : t == Tri::kFalse ? json(false) : json(); }
double round6(double v) { return std::round(v * 1e6) / 1e6; }

}  // namespace

void GcAggregator::write_report(json& r) {
  flush();
  json flags = json::object();
  for (const auto& f : diary_.flags) flags[f.first] = tri_json(f.second);
  r["diary"] = {
      {"unified", tri_json(diary_.unified)},
      {"jvm_version", diary_.jvm_version.empty() ? json() : json(diary_.jvm_version)},
      {"collectors", diary_.collectors},
      {"flags", flags},
      {"command_line", diary_.command_line.empty() ? json() : json(diary_.command_line)},
      {"max_heap_kb", diary_.max_heap_kb >= 0 ? json(diary_.max_heap_kb) : json()},
      {"initial_heap_kb", diary_.initial_heap_kb >= 0 ? json(diary_.initial_heap_kb) : json()},
      {"region_size_kb", diary_.region_size_kb >= 0 ? json(diary_.region_size_kb) : json()},
  };
  r["members"] = members_;

  RangeTotals whole;
  if (whole_totals_kept_) {
    whole = whole_totals_;
    std::tie(whole.first, whole.last) = log_time_range();
    std::vector<int64_t> durations(cols_.pauses.size());
    cols_.pauses.duration.decode(0, durations.size(), durations.data());
    whole.rank_pauses(durations);
  } else {
    summarize(NAN, NAN, whole);
  }
  whole_ = summary_json(whole);
  for (const auto& [key, value] : whole_.items()) r[key] = value;
  r["stalls"] = {
      {"allocation",
       {{"count", alloc_stalls_}, {"total_s", round6(alloc_stall_total_)}, {"max_s", round6(alloc_stall_max_)}}},
      {"relocation", {{"count", reloc_stalls_}, {"total_s", round6(reloc_stall_total_)}}}};

  json findings = json::array();
  write_findings(findings, whole);
  r["findings"] = std::move(findings);

  json samples = json::array();
  for (const auto& s : unparsed_samples_) samples.push_back({{"member", s.member}, {"line", s.line}, {"text", s.text}});
  r["unparsed"] = {{"count", unparsed_}, {"samples", samples}};

  if (!with_series_) {
    r["series"] = nullptr;
    return;
  }
  r["series"] = series(NAN, NAN, kReportSeriesWidth);
  EventPageQuery first_page;
  first_page.limit = kReportEventRows;
  r["events_page"] = events_page(first_page);
}

}  // namespace gcscope::jvm
