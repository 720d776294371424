#include "jvm/legacy/legacy_parser.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <optional>

#include "core/byte_find.h"
#include "core/text_scan.h"
#include "jvm/decorations.h"
#include "jvm/log_text.h"

namespace gcscope::jvm {

using text::contains;
using text::is_digit;
using text::starts_with;

namespace {

// Comparisons with string literals of a length known at compile time: in wasm a memcmp is a call into a
// byte loop (5 % of the parser's time in V8; the record path makes a dozen such compares per line), so
// there they are inline byte compares. These overloads are chosen over text::starts_with/ends_with
// whenever the word is a literal.
template <size_t N>
inline bool same_bytes(const char* p, const char (&word)[N]) {
#if defined(__wasm__)
  // Word-sized loads (wasm loads need no alignment), the last one overlapping: no loop, no call.
  constexpr size_t n = N - 1;
  if constexpr (n >= 8) {
    uint64_t a, b, c, d;
    for (size_t i = 0; i + 8 <= n; i += 8) {
      std::memcpy(&a, p + i, 8);
      std::memcpy(&b, word + i, 8);
      if (a != b) return false;
    }
    std::memcpy(&c, p + n - 8, 8);
    std::memcpy(&d, word + n - 8, 8);
    return c == d;
  } else if constexpr (n >= 4) {
    uint32_t a, b, c, d;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, word, 4);
    std::memcpy(&c, p + n - 4, 4);
    std::memcpy(&d, word + n - 4, 4);
    return a == b && c == d;
  } else {
    for (size_t i = 0; i < n; ++i)
      if (p[i] != word[i]) return false;
    return true;
  }
#else
  return std::memcmp(p, word, N - 1) == 0;  // natively a memcmp of a constant length is a few wide loads
#endif
}
template <size_t N>
inline bool starts_with(std::string_view s, const char (&word)[N]) {
  return s.size() >= N - 1 && same_bytes(s.data(), word);
}
template <size_t N>
inline bool ends_with(std::string_view s, const char (&word)[N]) {
  return s.size() >= N - 1 && same_bytes(s.data() + s.size() - (N - 1), word);
}
// The literal `word` at s[i] (i <= s.size()).
template <size_t N>
inline bool at(std::string_view s, size_t i, const char (&word)[N]) {
  return s.size() - i >= N - 1 && same_bytes(s.data() + i, word);
}
using text::ends_with;  // for words that are not literals
using text::starts_with;

// The positions of the bytes Cs in [begin, end), in order. One 16-byte compare per block gives a bit mask
// whose bits are visited one by one, instead of restarting a search after every hit (a record has ~8
// brackets); the last partial block is read as the 16 bytes ending at `end` with the bytes already seen
// masked off, so no byte is compared one at a time unless the whole text is shorter than 16 bytes.
template <char... Cs>
class ByteHits {
 public:
  ByteHits(const char* begin, const char* end) : end_(end) {
    if (end - begin >= 16) {
      block_ = begin;
      bits_ = block_mask(begin);
    } else {  // short text: one mask built byte by byte
      block_ = begin;
      for (const char* p = begin; p < end; ++p)
        if (((*p == Cs) || ...)) bits_ |= 1u << (p - begin);
      last_ = true;
    }
  }
  // The next hit, or nullptr.
  const char* next() {
    while (bits_ == 0) {
      if (last_) return nullptr;
      const char* following = block_ + 16;
      if (end_ - following >= 16) {
        block_ = following;
        bits_ = block_mask(block_);
      } else {
        if (following >= end_) return nullptr;
        const unsigned seen = static_cast<unsigned>(16 - (end_ - following));  // bytes of the last block read before
        block_ = end_ - 16;
        bits_ = (block_mask(block_) >> seen) << seen;
        last_ = true;
      }
    }
    const char* hit = block_ + __builtin_ctz(bits_);
    bits_ &= bits_ - 1;
    return hit;
  }

 private:
  static uint32_t block_mask(const char* p) {
#if defined(__wasm_simd128__)
    const v128_t block = wasm_v128_load(p);
    v128_t eq = wasm_i8x16_splat(0);
    ((eq = wasm_v128_or(eq, wasm_i8x16_eq(block, wasm_i8x16_splat(Cs)))), ...);
    return wasm_i8x16_bitmask(eq);
#elif defined(__SSE2__)
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    __m128i eq = _mm_setzero_si128();
    ((eq = _mm_or_si128(eq, _mm_cmpeq_epi8(block, _mm_set1_epi8(Cs)))), ...);
    return static_cast<uint32_t>(_mm_movemask_epi8(eq));
#else
    uint32_t m = 0;
    for (int i = 0; i < 16; ++i)
      if (((p[i] == Cs) || ...)) m |= 1u << i;
    return m;
#endif
  }

  const char* end_;
  const char* block_ = nullptr;
  uint32_t bits_ = 0;
  bool last_ = false;
};

// Whether any of the bytes Cs is in [begin, end) (the same blocks, the last one overlapping).
template <char... Cs>
bool has_any(const char* begin, const char* end) {
  return ByteHits<Cs...>(begin, end).next() != nullptr;
}

using log_text::log_decimal;
using log_text::parse_size_kb;

constexpr size_t kMaxPendingBytes = 256 * 1024;  // a record longer than this is not a GC record
constexpr int kMaxPendingLines = 400;            // FLS statistics can put ~100 lines inside one record
constexpr int kMaxDepth = 32;

// "a->b(c)" or "a(c)->b(d)" (G1) or "a(c)" at s[p].
bool parse_transition(std::string_view s, size_t p, PoolSizes& out) {
  int64_t a, b, c;
  if (!parse_size_kb(s, p, a)) return false;
  if (p < s.size() && s[p] == '(') {  // G1 "24.0M(24.0M)->0.0B(20.0M)" or CMS "454489K(786432K)"
    size_t q = p + 1;
    if (parse_size_kb(s, q, c) && q < s.size() && s[q] == ')') {
      p = q + 1;
      if (p + 1 < s.size() && s[p] == '-' && s[p + 1] == '>') {
        p += 2;
        if (!parse_size_kb(s, p, b)) return false;
        out.before_kb = a;
        out.after_kb = b;
        if (p < s.size() && s[p] == '(') {
          q = p + 1;
          if (parse_size_kb(s, q, c)) out.committed_kb = c;
        }
        return true;
      }
      out.after_kb = a;  // a bare occupancy (CMS initial mark / remark)
      out.committed_kb = c;
      return true;
    }
    return false;
  }
  if (p + 1 < s.size() && s[p] == '-' && s[p + 1] == '>') {
    p += 2;
    if (!parse_size_kb(s, p, b)) return false;
    out.before_kb = a;
    out.after_kb = b;
    if (p < s.size() && s[p] == '(') {
      size_t q = p + 1;
      if (parse_size_kb(s, q, c)) out.committed_kb = c;
    }
    return true;
  }
  return false;
}

// The first size transition in s (from the number before the first "->" that has sizes on both sides, else
// the first "NK("). An arrow without sizes is skipped: -XX:+PrintAdaptiveSizePolicy prints
// "collection: 1 (4194304) -> (8781824)" before the record's heap figures.
bool find_transition(std::string_view s, PoolSizes& out) {
  size_t arrow = s.find("->");
  if (arrow != std::string_view::npos) {
    for (; arrow != std::string_view::npos; arrow = s.find("->", arrow + 2)) {
      size_t q = arrow;
      // back over the unit and, for G1, "(capacity)"
      if (q > 0 && s[q - 1] == ')') {
        size_t open = s.rfind('(', q - 1);
        if (open == std::string_view::npos) continue;
        q = open;
      }
      while (q > 0 && (s[q - 1] == 'K' || s[q - 1] == 'M' || s[q - 1] == 'G' || s[q - 1] == 'B')) --q;
      while (q > 0 && (is_digit(s[q - 1]) || s[q - 1] == '.' || (s[q - 1] == ',' && q >= 2 && is_digit(s[q - 2])))) --q;
      if (q < arrow && parse_transition(s, q, out)) return true;
    }
    return false;
  }
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if ((s[i] == 'K' || s[i] == 'M') && s[i + 1] == '(' && i > 0 && is_digit(s[i - 1])) {
      size_t q = i;
      while (q > 0 && (is_digit(s[q - 1]) || s[q - 1] == '.')) --q;
      return parse_transition(s, q, out);
    }
  }
  return false;
}

// n bytes from src to dst (not overlapping), 8 at a time: the depth-1 segments of a record are short,
// and a call to memcpy costs more than the copy for them in wasm.
inline void copy_bytes(char* dst, const char* src, size_t n) {
  for (; n >= 8; n -= 8, dst += 8, src += 8) {
    uint64_t w;
    std::memcpy(&w, src, 8);
    std::memcpy(dst, &w, 8);
  }
  for (; n > 0; --n) *dst++ = *src++;
}

// The number right before the last " secs" (or " ms") of s, in seconds.
double last_secs(std::string_view s) {
  size_t at = ends_with(s, " secs") ? s.size() - 5 : s.rfind(" secs");
  double scale = 1.0;
  if (at == std::string_view::npos) {
    at = s.rfind(" ms");
    if (at == std::string_view::npos) return kUnknown;
    scale = 0.001;
  }
  size_t q = at;
  while (q > 0) {
    const char c = s[q - 1];
    if (is_digit(c) || c == '.') --q;
    else if (c == ',' && q >= 2 && is_digit(s[q - 2])) --q;
    else break;
  }
  double v;
  size_t p = q;
  if (p == at || !log_decimal(s, p, v)) return kUnknown;
  return v * scale;
}

// " [Times: user=0.08 sys=0.03, real=0.02 secs]" anywhere in s.
bool parse_times(std::string_view s, GcEvent& e) {
  size_t times_at = (s.size() > 14 && s[0] == ' ' && s[1] == '[' && same_bytes(s.data() + 1, "[Times: user="))
                        ? 1
                        : s.find("[Times: user=");
  if (times_at == std::string_view::npos) return false;
  size_t p = times_at + 13;
  double v;
  if (log_decimal(s, p, v)) e.user_s = v;
  // The first "sys=" and "real=" after the user time; the JVM's " sys=…, real=…" is checked in place
  // first (find() compares at every 's' and 'r' on the way).
  const bool sys_next = at(s, p, " sys=");
  size_t q = sys_next ? p + 1 : s.find("sys=", p);
  size_t real = std::string_view::npos;
  if (q != std::string_view::npos) {
    q += 4;
    if (log_decimal(s, q, v)) e.sys_s = v;
    if (sys_next && at(s, q, ", real=")) real = q + 2;  // nothing but " sys=<number>" since p
  }
  if (real == std::string_view::npos) real = s.find("real=", p);
  if (real != std::string_view::npos) {
    q = real + 5;
    if (log_decimal(s, q, v)) e.real_s = v;
  }
  return true;
}

