// The Embind surface the Web Worker uses. The worker owns the File; it copies 1 MiB slices into
// a wasm buffer (allocBytes) and calls feed(ptr, len), so a file never has to fit in wasm memory.
// Every entry point catches, so a C++ exception becomes a JSON error, never a dead worker.
#include <emscripten/bind.h>

#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include "core/follow.h"
#include "core/input_set.h"
#include "core/query.h"
#include "core/raw_json.h"
#include "core/table_columns.h"
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
  void beginFile(const std::string& path) {
    path_ = path;
    cursor_.restart();
    guard([&] { set_->begin_file(path); });
  }
  void feed(uintptr_t ptr, size_t len) {
    cursor_.advance(std::string_view(reinterpret_cast<const char*>(ptr), len));
    guard([&] { set_->feed(reinterpret_cast<const uint8_t*>(ptr), len); });
  }
  // Following the last file (option "follow"; core/follow.h): given its size now and its first
  // bytes now (head_len bytes at head_ptr), the bytes to read and feed next as JSON {rotated, from,
  // to}. A rotated file's new content starts the set's next member here; finishInPlace() then
  // writes the report of everything read.
  std::string followStep(double size, uintptr_t head_ptr, size_t head_len) {
    gcscope::FollowCursor::Step step =
        cursor_.next(static_cast<uint64_t>(size), std::string_view(reinterpret_cast<const char*>(head_ptr), head_len));
    if (step.rotated) {
      guard([&] {
        set_->end_file();
        set_->begin_file(path_);
      });
      cursor_.restart();
    }
    return nlohmann::json({{"rotated", step.rotated}, {"from", step.from}, {"to", step.to}}).dump();
  }
  void endFile() {
    guard([&] { set_->end_file(); });
  }
  double decodedBytes() const { return static_cast<double>(set_->decoded_bytes()); }
  // Wasm memory the whole input (input_bytes) will need, by the formats identified so far, as JSON
  // (InputSet::memory_estimate); "null" before any is identified.
  std::string memoryEstimate(double input_bytes) const {
    return set_->memory_estimate(static_cast<uint64_t>(input_bytes)).dump();
  }
  // The report left in the session's memory, for JS to read as bytes: (finishInPlace() → pointer,
  // reportLength()) and decode with TextDecoder. Returning a std::string instead makes Embind copy it
  // and walk it byte by byte in JS twice (looking for NULs): ~100 ms for the 4 MB report of a 200 MB
  // JVM log in V8, more than the report's writing.
  uintptr_t finishInPlace() {
    report_ = finish();
    return reinterpret_cast<uintptr_t>(report_.data());
  }
  double reportLength() const { return static_cast<double>(report_.size()); }
  // One question of the query protocol (core/query.h), answered in place like the report:
  // {"result": ...} or {"error": "..."} as JSON text at the returned pointer, resultLength() bytes.
  uintptr_t queryInPlace(const std::string& method, const std::string& args_json) {
    result_ = answer(method, args_json);
    return reinterpret_cast<uintptr_t>(result_.data());
  }
  double resultLength() const { return static_cast<double>(result_.size()); }
  // The rows of table `name` (core/tables.h) as Arrow-layout column batches (core/table_columns.h) of
  // at most `batch_rows` rows: on_batch(description) is called for each, while its buffers are in
  // the wasm heap — {"rows", "columns": [{"name", "type", "nulls", "validity": [ptr, len], "data":
  // [ptr, len], "offsets": [ptr, len] | null}]}, pointers valid during the call only. Returns
  // {"result": {"rows": N}} or {"error": "..."}, like a query.
  std::string writeTableBatches(const std::string& name, int batch_rows, emscripten::val on_batch) {
    try {
      gcscope::tables::ColumnBatches sink(batch_rows > 0 ? static_cast<size_t>(batch_rows) : 65536,
                                          [&](const gcscope::tables::ColumnBatch& b) { on_batch(describe(b)); });
      if (!set_->write_table(name, sink)) return nlohmann::json({{"error", "no table named '" + name + "'"}}).dump();
      return nlohmann::json({{"result", {{"rows", sink.total_rows()}}}}).dump();
    } catch (const std::bad_alloc&) {
      return R"json({"error":"out of memory while writing a table (wasm memory is limited to 4 GB)","oom":true})json";
    } catch (const std::exception& e) {
      return nlohmann::json({{"error", std::string("internal error: ") + e.what()}})
          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
  }
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
  std::string answer(const std::string& method, const std::string& args_json) {
    nlohmann::json args = nlohmann::json::parse(args_json, nullptr, false);
    if (!args.is_object()) args = nlohmann::json::object();
    try {
      return gcscope::raw_json::dump_document({{"result", set_->query(method, args)}});
    } catch (const gcscope::QueryError& e) {
      return nlohmann::json({{"error", e.what()}}).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } catch (const std::bad_alloc&) {
      return R"json({"error":"out of memory while answering (wasm memory is limited to 4 GB)","oom":true})json";
    } catch (const std::exception& e) {
      return nlohmann::json({{"error", std::string("internal error: ") + e.what()}})
          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
  }
  static std::string describe(const gcscope::tables::ColumnBatch& b) {
    auto span = [](const void* p, size_t n) { return nlohmann::json::array({reinterpret_cast<uintptr_t>(p), n}); };
    nlohmann::json columns = nlohmann::json::array();
    for (size_t c = 0; c < b.columns.size(); ++c) {
      const auto& col = b.columns[c];
      columns.push_back({{"name", b.schema->columns[c].name},
                         {"type", gcscope::tables::type_name(col.type)},
                         {"nulls", col.nulls},
                         {"validity", span(col.validity.data(), col.validity.size())},
                         {"data", span(col.data.data(), col.data.size())},
                         {"offsets", col.type == gcscope::tables::Type::kString
                                         ? span(col.offsets.data(), col.offsets.size() * sizeof(int32_t))
                                         : nlohmann::json()}});
    }
    return nlohmann::json({{"rows", b.rows}, {"columns", std::move(columns)}}).dump();
  }
  std::unique_ptr<gcscope::InputSet> set_;
  std::string path_;              // of the file begun last
  gcscope::FollowCursor cursor_;  // where reading of that file stands
  std::string fault_;
  std::string report_;
  std::string result_;
};

uintptr_t allocBytes(size_t n) { return reinterpret_cast<uintptr_t>(std::malloc(n)); }
void freeBytes(uintptr_t p) { std::free(reinterpret_cast<void*>(p)); }
std::string version() { return gcscope::kVersion; }

// The registered formats, as `gcscope formats` prints them (the page's names for them).
std::string formats() { return gcscope::FormatRegistry::builtin().describe().dump(); }

// "" when `id` names a registered format, else the message `gcscope --format` gives (the worker
// refuses a job with a forced format the engine does not know).
std::string unknownFormat(const std::string& id) {
  return gcscope::FormatRegistry::builtin().unknown_format_message(id);
}

}  // namespace

EMSCRIPTEN_BINDINGS(gcscope) {
  emscripten::class_<Session>("Session")
      .constructor<std::string>()
      .function("beginFile", &Session::beginFile)
      .function("feed", &Session::feed)
      .function("endFile", &Session::endFile)
      .function("followStep", &Session::followStep)
      .function("decodedBytes", &Session::decodedBytes)
      .function("memoryEstimate", &Session::memoryEstimate)
      .function("finish", &Session::finish)
      .function("finishInPlace", &Session::finishInPlace)
      .function("reportLength", &Session::reportLength)
      .function("queryInPlace", &Session::queryInPlace)
      .function("resultLength", &Session::resultLength)
      .function("writeTableBatches", &Session::writeTableBatches);
  emscripten::function("allocBytes", &allocBytes);
  emscripten::function("freeBytes", &freeBytes);
  emscripten::function("version", &version);
  emscripten::function("formats", &formats);
  emscripten::function("unknownFormat", &unknownFormat);
}
