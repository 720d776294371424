#include "reports.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <regex>
#include <unordered_map>

#include "core/utf8.h"

namespace gcscope::stackprof {

void Out::printf(const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof buf) {
    put(std::string_view(buf, static_cast<size_t>(n)));
    return;
  }
  std::string big(static_cast<size_t>(n) + 1, '\0');
  va_start(ap, fmt);
  std::vsnprintf(&big[0], big.size(), fmt, ap);
  va_end(ap);
  big.pop_back();
  put(big);
}

namespace {

// Ruby's sprintf("%W.Pf") of a Float: like C's, except NaN and infinities print as NaN / Inf / -Inf.
std::string rfloat(int width, int prec, double v) {
  char buf[64];
  if (std::isnan(v) || std::isinf(v)) {
    const char* t = std::isnan(v) ? "NaN" : (v < 0 ? "-Inf" : "Inf");
    std::snprintf(buf, sizeof buf, "%*s", width, t);
  } else {
    std::snprintf(buf, sizeof buf, "%*.*f", width, prec, v);
  }
  return buf;
}

// "(%2.1f%%)" % pct
std::string paren_pct(int width, double v) { return "(" + rfloat(width, 1, v) + "%)"; }

double pct(int64_t part, int64_t whole) { return 100.0 * static_cast<double>(part) / static_cast<double>(whole); }

const std::string& name_of(const Profile& p, uint32_t idx) { return p.frames[idx].name; }

}  // namespace

namespace {
std::string ecma_from_ruby(const std::string& re);
}  // namespace

std::vector<uint32_t> sorted_frames(const Profile& p, bool by_total) {
  std::vector<uint32_t> order;
  order.reserve(p.frames.size());
  for (uint32_t i = 0; i < p.frames.size(); ++i)
    if (!p.frames[i].placeholder) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Frame& x = p.frames[a];
    const Frame& y = p.frames[b];
    return by_total ? x.total > y.total : x.self > y.self;
  });
  return order;
}

