// The live-object table against std::unordered_map as the reference, with id patterns that stress
// linear probing: Ruby 3.x ids (multiples of 20), 2.x slot addresses (multiples of 40 near 2^47),
// ids that differ only in their high bits, and ids near 2^64.
#include <catch2/catch.hpp>
#include <random>
#include <unordered_map>

#include "rbkit/id_map.h"

using gcscope::rbkit::IdMap;

TEST_CASE("rbkit id map: inserts, overwrites and backward-shift deletes match std::unordered_map", "[rbkit]") {
  const uint64_t bases[] = {0, 140357686556600ull, 0, 18446744073709551615ull - 4000000};
  const uint64_t steps[] = {20, 40, uint64_t(1) << 20, 1};
  for (int pattern = 0; pattern < 4; ++pattern) {
    INFO("pattern " << pattern);
    IdMap map;
    std::unordered_map<uint64_t, uint32_t> ref;
    std::mt19937_64 rng(42 + pattern);
    for (int i = 0; i < 200000; ++i) {
      uint64_t id = bases[pattern] + steps[pattern] * (rng() % 50000);
      if (rng() % 3) {
        uint32_t v = static_cast<uint32_t>(rng() % 1000);
        auto it = ref.find(id);
        uint32_t expected_old = it == ref.end() ? IdMap::kEmpty : it->second;
        REQUIRE(map.put(id, v) == expected_old);
        ref[id] = v;
      } else {
        auto it = ref.find(id);
        uint32_t expected = it == ref.end() ? IdMap::kEmpty : it->second;
        REQUIRE(map.take(id) == expected);
        if (it != ref.end()) ref.erase(it);
      }
    }
    REQUIRE(map.size() == ref.size());
    for (const auto& [id, v] : ref) REQUIRE(map.get(id) == v);
    size_t seen = 0;
    map.for_each([&](uint64_t id, uint32_t v) {
      ++seen;
      REQUIRE(ref.at(id) == v);
    });
    CHECK(seen == ref.size());
  }
}
