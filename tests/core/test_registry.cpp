// The format registry: what every domain registers, probe precedence, and the identification the
// analyzers receive.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "core/analyzer.h"
#include "core/input_set.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;

TEST_CASE("registry: every format has a title, a domain, an analyzer and a probe") {
  const auto& handlers = FormatRegistry::builtin().handlers();
  REQUIRE(!handlers.empty());
  for (const auto& h : handlers) {
    INFO(h.id);
    CHECK(!h.title.empty());
    CHECK(!h.domain.empty());
    CHECK(static_cast<bool>(h.make));
    CHECK(!h.probes.empty());
    CHECK(static_cast<bool>(h.compare) == !h.compare_family.empty());
  }
  auto described = FormatRegistry::builtin().describe();
  REQUIRE(described.size() == handlers.size());
  CHECK(described[0]["id"] == handlers[0].id);
  CHECK(described[0]["domain"] == handlers[0].domain);
}

TEST_CASE("registry: probe ranks are unique, so precedence never depends on registration order") {
  std::map<int, std::string> owner = {{probe_rank::kBinaryGate, "core"}, {probe_rank::kJsonGate, "core"}};
  for (const auto& h : FormatRegistry::builtin().handlers())
    for (const auto& p : h.probes) {
      INFO(h.id << " rank " << p.rank);
      auto [it, fresh] = owner.emplace(p.rank, h.id);
      CHECK((fresh || it->second == h.id));
      CHECK(p.rank > 0);
    }
}

TEST_CASE("registry: an unknown format is refused with the list of registered ones") {
  const auto& r = FormatRegistry::builtin();
  CHECK(r.unknown_format_message("jvm-gc-log").empty());
  std::string m = r.unknown_format_message("jvm");
  CHECK(m.rfind("unknown format 'jvm'; known formats: ", 0) == 0);
  for (const auto& h : r.handlers()) CHECK(m.find(h.id) != std::string::npos);
}

namespace {
// Records the identification each member arrives with.
class RecordingAnalyzer final : public Analyzer {
 public:
  explicit RecordingAnalyzer(std::vector<Identification>* seen) : seen_(seen) {}
  void begin_member(const std::string& path) override {
    Analyzer::begin_member(path);
    seen_->push_back(identification());
  }
  void feed(const char*, size_t) override {}
  void finish(nlohmann::json&) override {}

 private:
  std::vector<Identification>* seen_;
};

std::vector<Identification> identifications_seen(const std::vector<std::string>& files, const nlohmann::json& options) {
  std::vector<Identification> seen;
  FormatRegistry r;
  for (const auto& h : FormatRegistry::builtin().handlers()) {
    FormatHandler copy = h;
    copy.make = [&seen](const AnalyzeOptions&) { return std::make_unique<RecordingAnalyzer>(&seen); };
    r.add(std::move(copy));
  }
  InputSet set(options, r);
  for (const auto& f : files) {
    std::string bytes = read_file(f);
    set.begin_file(f);
    set.feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    set.end_file();
  }
  set.finish();
  return seen;
}
}  // namespace

TEST_CASE("registry: each member's identification reaches its analyzer") {
  // The JDK 17 logs print "Using G1" / "Using Serial"; the stackprof dumps are Marshal and JSON.
  auto seen = identifications_seen({fixture("jvm/jdk17-g1.log"), fixture("jvm/jdk17-serial.log"),
                                    fixture("stackprof/fib-cpu-raw.dump"), fixture("stackprof/fib-cpu-raw.json")},
                                   nlohmann::json::object());
  REQUIRE(seen.size() == 4);
  CHECK(seen[0].format == "jvm-gc-log");
  CHECK(seen[0].details["unified"] == true);
  CHECK(seen[0].details["collector"] == "G1");
  CHECK(seen[1].details["collector"] == "Serial");
  CHECK(seen[2].details["encoding"] == "marshal");
  CHECK(seen[3].details["encoding"] == "json");
}

TEST_CASE("registry: a forced format gets what its own probes find, or no details") {
  // A JVM log forced into the heap dump parser: the heap probe finds nothing, so no details.
  auto as_heap = identifications_seen({fixture("jvm/jdk17-g1.log")}, {{"format", "ruby-heap-dump"}});
  REQUIRE(as_heap.size() == 1);
  CHECK(as_heap[0].format == "ruby-heap-dump");
  CHECK(as_heap[0].details.empty());
  CHECK(as_heap[0].reason.find("format forced to ruby-heap-dump (identification said: jvm-gc-log") == 0);
}