// Index just past the bracket that opens at s[open] (the matching ']'), or npos.
// (Visits the brackets only: the " [Times: …]" after every record was a byte loop of ~40 bytes.)
size_t match_bracket(std::string_view s, size_t open) {
  int depth = 0;
  const char* const data = s.data();
  const char* const end = data + s.size();
  ByteHits<'[', ']'> hits(data + std::min(open, s.size()), end);
  for (const char* hit = hits.next(); hit; hit = hits.next()) {
    if (*hit == '[') ++depth;
    else if (--depth == 0) return static_cast<size_t>(hit - data) + 1;
  }
  return std::string_view::npos;
}

int bracket_balance(std::string_view s) {
  int depth = 0;
  for (char c : s) {
    if (c == '[') ++depth;
    else if (c == ']' && depth > 0) --depth;
  }
  return depth;
}

// "[GC …" / "[Full GC …" that opens a collection record, as opposed to G1 detail lines such as
// "[GC Worker Start (ms): …]" (printed without indentation when a log was trimmed).
bool is_record_start(std::string_view rest) {
  if (rest.size() < 3 || rest[0] != '[') return false;
  switch (rest[1]) {
    case 'G': break;
    case 'F': return starts_with(rest, "[Full GC");
    // Shenandoah (JDK 8 backport): "[Pause Init Mark, 0.677 ms]", "[Concurrent marking, 8.058 ms]"
    case 'P': return starts_with(rest, "[Pause ");
    case 'C': return starts_with(rest, "[Concurrent ");
    default: return false;
  }
  if (rest[2] != 'C') return false;
  if (rest.size() == 3) return true;
  char c = rest[3];
  if (c == '[' || c == '(' || c == ']' || is_digit(c)) return true;
  if (c == '-' && rest.size() > 4 && rest[4] == '-') return true;  // "[GC-- [PSYoungGen: …": promotion failed
  // JDK 1.4-6 -XX:+PrintAdaptiveSizePolicy writes its decisions right after "[GC", before the record's
  // heap figures (which follow on a later line): "0.153: [GCAdaptiveSizePolicy::old generation size: …".
  if (c == 'A' && starts_with(rest.substr(3), "AdaptiveSize")) return true;
  if (c != ' ' && c != '-') return false;
  if (rest.size() == 4) return true;
  char d = rest[4];
  if (is_digit(d) || d == '(' || d == '[' || d == '#') return true;
  std::string_view w = rest.substr(4);
  return starts_with(w, "pause") || starts_with(w, "remark") || starts_with(w, "cleanup") ||
         starts_with(w, "concurrent") || starts_with(w, "ref-proc");
}

}  // namespace

// Where the few markers that need special handling first occur in a line, found in one pass over its bytes
// (most lines have none; searching for each with find() cost more than parsing the record).
struct LegacyGcLogParser::Markers {
  static constexpr size_t npos = std::string_view::npos;
  size_t class_histogram = npos, g1_ergonomics = npos, cms_concurrent = npos, gc_concurrent = npos, heap_before = npos,
         heap_after = npos, cms_collector = npos, tlab = npos, as_cms_concurrent = npos;
};

namespace {

struct InterestingBytes {
  bool table[256] = {};
  constexpr InterestingBytes() : table() {
    table[static_cast<unsigned char>('[')] = true;
    table[static_cast<unsigned char>(']')] = true;
    table[static_cast<unsigned char>('{')] = true;
    table[static_cast<unsigned char>('H')] = true;
  }
};
constexpr InterestingBytes kInteresting;

}  // namespace

LegacyGcLogParser::Markers LegacyGcLogParser::scan_markers(std::string_view s) {
  Markers m;
  const unsigned char* d = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n; ++i) {
    if (!kInteresting.table[d[i]]) continue;
    const unsigned char next = i + 1 < n ? d[i + 1] : 0;
    switch (d[i]) {
      case '[':  // "[CMS-concurrent-", "[Class Histogram", "[GC concurrent-", "[G1Ergonomics", "[GC TLAB: gc thread"
        if (next == 'C') {
          if (m.cms_concurrent == Markers::npos && at(s, i, "[CMS-concurrent-")) m.cms_concurrent = i;
          else if (m.class_histogram == Markers::npos && at(s, i, "[Class Histogram")) m.class_histogram = i;
        } else if (next == 'G') {
          if (m.gc_concurrent == Markers::npos && at(s, i, "[GC concurrent-")) m.gc_concurrent = i;
          else if (m.g1_ergonomics == Markers::npos && at(s, i, "[G1Ergonomics")) m.g1_ergonomics = i;
          else if (m.tlab == Markers::npos && at(s, i, "[GC TLAB: gc thread")) m.tlab = i + 4;
        } else if (next == 'A' && m.as_cms_concurrent == Markers::npos && at(s, i, "[ASCMS-concurrent-")) {
          m.as_cms_concurrent = i;
        }
        break;
      case ']':  // "CMSCollector shouldConcurrentCollect: " lands right after a record's ']'
        if (next == 'C' && m.cms_collector == Markers::npos && at(s, i + 1, "CMSCollector shouldConcurrentCollect: "))
          m.cms_collector = i + 1;
        break;
      case '{':
        if (m.heap_before == Markers::npos && at(s, i, "{Heap before")) m.heap_before = i;
        break;
      case 'H':
        if (m.heap_after == Markers::npos && next == 'e' && at(s, i, "Heap after ")) m.heap_after = i;
        break;
    }
  }
  return m;
}

namespace {

bool is_cause_system(std::string_view cause) { return cause == "System" || cause == "System.gc()"; }

// Lines of -XX:+PrintFLSStatistics blocks (printed by CMS inside ParNew/CMS records).
bool is_fls_line(std::string_view l) {
  if (l.empty()) return false;
  switch (l[0]) {
    case 'S':
    case '-':
    case 'T':
    case 'M':
    case 'N':
    case 'A':
    case 'B':
    case 'C':
    case 's':
    case 'd': break;
    default: return false;
  }
  static const char* const kPrefixes[] = {"Statistics for BinaryTreeDictionary",
                                          "Statistics for IndexedFreeLists",
                                          "------------------------------------",
                                          "Total Free Space:",
                                          "Max   Chunk Size:",
                                          "Number of Blocks:",
                                          "Av.  Block  Size:",
                                          "Tree      Height:",
                                          "Before GC:",
                                          "After GC:",
                                          "CMS: Large ",
                                          "size[",
                                          "demand"};
  for (const char* p : kPrefixes)
    if (starts_with(l, p)) return true;
  return false;
}

// Header/noise lines that are not GC records and need no report.
bool is_noise_line(std::string_view l) {
  static const char* const kPrefixes[] = {
      "CMS: abort preclean due to time", " CMS: abort preclean due to time", "TLAB: ", "AdaptiveSize", "PSAdaptiveSize",
      "  avg_survived", "avg_survived", "  avg_promoted", "  avg_pretenured", "    avg_", "PSYoungGen::resize_spaces",
      "PSYoungGen::resize", "AdaptiveSizeStart", "AdaptiveSizeStop", "    Survivor", "UseAdaptiveSizePolicy",
      "No shared spaces configured",
      // -XX:+PrintCMSInitiationStatistics
      "CMSCollector shouldConcurrentCollect", "time_until_cms_gen_full",
      "free=", "contiguous_available=", "promotion_rate=", "cms_allocation_rate=", "occupancy=", "initiatingOccupancy=",
      "initiatingPermOccupancy=", "cms_time_since_begin=", "cms_time_since_end=", "cms_used_at_gc0_end=",
      "cms_used_at_gc0_begin=", "cms_consumption_rate=", "cms_duration=", "cms_duration_per_mb=", "gc0_period=",
      "gc0_promoted=", "cms_allocated=", "cms_promotion_rate=", "gc0_alpha=", "gc0_duration=", "gc0_begin_time=",
      "cms_begin_time=", "cms_end_time=", "  ", "\t"};
  for (const char* p : kPrefixes)
    if (starts_with(l, p)) return true;
  return false;
}

}  // namespace

LegacyGcLogParser::LegacyGcLogParser(GcEventSink& sink, Diary& diary, uint32_t member)
    : sink_(&sink), diary_(&diary), member_(member) {
  diary_->unified = Tri::kFalse;
}

void LegacyGcLogParser::feed_line(std::string_view line, uint64_t line_no) {
  line_no_ = line_no;
  ++stats_.lines;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (g1_heap_line_cut_) {
    g1_heap_line_cut_ = false;
    std::string_view t = text::trim_left(line);
    if (open_ && !t.empty() && is_digit(t[0])) {
      attach_detail("[ " + std::string(t));
      return;
    }
  }
  process(line, 0);
}

void LegacyGcLogParser::process(std::string_view line, int depth_guard) {
  if (depth_guard > 8) return;
  if (line.empty()) return;
  if (take_tenuring_line(line)) return;
  if (skip_in_block(line, depth_guard)) return;

  // The common case first: a whole record on one line with nothing cut into it (no marker of the cases
  // below inside it) is parsed in a single walk.
  if (pending_.empty() && !in_heap_block_ && (is_digit(line[0]) || line[0] == '[') &&
      parse_record(line, line_no_, /*only_if_complete=*/true, /*plain_only=*/true))
    return;

  const Markers mk = scan_markers(line);
  if (take_cut_in(line, mk, depth_guard)) return;
  if (take_block_line(line, mk, depth_guard)) return;
  if ((line[0] == ' ' || line[0] == '\t') && take_indented_line(line)) return;
  take_stamped_line(line, mk, depth_guard);
}

