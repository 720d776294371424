// Profile transforms, applied by the engine in order, each to every sample's stack (root first);
// frames are matched by their label (the name collapsed stacks print) unless said otherwise:
//   {"focus_function": NAME}   the stack from NAME's outermost call down; samples without NAME go
//   {"focus_subtree": [N0, .., Nk]}  samples whose stack starts N0..Nk, kept from Nk down; others go
//   {"merge_function": NAME}   NAME's frames removed (their time goes to the caller)
//   {"drop_function": NAME}    samples whose stack holds NAME removed
//   {"hide": REGEX}            frames whose name or file matches REGEX (ECMAScript, unanchored) removed
//   {"only_my_code": true}     frames of gems, Ruby's standard library and <cfunc> removed
//   {"collapse_gems": true}    each run of frames of one gem becomes one frame named "<name>-<version>"
//                              (a <cfunc> frame counts as its caller's gem)
//   {"collapse_recursion": "direct" | "all" [, "function": NAME]}
//                              direct: a frame called by a frame of the same name is removed;
//                              all: also indirect recursion, i.e. a name seen again further down
//                              cuts the stack back to its first occurrence (what lies between goes)
//   {"invert": true}           the stack read leaf first (callee-first trees)
// A sample whose stack ends up empty is removed. The frame table keeps its indices (collapse_gems
// appends its gem frames), so a frame index means the same frame before and after.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "stack_model.h"

namespace gcscope::profile {

struct Transform {
  enum class Kind {
    FocusFunction,
    FocusSubtree,
    MergeFunction,
    DropFunction,
    Hide,
    OnlyMyCode,
    CollapseGems,
    CollapseDirect,
    CollapseAll,
    Invert
  };
  Kind kind = Kind::Invert;
  std::string name;               // *_function; collapse_recursion's "function" (empty: every function)
  std::vector<std::string> path;  // focus_subtree
  std::string pattern;            // hide
  std::shared_ptr<const std::regex> regex;
};

// One transform object, or QueryError naming what is wrong with it.
Transform parse_transform(const nlohmann::json& t);
// args["transforms"] (absent or null: none), or QueryError.
std::vector<Transform> transforms_arg(const nlohmann::json& args);
// An ECMAScript regular expression, or QueryError naming the argument.
std::shared_ptr<const std::regex> compile_regex(const std::string& pattern, const char* what, bool icase = false);

// The model with every transform applied in order. `origin`, when given, receives for each sample
// of the result the index of the sample it came from (increasing).
StackModel apply_transforms(const StackModel& in, const std::vector<Transform>& transforms,
                            std::vector<uint32_t>* origin = nullptr);

}  // namespace gcscope::profile
