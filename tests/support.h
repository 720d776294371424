// Shared helpers for the Catch2 tests: real files from fixtures/ and the shared corpus, and the
// whole pipeline (InputSet) run over them the way the CLI and the worker run it.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/input_set.h"
#include "core/raw_json.h"

namespace gcscope::test {

// The shared corpus of real inputs with peers' expectations (not part of the repository): the folder
// the environment's GCSCOPE_CORPUS_DIR names, else ../shared/corpus beside the checkout.
// Test cases that read it carry the tag [corpus]: `gcscope_tests "~[corpus]"` (CTest: -LE corpus)
// runs those that need only the repository.
inline const std::string& corpus_root() {
  static const std::string root = [] {
    const char* env = std::getenv("GCSCOPE_CORPUS_DIR");
    return env && *env ? std::string(env) : std::string(GCSCOPE_SOURCE_DIR) + "/../shared/corpus";
  }();
  return root;
}
inline std::string corpus(const std::string& rel) { return corpus_root() + "/" + rel; }
inline std::string fixture(const std::string& rel) { return std::string(GCSCOPE_SOURCE_DIR) + "/fixtures/" + rel; }

inline bool file_exists(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return f.good();
}

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("test input missing: " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline nlohmann::json read_json(const std::string& path) { return nlohmann::json::parse(read_file(path)); }

// Runs the pipeline over in-memory files, feeding `chunk` bytes at a time (0 = all at once).
struct NamedBytes {
  std::string path;
  std::string bytes;
};
inline nlohmann::json analyze_bytes(const std::vector<NamedBytes>& files,
                                    nlohmann::json options = nlohmann::json::object(), size_t chunk = 0) {
  InputSet set(options);
  for (const auto& f : files) {
    set.begin_file(f.path);
    const auto* p = reinterpret_cast<const uint8_t*>(f.bytes.data());
    size_t step = chunk ? chunk : (f.bytes.empty() ? 1 : f.bytes.size());
    for (size_t off = 0; off < f.bytes.size(); off += step) set.feed(p + off, std::min(step, f.bytes.size() - off));
    set.end_file();
  }
  // As a reader of the written document sees it: pre-serialized parts parsed (core/raw_json.h).
  nlohmann::json doc = set.finish();
  raw_json::resolve(doc);
  return doc;
}

// Runs the pipeline over files on disk (paths as given), in 1 MiB chunks.
inline nlohmann::json analyze_paths(const std::vector<std::string>& paths,
                                    nlohmann::json options = nlohmann::json::object(), size_t chunk = 1 << 20) {
  std::vector<NamedBytes> files;
  for (const auto& p : paths) files.push_back({p, read_file(p)});
  return analyze_bytes(files, std::move(options), chunk);
}

// The first report of the given format in a document (throws when absent, failing the test).
inline const nlohmann::json& report_of(const nlohmann::json& doc, const std::string& format) {
  for (const auto& r : doc.at("reports"))
    if (r.at("format") == format) return r;
  throw std::runtime_error("no report of format " + format + " in: " + doc.dump().substr(0, 2000));
}

}  // namespace gcscope::test
