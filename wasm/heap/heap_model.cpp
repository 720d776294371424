#include "heap/heap_model.h"

#include <algorithm>
#include <cstring>

namespace gcscope::heap {

namespace {
const char* const kTypeNames[kTypeCount] = {"NONE",   "OBJECT", "CLASS",   "MODULE",   "FLOAT",  "STRING",
                                            "REGEXP", "ARRAY",  "HASH",    "STRUCT",   "BIGNUM", "FILE",
                                            "DATA",   "MATCH",  "COMPLEX", "RATIONAL", "SYMBOL", "IMEMO",
                                            "NODE",   "ICLASS", "ZOMBIE",  "MOVED",    "SHAPE",  "UNKNOWN"};

// Display class of the built-in types, whatever their class address says (the convention of
// Shopify's heap-profiler that the corpus ground truth follows).
const char* builtin_class(uint8_t t) {
  switch (t) {
    case kFile: return "File";
    case kIclass: return "ICLASS";
    case kComplex: return "Complex";
    case kRational: return "Rational";
    case kBignum: return "Bignum";
    case kFloat: return "Float";
    case kArray: return "Array";
    case kString: return "String";
    case kHash: return "Hash";
    case kSymbol: return "Symbol";
    case kModule: return "Module";
    case kClass: return "Class";
    case kRegexp: return "Regexp";
    case kMatch: return "MatchData";
    default: return nullptr;
  }
}
}  // namespace

const char* type_name(uint8_t type) { return type < kTypeCount ? kTypeNames[type] : "UNKNOWN"; }

uint8_t type_from_name(std::string_view name) {
  for (uint8_t t = 0; t < kTypeCount; ++t)
    if (name == kTypeNames[t]) return t;
  return kUnknownType;
}

uint64_t hash_bytes(std::string_view s) {
  // FNV-1a over 8-byte words then the tail, finished with a 64-bit mixer: fast enough for the
  // short file names and string values this pool sees, and well spread for open addressing.
  uint64_t h = 0xcbf29ce484222325ull ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; i < s.size(); ++i) h = (h ^ static_cast<uint8_t>(s[i])) * 0x100000001b3ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

// ---- StringPool ------------------------------------------------------------------------------

StringPool::StringPool() {
  offsets_ = {0, 0};  // id 0 = ""
  hashes_ = {0};
  slots_.assign(1024, kNoIndex);
}

void StringPool::grow() {
  std::vector<uint32_t> slots(slots_.size() * 2, kNoIndex);
  size_t mask = slots.size() - 1;
  for (uint32_t id = 1; id < size(); ++id) {
    size_t i = hashes_[id] & mask;
    while (slots[i] != kNoIndex) i = (i + 1) & mask;
    slots[i] = id;
  }
  slots_.swap(slots);
}

uint32_t StringPool::intern(std::string_view s) {
  if (s.empty()) return 0;
  if (last_id_ && get(last_id_) == s) return last_id_;
  uint32_t h = static_cast<uint32_t>(hash_bytes(s));
  size_t mask = slots_.size() - 1;
  size_t i = h & mask;
  while (slots_[i] != kNoIndex) {
    uint32_t id = slots_[i];
    if (hashes_[id] == h && get(id) == s) return last_id_ = id;
    i = (i + 1) & mask;
  }
  uint32_t id = size();
  data_.append(s.data(), s.size());
  offsets_.push_back(static_cast<uint32_t>(data_.size()));
  hashes_.push_back(h);
  slots_[i] = id;
  if (static_cast<size_t>(size()) * 2 > slots_.size()) grow();
  return last_id_ = id;
}

// ---- U64Map ----------------------------------------------------------------------------------

U64Map::U64Map(size_t expected) {
  size_t cap = 16;
  while (cap < expected * 2) cap <<= 1;
  slots_.assign(cap, Slot{0, kNoIndex});
  mask_ = cap - 1;
}

static inline size_t mix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  return static_cast<size_t>(k);
}

void U64Map::rehash(size_t capacity) {
  std::vector<Slot> slots(capacity, Slot{0, kNoIndex});
  size_t mask = capacity - 1;
  for (const Slot& s : slots_) {
    if (!s.key) continue;
    size_t i = mix64(s.key) & mask;
    while (slots[i].key) i = (i + 1) & mask;
    slots[i] = s;
  }
  slots_.swap(slots);
  mask_ = mask;
}

uint32_t& U64Map::find_or_insert(uint64_t key, uint32_t value_if_new, bool* inserted) {
  if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
  size_t i = mix64(key) & mask_;
  while (slots_[i].key) {
    if (slots_[i].key == key) {
      if (inserted) *inserted = false;
      return slots_[i].value;
    }
    i = (i + 1) & mask_;
  }
  slots_[i] = Slot{key, value_if_new};
  ++size_;
  if (inserted) *inserted = true;
  return slots_[i].value;
}

uint32_t U64Map::find(uint64_t key) const {
  if (!key) return kNoIndex;
  size_t i = mix64(key) & mask_;
  while (slots_[i].key) {
    if (slots_[i].key == key) return slots_[i].value;
    i = (i + 1) & mask_;
  }
  return kNoIndex;
}

