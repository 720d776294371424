// The shared core of the legacy parser's files (legacy_parser.cpp and the per-collector files):
// literal compares and byte searches tuned for the record walk, the figures every collector prints
// (size transitions, pause seconds, [Times: …]), bracket matching, and the facts a record's reading
// gathers for its type. Inline: each file's hot loops keep them inlined.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/byte_find.h"
#include "core/text_scan.h"
#include "jvm/gc_event.h"
#include "jvm/legacy/legacy_parser.h"
#include "jvm/log_text.h"

namespace gcscope::jvm {

namespace legacy_scan {

using text::contains;
using text::is_digit;

// Comparisons with string literals of a length known at compile time: in wasm a memcmp is a call into a
// byte loop and the record path makes a dozen such compares per line, so there they are inline byte
// compares. These overloads are chosen over text::starts_with/ends_with
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
inline bool has_any(const char* begin, const char* end) {
  return ByteHits<Cs...>(begin, end).next() != nullptr;
}

using log_text::log_decimal;
using log_text::parse_size_kb;

inline constexpr size_t kMaxPendingBytes = 256 * 1024;  // a record longer than this is not a GC record
inline constexpr int kMaxPendingLines = 400;            // FLS statistics can put ~100 lines inside one record
inline constexpr int kMaxDepth = 32;

// "->b(c)" at s[p], after a transition's first size `a`: fills `out` (the committed size when
// printed). False when no "->b" follows.
inline bool parse_transition_after(std::string_view s, size_t p, int64_t a, PoolSizes& out) {
  int64_t b, c;
  if (!(p + 1 < s.size() && s[p] == '-' && s[p + 1] == '>')) return false;
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

// "a->b(c)" or "a(c)->b(d)" (G1) or "a(c)" at s[p].
inline bool parse_transition(std::string_view s, size_t p, PoolSizes& out) {
  int64_t a, c;
  if (!parse_size_kb(s, p, a)) return false;
  if (p < s.size() && s[p] == '(') {  // G1 "24.0M(24.0M)->0.0B(20.0M)" or CMS "454489K(786432K)"
    size_t q = p + 1;
    if (!parse_size_kb(s, q, c) || q >= s.size() || s[q] != ')') return false;
    p = q + 1;
    if (p + 1 < s.size() && s[p] == '-' && s[p + 1] == '>') return parse_transition_after(s, p, a, out);
    out.after_kb = a;  // a bare occupancy (CMS initial mark / remark)
    out.committed_kb = c;
    return true;
  }
  return parse_transition_after(s, p, a, out);
}

// The first size transition in s (from the number before the first "->" that has sizes on both sides, else
// the first "NK("). An arrow without sizes is skipped: -XX:+PrintAdaptiveSizePolicy prints
// "collection: 1 (4194304) -> (8781824)" before the record's heap figures.
inline bool find_transition(std::string_view s, PoolSizes& out) {
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
inline double last_secs(std::string_view s) {
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
inline bool parse_times(std::string_view s, GcEvent& e) {
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
// (Visits the brackets only, not every byte of the " [Times: …]" that follows every record.)
inline size_t match_bracket(std::string_view s, size_t open) {
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

inline int bracket_balance(std::string_view s) {
  int depth = 0;
  for (char c : s) {
    if (c == '[') ++depth;
    else if (c == ']' && depth > 0) --depth;
  }
  return depth;
}

// "[GC …" / "[Full GC …" that opens a collection record, as opposed to G1 detail lines such as
// "[GC Worker Start (ms): …]" (printed without indentation when a log was trimmed).
inline bool is_record_start(std::string_view rest) {
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

inline bool is_cause_system(std::string_view cause) { return cause == "System" || cause == "System.gc()"; }

}  // namespace legacy_scan

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

}  // namespace gcscope::jvm
