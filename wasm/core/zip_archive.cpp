#include "zip_archive.h"

#include <zlib.h>

#include <cstring>

namespace gcscope {
namespace {

uint16_t rd16(const unsigned char* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t rd32(const unsigned char* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
         (static_cast<uint32_t>(p[3]) << 24);
}
uint64_t rd64(const unsigned char* p) { return rd32(p) | (static_cast<uint64_t>(rd32(p + 4)) << 32); }

constexpr uint32_t kEndOfCentralDir = 0x06054b50;
constexpr uint32_t kZip64EndLocator = 0x07064b50;
constexpr uint32_t kZip64End = 0x06064b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kLocalHeader = 0x04034b50;

}  // namespace

bool is_archive_noise(const std::string& name) {
  if (name.rfind("__MACOSX/", 0) == 0) return true;
  size_t slash = name.find_last_of('/');
  std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  return base == ".DS_Store" || base == "Thumbs.db" || base.rfind("._", 0) == 0;
}

bool ZipArchive::fail(uint64_t offset, std::string message) {
  error_offset_ = offset;
  error_ = "zip: " + std::move(message);
  return false;
}

bool ZipArchive::open(std::string_view bytes) {
  bytes_ = bytes;
  members_.clear();
  const auto* b = reinterpret_cast<const unsigned char*>(bytes.data());
  const uint64_t n = bytes.size();
  if (n < 22)
    return fail(0, "file too short for a zip archive (" + std::to_string(n) + " bytes; the end record alone is 22)");
  // The end record sits in the last 22 + 65535 bytes (its comment is at most 64 KiB).
  uint64_t lo = n > 22 + 65535 ? n - 22 - 65535 : 0;
  int64_t eocd = -1;
  for (uint64_t i = n - 22 + 1; i-- > lo;) {
    if (rd32(b + i) == kEndOfCentralDir) {
      eocd = static_cast<int64_t>(i);
      break;
    }
  }
  if (eocd < 0) return fail(n, "no end-of-central-directory record in the last 64 KiB (truncated archive?)");
  const unsigned char* e = b + eocd;
  uint64_t count = rd16(e + 10);
  uint64_t cd_size = rd32(e + 12);
  uint64_t cd_offset = rd32(e + 16);
  if ((count == 0xFFFF || cd_size == 0xFFFFFFFFu || cd_offset == 0xFFFFFFFFu) && eocd >= 20 &&
      rd32(b + eocd - 20) == kZip64EndLocator) {
    uint64_t z64 = rd64(b + eocd - 20 + 8);
    if (z64 + 56 > n || rd32(b + z64) != kZip64End) return fail(eocd - 20, "zip64 locator points outside the file");
    count = rd64(b + z64 + 32);
    cd_size = rd64(b + z64 + 40);
    cd_offset = rd64(b + z64 + 48);
  }
  if (cd_offset > n || cd_size > n - cd_offset)
    return fail(eocd, "central directory (offset " + std::to_string(cd_offset) + ", " + std::to_string(cd_size) +
                          " bytes) lies outside the " + std::to_string(n) + "-byte file");
  // A central record is at least 46 bytes, so a declared count beyond that is a lie.
  if (count > cd_size / 46 + 1)
    return fail(eocd, "end record declares " + std::to_string(count) + " members, more than the directory can hold");
  members_.reserve(static_cast<size_t>(count));
  uint64_t p = cd_offset;
  for (uint64_t i = 0; i < count; ++i) {
    if (p + 46 > n || rd32(b + p) != kCentralHeader)
      return fail(
          p, "central directory entry " + std::to_string(i) + " is missing or corrupt (expected signature PK\\1\\2)");
    const unsigned char* c = b + p;
    ZipMember m;
    m.flags = rd16(c + 8);
    m.method = rd16(c + 10);
    m.crc32 = rd32(c + 16);
    m.compressed_size = rd32(c + 20);
    m.uncompressed_size = rd32(c + 24);
    uint16_t name_len = rd16(c + 28), extra_len = rd16(c + 30), comment_len = rd16(c + 32);
    m.local_header_offset = rd32(c + 42);
    if (p + 46 + name_len + extra_len + comment_len > n)
      return fail(p, "central directory entry " + std::to_string(i) + " runs past the end of the file");
    m.name.assign(reinterpret_cast<const char*>(c + 46), name_len);
    // zip64 extended information: only the fields whose 32-bit slot is saturated are present, in order.
    const unsigned char* x = c + 46 + name_len;
    const unsigned char* xend = x + extra_len;
    while (x + 4 <= xend) {
      uint16_t id = rd16(x), sz = rd16(x + 2);
      if (x + 4 + sz > xend) break;
      if (id == 0x0001) {
        const unsigned char* f = x + 4;
        const unsigned char* fend = f + sz;
        if (m.uncompressed_size == 0xFFFFFFFFu && f + 8 <= fend) {
          m.uncompressed_size = rd64(f);
          f += 8;
        }
        if (m.compressed_size == 0xFFFFFFFFu && f + 8 <= fend) {
          m.compressed_size = rd64(f);
          f += 8;
        }
        if (m.local_header_offset == 0xFFFFFFFFu && f + 8 <= fend) {
          m.local_header_offset = rd64(f);
          f += 8;
        }
      }
      x += 4 + sz;
    }
    members_.push_back(std::move(m));
    p += 46 + name_len + extra_len + comment_len;
  }
  return true;
}

bool ZipArchive::extract(const ZipMember& m, const std::function<void(const char*, size_t)>& sink,
                         InflateLimits limits) {
  const auto* b = reinterpret_cast<const unsigned char*>(bytes_.data());
  const uint64_t n = bytes_.size();
  uint64_t h = m.local_header_offset;
  if (h + 30 > n || rd32(b + h) != kLocalHeader)
    return fail(h, "member '" + m.name + "': no local header at offset " + std::to_string(h));
  if (m.flags & 1) return fail(h, "member '" + m.name + "' is encrypted; gcscope cannot read encrypted archives");
  uint64_t data = h + 30 + rd16(b + h + 26) + rd16(b + h + 28);
  if (data > n || m.compressed_size > n - data)
    return fail(h, "member '" + m.name + "' declares " + std::to_string(m.compressed_size) +
                       " compressed bytes but only " + std::to_string(data > n ? 0 : n - data) +
                       " remain (truncated archive)");
  const unsigned char* src = b + data;
  uLong crc = crc32(0L, Z_NULL, 0);
  uint64_t produced = 0;
  if (m.method == 0) {
    for (uint64_t off = 0; off < m.compressed_size; off += 1 << 20) {
      size_t len = static_cast<size_t>(std::min<uint64_t>(1 << 20, m.compressed_size - off));
      crc = crc32(crc, src + off, static_cast<uInt>(len));
      sink(reinterpret_cast<const char*>(src + off), len);
    }
    produced = m.compressed_size;
  } else if (m.method == 8) {
    z_stream zs;
    std::memset(&zs, 0, sizeof(zs));
    if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) return fail(h, "zlib could not be initialized");
    static thread_local unsigned char out[1 << 16];
    uint64_t in_off = 0;
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
      if (zs.avail_in == 0) {
        if (in_off >= m.compressed_size) break;
        size_t len = static_cast<size_t>(std::min<uint64_t>(1 << 20, m.compressed_size - in_off));
        zs.next_in = const_cast<Bytef*>(src + in_off);
        zs.avail_in = static_cast<uInt>(len);
        in_off += len;
      }
      zs.next_out = out;
      zs.avail_out = sizeof(out);
      rc = inflate(&zs, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
        uint64_t at = data + in_off - zs.avail_in;
        std::string why = zs.msg ? zs.msg : "inflate error";
        inflateEnd(&zs);
        return fail(at, "member '" + m.name + "': corrupt deflate data (" + why + ")");
      }
      size_t got = sizeof(out) - zs.avail_out;
      if (got) {
        produced += got;
        uint64_t consumed = in_off - zs.avail_in;
        if (produced > limits.max_output ||
            (produced > limits.ratio_floor && consumed > 0 && produced / consumed > limits.max_ratio)) {
          inflateEnd(&zs);
          return fail(data + consumed, "member '" + m.name + "': refusing to decompress further (" +
                                           std::to_string(consumed) + " compressed bytes expand past " +
                                           std::to_string(produced) + " bytes: a decompression bomb)");
        }
        crc = crc32(crc, out, static_cast<uInt>(got));
        sink(reinterpret_cast<const char*>(out), got);
      }
      if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in_off >= m.compressed_size) break;
    }
    inflateEnd(&zs);
    if (rc != Z_STREAM_END)
      return fail(data + m.compressed_size, "member '" + m.name + "': deflate stream ends early (truncated member)");
  } else {
    return fail(h, "member '" + m.name + "' uses compression method " + std::to_string(m.method) +
                       "; only stored (0) and deflate (8) are supported");
  }
  if (static_cast<uint32_t>(crc) != m.crc32)
    return fail(data, "member '" + m.name + "': CRC-32 mismatch (data corrupt)");
  if (produced != m.uncompressed_size)
    return fail(data, "member '" + m.name + "': decoded " + std::to_string(produced) + " bytes, directory says " +
                          std::to_string(m.uncompressed_size));
  return true;
}

}  // namespace gcscope
