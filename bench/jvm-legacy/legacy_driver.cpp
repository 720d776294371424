// Native driver for the legacy GC log parser: reads a plain log in 8 MiB blocks, splits lines with the
// core LineSplitter, feeds LegacyGcLogParser, and prints events by type, unparsed lines and MB/s
// (input MB / CPU seconds). Build: see run_bench.sh.
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "core/line_splitter.h"
#include "jvm/legacy/legacy_parser.h"

using namespace gcscope;
using namespace gcscope::jvm;

struct CountSink : GcEventSink {
  uint64_t by_type[static_cast<size_t>(GcType::kCount)] = {};
  uint64_t safepoints = 0, unparsed = 0, tenuring = 0;
  double pause_total = 0;
  int show_unparsed = 0;
  void on_event(const GcEvent& e) override {
    ++by_type[static_cast<size_t>(e.type)];
    if (e.stop_the_world && e.duration_s == e.duration_s) pause_total += e.duration_s;
  }
  void on_safepoint(const SafepointEvent&) override { ++safepoints; }
  void on_unparsed(uint32_t, uint64_t line, std::string_view text) override {
    ++unparsed;
    if (show_unparsed-- > 0) std::fprintf(stderr, "unparsed %llu: %.*s\n", (unsigned long long)line, (int)std::min<size_t>(text.size(), 300), text.data());
  }
  void on_tenuring(const TenuringRecord&) override { ++tenuring; }
};

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: legacy_driver LOG [show_unparsed_n]\n");
    return 2;
  }
  CountSink sink;
  if (argc > 2) sink.show_unparsed = std::atoi(argv[2]);
  Diary diary;
  LegacyGcLogParser parser(sink, diary);
  FILE* f = std::fopen(argv[1], "rb");
  if (!f) return 2;
  std::vector<char> buf(8 << 20);
  LineSplitter splitter;
  uint64_t bytes = 0;
  std::clock_t c0 = std::clock();
  auto on_line = [&](std::string_view line, uint64_t no, uint64_t) { parser.feed_line(line, no); };
  for (;;) {
    size_t n = std::fread(buf.data(), 1, buf.size(), f);
    if (n == 0) break;
    bytes += n;
    splitter.feed(buf.data(), n, on_line);
  }
  splitter.finish(on_line);
  parser.finish();
  double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  std::fclose(f);
  for (size_t i = 0; i < static_cast<size_t>(GcType::kCount); ++i)
    if (sink.by_type[i]) std::printf("%s %llu\n", gc_type_name(static_cast<GcType>(i)), (unsigned long long)sink.by_type[i]);
  std::printf("safepoints %llu tenuring %llu unparsed %llu pause_total_s %.6f\n", (unsigned long long)sink.safepoints,
              (unsigned long long)sink.tenuring, (unsigned long long)sink.unparsed, sink.pause_total);
  for (auto& fl : diary.flags)
    if (fl.second == Tri::kTrue) std::printf("%s ", fl.first.c_str());
  std::printf("\nbytes %llu cpu_s %.3f MB/s %.1f\n", (unsigned long long)bytes, cpu, cpu > 0 ? bytes / 1e6 / cpu : 0.0);
  return 0;
}
