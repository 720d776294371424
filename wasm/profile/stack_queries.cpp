#include "stack_queries.h"

#include <algorithm>
#include <cmath>

#include "core/query.h"
#include "transforms.h"

namespace gcscope::profile {

const std::vector<std::string>& stack_methods() {
  static const std::vector<std::string> kMethods = {"stacks.folded",   "stacks.tree",  "stacks.frames", "stacks.calls",
                                                    "stacks.sandwich", "stacks.match", "stacks.export"};
  return kMethods;
}

void StackQueries::reset(StackModel base) {
  base_ = std::move(base);
  has_cached_ = false;
  cached_ = StackModel();
}

const StackModel& StackQueries::transformed(const nlohmann::json& args) {
  std::vector<Transform> ts = transforms_arg(args);  // validates before anything is cached
  if (ts.empty()) return base_;
  std::string key = args["transforms"].dump();
  if (!has_cached_ || key != cached_key_) {
    cached_ = apply_transforms(base_, ts, &cached_origin_);
    cached_key_ = std::move(key);
    has_cached_ = true;
  }
  return cached_;
}

namespace {

uint32_t frame_arg(const StackModel& m, const nlohmann::json& args) {
  if (m.frames.empty()) throw QueryError("this profile has no frames");
  query_args::required(args, "frame");
  return static_cast<uint32_t>(query_args::integer(args, "frame", 0, 0, static_cast<int64_t>(m.frames.size()) - 1));
}

nlohmann::json line_json(int64_t line) { return line == kNoLine ? nlohmann::json() : nlohmann::json(line); }

// part/whole in percent; null when whole is 0.
nlohmann::json pct_json(double part, double whole) {
  return whole > 0 ? nlohmann::json(100.0 * part / whole) : nlohmann::json();
}

nlohmann::json number(double w) {
  if (w == std::floor(w) && std::fabs(w) < 9.007199254740992e15) return static_cast<int64_t>(w);
  return w;
}

// A tree {parent, frame, self} as columns.
nlohmann::json tree_columns(const StackModel& t) {
  std::vector<double> self = t.node_self();
  nlohmann::json s = nlohmann::json::array();
  for (double w : self) s.push_back(number(w));
  return {{"parent", t.parent}, {"frame", t.frame}, {"self", std::move(s)}};
}

}  // namespace

nlohmann::json StackQueries::answer(const std::string& method, const nlohmann::json& args) {
  if (method == "stacks.folded") return folded_text(transformed(args));
  if (method == "stacks.tree") return tree_json(transformed(args));
  if (method == "stacks.frames") return frames_json(transformed(args), args);
  if (method == "stacks.calls") {
    const StackModel& m = transformed(args);
    return calls_json(m, frame_arg(m, args));
  }
  if (method == "stacks.sandwich") {
    const StackModel& m = transformed(args);
    return sandwich_json(m, frame_arg(m, args));
  }
  if (method == "stacks.match") {
    if (!query_args::required(args, "regex").is_string()) throw QueryError("argument 'regex' must be a string");
    return match_json(transformed(args), args["regex"].get<std::string>());
  }
  if (method == "stacks.export") return export_answer(args);
  throw QueryError("unknown method '" + method + "'");
}

nlohmann::json StackQueries::export_answer(const nlohmann::json& args) {
  std::string to = query_args::string(args, "to", "");
  if (to != "speedscope" && to != "pprof") throw QueryError("argument 'to' is \"speedscope\" or \"pprof\"");
  const StackModel& m = transformed(args);
  ExportInfo info = export_info_;
  if (&m != &base_) {
    // The parts' sample ranges, in the transformed samples (origin is increasing).
    for (auto& part : info.parts) {
      part.first = static_cast<size_t>(std::lower_bound(cached_origin_.begin(), cached_origin_.end(), part.first) -
                                       cached_origin_.begin());
      part.end = static_cast<size_t>(std::lower_bound(cached_origin_.begin(), cached_origin_.end(), part.end) -
                                     cached_origin_.begin());
    }
  }
  if (to == "speedscope") return speedscope_json(m, info);
  std::string gz = gzip_bytes(pprof_message(m, info));
  if (gz.empty()) throw QueryError("the pprof export could not be compressed");
  return base64(gz);
}

std::string folded_text(const StackModel& m) {
  std::string out, line;
  std::vector<uint32_t> path;
  for (size_t s = 0; s < m.sample_node.size(); ++s) {
    m.path_of(m.sample_node[s], path);  // an empty stack prints as " N", as stackprof prints it
    line.clear();
    for (size_t i = 0; i < path.size(); ++i) {
      if (i) line.push_back(';');
      line += m.frames[path[i]].name;
    }
    line.push_back(' ');
    line += weight_text(m.sample_weight[s]);
    line.push_back('\n');
    out += line;
  }
  return out;
}

nlohmann::json tree_json(const StackModel& m) {
  nlohmann::json names = nlohmann::json::array(), files = nlohmann::json::array(), lines = nlohmann::json::array(),
                 gems = nlohmann::json::array();
  for (const auto& f : m.frames) {
    names.push_back(f.name);
    files.push_back(f.file);
    lines.push_back(line_json(f.line));
    gems.push_back(f.gem);
  }
  // Consecutive samples of one stack merge: the flame graph (and its time order) draws them as one.
  nlohmann::json stack = nlohmann::json::array(), weight = nlohmann::json::array(), duration = nlohmann::json::array();
  bool timed = !m.sample_duration.empty();
  double total = 0, w = 0, d = 0;
  int32_t run = -2;
  auto flush = [&] {
    if (run == -2) return;
    stack.push_back(run);
    weight.push_back(number(w));
    if (timed) duration.push_back(number(d));
  };
  for (size_t s = 0; s < m.sample_node.size(); ++s) {
    total += m.sample_weight[s];
    if (m.sample_node[s] != run) {
      flush();
      run = m.sample_node[s];
      w = d = 0;
    }
    w += m.sample_weight[s];
    if (timed) d += m.sample_duration[s];
  }
  flush();
  return {
      {"unit", m.unit},
      {"total", number(total)},
      {"frames",
       {{"name", std::move(names)}, {"file", std::move(files)}, {"line", std::move(lines)}, {"gem", std::move(gems)}}},
      {"stacks", {{"parent", m.parent}, {"frame", m.frame}}},
      {"samples", {{"stack", std::move(stack)}, {"weight", std::move(weight)}}},
      {"durations", timed ? std::move(duration) : nlohmann::json()}};
}

void frame_weights(const StackModel& m, std::vector<double>& self, std::vector<double>& total) {
  self.assign(m.frames.size(), 0.0);
  total.assign(m.frames.size(), 0.0);
  std::vector<double> node_self = m.node_self();
  std::vector<uint32_t> stamp(m.frames.size(), UINT32_MAX);
  for (size_t n = 0; n < node_self.size(); ++n) {
    double w = node_self[n];
    if (w == 0) continue;
    self[m.frame[n]] += w;
    for (int32_t k = static_cast<int32_t>(n); k >= 0; k = m.parent[static_cast<size_t>(k)]) {
      uint32_t f = m.frame[static_cast<size_t>(k)];
      if (stamp[f] == n) continue;  // recursion: a sample counts once per frame
      stamp[f] = static_cast<uint32_t>(n);
      total[f] += w;
    }
  }
}

nlohmann::json frames_json(const StackModel& m, const nlohmann::json& args) {
  std::string sort = query_args::string(args, "sort", "self");
  if (sort != "self" && sort != "total") throw QueryError("argument 'sort' is \"self\" or \"total\"");
  std::string filter = query_args::string(args, "filter", "");
  auto re = filter.empty() ? nullptr : compile_regex(filter, "argument 'filter'", true);
  int64_t offset = query_args::integer(args, "offset", 0);
  int64_t limit = query_args::integer(args, "limit", 100000, 0, 100000);
  std::vector<double> self, total;
  frame_weights(m, self, total);
  double all = m.total_weight();
  std::vector<uint32_t> order;
  for (uint32_t f = 0; f < m.frames.size(); ++f) {
    if (total[f] == 0) continue;
    if (re && !std::regex_search(m.frames[f].name, *re) && !std::regex_search(m.frames[f].file, *re)) continue;
    order.push_back(f);
  }
  const auto& key = sort == "self" ? self : total;
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return key[a] > key[b]; });
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = static_cast<size_t>(offset); i < order.size() && rows.size() < static_cast<size_t>(limit); ++i) {
    const Frame& f = m.frames[order[i]];
    rows.push_back({{"frame", order[i]},
                    {"name", f.name},
                    {"file", f.file},
                    {"line", line_json(f.line)},
                    {"self", number(self[order[i]])},
                    {"total", number(total[order[i]])},
                    {"self_pct", pct_json(self[order[i]], all)},
                    {"total_pct", pct_json(total[order[i]], all)}});
  }
  return {{"unit", m.unit}, {"total", number(all)}, {"count", order.size()}, {"rows", std::move(rows)}};
}

