// Test helpers for the legacy JVM parser: decode a corpus file (plain, .gz, .zip members) and run the
// LegacyGcLogParser over it through a sink that keeps counts and totals.
#pragma once
#include <array>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "core/gzip_decoder.h"
#include "core/line_splitter.h"
#include "core/zip_archive.h"
#include "jvm/legacy/legacy_parser.h"
#include "support.h"

namespace gcscope::test {

inline std::vector<NamedBytes> decode_members(const std::string& path) {
  std::string raw = read_file(path);
  const auto* p = reinterpret_cast<const uint8_t*>(raw.data());
  std::vector<NamedBytes> out;
  if (looks_gzip(p, raw.size())) {
    GzipDecoder gz;
    std::string dec;
    gz.feed(p, raw.size(), [&](const char* d, size_t n) { dec.append(d, n); });
    gz.finish();
    out.push_back({path, std::move(dec)});
  } else if (looks_zip(p, raw.size())) {
    ZipArchive zip;
    if (zip.open(raw))
      for (const auto& m : zip.members()) {
        if (m.is_directory() || is_archive_noise(m.name)) continue;
        std::string dec;
        zip.extract(m, [&](const char* d, size_t n) { dec.append(d, n); });
        out.push_back({m.name, std::move(dec)});
      }
  } else {
    out.push_back({path, std::move(raw)});
  }
  return out;
}

struct CollectingSink : jvm::GcEventSink {
  std::array<uint64_t, static_cast<size_t>(jvm::GcType::kCount)> by_type{};
  std::vector<jvm::GcEvent> events;  // causes are not kept (their views die after on_event)
  std::deque<std::string> causes;    // stable storage the kept events' cause views point into
  uint64_t safepoints = 0, tenuring = 0, unparsed = 0;
  double safepoint_total_s = 0;
  std::vector<std::pair<uint64_t, std::string>> first_unparsed;
  bool keep_events = true;
  void on_event(const jvm::GcEvent& e) override {
    ++by_type[static_cast<size_t>(e.type)];
    if (keep_events) {
      causes.emplace_back(e.cause);
      events.push_back(e);
      events.back().cause = causes.back();
      events.back().phases.clear();
      for (const auto& ph : e.phases) {
        causes.emplace_back(ph.first);
        events.back().phases.emplace_back(causes.back(), ph.second);
      }
    }
  }
  double first_safepoint_uptime_s = -1, last_safepoint_uptime_s = -1, last_safepoint_stopped_s = -1;
  void on_safepoint(const jvm::SafepointEvent& s) override {
    if (safepoints == 0) first_safepoint_uptime_s = s.uptime_s;
    last_safepoint_uptime_s = s.uptime_s;
    last_safepoint_stopped_s = s.stopped_s;
    ++safepoints;
    if (s.stopped_s == s.stopped_s) safepoint_total_s += s.stopped_s;
  }
  void on_unparsed(uint32_t, uint64_t line, std::string_view text) override {
    ++unparsed;
    if (first_unparsed.size() < 20) first_unparsed.emplace_back(line, std::string(text.substr(0, 200)));
  }
  void on_tenuring(const jvm::TenuringRecord&) override { ++tenuring; }
  uint64_t count(jvm::GcType t) const { return by_type[static_cast<size_t>(t)]; }
};

struct LegacyRun {
  CollectingSink sink;
  jvm::Diary diary;
  jvm::LegacyGcLogParser::Stats stats;
};

// Feeds the bytes in `chunk`-sized pieces through the core LineSplitter, the way the Analyzer will.
inline void run_legacy(LegacyRun& run, const std::vector<NamedBytes>& members, size_t chunk = 1 << 20) {
  jvm::LegacyGcLogParser parser(run.sink, run.diary);
  uint32_t idx = 0;
  for (const auto& m : members) {
    parser.set_member(idx++);
    LineSplitter splitter;
    auto on_line = [&](std::string_view line, uint64_t no, uint64_t) { parser.feed_line(line, no); };
    for (size_t off = 0; off < m.bytes.size(); off += chunk)
      splitter.feed(m.bytes.data() + off, std::min(chunk, m.bytes.size() - off), on_line);
    splitter.finish(on_line);
  }
  parser.finish();
  run.stats = parser.stats();
}

inline jvm::Tri diary_flag(const jvm::Diary& d, const std::string& name) {
  for (const auto& f : d.flags)
    if (f.first == name) return f.second;
  return jvm::Tri::kUnknown;
}

}  // namespace gcscope::test
