#include "heap/tables.h"

#include "core/utf8.h"

namespace gcscope::heap {

namespace {

using tables::RowWriter;
using tables::Schema;
using tables::Type;

const Schema& objects_schema() {
  static const Schema s{
      "objects",
      "One row per object record of the dump (free slots and SHAPE records are not objects), in the dump's order.",
      {{"input", Type::kString, "", "the dump file (or archive member) the row came from"},
       {"address", Type::kString, "", "the object's address as the dump writes it (\"0x7f07c5b49af0\")"},
       {"type", Type::kString, "", "Ruby's value type as the dump names it (STRING, ARRAY, OBJECT, IMEMO, ...)"},
       {"class", Type::kString, "",
        "the object's class name (\"String\", \"Order\"; an IMEMO's kind as \"<callcache> (IMEMO)\"), null when "
        "unknown"},
       {"class_address", Type::kString, "", "the address of the object's class record, null when the dump has none"},
       {"name", Type::kString, "", "a class or module's own name, null for other objects"},
       {"file", Type::kString, "", "the file that allocated the object (allocation tracing on), else null"},
       {"line", Type::kInt64, "", "the line that allocated it, null when unknown"},
       {"method", Type::kString, "", "the method that allocated it, null when unknown"},
       {"generation", Type::kInt64, "", "the GC generation (GC.count) it was allocated in, null when unknown"},
       {"memsize", Type::kInt64, "B", "bytes the object takes (its slot plus what it owns), as ObjectSpace.memsize_of"},
       {"bytesize", Type::kInt64, "B", "a string's length in bytes, null for other objects"},
       {"frozen", Type::kBool, "", "the object is frozen"},
       {"old", Type::kBool, "", "the object is in the GC's old generation (flags.old)"}}};
  return s;
}

const Schema& references_schema() {
  static const Schema s{
      "object_references",
      "One row per reference an object record lists, in the dump's order (references to addresses the dump does "
      "not hold are left out).",
      {{"input", Type::kString, "", "the dump file (or archive member) the row came from"},
       {"from_address", Type::kString, "", "the referring object's address (objects.address)"},
       {"to_address", Type::kString, "", "the referenced object's address (objects.address)"}}};
  return s;
}

const Schema& roots_schema() {
  static const Schema s{
      "roots",
      "One row per reference of a ROOT record: the objects the GC marks first.",
      {{"input", Type::kString, "", "the dump file (or archive member) the row came from"},
       {"category", Type::kString, "", "the root's kind as the dump names it (vm, machine_context, ...)"},
       {"address", Type::kString, "", "the rooted object's address (objects.address)"}}};
  return s;
}

// A pooled string as a cell: valid UTF-8 as it is, anything else repaired (raw file names of Ruby
// 3.1), null for the pool's empty id.
class Cells {
 public:
  explicit Cells(const HeapModel& m) : m_(m) {}
  void text(RowWriter& w, uint32_t id) {
    if (id == 0) {
      w.null();
      return;
    }
    std::string_view s = m_.strings.get(id);
    if (utf8::is_valid(s)) {
      w.str(s);
      return;
    }
    scratch_ = utf8::repaired(s);
    w.str(scratch_);
  }
  void address(RowWriter& w, uint64_t a) { a ? w.str(format_address(a)) : w.null(); }

 private:
  const HeapModel& m_;
  std::string scratch_;
};

void write_objects(const HeapModel& m, const std::string& input, tables::RowSink& sink) {
  RowWriter w(objects_schema(), sink);
  Cells cells(m);
  for (size_t i = 0; i < m.size(); ++i) {
    w.str(input).str(format_address(m.address[i])).str(type_name(m.type[i]));
    cells.text(w, m.class_id[i]);
    cells.address(w, m.class_address[i]);
    cells.text(w, m.name_id[i]);
    cells.text(w, m.file_id[i]);
    w.i64_or_null(m.line[i], m.line[i] != 0);
    cells.text(w, m.method_id[i]);
    w.i64_or_null(m.generation[i], m.generation[i] != kNoGeneration).i64(static_cast<int64_t>(m.memsize[i]));
    w.i64_or_null(m.bytesize[i], m.type[i] == kString);
    w.boolean(m.flags[i] & kFrozen).boolean(m.flags[i] & kOld).end_row();
  }
}

// The class edge finalize(true) appends after an object's own references, when its class is in the dump.
bool has_class_edge(const HeapModel& m, size_t i) {
  return m.class_address[i] && m.type[i] != kImemo && m.index_of(m.class_address[i]) != kNoIndex;
}

void write_references(const HeapModel& m, const std::string& input, tables::RowSink& sink) {
  RowWriter w(references_schema(), sink);
  for (size_t i = 0; i + 1 < m.ref_begin.size() && i < m.size(); ++i) {
    uint32_t end = m.ref_begin[i + 1];
    if (m.class_edges && end > m.ref_begin[i] && has_class_edge(m, i)) --end;
    if (m.ref_begin[i] == end) continue;
    std::string from = format_address(m.address[i]);
    for (uint32_t r = m.ref_begin[i]; r < end; ++r)
      w.str(input).str(from).str(format_address(m.address[m.ref_targets[r]])).end_row();
  }
}

void write_roots(const HeapModel& m, const std::string& input, tables::RowSink& sink) {
  RowWriter w(roots_schema(), sink);
  Cells cells(m);
  for (size_t k = 0; k < m.root_targets.size(); ++k) {
    w.str(input);
    cells.text(w, m.root_category[k]);
    w.str(format_address(m.address[m.root_targets[k]])).end_row();
  }
}

}  // namespace

std::vector<tables::Schema> heap_tables() { return {objects_schema(), references_schema(), roots_schema()}; }

bool write_heap_table(const HeapModel& model, const std::string& input, const std::string& name,
                      tables::RowSink& sink) {
  if (name == "objects") write_objects(model, input, sink);
  else if (name == "object_references") write_references(model, input, sink);
  else if (name == "roots") write_roots(model, input, sink);
  else return false;
  return true;
}

}  // namespace gcscope::heap
