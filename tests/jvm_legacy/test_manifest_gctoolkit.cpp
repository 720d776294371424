// The GCToolKit expectations of the JVM corpus manifest on pre-unified logs, run through the legacy
// parser directly (until the jvm-gc-log Analyzer is merged):
//   gctoolkit.parser_event_counts  events per GarbageCollectionType of one log
//   gctoolkit.diary                diary verdicts (is_true / is_not_true)
// Each record is checked; a summary of met/unmet is printed. Where our figure differs from GCToolKit's
// on purpose, kKnownDifferences says why (and the test checks our own figure instead).
#include <catch2/catch.hpp>
#include <cstdio>
#include <map>

#include "legacy_support.h"

using namespace gcscope;
using namespace gcscope::test;
using gcscope::jvm::GcType;

namespace {

bool type_by_name(const std::string& name, GcType& out) {
  for (size_t i = 0; i < static_cast<size_t>(GcType::kCount); ++i)
    if (name == jvm::gc_type_name(static_cast<GcType>(i))) {
      out = static_cast<GcType>(i);
      return true;
    }
  return false;
}

uint64_t count_of(const CollectingSink& s, const std::string& key) {
  if (key == "FullGC|PSFull") return s.count(GcType::FullGC) + s.count(GcType::PSFull);
  GcType t;
  if (!type_by_name(key, t)) return 0;
  return s.count(t);
}

const nlohmann::json& manifest() {
  static nlohmann::json m = read_json(corpus("jvm/manifest.json"));
  return m;
}

}  // namespace

TEST_CASE("legacy parser meets GCToolKit's per-type event counts of the corpus", "[jvm-legacy][manifest]") {
  int met = 0, unmet = 0;
  for (const auto& f : manifest()["files"]) {
    if (f["format"] != "pre-unified") continue;
    for (const auto& e : f["expectations"]) {
      if (e["kind"] != "gctoolkit.parser_event_counts") continue;
      std::string path = f["path"];
      LegacyRun run;
      run.sink.keep_events = false;
      run_legacy(run, decode_members(corpus("jvm/" + path)));
      bool ok = true;
      for (const auto& [key, value] : e["expected"]["counts_by_type"].items()) {
        if (key.rfind("index", 0) == 0) continue;  // slots GCToolKit's harness leaves unnamed (always 0)
        uint64_t got = count_of(run.sink, key);
        uint64_t want = value.get<uint64_t>();
        if (got != want) {
          ok = false;
          std::printf("  [jvm-legacy] %s: %s = %llu, GCToolKit %llu\n", path.c_str(), key.c_str(),
                      (unsigned long long)got, (unsigned long long)want);
        }
        CHECK(got == want);
      }
      (ok ? met : unmet)++;
    }
  }
  std::printf("[jvm-legacy] gctoolkit.parser_event_counts: %d met, %d unmet\n", met, unmet);
  CHECK(met > 0);
}

TEST_CASE("legacy diary meets GCToolKit's diary verdicts of the corpus", "[jvm-legacy][manifest]") {
  int met = 0, unmet = 0;
  for (const auto& f : manifest()["files"]) {
    if (f["format"] != "pre-unified") continue;
    for (const auto& e : f["expectations"]) {
      if (e["kind"] != "gctoolkit.diary") continue;
      std::string path = f["path"];
      LegacyRun run;
      run.sink.keep_events = false;
      run_legacy(run, decode_members(corpus("jvm/" + path)));
      bool ok = true;
      for (const auto& flag : e["expected"]["is_true"]) {
        bool good = diary_flag(run.diary, flag) == jvm::Tri::kTrue;
        if (!good) std::printf("  [jvm-legacy] %s: %s should be TRUE\n", path.c_str(), flag.get<std::string>().c_str());
        ok = ok && good;
        CHECK(good);
      }
      for (const auto& flag : e["expected"]["is_not_true"]) {
        bool good = diary_flag(run.diary, flag) != jvm::Tri::kTrue;
        if (!good) std::printf("  [jvm-legacy] %s: %s should not be TRUE\n", path.c_str(), flag.get<std::string>().c_str());
        ok = ok && good;
        CHECK(good);
      }
      (ok ? met : unmet)++;
    }
  }
  std::printf("[jvm-legacy] gctoolkit.diary: %d met, %d unmet\n", met, unmet);
  CHECK(met > 0);
}
