// The table API (core/tables.h) and its text forms (core/table_writers.h): RFC 4180 CSV, NDJSON,
// ISO 8601 timestamps, the schema rules, and the rules every registered format's tables keep.
#include <catch2/catch.hpp>

#include <cstring>

#include "core/analyzer.h"
#include "core/table_columns.h"
#include "core/table_writers.h"
#include "support.h"

using namespace gcscope;
using nlohmann::json;

namespace {
const tables::Schema& sample_schema() {
  static const tables::Schema s{"sample",
                                "a table for the writers' tests",
                                {{"input", tables::Type::kString, "", "where"},
                                 {"n", tables::Type::kInt64, "", "a count"},
                                 {"t_s", tables::Type::kFloat64, "s", "a time"},
                                 {"ok", tables::Type::kBool, "", "a flag"},
                                 {"ts", tables::Type::kTimestamp, "", "an instant"}}};
  return s;
}

std::string write_rows(tables::TextFormat format, size_t piece_bytes = 1 << 20, int* pieces = nullptr) {
  std::string out = tables::header_text(format, sample_schema());
  tables::TextWriter w(
      format,
      [&](std::string_view t) {
        out.append(t);
        if (pieces) ++*pieces;
      },
      piece_bytes);
  w.begin(sample_schema());
  tables::RowWriter row(sample_schema(), w);
  row.str("gc.log").i64(-42).f64(2.0).boolean(true).ts_ms(1714564800123.0).end_row();
  row.str("a \"quoted\", name\r\nwith a break").null().f64(NAN).boolean(false).ts_ms(NAN).end_row();
  row.str("").i64(9007199254740993).f64(1e-5).boolean(false).ts_ms(-0.001).end_row();
  w.end();
  return out;
}
}  // namespace

TEST_CASE("tables: CSV is RFC 4180 with a header row, nulls empty, floats always with a point", "[tables]") {
  CHECK(write_rows(tables::TextFormat::kCsv) ==
        "input,n,t_s,ok,ts\r\n"
        "gc.log,-42,2.0,true,2024-05-01T12:00:00.123Z\r\n"
        "\"a \"\"quoted\"\", name\r\nwith a break\",,,false,\r\n"
        ",9007199254740993,1e-05,false,1969-12-31T23:59:59.999999Z\r\n");
}

TEST_CASE("tables: NDJSON is one object a row, strings escaped, nulls null", "[tables]") {
  CHECK(write_rows(tables::TextFormat::kNdjson) ==
        "{\"input\":\"gc.log\",\"n\":-42,\"t_s\":2.0,\"ok\":true,\"ts\":\"2024-05-01T12:00:00.123Z\"}\n"
        "{\"input\":\"a \\\"quoted\\\", name\\r\\nwith a break\",\"n\":null,\"t_s\":null,\"ok\":false,\"ts\":null}\n"
        "{\"input\":\"\",\"n\":9007199254740993,\"t_s\":1e-05,\"ok\":false,\"ts\":\"1969-12-31T23:59:59.999999Z\"}\n");
}

TEST_CASE("tables: the writer flushes whole rows once a piece is full", "[tables]") {
  int pieces = 0;
  std::string whole = write_rows(tables::TextFormat::kCsv);
  CHECK(write_rows(tables::TextFormat::kCsv, 1, &pieces) == whole);
  CHECK(pieces == 3);  // one row per piece
}

TEST_CASE("tables: Arrow-layout column batches (validity bits, 8-byte values, string offsets)", "[tables]") {
  std::vector<tables::ColumnBatch> batches;
  tables::ColumnBatches sink(2, [&](const tables::ColumnBatch& b) { batches.push_back(b); });
  sink.begin(sample_schema());
  tables::RowWriter row(sample_schema(), sink);
  row.str("gc.log").i64(-42).f64(2.5).boolean(true).ts_ms(1714564800123.0).end_row();
  row.str("").null().f64(NAN).boolean(false).ts_ms(NAN).end_row();
  row.str("\xc3\xa9t\xc3\xa9").i64(7).f64(0).boolean(true).ts_ms(0).end_row();
  sink.end();
  REQUIRE(batches.size() == 2);
  CHECK(batches[0].rows == 2);
  CHECK(batches[1].rows == 1);
  const auto& first = batches[0].columns;
  CHECK(first[0].offsets == std::vector<int32_t>{0, 6, 6});
  CHECK(std::string(first[0].data.begin(), first[0].data.end()) == "gc.log");
  CHECK(first[0].validity == std::vector<uint8_t>{0x3});
  CHECK(first[1].validity == std::vector<uint8_t>{0x1});  // row 1's n is null
  CHECK(first[1].nulls == 1);
  int64_t n0;
  std::memcpy(&n0, first[1].data.data(), 8);
  CHECK(n0 == -42);
  CHECK(first[1].data.size() == 16);                  // a null still takes its 8 bytes
  CHECK(first[3].data == std::vector<uint8_t>{0x1});  // true, false
  int64_t us;
  std::memcpy(&us, first[4].data.data(), 8);
  CHECK(us == 1714564800123000);
  CHECK(batches[1].columns[0].offsets == std::vector<int32_t>{0, 5});  // "été": 5 UTF-8 bytes
  CHECK(sink.total_rows() == 3);
}

TEST_CASE("tables: timestamps are ISO 8601 UTC across eras", "[tables]") {
  auto text = [](int64_t us) {
    std::string s;
    tables::append_timestamp(s, us);
    return s;
  };
  CHECK(text(0) == "1970-01-01T00:00:00Z");
  CHECK(text(951782400000000) == "2000-02-29T00:00:00Z");  // a leap day of a century leap year
  CHECK(text(1714564800000001) == "2024-05-01T12:00:00.000001Z");
  CHECK(text(-86400000000) == "1969-12-31T00:00:00Z");
}

