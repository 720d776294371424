// Pages of the event table (GcAggregator::events_page): every event of a time range that matches a
// filter, in the order of any column, `limit` rows from `offset`. The order of a question is built
// once (a stable radix sort of the row numbers by the column's values, nulls last in either
// direction, ties in time order) and kept, so paging through it reads slices.
#include <algorithm>
#include <cmath>
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

// Sorts `rows` by `key` (same length), stably, 16 bits of the key at a time.
void radix_sort(std::vector<uint32_t>& rows, std::vector<uint64_t>& key) {
  uint64_t all = 0;
  for (uint64_t k : key) all |= k;
  std::vector<uint32_t> rows2(rows.size());
  std::vector<uint64_t> key2(key.size());
  std::vector<size_t> count(size_t{1} << 16);
  for (unsigned shift = 0; shift < 64 && (all >> shift); shift += 16) {
    std::fill(count.begin(), count.end(), 0);
    for (uint64_t k : key) ++count[(k >> shift) & 0xFFFF];
    size_t sum = 0;
    for (size_t& c : count) {
      const size_t n = c;
      c = sum;
      sum += n;
    }
    for (size_t i = 0; i < key.size(); ++i) {
      const size_t at = count[(key[i] >> shift) & 0xFFFF]++;
      rows2[at] = rows[i], key2[at] = key[i];
    }
    rows.swap(rows2), key.swap(key2);
  }
}

// Keeps the first `n` rows of the stable order by `key` (ties: the order `rows` had), in order.
void select_first(std::vector<uint32_t>& rows, const std::vector<uint64_t>& key, size_t n) {
  std::vector<std::pair<uint64_t, uint32_t>> order(rows.size());
  for (size_t k = 0; k < rows.size(); ++k) order[k] = {key[k], static_cast<uint32_t>(k)};
  const auto cut = order.begin() + static_cast<std::ptrdiff_t>(std::min(n, order.size()));
  std::nth_element(order.begin(), cut, order.end());
  std::sort(order.begin(), cut);
  std::vector<uint32_t> first;
  for (auto it = order.begin(); it != cut; ++it) first.push_back(rows[it->second]);
  rows = std::move(first);
}

}  // namespace

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

  const std::string filter = lower(q.filter);
  // Every event by time: the columns' order itself (time order within each member, members in rank
  // order: the runs of a set with restarts one after the other).
  const bool every = std::isnan(q.t0) && std::isnan(q.t1) && filter.empty() && q.sort == "t";
  const std::string cache_key =
      q.sort + (q.desc ? "-" : "+") + std::to_string(q.t0) + "," + std::to_string(q.t1) + "|" + filter;
  const size_t needed = q.offset + q.limit;
  const bool cut_short = page_order_.rows.size() < page_order_.total && needed > page_order_.rows.size();
  if (!every && (page_order_.key != cache_key || cut_short)) {
    // Which types and causes the filter text is in (the kind is "pause" or "concurrent").
    std::vector<uint8_t> type_ok(static_cast<size_t>(GcType::kCount)), cause_ok(causes_.size());
    for (size_t k = 0; k < type_ok.size(); ++k)
      type_ok[k] = lower(gc_type_name(static_cast<GcType>(k))).find(filter) != std::string::npos;
    for (size_t k = 0; k < cause_ok.size(); ++k) cause_ok[k] = lower(causes_[k]).find(filter) != std::string::npos;
    const bool pause_ok = std::string("pause").find(filter) != std::string::npos,
               concurrent_ok = std::string("concurrent").find(filter) != std::string::npos;
    const Span s = span_of(e.t, cols_.events_sorted, q.t0, q.t1);
    std::vector<uint32_t> rows;
    Reader t(e.t), type(e.type), cause(e.cause), flags(e.flags);
    for (size_t i = s.begin; i < s.end; ++i) {
      if (!s.in(t(i))) continue;
      if (!filter.empty()) {
        const int64_t c = cause(i);
        const bool stw = (flags(i) & kStwFlag) != 0;
        if (!type_ok[static_cast<size_t>(type(i))] && !(c >= 0 && cause_ok[static_cast<size_t>(c)]) &&
            !(stw ? pause_ok : concurrent_ok))
          continue;
      }
      rows.push_back(static_cast<uint32_t>(i));
    }
    const size_t total = rows.size();
    // A page near the start selects the first rows of the order, enough for a hundred pages of a
    // hundred rows (the selection costs the same for any count: one pass and a sort of the rows
    // kept); paging past them selects more, or sorts every row.
    if (q.sort != "t") sort_page_rows(rows, q.sort, key_column, q.desc, std::max(needed * 8, size_t{10000}));
    else if (q.desc) std::reverse(rows.begin(), rows.end());
    page_order_ = {cache_key, std::move(rows), total};
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

// Puts `rows` (in time order) in the order of one column: ascending or descending values, events
// without a value last, ties in time order.
void GcAggregator::sort_page_rows(std::vector<uint32_t>& rows, const std::string& sort, const IntColumn* column,
                                  bool desc, size_t needed) const {
  const GcColumns::Events& e = cols_.events;
  std::vector<int64_t> value(rows.size());
  if (column) {
    for (size_t k = 0; k < rows.size(); ++k) value[k] = (*column)[rows[k]];
  } else {
    // Text columns: the rank of the text among the names.
    std::vector<int64_t> rank;
    if (sort == "type") {
      std::vector<size_t> order(static_cast<size_t>(GcType::kCount));
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(), [](size_t a, size_t b) {
        return std::string(gc_type_name(static_cast<GcType>(a))) < gc_type_name(static_cast<GcType>(b));
      });
      rank.resize(order.size());
      for (size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int64_t>(r);
    } else if (sort == "cause") {
      std::vector<size_t> order(causes_.size());
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return causes_[a] < causes_[b]; });
      rank.resize(order.size());
      for (size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int64_t>(r);
    }
    for (size_t k = 0; k < rows.size(); ++k) {
      if (sort == "type") value[k] = rank[static_cast<size_t>(e.type[rows[k]])];
      else if (sort == "kind") value[k] = (e.flags[rows[k]] & kStwFlag) ? 1 : 0;  // "concurrent" < "pause"
      else {
        const int64_t c = e.cause[rows[k]];
        value[k] = c < 0 ? kNull : rank[static_cast<size_t>(c)];
      }
    }
  }
  // Rows with a value, keyed by their distance from the smallest (or largest, descending) value;
  // then the rows without one, in time order.
  std::vector<uint32_t> with, without;
  std::vector<uint64_t> key;
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (int64_t v : value)
    if (v != kNull) lo = std::min(lo, v), hi = std::max(hi, v);
  for (size_t k = 0; k < rows.size(); ++k) {
    if (value[k] == kNull) {
      without.push_back(rows[k]);
      continue;
    }
    with.push_back(rows[k]);
    key.push_back(desc ? static_cast<uint64_t>(hi) - static_cast<uint64_t>(value[k])
                       : static_cast<uint64_t>(value[k]) - static_cast<uint64_t>(lo));
  }
  value = {};
  if (needed < with.size() / 8) {
    select_first(with, key, needed);
    rows = std::move(with);
    return;
  }
  radix_sort(with, key);
  rows = std::move(with);
  rows.insert(rows.end(), without.begin(), without.end());
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
