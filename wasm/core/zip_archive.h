// ZipArchive: reads a .zip from a complete buffer through its central directory (the only reliable
// index: local headers may defer sizes to data descriptors), then streams each member out through
// inflate. Stored (0) and deflated (8) members, zip64 sizes and offsets; every declared size and
// offset is checked against the bytes actually present before use.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gzip_decoder.h"

namespace gcscope {

struct ZipMember {
  std::string name;
  uint16_t method = 0;
  uint16_t flags = 0;
  uint64_t compressed_size = 0;
  uint64_t uncompressed_size = 0;
  uint64_t local_header_offset = 0;
  uint32_t crc32 = 0;
  bool is_directory() const { return !name.empty() && name.back() == '/'; }
};

class ZipArchive {
 public:
  // Parses the central directory. On failure returns false and sets error()/error_offset().
  bool open(std::string_view bytes);
  const std::vector<ZipMember>& members() const { return members_; }

  // Streams a member's decoded bytes to `sink`; false with error()/error_offset() on failure
  // (unsupported method, encryption, corrupt data, CRC mismatch, size beyond the limits).
  bool extract(const ZipMember& m, const std::function<void(const char*, size_t)>& sink, InflateLimits limits = {});

  const std::string& error() const { return error_; }
  uint64_t error_offset() const { return error_offset_; }

 private:
  bool fail(uint64_t offset, std::string message);
  std::string_view bytes_;
  std::vector<ZipMember> members_;
  std::string error_;
  uint64_t error_offset_ = 0;
};

inline bool looks_zip(const uint8_t* p, size_t n) {
  // Local file header, or the end record of an empty archive.
  return n >= 4 && p[0] == 'P' && p[1] == 'K' && ((p[2] == 3 && p[3] == 4) || (p[2] == 5 && p[3] == 6));
}

// Members that archivers add and nobody wants analyzed.
bool is_archive_noise(const std::string& name);

}  // namespace gcscope
