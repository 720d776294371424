// HeapModel: one Ruby heap snapshot as compact columns (struct of arrays), shared by every source
// of heap snapshots: ObjectSpace.dump_all JSON lines (dump_parser.h) and rbkit object_space_dump
// events (wasm/rbkit). A 1 GB dump holds millions of objects, so there is no per-object heap
// allocation: each object is one row of fixed-width columns, strings are interned once in a
// StringPool, and references are ranges into one flat uint32 array of object indices.
//
// How another parser feeds it (the whole contract):
//
//   heap::HeapModel model;
//   for each object of the snapshot:
//     heap::ObjectInfo o;                     // fields you do not know stay at their defaults
//     o.address = id;                         // any unique 64-bit key (dump address, rbkit object_id)
//     o.type = heap::kUnknownType;            // or a T_* type if known (heap::type_from_name("STRING"))
//     o.class_name = "Order";                 // a class NAME when the source gives names (rbkit) ...
//     o.class_address = 0;                    // ... or the class's address when it gives addresses (dump)
//     o.file = "app.rb"; o.line = 3; o.memsize = 40;
//     model.add_object(o);
//     for each reference r of that object: model.add_reference(r);   // right after its object
//   model.add_root("vm", address);            // optional: GC roots (without any, no dominator tree)
//   model.finalize();                         // resolves references and class names; call once
//   heap::write_report(model, heap::ReportLimits{}, report_json);    // summaries, dominators, views
//
// Summaries (heap_summary.h), the dominator tree (heap_dominators.h) and the diff (heap_diff.h) are
// functions over a finalized model.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/utf8.h"

namespace gcscope::heap {

// Ruby's value types as ObjectSpace.dump_all names them (T_NONE ... T_MOVED), plus SHAPE records
// (3.2+) and kUnknownType for sources without a type (rbkit) or unknown names.
enum ObjType : uint8_t {
  kNoneType = 0,
  kObject,
  kClass,
  kModule,
  kFloat,
  kString,
  kRegexp,
  kArray,
  kHash,
  kStruct,
  kBignum,
  kFile,
  kData,
  kMatch,
  kComplex,
  kRational,
  kSymbol,
  kImemo,
  kNode,
  kIclass,
  kZombie,
  kMoved,
  kShape,
  kUnknownType,
  kTypeCount
};
const char* type_name(uint8_t type);
// Returns kUnknownType for names outside the list.
uint8_t type_from_name(std::string_view name);

constexpr uint32_t kNoGeneration = 0xFFFFFFFFu;
constexpr uint32_t kNoIndex = 0xFFFFFFFFu;

// Object flag bits (the dump's "frozen", "embedded", "shared", flags.old, ...). kSingleton: a CLASS
// record with "singleton": true (the singleton class of one object). The GC's "marked" bit says
// nothing about the heap's shape and is not kept.
enum ObjFlag : uint8_t {
  kFrozen = 1,
  kEmbedded = 2,
  kShared = 4,
  kOld = 8,
  kFstring = 16,
  kSingleton = 32,
  kUncollectible = 64,
  kWbProtected = 128
};

// Interns byte strings: id 0 is the empty string / "absent". Strings are stored once, back to back,
// in large blocks (no per-string allocation); lookups are open-addressing on a 64-bit hash.
class StringPool {
 public:
  StringPool();
  uint32_t intern(std::string_view s);
  std::string_view get(uint32_t id) const { return {data_.data() + offsets_[id], offsets_[id + 1] - offsets_[id]}; }
  uint32_t size() const { return static_cast<uint32_t>(offsets_.size() - 1); }
  size_t bytes() const { return data_.size() + offsets_.size() * 4 + slots_.size() * 4; }

 private:
  void grow();
  std::string data_;
  std::vector<uint32_t> offsets_;  // string i = data_[offsets_[i], offsets_[i+1])
  std::vector<uint32_t> slots_;    // hash table of ids (kNoIndex = empty)
  std::vector<uint32_t> hashes_;   // low 32 bits of each string's hash, to skip most compares
  uint32_t last_id_ = 0;           // consecutive objects often repeat the same file: a 1-entry cache
};

uint64_t hash_bytes(std::string_view s);

// Open-addressing map from a 64-bit key to a 32-bit value (kNoIndex = absent): the address index
// and the grouping tables. Key 0 is reserved as "empty" (no Ruby object lives at address 0).
class U64Map {
 public:
  explicit U64Map(size_t expected = 16);
  // Returns the value slot for key, inserting `value_if_new` when absent; `inserted` says which.
  uint32_t& find_or_insert(uint64_t key, uint32_t value_if_new, bool* inserted = nullptr);
  uint32_t find(uint64_t key) const;
  // find() of count keys into out[]: looks the keys up in groups so that their (random, mostly
  // uncached) slots are loaded in parallel rather than one miss after the other. Wasm has no
  // prefetch instruction; independent loads issued together get the same effect.
  void find_many(const uint64_t* keys, size_t count, uint32_t* out) const;
  // Inserts keys[k] → first_value + k for every key not present yet; counts the keys already present.
  size_t insert_many(const uint64_t* keys, size_t count, uint32_t first_value);
  size_t size() const { return size_; }
  template <typename F>
  void for_each(F&& f) const {
    for (const Slot& s : slots_)
      if (s.key) f(s.key, s.value);
  }