bool check_filters(const TextFilters& f, std::string& error) {
  for (const auto* list : {&f.select_names, &f.reject_names})
    for (const auto& r : *list) {
      try {
        std::regex re(ecma_from_ruby(r), std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        error = "invalid regular expression /" + r + "/: " + e.what();
        return false;
      }
    }
  return true;
}

std::vector<uint32_t> text_rows(const Profile& p, bool sort_total, const TextFilters* filters) {
  std::vector<uint32_t> order = sorted_frames(p, sort_total);
  if (!filters) return order;
  // stackprof applies them in this order: select files, select names, reject files, reject names.
  auto compile = [](const std::vector<std::string>& list) {
    std::vector<std::regex> out;
    for (const auto& r : list) out.emplace_back(ecma_from_ruby(r), std::regex::ECMAScript);
    return out;
  };
  std::vector<std::regex> sel = compile(filters->select_names), rej = compile(filters->reject_names);
  auto prefixed = [](const std::string& file, const std::vector<std::string>& prefixes) {
    for (const auto& pre : prefixes)
      if (file.compare(0, pre.size(), pre) == 0) return true;
    return false;
  };
  auto named = [](const std::string& name, const std::vector<std::regex>& res) {
    for (const auto& re : res)
      if (std::regex_search(name, re)) return true;
    return false;
  };
  std::vector<uint32_t> kept;
  for (uint32_t i : order) {
    const Frame& f = p.frames[i];
    if (!filters->select_files.empty() && !prefixed(f.file, filters->select_files)) continue;
    if (!sel.empty() && !named(f.name, sel)) continue;
    if (!filters->reject_files.empty() && prefixed(f.file, filters->reject_files)) continue;
    if (!rej.empty() && named(f.name, rej)) continue;
    kept.push_back(i);
  }
  return kept;
}

void print_text(const Profile& p, Out& out, bool sort_total, long limit, const TextFilters* filters) {
  out.put("==================================\n");
  out.put("  Mode: " + p.mode + "(" + (p.has_interval ? std::to_string(p.interval) : std::string()) + ")\n");
  out.put("  Samples: " + std::to_string(p.samples) + " (" +
          rfloat(0, 2, pct(p.missed_samples, p.missed_samples + p.samples)) + "% miss rate)\n");
  out.put("  GC: " + std::to_string(p.gc_samples) + " (" + rfloat(0, 2, pct(p.gc_samples, p.samples)) + "%)\n");
  out.put("==================================\n");
  out.put("     TOTAL    (pct)     SAMPLES    (pct)     FRAME\n");
  std::vector<uint32_t> order = text_rows(p, sort_total, filters);
  size_t n = order.size();
  if (limit > 0 && static_cast<size_t>(limit) < n) n = static_cast<size_t>(limit);
  for (size_t k = 0; k < n; ++k) {
    const Frame& f = p.frames[order[k]];
    out.printf("% 10lld %8s  % 10lld %8s     ", static_cast<long long>(f.total),
               paren_pct(2, pct(f.total, p.samples)).c_str(), static_cast<long long>(f.self),
               paren_pct(2, pct(f.self, p.samples)).c_str());
    out.put(f.name);
    out.put('\n');
  }
}

std::vector<FileSum> file_sums(const Profile& p) {
  std::vector<FileSum> list;
  std::unordered_map<std::string, size_t> pos;
  for (const auto& f : p.frames) {
    if (f.placeholder || !f.has_file || !f.has_lines) continue;
    auto it = pos.find(f.file);
    size_t i;
    if (it == pos.end()) {
      i = list.size();
      pos.emplace(f.file, i);
      list.push_back({f.file, 0, 0});
    } else {
      i = it->second;
    }
    for (const auto& l : f.lines) {
      if (!l.scalar) list[i].total += l.total;
      list[i].self += l.self;
    }
  }
  std::stable_sort(list.begin(), list.end(), [](const FileSum& a, const FileSum& b) { return a.self > b.self; });
  return list;
}

void print_files(const Profile& p, Out& out, long limit) {
  std::vector<FileSum> list = file_sums(p);
  size_t n = list.size();
  if (limit > 0 && static_cast<size_t>(limit) < n) n = static_cast<size_t>(limit);
  for (size_t k = 0; k < n; ++k) {
    const FileSum& s = list[k];
    out.printf("% 5lld  (%s%%) / % 5lld  (%s%%)   ", static_cast<long long>(s.total),
               rfloat(5, 1, pct(s.total, p.samples)).c_str(), static_cast<long long>(s.self),
               rfloat(5, 1, pct(s.self, p.samples)).c_str());
    out.put(s.file);
    out.put('\n');
  }
}

void print_graphviz(const Profile& p, Out& out, long limit, double node_fraction) {
  std::vector<uint32_t> list = sorted_frames(p, true);
  int64_t node_minimum =
      node_fraction > 0 ? static_cast<int64_t>(std::ceil(node_fraction * static_cast<double>(p.samples))) : 0;
  int64_t max_samples = 0;
  for (const auto& f : p.frames)
    if (!f.placeholder) max_samples = std::max(max_samples, f.self);
  out.put("digraph profile {\n");
  out.put("Legend [shape=box,fontsize=24,shape=plaintext,label=\"\n");
  out.put("Total samples: " + std::to_string(p.samples) + "\\l");
  if (limit > 0) out.put("Showing top " + std::to_string(limit) + " nodes\\l");
  if (node_fraction > 0) out.put("Dropped nodes with < " + std::to_string(node_minimum) + " samples\\l");
  out.put("\"];\n");
  std::vector<bool> included(p.frames.size(), false);
  for (size_t index = 0; index < list.size(); ++index) {
    const Frame& f = p.frames[list[index]];
    if (f.total < node_minimum || (limit > 0 && index >= static_cast<size_t>(limit))) break;
    std::string sample;
    if (f.self < f.total) sample += std::to_string(f.self) + " (" + rfloat(2, 1, pct(f.self, p.samples)) + "%)\\rof ";
    sample += std::to_string(f.total) + " (" + rfloat(2, 1, pct(f.total, p.samples)) + "%)\\r";
    double fontsize = (1.0 * static_cast<double>(f.self) / static_cast<double>(max_samples)) * 28 + 10;
    double size = (1.0 * static_cast<double>(f.total) / static_cast<double>(p.samples)) * 2.0 + 0.5;
    std::string sz = ruby_float(size);
    out.put("  \"" + p.key_text(f.key) + "\" [size=" + sz + "] [fontsize=" + ruby_float(fontsize) + "] [penwidth=\"" +
            sz + "\"] [shape=box] [label=\"" + f.name + "\\n" + sample + "\"];\n");
    included[list[index]] = true;
  }
  for (uint32_t idx : list) {
    if (!included[idx]) continue;
    const Frame& f = p.frames[idx];
    std::string from = p.key_text(f.key);
    for (const auto& e : f.edges) {
      if (e.to == kNoFrame || !included[e.to]) continue;
      double size = (1.0 * static_cast<double>(e.weight) / static_cast<double>(p.samples)) * 2.0 + 0.5;
      std::string w = std::to_string(e.weight);
      out.put("  \"" + from + "\" -> \"" + p.key_text(p.frames[e.to].key) + "\" [label=\"" + w + "\"] [weight=\"" + w +
              "\"] [penwidth=\"" + ruby_float(size) + "\"];\n");
    }
  }
  out.put("}\n");
}

void print_callgrind(const Profile& p, Out& out) {
  out.put("version: 1\ncreator: stackprof\npid: 0\ncmd: ruby\npart: 1\n");
  out.put("desc: mode: " + p.mode + "(" + (p.has_interval ? std::to_string(p.interval) : std::string()) + ")\n");
  out.put("desc: missed: " + std::to_string(p.missed_samples) + ")\n");
  out.put("positions: line\nevents: Instructions\n");
  out.put("summary: " + std::to_string(p.samples) + "\n");
  for (uint32_t idx : sorted_frames(p, false)) {
    const Frame& f = p.frames[idx];
    out.put("fl=" + f.file + "\n");
    out.put("fn=" + f.name + "\n");
    for (const auto& l : f.lines) out.put(std::to_string(l.line) + " " + std::to_string(l.self) + "\n");
    for (const auto& e : f.edges) {
      static const Frame kMissing{};
      const Frame& o = e.to == kNoFrame ? kMissing : p.frames[e.to];
      if (!(o.has_file == f.has_file && o.file == f.file)) out.put("cfl=" + o.file + "\n");
      std::string w = std::to_string(e.weight);
      out.put("cfn=" + o.name + "\n");
      out.put("calls=" + w + " " + std::to_string(f.line_or(0)) + "\n" + std::to_string(o.line_or(0)) + " " + w + "\n");
    }
    out.put("\n");
  }
  out.put("totals: " + std::to_string(p.samples) + "\n");
}

bool print_stackcollapse(const Profile& p, Out& out, std::string& error) {
  if (!p.has_raw) {
    error = "profile does not include raw samples (add `raw: true` to collecting StackProf.run)";
    return false;
  }
  std::string line;
  for (size_t r = 0; r + 1 < p.stack_begin.size(); ++r) {
    line.clear();
    for (uint32_t j = p.stack_begin[r]; j < p.stack_begin[r + 1]; ++j) {
      if (j != p.stack_begin[r]) line.push_back(';');
      line += name_of(p, p.stack_frames[j]);
    }
    line.push_back(' ');
    line += std::to_string(p.record_weight[r]);
    line.push_back('\n');
    out.put(line);
  }
  return true;
}

namespace {

// Ruby regexp -> ECMAScript: \A \z \Z anchors, \h hex digit; everything else is the same for
// the patterns people type at --method (literals, classes, alternation, quantifiers).
std::string ecma_from_ruby(const std::string& re) {
  std::string out;
  for (size_t i = 0; i < re.size(); ++i) {
    if (re[i] == '\\' && i + 1 < re.size()) {
      char c = re[i + 1];
      ++i;
      if (c == 'A') out += "^";
      else if (c == 'z' || c == 'Z') out += "$";
      else if (c == 'h') out += "[0-9a-fA-F]";
      else if (std::isalnum(static_cast<unsigned char>(c))) out += std::string("\\") + c;
      else if (c == '#' || c == ' ' || c == '<' || c == '>' || c == '\'' || c == '"' || c == ':' || c == '@' ||
               c == '%' || c == '&' || c == '~' || c == '`' || c == '!' || c == ',' || c == ';' || c == '=')
        out.push_back(c);  // Ruby allows escaping any punctuation; ECMAScript only its syntax characters
      else out += std::string("\\") + c;
    } else {
      out.push_back(re[i]);
    }
  }
  return out;
}

// Source lines first..last (0-based, inclusive) of `file`, with the samples of `by_line` (1-based
// line numbers) next to them, as stackprof's source_display prints them.
void source_display(const Profile& p, Out& out, const std::string* file,
                    const std::unordered_map<int64_t, LineStat>& by_line, int64_t first, int64_t last,
                    const SourceProvider& sources) {
  std::vector<std::string> code;
  if (!file || !sources || !sources(*file, code)) {
    out.put("        SOURCE UNAVAILABLE\n");
    return;
  }
  bool v10 = p.version == 1.0;
  for (size_t i = 0; i < code.size(); ++i) {
    int64_t ii = static_cast<int64_t>(i);
    if (ii < first || ii > last) continue;
    auto it = by_line.find(ii + 1);
    if (it != by_line.end()) {
      const LineStat& l = it->second;
      if (v10) {
        out.printf("% 5lld %7s  | % 5lld  | ", static_cast<long long>(l.total),
                   paren_pct(2, pct(l.total, p.samples)).c_str(), static_cast<long long>(ii + 1));
      } else if (l.self > 0) {
        out.printf("% 5lld  %8s / % 5lld  %7s  | % 5lld  | ", static_cast<long long>(l.total),
                   paren_pct(2, pct(l.total, p.samples)).c_str(), static_cast<long long>(l.self),
                   paren_pct(2, pct(l.self, p.samples)).c_str(), static_cast<long long>(ii + 1));
      } else {
        out.printf("% 5lld  %8s                   | % 5lld  | ", static_cast<long long>(l.total),
                   paren_pct(3, pct(l.total, p.samples)).c_str(), static_cast<long long>(ii + 1));
      }
    } else if (v10) {
      out.printf("               | % 5lld  | ", static_cast<long long>(ii + 1));
    } else {
      out.printf("                                  | % 5lld  | ", static_cast<long long>(ii + 1));
    }
    out.put(code[i]);
  }
}

}  // namespace

CallerIndex caller_index(const Profile& p) {
  CallerIndex callers(p.frames.size());
  for (uint32_t i = 0; i < p.frames.size(); ++i)
    for (const auto& e : p.frames[i].edges)
      if (e.to != kNoFrame) {
        auto& c = callers[e.to];
        // other[:edges][addr]: one entry per caller frame
        if (c.empty() || c.back().first != i) c.push_back({i, e.weight});
      }
  return callers;
}

MethodStats method_stats(const Profile& p, uint32_t idx, const CallerIndex& callers) {
  const Frame& f = p.frames[idx];
  MethodStats m;
  m.frame = idx;
  m.line = f.line_or(1);
  m.maxline = m.line + 5;
  if (f.has_lines && !f.lines.empty()) {
    m.maxline = f.lines[0].line;
    for (const auto& l : f.lines) m.maxline = std::max(m.maxline, l.line);
  }
  m.callers = callers[idx];
  // sort_by(&:last).reverse
  std::stable_sort(m.callers.begin(), m.callers.end(),
                   [](const auto& a, const auto& b) { return a.second < b.second; });
  std::reverse(m.callers.begin(), m.callers.end());
  m.has_callees = f.has_edges;
  for (const auto& e : f.edges) m.callees.push_back({e.to, e.weight});
  std::stable_sort(m.callees.begin(), m.callees.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (f.has_lines) m.lines = f.lines;
  return m;
}

bool print_method(const Profile& p, Out& out, const std::string& regex, const SourceProvider& sources,
                  std::string& error) {
  std::regex re;
  try {
    re = std::regex(ecma_from_ruby(regex), std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    error = "invalid regular expression /" + regex + "/: " + e.what();
    return false;
  }
  CallerIndex callers;
  for (uint32_t idx : sorted_frames(p, false)) {
    const Frame& f = p.frames[idx];
    if (!std::regex_search(f.name, re)) continue;
    if (callers.empty()) callers = caller_index(p);
    MethodStats m = method_stats(p, idx, callers);
    out.put(f.name + " (" + f.file + ":" + std::to_string(m.line) + ")\n");
    out.printf("  samples: % 5lld self (%s%%)  /  % 5lld total (%s%%)\n", static_cast<long long>(f.self),
               rfloat(2, 1, pct(f.self, p.samples)).c_str(), static_cast<long long>(f.total),
               rfloat(2, 1, pct(f.total, p.samples)).c_str());
    if (!m.callers.empty()) {
      out.put("  callers:\n");
      for (const auto& [caller, w] : m.callers) {
        out.printf("   % 5lld  (%8s)  ", static_cast<long long>(w), (rfloat(3, 1, pct(w, f.total)) + "%").c_str());
        out.put(name_of(p, caller) + "\n");
      }
    }
    if (m.has_callees) {
      out.printf("  callees (%lld total):\n", static_cast<long long>(f.total - f.self));
      for (const auto& [callee, w] : m.callees) {
        out.printf("   % 5lld  (%8s)  ", static_cast<long long>(w),
                   (rfloat(3, 1, pct(w, f.total - f.self)) + "%").c_str());
        out.put((callee == kNoFrame ? std::string("(unknown frame)") : name_of(p, callee)) + "\n");
      }
    }
    out.put("  code:\n");
    std::unordered_map<int64_t, LineStat> by_line;
    for (const auto& l : m.lines) by_line.emplace(l.line, l);
    source_display(p, out, f.has_file ? &f.file : nullptr, by_line, m.line - 1, m.maxline, sources);
  }
  return true;
}

void print_file(const Profile& p, Out& out, const std::string& filter, const SourceProvider& sources) {
  // Report#files: per file (first-seen order), its frames' lines summed with add_lines.
  struct FileLines {
    std::string file;
    std::unordered_map<int64_t, LineStat> lines;
    int64_t self = 0;
  };
  std::vector<FileLines> files;
  std::unordered_map<std::string, size_t> pos;
  for (const auto& f : p.frames) {
    if (f.placeholder || !f.has_file || !f.has_lines) continue;
    auto [it, fresh] = pos.emplace(f.file, files.size());
    if (fresh) files.push_back({f.file, {}, 0});
    auto& lines = files[it->second].lines;
    for (const auto& l : f.lines) {
      auto [li, added] = lines.emplace(l.line, l);
      if (!added) add_line(li->second, l);
    }
  }
  std::vector<const FileLines*> list;
  for (auto& fl : files) {
    if (fl.file.find(filter) == std::string::npos) continue;
    for (const auto& [n, l] : fl.lines) fl.self += l.self;  // n.is_a?(Array) ? n[1] : n
    list.push_back(&fl);
  }
  std::stable_sort(list.begin(), list.end(), [](const FileLines* a, const FileLines* b) { return a->self > b->self; });
  for (const FileLines* fl : list) source_display(p, out, &fl->file, fl->lines, 0, INT64_MAX, sources);
}

std::string ruby_dump(std::string_view s) {
  std::string o = "\"";
  char buf[16];
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': o += "\\\""; continue;
      case '\\': o += "\\\\"; continue;
      case '\n': o += "\\n"; continue;
      case '\r': o += "\\r"; continue;
      case '\t': o += "\\t"; continue;
      case '\f': o += "\\f"; continue;
      case '\v': o += "\\v"; continue;
      case '\b': o += "\\b"; continue;
      case '\a': o += "\\a"; continue;
      case 033: o += "\\e"; continue;
      case '#':
        if (i + 1 < s.size() && (s[i + 1] == '$' || s[i + 1] == '@' || s[i + 1] == '{')) o += "\\#";
        else o.push_back('#');
        continue;
      default: break;
    }
    if (c >= 0x20 && c < 0x7f) {
      o.push_back(static_cast<char>(c));
      continue;
    }
    // A valid UTF-8 sequence prints as \uXXXX (\u{X} beyond the BMP); any other byte as \xXX.
    int len = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    uint32_t cp = len == 2 ? (c & 0x1f) : len == 3 ? (c & 0x0f) : (c & 0x07);
    bool ok = len > 0 && i + static_cast<size_t>(len) <= s.size();
    for (int k = 1; ok && k < len; ++k) {
      auto cc = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((cc & 0xc0) != 0x80) ok = false;
      cp = cp << 6 | (cc & 0x3f);
    }
    if (ok && ((len == 2 && cp < 0x80) || (len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ||
               (len == 4 && (cp < 0x10000 || cp > 0x10ffff))))
      ok = false;
    if (ok) {
      if (cp > 0xffff) std::snprintf(buf, sizeof buf, "\\u{%X}", cp);
      else std::snprintf(buf, sizeof buf, "\\u%04X", cp);
      o += buf;
      i += static_cast<size_t>(len) - 1;
    } else {
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      o += buf;
    }
  }
  o.push_back('"');
  return o;
}

bool print_flamegraph(const Profile& p, Out& out, bool alphabetical, std::string& error) {
  if (!p.has_raw) {
    error = "profile does not include raw samples (add `raw: true` to collecting StackProf.run)";
    return false;
  }
  // flamegraph_stacks: one stack per raw record, [ids..., weight]; stacks.sort! compares those
  // arrays element by element (ids and the weight alike), a shorter prefix first.
  size_t records = p.record_weight.size();
  std::vector<uint32_t> order(records);
  for (uint32_t r = 0; r < records; ++r) order[r] = r;
  auto elem = [&](uint32_t r, size_t k) -> uint64_t {
    size_t len = p.stack_begin[r + 1] - p.stack_begin[r];
    return k < len ? p.frames[p.stack_frames[p.stack_begin[r] + k]].key : static_cast<uint64_t>(p.record_weight[r]);
  };
  if (alphabetical) {
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      size_t la = p.stack_begin[a + 1] - p.stack_begin[a] + 1, lb = p.stack_begin[b + 1] - p.stack_begin[b] + 1;
      for (size_t k = 0; k < la && k < lb; ++k) {
        uint64_t x = elem(a, k), y = elem(b, k);
        if (x != y) return x < y;
      }
      return la < lb;
    });
  }
  size_t max_y = 0;
  int64_t max_x = 0;
  for (uint32_t r = 0; r < records; ++r) {
    max_y = std::max<size_t>(max_y, p.stack_begin[r + 1] - p.stack_begin[r]);
    max_x += p.record_weight[r];
  }
  bool started = false;
  auto row = [&](int64_t x, size_t y, int64_t width, uint32_t idx) {
    const Frame& f = p.frames[idx];
    std::string id = (f.key & kStringKeyBit) ? ruby_dump(p.key_text(f.key)) : std::to_string(f.key);
    std::string line = started ? "," : "";
    started = true;
    line += "{\"x\":" + std::to_string(x) + ",\"y\":" + std::to_string(y) + ",\"width\":" + std::to_string(width) +
            ",\"frame_id\":" + id + ",\"frame\":" + ruby_dump(f.name) + ",\"file\":" + ruby_dump(f.file) + "}\n";
    out.put(line);
  };
  out.put("flamegraph([\n");
  for (size_t y = 0; y < max_y; ++y) {
    uint32_t prev = kNoFrame;
    int64_t width = 0, x = 0;
    for (uint32_t r : order) {
      int64_t weight = p.record_weight[r];
      size_t len = p.stack_begin[r + 1] - p.stack_begin[r];
      uint32_t cell = y < len ? p.stack_frames[p.stack_begin[r] + y] : kNoFrame;
      if (cell == kNoFrame) {
        if (prev != kNoFrame) row(x - width, y, width, prev);
        prev = kNoFrame;
        x += weight;
        continue;
      }
      if (prev == kNoFrame) {
        width = weight;
      } else if (prev == cell) {
        width += weight;
      } else {
        row(x - width, y, width, prev);
        width = weight;
      }
      x += weight;
      prev = cell;
    }
    if (prev != kNoFrame && width != max_x) row(x - width, y, width, prev);  // skip_common
  }
  out.put("])\n");
  return true;
}

