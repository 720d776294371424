// Times the tuner alone (identification + JSON read + analysis + report), native: the payload is read
// into memory first and fed through the same InputSet the CLI and the worker use, in 4 MiB chunks.
// Prints wall and CPU milliseconds of each run and the median of the CPU times.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/input_set.h"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  std::ifstream f(argv[1], std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string bytes = ss.str();
  int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<double> cpu;
  for (int r = 0; r < runs; ++r) {
    auto w0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    gcscope::InputSet set;
    set.begin_file(argv[1]);
    const size_t chunk = 4u << 20;
    for (size_t off = 0; off < bytes.size(); off += chunk)
      set.feed(reinterpret_cast<const uint8_t*>(bytes.data()) + off, std::min(chunk, bytes.size() - off));
    set.end_file();
    auto doc = set.finish();
    std::clock_t c1 = std::clock();
    auto w1 = std::chrono::steady_clock::now();
    double c_ms = 1000.0 * (c1 - c0) / CLOCKS_PER_SEC;
    cpu.push_back(c_ms);
    std::printf("run %d: wall %.1f ms, cpu %.1f ms, status %s\n", r + 1,
                std::chrono::duration<double, std::milli>(w1 - w0).count(), c_ms,
                doc["reports"][0]["verdict"]["status"].dump().c_str());
  }
  std::sort(cpu.begin(), cpu.end());
  double med = cpu[cpu.size() / 2];
  std::printf("input %.2f MB, median cpu %.1f ms, %.1f MB/s\n", bytes.size() / 1e6, med, bytes.size() / 1e6 / (med / 1000.0));
  return 0;
}
