#include "jvm/pause_series.h"

#include <algorithm>

namespace gcscope::jvm {
namespace {

// Adds n to the tally of `idx` (the last one first: consecutive pauses mostly share kind and cause).
void tally(std::vector<PauseTally>& cells, int32_t idx, uint32_t n, double total, double max) {
  auto it = !cells.empty() && cells.back().idx == idx
                ? cells.end() - 1
                : std::find_if(cells.begin(), cells.end(), [&](const PauseTally& c) { return c.idx == idx; });
  if (it == cells.end()) {
    cells.push_back({idx, n, total, max});
    return;
  }
  it->count += n;
  it->total += total;
  it->max = std::max(it->max, max);
}

}  // namespace

std::vector<DurationHistogram::Entry> DurationHistogram::sorted() const {
  flush();
  std::vector<Entry> out;
  out.reserve(used_);
  for (const Entry& e : slots_)
    if (e.us != kEmpty) out.push_back(e);
  std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.us < b.us; });
  return out;
}

void DurationHistogram::grow() const {
  std::vector<Entry> old = std::move(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, Entry{});
  shift_ = 64;
  for (size_t n = slots_.size(); n > 1; n >>= 1) --shift_;
  for (const Entry& e : old)
    if (e.us != kEmpty) {
      size_t i = home(e.us);
      while (slots_[i].us != kEmpty) i = (i + 1) & (slots_.size() - 1);
      slots_[i] = e;
    }
}

void PauseBucket::add(double t, double d, uint32_t name, int32_t cause, uint32_t pause_line) {
  if (count++ == 0) line = pause_line;
  if (!std::isnan(t)) {
    if (std::isnan(t_first) || t < t_first) t_first = t;
    if (std::isnan(t_last) || t > t_last) t_last = t;
  }
  total += d;
  min = std::min(min, d);
  if (d > max) max = d, t_max = t;
  const uint16_t bin = duration_bin(d);
  if (hist.empty()) {
    hist_lo = bin;
    hist.push_back(1);
  } else if (bin < hist_lo) {
    hist.insert(hist.begin(), hist_lo - bin, 0u);
    hist_lo = bin;
    ++hist[0];
  } else {
    const size_t k = bin - hist_lo;
    if (k >= hist.size()) hist.resize(k + 1, 0u);
    ++hist[k];
  }
  tally(kinds, static_cast<int32_t>(name), 1, d, d);
  tally(causes, cause, 1, d, d);
}

void PauseBucket::absorb(const PauseBucket& o) {
  if (!count) line = o.line;
  count += o.count;
  if (!std::isnan(o.t_first) && (std::isnan(t_first) || o.t_first < t_first)) t_first = o.t_first;
  if (!std::isnan(o.t_last) && (std::isnan(t_last) || o.t_last > t_last)) t_last = o.t_last;
  total += o.total;
  min = std::min(min, o.min);
  if (o.max > max) max = o.max, t_max = o.t_max;
  if (!o.hist.empty()) {
    if (hist.empty()) {
      hist = o.hist, hist_lo = o.hist_lo;
    } else {
      const uint16_t lo = std::min(hist_lo, o.hist_lo);
      const size_t end = std::max(hist_lo + hist.size(), o.hist_lo + o.hist.size());
      if (lo < hist_lo) hist.insert(hist.begin(), hist_lo - lo, 0u), hist_lo = lo;
      if (end - lo > hist.size()) hist.resize(end - lo, 0u);
      for (size_t k = 0; k < o.hist.size(); ++k) hist[o.hist_lo - lo + k] += o.hist[k];
    }
  }
  for (const auto& c : o.kinds) tally(kinds, c.idx, c.count, c.total, c.max);
  for (const auto& c : o.causes) tally(causes, c.idx, c.count, c.total, c.max);
}

}  // namespace gcscope::jvm
