// docs/TABLES.md is the tables' reference: every documented table and column must be what the
// engine exposes (name, type, unit, meaning, in order), every format a section names must expose
// exactly the tables documented there (on the real sample files of fixtures/samples.json), and
// every format whose analyzer has tables must be documented.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>

#include "core/analyzer.h"
#include "support.h"

using namespace gcscope;
using namespace gcscope::test;
using nlohmann::json;

namespace {

struct DocTable {
  std::string name;
  std::string meaning;                            // the paragraph under the heading
  std::vector<std::vector<std::string>> columns;  // name, type, unit, meaning
};
struct DocSection {
  std::vector<std::string> formats;  // empty: not a format's section (the CLI's errors table)
  std::vector<DocTable> tables;
};

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}
std::string unquote(const std::string& s) {
  return s.size() >= 2 && s.front() == '`' && s.back() == '`' ? s.substr(1, s.size() - 2) : s;
}

// "## Title: `id`, `id`" opens a section; "### `table`" a table; "| `col` | type | unit | meaning |" a column.
std::vector<DocSection> parse_doc(const std::string& text) {
  std::vector<DocSection> sections(1);
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) {
      sections.emplace_back();
      size_t colon = line.find(':');
      for (size_t p = colon == std::string::npos ? line.size() : line.find('`', colon); p < line.size();) {
        size_t q = line.find('`', p + 1);
        if (q == std::string::npos) break;
        sections.back().formats.push_back(line.substr(p + 1, q - p - 1));
        p = line.find('`', q + 1);
      }
    } else if (line.rfind("### ", 0) == 0) {
      sections.back().tables.push_back({unquote(trim(line.substr(4))), "", {}});
    } else if (!line.empty() && line[0] != '|' && !sections.back().tables.empty() &&
               sections.back().tables.back().meaning.empty()) {
      sections.back().tables.back().meaning = line;
    } else if (line.rfind("| `", 0) == 0 && !sections.back().tables.empty()) {
      std::vector<std::string> cells;
      size_t p = 1;
      for (size_t q; cells.size() < 3 && (q = line.find(" |", p)) != std::string::npos; p = q + 2)
        cells.push_back(unquote(trim(line.substr(p, q - p))));
      std::string meaning = trim(line.substr(p, line.rfind('|') - p));
      for (size_t k; (k = meaning.find("\\|")) != std::string::npos;) meaning.replace(k, 2, "|");
      cells.push_back(meaning);
      sections.back().tables.back().columns.push_back(cells);
    }
  }
  return sections;
}

// The one documented column list that follows its input: tuner_samples' last row `<key>` stands for one
// int64 column per GC.stat key of the payload's header, in header order, named as the key.
constexpr const char* kKeyRow = "<key>";

// `keys`: the GC.stat keys of the sample payload's header, read here from its JSON (for tuner_samples).
void check_table(const DocTable& doc, const std::string& meaning, const json& columns,
                 const std::vector<std::string>& keys = {}) {
  INFO("table " << doc.name);
  CHECK(doc.meaning == meaning);
  size_t fixed = doc.columns.size();
  for (size_t c = 0; c < doc.columns.size(); ++c)
    if (doc.columns[c][0] == kKeyRow) fixed = c;
  if (fixed < doc.columns.size()) {
    REQUIRE(doc.name == "tuner_samples");  // no other table's columns follow its input
    REQUIRE(fixed + 1 == doc.columns.size());
    REQUIRE(!keys.empty());
    REQUIRE(columns.size() == fixed + keys.size());
    for (size_t k = 0; k < keys.size(); ++k) {
      INFO("GC.stat key " << keys[k]);
      const json& col = columns[fixed + k];
      CHECK(col["name"] == keys[k]);
      CHECK(col["type"] == doc.columns[fixed][1]);
      CHECK(col["unit"] == doc.columns[fixed][2]);
      CHECK(col["meaning"] == doc.columns[fixed][3]);
    }
  } else {
    REQUIRE(columns.size() == doc.columns.size());
  }
  for (size_t c = 0; c < fixed; ++c) {
    INFO("column " << doc.columns[c][0]);
    CHECK(columns[c]["name"] == doc.columns[c][0]);
    CHECK(columns[c]["type"] == doc.columns[c][1]);
    CHECK(columns[c]["unit"] == doc.columns[c][2]);
    CHECK(columns[c]["meaning"] == doc.columns[c][3]);
  }
}

json schema_columns(const tables::Schema& s) {
  json out = json::array();
  for (const auto& c : s.columns)
    out.push_back({{"name", c.name}, {"type", tables::type_name(c.type)}, {"unit", c.unit}, {"meaning", c.meaning}});
  return out;
}

// format id -> the session.tables answer of a sample file of that format; `paths`: that file.
std::map<std::string, json> sample_tables(std::map<std::string, std::string>& paths) {
  std::map<std::string, json> out;
  json list = read_json(fixture("samples.json"));
  for (const auto& s : list["samples"]) {
    std::string path = fixture(s["path"].get<std::string>());
    InputSet set;
    set.begin_file(path);
    std::string bytes = read_file(path);
    set.feed(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    set.end_file();
    json doc = set.finish();
    for (const auto& r : doc["reports"]) {
      std::string format = r["format"].get<std::string>();
      if (!out.count(format)) out[format] = set.query("session.tables", json::object());
      if (!paths.count(format)) paths[format] = path;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("docs/TABLES.md documents every table of every format as the engine exposes it", "[tables]") {
  std::vector<DocSection> sections = parse_doc(read_file(std::string(GCSCOPE_SOURCE_DIR) + "/docs/TABLES.md"));
  std::map<std::string, std::string> sample_paths;
  std::map<std::string, json> samples = sample_tables(sample_paths);
  std::set<std::string> documented;
  bool saw_errors = false;
  for (const auto& section : sections) {
    if (section.formats.empty()) {
      for (const auto& t : section.tables) {
        CHECK(t.name == "errors");  // the only table outside a format's section
        check_table(t, tables::errors_schema().meaning, schema_columns(tables::errors_schema()));
        saw_errors = true;
      }
      continue;
    }
    for (const auto& format : section.formats) {
      INFO("format " << format);
      REQUIRE(FormatRegistry::builtin().find(format));
      INFO("formats with a sample: " << [&] {
        std::string all;
        for (auto& [k, v] : samples) all += k + " ";
        return all;
      }());
      REQUIRE(samples.count(format));  // a sample of every documented format
      documented.insert(format);
      const json& exposed = samples[format];
      REQUIRE(exposed.size() == section.tables.size());
      for (size_t k = 0; k < section.tables.size(); ++k) {
        CHECK(exposed[k]["name"] == section.tables[k].name);
        std::vector<std::string> keys;
        if (format == "tunemygc-payload")  // a TuneMyGC payload: [header, sample...], header[7] its GC.stat keys
          keys = read_json(sample_paths[format])[0][7].get<std::vector<std::string>>();
        check_table(section.tables[k], exposed[k]["meaning"], exposed[k]["columns"], keys);
      }
    }
  }
  CHECK(saw_errors);
  for (const auto& h : FormatRegistry::builtin().handlers()) {
    INFO("format " << h.id << " has tables but no section in docs/TABLES.md");
    if (!h.make(json::object())->tables().empty()) CHECK(documented.count(h.id));
  }
}
