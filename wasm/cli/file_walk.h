// Expands CLI paths into the ordered list of files of one input set: a directory contributes its
// files recursively in name order (content order, e.g. of rotated logs, is the analyzers' business).
#pragma once
#include <string>
#include <vector>

namespace gcscope::cli {

struct PathError {
  std::string path;
  std::string message;
};

std::vector<std::string> expand_paths(const std::vector<std::string>& paths, std::vector<PathError>& errors);

// Streams one file into `sink` in 8 MiB blocks; false with a message when it cannot be read.
template <typename Sink>
bool read_file_chunks(const std::string& path, Sink&& sink, std::string& error);

}  // namespace gcscope::cli

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace gcscope::cli {

template <typename Sink>
bool read_file_chunks(const std::string& path, Sink&& sink, std::string& error) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) {
    error = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  constexpr size_t kChunk = 8u << 20;
  std::unique_ptr<unsigned char[]> buf(new unsigned char[kChunk]);
  for (;;) {
    size_t n = std::fread(buf.get(), 1, kChunk, f.get());
    if (n) sink(buf.get(), n);
    if (n < kChunk) {
      if (std::ferror(f.get())) {
        error = std::string("read error: ") + std::strerror(errno);
        return false;
      }
      return true;
    }
  }
}

}  // namespace gcscope::cli
