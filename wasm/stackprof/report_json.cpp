#include "report_json.h"

#include <unordered_map>

#include "reports.h"

namespace gcscope::stackprof {

namespace {
nlohmann::json line_json(const Frame& f) {
  if (f.line_kind == LineKind::Int) return f.line;
  return nullptr;
}
}  // namespace

void write_report(const Profile& p, size_t dumps, nlohmann::json& r) {
  r["encoding"] = p.encoding == Encoding::Json ? "json" : "marshal";
  r["dumps"] = dumps;
  r["combined"] = p.combined;
  if (p.has_version) r["version"] = p.version; else r["version"] = nullptr;
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
  else
    r["miss_rate"] = nullptr;
  if (p.mode == "object")
    notes.push_back("object mode: missed_samples counts every allocation that was not sampled, so stackprof's miss rate (" +
                    std::to_string(p.missed_samples) + " missed) is meaningless here; samples are allocations, not time");
  if (p.mode == "cpu")
    notes.push_back("cpu mode samples on ITIMER_PROF, whose resolution is the kernel tick: the real interval can be coarser than the requested " +
                    std::to_string(p.interval) + " us; stackprof's reports count samples, not time");
  if (p.samples == 0) notes.push_back("profile contains no samples");
  if (!p.has_raw) notes.push_back("no raw samples (recorded without raw: true): flame graphs need raw; the tables below come from the aggregated frames");
  r["gc_share"] = p.has_gc_samples && p.samples > 0 ? nlohmann::json(100.0 * static_cast<double>(p.gc_samples) / static_cast<double>(p.samples))
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

  nlohmann::json ef = nlohmann::json::array(), et = nlohmann::json::array(), ew = nlohmann::json::array();
  nlohmann::json lf = nlohmann::json::array(), ll = nlohmann::json::array(), lt = nlohmann::json::array(), ls = nlohmann::json::array();
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
    // Raw records as a stack tree (node = (parent, frame)); consecutive records share prefixes, so
    // the previous record's path is reused before any hash lookup.
    std::vector<int32_t> parent, frame;
    std::unordered_map<uint64_t, uint32_t> node_of;
    std::vector<uint32_t> path, prev_frames;
    nlohmann::json rec_stack = nlohmann::json::array(), rec_weight = nlohmann::json::array();
    for (size_t rix = 0; rix + 1 < p.stack_begin.size(); ++rix) {
      uint32_t b = p.stack_begin[rix], e = p.stack_begin[rix + 1];
      size_t depth = e - b, common = 0;
      while (common < depth && common < prev_frames.size() && prev_frames[common] == p.stack_frames[b + common]) ++common;
      path.resize(common);
      prev_frames.resize(common);
      for (size_t d = common; d < depth; ++d) {
        uint32_t fr = p.stack_frames[b + d];
        int32_t par = d == 0 ? -1 : static_cast<int32_t>(path[d - 1]);
        uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(par)) << 32) | fr;
        auto it = node_of.find(key);
        uint32_t node;
        if (it == node_of.end()) {
          node = static_cast<uint32_t>(parent.size());
          parent.push_back(par);
          frame.push_back(static_cast<int32_t>(fr));
          node_of.emplace(key, node);
        } else {
          node = it->second;
        }
        path.push_back(node);
        prev_frames.push_back(fr);
      }
      rec_stack.push_back(depth == 0 ? -1 : static_cast<int64_t>(path[depth - 1]));
      rec_weight.push_back(p.record_weight[rix]);
    }
    // Time per record (µs): the sum of its samples' raw_timestamp_deltas, when they cover raw.
    nlohmann::json durations;
    if (p.has_deltas && static_cast<int64_t>(p.raw_timestamp_deltas.size()) == p.raw_weight_total && p.mode != "object") {
      durations = nlohmann::json::array();
      size_t k = 0;
      for (int64_t w : p.record_weight) {
        int64_t sum = 0;
        for (int64_t j = 0; j < w; ++j) sum += p.raw_timestamp_deltas[k++];
        durations.push_back(sum);
      }
    }
    nlohmann::json& raw = r["raw"];
    raw["stack_parent"] = std::move(parent);
    raw["stack_frame"] = std::move(frame);
    raw["record_stack"] = std::move(rec_stack);
    raw["record_weight"] = std::move(rec_weight);
    raw["record_duration"] = std::move(durations);
  } else {
    r["raw"] = nullptr;
  }
}

}  // namespace gcscope::stackprof
