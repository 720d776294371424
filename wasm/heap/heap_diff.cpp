#include "heap/heap_diff.h"

#include <algorithm>

namespace gcscope::heap {

namespace {

inline uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  return h;
}

// String pools differ between snapshots: keys hash the file's bytes, not its pool id.
uint64_t group_key(const HeapModel& m, uint32_t i) {
  uint64_t h = mix(0x51ed27, m.type[i]);
  h = mix(h, m.generation[i]);
  h = mix(h, m.file_id[i] ? hash_bytes(m.strings.get(m.file_id[i])) : 0);
  return mix(h, m.line[i]);
}
uint64_t exact_key(const HeapModel& m, uint32_t i) { return mix(group_key(m, i), m.address[i]); }
uint64_t address_key(const HeapModel& m, uint32_t i) { return mix(mix(0xadd7, m.address[i]), m.type[i]); }

bool contains(const std::vector<uint64_t>& sorted, uint64_t k) {
  return std::binary_search(sorted.begin(), sorted.end(), k);
}

uint32_t max_generation(const HeapModel& m, bool& any) {
  uint32_t g = 0;
  any = false;
  for (size_t i = 0; i < m.size(); ++i)
    if (m.generation[i] != kNoGeneration) {
      any = true;
      g = std::max(g, m.generation[i]);
    }
  return g;
}

}  // namespace

DiffBase make_diff_base(const HeapModel& m) {
  DiffBase b;
  b.objects = m.size();
  b.max_generation = max_generation(m, b.has_generations);
  for (uint32_t i = 0; i < m.size(); ++i) {
    if (b.has_generations) {
      if (m.generation[i] == b.max_generation) b.exact_keys.push_back(exact_key(m, i));
    } else {
      b.address_keys.push_back(address_key(m, i));
    }
  }
  std::sort(b.exact_keys.begin(), b.exact_keys.end());
  std::sort(b.address_keys.begin(), b.address_keys.end());
  return b;
}

std::vector<uint32_t> new_objects(const HeapModel& m, const DiffBase& base, uint64_t* untracked) {
  std::vector<uint32_t> out;
  uint64_t untracked_count = 0;
  for (uint32_t i = 0; i < m.size(); ++i) {
    if (!base.has_generations) {
      if (!contains(base.address_keys, address_key(m, i))) out.push_back(i);
      continue;
    }
    uint32_t g = m.generation[i];
    if (g == kNoGeneration) {
      ++untracked_count;
      continue;
    }
    if (g > base.max_generation || (g == base.max_generation && !contains(base.exact_keys, exact_key(m, i))))
      out.push_back(i);
  }
  if (untracked) *untracked = untracked_count;
  return out;
}

DiffCandidates make_candidates(const HeapModel& mid, const DiffBase& base, uint64_t* untracked) {
  DiffCandidates c;
  c.address_mode = !base.has_generations;
  bool any = false;
  c.max_generation = max_generation(mid, any);
  std::vector<uint32_t> fresh = new_objects(mid, base, untracked);
  c.count = fresh.size();
  U64Map index(fresh.size() + 1);
  for (uint32_t i : fresh) {
    if (c.address_mode) {
      c.exact_keys.push_back(address_key(mid, i));
      continue;
    }
    if (mid.generation[i] == c.max_generation) c.exact_keys.push_back(exact_key(mid, i));
    uint64_t k = group_key(mid, i);
    bool inserted = false;
    uint32_t& g = index.find_or_insert(k ? k : 1, static_cast<uint32_t>(c.groups.size()), &inserted);
    if (inserted) {
      c.groups.push_back(
          {mid.type[i], mid.generation[i], std::string(mid.strings.get(mid.file_id[i])), mid.line[i], 0});
      c.group_keys.push_back(k);
    }
    c.groups[g].count++;
  }
  std::sort(c.exact_keys.begin(), c.exact_keys.end());
  return c;
}

std::vector<uint32_t> still_alive(const HeapModel& last, const DiffCandidates& c) {
  std::vector<uint32_t> out;
  if (c.address_mode) {
    for (uint32_t i = 0; i < last.size(); ++i)
      if (contains(c.exact_keys, address_key(last, i))) out.push_back(i);
    return out;
  }
  U64Map index(c.groups.size() + 1);
  for (uint32_t g = 0; g < c.groups.size(); ++g) index.find_or_insert(c.group_keys[g] ? c.group_keys[g] : 1, g);
  std::vector<uint64_t> taken(c.groups.size(), 0);
  for (uint32_t i = 0; i < last.size(); ++i) {
    uint32_t gen = last.generation[i];
    if (gen == kNoGeneration || gen > c.max_generation) continue;
    if (gen == c.max_generation) {
      if (contains(c.exact_keys, exact_key(last, i))) out.push_back(i);
      continue;
    }
    uint64_t k = group_key(last, i);
    uint32_t g = index.find(k ? k : 1);
    if (g == kNoIndex || taken[g] >= c.groups[g].count) continue;
    ++taken[g];
    out.push_back(i);
  }
  return out;
}

nlohmann::json diff_json(const HeapModel& m, const std::vector<uint32_t>& objects, size_t limit) {
  using nlohmann::json;
  struct Row {
    uint32_t file, line;
    uint8_t type;
    uint64_t count = 0, bytes = 0;
  };
  U64Map index(1024);
  std::vector<Row> rows;
  std::vector<uint64_t> class_count(m.strings.size(), 0), class_bytes(m.strings.size(), 0);
  uint64_t bytes = 0;
  for (uint32_t i : objects) {
    uint64_t key = (static_cast<uint64_t>(m.file_id[i]) << 32 | m.line[i]) * 32 + m.type[i] + 1;
    bool inserted = false;
    uint32_t& r = index.find_or_insert(key, static_cast<uint32_t>(rows.size()), &inserted);
    if (inserted) rows.push_back({m.file_id[i], m.line[i], m.type[i]});
    rows[r].count++;
    rows[r].bytes += m.memsize[i];
    bytes += m.memsize[i];
    class_count[m.class_id[i]]++;
    class_bytes[m.class_id[i]] += m.memsize[i];
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.count != b.count   ? a.count > b.count
           : a.bytes != b.bytes ? a.bytes > b.bytes
                                : a.file < b.file || (a.file == b.file && a.line < b.line);
  });
  json loc = json::array();
  for (size_t k = 0; k < rows.size() && k < limit; ++k) {
    const Row& r = rows[k];
    std::string file = to_valid_utf8(m.strings.get(r.file));
    loc.push_back({{"file", r.file ? json(file) : json(nullptr)},
                   {"line", r.line ? json(r.line) : json(nullptr)},
                   {"type", type_name(r.type)},
                   {"count", r.count},
                   {"bytes", r.bytes}});
  }
  std::vector<uint32_t> cls;
  for (uint32_t id = 0; id < class_count.size(); ++id)
    if (class_count[id]) cls.push_back(id);
  std::sort(cls.begin(), cls.end(), [&](uint32_t a, uint32_t b) {
    return class_count[a] != class_count[b] ? class_count[a] > class_count[b] : a < b;
  });
  json bc = json::array();
  for (size_t k = 0; k < cls.size() && k < limit; ++k)
    bc.push_back({{"class", to_valid_utf8(m.strings.get(cls[k]))},
                  {"count", class_count[cls[k]]},
                  {"bytes", class_bytes[cls[k]]}});
  return {{"new_objects", objects.size()},
          {"new_bytes", bytes},
          {"by_location", loc},
          {"by_class", bc},
          {"locations", rows.size()}};
}

}  // namespace gcscope::heap