// Tenuring-distribution table: "Desired survivor size N bytes, new threshold T (max M)" + "- age a: b bytes,
// c total". Any other line closes an open table.
bool LegacyGcLogParser::take_tenuring_line(std::string_view line) {
  if (line[0] == '-' && starts_with(line, "- age")) {
    ev_.age_table = true;
    if (tenuring_open_) {
      size_t p = 5;
      p = text::skip_ws(line, p);
      uint64_t age = 0, bytes = 0;
      if (text::parse_u64(line, p, age) && p < line.size() && line[p] == ':') {
        p = text::skip_ws(line, p + 1);
        if (text::parse_u64(line, p, bytes))
          tenuring_.bytes_by_age.emplace_back(static_cast<int>(age), static_cast<int64_t>(bytes));
      }
    }
    return true;
  }
  flush_tenuring();
  if (!(line[0] == 'D' && starts_with(line, "Desired survivor size "))) return false;
  ev_.tenuring = true;
  tenuring_open_ = true;
  tenuring_ = TenuringRecord{};
  tenuring_.line = line_no_;
  tenuring_.member = member_;
  tenuring_.uptime_s = open_ ? open_event_.uptime_s : kUnknown;
  size_t p = 22;
  uint64_t v;
  if (text::parse_u64(line, p, v)) tenuring_.desired_survivor_bytes = static_cast<int64_t>(v);
  size_t t = line.find("new threshold ");
  if (t != std::string_view::npos) {
    p = t + 14;
    if (text::parse_u64(line, p, v)) tenuring_.new_threshold = static_cast<int>(v);
    size_t m = line.find("(max ", p);
    if (m != std::string_view::npos) {
      p = m + 5;
      if (text::parse_u64(line, p, v)) tenuring_.max_threshold = static_cast<int>(v);
    }
  }
  // MaxTenuringThreshold is capped at 15 (4 age bits); a larger "(max N)" is a misconfiguration.
  if (tenuring_.max_threshold > 15 ||
      (tenuring_.max_threshold >= 0 && tenuring_.new_threshold > tenuring_.max_threshold))
    ev_.threshold_violation = true;
  // Pending record start time: the ParNew/DefNew line before the table carries it.
  if (!pending_.empty()) {
    decorations::Legacy pre;
    decorations::read_legacy(pending_, 0, pre);
    tenuring_.uptime_s = pre.uptime_s;
    tenuring_.wall_epoch_ms = pre.wall_ms;
  }
  return true;
}

// Lines inside a block that is skipped: a class histogram's table, Shenandoah's statistics. Also ends a
// -XX:+PrintHeapAtGC block at the first line that cannot belong to it.
bool LegacyGcLogParser::skip_in_block(std::string_view line, int depth_guard) {
  if (in_heap_block_ && line[0] != ' ' && line[0] != '}' && line[0] != 'H')
    in_heap_block_ = false;  // the block ends with its "}" or the next record

  // -XX:+PrintClassHistogramBefore/AfterFullGC: "[Class Histogram…" then a table whose class names ("[C",
  // "[Ljava.lang.Object;") would unbalance the brackets, then ", 38.69 secs]". The table is skipped.
  if (in_histogram_) {
    size_t end = line.find("secs]");
    if (line[0] == ',' && end != std::string_view::npos) {
      in_histogram_ = false;
      std::string_view after = line.substr(end + 5);
      if (!text::trim(after).empty()) process(after, depth_guard + 1);
    }
    return true;
  }
  if (in_shenandoah_stats_) {
    if (!(is_digit(line[0]) || line[0] == '[')) return true;
    in_shenandoah_stats_ = false;
  }
  return false;
}

// Blocks that open in the middle of a record line (a class histogram, a heap block, FLS statistics) and
// JDK 6's "[ASCMS-concurrent-" names: the record part is processed on its own.
bool LegacyGcLogParser::take_cut_in(std::string_view line, const Markers& mk, int depth_guard) {
  if (mk.as_cms_concurrent != Markers::npos) {
    // JDK 6 CMS with -XX:+UseAdaptiveSizePolicy prefixes its names with "AS": "[ASCMS-concurrent-mark: …]".
    std::string plain(line);
    for (size_t at = plain.find("[ASCMS-concurrent-"); at != std::string::npos;
         at = plain.find("[ASCMS-concurrent-", at))
      plain.erase(at + 1, 2);
    process(plain, depth_guard + 1);
    return true;
  }
  if (size_t ch = mk.class_histogram; ch != std::string_view::npos) {
    size_t start = decorations::legacy_start_before(line, ch);
    if (start > 0) process(line.substr(0, start), depth_guard + 1);
    in_histogram_ = true;
    return true;
  }

  // A -XX:+PrintHeapAtGC block opened in the middle of a record line ("[GC[YG occupancy: …]{Heap before GC …"):
  // the record part continues, the block is skipped (up to its "}" when that is on the same line).
  if (size_t hb = mk.heap_before; hb != std::string_view::npos && hb > 0) {
    ev_.heap_at_gc = true;
    size_t close = line.find('}', hb);
    std::string head(line.substr(0, hb));
    if (close != std::string_view::npos) {
      head.append(line.substr(close + 1));
      process(head, depth_guard + 1);
    } else {
      // A time stamp alone before the block ("2.385: {Heap before GC …") starts a record printed after the
      // block, with its own stamp: nothing to parse.
      decorations::Legacy stamp;
      size_t after_stamp = decorations::read_legacy(head, 0, stamp);
      if (!text::trim(std::string_view(head).substr(after_stamp)).empty()) process(head, depth_guard + 1);
      in_heap_block_ = true;
    }
    return true;
  }
  if (size_t ha = mk.heap_after; ha != std::string_view::npos && ha > 0 && !in_heap_block_) {
    process(line.substr(0, ha), depth_guard + 1);
    in_heap_block_ = true;
    return true;
  }
  // -XX:+PrintFLSStatistics prints "Before GC:" / "After GC:" at the end of a record line, then its block.
  if (line.back() == ':' && (ends_with(line, "Before GC:") || ends_with(line, "After GC:")) && line.size() > 10) {
    ev_.fls = true;
    size_t cut = line.size() - (ends_with(line, "Before GC:") ? 10 : 9);
    process(line.substr(0, cut), depth_guard + 1);
    return true;
  }
  return false;
}

// Lines of blocks the report does not read (heap blocks, TLAB and FLS statistics, CMS initiation
// statistics), noted in the diary and skipped; a record part before them is processed.
bool LegacyGcLogParser::take_block_line(std::string_view line, const Markers& mk, int depth_guard) {
  // -XX:+PrintHeapAtGC blocks.
  if (line[0] == '{' && starts_with(line, "{Heap before")) {
    ev_.heap_at_gc = true;
    in_heap_block_ = true;
    return true;
  }
  if (line[0] == '}') {
    in_heap_block_ = false;
    if (line.size() > 1) process(text::trim_left(line.substr(1)), depth_guard + 1);
    return true;
  }
  if (line[0] == 'H' && (starts_with(line, "Heap after") || starts_with(line, "Heap before") || line == "Heap" ||
                         text::trim_right(line) == "Heap")) {
    in_heap_block_ = true;
    return true;
  }
  if (in_heap_block_ && line.size() > 1 && text::trim_left(line).size() > 0 &&
      ((text::trim_left(line)[0] >= 'a' && text::trim_left(line)[0] <= 'z') ||
       (text::trim_left(line)[0] >= 'A' && text::trim_left(line)[0] <= 'Z'))) {
    if (contains(line, "Metaspace") || contains(line, "class space")) ev_.metaspace = true;
    return true;
  }

  // -XX:+PrintTLAB statistics, also printed right after "[GC " of the record they interrupt.
  if (line[0] == 'T' && (starts_with(line, "TLAB: ") || starts_with(line, "TLAB totals"))) {
    ev_.tlab = true;
    return true;
  }
  // -XX:+PrintCMSInitiationStatistics: "CMSCollector shouldConcurrentCollect: <uptime>" is printed by another
  // thread and lands inside records ("…(273716K)]CMSCollector shouldConcurrentCollect: , 21.56 secs]2118041.535"):
  // the phrase is taken out, its uptime left alone at the end is ignored.
  if (size_t cd = mk.cms_collector; cd != std::string_view::npos && cd > 0) {
    ev_.cms_debug = true;
    std::string rest(line.substr(0, cd));
    rest.append(line.substr(cd + 38));
    process(rest, depth_guard + 1);
    return true;
  }
  if (size_t tlab = mk.tlab; tlab != std::string_view::npos && tlab > 0) {
    ev_.tlab = true;
    process(line.substr(0, tlab), depth_guard + 1);
    return true;
  }

  if (is_fls_line(line)) {
    ev_.fls = true;
    return true;
  }
  return false;
}

// An indented line: G1's detail block and the " [Times: ...]" of the open record, or the continuation of a
// pending one. False for an indented line that is none of them (it is read as a stamped line).
bool LegacyGcLogParser::take_indented_line(std::string_view line) {
  std::string_view t = text::trim_left(line);
  if (starts_with(t, "Concurrent RS processed") || starts_with(t, "Recent concurrent refinement statistics")) {
    ev_.rset = true;  // -XX:+G1SummarizeRSetStats: its indented block is skipped
    return true;
  }
  if (contains(t.substr(0, 40), "[G1Ergonomics")) {
    ev_.adaptive = true;
    return true;
  }
  if (!t.empty() && t[0] == '[') {
    if (!pending_.empty()) {
      start_or_append_record(line, false);
      return true;
    }
    // JDK 6 G1: a concurrent phase cut in right after the "[" of the detail block's heap line, whose
    // figures then start the next line: "   [[GC concurrent-mark-start]" + " 7399M->4700M(10240M)]".
    if (starts_with(t, "[[GC concurrent-")) {
      size_t end = match_bracket(t, 1);
      if (end != std::string_view::npos && text::trim(t.substr(end)).empty()) {
        handle_standalone(t.substr(1, end - 1), Stamp{}, line);
        g1_heap_line_cut_ = open_;
        return true;
      }
    }
    attach_detail(t);
    return true;
  }
  if (!t.empty() && t[0] == '(' && !pending_.empty()) {  // " (concurrent mode failure)" continuation
    start_or_append_record(line, false);
    return true;
  }
  return t.empty();
}

// A line after its optional time stamps: a record (started, continued or cut into), a standalone line
// (concurrent phase, safepoint, application time), a G1 detail line, or a header/unparsed line.
void LegacyGcLogParser::take_stamped_line(std::string_view line, const Markers& mk, int depth_guard) {
  decorations::Legacy pre;
  size_t body = decorations::read_legacy(line, 0, pre);
  note_uptime(pre.uptime_s);
  std::string_view rest = line.substr(body);

  // Records of their own cut into the middle of this line (CMS/G1 concurrent phases) are taken out first.
  if ((mk.g1_ergonomics != Markers::npos || mk.cms_concurrent != Markers::npos || mk.gc_concurrent != Markers::npos) &&
      extract_inline(line, depth_guard))
    return;

  const Stamp& st = pre;
  if (!rest.empty() && rest[0] == '[') {
    if (is_record_start(rest)) {
      if (starts_with(rest, "[GC concurrent-")) {
        handle_standalone(rest, st, line);
        return;
      }
      start_or_append_record(line, true);
      return;
    }
    if (handle_standalone(rest, st, line)) return;
    if (!pending_.empty()) {
      start_or_append_record(line, false);
      return;
    }
    // A G1 detail line whose indentation was trimmed away ("[Eden: …]", "[GC Worker Start (ms): …]")
    // belongs to the open G1 pause; anything else in brackets is not a legacy record.
    if (body == 0 && (open_g1_pause() || starts_with(rest, "[Times:") || starts_with(rest, "[Eden: "))) {
      attach_detail(rest);
      return;
    }
  } else {
    // The stamp of a record cut into the previous line, then G1's indented detail line of the open pause:
    // "371.856:    [Parallel Time: 268.0 ms]".
    if (body > 0 && open_ && pending_.empty() && !rest.empty() && (rest[0] == ' ' || rest[0] == '\t')) {
      std::string_view t = text::trim_left(rest);
      if (!t.empty() && t[0] == '[' && !is_record_start(t)) {
        attach_detail(t);
        return;
      }
    }
    if (handle_standalone(rest, st, line)) return;
    if (!pending_.empty()) {
      start_or_append_record(line, false);
      return;
    }
    if (take_record_after_text(line, depth_guard)) return;
  }
  note_header(line);
}

