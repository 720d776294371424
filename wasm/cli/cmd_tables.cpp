// `gcscope tables PATH... --out DIR [--as csv|ndjson] [--gzip] [-j N] [--from FILE]`: the tables of
// every input (docs/TABLES.md) as one file per table in DIR, every input's rows appended with its
// `input` column — a fleet of logs becomes a folder that DuckDB, Spark or pandas read at once.
//
// Each PATH is one input, its input set formed as `analyze` forms it (a directory of rotated logs is
// one input). N workers take the inputs in turn; a worker analyzes its input, then writes each of its
// tables while holding that table's file (an input's rows of a table stay together, in order),
// taking first the tables no other worker is writing. Memory is N analyses plus a 1 MiB piece per
// worker, whatever the number of inputs. Inputs whose tables of one name have other columns (a
// format whose columns follow its input) go to NAME-2.csv, NAME-3.csv, ...
//
// --gzip writes each file as one gzip stream made of pieces compressed independently by the workers
// (raw deflate ending in a sync flush, as pigz does) and joined under the file's lock, their CRCs
// combined; any gzip reader reads it as one member.
#include <zlib.h>

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "commands.h"
#include "core/raw_json.h"
#include "core/table_writers.h"
#include "input_loader.h"

namespace gcscope::cli {

namespace {

struct TablesArgs {
  std::vector<std::string> paths;
  nlohmann::json options = nlohmann::json::object();
  std::string out_dir;
  tables::TextFormat format = tables::TextFormat::kCsv;
  bool gzip = false;
  int jobs = 1;
};

int parse_tables_args(const std::vector<std::string>& given, TablesArgs& out) {
  std::vector<std::string> args;
  for (const auto& a : given) {
    bool short_jobs = a.size() > 2 && a.compare(0, 2, "-j") == 0 && std::isdigit(static_cast<unsigned char>(a[2]));
    args.push_back(short_jobs ? "-j" : a);  // -j2 as -j 2, as make and ninja take it
    if (short_jobs) args.push_back(a.substr(2));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool takes_value = a == "--out" || a == "--as" || a == "-j" || a == "--from";
    if (takes_value && i + 1 >= args.size()) return usage_error(a + " needs a value");
    if (a == "--out") {
      out.out_dir = args[++i];
    } else if (a == "--as") {
      const std::string& v = args[++i];
      if (v != "csv" && v != "ndjson") return usage_error("--as needs csv or ndjson");
      out.format = v == "csv" ? tables::TextFormat::kCsv : tables::TextFormat::kNdjson;
    } else if (a == "--gzip") {
      out.gzip = true;
    } else if (a == "-j") {
      char* end = nullptr;
      long n = std::strtol(args[++i].c_str(), &end, 10);
      if (*end || n < 1 || n > 256) return usage_error("-j needs a number of workers from 1 to 256");
      out.jobs = static_cast<int>(n);
    } else if (a == "--from") {
      // One PATH a line ("-": standard input), for fleets longer than a command line.
      std::ifstream file;
      if (args[i + 1] != "-") file.open(args[i + 1]);
      if (args[i + 1] != "-" && !file) return usage_error("cannot read --from " + args[i + 1]);
      std::istream& in = args[++i] == "-" ? std::cin : file;
      for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.paths.push_back(line);
    } else if (int rc = take_input_arg(args, i, out.options, out.paths)) {
      return rc;
    }
  }
  if (out.out_dir.empty()) return usage_error("tables needs --out DIR");
  if (out.paths.empty()) return usage_error("tables needs at least one PATH");
  return 0;
}

// One output file: a table name with one column list. Written only under `mu`.
struct TableFile {
  std::mutex mu;
  std::string name;  // the file's table name ("pauses", or "samples-2" for a second column list)
  std::string path;
  std::FILE* f = nullptr;
  bool gzip = false;
  uLong crc = 0;
  uint64_t raw_bytes = 0, rows = 0;
  bool failed = false;

