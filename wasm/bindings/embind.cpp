// The Embind surface the Web Worker uses. The worker owns the File; it copies 1 MiB slices into
// a wasm buffer (allocBytes) and calls feed(ptr, len), so a file never has to fit in wasm memory.
// Every entry point catches, so a C++ exception becomes a JSON error, never a dead worker.
#include <emscripten/bind.h>

#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include "core/identify.h"
#include "core/input_set.h"
#include "core/raw_json.h"
#include "core/version.h"

namespace {

std::string error_document(const std::string& message) {
  nlohmann::json doc = {{"gcscope", gcscope::kVersion},
                        {"inputs", nlohmann::json::array()},
                        {"reports", nlohmann::json::array()},
                        {"errors", {{{"path", ""}, {"line", nullptr}, {"offset", nullptr}, {"message", message}}}}};
  return doc.dump();
}

class Session {
 public:
  explicit Session(const std::string& options_json) {
    nlohmann::json options = nlohmann::json::parse(options_json, nullptr, false);
    set_ = std::make_unique<gcscope::InputSet>(options.is_object() ? options : nlohmann::json::object());
  }
  void beginFile(const std::string& path) { guard([&] { set_->begin_file(path); }); }
  void feed(uintptr_t ptr, size_t len) {
    guard([&] { set_->feed(reinterpret_cast<const uint8_t*>(ptr), len); });
  }
  void endFile() { guard([&] { set_->end_file(); }); }
  double decodedBytes() const { return static_cast<double>(set_->decoded_bytes()); }
  // The report left in the session's memory, for JS to read as bytes: (finishInPlace() → pointer,
  // reportLength()) and decode with TextDecoder. Returning a std::string instead makes Embind copy it
  // and walk it byte by byte in JS twice (looking for NULs): ~100 ms for the 4 MB report of a 200 MB
  // JVM log in V8, more than the report's writing.
  uintptr_t finishInPlace() {
    report_ = finish();
    return reinterpret_cast<uintptr_t>(report_.data());
  }
  double reportLength() const { return static_cast<double>(report_.size()); }
  std::string finish() {
    try {
      nlohmann::json doc = set_->finish();
      if (!fault_.empty())
        doc["errors"].push_back({{"path", ""}, {"line", nullptr}, {"offset", nullptr}, {"message", fault_}});
      return gcscope::raw_json::dump_document(doc);
    } catch (const std::exception& e) {
      return error_document(std::string("internal error while writing the report: ") + e.what());
    }
  }

 private:
  template <typename F>
  void guard(F&& f) {
    if (!fault_.empty()) return;
    try {
      f();
    } catch (const std::bad_alloc&) {
      fault_ = "out of memory while analyzing (wasm memory is limited to 4 GB)";
    } catch (const std::exception& e) {
      fault_ = std::string("internal error: ") + e.what();
    }
  }
  std::unique_ptr<gcscope::InputSet> set_;
  std::string fault_;
  std::string report_;
};

uintptr_t allocBytes(size_t n) { return reinterpret_cast<uintptr_t>(std::malloc(n)); }
void freeBytes(uintptr_t p) { std::free(reinterpret_cast<void*>(p)); }
std::string version() { return gcscope::kVersion; }

// Identification alone, for a quick answer before the full analysis.
std::string identifyHead(const std::string& head, bool complete) {
  gcscope::Identification id = gcscope::identify(head, complete);
  nlohmann::json j = {{"format", id.format}, {"reason", id.reason}};
  for (auto& [k, v] : id.details.items()) j[k] = v;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

EMSCRIPTEN_BINDINGS(gcscope) {
  emscripten::class_<Session>("Session")
      .constructor<std::string>()
      .function("beginFile", &Session::beginFile)
      .function("feed", &Session::feed)
      .function("endFile", &Session::endFile)
      .function("decodedBytes", &Session::decodedBytes)
      .function("finish", &Session::finish)
      .function("finishInPlace", &Session::finishInPlace)
      .function("reportLength", &Session::reportLength);
  emscripten::function("allocBytes", &allocBytes);
  emscripten::function("freeBytes", &freeBytes);
  emscripten::function("version", &version);
  emscripten::function("identifyHead", &identifyHead);
}
