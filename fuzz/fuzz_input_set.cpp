// libFuzzer target over the whole pipeline. One binary, run under several names (links the build
// makes from the registry, fuzz/targets.cmake): as fuzz_<format id> the input is forced into that
// format's parser, whatever identification would say; as fuzz_any identification decides. So every
// parser and every byte source sees hostile bytes.
// The input is fed in uneven chunks taken from its own first byte, so chunk boundaries move too.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/analyzer.h"
#include "core/input_set.h"
#include "core/raw_json.h"

namespace {
std::string forced_format;  // empty: identification decides
}

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  std::string name = *argc > 0 ? (*argv)[0] : "";
  name = name.substr(name.find_last_of('/') + 1);
  const std::string id = name.rfind("fuzz_", 0) == 0 ? name.substr(5) : name;
  if (gcscope::FormatRegistry::builtin().find(id)) forced_format = id;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nlohmann::json options = nlohmann::json::object();
  if (!forced_format.empty()) options["format"] = forced_format;
  gcscope::InputSet set(options);
  set.begin_file("fuzz-input");
  size_t chunk = size ? 1 + data[0] % 97 : 1;
  for (size_t off = 0; off < size; off += chunk) set.feed(data + off, size - off < chunk ? size - off : chunk);
  set.end_file();
  nlohmann::json doc = set.finish();
  // Writing the document must not throw either (invalid UTF-8 in strings is replaced), nor reading
  // its pre-serialized parts back.
  (void)gcscope::raw_json::dump_document(doc);
  gcscope::raw_json::resolve(doc);
  return 0;
}
