// The ruby-heap-dump analyzer: ObjectSpace.dump_all JSON lines, one or several dumps per set.
//
// Several members (accepts_many_members): every dump gets a compact entry in `dumps` (objects,
// bytes, by_type, parse counts); the top-level summaries, retention and views are those of the LAST
// dump (the heap "now"), and only one full model is alive at a time (the earlier dumps are reduced to
// what the diff needs and what their tables read: heap/tables.h gives every dump's rows). With 2 or 3 dumps (unless the
// option {"heap_diff": false}), `diff` lists the objects allocated after dump 1 that are alive in the last dump: what
// someone who takes several dumps of one process is looking for.
//
// After the report the last dump's model and dominator tree stay, and the analyzer answers the
// heap.* questions of heap_query.h about any of its objects.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/analyzer.h"
#include "core/line_splitter.h"
#include "core/query.h"
#include "heap/dump_parser.h"
#include "heap/heap_analysis.h"
#include "heap/heap_diff.h"
#include "heap/heap_query.h"
#include "heap/probe.h"
#include "heap/tables.h"
#include "heap/stack_source.h"
#include "profile/stack_queries.h"

namespace gcscope {

namespace {

using nlohmann::json;

class HeapDumpAnalyzer : public Analyzer {
 public:
  explicit HeapDumpAnalyzer(const AnalyzeOptions& options) {
    if (options.is_object()) {
      auto it = options.find("heap_diff");  // absent: a diff whenever there are several dumps
      if (it != options.end())
        diff_ = (it->is_boolean() && it->get<bool>()) || (it->is_string() && *it == "true") ? kDiffOn : kDiffOff;
      auto ret = options.find("heap_retention");  // false: summaries only (no dominator tree)
      retention_ = !(ret != options.end() &&
                     ((ret->is_boolean() && !ret->get<bool>()) || (ret->is_string() && *ret == "false")));
      auto focus = options.find("heap_focus");  // "0x7f…": parents, path and dominators of that object
      if (focus != options.end() && focus->is_string()) heap::parse_address(focus->get<std::string>(), focus_address_);
      auto lim = options.find("heap_tree_nodes");
      if (lim != options.end() && lim->is_number_unsigned()) limits_.tree_nodes = lim->get<size_t>();
    }
  }

  void begin_member(const std::string& path) override {
    Analyzer::begin_member(path);
    reduce_previous();
    model_ = std::make_unique<heap::HeapModel>();
    splitter_ = LineSplitter();
    parser_ = std::make_unique<heap::DumpParser>(
        *model_, [this](bool is_error, uint64_t line, uint64_t offset, std::string msg) {
          if (is_error) error(static_cast<int64_t>(line), static_cast<int64_t>(offset), std::move(msg));
          else warning(static_cast<int64_t>(line), static_cast<int64_t>(offset), std::move(msg));
        });
    path_ = path;
  }

  void feed(const char* data, size_t len) override {
    if (!parser_) begin_member(current_path());
    splitter_.feed(data, len, [this](std::string_view l, uint64_t n, uint64_t off) { parser_->line(l, n, off); });
  }

  void end_member() override {
    if (!parser_) return;
    splitter_.finish([this](std::string_view l, uint64_t n, uint64_t off) { parser_->line(l, n, off); });
    parser_->finish();
    model_->finalize(/*class_edges=*/true);
    const auto& c = parser_->counters();
    if (model_->dangling_references)
      warning(-1, -1,
              std::to_string(model_->dangling_references) +
                  " references point to addresses that are not in the dump (first: " +
                  heap::format_address(model_->dangling_examples.front()) + "); they are left out of the graph");
    if (c.records == 0 && c.physical_lines - c.blank_lines == 0)
      error(-1, -1, "empty heap dump: no records (expected JSON lines written by ObjectSpace.dump_all)");
    json d = member_summary(*model_, c);
    d["path"] = path_;
    dumps_.push_back(std::move(d));
    counters_ = c;
    ended_ = true;
  }

