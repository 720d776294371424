// Following a growing GC log, natively: a big log is fed to one InputSet with option "follow" in
// appends of APPEND_KB, and a report is written (finish(): a snapshot) after every SNAPSHOT_MB of
// appended bytes. Prints the append throughput (MB of input / CPU seconds spent in feed(), the
// snapshots left out) and each snapshot's CPU milliseconds with the size read so far; the last
// line checks that the final snapshot's pause count equals a one-shot analysis's.
// Build and run: bench/jvm/follow.sh.
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "core/input_set.h"

namespace {
double cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: follow_driver LOG [APPEND_KB] [SNAPSHOT_MB]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string log = ss.str();
  const size_t append = static_cast<size_t>(argc > 2 ? std::atof(argv[2]) * 1024 : 64 * 1024);
  const size_t every = static_cast<size_t>(argc > 3 ? std::atof(argv[3]) * 1048576 : 25 * 1048576);

  gcscope::InputSet set(nlohmann::json{{"follow", true}, {"jvm_series", true}});
  set.begin_file("gc.log");
  double feed_cpu = 0;
  size_t next_snapshot = every;
  nlohmann::json doc;
  for (size_t at = 0; at < log.size(); at += append) {
    const size_t n = std::min(append, log.size() - at);
    const double t0 = cpu_s();
    set.feed(reinterpret_cast<const uint8_t*>(log.data()) + at, n);
    feed_cpu += cpu_s() - t0;
    if (at + n >= next_snapshot || at + n == log.size()) {
      const double s0 = cpu_s();
      doc = set.finish();
      std::printf("snapshot at %.0f MB: %.0f ms CPU, %s pauses\n", static_cast<double>(at + n) / 1048576,
                  (cpu_s() - s0) * 1000, doc["reports"][0]["pauses"]["count"].dump().c_str());
      next_snapshot += every;
    }
  }
  std::printf("appends of %zu KB: %.1f MB/s (CPU in feed: %.2f s for %.0f MB)\n", append / 1024,
              static_cast<double>(log.size()) / 1048576 / feed_cpu, feed_cpu, static_cast<double>(log.size()) / 1048576);
  gcscope::InputSet once;
  once.begin_file("gc.log");
  once.feed(reinterpret_cast<const uint8_t*>(log.data()), log.size());
  once.end_file();
  const nlohmann::json single = once.finish();
  const bool same = single["reports"][0]["pauses"]["count"] == doc["reports"][0]["pauses"]["count"] &&
                    single["reports"][0]["pauses"]["total_s"] == doc["reports"][0]["pauses"]["total_s"];
  std::printf("final snapshot %s the one-shot analysis (%s pauses)\n", same ? "equals" : "DIFFERS FROM",
              single["reports"][0]["pauses"]["count"].dump().c_str());
  return same ? 0 : 1;
}