// ---- --json ---------------------------------------------------------------------------------

namespace {

struct JsonWriter {
  Out& out;
  std::string error;
  void str(std::string_view s) {
    if (!error.empty()) return;
    if (!utf8::is_valid(s)) {
      error =
          "source sequence is illegal/malformed utf-8 (a string of the profile is not UTF-8; stackprof --json fails the same way)";
      return;
    }
    std::string o = "\"";
    for (char ch : s) {
      auto c = static_cast<unsigned char>(ch);
      switch (c) {
        case '"': o += "\\\""; break;
        case '\\': o += "\\\\"; break;
        case '\n': o += "\\n"; break;
        case '\r': o += "\\r"; break;
        case '\t': o += "\\t"; break;
        case '\f': o += "\\f"; break;
        case '\b': o += "\\b"; break;
        default:
          if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
          } else {
            o.push_back(ch);
          }
      }
    }
    o.push_back('"');
    out.put(o);
  }
  void value(const nlohmann::json& v) {
    switch (v.type()) {
      case nlohmann::json::value_t::object: {
        out.put('{');
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
          if (!first) out.put(',');
          first = false;
          str(it.key());
          out.put(':');
          value(it.value());
        }
        out.put('}');
        break;
      }
      case nlohmann::json::value_t::array: {
        out.put('[');
        bool first = true;
        for (const auto& x : v) {
          if (!first) out.put(',');
          first = false;
          value(x);
        }
        out.put(']');
        break;
      }
      case nlohmann::json::value_t::string: str(v.get_ref<const std::string&>()); break;
      case nlohmann::json::value_t::number_float: out.put(ruby_float(v.get<double>())); break;
      default: out.put(v.dump()); break;
    }
  }
  template <typename T>
  void int_array(const std::vector<T>& xs) {
    out.put('[');
    std::string buf;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (i) buf.push_back(',');
      buf += std::to_string(xs[i]);
      if (buf.size() > 65536) {
        out.put(buf);
        buf.clear();
      }
    }
    out.put(buf);
    out.put(']');
  }
};

}  // namespace

