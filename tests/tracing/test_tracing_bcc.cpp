// BCC Ruby tools: behaviours the upstream examples do not show, on small outputs written here in the
// tools' exact column formats (bcc 0.26, Debian), with hand-computed expectations.
#include <catch2/catch.hpp>

#include "support.h"

using gcscope::test::analyze_bytes;
using nlohmann::json;

TEST_CASE("bcc: ucalls -L repeats a method on several rows (bcc 0.26): rows are merged", "[tracing]") {
  std::string out =
      "Tracing calls in process 1234 (language: ruby)... Ctrl-C to quit.\n\n"
      "METHOD                                              # CALLS TIME (us)\n"
      "Object.foo                                                2 10.00\n"
      "Object.bar                                                1 5.50\n"
      "Object.foo                                                3 20.00\n"
      "^C\n";
  json doc = analyze_bytes({{"ucalls.txt", out}});
  const json& r = doc["reports"][0];
  CHECK(r["format"] == "bcc-output");
  CHECK(r["language"] == "ruby");
  const json& t = r["tables"][0];
  CHECK(t["row_count"] == 3);
  CHECK(t["distinct"] == 2);
  CHECK(t["duplicated"] == json::array({"Object.foo"}));
  CHECK(t["rows"][0]["calls"] == 5);    // 2 + 3
  CHECK(t["rows"][0]["time"] == 30.0);  // 10 + 20 us
  CHECK(t["rows"][0]["time_ns"] == 30000);
  // latency table: 5 calls, 30 us total -> mean 6 us is left to the view (total / calls)
  bool found = false;
  for (const auto& row : r["latency"])
    if (row["probe"] == "Object.foo") {
      found = true;
      CHECK(row["calls"] == 5);
      CHECK(row["total"] == 30000);
    }
  CHECK(found);
}

TEST_CASE("bcc: uobjnew prints Python bytes reprs (b'...'): stripped", "[tracing]") {
  std::string out =
      "Tracing allocations in process 1234 (language: ruby)... Ctrl-C to quit.\n\n"
      "NAME/TYPE                      # ALLOCS      # BYTES\n"
      "b'String'                            10            0\n"
      "b'Array'                              4          160\n"
      "^C\n";
  json doc = analyze_bytes({{"uobjnew.txt", out}});
  const json& rows = doc["reports"][0]["tables"][0]["rows"];
  REQUIRE(rows.size() == 2);
  CHECK(rows[0]["name"] == "String");
  CHECK(rows[1]["name"] == "Array");
  CHECK(rows[1]["bytes"] == 160);
}

TEST_CASE("bcc: ucalls with a header and no rows (no TracePoint) gets the hint", "[tracing]") {
  std::string out =
      "Tracing calls in process 1234 (language: ruby)... Ctrl-C to quit.\n\n"
      "METHOD                                              # CALLS\n"
      "^C\n";
  json doc = analyze_bytes({{"ucalls-empty.txt", out}});
  CHECK(doc["errors"].empty());
  bool hint = false;
  for (const auto& h : doc["reports"][0]["hints"]) hint |= h["id"] == "empty_capture";
  CHECK(hint);
}

TEST_CASE("bcc: ugc rows give exact per-description GC pause statistics", "[tracing]") {
  std::string out =
      "Tracing garbage collections in ruby process 1234... Ctrl-C to quit.\n"
      "START    TIME (us) DESCRIPTION\n"
      "0.100    100.00   GC mark stage\n"
      "0.200    300.00   GC mark stage\n"
      "0.250    50.00    GC sweep stage\n"
      "^C\n";
  json doc = analyze_bytes({{"ugc.txt", out}});
  const json& r = doc["reports"][0];
  CHECK(r["tables"][0]["row_count"] == 3);
  const json* mark = nullptr;
  for (const auto& row : r["latency"])
    if (row["probe"] == "GC mark stage") mark = &row;
  REQUIRE(mark);
  CHECK((*mark)["calls"] == 2);
  CHECK((*mark)["total"] == 400000.0);  // ns
  CHECK((*mark)["max"] == 300000);
  CHECK((*mark)["exact"] == true);
}
