// GzipDecoder: streaming gzip inflate (zlib), fed compressed chunks, emitting decoded chunks.
// Handles multi-member gzip files (what `cat a.gz b.gz` or some log rotators produce) and refuses
// gzip bombs: decoding stops with a clear message once the output exceeds an absolute cap, or a
// ratio cap after a minimum size (a real log compresses 5-50x; 2000x only happens on purpose).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace gcscope {

struct InflateLimits {
  uint64_t max_output = uint64_t(64) << 30;    // 64 GiB: beyond anything one would drop
  uint64_t ratio_floor = uint64_t(256) << 20;  // ratio checks start after 256 MiB of output
  uint64_t max_ratio = 2000;
};

class GzipDecoder {
 public:
  using Sink = std::function<void(const char* data, size_t len)>;

  explicit GzipDecoder(InflateLimits limits = {});
  ~GzipDecoder();
  GzipDecoder(const GzipDecoder&) = delete;
  GzipDecoder& operator=(const GzipDecoder&) = delete;

  // Decodes `len` compressed bytes, calling `sink` with decoded data. Returns false once the stream
  // is known bad; error() and error_offset() (compressed byte offset) then say why and where.
  bool feed(const uint8_t* data, size_t len, const Sink& sink);
  // Call at end of input: false if the last member was cut short.
  bool finish();

  const std::string& error() const { return error_; }
  uint64_t error_offset() const { return error_offset_; }
  uint64_t bytes_in() const { return in_total_; }
  uint64_t bytes_out() const { return out_total_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  InflateLimits limits_;
  std::string error_;
  uint64_t error_offset_ = 0;
  uint64_t in_total_ = 0;
  uint64_t out_total_ = 0;
  bool in_member_ = false;  // inside a gzip member that has not reached its end
  bool failed_ = false;
};

// True when the bytes start with the gzip magic number.
inline bool looks_gzip(const uint8_t* p, size_t n) { return n >= 2 && p[0] == 0x1f && p[1] == 0x8b; }

}  // namespace gcscope
