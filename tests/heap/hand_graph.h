// Heap graphs drawn by hand in tests: objects added to a HeapModel one by one, as a dump reader
// adds them (the object, then its references).
#pragma once
#include <cstdint>
#include <vector>

#include "heap/heap_model.h"

namespace gcscope::heap::test {

inline void add(HeapModel& m, uint64_t addr, uint64_t size, std::vector<uint64_t> refs, const char* cls = "Node") {
  ObjectInfo o;
  o.address = addr;
  o.class_name = cls;
  o.memsize = size;
  m.add_object(o);
  for (uint64_t r : refs) m.add_reference(r);
}

}  // namespace gcscope::heap::test