 private:
  // Key and value side by side: a lookup touches one cache line, not two (the address index of a
  // 1 GB dump is ~100 MB and every reference is one random lookup into it).
  struct Slot {
    uint64_t key;
    uint32_t value;
  };
  void rehash(size_t capacity);
  std::vector<Slot> slots_;
  size_t size_ = 0, mask_ = 0;
  uint64_t touched_ = 0;
};

// What a parser knows about one object. string_views only need to live until add_object returns.
struct ObjectInfo {
  uint64_t address = 0;
  uint8_t type = kUnknownType;
  uint8_t flags = 0;
  uint64_t class_address = 0;   // resolved to a name through CLASS/MODULE records at finalize()
  std::string_view class_name;  // a class name given directly (rbkit); wins over class_address
  std::string_view name;        // CLASS/MODULE: the class's own name
  std::string_view detail;      // IMEMO: imemo_type; DATA: struct name; CLASS: real_class_name
  std::string_view file;
  uint32_t line = 0;  // 0 = unknown
  std::string_view method;
  uint32_t generation = kNoGeneration;
  uint64_t memsize = 0;
  std::string_view value;  // STRING value (only short 7-bit strings are dumped)
  bool has_value = false;
  uint32_t bytesize = 0;
};

class HeapModel {
 public:
  // Appends one object; returns its index. References added next belong to it.
  uint32_t add_object(const ObjectInfo& info);
  // One outgoing reference of the object added last (duplicates are kept, like the dump).
  void add_reference(uint64_t to_address);
  // One GC root edge: category ("vm", "machine_context", ...) → object address.
  void add_root(std::string_view category, uint64_t to_address);
  // Resolves reference addresses to indices (dropping and counting dangling ones), class addresses to
  // names and builds the display class of every object. Call once after the last add_*.
  // class_edges: also link every object to its class (the GC marks an object's class, but dump_all
  // leaves it out of "references"), so classes are not "retained" by whichever instance comes first.
  void finalize(bool class_edges = false);
  // After finalize(): keeps only what the tables read (heap/tables.h) — the object columns the
  // dump wrote, the dump's own references and the roots — and frees the rest (the address index,
  // IMEMO/DATA details, string values, the implicit class edges), so that an earlier dump of a set
  // keeps its rows at a fraction of its analysis's memory. index_of() finds nothing afterwards.
  void keep_table_columns();

  // ---- columns (index = object) -------------------------------------------------------------
  size_t size() const { return address.size(); }
  std::vector<uint64_t> address;
  std::vector<uint8_t> type;
  std::vector<uint8_t> flags;
  std::vector<uint64_t> class_address;
  std::vector<uint32_t> class_id;   // StringPool id of the display class ("String", "<ment> (IMEMO)")
  std::vector<uint32_t> name_id;    // CLASS/MODULE own name
  std::vector<uint32_t> detail_id;  // imemo_type / struct; CLASS: real_class_name (singleton, anonymous)
  std::vector<uint32_t> file_id;
  std::vector<uint32_t> line;
  std::vector<uint32_t> method_id;
  std::vector<uint32_t> generation;
  std::vector<uint64_t> memsize;
  std::vector<uint32_t> value_id;  // STRING value, 0 = none
  std::vector<uint32_t> bytesize;
  // references of object i: ref_targets[ref_begin[i] .. ref_begin[i+1])  (object indices after finalize)
  std::vector<uint32_t> ref_begin;
  std::vector<uint32_t> ref_targets;
  // roots: root_targets[k] is an object index after finalize, root_category[k] a StringPool id
  std::vector<uint32_t> root_targets;
  std::vector<uint32_t> root_category;
  std::vector<uint32_t> root_categories;  // distinct categories in order of appearance
  std::vector<uint32_t> root_records;     // edges per category (parallel to root_categories)

  StringPool strings;

  // ---- facts gathered by finalize() -----------------------------------------------------------
  uint64_t references_total = 0;     // as added (including dangling; not the implicit class edges)
  uint64_t class_edges = 0;          // implicit object → class edges added by finalize(true)
  uint64_t dangling_references = 0;  // to addresses not in the snapshot (dropped)
  uint64_t dangling_root_references = 0;
  uint64_t duplicate_addresses = 0;         // later objects with an address already seen (kept, not indexed)
  std::vector<uint64_t> dangling_examples;  // first few dangling target addresses
  bool finalized() const { return finalized_; }
  // Object index of an address (kNoIndex if absent); valid after finalize().
  uint32_t index_of(uint64_t addr) const { return index_.find(addr); }
  size_t memory_bytes() const;

 private:
  std::vector<uint64_t> pending_refs_;  // target addresses until finalize
  std::vector<uint64_t> pending_roots_;
  U64Map index_{16};
  bool finalized_ = false;
};

// "0x7f07c5b49af0" for the report (addresses exceed 2^53: always strings).
std::string format_address(uint64_t address);
// Bytes that are not UTF-8 (raw file names of Ruby 3.1) become U+FFFD: the report stays valid JSON.
inline std::string to_valid_utf8(std::string_view s) { return utf8::repaired(s); }

}  // namespace gcscope::heap