namespace {
constexpr size_t kLookupGroup = 16;
}

void U64Map::find_many(const uint64_t* keys, size_t count, uint32_t* out) const {
  size_t pos[kLookupGroup];
  uint64_t first[kLookupGroup];
  for (size_t base = 0; base < count; base += kLookupGroup) {
    const size_t g = std::min(kLookupGroup, count - base);
    for (size_t k = 0; k < g; ++k) pos[k] = mix64(keys[base + k]) & mask_;
    for (size_t k = 0; k < g; ++k) first[k] = slots_[pos[k]].key;  // the parallel loads
    for (size_t k = 0; k < g; ++k) {
      const uint64_t key = keys[base + k];
      if (first[k] == key && key) {
        out[base + k] = slots_[pos[k]].value;
        continue;
      }
      out[base + k] = first[k] ? find(key) : kNoIndex;
    }
  }
}

size_t U64Map::insert_many(const uint64_t* keys, size_t count, uint32_t first_value) {
  if ((size_ + count) * 2 > slots_.size()) {
    size_t cap = slots_.size();
    while ((size_ + count) * 2 > cap) cap <<= 1;
    rehash(cap);
  }
  size_t present = 0;
  uint64_t touched = 0;
  size_t pos[kLookupGroup];
  for (size_t base = 0; base < count; base += kLookupGroup) {
    const size_t g = std::min(kLookupGroup, count - base);
    for (size_t k = 0; k < g; ++k) pos[k] = mix64(keys[base + k]) & mask_;
    for (size_t k = 0; k < g; ++k) touched += slots_[pos[k]].key;  // bring the slots in together
    for (size_t k = 0; k < g; ++k) {
      const uint64_t key = keys[base + k];
      if (!key) continue;  // reserved as "empty": never stored (as find_or_insert never finds it)
      size_t i = pos[k];
      while (slots_[i].key && slots_[i].key != key) i = (i + 1) & mask_;
      if (slots_[i].key == key) {
        ++present;
        continue;
      }
      slots_[i] = Slot{key, first_value + static_cast<uint32_t>(base + k)};
      ++size_;
    }
  }
  touched_ += touched;  // keeps the touching loads from being optimized away
  return present;
}

// ---- HeapModel -------------------------------------------------------------------------------

uint32_t HeapModel::add_object(const ObjectInfo& o) {
  uint32_t idx = static_cast<uint32_t>(address.size());
  if (ref_begin.empty()) ref_begin.push_back(0);
  address.push_back(o.address);
  type.push_back(o.type);
  flags.push_back(o.flags);
  class_address.push_back(o.class_address);
  class_id.push_back(strings.intern(o.class_name));  // direct names kept; others resolved at finalize
  name_id.push_back(strings.intern(o.name));
  detail_id.push_back(strings.intern(o.detail));
  file_id.push_back(strings.intern(o.file));
  line.push_back(o.line);
  method_id.push_back(strings.intern(o.method));
  generation.push_back(o.generation);
  memsize.push_back(o.memsize);
  value_id.push_back(o.has_value ? strings.intern(o.value) : 0);
  bytesize.push_back(o.bytesize);
  ref_begin.push_back(static_cast<uint32_t>(pending_refs_.size()));
  return idx;
}

void HeapModel::add_reference(uint64_t to_address) {
  if (address.empty()) return;  // a reference before any object has no owner
  pending_refs_.push_back(to_address);
  ref_begin.back() = static_cast<uint32_t>(pending_refs_.size());
}

void HeapModel::add_root(std::string_view category, uint64_t to_address) {
  uint32_t cat = strings.intern(category);
  size_t k = 0;
  while (k < root_categories.size() && root_categories[k] != cat) ++k;
  if (k == root_categories.size()) {
    root_categories.push_back(cat);
    root_records.push_back(0);
  }
  ++root_records[k];
  root_category.push_back(cat);
  pending_roots_.push_back(to_address);
}