// The open event is one a G1 detail line can belong to.
bool LegacyGcLogParser::open_g1_pause() const {
  const GcType t = open_event_.type;
  return open_ && (t == GcType::Young || t == GcType::Mixed || t == GcType::G1GCYoungInitialMark || t == GcType::Full ||
                   t == GcType::G1GCMixedInitialMark || t == GcType::G1GCRemark || t == GcType::G1GCCleanup ||
                   t == GcType::SystemGC || t == GcType::FullGC);
}

// Application output with a GC record appended to it: "...some text1.234: [GC ...": the text is unparsed,
// the record processed.
bool LegacyGcLogParser::take_record_after_text(std::string_view line, int depth_guard) {
  size_t gc = line.find(": [GC");
  if (gc == std::string_view::npos) gc = line.find(": [Full GC");
  if (gc == std::string_view::npos) return false;
  size_t start = decorations::legacy_start_before(line, gc + 2);
  if (start == 0 || start >= line.size()) return false;
  sink_->on_unparsed(member_, line_no_, line.substr(0, start));
  ++stats_.unparsed;
  process(line.substr(start), depth_guard + 1);
  return true;
}

// Takes "[CMS-concurrent-…]" / "[GC concurrent-…]" records (with their timestamp prefix and an optional
// " [Times: …]") out of the middle of a line, handles them, and processes what is left as the line.
bool LegacyGcLogParser::extract_inline(std::string_view line, int depth_guard) {
  // -XX:+PrintAdaptiveSizePolicy: G1 prints "[G1Ergonomics …" inside the pause record, sometimes with the
  // bracket closed only on a later line.
  if (size_t at = line.find("[G1Ergonomics"); at != std::string_view::npos) {
    size_t start = decorations::legacy_start_before(line, at);
    if (start > 0) {
      ev_.adaptive = true;
      size_t end = match_bracket(line, at);
      std::string outer(line.substr(0, start));
      if (end != std::string_view::npos) outer.append(line.substr(end));
      ++stats_.extracted_inline_records;
      process(outer, depth_guard + 1);
      return true;
    }
  }
  static const std::string_view kMarkers[] = {"[CMS-concurrent-", "[GC concurrent-"};
  for (std::string_view marker : kMarkers) {
    size_t at = line.find(marker);
    if (at == std::string_view::npos) continue;
    size_t start = decorations::legacy_start_before(line, at);
    if (start == 0) {
      // The line begins with the concurrent record: anything after it is another record (or a continuation).
      size_t end = match_bracket(line, at);
      if (end == std::string_view::npos) return false;
      size_t after = end;
      size_t t = line.find("[Times:", after);
      if (t != std::string_view::npos && text::trim(line.substr(after, t - after)).empty()) {
        size_t te = match_bracket(line, t);
        if (te != std::string_view::npos) after = te;
      }
      std::string_view tail = line.substr(after);
      if (text::trim(tail).empty()) return false;  // an ordinary standalone line
      ++stats_.extracted_inline_records;
      // Copy: processing the head may reuse scratch buffers.
      std::string tail_copy(tail);
      process(line.substr(0, after), depth_guard + 1);
      process(text::trim_left(std::string_view(tail_copy)), depth_guard + 1);
      return true;
    }
    size_t end = match_bracket(line, at);
    if (end == std::string_view::npos) continue;
    size_t after = end;
    size_t t = line.find("[Times:", after);
    if (t != std::string_view::npos && text::trim(line.substr(after, t - after)).empty()) {
      size_t te = match_bracket(line, t);
      if (te != std::string_view::npos) after = te;
    }
    ++stats_.extracted_inline_records;
    std::string inner(line.substr(start, after - start));
    std::string outer;
    outer.reserve(line.size() - (after - start));
    outer.append(line.substr(0, start));
    std::string_view tail = line.substr(after);
    // A trailing space printed after the inner record belongs to it, not to the outer record.
    while (!tail.empty() && tail[0] == ' ' && (outer.empty() || outer.back() != ' ')) tail.remove_prefix(1);
    outer.append(tail);
    process(inner, depth_guard + 1);
    process(outer, depth_guard + 1);
    return true;
  }
  return false;
}

bool LegacyGcLogParser::handle_standalone(std::string_view rest, const Stamp& st, std::string_view line) {
  if (rest.empty()) return false;
  if (rest[0] == '[') {
    if (starts_with(rest, "[CMS-concurrent-") || starts_with(rest, "[GC concurrent-")) {
      parse_concurrent(rest, st);
      return true;
    }
    if (starts_with(rest, "[Preclean ")) {  // CMS preclean reference processing (-XX:+PrintReferenceGC)
      ev_.reference = true;
      return true;
    }
    if (starts_with(rest, "[G1Ergonomics")) {
      ev_.adaptive = true;
      return true;
    }
    return false;
  }
  static constexpr std::string_view kStopped = "Total time for which application threads were stopped: ";
  if (rest[0] == 'T' && starts_with(rest, kStopped)) {
    ev_.stopped = true;
    SafepointEvent sp;
    sp.uptime_s = st.uptime_s;
    sp.wall_epoch_ms = st.wall_ms;
    size_t p = kStopped.size();
    double v;
    if (log_decimal(rest, p, v)) sp.stopped_s = v;
    size_t s = rest.find("Stopping threads took: ", p);
    if (s != std::string_view::npos) {
      p = s + 23;
      if (log_decimal(rest, p, v)) sp.reaching_s = v;
    }
    // The line is printed when the safepoint ends: its start is the stamp minus the stopped time (as the
    // unified parser does, and garbagecat's timestamps).
    if (sp.stopped_s == sp.stopped_s) {
      if (sp.uptime_s == sp.uptime_s) sp.uptime_s -= sp.stopped_s;
      if (sp.wall_epoch_ms == sp.wall_epoch_ms) sp.wall_epoch_ms -= sp.stopped_s * 1000.0;
    }
    sp.line = line_no_;
    sp.member = member_;
    sink_->on_safepoint(sp);
    ++stats_.safepoints;
    return true;
  }
  if (rest[0] == 'A' && starts_with(rest, "Application time: ")) {
    ev_.concurrent_time = true;
    size_t p = 18;
    double v;
    if (log_decimal(rest, p, v)) sink_->on_application_time(member_, st.uptime_s, v);
    return true;
  }
  (void)line;
  return false;
}

void LegacyGcLogParser::parse_concurrent(std::string_view body, const Stamp& st) {
  size_t end = match_bracket(body, 0);
  std::string_view rec = end == std::string_view::npos ? body : body.substr(0, end);
  GcEvent e;
  e.stop_the_world = false;
  e.uptime_s = st.uptime_s;
  e.wall_epoch_ms = st.wall_ms;
  e.first_line = line_no_;
  e.member = member_;
  if (starts_with(rec, "[CMS-concurrent-")) {
    ev_.cms = true;
    std::string_view name = rec.substr(16);
    size_t stop = name.find_first_of(":]");
    std::string_view phase = name.substr(0, stop);
    if (ends_with(phase, "-start")) return;
    if (phase == "mark") e.type = GcType::ConcurrentMark;
    else if (phase == "preclean") e.type = GcType::Concurrent_Preclean;
    else if (phase == "abortable-preclean") e.type = GcType::Abortable_Preclean;
    else if (phase == "sweep") e.type = GcType::Concurrent_Sweep;
    else if (phase == "reset") e.type = GcType::Concurrent_Reset;
    else return;
    // "mark: 2.497/2.538 secs": CPU time / wall time; the wall time is the phase's duration.
    size_t slash = name.find('/');
    if (slash != std::string_view::npos) {
      size_t p = slash + 1;
      double v;
      if (log_decimal(name, p, v)) e.duration_s = v;
    }
  } else {
    std::string_view name = rec.substr(15);  // after "[GC concurrent-"
    size_t stop = name.find_first_of(",]");
    std::string_view phase = name.substr(0, stop);
    if (ends_with(phase, "-start")) return;
    ev_.g1 = true;
    if (phase == "root-region-scan-end") e.type = GcType::ConcurrentRootRegionScan;
    else if (phase == "mark-end" || phase == "mark-abort") e.type = GcType::G1GCConcurrentMark;
    else if (phase == "cleanup-end") e.type = GcType::G1GCConcurrentCleanup;
    else if (phase == "mark-reset-for-overflow") e.type = GcType::G1ConcurrentMarkResetForOverflow;
    else if (phase == "string-deduplication") e.type = GcType::ConcurrentStringDeduplication;
    else return;
    e.duration_s = last_secs(rec);
  }
  parse_times(body, e);
  emit(e);
}

void LegacyGcLogParser::start_or_append_record(std::string_view line, bool starts_record) {
  if (starts_record) {
    if (pending_.empty() && parse_record(line, line_no_, /*only_if_complete=*/true)) return;  // the common case
    bool complete = bracket_balance(line) == 0;
    // A complete record inside an open one is a collection of its own printed in the middle of the other
    // (CMSScavengeBeforeRemark prints the ParNew inside "[GC[YG occupancy: …]"): keep the open record. A
    // record that stays open across several complete ones was cut off: give up on it.
    if (!pending_.empty() && !complete && outer_pending_.empty() && contains(pending_, "YG occupancy")) {
      // The scavenge before a CMS remark, itself split (by a tenuring table): finish it first, then resume
      // the remark record.
      outer_pending_.swap(pending_);
      outer_pending_line_ = pending_line_;
    } else if (!pending_.empty() && (!complete || ++records_inside_pending_ > 2)) {
      flush_pending_as_is();
    }
    if (complete) {
      parse_record(line, line_no_, false);
      return;
    }
    records_inside_pending_ = 0;
    pending_.assign(line);
    pending_line_ = line_no_;
    pending_lines_ = 1;
    return;
  }
  if (pending_.empty()) {
    note_header(line);
    return;
  }
  pending_.append(line);
  ++pending_lines_;
  if (bracket_balance(pending_) == 0) {
    ++stats_.stitched_records;
    std::string rec;
    rec.swap(pending_);
    parse_record(rec, pending_line_, false);
    pending_.clear();
    pending_lines_ = 0;
    if (!outer_pending_.empty()) {
      pending_.swap(outer_pending_);
      pending_line_ = outer_pending_line_;
      pending_lines_ = 1;
      records_inside_pending_ = 0;
    }
    return;
  }
  if (pending_.size() > kMaxPendingBytes || pending_lines_ > kMaxPendingLines) flush_pending_as_is();
}

