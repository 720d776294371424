#include "gzip_decoder.h"

#include <zlib.h>

#include <cstring>
#include <string>

namespace gcscope {

struct GzipDecoder::State {
  z_stream zs;
  bool initialized = false;
  unsigned char out[1 << 16];
};

GzipDecoder::GzipDecoder(InflateLimits limits) : state_(new State), limits_(limits) {
  std::memset(&state_->zs, 0, sizeof(state_->zs));
  // 16 + MAX_WBITS: gzip wrapper only; a zlib- or raw-deflate stream is not a .gz file.
  if (inflateInit2(&state_->zs, 16 + MAX_WBITS) == Z_OK) {
    state_->initialized = true;
  } else {
    failed_ = true;
    error_ = "gzip: zlib could not be initialized";
  }
}

GzipDecoder::~GzipDecoder() {
  if (state_->initialized) inflateEnd(&state_->zs);
}

bool GzipDecoder::feed(const uint8_t* data, size_t len, const Sink& sink) {
  if (failed_) return false;
  z_stream& zs = state_->zs;
  size_t consumed = 0;
  while (consumed < len) {
    if (!in_member_) {
      // Between members: anything other than a new gzip header ends the useful data. Some tools pad
      // with zeros; tolerate zero padding, reject anything else precisely.
      size_t i = consumed;
      while (i < len && data[i] == 0) ++i;
      in_total_ += i - consumed;
      consumed = i;
      if (consumed >= len) break;
      if (data[consumed] != 0x1f) {
        failed_ = true;
        error_offset_ = in_total_;
        error_ = "gzip: expected a gzip member header (1f 8b) or end of file, found byte 0x" +
                 std::string(1, "0123456789abcdef"[data[consumed] >> 4]) +
                 std::string(1, "0123456789abcdef"[data[consumed] & 15]);
        return false;
      }
      inflateReset(&zs);
      in_member_ = true;
    }
    uInt chunk = static_cast<uInt>(std::min<size_t>(len - consumed, 1u << 30));
    zs.next_in = const_cast<Bytef*>(data + consumed);
    zs.avail_in = chunk;
    int rc = Z_OK;
    do {
      zs.next_out = state_->out;
      zs.avail_out = sizeof(state_->out);
      rc = inflate(&zs, Z_NO_FLUSH);
      size_t produced = sizeof(state_->out) - zs.avail_out;
      if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_MEM_ERROR || rc == Z_STREAM_ERROR) {
        failed_ = true;
        error_offset_ = in_total_ + (chunk - zs.avail_in);
        error_ = std::string("gzip: corrupt compressed data (") + (zs.msg ? zs.msg : "inflate error") + ")";
        return false;
      }
      if (produced) {
        out_total_ += produced;
        uint64_t in_now = in_total_ + (chunk - zs.avail_in);
        if (out_total_ > limits_.max_output ||
            (out_total_ > limits_.ratio_floor && in_now > 0 && out_total_ / in_now > limits_.max_ratio)) {
          failed_ = true;
          error_offset_ = in_now;
          error_ = "gzip: refusing to decompress further: " + std::to_string(in_now) +
                   " compressed bytes expand to more than " + std::to_string(out_total_) +
                   " bytes (a decompression bomb or a ratio above " + std::to_string(limits_.max_ratio) + ":1)";
          return false;
        }
        sink(reinterpret_cast<const char*>(state_->out), produced);
      }
      if (rc == Z_STREAM_END) break;
      if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;  // needs more input
    } while (zs.avail_in > 0 || zs.avail_out == 0);
    size_t used = chunk - zs.avail_in;
    consumed += used;
    in_total_ += used;
    if (rc == Z_STREAM_END) in_member_ = false;
  }
  return true;
}

bool GzipDecoder::finish() {
  if (failed_) return false;
  if (in_member_) {
    failed_ = true;
    error_offset_ = in_total_;
    error_ = "gzip: stream truncated at compressed byte " + std::to_string(in_total_) +
             " (the last member has no end; the file was cut short)";
    return false;
  }
  return true;
}

}  // namespace gcscope