void HeapModel::finalize(bool with_class_edges) {
  if (finalized_) return;
  finalized_ = true;
  if (ref_begin.empty()) ref_begin.push_back(0);
  const size_t n = size();
  index_ = U64Map(n + 1);
  duplicate_addresses = index_.insert_many(address.data(), n, 0);
  // Class addresses: a few thousand distinct values, each looked up once per instance; a small
  // map of its own stays in cache where the address index (one slot per object) does not.
  U64Map class_slots(256);
  auto class_index = [&](uint64_t addr) {
    bool inserted = false;
    uint32_t& slot = class_slots.find_or_insert(addr, kNoIndex, &inserted);
    if (inserted) slot = index_.find(addr);
    return slot;
  };
  // References: addresses → indices, compacting out dangling ones (ranges shift left).
  references_total = pending_refs_.size();
  ref_targets.clear();
  ref_targets.reserve(pending_refs_.size() + (with_class_edges ? n : 0));
  std::vector<uint32_t> resolved(pending_refs_.size());
  index_.find_many(pending_refs_.data(), pending_refs_.size(), resolved.data());
  size_t r = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t end = ref_begin[i + 1];
    ref_begin[i] = static_cast<uint32_t>(ref_targets.size());
    for (; r < end; ++r) {
      uint32_t t = resolved[r];
      if (t == kNoIndex) {
        ++dangling_references;
        if (dangling_examples.size() < 8) dangling_examples.push_back(pending_refs_[r]);
        continue;
      }
      ref_targets.push_back(t);
    }
    if (with_class_edges && class_address[i] && type[i] != kImemo) {
      uint32_t c = class_index(class_address[i]);
      if (c != kNoIndex) {
        ref_targets.push_back(c);
        ++class_edges;
      }
    }
  }
  ref_begin[n] = static_cast<uint32_t>(ref_targets.size());
  ref_targets.shrink_to_fit();
  std::vector<uint64_t>().swap(pending_refs_);
  // Roots.
  root_targets.clear();
  std::vector<uint32_t> cats;
  for (size_t k = 0; k < pending_roots_.size(); ++k) {
    uint32_t t = index_.find(pending_roots_[k]);
    if (t == kNoIndex) {
      ++dangling_root_references;
      continue;
    }
    root_targets.push_back(t);
    cats.push_back(root_category[k]);
  }
  root_category.swap(cats);
  std::vector<uint64_t>().swap(pending_roots_);
  // Display classes.
  const uint32_t object_name = strings.intern("Object");
  const uint32_t unnamed = strings.intern("(unnamed class)");
  const uint32_t unknown_data = strings.intern("<unknown> (DATA)");
  std::vector<uint32_t> builtin_ids(kTypeCount, 0);
  for (uint8_t t = 0; t < kTypeCount; ++t)
    if (const char* b = builtin_class(t)) builtin_ids[t] = strings.intern(b);
  U64Map detail_names(64);  // detail id * 2 + (0 IMEMO | 1 DATA) → display name id
  std::string buf;
  for (size_t i = 0; i < n; ++i) {
    if (class_id[i]) continue;  // given directly by the source
    uint8_t t = type[i];
    if (builtin_ids[t]) {
      class_id[i] = builtin_ids[t];
      continue;
    }
    uint32_t resolved = 0;
    if (class_address[i]) {
      uint32_t c = class_index(class_address[i]);
      if (c != kNoIndex && (type[c] == kClass || type[c] == kModule)) resolved = name_id[c];
    }
    if (t == kImemo || (t == kData && (!resolved || resolved == object_name) && detail_id[i])) {
      // IMEMO records carry the receiver's class (callcache): never count them as its instances.
      uint64_t key = (static_cast<uint64_t>(detail_id[i]) << 1 | (t == kData ? 1 : 0)) + 1;
      bool inserted = false;
      uint32_t& slot = detail_names.find_or_insert(key, 0, &inserted);
      if (inserted) {
        buf = "<";
        buf += strings.get(detail_id[i]);
        buf += t == kData ? "> (DATA)" : "> (IMEMO)";
        slot = strings.intern(buf);
      }
      class_id[i] = slot;
      continue;
    }
    // A DATA object with neither class nor struct name (VM internals) is no instance of an unnamed class.
    class_id[i] = resolved ? resolved : t == kData ? unknown_data : unnamed;
  }
}

void HeapModel::keep_table_columns() {
  if (class_edges) {  // finalize(true) appended one edge after an object's own references
    size_t w = 0, n = size();
    for (size_t i = 0; i < n; ++i) {
      uint32_t begin = ref_begin[i], end = ref_begin[i + 1];
      if (end > begin && class_address[i] && type[i] != kImemo && index_.find(class_address[i]) != kNoIndex) --end;
      ref_begin[i] = static_cast<uint32_t>(w);
      for (uint32_t r = begin; r < end; ++r) ref_targets[w++] = ref_targets[r];
    }
    ref_begin[n] = static_cast<uint32_t>(w);
    ref_targets.resize(w);
    ref_targets.shrink_to_fit();
    class_edges = 0;
  }
  index_ = U64Map(16);
  std::vector<uint32_t>().swap(detail_id);
  std::vector<uint32_t>().swap(value_id);
}

size_t HeapModel::memory_bytes() const {
  size_t b = address.capacity() * 8 + type.capacity() + flags.capacity() + class_address.capacity() * 8 +
             (class_id.capacity() + name_id.capacity() + detail_id.capacity() + file_id.capacity() + line.capacity() +
              method_id.capacity() + generation.capacity() + value_id.capacity() + bytesize.capacity() +
              ref_begin.capacity() + ref_targets.capacity()) *
                 4 +
             memsize.capacity() * 8 + pending_refs_.capacity() * 8;
  return b + strings.bytes();
}

std::string format_address(uint64_t a) {
  static const char* hex = "0123456789abcdef";
  char buf[20];
  int n = 0;
  do {
    buf[n++] = hex[a & 15];
    a >>= 4;
  } while (a);
  std::string s = "0x";
  while (n) s.push_back(buf[--n]);
  return s;
}

}  // namespace gcscope::heap