void LegacyGcLogParser::flush_pending_as_is() {
  if (pending_.empty() && !outer_pending_.empty()) {
    pending_.swap(outer_pending_);
    pending_line_ = outer_pending_line_;
  }
  if (pending_.empty()) return;
  // A record that never balanced (log cut off, or a line lost): parse what is there, it usually still has
  // the collection's type, heap sizes and often its pause.
  std::string rec;
  rec.swap(pending_);
  pending_lines_ = 0;
  rec.append(std::string(static_cast<size_t>(bracket_balance(rec)), ']'));
  parse_record(rec, pending_line_, false);
}

void LegacyGcLogParser::flush_tenuring() {
  if (!tenuring_open_) return;
  tenuring_open_ = false;
  sink_->on_tenuring(tenuring_);
  ++stats_.tenuring_records;
}

void LegacyGcLogParser::emit(const GcEvent& e) {
  // A record is printed when its pause has ended, stamped with the pause's start: the log covers the
  // run up to the end of its last pause. (Rounded to the 0.1 µs the logs print, so that the sum reads as
  // the decimal it is.)
  if (e.stop_the_world && !std::isnan(e.uptime_s) && !std::isnan(e.duration_s))
    note_uptime(std::round((e.uptime_s + e.duration_s) * 1e7) / 1e7);
  sink_->on_event(e);
  ++stats_.events;
}

void LegacyGcLogParser::flush_open() {
  if (!open_) return;
  open_ = false;
  open_event_.cause = open_cause_;
  if (!open_phase_name_.empty()) {
    open_event_.phases.clear();
    open_event_.phases.emplace_back(open_phase_name_, open_event_.duration_s);
  }
  emit(open_event_);
  open_phase_name_.clear();
}

void LegacyGcLogParser::attach_detail(std::string_view t) {
  if (!open_) return;
  if (starts_with(t, "[Times:")) {
    parse_times(t, open_event_);
    return;
  }
  if (starts_with(t, "[Eden: ")) {
    ev_.g1_details = true;
    ev_.g1 = true;
    size_t p = 7;
    PoolSizes eden;
    if (parse_transition(t, p, eden)) open_event_.eden = eden;
    size_t s = t.find("Survivors: ");
    if (s != std::string_view::npos) {
      PoolSizes sv;
      if (parse_transition(t, s + 11, sv)) open_event_.survivor = sv;
    }
    s = t.find("Heap: ");
    if (s != std::string_view::npos) {
      PoolSizes hp;
      if (parse_transition(t, s + 6, hp)) open_event_.heap = hp;
    }
    s = t.find("[Metaspace: ");
    if (s != std::string_view::npos) {
      ev_.metaspace = true;
      PoolSizes ms;
      if (parse_transition(t, s + 12, ms)) open_event_.metaspace = ms;
    }
    if (open_event_.type == GcType::FullGC) open_event_.type = GcType::Full;
    return;
  }
  // JDK 6 and 7 before update 2 end G1's detail block with the heap alone: "   [ 8192K->8128K(64M)]".
  if (t.size() > 3 && t[1] == ' ' && is_digit(t[2])) {
    ev_.g1_details = true;
    PoolSizes hp;
    if (parse_transition(t, 2, hp)) open_event_.heap = hp;
    return;
  }
  if (starts_with(t, "[Parallel Time:") || starts_with(t, "[GC Worker") || starts_with(t, "[Code Root") ||
      starts_with(t, "[Clear CT") || starts_with(t, "[Other:") || starts_with(t, "[Ext Root")) {
    ev_.g1_details = true;
    return;
  }
}

// The bracket structure of one record, from one walk over it.
struct LegacyGcLogParser::RecordShape {
  struct Sub {
    size_t begin, end;
  };
  Sub subs[24];  // the depth-2 brackets (sub-records), the first 24
  int nsubs = 0;
  int max_depth = 0;
  size_t flat_len = 0;                  // the depth-1 text, in flat_
  size_t end = std::string_view::npos;  // one past the record's closing ']'
  std::string_view sub(std::string_view rec, int i) const {
    return rec.substr(subs[i].begin, subs[i].end - subs[i].begin);
  }
};

// What a record says besides its sub-records: the keyword, its parenthesised groups, and the sub-records'
// collector family, as parse_record gathers them for the type decision.
struct LegacyGcLogParser::RecordFacts {
  std::string_view flat, whole, cause, tail_of_head, parnew_sub;
  bool full = false, g1_pause = false, rare = false;
  bool mixed_mod = false, initial_mark_mod = false;
  enum class Young { kNone, kParNew, kDefNew, kPS } young = Young::kNone;
  bool initial_mark = false, remark = false, old_pool = false, cms_old = false;
  bool cmf = false, cmi = false;  // concurrent mode failure / interrupted
};

// One walk over rec's brackets: the depth-1 text goes to flat_, depth-2 brackets are the sub-records.
// False when the record is refused: with plain_only, a marker that the line-level cases handle first; with
// only_if_complete, brackets that do not balance.
bool LegacyGcLogParser::walk_record(std::string_view rec, bool only_if_complete, bool plain_only, RecordShape& s) {
  // flat_ holds at most the record's bytes.
  if (flat_.size() < rec.size()) flat_.resize(rec.size() + 256);
  char* const flat_out = flat_.data();
  size_t flat_len = 0;
  const auto flat_append = [&](const char* from, size_t n) {
    copy_bytes(flat_out + flat_len, from, n);
    flat_len += n;
  };
  size_t stack[kMaxDepth];
  int depth = 0;
  size_t seg = 0;  // start of the current depth-1 text segment
  const char* data = rec.data();
  const char* const rec_stop = data + rec.size();
  // One pass finds the brackets and, for plain_only, the '{'/'H' of a heap block cut into the record (the
  // line-level cases handle those, so the line goes there: "{Heap before", "Heap after "); '[' and ']'
  // markers of the other line-level cases are checked as they come.
  ByteHits<'[', ']', '{', 'H'> hits(data, rec_stop);
  for (const char* hit = hits.next(); hit; hit = hits.next()) {
    const size_t i = static_cast<size_t>(hit - data);
    const char next = i + 1 < rec.size() ? data[i + 1] : 0;
    const char c = *hit;
    if (c == '[') {
      if (plain_only && (next == 'C' || next == 'G' || next == 'A') &&
          (at(rec, i, "[CMS-concurrent-") || at(rec, i, "[Class Histogram") || at(rec, i, "[GC concurrent-") ||
           at(rec, i, "[G1Ergonomics") || at(rec, i, "[GC TLAB: gc thread") || at(rec, i, "[ASCMS-concurrent-")))
        return false;
      if (depth == 1) flat_append(data + seg, i - seg);
      if (depth < kMaxDepth) stack[depth] = i;
      ++depth;
      if (depth > s.max_depth) s.max_depth = depth;
      if (depth == 1) seg = i + 1;
      continue;
    }
    if (c == '{') {
      if (plain_only && at(rec, i, "{Heap before")) return false;
      continue;
    }
    if (c == 'H') {
      if (plain_only && at(rec, i, "Heap after ")) return false;
      continue;
    }
    if (plain_only && next == 'C' && at(rec, i + 1, "CMSCollector shouldConcurrentCollect: ")) return false;
    if (depth == 0) continue;  // a stray ']' before the record
    if (depth == 2 && s.nsubs < 24) s.subs[s.nsubs++] = {stack[1] + 1, i};
    --depth;
    if (depth == 1) seg = i + 1;
    if (depth == 0) {
      flat_append(data + seg, i - seg);
      s.end = i + 1;
      break;
    }
  }
  if (plain_only && s.end != std::string_view::npos) {
    // The walk stopped at the record's end: the rest of the line may still hold a heap block.
    // (The same hits, continued past the record's end; its brackets do not matter there.)
    for (const char* hit = hits.next(); hit; hit = hits.next()) {
      if (*hit != '{' && *hit != 'H') continue;
      const size_t i = static_cast<size_t>(hit - data);
      if (*hit == '{' ? at(rec, i, "{Heap before") : at(rec, i, "Heap after ")) return false;
    }
  }
  if (s.end == std::string_view::npos) {
    if (only_if_complete) return false;
    if (depth == 1) flat_append(data + seg, rec.size() - seg);
    s.end = rec.size();
  }
  s.flat_len = flat_len;
  return true;
}

// The keyword ("GC", "GC--", "Full GC", "GC pause") and the parenthesised groups right after it: the cause
// (into open_cause_) and, for G1, the pause kind. Sets f.full, f.g1_pause, the G1 modifiers and
// f.tail_of_head (the depth-1 text after them, where the heap figures are).
void LegacyGcLogParser::read_record_head(RecordFacts& f, GcEvent& e) {
  std::string_view flat = f.flat;
  const char f0 = flat.empty() ? '\0' : flat[0];
  f.full = f0 == 'F' && starts_with(flat, "Full GC");
  // Parallel Scavenge (JDK <= 7) marks a scavenge whose survivors did not fit with "GC--".
  const bool gc_dash = f0 == 'G' && flat.size() > 3 && flat[2] == '-' && flat[3] == '-';
  if (gc_dash) e.flags |= kPromotionFailed;
  f.g1_pause = f0 == 'G' && flat.size() > 3 && flat[3] == 'p' && starts_with(flat, "GC pause");
  std::string_view after_kw =
      flat.substr(std::min(flat.size(), static_cast<size_t>(f.full ? 7 : (f.g1_pause ? 8 : (gc_dash ? 4 : 2)))));
  size_t p = text::skip_ws(after_kw, 0);
  while (p < after_kw.size() && after_kw[p] == '(') {
    int pd = 0;
    size_t q = p;
    for (; q < after_kw.size(); ++q) {
      if (after_kw[q] == '(') ++pd;
      else if (after_kw[q] == ')' && --pd == 0) break;
    }
    if (q >= after_kw.size()) break;
    std::string_view group = after_kw.substr(p + 1, q - p - 1);
    if (group == "young") {
      // the default G1 pause kind
    } else if (group == "mixed" || group == "partial") f.mixed_mod = true;
    else if (group == "initial-mark") f.initial_mark_mod = true;
    else if (group == "to-space exhausted" || group == "to-space overflow")
      e.flags |= kToSpaceExhausted | kEvacuationFailure;
    else if (open_cause_.empty()) open_cause_.assign(group);
    p = text::skip_ws(after_kw, q + 1);
  }
  f.cause = open_cause_;
  if (!f.cause.empty()) {
    if (f.cause == "System") ev_.system_pre740 = true;
    else ev_.cause = true;
    if (f.cause == "GCLocker Initiated GC") e.flags |= kGcLocker;
    if (f.cause == "G1 Humongous Allocation") e.flags |= kHumongousAllocation;
  }
  f.tail_of_head = flat.substr(std::min(flat.size(), static_cast<size_t>(after_kw.data() - flat.data()) + p));
}