  void finish(json& report) override {
    if (parser_ && !ended_) end_member();
    report["dumps"] = dumps_;
    if (!model_) {
      report["objects"] = 0;
      report["bytes"] = 0;
      return;
    }
    const auto& c = counters_;
    report["ruby_version"] = ruby_version(*model_, c);
    report["records"] = c.records;
    report["roots"] = c.root_records;
    report["free_slots"] = c.free_slots;
    report["shape_records"] = c.shape_records;
    report["physical_lines"] = c.physical_lines;
    report["blank_lines"] = c.blank_lines;
    report["unparseable_lines"] = c.unparseable_lines;
    report["rejected_records"] = c.rejected_records;
    report["recovered_lines"] = c.recovered_lines;
    report["recovered_records"] = c.recovered_records;
    report["invalid_utf8_lines"] = c.invalid_utf8_lines;
    report["coerced_values"] = c.coerced_values;
    report["truncated"] = c.truncated;
    report["partial"] = c.root_records == 0 && model_->size() > 0;
    if (retention_) {
      heap::write_report(*model_, limits_, report, &dominators_);
      if (focus_address_) report["focus"] = queries().focus(focus_address_);
      write_dominator_stacks(report);
    } else {
      heap::write_summaries(*model_, limits_, report);
      report["dominators"] = {{"available", false}, {"reason", "not computed (option heap_retention=false)"}};
    }
    std::vector<std::string> notes;
    if (c.root_records == 0 && model_->size() > 0)
      notes.push_back(
          "no ROOT records: a partial dump (dump_all since:) or a cut file; no dominator tree or paths to roots");
    if (c.free_slots)
      notes.push_back(std::to_string(c.free_slots) +
                      " free-slot (NONE) records of a full: true dump are not objects and are left out of every total");
    if (c.recovered_records)
      notes.push_back(std::to_string(c.recovered_records) +
                      " records with unescaped fields (Ruby wrote a file or class name raw) were recovered from " +
                      std::to_string(c.recovered_lines) + " lines");
    if (dumps_.size() > 1 && diff_ == kDiffOff)
      notes.push_back(std::to_string(dumps_.size()) +
                      " dumps: the summaries are those of the last one (no diff: option heap_diff=false)");
    if (diff_ == kDiffOn && dumps_.size() < 2)
      notes.push_back("a diff needs 2 or 3 dumps of one process; this set has one");
    if (diff_ != kDiffOff && dumps_.size() >= 2) report["diff"] = leak_diff(notes);
    report["notes"] = notes;
    report["model_bytes"] = model_->memory_bytes();
    finished_ = true;
  }

  std::vector<tables::Schema> tables() const override { return heap::heap_tables(); }
  // Every dump's rows, in the set's order: the earlier dumps' reduced models, then the last one.
  bool write_table(const std::string& name, tables::RowSink& sink) override {
    if (!model_ || !finished_) return heap::write_heap_table(heap::HeapModel(), path_, name, sink);  // no rows
    for (const auto& [path, model] : earlier_) heap::write_heap_table(*model, path, name, sink);
    return heap::write_heap_table(*model_, path_, name, sink);
  }

  // heap.* (heap_query.h) and stacks.* (profile/stack_queries.h) over the dominator tree, whose
  // weights are retained bytes (stack_source.h).
  json query(const std::string& method, const json& args) override {
    if (method.rfind("stacks.", 0) == 0) {
      if (stacks_.base().empty())
        throw QueryError("this heap has no dominator tree (no GC roots in the dump, or retention was not computed)");
      return stacks_.answer(method, args);
    }
    if (method.rfind("heap.", 0) != 0) return Analyzer::query(method, args);
    if (!model_ || !finished_) throw QueryError("no heap dump was read, so there is no object to ask about");
    return queries().answer(method, args);
  }

 private:
  // The diff of the first dump against the last (and the middle one with 3): heap_diff.h.
  json leak_diff(std::vector<std::string>& notes) {
    if (dumps_.size() > 3)
      notes.push_back("the diff uses the first dump as the baseline and the last two as in heapy's 3-dump mode");
    std::vector<uint32_t> objs;
    uint64_t untracked = 0;
    bool address_mode = false;
    if (candidates_) {
      objs = heap::still_alive(*model_, *candidates_);
      address_mode = candidates_->address_mode;
      untracked = candidates_untracked_;
    } else if (base_) {
      objs = heap::new_objects(*model_, *base_, &untracked);
      address_mode = !base_->has_generations;
    }
    json diff = heap::diff_json(*model_, objs, 500);
    diff["dumps"] = dumps_.size();
    diff["baseline"] = dumps_.front()["path"];
    diff["last"] = dumps_.back()["path"];
    diff["mode"] = address_mode ? "address" : "generation";
    if (base_) diff["baseline_max_generation"] = base_->has_generations ? json(base_->max_generation) : json(nullptr);
    if (candidates_) {
      diff["candidates_in_middle_dump"] = candidates_->count;
      diff["middle_max_generation"] = candidates_->max_generation;
    }
    diff["untracked_objects"] = untracked;
    diff["rule"] =
        address_mode ? "dump 1 has no allocation generations (trace_object_allocations was off): objects are keyed by "
                       "address and type, so objects moved by GC.compact count as new"
                     : "new = allocated in a GC generation after dump 1 (or in dump 1's last generation at an address "
                       "dump 1 did not have), alive in the last dump; objects without allocation info are not new";
    return diff;
  }

  // Reduces the previous member's model to what the diff needs and what its tables read.
  void reduce_previous() {
    if (!model_) return;
    if (diff_ != kDiffOff) {
      if (!base_) {
        base_ = std::make_unique<heap::DiffBase>(heap::make_diff_base(*model_));
      } else {
        // A later middle dump replaces the candidates (with > 3 dumps: dump 1 vs the last two).
        candidates_ =
            std::make_unique<heap::DiffCandidates>(heap::make_candidates(*model_, *base_, &candidates_untracked_));
      }
    }
    parser_.reset();
    if (model_->finalized()) {
      model_->keep_table_columns();
      earlier_.emplace_back(path_, std::move(model_));
    }
    model_.reset();
    ended_ = false;
  }

