// libFuzzer target over the whole pipeline. Built once per parser with GCSCOPE_FUZZ_FORMAT set to a
// format ID (the input is forced into that parser, whatever identification would say), and once
// without (identification decides), so every parser and every byte source sees hostile bytes.
// The input is fed in uneven chunks taken from its own first byte, so chunk boundaries move too.
#include <cstddef>
#include <cstdint>

#include "core/input_set.h"
#include "core/raw_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  nlohmann::json options = nlohmann::json::object();
#ifdef GCSCOPE_FUZZ_FORMAT
  options["format"] = GCSCOPE_FUZZ_FORMAT;
#endif
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