// One depth-2 sub-record: a pool of the generational collectors (young, old, perm/metaspace), a CMS mark,
// reference processing or a remark phase.
void LegacyGcLogParser::read_sub_record(std::string_view sub, RecordFacts& f, GcEvent& e) {
  using Young = RecordFacts::Young;
  // JDK 6 CMS with -XX:+UseAdaptiveSizePolicy: "[ASParNew: …]", "[ASCMS: …]", "[1 ASCMS-initial-mark: …]".
  if (sub.size() > 2 && sub[0] == 'A' && sub[1] == 'S') sub.remove_prefix(2);
  else if (starts_with(sub, "1 ASCMS-")) sub.remove_prefix(4);
  if (starts_with(sub, "ParNew")) {
    f.young = Young::kParNew;
    e.young_pool = "ParNew";
    ev_.parnew = true;
    find_transition(sub, e.young);
    f.parnew_sub = sub;
    if (f.rare && contains(sub, "promotion failed")) e.flags |= kPromotionFailed;
    if (f.rare && contains(sub, "promotion failure size")) ev_.promotion_failure_size = true;
  } else if (starts_with(sub, "DefNew")) {
    f.young = Young::kDefNew;
    e.young_pool = "DefNew";
    ev_.defnew = true;
    find_transition(sub, e.young);
    if (f.rare && contains(sub, "promotion failed")) e.flags |= kPromotionFailed;
  } else if (starts_with(sub, "PSYoungGen")) {
    f.young = Young::kPS;
    e.young_pool = "PSYoungGen";
    ev_.psyoung = true;
    find_transition(sub, e.young);
  } else if (starts_with(sub, "ParOldGen")) {
    ev_.parold = true, f.old_pool = true;
    e.old_pool = "ParOldGen";
    find_transition(sub, e.old);
  } else if (starts_with(sub, "PSOldGen")) {
    ev_.psold = true, f.old_pool = true;
    e.old_pool = "PSOldGen";
    find_transition(sub, e.old);
  } else if (starts_with(sub, "Tenured")) {
    ev_.tenured = true, f.old_pool = true;
    e.old_pool = "Tenured";
    find_transition(sub, e.old);
  } else if (starts_with(sub, "CMS Perm") || starts_with(sub, "PSPermGen") || starts_with(sub, "PS Perm") ||
             starts_with(sub, "Perm")) {
    ev_.perm = true;
    find_transition(sub, e.metaspace);
  } else if (starts_with(sub, "Metaspace")) {
    ev_.metaspace = true;
    find_transition(sub, e.metaspace);
  } else if (starts_with(sub, "CMS") && !starts_with(sub, "CMS-")) {
    ev_.cms = true, f.old_pool = true, f.cms_old = true;
    e.old_pool = "CMS";
    find_transition(sub, e.old);
  } else if (starts_with(sub, "1 CMS-initial-mark") || starts_with(sub, "CMS-initial-mark")) {
    f.initial_mark = true;
    ev_.cms = true;
    find_transition(sub, e.old);
  } else if (starts_with(sub, "1 CMS-remark") || starts_with(sub, "CMS-remark")) {
    f.remark = true;
    ev_.cms = true;
    find_transition(sub, e.old);
  } else if (starts_with(sub, "YG occupancy")) {
    ev_.cms = true;
  } else if (starts_with(sub, "SoftReference") || starts_with(sub, "WeakReference") ||
             starts_with(sub, "FinalReference") || starts_with(sub, "PhantomReference") ||
             starts_with(sub, "JNI Weak Reference")) {
    ev_.reference = true;
  }
  // Anything else ("GC ref-proc", CMS/G1 remark phases such as "Rescan", "weak refs processing",
  // "class unloading", "scrub symbol table") carries nothing the report uses.
  if (f.rare && contains(sub, "icms_dc=")) ev_.icms = true;
}

// A record with neither a G1 pause keyword nor a pool, CMS mark or full-collection keyword: a collection
// logged without -XX:+PrintGCDetails, or a G1 remark/cleanup.
void LegacyGcLogParser::type_without_details(const RecordFacts& f, GcEvent& e) {
  if (starts_with(f.flat, "GC remark")) {
    e.type = GcType::G1GCRemark;
    ev_.g1 = true;
  } else if (starts_with(f.flat, "GC cleanup")) {
    e.type = GcType::G1GCCleanup;
    ev_.g1 = true;
  } else if (f.cause == "CMS Initial Mark") {
    e.type = GcType::InitialMark;
    cms_cycle_open_ = true;
    ev_.cms_no_details = true;
  } else if (f.cause == "CMS Final Remark" && e.heap.before_kb < 0) {
    e.type = GcType::Remark;
    cms_cycle_open_ = false;
    ev_.cms_no_details = true;
  } else if (e.heap.before_kb < 0 && e.heap.after_kb >= 0) {
    // Without details a CMS initial mark and remark both print "[GC 46468K(83008K), 0.0039 secs]" (an
    // occupancy, no "->"): they alternate, the first of a cycle being the initial mark.
    e.type = cms_cycle_open_ ? GcType::Remark : GcType::InitialMark;
    cms_cycle_open_ = !cms_cycle_open_;
    ev_.cms_no_details = true;
  } else {
    e.type = GcType::Young;
    ev_.young_no_details = true;
  }
}

// A ParNew that could not finish (promotion failed, or nothing copied) followed by a CMS collection of
// the old generation in the same pause. Like GCToolKit, the young part is an event of its own when it
// failed to promote or the CMS part is a concurrent mode failure/interruption; its pause is the ParNew
// bracket's, and the old collection keeps the rest, so pause totals stay those of the log.
void LegacyGcLogParser::split_parnew_cms(const RecordFacts& f, GcEvent& e) {
  const bool pf = (e.flags & kPromotionFailed) != 0;
  const double young_secs = last_secs(f.parnew_sub);
  const auto young_part = [&](GcType type) {
    GcEvent y = e;
    y.type = type;
    y.old = PoolSizes{};
    y.old_pool = nullptr;
    y.metaspace = PoolSizes{};
    y.duration_s = young_secs;
    return y;
  };
  if (pf || f.cmf || f.cmi) {
    GcEvent y = young_part(pf ? GcType::ParNewPromotionFailed : GcType::ParNew);
    y.flags &= ~static_cast<uint32_t>(kConcurrentModeFailure);
    y.user_s = y.sys_s = y.real_s = kUnknown;
    y.cause = open_cause_;
    emit(y);
    if (!std::isnan(young_secs) && !std::isnan(e.duration_s)) e.duration_s = std::max(0.0, e.duration_s - young_secs);
    if (!std::isnan(young_secs) && !std::isnan(e.uptime_s)) e.uptime_s += young_secs;
  }
  // A ParNew that copied nothing followed by "[CMS: …]": GCToolKit calls it a concurrent mode failure in
  // CMS logs and a ParNew plus a full collection in iCMS logs (icms_dc=); the counts follow it.
  const bool icms_record = f.rare && contains(f.whole, "icms_dc=");
  if (!pf && !f.cmf && !f.cmi && icms_record) {
    GcEvent y = young_part(GcType::ParNew);
    y.user_s = y.sys_s = y.real_s = kUnknown;
    y.cause = open_cause_;
    emit(y);
    if (!std::isnan(young_secs) && !std::isnan(e.duration_s)) e.duration_s = std::max(0.0, e.duration_s - young_secs);
  }
  e.type = f.cmf                 ? GcType::ConcurrentModeFailure
           : f.cmi               ? GcType::ConcurrentModeInterrupted
           : (pf || icms_record) ? GcType::FullGC
                                 : GcType::ConcurrentModeFailure;
}

// "Full GC": a System.gc(), a G1 full collection (sizes in "M"/"B"/"G") or a generational one.
void LegacyGcLogParser::type_full(const RecordFacts& f, GcEvent& e) {
  bool g1_sizes = false;  // G1 prints "M"/"B" sizes with decimals; the generational collectors print "K"
  if (f.young == RecordFacts::Young::kNone && !f.old_pool) {
    size_t arrow = f.tail_of_head.find("->");
    if (arrow != std::string_view::npos && arrow > 0 &&
        (f.tail_of_head[arrow - 1] == 'M' || f.tail_of_head[arrow - 1] == 'B' || f.tail_of_head[arrow - 1] == 'G'))
      g1_sizes = true;
    if (!g1_sizes) ev_.full_no_details = true;
  }
  if (is_cause_system(f.cause)) e.type = GcType::SystemGC;
  else e.type = (g1_sizes || ev_.g1) ? GcType::Full : GcType::FullGC;
}