nlohmann::json calls_json(const StackModel& m, uint32_t target) {
  std::vector<double> node_self = m.node_self();
  std::vector<double> callers(m.frames.size(), 0.0), callees(m.frames.size(), 0.0);
  std::vector<uint32_t> caller_stamp(m.frames.size(), UINT32_MAX), callee_stamp(m.frames.size(), UINT32_MAX);
  double self = 0, total = 0;
  for (size_t n = 0; n < node_self.size(); ++n) {
    double w = node_self[n];
    if (w == 0) continue;
    bool seen = false;
    if (m.frame[n] == target) self += w;
    // Walk leaf to root: each edge into or out of the target counts once per sample.
    int32_t below = -1;
    for (int32_t k = static_cast<int32_t>(n); k >= 0; below = k, k = m.parent[static_cast<size_t>(k)]) {
      if (m.frame[static_cast<size_t>(k)] != target) continue;
      seen = true;
      int32_t up = m.parent[static_cast<size_t>(k)];
      if (up >= 0) {
        uint32_t c = m.frame[static_cast<size_t>(up)];
        if (caller_stamp[c] != n) callers[c] += w, caller_stamp[c] = static_cast<uint32_t>(n);
      }
      if (below >= 0) {
        uint32_t c = m.frame[static_cast<size_t>(below)];
        if (callee_stamp[c] != n) callees[c] += w, callee_stamp[c] = static_cast<uint32_t>(n);
      }
    }
    if (seen) total += w;
  }
  auto list = [&](const std::vector<double>& v) {
    std::vector<uint32_t> idx;
    for (uint32_t f = 0; f < v.size(); ++f)
      if (v[f] > 0) idx.push_back(f);
    std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) { return v[a] > v[b]; });
    nlohmann::json out = nlohmann::json::array();
    for (uint32_t f : idx)
      out.push_back(
          {{"frame", f}, {"name", m.frames[f].name}, {"weight", number(v[f])}, {"pct", pct_json(v[f], total)}});
    return out;
  };
  const Frame& fr = m.frames[target];
  double all = m.total_weight();
  return {{"frame", target},
          {"name", fr.name},
          {"file", fr.file},
          {"line", line_json(fr.line)},
          {"unit", m.unit},
          {"self", number(self)},
          {"total", number(total)},
          {"self_pct", pct_json(self, all)},
          {"total_pct", pct_json(total, all)},
          {"callers", list(callers)},
          {"callees", list(callees)}};
}

