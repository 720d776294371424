// libFuzzer target for the byte sources alone: gzip streaming inflate and the zip reader, with tight
// limits so decompression bombs are exercised rather than just slow.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/gzip_decoder.h"
#include "core/zip_archive.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gcscope::InflateLimits limits;
  limits.max_output = 64u << 20;
  limits.ratio_floor = 1u << 20;
  limits.max_ratio = 200;
  {
    gcscope::GzipDecoder gz(limits);
    size_t chunk = size ? 1 + data[0] % 61 : 1;
    for (size_t off = 0; off < size; off += chunk)
      if (!gz.feed(data + off, size - off < chunk ? size - off : chunk, [](const char*, size_t) {})) break;
    gz.finish();
  }
  {
    gcscope::ZipArchive zip;
    if (zip.open(std::string_view(reinterpret_cast<const char*>(data), size)))
      for (const auto& m : zip.members())
        zip.extract(
            m, [](const char*, size_t) {}, limits);
  }
  return 0;
}
