#include "transforms.h"

#include <unordered_map>

#include "core/query.h"

namespace gcscope::profile {

std::shared_ptr<const std::regex> compile_regex(const std::string& pattern, const char* what, bool icase) {
  try {
    auto flags = std::regex::ECMAScript | (icase ? std::regex::icase : std::regex::ECMAScript);
    return std::make_shared<const std::regex>(pattern, flags);
  } catch (const std::regex_error& e) {
    throw QueryError(std::string(what) + ": invalid regular expression /" + pattern + "/ (" + e.what() + ")");
  }
}

namespace {

std::string name_arg(const nlohmann::json& v, const char* key) {
  if (!v.is_string() || v.get_ref<const std::string&>().empty())
    throw QueryError(std::string("transform '") + key + "' needs a frame name (a non-empty string)");
  return v.get<std::string>();
}

}  // namespace

Transform parse_transform(const nlohmann::json& t) {
  if (!t.is_object() || t.empty())
    throw QueryError(
        "a transform is an object such as {\"focus_function\": NAME}, {\"hide\": REGEX} or {\"invert\": true}");
  Transform out;
  auto has = [&](const char* k) { return t.contains(k); };
  if (has("focus_function")) {
    out.kind = Transform::Kind::FocusFunction;
    out.name = name_arg(t["focus_function"], "focus_function");
  } else if (has("focus_subtree")) {
    out.kind = Transform::Kind::FocusSubtree;
    const auto& p = t["focus_subtree"];
    if (!p.is_array() || p.empty())
      throw QueryError("transform 'focus_subtree' needs the path as a list of frame names, root first");
    for (const auto& n : p) out.path.push_back(name_arg(n, "focus_subtree"));
  } else if (has("merge_function")) {
    out.kind = Transform::Kind::MergeFunction;
    out.name = name_arg(t["merge_function"], "merge_function");
  } else if (has("drop_function")) {
    out.kind = Transform::Kind::DropFunction;
    out.name = name_arg(t["drop_function"], "drop_function");
  } else if (has("hide")) {
    out.kind = Transform::Kind::Hide;
    if (!t["hide"].is_string()) throw QueryError("transform 'hide' needs a regular expression (a string)");
    out.pattern = t["hide"].get<std::string>();
    out.regex = compile_regex(out.pattern, "transform 'hide'");
  } else if (has("only_my_code")) {
    out.kind = Transform::Kind::OnlyMyCode;
  } else if (has("collapse_gems")) {
    out.kind = Transform::Kind::CollapseGems;
  } else if (has("collapse_recursion")) {
    const auto& v = t["collapse_recursion"];
    if (v == "direct") out.kind = Transform::Kind::CollapseDirect;
    else if (v == "all") out.kind = Transform::Kind::CollapseAll;
    else throw QueryError("transform 'collapse_recursion' is \"direct\" or \"all\"");
    if (t.contains("function") && !t["function"].is_null()) out.name = name_arg(t["function"], "collapse_recursion");
  } else if (has("invert")) {
    out.kind = Transform::Kind::Invert;
  } else {
    throw QueryError("unknown transform " + t.dump() +
                     " (known: focus_function, focus_subtree, merge_function, drop_function, hide, only_my_code, "
                     "collapse_gems, collapse_recursion, invert)");
  }
  return out;
}

std::vector<Transform> transforms_arg(const nlohmann::json& args) {
  std::vector<Transform> out;
  if (!args.is_object() || !args.contains("transforms") || args["transforms"].is_null()) return out;
  const auto& list = args["transforms"];
  if (!list.is_array()) throw QueryError("argument 'transforms' must be a list of transform objects");
  for (const auto& t : list) out.push_back(parse_transform(t));
  return out;
}

namespace {

// Applies the transforms to one stack at a time. Per transform, what it asks of a frame (is it NAME,
// does it match the regex, ...) is computed once per frame and kept.
class PathTransformer {
 public:
  PathTransformer(StackModel& out, const std::vector<Transform>& ts) : out_(out), ts_(ts), flags_(ts.size()) {}

  // False when the sample goes.
  bool run(std::vector<uint32_t>& path) {
    for (size_t t = 0; t < ts_.size() && !path.empty(); ++t)
      if (!step(t, path)) return false;
    return !path.empty();
  }

 private:
  bool flag(size_t t, uint32_t f) {
    auto& v = flags_[t];
    if (v.size() <= f) v.resize(out_.frames.size(), -1);
    if (v[f] < 0) v[f] = compute(ts_[t], out_.frames[f]) ? 1 : 0;
    return v[f] == 1;
  }

  static bool compute(const Transform& t, const Frame& fr) {
    switch (t.kind) {
      case Transform::Kind::Hide:
        return std::regex_search(fr.name, *t.regex) || (!fr.file.empty() && std::regex_search(fr.file, *t.regex));
      case Transform::Kind::OnlyMyCode: return !fr.gem.empty() || fr.file == "<cfunc>" || is_ruby_stdlib(fr.file);
      case Transform::Kind::CollapseGems: return !fr.gem.empty();
      case Transform::Kind::CollapseDirect:
      case Transform::Kind::CollapseAll: return t.name.empty() || fr.name == t.name;
      default: return fr.name == t.name;
    }
  }

