#include "compare.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/query.h"
#include "stack_queries.h"

namespace gcscope::profile {

namespace {

nlohmann::json num(double w) {
  if (w == std::floor(w) && std::fabs(w) < 9.007199254740992e15) return static_cast<int64_t>(w);
  return w;
}

double pct(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

std::string identity(const std::string& name, const std::string& file, const nlohmann::json& line) {
  return name + '\0' + file + '\0' + (line.is_number() ? line.dump() : std::string());
}

// The keys of one side's rows, in row order: their identity and, after the first row of an
// identity, how many came before. Rows of one name, file and line are frames their input kept
// apart (Frame::id); the k-th of them in one side is the k-th in another.
class RowKeys {
 public:
  std::string next(const std::string& name, const std::string& file, const nlohmann::json& line, size_t& occurrence) {
    std::string id = identity(name, file, line);
    occurrence = seen_[id]++;
    return occurrence == 0 ? id : id + '\0' + std::to_string(occurrence);
  }

 private:
  std::unordered_map<std::string, size_t> seen_;
};

}  // namespace

nlohmann::json compare_side(const std::vector<Frame>& frames, const std::vector<double>& self,
                            const std::vector<double>& total, double samples, const std::string& unit,
                            const std::string& mode, const StackModel* tree) {
  // Frames that share name, file, line and id are one row: self weights add up (a sample has one
  // leaf); a total counts each sample once, exactly from the stacks when there are some, else the
  // largest of the frames' totals (they may overlap in any way).
  std::vector<uint8_t> used(frames.size(), 0);
  for (size_t f = 0; f < frames.size(); ++f)
    used[f] = (f < self.size() && self[f] != 0) || (f < total.size() && total[f] != 0);
  if (tree)
    for (uint32_t f : tree->frame) used[f] = 1;
  std::unordered_map<std::string, size_t> by_id;
  std::vector<size_t> row_of(frames.size(), SIZE_MAX);
  std::vector<size_t> first;  // per row: its first frame
  std::vector<double> row_self, row_total;
  for (size_t f = 0; f < frames.size(); ++f) {
    if (!used[f]) continue;
    const Frame& fr = frames[f];
    nlohmann::json line = fr.line == kNoLine ? nlohmann::json() : nlohmann::json(fr.line);
    std::string key = identity(fr.name, fr.file, line);
    if (fr.id) key += '\0' + std::to_string(fr.id);
    auto [it, fresh] = by_id.emplace(std::move(key), first.size());
    if (fresh) {
      first.push_back(f);
      row_self.push_back(0);
      row_total.push_back(0);
    }
    size_t r = row_of[f] = it->second;
    row_self[r] += f < self.size() ? self[f] : 0;
    row_total[r] = std::max(row_total[r], f < total.size() ? total[f] : 0);
  }
  if (tree) {
    std::fill(row_total.begin(), row_total.end(), 0.0);
    std::vector<double> node_self = tree->node_self();
    std::vector<size_t> stamp(first.size(), SIZE_MAX);
    for (size_t n = 0; n < node_self.size(); ++n) {
      if (node_self[n] == 0) continue;
      for (int32_t k = static_cast<int32_t>(n); k >= 0; k = tree->parent[static_cast<size_t>(k)]) {
        size_t r = row_of[tree->frame[static_cast<size_t>(k)]];
        if (stamp[r] == n) continue;
        stamp[r] = n;
        row_total[r] += node_self[n];
      }
    }
  }
  nlohmann::json name = nlohmann::json::array(), file = nlohmann::json::array(), line = nlohmann::json::array(),
                 s = nlohmann::json::array(), t = nlohmann::json::array();
  for (size_t r = 0; r < first.size(); ++r) {
    const Frame& fr = frames[first[r]];
    name.push_back(fr.name);
    file.push_back(fr.file);
    line.push_back(fr.line == kNoLine ? nlohmann::json() : nlohmann::json(fr.line));
    s.push_back(num(row_self[r]));
    t.push_back(num(row_total[r]));
  }
  nlohmann::json tree_json;
  if (tree) {
    nlohmann::json fr = nlohmann::json::array(), ns = nlohmann::json::array();
    for (uint32_t f : tree->frame) fr.push_back(row_of[f]);
    for (double w : tree->node_self()) ns.push_back(num(w));
    tree_json = {{"parent", tree->parent}, {"frame", std::move(fr)}, {"self", std::move(ns)}};
  }
  return {{"kind", "profile"},
          {"unit", unit},
          {"mode", mode},
          {"samples", num(samples)},
          {"frames",
           {{"name", std::move(name)},
            {"file", std::move(file)},
            {"line", std::move(line)},
            {"self", std::move(s)},
            {"total", std::move(t)}}},
          {"tree", std::move(tree_json)}};
}

nlohmann::json compare_side(const StackModel& m, const std::string& mode) {
  std::vector<double> self, total;
  frame_weights(m, self, total);
  return compare_side(m.frames, self, total, m.total_weight(), m.unit, mode, &m);
}

namespace {

struct Row {
  std::string name, file;
  nlohmann::json line;
  double self[2] = {0, 0}, total[2] = {0, 0};
};

// Both sides' frames merged by identity; `remap[side][i]` = the row of that side's frame i.
void merge_frames(const nlohmann::json* sides[2], std::vector<Row>& rows, std::vector<size_t> remap[2]) {
  std::unordered_map<std::string, size_t> by_id;
  for (int k = 0; k < 2; ++k) {
    RowKeys keys;
    size_t occurrence = 0;
    // at(): a side from outside the engine (an embedder's compare.with) may lack a key or be short.
    const auto& f = sides[k]->at("frames");
    const auto &names = f.at("name"), &files = f.at("file"), &lines = f.at("line");
    const auto &selfs = f.at("self"), &totals = f.at("total");
    size_t n = names.size();
    remap[k].assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
      const std::string& name = names.at(i).get_ref<const std::string&>();
      const std::string& file = files.at(i).get_ref<const std::string&>();
      auto [it, fresh] = by_id.emplace(keys.next(name, file, lines.at(i), occurrence), rows.size());
      if (fresh) rows.push_back({name, file, lines.at(i)});
      Row& r = rows[it->second];
      r.self[k] += selfs.at(i).get<double>();
      r.total[k] += totals.at(i).get<double>();
      remap[k][i] = it->second;
    }
  }
}

// The differential tree: both sides' trees merged by the path of frame identities.
nlohmann::json diff_tree(const nlohmann::json* sides[2], const std::vector<size_t> remap[2]) {
  StackModel merged;  // frames unused: node frame = row index
  std::vector<double> self[2];
  for (int k = 0; k < 2; ++k) {
    const auto& t = sides[k]->at("tree");
    const auto &parents = t.at("parent"), &frames = t.at("frame"), &selfs = t.at("self");
    size_t n = parents.size();
    std::vector<int32_t> node(n);
    for (size_t i = 0; i < n; ++i) {
      int64_t p = parents.at(i).get<int64_t>();
      int64_t f = frames.at(i).get<int64_t>();
      if (p >= static_cast<int64_t>(i) || f < 0 || static_cast<size_t>(f) >= remap[k].size())
        throw QueryError("a compare side's tree is malformed at node " + std::to_string(i));
      node[i] = merged.child(p < 0 ? -1 : node[static_cast<size_t>(p)],
                             static_cast<uint32_t>(remap[k][static_cast<size_t>(f)]));
      self[0].resize(merged.nodes(), 0.0);
      self[1].resize(merged.nodes(), 0.0);
      self[k][static_cast<size_t>(node[i])] += selfs.at(i).get<double>();
    }
  }
  // Subtree totals: children come after their parent, so one backward pass adds them up.
  std::vector<double> total[2] = {self[0], self[1]};
  for (size_t i = merged.nodes(); i-- > 0;)
    if (merged.parent[i] >= 0)
      for (int k = 0; k < 2; ++k) total[k][static_cast<size_t>(merged.parent[i])] += total[k][i];
  auto column = [](const std::vector<double>& v) {
    nlohmann::json out = nlohmann::json::array();
    for (double w : v) out.push_back(num(w));
    return out;
  };
  return {{"parent", merged.parent},   {"frame", merged.frame},       {"self_a", column(self[0])},
          {"self_b", column(self[1])}, {"total_a", column(total[0])}, {"total_b", column(total[1])}};
}

}  // namespace

namespace {
nlohmann::json compare_checked(const nlohmann::json& a, const nlohmann::json& b);
}  // namespace

nlohmann::json compare_profiles(const nlohmann::json& a, const nlohmann::json& b) {
  try {
    return compare_checked(a, b);
  } catch (const nlohmann::json::exception& e) {
    throw QueryError(std::string("a compare side is malformed: ") + e.what());
  }
}

namespace {
nlohmann::json compare_checked(const nlohmann::json& a, const nlohmann::json& b) {
  for (const auto* s : {&a, &b})
    if (!s->is_object() || s->value("kind", "") != "profile" || !s->contains("frames"))
      throw QueryError("a profile compare needs two profile sides (compare.side answers)");
  std::string mode_a = a.value("mode", ""), mode_b = b.value("mode", "");
  if (!mode_a.empty() && !mode_b.empty() && mode_a != mode_b)
    throw QueryError("a " + mode_a + "-mode profile cannot be compared with a " + mode_b + "-mode profile");
  if (a.value("unit", "") != b.value("unit", ""))
    throw QueryError("profiles counting " + a.value("unit", std::string("?")) + " and " +
                     b.value("unit", std::string("?")) + " cannot be compared");
  const nlohmann::json* sides[2] = {&a, &b};
  std::vector<Row> rows;
  std::vector<size_t> remap[2];
  merge_frames(sides, rows, remap);
  double ta = a.at("samples").get<double>(), tb = b.at("samples").get<double>();
  std::vector<size_t> order(rows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto dtotal = [&](const Row& r) { return pct(r.total[1], tb) - pct(r.total[0], ta); };
  auto dself = [&](const Row& r) { return pct(r.self[1], tb) - pct(r.self[0], ta); };
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    double dx = std::fabs(dtotal(rows[x])), dy = std::fabs(dtotal(rows[y]));
    if (dx != dy) return dx > dy;
    return std::fabs(dself(rows[x])) > std::fabs(dself(rows[y]));
  });
  // Rows go out in that order; tree frames refer to positions in it.
  std::vector<size_t> position(rows.size());
  nlohmann::json frames = nlohmann::json::array();
  for (size_t k = 0; k < order.size(); ++k) {
    const Row& r = rows[order[k]];
    position[order[k]] = k;
    frames.push_back({{"name", r.name},
                      {"file", r.file},
                      {"line", r.line},
                      {"self_a", num(r.self[0])},
                      {"self_b", num(r.self[1])},
                      {"total_a", num(r.total[0])},
                      {"total_b", num(r.total[1])},
                      {"self_pct_a", pct(r.self[0], ta)},
                      {"self_pct_b", pct(r.self[1], tb)},
                      {"total_pct_a", pct(r.total[0], ta)},
                      {"total_pct_b", pct(r.total[1], tb)},
                      {"self_delta_pct", dself(r)},
                      {"total_delta_pct", dtotal(r)}});
  }
  nlohmann::json tree;
  auto has_tree = [](const nlohmann::json& s) { return s.contains("tree") && !s.at("tree").is_null(); };
  if (has_tree(a) && has_tree(b)) {
    tree = diff_tree(sides, remap);
    for (auto& f : tree["frame"]) f = position[f.get<size_t>()];
  }
  return {{"kind", "profile"},
          {"unit", a.value("unit", "")},
          {"mode", mode_a.empty() ? mode_b : mode_a},
          {"totals", {{"a", num(ta)}, {"b", num(tb)}, {"delta", num(tb - ta)}}},
          {"frames", std::move(frames)},
          {"tree", std::move(tree)}};
}
}  // namespace

