// Pages of the event table (GcAggregator::events_page): every event of a time range that matches a
// filter, in the order of any column, `limit` rows from `offset`. The order of a question is built
// once and kept, so paging through it reads slices: in time order all its rows; in another order
// the first rows of that order (values ascending or descending, rows without a value last, ties in
// time order), selected in one pass that holds only those rows, enough for a hundred pages.
#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>

#include "core/query.h"
#include "jvm/aggregator.h"
#include "jvm/column_scan.h"

namespace gcscope::jvm {
namespace {

using nlohmann::json;
constexpr int64_t kNull = IntColumn::kNull;

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// The rank of each name among `names` in text order: the value a text column sorts by.
template <class Names>
std::vector<int64_t> text_ranks(const Names& names) {
  std::vector<size_t> order(names.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return names[a] < names[b]; });
  std::vector<int64_t> rank(names.size());
  for (size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int64_t>(r);
  return rank;
}

// The first `cap` (key, row) pairs in (key, row) order of pairs added in increasing row order. Once
// `cap` pairs are kept, a new pair enters only with a key below the cap-th one's (an equal key
// comes later in row order), so most rows of a long stream cost one comparison.
class FirstRows {
 public:
  FirstRows(size_t cap, size_t most) : cap_(cap) { kept_.reserve(std::min(2 * cap, most)); }
  void add(uint64_t key, uint32_t row) {
    if (cut_ && key >= bound_) return;
    kept_.push_back({key, row});
    if (kept_.size() >= 2 * cap_) shrink();
  }
  // The kept rows in order; `all` tells whether every added pair is among them.
  std::vector<uint32_t> rows(bool& all) {
    all = kept_.size() <= cap_ && !cut_;
    if (kept_.size() > cap_) shrink();
    std::sort(kept_.begin(), kept_.end());
    std::vector<uint32_t> out(kept_.size());
    for (size_t k = 0; k < kept_.size(); ++k) out[k] = kept_[k].second;
    return out;
  }

 private:
  void shrink() {
    std::nth_element(kept_.begin(), kept_.begin() + static_cast<std::ptrdiff_t>(cap_ - 1), kept_.end());
    kept_.resize(cap_);
    bound_ = kept_[cap_ - 1].first;
    cut_ = true;
  }
  size_t cap_;
  std::vector<std::pair<uint64_t, uint32_t>> kept_;
  uint64_t bound_ = 0;
  bool cut_ = false;
};

}  // namespace

// Which events a page question reads: those of its time range whose type, cause or kind holds the
// filter text (any event without a filter). Called with increasing rows.
class EventFilter {
 public:
  EventFilter(const GcColumns::Events& e, bool events_sorted, const EventPageQuery& q,
              const std::deque<std::string>& causes)
      : span(span_of(e.t, events_sorted, q.t0, q.t1)),
        filter_(lower(q.filter)),
        t_(e.t),
        type_(e.type),
        cause_(e.cause),
        flags_(e.flags),
        type_ok_(static_cast<size_t>(GcType::kCount)),
        cause_ok_(causes.size()) {
    for (size_t k = 0; k < type_ok_.size(); ++k)
      type_ok_[k] = lower(gc_type_name(static_cast<GcType>(k))).find(filter_) != std::string::npos;
    for (size_t k = 0; k < cause_ok_.size(); ++k) cause_ok_[k] = lower(causes[k]).find(filter_) != std::string::npos;
    pause_ok_ = std::string("pause").find(filter_) != std::string::npos;
    concurrent_ok_ = std::string("concurrent").find(filter_) != std::string::npos;
  }
  bool operator()(size_t i) {
    if (span.test && !span.in(t_(i))) return false;
    if (filter_.empty()) return true;
    const int64_t c = cause_(i);
    const bool stw = (flags_(i) & kStwFlag) != 0;
    return type_ok_[static_cast<size_t>(type_(i))] || (c >= 0 && cause_ok_[static_cast<size_t>(c)]) ||
           (stw ? pause_ok_ : concurrent_ok_);
  }
  const Span span;

