// The JVM session's questions, natively: a log is analysed once, then asked the page's questions
// of a zoom (jvm.summary and jvm.series for a 1,328-pixel chart) at seeded random places for four
// range widths (1/2, 1/10, 1/100, 1/1000 of the log), and pages of the event table (jvm.events,
// in time order, then by duration), after the session built its index (session.prepare, as the
// worker does once the report is out), and the timeline panel's timeline.series. Prints the CPU
// time's p50/p95/max per kind of question. Build and run: bench/jvm/query.sh.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/input_set.h"

namespace {

// CPU time of this (single-threaded) process, in ms: the figures hold on a shared, loaded machine.
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

void print_times(const char* what, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) { return ms[std::min(ms.size() - 1, static_cast<size_t>(q * ms.size()))]; };
  std::printf("%-34s p50 %8.2f  p95 %8.2f  max %8.2f ms  (%zu)\n", what, at(0.5), at(0.95), ms.back(), ms.size());
}

// The time of one question, in ms.
double timed(gcscope::InputSet& set, const char* method, const nlohmann::json& args) {
  const double t0 = cpu_ms();
  const nlohmann::json answer = set.query(method, args);
  return cpu_ms() - t0;
}

// timeline.series (core/timeline.h) as the page's timeline panel asks it: the whole range, then
// zooms to 1/10 and 1/1000 of it at seeded random places, each for a chart of 1000 and 4000 pixels.
void timeline_questions(gcscope::InputSet& set, int zooms, std::mt19937_64& rng) {
  const nlohmann::json whole = set.query("timeline.series", {{"width", 1}});
  const double first = whole["t0"].get<double>(), last = whole["t1"].get<double>();
  for (int px : {1000, 4000}) {
    std::vector<double> ms;
    for (int z = 0; z < zooms; ++z) ms.push_back(timed(set, "timeline.series", {{"width", px}}));
    print_times(("timeline.series, whole, " + std::to_string(px) + " px").c_str(), ms);
    for (int divisor : {10, 1000}) {
      const double span = (last - first) / divisor;
      ms.clear();
      for (int z = 0; z < zooms; ++z) {
        const double t0 = first + std::uniform_real_distribution<double>(0, last - first - span)(rng);
        ms.push_back(timed(set, "timeline.series", {{"t0", t0}, {"t1", t0 + span}, {"width", px}}));
      }
      print_times(("timeline.series, 1/" + std::to_string(divisor) + ", " + std::to_string(px) + " px").c_str(), ms);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: query_driver LOG [ZOOMS_PER_WIDTH] [PAGES]\n");
    return 2;
  }
  const int zooms = argc > 2 ? std::atoi(argv[2]) : 30, pages = argc > 3 ? std::atoi(argv[3]) : 30;
  gcscope::InputSet set(nlohmann::json::object());
  const double load0 = cpu_ms();
  {
    std::ifstream in(argv[1], std::ios::binary);
    std::vector<char> chunk(1 << 20);
    set.begin_file(argv[1]);
    while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
      set.feed(reinterpret_cast<const uint8_t*>(chunk.data()), static_cast<size_t>(in.gcount()));
    set.end_file();
  }
  const nlohmann::json doc = set.finish();
  std::printf("analysis: %.0f ms\n", cpu_ms() - load0);
  const double prepare0 = cpu_ms();
  set.query("session.prepare", nlohmann::json::object());
  std::printf("session.prepare (the range index): %.0f ms, %s bytes\n", cpu_ms() - prepare0,
              set.query("jvm.storage", nlohmann::json::object())["range_index_bytes"].dump().c_str());
  const nlohmann::json& range = doc["reports"][0]["time_range_s"];
  const double first = range["first"].get<double>(), last = range["last"].get<double>();

  std::mt19937_64 rng(42);
  std::vector<double> all_summary, all_series;
  for (int divisor : {2, 10, 100, 1000}) {
    std::vector<double> summary, series;
    const double width = (last - first) / divisor;
    for (int z = 0; z < zooms; ++z) {
      const double t0 = first + std::uniform_real_distribution<double>(0, last - first - width)(rng);
      summary.push_back(timed(set, "jvm.summary", {{"t0", t0}, {"t1", t0 + width}}));
      series.push_back(timed(set, "jvm.series", {{"t0", t0}, {"t1", t0 + width}, {"width", 1328}}));
    }
    all_summary.insert(all_summary.end(), summary.begin(), summary.end());
    all_series.insert(all_series.end(), series.begin(), series.end());
    print_times(("jvm.summary, 1/" + std::to_string(divisor)).c_str(), summary);
    print_times(("jvm.series, 1/" + std::to_string(divisor)).c_str(), series);
  }
  print_times("jvm.summary, every width", all_summary);
  print_times("jvm.series, every width", all_series);
  timeline_questions(set, zooms, rng);
  for (const char* sort : {"t", "duration_s"}) {
    std::vector<double> ms;
    for (int p = 0; p < pages; ++p)
      ms.push_back(timed(set, "jvm.events", {{"offset", p * 100}, {"limit", 100}, {"sort", sort}, {"desc", true}}));
    std::printf("first page sorted by %s: %.2f ms\n", sort, ms.front());
    print_times((std::string("jvm.events by ") + sort).c_str(), ms);
  }
  return 0;
}