namespace {

// Side `s`'s tree added to `merged`: its rows become frames of `merged` (one per identity, through
// `frame_of`) and each node's self weight a sample of its node.
void add_tree(const nlohmann::json& s, StackModel& merged, std::unordered_map<std::string, uint32_t>& frame_of) {
  // Read with at(): a missing key or a short column throws json::exception, which the caller notes.
  const auto& f = s.at("frames");
  const auto &names = f.at("name"), &files = f.at("file"), &lines = f.at("line");
  std::vector<uint32_t> row_frame;
  RowKeys keys;
  size_t occurrence = 0;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names.at(i).get_ref<const std::string&>();
    const std::string& file = files.at(i).get_ref<const std::string&>();
    const nlohmann::json& line = lines.at(i);
    auto [it, fresh] = frame_of.emplace(keys.next(name, file, line, occurrence), 0);
    if (fresh)  // id: the k-th row of one name, file and line stays apart from the others
      it->second =
          merged.add_frame({name, file, line.is_number_integer() ? line.get<int64_t>() : kNoLine, "", occurrence + 1});
    row_frame.push_back(it->second);
  }
  const auto& t = s.at("tree");
  const auto &parents = t.at("parent"), &frames = t.at("frame"), &selfs = t.at("self");
  std::vector<int32_t> node(parents.size());
  for (size_t i = 0; i < node.size(); ++i) {
    int64_t p = parents.at(i).get<int64_t>(), r = frames.at(i).get<int64_t>();
    if (p >= static_cast<int64_t>(i) || r < 0 || static_cast<size_t>(r) >= row_frame.size())
      throw QueryError("a compare side's tree is malformed at node " + std::to_string(i));
    node[i] = merged.child(p < 0 ? -1 : node[static_cast<size_t>(p)], row_frame[static_cast<size_t>(r)]);
    double w = selfs.at(i).get<double>();
    if (w != 0) merged.add_sample(node[i], w);
  }
}

}  // namespace