  void write(const void* data, size_t n) {
    if (n && !failed && std::fwrite(data, 1, n, f) != n) failed = true;
  }
  // A piece of text, compressed already when the file is gzip'd (`crc` of the text, `text_len`).
  void append(std::string_view bytes, uLong piece_crc, size_t text_len) {
    write(bytes.data(), bytes.size());
    if (gzip) crc = crc32_combine(crc, piece_crc, static_cast<z_off_t>(text_len));
    raw_bytes += text_len;
  }
  bool close() {
    if (gzip) {
      const unsigned char final_block[2] = {0x03, 0x00};  // an empty final block (fixed Huffman)
      unsigned char trailer[8];
      for (int k = 0; k < 4; ++k) trailer[k] = static_cast<unsigned char>(crc >> (8 * k));
      for (int k = 0; k < 4; ++k) trailer[4 + k] = static_cast<unsigned char>(raw_bytes >> (8 * k));
      write(final_block, 2);
      write(trailer, 8);
    }
    if (std::fclose(f) != 0) failed = true;
    f = nullptr;
    return !failed;
  }
};

// Raw deflate of one piece, ended with a sync flush so that pieces concatenate into one stream.
class PieceCompressor {
 public:
  PieceCompressor() { deflateInit2(&z_, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY); }
  ~PieceCompressor() { deflateEnd(&z_); }
  std::string_view compress(std::string_view text) {
    deflateReset(&z_);
    out_.resize(deflateBound(&z_, static_cast<uLong>(text.size())) + 16);
    z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z_.avail_in = static_cast<uInt>(text.size());
    z_.next_out = reinterpret_cast<Bytef*>(out_.data());
    z_.avail_out = static_cast<uInt>(out_.size());
    deflate(&z_, Z_SYNC_FLUSH);
    return {out_.data(), out_.size() - z_.avail_out};
  }

 private:
  z_stream z_{};
  std::string out_;
};

std::string signature(const tables::Schema& s) {
  std::string sig;
  for (const auto& c : s.columns) sig += c.name + ":" + tables::type_name(c.type) + ",";
  return sig;
}

// The output folder's files, created on first use.
class OutputFolder {
 public:
  OutputFolder(const TablesArgs& args) : args_(args) {}

  TableFile* file_for(const tables::Schema& schema, std::string& error) {
    std::lock_guard<std::mutex> lock(mu_);
    std::string key = schema.name + "\n" + signature(schema);
    auto it = files_.find(key);
    if (it != files_.end()) return it->second.get();
    int variant = ++variants_[schema.name];
    auto file = std::make_unique<TableFile>();
    file->name = variant == 1 ? schema.name : schema.name + "-" + std::to_string(variant);
    file->path = args_.out_dir + "/" + file->name + (args_.format == tables::TextFormat::kCsv ? ".csv" : ".ndjson") +
                 (args_.gzip ? ".gz" : "");
    file->gzip = args_.gzip;
    file->f = std::fopen(file->path.c_str(), "wb");
    if (!file->f) {
      error = "cannot create " + file->path + ": " + std::strerror(errno);
      return nullptr;
    }
    if (file->gzip) {
      const unsigned char header[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff};
      file->write(header, sizeof header);
      file->crc = crc32(0, nullptr, 0);
    }
    std::string head = tables::header_text(args_.format, schema);
    write_piece(*file, head, nullptr);
    TableFile* raw = file.get();
    files_.emplace(key, std::move(file));
    return raw;
  }

  // Appends text to `file` (the caller holds its lock when other workers may write it).
  void write_piece(TableFile& file, std::string_view text, PieceCompressor* compressor) {
    if (text.empty()) return;
    if (!file.gzip) return file.append(text, 0, text.size());
    PieceCompressor local;
    std::string_view packed = (compressor ? *compressor : local).compress(text);
    uLong c = crc32(0, reinterpret_cast<const Bytef*>(text.data()), static_cast<uInt>(text.size()));
    file.append(packed, c, text.size());
  }

  // Closes every file; the summary's "tables" list.
  nlohmann::json close_all(std::vector<std::string>& errors) {
    nlohmann::json out = nlohmann::json::array();
    for (auto& [key, file] : files_) {
      if (!file->close()) errors.push_back("cannot write " + file->path);
      out.push_back({{"table", file->name}, {"file", file->path}, {"rows", file->rows}});
    }
    return out;
  }

 private:
  const TablesArgs& args_;
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<TableFile>> files_;
  std::map<std::string, int> variants_;
};

// Counts rows while a TextWriter formats them.
class CountingSink final : public tables::RowSink {
 public:
  explicit CountingSink(tables::RowSink& inner) : inner_(inner) {}
  void begin(const tables::Schema& s) override { inner_.begin(s); }
  void null_cell() override { inner_.null_cell(); }
  void int64_cell(int64_t v) override { inner_.int64_cell(v); }
  void float64_cell(double v) override { inner_.float64_cell(v); }
  void string_cell(std::string_view v) override { inner_.string_cell(v); }
  void bool_cell(bool v) override { inner_.bool_cell(v); }
  void timestamp_cell(int64_t us) override { inner_.timestamp_cell(us); }
  void end_row() override {
    inner_.end_row();
    ++rows;
  }
  void end() override { inner_.end(); }
  uint64_t rows = 0;

