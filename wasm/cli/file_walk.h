// Expands CLI paths into the ordered list of files of one input set: a directory contributes its
// files recursively in name order (content order, e.g. of rotated logs, is the analyzers' business).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace gcscope::cli {

struct PathError {
  std::string path;
  std::string message;
};

std::vector<std::string> expand_paths(const std::vector<std::string>& paths, std::vector<PathError>& errors);

// Streams one file into `sink` (mapped 16 MiB windows; 8 MiB reads for a pipe or device); false with a
// message when it cannot be read.
template <typename Sink>
bool read_file_chunks(const std::string& path, Sink&& sink, std::string& error);

}  // namespace gcscope::cli

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace gcscope::cli {

// A regular file is mapped window by window and each window is handed to the sink as it is, with no
// copy into a read buffer. Windows are unmapped as soon as
// the sink returns (analyzers keep no pointer into a chunk past feed), so resident memory stays one
// window whatever the file size. Anything else (a pipe, a device) or a failed mapping is read.
template <typename Sink>
bool read_file_chunks(const std::string& path, Sink&& sink, std::string& error) {
  constexpr size_t kChunk = 8u << 20;
  constexpr size_t kWindow = 16u << 20;  // a multiple of the page size
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    const auto size = static_cast<uint64_t>(st.st_size);
    bool mapped_all = true;
    uint64_t off = 0;
    while (off < size) {
      size_t len = static_cast<size_t>(std::min<uint64_t>(kWindow, size - off));
      void* p = ::mmap(nullptr, len, PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(off));
      if (p == MAP_FAILED) {
        mapped_all = false;
        break;
      }
      // Two calls: madvise's advice values are not flags (SEQUENTIAL | WILLNEED is WILLNEED alone).
      ::madvise(p, len, MADV_SEQUENTIAL);
      ::madvise(p, len, MADV_WILLNEED);
      const auto* bytes = static_cast<const unsigned char*>(p);
      for (size_t at = 0; at < len; at += kChunk) sink(bytes + at, std::min(kChunk, len - at));
      ::munmap(p, len);
      off += len;
    }
    if (mapped_all) {
      ::close(fd);
      return true;
    }
    // Mapping failed part-way: read the rest.
    if (::lseek(fd, static_cast<off_t>(off), SEEK_SET) < 0) {
      error = std::string("read error: ") + std::strerror(errno);
      ::close(fd);
      return false;
    }
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(::fdopen(fd, "rb"), &std::fclose);
  if (!f) {
    error = std::string("cannot open: ") + std::strerror(errno);
    ::close(fd);
    return false;
  }
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