  uint32_t gem_frame(const std::string& gem) {
    auto [it, fresh] = gem_frames_.emplace(gem, 0);
    if (fresh) {
      Frame f;
      f.name = gem;
      f.gem = gem;
      it->second = out_.add_frame(std::move(f));
    }
    return it->second;
  }

  bool step(size_t t, std::vector<uint32_t>& path) {
    const Transform& tr = ts_[t];
    auto& p = path;
    switch (tr.kind) {
      case Transform::Kind::FocusFunction: {
        size_t i = 0;
        while (i < p.size() && !flag(t, p[i])) ++i;
        if (i == p.size()) return false;
        p.erase(p.begin(), p.begin() + static_cast<long>(i));
        return true;
      }
      case Transform::Kind::FocusSubtree: {
        if (p.size() < tr.path.size()) return false;
        for (size_t i = 0; i < tr.path.size(); ++i)
          if (out_.frames[p[i]].name != tr.path[i]) return false;
        p.erase(p.begin(), p.begin() + static_cast<long>(tr.path.size() - 1));
        return true;
      }
      case Transform::Kind::DropFunction:
        for (uint32_t f : p)
          if (flag(t, f)) return false;
        return true;
      case Transform::Kind::MergeFunction:
      case Transform::Kind::Hide:
      case Transform::Kind::OnlyMyCode: {
        size_t k = 0;
        for (uint32_t f : p)
          if (!flag(t, f)) p[k++] = f;
        p.resize(k);
        return true;
      }
      case Transform::Kind::CollapseGems: {
        // A <cfunc> frame belongs to the gem of the frame that called it (Array#each inside rake
        // is rake's time).
        size_t k = 0;
        uint32_t prev_gem = kNone;
        for (uint32_t f : p) {
          const Frame& fr = out_.frames[f];
          uint32_t g = flag(t, f) ? gem_frame(fr.gem) : fr.file == "<cfunc>" ? prev_gem : kNone;
          prev_gem = g;
          if (g == kNone) {
            p[k++] = f;
          } else if (k == 0 || p[k - 1] != g) {  // one frame for each run of the gem's frames
            p[k++] = g;
          }
        }
        p.resize(k);
        return true;
      }
      case Transform::Kind::CollapseDirect: {
        size_t k = 0;
        for (uint32_t f : p) {
          if (k > 0 && flag(t, f) && out_.frames[p[k - 1]].name == out_.frames[f].name) continue;
          p[k++] = f;
        }
        p.resize(k);
        return true;
      }
      case Transform::Kind::CollapseAll: {
        std::unordered_map<std::string_view, size_t> at;  // name -> its position in the kept stack
        size_t k = 0;
        for (size_t i = 0; i < p.size(); ++i) {
          uint32_t f = p[i];
          const std::string& name = out_.frames[f].name;
          auto it = flag(t, f) ? at.find(name) : at.end();
          if (it != at.end()) {
            size_t keep = it->second + 1;
            for (size_t j = keep; j < k; ++j) {
              auto gone = at.find(out_.frames[p[j]].name);
              if (gone != at.end() && gone->second >= keep) at.erase(gone);
            }
            k = keep;
            continue;
          }
          at.emplace(name, k);
          p[k++] = f;
        }
        p.resize(k);
        return true;
      }
      case Transform::Kind::Invert: std::reverse(p.begin(), p.end()); return true;
    }
    return true;
  }

  static constexpr uint32_t kNone = UINT32_MAX;
  StackModel& out_;
  const std::vector<Transform>& ts_;
  std::vector<std::vector<int8_t>> flags_;
  std::unordered_map<std::string, uint32_t> gem_frames_;
};

}  // namespace

StackModel apply_transforms(const StackModel& in, const std::vector<Transform>& transforms,
                            std::vector<uint32_t>* origin) {
  if (origin) origin->clear();
  if (transforms.empty()) {
    if (origin)
      for (size_t s = 0; s < in.sample_node.size(); ++s) origin->push_back(static_cast<uint32_t>(s));
    return in;
  }
  StackModel out;
  out.unit = in.unit;
  out.frames = in.frames;
  PathTransformer tr(out, transforms);
  // A node's stack is transformed once, however many samples end there.
  constexpr int32_t kUnset = -3, kDropped = -2;
  std::vector<int32_t> mapped(in.nodes(), kUnset);
  std::vector<uint32_t> path;
  bool durations = !in.sample_duration.empty(), times = !in.sample_time.empty();
  for (size_t s = 0; s < in.sample_node.size(); ++s) {
    int32_t node = in.sample_node[s];
    if (node < 0) continue;
    int32_t& m = mapped[static_cast<size_t>(node)];
    if (m == kUnset) {
      in.path_of(node, path);
      m = tr.run(path) ? out.node_of(path.data(), path.size()) : kDropped;
    }
    if (m == kDropped) continue;
    out.add_sample(m, in.sample_weight[s]);
    if (origin) origin->push_back(static_cast<uint32_t>(s));
    if (durations) out.sample_duration.push_back(in.sample_duration[s]);
    if (times) out.sample_time.push_back(in.sample_time[s]);
  }
  return out;
}

}  // namespace gcscope::profile
