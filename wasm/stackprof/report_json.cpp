#include "report_json.h"

#include "reports.h"

namespace gcscope::stackprof {

namespace {
nlohmann::json line_json(const Frame& f) {
  if (f.line_kind == LineKind::Int) return f.line;
  return nullptr;
}

// part/whole in percent; null where Ruby's Float division gives NaN or Infinity.
nlohmann::json pct_json(int64_t part, int64_t whole) {
  if (whole == 0) return nullptr;
  return 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}
}  // namespace

nlohmann::json method_json(const Profile& p, uint32_t idx, const CallerIndex& callers) {
  const Frame& f = p.frames[idx];
  MethodStats m = method_stats(p, idx, callers);
  nlohmann::json callers_j = nlohmann::json::array(), callees_j, lines = nlohmann::json::array();
  for (const auto& [c, w] : m.callers)
    callers_j.push_back({{"frame", c}, {"name", p.frames[c].name}, {"weight", w}, {"pct", pct_json(w, f.total)}});
  if (m.has_callees) {
    callees_j = nlohmann::json::array();
    for (const auto& [c, w] : m.callees)
      callees_j.push_back({{"frame", c == kNoFrame ? nlohmann::json() : nlohmann::json(c)},
                           {"name", c == kNoFrame ? std::string("(unknown frame)") : p.frames[c].name},
                           {"weight", w},
                           {"pct", pct_json(w, f.total - f.self)}});
  }
  for (const auto& l : m.lines)
    lines.push_back({{"line", l.line},
                     {"total", l.total},
                     {"self", l.self},
                     {"total_pct", pct_json(l.total, p.samples)},
                     {"self_pct", pct_json(l.self, p.samples)}});
  return {{"frame", idx},
          {"name", f.name},
          {"file", f.file},
          {"line", line_json(f)},
          {"self", f.self},
          {"total", f.total},
          {"self_pct", pct_json(f.self, p.samples)},
          {"total_pct", pct_json(f.total, p.samples)},
          {"samples", p.samples},
          {"callers", std::move(callers_j)},
          {"callees_total", f.total - f.self},
          {"callees", std::move(callees_j)},
          {"lines", std::move(lines)},
          {"code", {m.line, m.maxline + 1}}};
}

nlohmann::json text_json(const Profile& p, bool sort_total, const TextFilters* filters, size_t offset, size_t limit) {
  std::vector<uint32_t> rows = text_rows(p, sort_total, filters);
  nlohmann::json out = nlohmann::json::array();
  for (size_t k = offset; k < rows.size() && out.size() < limit; ++k) {
    const Frame& f = p.frames[rows[k]];
    out.push_back({{"frame", rows[k]},
                   {"name", f.name},
                   {"file", f.file},
                   {"line", line_json(f)},
                   {"total", f.total},
                   {"total_pct", pct_json(f.total, p.samples)},
                   {"self", f.self},
                   {"self_pct", pct_json(f.self, p.samples)}});
  }
  return {{"samples", p.samples}, {"count", rows.size()}, {"rows", std::move(out)}};
}

void write_report(const Profile& p, size_t dumps, const profile::StackModel& model, nlohmann::json& r) {
  r["encoding"] = p.encoding == Encoding::Json ? "json" : "marshal";
  r["dumps"] = dumps;
  r["combined"] = p.combined;
  if (p.has_version) r["version"] = p.version;
  else r["version"] = nullptr;
  r["mode"] = p.mode;
  r["interval"] = p.has_interval ? nlohmann::json(p.interval) : nlohmann::json();
  r["samples"] = p.samples;
  r["gc_samples"] = p.has_gc_samples ? nlohmann::json(p.gc_samples) : nlohmann::json();
  r["missed_samples"] = p.has_missed_samples ? nlohmann::json(p.missed_samples) : nlohmann::json();
  size_t nframes = 0;
  for (const auto& f : p.frames) nframes += f.placeholder ? 0 : 1;
  r["frames"] = nframes;
  r["has_raw"] = p.has_raw;
  r["raw_samples"] = p.raw_weight_total;
  r["has_timestamp_deltas"] = p.has_deltas;
  r["has_raw_lines"] = p.has_raw_lines;
  r["metadata"] = p.metadata;
  if (!p.other.empty()) r["other_keys"] = p.other;

  // Header figures as stackprof's text report computes them, with what they mean.
  nlohmann::json notes = nlohmann::json::array();
  if (p.has_missed_samples && p.samples + p.missed_samples > 0 && p.mode != "object")
    r["miss_rate"] = 100.0 * static_cast<double>(p.missed_samples) / static_cast<double>(p.missed_samples + p.samples);
  else r["miss_rate"] = nullptr;
  if (p.mode == "object")
    notes.push_back(
        "object mode: missed_samples counts every allocation that was not sampled, so stackprof's miss rate (" +
        std::to_string(p.missed_samples) + " missed) is meaningless here; samples are allocations, not time");
  if (p.mode == "cpu")
    notes.push_back(
        "cpu mode samples on ITIMER_PROF, whose resolution is the kernel tick: the real interval can be coarser than the requested " +
        std::to_string(p.interval) + " us; stackprof's reports count samples, not time");
  if (p.samples == 0) notes.push_back("profile contains no samples");
  if (!p.has_raw)
    notes.push_back(
        "no raw samples (recorded without raw: true): flame graphs need raw; the tables below come from the aggregated frames");
  r["gc_share"] = p.has_gc_samples && p.samples > 0
                      ? nlohmann::json(100.0 * static_cast<double>(p.gc_samples) / static_cast<double>(p.samples))
                      : nlohmann::json();
  r["notes"] = notes;

  std::vector<uint32_t> order = sorted_frames(p, false);
  nlohmann::json top = nlohmann::json::array();
  for (size_t k = 0; k < order.size() && k < 30; ++k) {
    const Frame& f = p.frames[order[k]];
    top.push_back({{"name", f.name}, {"file", f.file}, {"line", line_json(f)}, {"self", f.self}, {"total", f.total}});
  }
  r["top"] = top;

  // Columnar tables. Frame ids go out as strings (above 2^53 in principle).
  nlohmann::json id = nlohmann::json::array(), name = nlohmann::json::array(), file = nlohmann::json::array(),
                 line = nlohmann::json::array(), self = nlohmann::json::array(), total = nlohmann::json::array();
  for (const auto& f : p.frames) {
    id.push_back(p.key_text(f.key));
    name.push_back(f.name);
    file.push_back(f.file);
    line.push_back(line_json(f));
    self.push_back(f.self);
    total.push_back(f.total);
  }
  nlohmann::json rank = nlohmann::json::array();
  for (uint32_t i : order) rank.push_back(i);
  nlohmann::json& table = r["frame_table"];
  table["id"] = std::move(id);
  table["name"] = std::move(name);
  table["file"] = std::move(file);
  table["line"] = std::move(line);
  table["self"] = std::move(self);
  table["total"] = std::move(total);
  table["text_order"] = std::move(rank);

  // The method view of the heaviest frame: the first screen shows it; other frames are asked
  // ("stackprof.method").
  r["method_top"] = order.empty() ? nlohmann::json() : method_json(p, order[0], caller_index(p));

  nlohmann::json ef = nlohmann::json::array(), et = nlohmann::json::array(), ew = nlohmann::json::array();
  nlohmann::json lf = nlohmann::json::array(), ll = nlohmann::json::array(), lt = nlohmann::json::array(),
                 ls = nlohmann::json::array();
  for (uint32_t i = 0; i < p.frames.size(); ++i) {
    for (const auto& e : p.frames[i].edges) {
      if (e.to == kNoFrame) continue;
      ef.push_back(i);
      et.push_back(e.to);
      ew.push_back(e.weight);
    }
    for (const auto& l : p.frames[i].lines) {
      lf.push_back(i);
      ll.push_back(l.line);
      lt.push_back(l.total);
      ls.push_back(l.self);
    }
  }
  r["edges"]["from"] = std::move(ef);
  r["edges"]["to"] = std::move(et);
  r["edges"]["weight"] = std::move(ew);
  r["lines"]["frame"] = std::move(lf);
  r["lines"]["line"] = std::move(ll);
  r["lines"]["total"] = std::move(lt);
  r["lines"]["self"] = std::move(ls);

  nlohmann::json ff = nlohmann::json::array(), ft = nlohmann::json::array(), fs = nlohmann::json::array();
  for (const auto& s : file_sums(p)) {
    ff.push_back(s.file);
    ft.push_back(s.total);
    fs.push_back(s.self);
  }
  r["files"]["file"] = std::move(ff);
  r["files"]["total"] = std::move(ft);
  r["files"]["self"] = std::move(fs);

  {
    std::string dot;
    Out out(&dot);
    print_graphviz(p, out);
    r["graphviz"] = dot;
  }

  if (p.has_raw) {
    // Raw records as the stack model's tree: node = (parent, frame); one sample per record.
    nlohmann::json& raw = r["raw"];
    raw["stack_parent"] = model.parent;
    raw["stack_frame"] = model.frame;
    raw["record_stack"] = model.sample_node;
    nlohmann::json weights = nlohmann::json::array(), durations;
    for (double w : model.sample_weight) weights.push_back(static_cast<int64_t>(w));
    raw["record_weight"] = std::move(weights);
    // Time per record (µs): the sum of its samples' raw_timestamp_deltas, when they cover raw.
    if (!model.sample_duration.empty()) {
      durations = nlohmann::json::array();
      for (double d : model.sample_duration) durations.push_back(static_cast<int64_t>(d));
    }
    raw["record_duration"] = std::move(durations);
  } else {
    r["raw"] = nullptr;
  }
}

}  // namespace gcscope::stackprof
