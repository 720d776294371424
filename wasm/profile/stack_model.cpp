#include "stack_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gcscope::profile {

std::string gem_of(std::string_view file) {
  // Installed gems live in ".../gems/<name>-<version>/..." (bundler's and rubygems' layout alike);
  // a name may hold dashes ("activerecord-import-1.5.0"), so the version is the last dash-part
  // that starts with a digit.
  for (size_t at = file.rfind("/gems/"); at != std::string_view::npos;
       at = at ? file.rfind("/gems/", at - 1) : std::string_view::npos) {
    size_t start = at + 6, end = file.find('/', start);
    if (end == std::string_view::npos) continue;
    std::string_view dir = file.substr(start, end - start);
    for (size_t dash = dir.rfind('-'); dash != std::string_view::npos && dash > 0; dash = dir.rfind('-', dash - 1))
      if (dash + 1 < dir.size() && dir[dash + 1] >= '0' && dir[dash + 1] <= '9') return std::string(dir);
  }
  return std::string();
}

bool is_ruby_stdlib(std::string_view file) {
  if (file.rfind("<internal:", 0) == 0) return true;
  // ".../lib/ruby/3.1.0/set.rb" but not ".../lib/ruby/gems/3.1.0/gems/..." nor ".../lib/ruby/vendor_ruby/..."
  for (size_t at = file.find("/lib/ruby/"); at != std::string_view::npos; at = file.find("/lib/ruby/", at + 1)) {
    size_t v = at + 10;
    if (v < file.size() && file[v] >= '0' && file[v] <= '9' && gem_of(file).empty()) return true;
  }
  return false;
}

uint32_t StackModel::add_frame(Frame f) {
  if (f.gem.empty()) f.gem = gem_of(f.file);
  frames.push_back(std::move(f));
  return static_cast<uint32_t>(frames.size() - 1);
}

int32_t StackModel::child(int32_t parent_node, uint32_t f) {
  uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(parent_node + 1)) << 32) | f;
  auto [it, fresh] = child_index_.emplace(key, static_cast<int32_t>(parent.size()));
  if (fresh) {
    parent.push_back(parent_node);
    frame.push_back(f);
  }
  return it->second;
}

int32_t StackModel::node_of(const uint32_t* path, size_t n, int32_t from) {
  int32_t cur = from;
  for (size_t i = 0; i < n; ++i) cur = child(cur, path[i]);
  return cur;
}

void StackModel::path_of(int32_t node, std::vector<uint32_t>& out) const {
  out.clear();
  for (int32_t n = node; n >= 0; n = parent[static_cast<size_t>(n)]) out.push_back(frame[static_cast<size_t>(n)]);
  std::reverse(out.begin(), out.end());
}

size_t StackModel::depth_of(int32_t node) const {
  size_t d = 0;
  for (int32_t n = node; n >= 0; n = parent[static_cast<size_t>(n)]) ++d;
  return d;
}

double StackModel::total_weight() const {
  double t = 0;
  for (double w : sample_weight) t += w;
  return t;
}

std::vector<double> StackModel::node_self() const {
  std::vector<double> self(parent.size(), 0.0);
  for (size_t i = 0; i < sample_node.size(); ++i)
    if (sample_node[i] >= 0) self[static_cast<size_t>(sample_node[i])] += sample_weight[i];
  return self;
}

std::string weight_text(double w) {
  if (std::isfinite(w) && w == std::floor(w) && std::fabs(w) < 9.007199254740992e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(w));
    return buf;
  }
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, w);
    if (std::strtod(buf, nullptr) == w) break;
  }
  return buf;
}

}  // namespace gcscope::profile