TEST_CASE("tables: a row that breaks its schema is a programming error", "[tables]") {
  std::string sink_text;
  tables::TextWriter w(tables::TextFormat::kCsv, [&](std::string_view t) { sink_text.append(t); });
  tables::RowWriter row(sample_schema(), w);
  CHECK_THROWS_AS(row.i64(1), std::logic_error);  // `input` is a string
  tables::RowWriter short_row(sample_schema(), w);
  short_row.str("x").i64(1);
  CHECK_THROWS_AS(short_row.end_row(), std::logic_error);
  CHECK_THROWS_AS(tables::check_schema({"bad", "no input column", {{"t_s", tables::Type::kFloat64, "s", "a time"}}}),
                  std::logic_error);
  CHECK_THROWS_AS(tables::check_schema({"bad",
                                        "ts not a timestamp",
                                        {{"input", tables::Type::kString, "", "where"},
                                         {"ts", tables::Type::kFloat64, "s", "seconds"}}}),
                  std::logic_error);
  CHECK_NOTHROW(tables::check_schema(sample_schema()));
}

TEST_CASE("tables: every format's tables keep the rules, and a name means one schema across formats", "[tables]") {
  std::map<std::string, std::string> columns_of;  // table name -> its columns, as first seen
  for (const auto& h : FormatRegistry::builtin().handlers()) {
    auto analyzer = h.make(json::object());
    for (const auto& schema : analyzer->tables()) {
      INFO(h.id << " table " << schema.name);
      CHECK_NOTHROW(tables::check_schema(schema));
      std::string cols;
      for (const auto& c : schema.columns) cols += c.name + ":" + tables::type_name(c.type) + ",";
      auto [it, fresh] = columns_of.emplace(schema.name, cols);
      CHECK(it->second == cols);
      (void)fresh;
    }
  }
  CHECK(columns_of.count("events"));  // tracing's, at least
}

// gc_cycles is written by two formats (rubygc: a TuneMyGC payload's GC bands; rbkit: a capture's
// gc_start events), so one session holding both inputs has one gc_cycles table with the rows of each.
// The figures: rt16's minor_gc_count goes 38 -> 39 between sample 6 (ts 1795257974.0500152) and
// sample 7 (ts 1795257974.0792837), GC.stat time 472 -> 474 ms (tests/rubygc/test_timeline.cpp);
// stock-server-first12's one gc_start, gc_end_m and gc_end_s are at 1795257122213, 1795257122213 and
// 1795257123915 ms (fixtures/rbkit/rbkit_frames.py events, a msgpack reader of its own).
TEST_CASE("tables: rubygc and rbkit register the same gc_cycles columns; one session holds both's rows", "[tables]") {
  const std::string payload = test::fixture("rubygc/rt16_rack_app_tiny_seed.json");
  const std::string capture = test::fixture("rbkit/stock-server-first12.rbkit");
  auto gc_cycles_columns = [](const std::vector<std::string>& paths) {
    InputSet set;
    for (const auto& path : paths) {
      const std::string bytes = test::read_file(path);
      set.begin_file(path);
      set.feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      set.end_file();
    }
    set.finish();
    json columns = nullptr;
    for (const auto& t : set.query("session.tables", json::object()))
      if (t["name"] == "gc_cycles") columns = t["columns"];
    json rows = set.query("table.rows", {{"name", "gc_cycles"}});
    return std::make_pair(columns, rows);
  };
  // name, type, unit of each column, in order, as docs/TABLES.md lists them in both sections.
  const std::vector<std::string> want = {
      "input string ",      "cycle int64 ",        "t_s float64 s", "ts timestamp ", "duration_ms float64 ms",
      "mark_ms float64 ms", "sweep_ms float64 ms", "kind string ",  "gcs int64 ",    "window_s float64 s"};
  auto described = [](const json& columns) {
    std::vector<std::string> out;
    for (const auto& c : columns)
      out.push_back(c["name"].get<std::string>() + " " + c["type"].get<std::string>() + " " +
                    c["unit"].get<std::string>());
    return out;
  };
  const auto [rubygc, rubygc_rows] = gc_cycles_columns({payload});
  const auto [rbkit, rbkit_rows] = gc_cycles_columns({capture});
  REQUIRE(rubygc.is_array());
  REQUIRE(rbkit.is_array());
  CHECK(described(rubygc) == want);
  CHECK(described(rbkit) == want);
  CHECK(rubygc[4]["meaning"] != rbkit[4]["meaning"]);  // each format says what a duration is for its input

  const auto [both, rows] = gc_cycles_columns({payload, capture});
  CHECK(described(both) == want);
  REQUIRE(rows["total"] == 2);
  for (const auto& row : rows["rows"]) {
    INFO(row.dump());
    if (row[0] == payload) {
      CHECK(row[2].get<double>() == 1795257974.0500152);
      CHECK(row[4].get<double>() == 2.0);
      CHECK(row[7] == "minor");
      CHECK(row[8] == 1);
      CHECK(row[9].get<double>() == Approx(1795257974.0792837 - 1795257974.0500152));
    } else {
      CHECK(row[0] == capture);
      CHECK(row[2].get<double>() == Approx(1795257122.213).margin(1e-5));
      CHECK(row[4].get<double>() == Approx(1795257123915.0 - 1795257122213.0));
      CHECK(row[5].get<double>() == 0.0);
      CHECK(row[7].is_null());
      CHECK(row[8] == 1);
      CHECK(row[9].is_null());
    }
  }
}
