// One model of sampled stacks for every stack source (stackprof raw dumps, folded stacks, perf
// script, bpftrace/BCC stack maps, rbkit cpu samples, the heap's dominator tree): a frame table, a
// stack tree whose nodes are (parent node, frame), and samples in input order, each the leaf node
// of its stack with a weight (a count, bytes, microseconds) and, where the input has them, a
// duration and a timestamp. Transforms (transforms.h), the flame tree, the per-frame table, the
// compare and the exports all read this model, so every stack view of every format is computed once.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gcscope::profile {

inline constexpr int64_t kNoLine = -1;

struct Frame {
  std::string name;  // the label collapsed stacks print
  std::string file;  // empty when unknown
  int64_t line = kNoLine;
  std::string gem;  // "name-version" when `file` lies inside an installed gem, else empty
  // Non-zero when the input names its frames (a stackprof dump's frame ids): one number per frame
  // of the input, so that frames of one name, file and line that the input keeps apart stay apart
  // (compare.h). 0: frames of one name, file and line are one frame.
  uint64_t id = 0;
};

// "rack-2.2.8" for ".../gems/rack-2.2.8/lib/rack.rb" (the last "/gems/NAME-VERSION/" of the path,
// VERSION starting with a digit); empty for anything else.
std::string gem_of(std::string_view file);
// Ruby's standard library and the VM's own frames: ".../lib/ruby/3.1.0/...", "<internal:...>".
bool is_ruby_stdlib(std::string_view file);

class StackModel {
 public:
  std::string unit = "samples";  // what a weight counts ("samples", "allocations", "bytes", ...)
  std::vector<Frame> frames;
  std::vector<int32_t> parent;          // per node: its parent node, -1 for a root; parent[i] < i
  std::vector<uint32_t> frame;          // per node: its frame
  std::vector<int32_t> sample_node;     // per sample: the leaf node of its stack (-1: empty stack)
  std::vector<double> sample_weight;    // per sample
  std::vector<double> sample_duration;  // empty, or per sample: the time it stands for
  std::vector<double> sample_time;      // empty, or per sample: when it was taken

  uint32_t add_frame(Frame f);
  // The child of `parent_node` (-1: a root) for `f`, added when new.
  int32_t child(int32_t parent_node, uint32_t f);
  // The node of the stack `frames[0..n)` (root first) under `from`.
  int32_t node_of(const uint32_t* path, size_t n, int32_t from = -1);
  void add_sample(int32_t node, double weight) {
    sample_node.push_back(node);
    sample_weight.push_back(weight);
  }
  // Root-first frames of `node`'s stack into `out` (cleared first).
  void path_of(int32_t node, std::vector<uint32_t>& out) const;
  size_t nodes() const { return parent.size(); }
  size_t depth_of(int32_t node) const;
  double total_weight() const;
  // Per node: the weight of the samples whose leaf it is.
  std::vector<double> node_self() const;
  bool empty() const { return sample_node.empty(); }

 private:
  std::unordered_map<uint64_t, int32_t> child_index_;
};

// A weight as collapsed stacks print it: an integer when it is one, else the shortest decimal that
// reads back the same.
std::string weight_text(double w);

}  // namespace gcscope::profile