bool print_json(const Profile& p, Out& out, std::string& error) {
  JsonWriter w{out, {}};
  out.put('{');
  bool first = true;
  // A key is written once, as JSON objects want: a hand-made dump may repeat a key (Ruby keeps the
  // last value) and every Hash or Array used as a key is listed as "(complex key)".
  std::vector<std::string_view> written;
  for (const auto& key : p.top_keys) {
    if (std::find(written.begin(), written.end(), key) != written.end()) continue;
    written.push_back(key);
    if (!first) out.put(',');
    first = false;
    w.str(key);
    out.put(':');
    if (key == "version") {
      out.put(p.version_text.find_first_of(".eEn") == std::string::npos && p.version == std::floor(p.version) &&
                      p.version_text.find('.') == std::string::npos && !p.version_text.empty() &&
                      p.encoding == Encoding::Json
                  ? p.version_text
                  : ruby_float(p.version));
    } else if (key == "mode") {
      w.str(p.mode);
    } else if (key == "interval") {
      out.put(p.has_interval ? std::to_string(p.interval) : std::string("null"));
    } else if (key == "samples") {
      out.put(p.has_samples ? std::to_string(p.samples) : std::string("null"));
    } else if (key == "gc_samples") {
      out.put(p.has_gc_samples ? std::to_string(p.gc_samples) : std::string("null"));
    } else if (key == "missed_samples") {
      out.put(p.has_missed_samples ? std::to_string(p.missed_samples) : std::string("null"));
    } else if (key == "metadata") {
      w.value(p.metadata);
    } else if (key == "frames") {
      out.put('{');
      bool ff = true;
      for (const auto& f : p.frames) {
        if (f.placeholder) continue;
        if (!ff) out.put(',');
        ff = false;
        w.str(p.key_text(f.key));
        out.put(":{");
        bool fk = true;
        for (uint8_t field : f.fields) {
          if (!fk) out.put(',');
          fk = false;
          switch (field) {
            case kFieldName:
              out.put("\"name\":");
              w.str(f.name);
              break;
            case kFieldFile:
              out.put("\"file\":");
              if (f.has_file) w.str(f.file);
              else out.put("null");
              break;
            case kFieldLine:
              out.put("\"line\":");
              out.put(f.line_kind == LineKind::Int ? std::to_string(f.line) : std::string("null"));
              break;
            case kFieldTotal: out.put("\"total_samples\":" + std::to_string(f.total)); break;
            case kFieldSelf: out.put("\"samples\":" + std::to_string(f.self)); break;
            case kFieldEdges: {
              out.put("\"edges\":{");
              for (size_t i = 0; i < f.edges.size(); ++i) {
                if (i) out.put(',');
                w.str(p.key_text(f.edges[i].to_key));
                out.put(":" + std::to_string(f.edges[i].weight));
              }
              out.put('}');
              break;
            }
            case kFieldLines: {
              out.put("\"lines\":{");
              for (size_t i = 0; i < f.lines.size(); ++i) {
                const LineStat& l = f.lines[i];
                if (i) out.put(',');
                out.put("\"" + std::to_string(l.line) + "\":");
                out.put(l.scalar ? std::to_string(l.self)
                                 : "[" + std::to_string(l.total) + "," + std::to_string(l.self) + "]");
              }
              out.put('}');
              break;
            }
            case kFieldHash:
              out.put("\"hash\":");
              w.str(f.hash);
              break;
            default: out.put("null"); break;
          }
        }
        out.put('}');
      }
      out.put('}');
    } else if (key == "raw") {
      w.int_array(p.raw);
    } else if (key == "raw_lines") {
      w.int_array(p.raw_lines);
    } else if (key == "raw_sample_timestamps") {
      w.int_array(p.raw_sample_timestamps);
    } else if (key == "raw_timestamp_deltas") {
      w.int_array(p.raw_timestamp_deltas);
    } else {
      w.value(p.other.contains(key) ? p.other[key] : nlohmann::json());
    }
  }
  out.put("}\n");
  if (!w.error.empty()) {
    error = w.error;
    return false;
  }
  return true;
}

}  // namespace gcscope::stackprof