nlohmann::json sum_profile_sides(const std::vector<const nlohmann::json*>& sides,
                                 const std::vector<std::string>& labels, nlohmann::json& notes) {
  StackModel merged;
  std::unordered_map<std::string, uint32_t> frame_of;
  std::string mode;  // the first mode named; a side with no mode ("") fits any, as in compare_profiles
  bool any = false;
  size_t unit_from = 0, mode_from = 0;
  for (size_t i = 0; i < sides.size(); ++i) {
    const nlohmann::json& s = *sides[i];
    if (!s.is_object() || s.value("kind", "") != "profile" || !(s.value("samples", 0.0) > 0)) continue;
    if (!s.contains("tree") || !s["tree"].is_object() || !s.contains("frames")) {
      notes.push_back(labels[i] + ": its samples are not summed: it has no stack tree to add");
      continue;
    }
    std::string unit = s.value("unit", std::string("samples")), side_mode = s.value("mode", "");
    if (!any) {
      merged.unit = unit, unit_from = i, any = true;
    } else if (unit != merged.unit) {
      notes.push_back(labels[i] + ": its samples are not summed: it counts " + unit + " and " + labels[unit_from] +
                      " " + merged.unit);
      continue;
    } else if (!side_mode.empty() && !mode.empty() && side_mode != mode) {
      // a cpu and a wall profile may both count "samples", but of different clocks
      notes.push_back(labels[i] + ": its samples are not summed: it is a " + side_mode + "-mode profile and " +
                      labels[mode_from] + " a " + mode + "-mode one");
      continue;
    }
    if (mode.empty() && !side_mode.empty()) mode = side_mode, mode_from = i;
    try {
      add_tree(s, merged, frame_of);
    } catch (const nlohmann::json::exception& e) {
      throw QueryError(labels[i] + ": a compare side is malformed: " + e.what());
    }
  }
  if (merged.empty()) return {{"kind", "profile"}, {"samples", 0}};
  return compare_side(merged, mode);
}

std::vector<nlohmann::json> regressions(const nlohmann::json& result, double points) {
  std::vector<nlohmann::json> out;
  if (!result.is_object() || !result.contains("frames")) return out;
  for (const auto& f : result["frames"])
    if (f.value("total_delta_pct", 0.0) > points) out.push_back(f);
  return out;
}

}  // namespace gcscope::profile