 private:
  tables::RowSink& inner_;
};

struct Totals {
  std::mutex mu;
  std::atomic<size_t> next{0};
  size_t analyzed = 0, rejected = 0;
  std::vector<std::string> write_errors;
  // The "errors" table's rows: read, identification and parse errors of every input.
  std::vector<std::pair<std::string, nlohmann::json>> diagnostics;
};

// Writes every table of one analyzed input: a table whose file no other worker holds first.
void write_input_tables(InputSet& set, OutputFolder& folder, const TablesArgs& args, PieceCompressor& compressor,
                        Totals& totals) {
  std::vector<tables::Schema> pending = set.tables();
  while (!pending.empty()) {
    size_t pick = 0;
    TableFile* file = nullptr;
    std::unique_lock<std::mutex> held;
    for (size_t k = 0; k < pending.size() && !file; ++k) {
      std::string error;
      TableFile* f = folder.file_for(pending[k], error);
      if (!f) {
        std::lock_guard<std::mutex> lock(totals.mu);
        totals.write_errors.push_back(error);
        continue;
      }
      std::unique_lock<std::mutex> attempt(f->mu, std::try_to_lock);
      if (!attempt.owns_lock() && k + 1 < pending.size()) continue;
      if (!attempt.owns_lock()) attempt.lock();  // every table is being written: wait for the last
      held = std::move(attempt);
      file = f;
      pick = k;
    }
    if (!file) return;  // no file could be created
    tables::TextWriter writer(args.format,
                              [&](std::string_view text) { folder.write_piece(*file, text, &compressor); });
    CountingSink counting(writer);
    set.write_table(pending[pick].name, counting);
    file->rows += counting.rows;
    pending.erase(pending.begin() + static_cast<long>(pick));
  }
}

void run_worker(const TablesArgs& args, OutputFolder& folder, Totals& totals) {
  PieceCompressor compressor;
  for (size_t k; (k = totals.next++) < args.paths.size();) {
    LoadedSet loaded = load_input_set({args.paths[k]}, args.options);
    bool analyzed = InputSet::exit_status(loaded.doc) == 0;
    if (analyzed) write_input_tables(*loaded.set, folder, args, compressor, totals);
    std::lock_guard<std::mutex> lock(totals.mu);
    (analyzed ? totals.analyzed : totals.rejected)++;
    for (const auto& e : loaded.doc["errors"]) totals.diagnostics.emplace_back(args.paths[k], e);
  }
}

// The errors table: one row per error or warning of any input (docs/TABLES.md).
void write_errors_table(OutputFolder& folder, Totals& totals, tables::TextFormat format) {
  const tables::Schema& schema = tables::errors_schema();
  std::string error;
  TableFile* file = folder.file_for(schema, error);
  if (!file) return totals.write_errors.push_back(error);
  tables::TextWriter writer(format, [&](std::string_view text) { folder.write_piece(*file, text, nullptr); });
  CountingSink counting(writer);
  counting.begin(schema);
  tables::RowWriter row(schema, counting);
  for (const auto& [path, e] : totals.diagnostics) {
    std::string input = e.value("path", std::string());
    row.str(input.empty() ? path : input).str(path).str(e.value("severity", std::string("error")));
    row.i64_or_null(e["line"].is_number() ? e["line"].get<int64_t>() : 0, e["line"].is_number());
    row.i64_or_null(e["offset"].is_number() ? e["offset"].get<int64_t>() : 0, e["offset"].is_number());
    row.str(e.value("message", std::string())).end_row();
  }
  counting.end();
  file->rows += counting.rows;
}

}  // namespace

int run_tables(const std::vector<std::string>& args) {
  TablesArgs t;
  if (int rc = parse_tables_args(args, t)) return rc;
  std::error_code ec;
  std::filesystem::create_directories(t.out_dir, ec);
  if (ec) return usage_error("cannot create --out " + t.out_dir + ": " + ec.message());
  OutputFolder folder(t);
  Totals totals;
  int workers = std::min<int>(t.jobs, static_cast<int>(t.paths.size()));
  std::vector<std::thread> threads;
  for (int w = 1; w < workers; ++w) threads.emplace_back(run_worker, std::cref(t), std::ref(folder), std::ref(totals));
  run_worker(t, folder, totals);
  for (auto& th : threads) th.join();
  write_errors_table(folder, totals, t.format);
  nlohmann::json tables_out = folder.close_all(totals.write_errors);
  nlohmann::json summary = {{"out", t.out_dir},
                            {"inputs", t.paths.size()},
                            {"analyzed", totals.analyzed},
                            {"rejected", totals.rejected},
                            {"tables", tables_out},
                            {"errors", totals.diagnostics.size()}};
  std::cout << raw_json::dump_document(summary, 2) << "\n";
  for (const auto& e : totals.write_errors) std::cerr << "gcscope: " << e << "\n";
  if (!totals.write_errors.empty()) return 1;
  return totals.analyzed ? 0 : 3;
}

}  // namespace gcscope::cli
