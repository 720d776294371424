// Parser-alone driver for the unified (JDK 9+) GC log parser: reads a plain log in 8 MiB blocks, splits
// lines with the core LineSplitter, feeds the unified LogParser, and prints events by type, a checksum of
// their times and durations (to compare two builds' results exactly), unparsed lines and MB/s (input MB
// / process CPU seconds). The report layer (aggregator, JSON) is left out: bench/jvm/run.sh measures the
// whole CLI. Build and run: bench/jvm/run_parser.sh.
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "core/line_splitter.h"
#include "jvm/log_parser.h"

using namespace gcscope;
using namespace gcscope::jvm;

namespace {
uint64_t bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
struct CountSink : GcEventSink {
  uint64_t by_type[static_cast<size_t>(GcType::kCount)] = {};
  uint64_t safepoints = 0, unparsed = 0, checksum = 0, phases = 0;
  void mix(double d) { checksum = (checksum ^ bits(d)) * 0x100000001b3ULL; }
  void on_event(const GcEvent& e) override {
    ++by_type[static_cast<size_t>(e.type)];
    mix(e.uptime_s), mix(e.duration_s), mix(static_cast<double>(e.heap.after_kb)), mix(e.user_s);
    for (const auto& ph : e.phases) mix(ph.second), ++phases;
  }
  void on_safepoint(const SafepointEvent& s) override { ++safepoints, mix(s.uptime_s), mix(s.stopped_s); }
  void on_unparsed(uint32_t, uint64_t, std::string_view) override { ++unparsed; }
};
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: unified_driver LOG\n");
    return 2;
  }
  CountSink sink;
  auto parser = make_unified_parser(sink, 0);
  FILE* f = std::fopen(argv[1], "rb");
  if (!f) return 2;
  std::vector<char> buf(8 << 20);
  LineSplitter splitter;
  uint64_t bytes = 0;
  std::clock_t c0 = std::clock();
  LogParser* p = parser.get();
  auto on_line = [p](std::string_view line, uint64_t no, uint64_t) { p->feed_line(line, no); };
  for (;;) {
    size_t n = std::fread(buf.data(), 1, buf.size(), f);
    if (n == 0) break;
    bytes += n;
    splitter.feed(buf.data(), n, on_line);
  }
  splitter.finish(on_line);
  parser->finish();
  double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
  std::fclose(f);
  for (size_t i = 0; i < static_cast<size_t>(GcType::kCount); ++i)
    if (sink.by_type[i]) std::printf("%s %llu\n", gc_type_name(static_cast<GcType>(i)), (unsigned long long)sink.by_type[i]);
  std::printf("safepoints %llu phases %llu unparsed %llu checksum %016llx\n", (unsigned long long)sink.safepoints,
              (unsigned long long)sink.phases, (unsigned long long)sink.unparsed, (unsigned long long)sink.checksum);
  std::printf("bytes %llu cpu_s %.3f MB/s %.1f\n", (unsigned long long)bytes, cpu, bytes / 1e6 / cpu);
  return 0;
}
