// The physical-limit reference of the benchmarks: read the file in 8 MiB blocks and count lines with
// memchr, nothing else. A parser's MB/s is also reported as a fraction of this figure.
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gcscope_scan_limit FILE\n");
    return 2;
  }
  std::FILE* f = std::fopen(argv[1], "rb");
  if (!f) {
    std::perror(argv[1]);
    return 1;
  }
  constexpr size_t kChunk = 8u << 20;
  std::unique_ptr<char[]> buf(new char[kChunk]);
  unsigned long long lines = 0, bytes = 0;
  std::timespec t0, t1;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
  for (size_t n; (n = std::fread(buf.get(), 1, kChunk, f)) > 0;) {
    bytes += n;
    for (const char *p = buf.get(), *end = p + n; (p = static_cast<const char*>(std::memchr(p, '\n', end - p))); ++p) ++lines;
  }
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
  double cpu = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
  std::printf("{\"bytes\": %llu, \"lines\": %llu, \"cpu_s\": %.6f}\n", bytes, lines, cpu);
  std::fclose(f);
  return 0;
}