 private:
  std::string filter_;
  Reader t_, type_, cause_, flags_;
  std::vector<uint8_t> type_ok_, cause_ok_;
  bool pause_ok_ = false, concurrent_ok_ = false;
};

json GcAggregator::events_page(const EventPageQuery& q) const {
  const GcColumns::Events& e = cols_.events;
  // The sortable columns: the rows' numeric fields, and type, cause and kind by their text.
  std::vector<std::pair<const char*, const IntColumn*>> numeric = {{"t", &e.t},
                                                                   {"wall_ms", &e.wall_ms},
                                                                   {"gc_id", &e.gc_id},
                                                                   {"duration_s", &e.duration},
                                                                   {"paused_s", &e.paused},
                                                                   {"heap_before_kb", &e.heap_before},
                                                                   {"heap_after_kb", &e.heap_after},
                                                                   {"heap_committed_kb", &e.heap_committed},
                                                                   {"allocated_kb", &e.allocated},
                                                                   {"line", &e.line}};
  std::vector<std::string> pool_keys;
  for (int p = 0; p < kPoolCount; ++p)
    pool_keys.push_back(std::string(pool_name(p)) + "_before_kb"),
        pool_keys.push_back(std::string(pool_name(p)) + "_after_kb");
  for (int p = 0; p < kPoolCount; ++p)
    numeric.emplace_back(pool_keys[2 * p].c_str(), &e.pool_before[p]),
        numeric.emplace_back(pool_keys[2 * p + 1].c_str(), &e.pool_after[p]);
  const IntColumn* key_column = nullptr;
  for (const auto& [name, col] : numeric)
    if (q.sort == name) key_column = col;
  if (!key_column && q.sort != "type" && q.sort != "cause" && q.sort != "kind")
    throw QueryError(
        "argument 'sort' must be a column of the event table (t, gc_id, type, cause, kind, duration_s, "
        "paused_s, heap_before_kb, heap_after_kb, heap_committed_kb, allocated_kb, line, wall_ms, "
        "<pool>_before_kb, <pool>_after_kb), not '" +
        q.sort + "'");

  // Every event by time: the columns' order itself (time order within each member, members in rank
  // order: the runs of a set with restarts one after the other).
  const bool every = std::isnan(q.t0) && std::isnan(q.t1) && q.filter.empty() && q.sort == "t";
  const std::string cache_key =
      q.sort + (q.desc ? "-" : "+") + std::to_string(q.t0) + "," + std::to_string(q.t1) + "|" + lower(q.filter);
  const size_t needed = q.offset + q.limit;
  const bool cut_short = page_order_.rows.size() < page_order_.total && needed > page_order_.rows.size();
  if (!every && (page_order_.key != cache_key || cut_short)) {
    page_order_ = {};  // its memory is free before the new order is built
    EventFilter keep(e, cols_.events_sorted, q, causes_);
    if (q.sort == "t") {
      std::vector<uint32_t> rows;
      for (size_t i = keep.span.begin; i < keep.span.end; ++i)
        if (keep(i)) rows.push_back(static_cast<uint32_t>(i));
      if (q.desc) std::reverse(rows.begin(), rows.end());
      const size_t total = rows.size();
      page_order_ = {cache_key, std::move(rows), total};
    } else {
      // A page near the start of an order is served by its first rows: enough for a hundred pages of
      // a hundred rows; paging past them selects more.
      page_order_ = first_page_rows(keep, q.sort, key_column, q.desc, std::max(needed * 8, size_t{10000}));
      page_order_.key = cache_key;
    }
  }
  const std::vector<uint32_t>& rows = page_order_.rows;
  const size_t total = every ? e.size() : page_order_.total;
  const size_t from = std::min(q.offset, total), to = std::min(total, from + q.limit);
  auto row_at = [&](size_t k) -> size_t { return every ? (q.desc ? total - 1 - k : k) : rows[k]; };
  std::vector<int> printed;  // the pools the log printed
  json pools = json::array();
  for (int p = 0; p < kPoolCount; ++p)
    if (e.pool_before[p].any_value() || e.pool_after[p].any_value())
      printed.push_back(p), pools.push_back(pool_name(p));
  const bool wall = e.wall_ms.any_value();
  json page = json::array();
  for (size_t k = from; k < to; ++k) page.push_back(event_row(row_at(k), printed, wall));
  return {{"total", total}, {"offset", from},     {"limit", q.limit},        {"sort", q.sort},
          {"desc", q.desc}, {"filter", q.filter}, {"rows", std::move(page)}, {"pools", std::move(pools)}};
}

// The rows `keep` passes, in the order of one column (`column`, or type, cause or kind by their
// text): values ascending or descending, rows without a value last, ties in time order. Holds the
// first `cap` rows of that order at least (all of them when there are fewer) and the row count.
GcAggregator::PageOrder GcAggregator::first_page_rows(EventFilter& keep, const std::string& sort,
                                                      const IntColumn* column, bool desc, size_t cap) const {
  const GcColumns::Events& e = cols_.events;
  std::vector<int64_t> rank;  // a text column's value: the rank of its text among the names
  if (sort == "type") {
    std::vector<std::string> names;
    for (size_t k = 0; k < static_cast<size_t>(GcType::kCount); ++k)
      names.push_back(gc_type_name(static_cast<GcType>(k)));
    rank = text_ranks(names);
  } else if (sort == "cause") {
    rank = text_ranks(causes_);
  }
  Reader value_of(column ? *column : sort == "type" ? e.type : sort == "cause" ? e.cause : e.flags);
  auto value = [&](size_t i) -> int64_t {
    const int64_t v = value_of(i);
    if (column) return v;
    if (sort == "kind") return (v & kStwFlag) ? 1 : 0;  // "concurrent" < "pause"
    return v < 0 ? kNull : rank[static_cast<size_t>(v)];
  };
  FirstRows first(cap, keep.span.end - keep.span.begin);
  std::vector<uint32_t> nulls;  // the first `cap` rows without a value, in time order
  size_t valued = 0, total = 0;
  for (size_t i = keep.span.begin; i < keep.span.end; ++i) {
    if (!keep(i)) continue;
    ++total;
    const int64_t v = value(i);
    if (v == kNull) {
      if (nulls.size() < cap) nulls.push_back(static_cast<uint32_t>(i));
      continue;
    }
    ++valued;
    // Unsigned keys in the order asked: the sign bit flipped keeps int64 order; descending inverts.
    const uint64_t key = static_cast<uint64_t>(v) ^ (uint64_t{1} << 63);
    first.add(desc ? ~key : key, static_cast<uint32_t>(i));
  }
  bool all_valued = false;
  PageOrder out;
  out.rows = first.rows(all_valued);
  if (all_valued) out.rows.insert(out.rows.end(), nulls.begin(), nulls.end());
  out.total = total;
  return out;
}

// One row of the event table: `pools` printed, `wall` when the log has wall-clock stamps.
json GcAggregator::event_row(size_t i, const std::vector<int>& pools, bool wall) const {
  const GcColumns::Events& e = cols_.events;
  auto time = [](int64_t ns) { return ns == kNull ? json() : json(static_cast<double>(ns) / 1e9); };
  auto value = [](int64_t v) { return v == kNull ? json() : json(v); };
  const int64_t cause = e.cause[i], flags = e.flags[i];
  uint32_t member = 0;
  for (const auto& [first, m] : cols_.event_members)
    if (first <= i) member = m;
  json row = {{"t", time(e.t[i])},
              {"gc_id", value(e.gc_id[i])},
              {"type", gc_type_name(static_cast<GcType>(e.type[i]))},
              {"cause", cause < 0 ? json() : json(causes_[static_cast<size_t>(cause)])},
              {"kind", (flags & kStwFlag) ? "pause" : "concurrent"},
              {"duration_s", time(e.duration[i])},
              {"paused_s", time(e.paused[i])},
              {"heap_before_kb", value(e.heap_before[i])},
              {"heap_after_kb", value(e.heap_after[i])},
              {"heap_committed_kb", value(e.heap_committed[i])},
              {"allocated_kb", value(e.allocated[i])},
              {"line", value(e.line[i])},
              {"member", member},
              {"flags", flags & ~kStwFlag}};
  if (wall) row["wall_ms"] = value(e.wall_ms[i]);
  for (int p : pools) {
    row[std::string(pool_name(p)) + "_before_kb"] = value(e.pool_before[p][i]);
    row[std::string(pool_name(p)) + "_after_kb"] = value(e.pool_after[p][i]);
  }
  return row;
}

}  // namespace gcscope::jvm