// The event's type, from the keyword and the sub-records (per collector family).
void LegacyGcLogParser::classify_record(const RecordFacts& f, GcEvent& e) {
  using Young = RecordFacts::Young;
  if (!f.g1_pause && !f.full && f.young == Young::kNone && !f.initial_mark && !f.remark && !f.old_pool) {
    type_without_details(f, e);
  } else if (f.g1_pause) {
    ev_.g1 = true;
    if (f.initial_mark_mod) e.type = f.mixed_mod ? GcType::G1GCMixedInitialMark : GcType::G1GCYoungInitialMark;
    else if (f.mixed_mod) e.type = GcType::Mixed;
    else e.type = GcType::Young;
  } else if (f.young == Young::kParNew && f.cms_old && !f.full) {
    split_parnew_cms(f, e);
  } else if (f.cmf) {
    e.type = GcType::ConcurrentModeFailure;
  } else if (f.cmi) {
    e.type = GcType::ConcurrentModeInterrupted;
  } else if (f.initial_mark) {
    e.type = GcType::InitialMark;
  } else if (f.remark) {
    e.type = GcType::Remark;
  } else if (f.full) {
    type_full(f, e);
  } else if (f.young == Young::kParNew) {
    e.type = (e.flags & kPromotionFailed) ? GcType::ParNewPromotionFailed : GcType::ParNew;
  } else if (f.young == Young::kDefNew) {
    e.type = GcType::DefNew;
  } else if (f.young == Young::kPS) {
    e.type = GcType::PSYoungGen;
  } else {
    e.type = GcType::FullGC;  // "[GC [CMS: …]" without a young pool: an old collection
  }
  if (f.young != Young::kNone || f.old_pool || f.g1_pause || f.initial_mark || f.remark) ev_.details = true;
  if (f.young != Young::kNone && f.cause.empty() && !f.full) ev_.generational_without_cause = true;
}

// Records nested in this one (-XX:+CMSScavengeBeforeRemark prints a whole "[GC … [ParNew: …] …]" inside
// the remark record) are collections of their own, parsed after it while it stays open.
void LegacyGcLogParser::parse_nested_records(std::string_view rec, const RecordShape& s, uint64_t first_line) {
  std::string nested;
  for (int i = 0; i < s.nsubs; ++i) {
    std::string_view sub = s.sub(rec, i);
    if ((starts_with(sub, "GC ") || starts_with(sub, "GC (") || starts_with(sub, "GC[")) &&
        !starts_with(sub, "GC ref-proc") && !starts_with(sub, "GC concurrent") &&
        (contains(sub, "[ParNew") || contains(sub, "[DefNew") || contains(sub, "[PSYoungGen"))) {
      nested.append("[").append(sub).append("]\n");
    }
  }
  std::string_view all(nested);
  size_t start = 0;
  while (start < all.size()) {
    size_t nl = all.find('\n', start);
    std::string_view one = all.substr(start, nl - start);
    nested_ = true;
    parse_record(one, first_line, false);
    nested_ = false;
    start = nl + 1;
  }
}

// Parses one complete (bracket-balanced) GC record.
bool LegacyGcLogParser::parse_record(std::string_view text, uint64_t first_line, bool only_if_complete,
                                     bool plain_only) {
  decorations::Legacy pre;
  size_t open_at = decorations::read_legacy(text, 0, pre);
  note_uptime(pre.uptime_s);
  if (open_at >= text.size() || text[open_at] != '[' || (plain_only && !is_record_start(text.substr(open_at)))) {
    if (only_if_complete) return false;
    if (!nested_) flush_open();
    sink_->on_unparsed(member_, first_line, text);
    ++stats_.unparsed;
    return true;
  }
  std::string_view rec = text.substr(open_at);
  RecordShape shape;
  if (!walk_record(rec, only_if_complete, plain_only, shape)) return false;
  if (!nested_) flush_open();
  RecordFacts f;
  f.flat = std::string_view(flat_.data(), shape.flat_len);
  f.whole = rec.substr(0, shape.end);
  std::string_view trailer = rec.substr(shape.end);

  if ((starts_with(f.flat, "Pause ")) || (starts_with(f.flat, "Concurrent ")))
    return parse_shenandoah(f.flat, pre.uptime_s, pre.wall_ms, first_line);

  // The event is built where it stays open (open_event_, flushed above) rather than moved there at the
  // end: a move is a copy of its ~300 bytes, one more memcpy per collection. A record nested in another
  // is an event of its own (the outer one stays open while its nested records are parsed).
  std::optional<GcEvent> nested_event;
  GcEvent* built = &open_event_;
  if (nested_) {
    built = &nested_event.emplace();
  } else {
    open_event_.~GcEvent();
    ::new (&open_event_) GcEvent();
  }
  GcEvent& e = *built;
  e.uptime_s = pre.uptime_s;
  e.wall_epoch_ms = pre.wall_ms;
  e.first_line = first_line;
  e.member = member_;
  open_cause_.clear();
  if (gc_locker_pending_ && !nested_) {
    e.flags |= kGcLocker;
    gc_locker_pending_ = false;
  }
  read_record_head(f, e);

  // Rare markers, looked for only where they can be: "icms_dc=" sits at depth 1, reference processing is
  // nested (depth >= 2), the GC overhead message follows a full collection's pools.
  // One pass over the record rules most of them out: each contains a byte that a plain ParNew/DefNew/
  // PSYoungGen record does not ('=' of "icms_dc=", 'p' of "promotion failed", 'm' of "concurrent mode",
  // 'f' of "[SoftReference"), and flat and the sub-records are made of the record's bytes.
  f.rare = has_any<'=', 'p', 'm', 'f'>(f.whole.data(), f.whole.data() + f.whole.size());
  if (f.rare && f.flat.find("icms_dc=") != std::string_view::npos) ev_.icms = true;
  if (f.rare && shape.max_depth >= 2 && !ev_.reference && contains(f.whole, "[SoftReference")) ev_.reference = true;
  if (f.full &&
      (contains(f.flat, "GC time would exceed GCTimeLimit") || contains(f.flat, "GC time is exceeding GCTimeLimit")))
    e.flags |= kGcOverheadLimit;
  if (f.g1_pause && (contains(f.whole, "(to-space exhausted)") || contains(f.whole, "(to-space overflow)")))
    e.flags |= kToSpaceExhausted | kEvacuationFailure;

  for (int i = 0; i < shape.nsubs; ++i) read_sub_record(shape.sub(rec, i), f, e);
  // An "[1 CMS-remark" may sit deeper than depth 2 (JDK 8 "[GC (CMS Final Remark) [YG occupancy…]…[1 CMS-remark…]").
  if (shape.max_depth >= 3 && !f.remark && contains(f.whole, "CMS-remark")) f.remark = true, ev_.cms = true;
  if (shape.max_depth >= 3 && !f.initial_mark && contains(f.whole, "CMS-initial-mark"))
    f.initial_mark = true, ev_.cms = true;

  // The heap figures and the pause at depth 1 (a truncated record may have no pause).
  find_transition(f.tail_of_head, e.heap);
  e.duration_s = last_secs(f.flat);
  parse_times(trailer, e);

  // CMS prints its failure inside the CMS bracket ("[CMS (concurrent mode failure): …]"), or at depth 1 when a
  // concurrent phase cut the bracket open.
  if (f.rare && (f.cms_old || (f.full && shape.nsubs == 0) || contains(f.flat, "(concurrent mode"))) {
    f.cmf = contains(f.whole, "concurrent mode failure");
    f.cmi = contains(f.whole, "concurrent mode interrupted");
  }
  if (f.cmf) e.flags |= kConcurrentModeFailure;
  classify_record(f, e);

  if (!nested_) open_ = true;  // e is open_event_
  parse_nested_records(rec, shape, first_line);
  if (nested_) {
    e.cause = open_cause_;
    emit(e);
    return true;
  }

  // Anything after the record on the same line that is not its [Times:] is a record of its own.
  std::string_view rest = text::trim_left(trailer);
  if (starts_with(rest, "[Times:")) {
    size_t te = match_bracket(rest, 0);
    rest = te == std::string_view::npos ? std::string_view() : text::trim_left(rest.substr(te));
  }
  if (!rest.empty()) {
    std::string copy(rest);
    process(copy, 1);
  }
  return true;
}

// Shenandoah's JDK 8 backport: "Pause Init Mark (process weakrefs), 3.341 ms", "Concurrent cleanup
// 85036K->85036K(122M), 0.068 ms", "Pause Degenerated GC (Mark) 121M->19211K(122M), 9.421 ms"; the
// ", start" records only announce a phase. Each phase is a Shenandoah event named in its phases.
bool LegacyGcLogParser::parse_shenandoah(std::string_view flat, double uptime_s, double wall_ms, uint64_t first_line) {
  ev_.shenandoah = true;
  if (ends_with(text::trim_right(flat), ", start")) return true;
  GcEvent e;
  e.type = GcType::Shenandoah;
  e.uptime_s = uptime_s;
  e.wall_epoch_ms = wall_ms;
  e.first_line = first_line;
  e.member = member_;
  e.stop_the_world = starts_with(flat, "Pause ");
  e.duration_s = last_secs(flat);
  size_t name_end = flat.find(',');
  size_t arrow = flat.find("->");
  if (arrow != std::string_view::npos && arrow < name_end) {
    find_transition(flat, e.heap);
    // the name ends before the number of the transition
    size_t q = arrow;
    while (q > 0 && flat[q - 1] != ' ') --q;
    name_end = q > 0 ? q - 1 : q;
  }
  open_phase_name_.assign(text::trim(flat.substr(0, name_end)));
  if (starts_with(flat, "Pause Degenerated")) e.flags |= kDegenerated;
  if (starts_with(flat, "Pause Full")) e.flags |= kDegenerated;  // a full collection: the worst fallback
  open_cause_.clear();
  open_event_ = std::move(e);
  open_ = true;
  return true;
}