  static json member_summary(const heap::HeapModel& m, const heap::DumpCounters& c) {
    uint64_t bytes = 0;
    uint64_t count[heap::kTypeCount] = {}, tb[heap::kTypeCount] = {};
    for (size_t i = 0; i < m.size(); ++i) {
      bytes += m.memsize[i];
      count[m.type[i]]++;
      tb[m.type[i]] += m.memsize[i];
    }
    json bt = json::object();
    for (uint8_t t = 0; t < heap::kTypeCount; ++t)
      if (count[t]) bt[heap::type_name(t)] = {{"count", count[t]}, {"bytes", tb[t]}};
    return {{"objects", m.size()},
            {"bytes", bytes},
            {"roots", c.root_records},
            {"free_slots", c.free_slots},
            {"max_generation", c.max_generation_plus1 ? json(c.max_generation_plus1 - 1) : json(nullptr)},
            {"recovered_lines", c.recovered_lines},
            {"unparseable_lines", c.unparseable_lines},
            {"by_type", bt}};
  }

  // Dumps do not state the Ruby version; the standard library's path usually does
  // (".../ruby/3.1.0/objspace.rb": the dump_all call itself allocates there).
  static json ruby_version(const heap::HeapModel& m, const heap::DumpCounters& c) {
    for (uint32_t id = 1; id < m.strings.size(); ++id) {
      std::string_view s = m.strings.get(id);
      size_t p = s.find("/ruby/");
      while (p != std::string_view::npos) {
        size_t q = p + 6, k = q;
        int dots = 0;
        while (k < s.size() && ((s[k] >= '0' && s[k] <= '9') || s[k] == '.')) dots += s[k++] == '.';
        if (k < s.size() && s[k] == '/' && dots == 2 && k > q + 4)
          return {{"version", std::string(s.substr(q, k - q))},
                  {"source", "standard library path in allocation sites"},
                  {"shapes", c.has_shape_id}};
        p = s.find("/ruby/", p + 1);
      }
    }
    return nullptr;
  }

  // The report's bounded dominator tree as a stack model: the flame graph's first screen
  // (dominator_stacks, a stacks.tree answer) and the model the stacks.* questions read.
  void write_dominator_stacks(json& report) {
    auto t = report.find("dominator_tree");
    stacks_.reset(t == report.end() ? profile::StackModel() : heap::dominator_stack_model(*t));
    stacks_.set_export_info(heap::dominator_export_info(path_));
    if (!stacks_.base().empty()) report["dominator_stacks"] = profile::tree_json(stacks_.base());
  }

  heap::HeapQueries& queries() {
    if (!queries_) queries_ = std::make_unique<heap::HeapQueries>(*model_, dominators_);
    return *queries_;
  }

  enum DiffMode { kDiffAuto, kDiffOn, kDiffOff } diff_ = kDiffAuto;
  bool retention_ = true;
  bool finished_ = false;
  uint64_t focus_address_ = 0;
  heap::ReportLimits limits_;
  heap::Dominators dominators_;
  std::unique_ptr<heap::HeapQueries> queries_;
  profile::StackQueries stacks_;
  std::unique_ptr<heap::HeapModel> model_;
  // The earlier dumps of a set (path, model reduced to its table columns), in the set's order.
  std::vector<std::pair<std::string, std::unique_ptr<heap::HeapModel>>> earlier_;
  std::unique_ptr<heap::DumpParser> parser_;
  LineSplitter splitter_;
  heap::DumpCounters counters_;
  std::string path_;
  json dumps_ = json::array();
  bool ended_ = false;
  std::unique_ptr<heap::DiffBase> base_;
  std::unique_ptr<heap::DiffCandidates> candidates_;
  uint64_t candidates_untracked_ = 0;
};

}  // namespace

void register_heap(FormatRegistry& registry) {
  FormatHandler h;
  h.id = "ruby-heap-dump";
  h.title = "Ruby heap dump (ObjectSpace.dump_all)";
  h.accepts_many_members = true;  // 2-3 dumps of one process are diffed
  h.make = [](const AnalyzeOptions& o) { return std::make_unique<HeapDumpAnalyzer>(o); };
  h.memory_per_input_byte = 0.85;
  h.lighter = {
      {"options", {{"heap_retention", false}}},
      {"memory_per_input_byte", 0.5},
      {"what", "the summaries (objects and bytes by class, location and generation) without the dominator tree"}};
  h.methods = heap::HeapQueries::methods();
  for (const auto& m : profile::stack_methods()) h.methods.push_back(m);
  h.probes = {{probe_rank::kJson + 20, heap::probe_dump}};
  registry.add(std::move(h));
}

}  // namespace gcscope
