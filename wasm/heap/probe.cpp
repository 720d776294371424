#include "heap/probe.h"

#include "core/text_scan.h"

namespace gcscope::heap {

bool probe_dump(const Head& head, Identification& out) {
  if (head.first_char() != '{') return false;
  using text::contains;
  std::string_view r = head.first_record();
  if (!((contains(r, "\"address\"") && contains(r, "\"type\"")) ||
        (contains(r, "\"type\"") && contains(r, "\"ROOT\"") && contains(r, "\"root\""))))
    return false;
  out.reason = "JSON lines of ObjectSpace.dump_all (records with \"address\"/\"type\" or ROOT)";
  return true;
}

}  // namespace gcscope::heap
