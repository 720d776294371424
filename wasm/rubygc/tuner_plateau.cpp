// When unit-of-work time has plateaued (the app is warm), and the per-heap sizes reached from then on
// (GC.stat_heap in the PROCESSING_ENDED metas, 3.3+): the sizes RUBY_GC_HEAP_n_INIT_SLOTS start with.
// Shopify's autotuner waits for the same plateau before its heap-size advice; its test (least-squares
// slope of the last half of the series at most 0.1 ms per request) is absolute and moved by the few
// units that ran a major GC (ten times longer than the others in real runs). Ours compares the median
// unit time of a tail's two halves, relative to the tail's median: outliers do not move a median, and
// slow and fast apps are judged alike.
#include <algorithm>
#include <cmath>

#include "tuner_run.h"

namespace gcscope::rubygc {

using nlohmann::json;

namespace {

constexpr size_t kPlateauMinUnits = 8;      // fewer units: no trend can be told from noise
constexpr double kPlateauMaxChange = 0.10;  // halves' medians differ by <= 10 % of the tail's median
constexpr int kPlateauSteps = 8;            // candidate starts: 0, n/8, 2n/8 .. n/2

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// GC.stat_heap of sample i ({"0": {...}, ...} or [{...}, ...]), or nullptr.
const json* stat_heap_of(const Payload& p, size_t i) {
  if (i == kNone || !p.meta[i]) return nullptr;
  auto it = p.meta[i]->find("stat_heap");
  return it != p.meta[i]->end() && (it->is_object() || it->is_array()) ? &*it : nullptr;
}

// heap_eden_slots and slot_size of heap h in one stat_heap snapshot; false when absent.
bool heap_entry(const json& heaps, int h, int64_t& eden, int64_t& slot_size) {
  const json* e = nullptr;
  const std::string key = std::to_string(h);
  if (heaps.is_object() && heaps.contains(key)) e = &heaps[key];
  if (heaps.is_array() && heaps.size() > static_cast<size_t>(h)) e = &heaps[static_cast<size_t>(h)];
  if (!e || !e->is_object()) return false;
  auto s = e->find("heap_eden_slots");
  if (s == e->end() || !s->is_number_integer()) return false;
  auto z = e->find("slot_size");
  eden = s->get<int64_t>();
  slot_size = z != e->end() && z->is_number_integer() ? z->get<int64_t>() : 0;
  return true;
}

}  // namespace

void find_plateau(Run& run, json& report) {
  const size_t n = run.work.units.size();
  json out = {{"plateaued", false}, {"units", n}};
  if (n < kPlateauMinUnits) {
    out["reason"] = "fewer than " + std::to_string(kPlateauMinUnits) + " units of work";
    report["plateau"] = std::move(out);
    return;
  }
  std::vector<double> ms;
  ms.reserve(n);
  for (const Unit& u : run.work.units) ms.push_back((run.p.ts[u.end] - run.p.ts[u.start]) * 1000.0);
  // The earliest start whose tail (at least the last half of the run) has halves of alike medians.
  for (int step = 0; step <= kPlateauSteps / 2; ++step) {
    const size_t from = n * static_cast<size_t>(step) / kPlateauSteps;
    const auto at = [&](size_t i) { return ms.begin() + static_cast<std::ptrdiff_t>(i); };
    const size_t half = from + (n - from) / 2;
    const double mid = median(std::vector<double>(at(from), ms.end()));
    const double change =
        median(std::vector<double>(at(half), ms.end())) - median(std::vector<double>(at(from), at(half)));
    out["from_unit"] = from;
    out["tail_median_ms"] = std::round(mid * 1000) / 1000;
    out["tail_change_ms"] = std::round(change * 1000) / 1000;
    if (mid > 0 && std::fabs(change) <= kPlateauMaxChange * mid) {
      run.plateaued = true;
      run.plateau_from = from;
      out["plateaued"] = true;
      break;
    }
  }
  if (!run.plateaued)
    out["reason"] =
        "the median unit time still changes between the halves of the run's last half by more "
        "than " +
        fmt(100 * kPlateauMaxChange, 0) + "% of its median";
  report["plateau"] = std::move(out);
}

void size_heaps_at_plateau(Run& run, json& report) {
  const Payload& p = run.p;
  if (!run.plateaued) return;
  std::vector<std::pair<int64_t, int64_t>> heaps;  // (largest eden slots, slot size)
  int64_t first_total = -1, last_total = 0;        // total eden slots at the window's first and last snapshot
  size_t snapshots = 0;
  for (size_t k = run.plateau_from; k < run.work.units.size(); ++k) {
    const json* sh = stat_heap_of(p, run.work.units[k].end);
    if (!sh) continue;
    ++snapshots;
    int64_t total = 0;
    for (int h = 0;; ++h) {
      int64_t eden = 0, size = 0;
      if (!heap_entry(*sh, h, eden, size)) break;
      if (heaps.size() <= static_cast<size_t>(h)) heaps.emplace_back(0, size);
      heaps[static_cast<size_t>(h)].first = std::max(heaps[static_cast<size_t>(h)].first, eden);
      total += eden;
    }
    if (first_total < 0) first_total = total;
    last_total = total;
  }
  if (heaps.empty()) return;
  run.heaps = heaps;
  json eden = json::array();
  for (auto& h : heaps) eden.push_back(h.first);
  report["plateau"]["heap_eden_slots_max"] = eden;
  report["plateau"]["stat_heap_snapshots"] = snapshots;
  report["plateau"]["heap_eden_slots_total_first_last"] = {first_total, last_total};
}

}  // namespace gcscope::rubygc
