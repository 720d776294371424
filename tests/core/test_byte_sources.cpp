// Byte sources: gzip (streaming, multi-member, corrupt, truncated) and zip (stored + deflated
// members, nested folders), checked against files made by the real gzip/zip tools where possible.
#include <zlib.h>

#include <catch2/catch.hpp>
#include <string>

#include "core/gzip_decoder.h"
#include "core/zip_archive.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()

namespace {
std::string gunzip_in_chunks(const std::string& gz, size_t chunk, GzipDecoder& dec, bool* ok) {
  std::string out;
  *ok = true;
  for (size_t i = 0; i < gz.size() && *ok; i += chunk)
    *ok = dec.feed(reinterpret_cast<const uint8_t*>(gz.data() + i), std::min(chunk, gz.size() - i),
                   [&](const char* d, size_t n) { out.append(d, n); });
  if (*ok) *ok = dec.finish();
  return out;
}

std::string gzip_of(const std::string& data) {
  // zlib's own gzip writer (deflateInit2 with 16+MAX_WBITS), independent of the decoder under test.
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, data.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(&out[0]);
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}
}  // namespace

TEST_CASE("gzip: a real .gz made by gzip(1) decodes to the original at every chunk size") {
  const std::string original = read_file(fixture("jvm/jdk17-g1-gconly.log"));
  const std::string gz = read_file(fixture("jvm/jdk17-g1-gconly.log.gz"));
  for (size_t chunk : {size_t(1), size_t(2), size_t(3), size_t(7), size_t(64), size_t(653), gz.size()}) {
    GzipDecoder dec;
    bool ok = false;
    INFO("chunk " << chunk);
    CHECK(gunzip_in_chunks(gz, chunk, dec, &ok) == original);
    CHECK(ok);
    CHECK(dec.bytes_out() == original.size());
  }
}

TEST_CASE("gzip: concatenated members decode as one stream") {
  std::string a = "first member\n", b = "second member\n";
  std::string gz = gzip_of(a) + gzip_of(b);
  GzipDecoder dec;
  bool ok = false;
  CHECK(gunzip_in_chunks(gz, 5, dec, &ok) == a + b);
  CHECK(ok);
}

TEST_CASE("gzip: corrupt data is reported with its compressed offset") {
  std::string gz = gzip_of(std::string(5000, 'x') + "tail");
  // Flip bytes inside the deflate body (after the 10-byte header): the block type bits become invalid.
  gz[10] = static_cast<char>(0xff);
  gz[11] = static_cast<char>(0xff);
  GzipDecoder dec;
  bool ok = true;
  gunzip_in_chunks(gz, 3, dec, &ok);
  CHECK_FALSE(ok);
  CHECK(dec.error().find("corrupt") != std::string::npos);
  CHECK(dec.error_offset() >= 10);
  CHECK(dec.error_offset() <= 13);
}

TEST_CASE("gzip: a truncated stream says it was cut short") {
  std::string gz = read_file(fixture("jvm/jdk17-g1-gconly.log.gz"));
  gz.resize(gz.size() / 2);
  GzipDecoder dec;
  bool ok = true;
  std::string out = gunzip_in_chunks(gz, 100, dec, &ok);
  CHECK_FALSE(ok);
  CHECK(dec.error().find("truncated") != std::string::npos);
  CHECK(dec.error_offset() == gz.size());
  CHECK(!out.empty());  // what was decodable before the cut is kept
}

TEST_CASE("gzip: a bomb is refused by the ratio cap") {
  std::string gz = gzip_of(std::string(8 << 20, '\0'));
  InflateLimits limits;
  limits.ratio_floor = 1 << 20;
  limits.max_ratio = 100;
  GzipDecoder dec(limits);
  bool ok = true;
  gunzip_in_chunks(gz, 1 << 16, dec, &ok);
  CHECK_FALSE(ok);
  CHECK(dec.error().find("bomb") != std::string::npos);
}

TEST_CASE("zip: GCToolKit's rotating.zip lists and extracts its members", "[corpus]") {
  const std::string bytes = read_file(corpus("jvm/gctoolkit/streaming/rotating.zip"));
  ZipArchive zip;
  REQUIRE(zip.open(bytes));
  size_t files = 0, total = 0;
  for (const auto& m : zip.members()) {
    if (m.is_directory()) continue;
    ++files;
    std::string out;
    REQUIRE(zip.extract(m, [&](const char* d, size_t n) { out.append(d, n); }));
    CHECK(out.size() == m.uncompressed_size);
    total += out.size();
  }
  CHECK(files >= 2);
  CHECK(total > 0);
}

TEST_CASE("zip: truncated archive and bad member data are precise errors", "[corpus]") {
  std::string bytes = read_file(corpus("jvm/gctoolkit/streaming/rotating.zip"));
  ZipArchive zip;
  CHECK_FALSE(zip.open(bytes.substr(0, bytes.size() / 2)));
  CHECK(zip.error().find("end-of-central-directory") != std::string::npos);

  REQUIRE(zip.open(bytes));
  const ZipMember* first = nullptr;
  for (const auto& m : zip.members())
    if (!m.is_directory() && m.method == 8) {
      first = &m;
      break;
    }
  REQUIRE(first);
  std::string damaged = bytes;
  size_t data = first->local_header_offset + 30 + first->name.size() + 40;
  for (size_t i = 0; i < 16; ++i) damaged[data + i] = static_cast<char>(0xA5 ^ damaged[data + i]);
  ZipArchive z2;
  REQUIRE(z2.open(damaged));
  bool ok = true;
  for (const auto& m : z2.members())
    if (m.name == first->name) ok = z2.extract(m, [](const char*, size_t) {});
  CHECK_FALSE(ok);
  CHECK(z2.error().find(first->name) != std::string::npos);
}