void LegacyGcLogParser::note_header(std::string_view line) {
  if (starts_with(line, "Java HotSpot(TM)") || starts_with(line, "OpenJDK") || starts_with(line, "Java(TM)")) {
    if (diary_->jvm_version.empty()) diary_->jvm_version.assign(line);
    size_t jre = line.find("JRE (");
    if (jre != std::string_view::npos) {
      size_t p = jre + 5;
      uint64_t a = 0, b = 0, u = 0;
      if (text::parse_u64(line, p, a) && p < line.size() && line[p] == '.') {
        ++p;
        text::parse_u64(line, p, b);
        while (p < line.size() && line[p] != '_' && line[p] != '-' && line[p] != ')') ++p;
        int major = a == 1 ? static_cast<int>(b) : static_cast<int>(a);
        ev_.jdk_major = major;
        if (p < line.size() && line[p] == '_') {
          ++p;
          if (text::parse_u64(line, p, u)) ev_.jdk_update = static_cast<int>(u);
        }
      }
    }
    return;
  }
  if (starts_with(line, "/proc/meminfo") || starts_with(line, "MemTotal:") || starts_with(line, "MemFree:") ||
      starts_with(line, "MemAvailable:")) {
    return;  // the JDK 8u header echoes /proc/meminfo
  }
  if (starts_with(line, "Memory: ")) {
    size_t ph = line.find("physical ");
    if (ph != std::string_view::npos) {
      size_t p = ph + 9;
      uint64_t pm;
      if (text::parse_u64(line, p, pm) && p < line.size() && (line[p] == 'k' || line[p] == 'K'))
        diary_->physical_memory_kb = static_cast<int64_t>(pm);
    }
    if (!diary_->command_line.empty()) diary_->command_line.push_back('\n');
    diary_->command_line.append(line);
    return;
  }
  if (starts_with(line, "CommandLine flags: ")) {
    if (!diary_->command_line.empty()) diary_->command_line.push_back('\n');
    diary_->command_line.append(line);
    std::string_view flags = line.substr(19);
    auto value_of = [&](std::string_view key) -> int64_t {
      size_t at = flags.find(key);
      if (at == std::string_view::npos) return -1;
      size_t p = at + key.size();
      uint64_t v;
      if (!text::parse_u64(flags, p, v)) return -1;
      return static_cast<int64_t>(v / 1024);
    };
    diary_->max_heap_kb = value_of("-XX:MaxHeapSize=");
    diary_->initial_heap_kb = value_of("-XX:InitialHeapSize=");
    int64_t region = value_of("-XX:G1HeapRegionSize=");
    if (region > 0) diary_->region_size_kb = region;
    if (contains(flags, "-XX:+UseConcMarkSweepGC")) ev_.cms = true;
    if (contains(flags, "-XX:+UseParNewGC")) ev_.parnew = true;
    if (contains(flags, "-XX:+UseG1GC")) ev_.g1 = true;
    if (contains(flags, "-XX:+UseParallelGC") || contains(flags, "-XX:+UseParallelOldGC")) ev_.psyoung = true;
    if (contains(flags, "-XX:+UseParallelOldGC")) ev_.parold = true;
    if (contains(flags, "-XX:+UseSerialGC")) ev_.defnew = true, ev_.tenured = true;
    if (contains(flags, "-XX:+UseShenandoahGC")) ev_.shenandoah = true;
    if (contains(flags, "-XX:+CMSIncrementalMode")) ev_.icms = true;
    if (contains(flags, "-XX:+PrintGCApplicationStoppedTime")) ev_.stopped = true;
    if (contains(flags, "-XX:+PrintGCApplicationConcurrentTime")) ev_.concurrent_time = true;
    if (contains(flags, "-XX:+PrintTenuringDistribution")) ev_.tenuring = true;
    if (contains(flags, "-XX:+PrintHeapAtGC")) ev_.heap_at_gc = true;
    if (contains(flags, "-XX:+PrintReferenceGC")) ev_.reference = true;
    if (contains(flags, "-XX:+PrintAdaptiveSizePolicy")) ev_.adaptive = true;
    if (contains(flags, "-XX:+PrintGCDetails")) ev_.details = true;
    if (contains(flags, "-XX:PrintFLSStatistics=")) ev_.fls = true;
    return;
  }
  if (starts_with(line, "Total time for which") || starts_with(line, "Application time:")) {
    Stamp st;
    handle_standalone(line, st, line);
    return;
  }
  // Safepoint lines whose prefix was garbled by another thread's output.
  if (size_t tt = line.find("Total time for which application threads were stopped: "); tt != std::string_view::npos) {
    Stamp st;
    handle_standalone(line.substr(tt), st, line);
    return;
  }
  if (starts_with(line, ", [Metaspace: ")) {  // Shenandoah 8 prints it after the pause, on its own line
    if (open_) {
      ev_.metaspace = true;
      find_transition(line.substr(14), open_event_.metaspace);
    }
    return;
  }
  if (starts_with(line, "All times are wall-clock times") || starts_with(line, "GC STATISTICS:")) {
    in_shenandoah_stats_ = true;  // the statistics table printed at exit
    return;
  }
  {
    static const char* const kShenandoahInfo[] = {"Trigger: ",
                                                  "Free: ",
                                                  "Pacer for ",
                                                  "Regions: ",
                                                  "Humongous object threshold",
                                                  "Max TLAB size",
                                                  "GC threads: ",
                                                  "Heuristics ergonomically sets",
                                                  "Shenandoah GC mode",
                                                  "Shenandoah heuristics",
                                                  "Initialize Shenandoah heap",
                                                  "Reference processing: ",
                                                  "Soft Max Heap Size",
                                                  "Cancelling GC",
                                                  "Free headroom:",
                                                  "Allocation pacing accrued:",
                                                  "all workers. Dividing",
                                                  "Adaptive CSet Selection",
                                                  "Collectable Garbage:",
                                                  "Immediate Garbage:",
                                                  "Good progress for",
                                                  "Bad progress for",
                                                  "Failed to allocate",
                                                  "Heap: ",
                                                  "Uncommitted "};
    for (const char* p : kShenandoahInfo)
      if (starts_with(line, p)) {
        ev_.shenandoah = true;
        return;
      }
  }
  if (starts_with(line, "GC locker: Trying a full collection")) {
    // JNI critical sections blocked a scavenge: the next record is the full collection this forced.
    gc_locker_pending_ = true;
    return;
  }
  if (contains(line, "VM warning:")) return;
  // Heap summary lines ("Heap" at exit, PrintHeapAtGC) whose indentation was trimmed away.
  if ((contains(line, " total ") && contains(line, ", used ")) ||
      (contains(line, " space ") && contains(line, "% used")) || starts_with(line, "Metaspace ") ||
      starts_with(line, "class space ") || starts_with(line, "object space ")) {
    if (starts_with(line, "Metaspace ")) ev_.metaspace = true;
    return;
  }
  {
    size_t p = 0;
    double v;
    if (text::parse_decimal(line, p, v, true) && p == line.size()) return;  // a stray uptime (see above)
  }                                                                         // JVM warnings on stdout, not GC records
  if (contains(line, "GC log file created") || contains(line, "GC log file has reached the maximum size")) return;
  if (contains(line, "Shenandoah")) ev_.shenandoah = true;
  if (is_noise_line(line)) return;
  sink_->on_unparsed(member_, line_no_, line);
  ++stats_.unparsed;
}

void LegacyGcLogParser::finish() {
  flush_tenuring();
  if (pending_.empty() && !outer_pending_.empty()) {
    pending_.swap(outer_pending_);
    pending_line_ = outer_pending_line_;
  }
  if (!pending_.empty()) {
    // The log ends inside a record (the JVM was killed, or the file was cut while being written): without
    // its pause time it is not a collection we can report, so it is listed as unparsed, like GCToolKit.
    sink_->on_unparsed(member_, pending_line_, pending_);
    ++stats_.unparsed;
    pending_.clear();
  }
  flush_open();
  decide_diary();
}

void LegacyGcLogParser::decide_diary() {
  const Evidence& v = ev_;
  auto set = [&](const char* name, bool value) { diary_->set_flag(name, value ? Tri::kTrue : Tri::kFalse); };
  bool no_details = !v.details;
  bool parnew = v.parnew, cms = v.cms, defnew = v.defnew, serial = v.tenured || (v.defnew && !v.cms);
  bool parallel = v.psyoung, parallel_old = v.psyoung || v.parold;
  if (v.parnew && !v.tenured) cms = true;
  if (v.parnew && v.tenured) serial = true, cms = v.cms;
  if (no_details && !v.g1 && !parnew && !defnew && !parallel) {
    // Without -XX:+PrintGCDetails only the shape of the log tells the collectors apart, as GCToolKit does:
    // a CMS cycle means ParNew/CMS; an age table means ParNew; anything else defaults to Parallel.
    if (v.cms || v.cms_no_details) parnew = true, cms = true;
    else if (v.age_table && v.full_no_details) parnew = true, serial = true;
    else if (v.age_table) parnew = true, cms = true;
    else if (v.young_no_details || v.full_no_details) parallel = true, parallel_old = true;
  }
  set("APPLICATION_STOPPED_TIME", v.stopped);
  set("APPLICATION_CONCURRENT_TIME", v.concurrent_time);
  set("DEFNEW", defnew);
  set("PARNEW", parnew);
  set("CMS", cms);
  set("ICMS", v.icms);
  set("PARALLELGC", parallel);
  set("PARALLELOLDGC", parallel_old);
  set("SERIAL", serial);
  set("G1GC", v.g1);
  set("ZGC", false);
  set("SHENANDOAH", v.shenandoah);
  set("GC_DETAILS", v.details || v.g1_details);
  set("TENURING_DISTRIBUTION", v.tenuring);
  set("GC_CAUSE", v.cause);
  set("CMS_DEBUG_LEVEL_1", v.cms_debug);
  set("ADAPTIVE_SIZING", v.adaptive);
  // JDK version class: the header when present, else the permanent generation (JDK <= 7) vs Metaspace
  // (JDK 8) and "(System)" (the cause printed before 7u40) vs "(System.gc())".
  bool jdk8 = v.jdk_major == 8 || (v.jdk_major == 0 && v.metaspace);
  // G1 on JDK 7 (and 8 before 8u20) prints no Metaspace line in its detail block; GCToolKit reads that as JDK 7.
  bool jdk7 = v.jdk_major == 7 ||
              (v.jdk_major == 0 && !v.metaspace &&
               (v.perm || v.system_pre740 || (v.details && v.generational_without_cause) || (v.g1 && v.g1_details)));
  bool pre740 = (v.jdk_major == 7 && v.jdk_update >= 0 && v.jdk_update < 40) || (v.jdk_major != 0 && v.jdk_major < 7) ||
                (v.jdk_major == 0 && v.system_pre740 && !v.metaspace);
  set("JDK70", jdk7);
  set("PRE_JDK70_40", pre740);
  set("JDK80", jdk8);
  set("UNIFIED_LOGGING", false);
  set("PRINT_HEAP_AT_GC", v.heap_at_gc);
  set("RSET_STATS", v.rset);
  set("PRINT_REFERENCE_GC", v.reference);
  set("MAX_TENURING_THRESHOLD_VIOLATION", v.threshold_violation);
  set("TLAB_DATA", v.tlab);
  set("PRINT_PROMOTION_FAILURE", v.promotion_failure_size);
  set("PRINT_FLS_STATISTICS", v.fls);

  diary_->collectors.clear();
  if (v.g1) diary_->collectors.push_back("G1");
  if (v.shenandoah) diary_->collectors.push_back("Shenandoah");
  if (defnew) diary_->collectors.push_back("DefNew");
  if (parnew) diary_->collectors.push_back("ParNew");
  if (parallel) diary_->collectors.push_back("PSYoungGen");
  if (cms) diary_->collectors.push_back(v.icms ? "iCMS" : "CMS");
  if (v.parold) diary_->collectors.push_back("ParOldGen");
  if (v.psold) diary_->collectors.push_back("PSOldGen");
  if (serial && !defnew) diary_->collectors.push_back("Tenured");
  else if (v.tenured) diary_->collectors.push_back("Tenured");
}

}  // namespace gcscope::jvm