nlohmann::json sandwich_json(const StackModel& m, uint32_t target) {
  StackModel callers, callees;
  std::vector<double> node_self = m.node_self();
  std::vector<uint32_t> path, rev;
  double total = 0, self = 0;
  for (size_t n = 0; n < node_self.size(); ++n) {
    double w = node_self[n];
    if (w == 0) continue;
    m.path_of(static_cast<int32_t>(n), path);
    auto at = std::find(path.begin(), path.end(), target);
    if (at == path.end()) continue;
    total += w;
    if (path.back() == target) self += w;
    callees.add_sample(callees.node_of(&*at, static_cast<size_t>(path.end() - at)), w);
    rev.assign(std::make_reverse_iterator(at + 1), path.rend());
    callers.add_sample(callers.node_of(rev.data(), rev.size()), w);
  }
  return {{"frame", target},
          {"unit", m.unit},
          {"total", number(total)},
          {"self", number(self)},
          {"callers", tree_columns(callers)},
          {"callees", tree_columns(callees)}};
}

nlohmann::json match_json(const StackModel& m, const std::string& regex) {
  auto re = compile_regex(regex, "argument 'regex'", true);
  std::vector<uint8_t> hit_frame(m.frames.size(), 0);
  nlohmann::json frames = nlohmann::json::array();
  for (uint32_t f = 0; f < m.frames.size(); ++f) {
    const Frame& fr = m.frames[f];
    if (std::regex_search(fr.name, *re) || (!fr.file.empty() && std::regex_search(fr.file, *re))) {
      hit_frame[f] = 1;
      frames.push_back(f);
    }
  }
  // parent[i] < i: one forward pass marks every node below a matching frame.
  std::vector<uint8_t> hit(m.nodes(), 0);
  for (size_t n = 0; n < m.nodes(); ++n)
    hit[n] = hit_frame[m.frame[n]] || (m.parent[n] >= 0 && hit[static_cast<size_t>(m.parent[n])]);
  double weight = 0, total = 0;
  for (size_t s = 0; s < m.sample_node.size(); ++s) {
    total += m.sample_weight[s];
    if (m.sample_node[s] >= 0 && hit[static_cast<size_t>(m.sample_node[s])]) weight += m.sample_weight[s];
  }
  return {{"weight", number(weight)}, {"total", number(total)}, {"unit", m.unit}, {"frames", std::move(frames)}};
}

}  // namespace gcscope::profile
