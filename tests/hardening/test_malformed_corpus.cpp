// Hardening: every malformed, broken or hostile file of the shared corpus, through the whole pipeline
// the way the CLI and the worker run it. Whatever the file, nothing crashes or throws, no analyzer
// reports an internal error, every complaint names its file and a line or byte offset, and the
// machine-readable outcomes the corpus manifests write down hold (the domain tests check the details).
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "support.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()

namespace {

struct Case {
  std::string path;
  std::string from;  // which manifest describes it
};

std::vector<Case> malformed_files() {
  namespace fs = std::filesystem;
  std::vector<Case> out;
  auto add_dir = [&](const std::string& rel, const std::string& from, const std::set<std::string>& skip) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(corpus(rel)))
      if (e.is_regular_file() && !skip.count(e.path().filename().string())) names.push_back(e.path().string());
    std::sort(names.begin(), names.end());
    for (auto& n : names) out.push_back({n, from});
  };
  add_dir("heap/malformed", "heap/malformed/expectations.json", {"expectations.json"});
  add_dir("prof/broken", "prof/broken/broken.json", {"broken.json"});
  add_dir("trace/malformed", "trace/manifest.json", {});
  add_dir("jvm/gctoolkit/preunified/g1gc/corrupted", "jvm/manifest.json", {});
  const auto tuner = read_json(corpus("tuner/manifest.json"));  // kept alive: the loop iterates into it
  for (const auto& f : tuner["files"])
    if (f["file"].get<std::string>().rfind("mf", 0) == 0)
      out.push_back({corpus("tuner/" + f["file"].get<std::string>()), "tuner/manifest.json"});
  return out;
}

}  // namespace

TEST_CASE("hardening: every malformed corpus file gives precise errors, never a crash", "[hardening][corpus]") {
  auto files = malformed_files();
  REQUIRE(files.size() >= 80);  // 23 heap + 23 prof + 15 trace + 26 tuner + jvm (counted from the corpus folders)
  size_t with_errors = 0;
  for (const auto& c : files) {
    INFO(c.path << " (described in " << c.from << ")");
    for (size_t chunk : {size_t(4096), size_t(7)}) {
      if (chunk == 7 && std::filesystem::file_size(c.path) > 300000) continue;  // keep the suite fast
      nlohmann::json doc;
      REQUIRE_NOTHROW(doc = analyze_paths({c.path}, nlohmann::json::object(), chunk));
      REQUIRE(doc.contains("inputs"));
      REQUIRE(doc.contains("reports"));
      REQUIRE(doc.contains("errors"));
      CHECK_NOTHROW(doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      for (const auto& e : doc["errors"]) {
        const std::string msg = e["message"];
        INFO("diagnostic: " << msg);
        CHECK(msg.find("internal error") == std::string::npos);
        CHECK(!e["path"].get<std::string>().empty());
        CHECK(msg.size() > 10);
        // An error points at its place: a line, a byte offset, or (for JSON documents such as a
        // TuneMyGC payload, whose protocol names positions) the element it is about. Warnings may
        // describe the whole input ("the profile has no gc_samples counter").
        if (e.value("severity", "error") == "error") {
          bool structural = msg.find("element") != std::string::npos || msg.find("header[") != std::string::npos ||
                            msg.find("sample #") != std::string::npos;
          CHECK((e["line"].is_number() || e["offset"].is_number() || structural));
        }
      }
      if (chunk == 4096 && !doc["errors"].empty()) ++with_errors;
    }
  }
  // Most of these files are broken on purpose: the few valid ones (an empty-but-valid profile, a
  // valid reference payload, a CRLF capture) are the exceptions.
  CHECK(with_errors * 10 >= files.size() * 6);
}

TEST_CASE("hardening: the manifests' machine-readable outcomes hold", "[hardening][corpus]") {
  // Tuner: the verdict status the offline tuner must give, per payload.
  const auto tuner = read_json(corpus("tuner/manifest.json"));
  for (const auto& f : tuner["files"]) {
    const std::string file = f["file"];
    if (file.rfind("mf", 0) != 0) continue;
    INFO(file);
    auto doc = analyze_paths({corpus("tuner/" + file)});
    REQUIRE(doc["reports"].size() == 1);
    CHECK(doc["reports"][0]["verdict"]["status"] == f["expected_offline_status"]);
  }
  // Tracing: where the manifest names the line of the error, an error or warning is on that line.
  const auto trace = read_json(corpus("trace/manifest.json"));
  for (const auto& f : trace["files"]) {
    const std::string rel = f["path"];
    if (rel.rfind("malformed/", 0) != 0) continue;
    const auto& expect = f["expect"];
    std::vector<int64_t> lines;
    if (expect.contains("line")) lines.push_back(expect["line"].get<int64_t>());
    if (expect.contains("errors"))
      for (const auto& e : expect["errors"]) lines.push_back(e["line"].get<int64_t>());
    if (lines.empty()) continue;
    INFO(rel);
    auto doc = analyze_paths({corpus("trace/" + rel)});
    for (int64_t line : lines) {
      bool found = false;
      for (const auto& e : doc["errors"])
        if (e["line"].is_number() && e["line"].get<int64_t>() == line) found = true;
      CHECK(found);
    }
  }
  // Heap: the malformed rbkit capture cut inside frame 6 reports its truncation at that frame.
  auto heap = read_json(corpus("heap/malformed/expectations.json"));
  const auto& cut = heap["rbkit_truncated_mid_frame.rbkit"];
  auto doc = analyze_paths({corpus("heap/malformed/rbkit_truncated_mid_frame.rbkit")});
  bool at_frame = false;
  for (const auto& e : doc["errors"])
    if (e["offset"].is_number() && e["offset"].get<int64_t>() >= cut["truncated_frame_offset"].get<int64_t>())
      at_frame = true;
  CHECK(at_frame);
}
