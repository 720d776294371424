// GC counters within one process never go back, but a payload can still show one lower than a sample
// written before it: the recorder reads GC.stat, and before it writes the sample another thread (or a
// GC hook delivered late) writes one with newer counters. This tells such a lag from a restart or a
// mix of processes, which drop further than the samples that could have been in flight.
#include <algorithm>
#include <map>
#include <set>

#include "payload.h"

namespace gcscope::rubygc {

namespace {

bool is_gc_hook(uint8_t event) { return event == kGcCycleStarted || event == kGcCycleEnded; }

// The running maximum of one counter and where it was first reached.
struct RunningMax {
  int column = -1;
  std::vector<int64_t> value;  // max over samples 0..i
  std::vector<size_t> at;
};

RunningMax running_max(const Payload& p, int column) {
  RunningMax m;
  m.column = column;
  m.value.resize(p.n);
  m.at.resize(p.n);
  for (size_t i = 0; i < p.n; ++i) {
    int64_t v = p.at(i, column);
    bool higher = i == 0 || v > m.value[i - 1];
    m.value[i] = higher ? v : m.value[i - 1];
    m.at[i] = higher ? i : m.at[i - 1];
  }
  return m;
}

void truncate(Payload& p, size_t n) {
  p.n = n;
  p.ts.resize(n);
  p.peak_rss.resize(n);
  p.rss.resize(n);
  p.thread.resize(n);
  p.event.resize(n);
  p.stat.resize(n * p.width);
  p.major_by.resize(n);
  p.gc_by.resize(n);
  p.need_major.resize(n);
  p.meta.resize(n);
}

std::string label(const Payload& p, size_t i) {
  return "sample #" + std::to_string(i) + " (payload element " + std::to_string(i + 1) + ", " + event_name(p.event[i]) +
         ")";
}

}  // namespace

Verdict check_counter_order(Payload& p) {
  std::vector<RunningMax> counters;
  for (int column : {p.col.count, p.col.minor, p.col.major})
    if (column >= 0) counters.push_back(running_max(p, column));
  std::map<int64_t, size_t> previous_of_thread;  // the thread's last sample that is not a GC hook
  std::set<int64_t> threads;
  p.lagged.clear();
  for (size_t j = 0; j < p.n; ++j) {
    const bool hook = is_gc_hook(p.event[j]);
    auto prev = previous_of_thread.find(p.thread[j]);
    const bool ordered = !hook && prev != previous_of_thread.end();
    const int64_t in_flight = static_cast<int64_t>(std::max<size_t>(threads.size(), 1));
    bool first_lag = true;
    for (const RunningMax& m : counters) {
      if (j == 0) break;
      const int64_t v = p.at(j, m.column);
      if (v >= m.value[j - 1]) continue;
      const std::string& key = p.header.stat_keys[static_cast<size_t>(m.column)];
      Verdict v400;
      v400.status = 400;
      if (ordered && v < m.value[prev->second]) {
        const size_t k = p.at(prev->second, m.column) > v ? prev->second : m.at[prev->second];
        v400.message =
            label(p, j) + ": GC.stat " + key + " = " + std::to_string(v) + " is lower than " +
            std::to_string(p.at(k, m.column)) + " at sample #" + std::to_string(k) +
            (k == prev->second ? std::string(", this thread's previous sample")
                               : ", written before this thread's previous sample #" + std::to_string(prev->second)) +
            "; counters never decrease within one process (samples from several processes, a restart, or corrupted)";
        v400.details = {{"sample", j}, {"key", key},    {"expected", ">= " + std::to_string(p.at(k, m.column))},
                        {"found", v},  {"newer_at", k}, {"thread_previous", prev->second}};
      } else if (!ordered && m.value[j - 1] - v > in_flight) {
        v400.message = label(p, j) + ": GC.stat " + key + " = " + std::to_string(v) + " is lower than " +
                       std::to_string(m.value[j - 1]) + " at sample #" + std::to_string(m.at[j - 1]) + " by " +
                       std::to_string(m.value[j - 1] - v) + " GC cycles, more than the " + std::to_string(in_flight) +
                       " that can be in flight (one per thread seen); counters never decrease within one process "
                       "(samples from several processes, a restart, or corrupted)";
        v400.details = {{"sample", j},
                        {"key", key},
                        {"expected", ">= " + std::to_string(m.value[j - 1] - in_flight)},
                        {"found", v},
                        {"newer_at", m.at[j - 1]},
                        {"cycles_in_flight", in_flight}};
      } else {
        if (first_lag) p.lagged.push_back({j, m.at[j - 1], key, v, m.value[j - 1]});
        first_lag = false;
        continue;
      }
      truncate(p, j);
      return v400;
    }
    threads.insert(p.thread[j]);
    if (!hook) previous_of_thread[p.thread[j]] = j;
  }
  return Verdict{};
}

}  // namespace gcscope::rubygc
