// The index of a JVM session's columns that bounds the work of a question about a time range:
// totals per block of rows, so that a range adds up the blocks it covers whole and reads only the
// rows of the partial blocks at its two ends, and the pause durations in a wavelet matrix, so that
// a percentile of any range is one walk down its levels instead of a selection among the range's
// durations. Exact: every figure a block holds is a count, a maximum, or a sum whose terms' absolute
// values add up within int64 (else `exact` is false and questions read the rows).
//
// A block's figures are those of its rows that have a time: rows without one are never in a range.
// Built by GcAggregator::range_index() on the first range question, after the columns are complete.
#pragma once
#include <cstdint>
#include <vector>

#include "core/wavelet_matrix.h"
#include "jvm/aggregator.h"

namespace gcscope::jvm {

// The figures of the heap chart (series.cpp) in a fixed order: heap before/after/committed, the
// event's pause time (0 is drawn as no mark), then each pool's before and after.
constexpr size_t kChartFigures = 4 + 2 * kPoolCount;
constexpr size_t kChartPause = 3;

struct RangeIndex {
  static constexpr size_t kRows = 1024;     // rows per block of KPI totals
  static constexpr size_t kChartRows = 32;  // rows per block of chart extremes

  bool exact = true;
  std::vector<GcAggregator::RangeTotals> events, pauses, safepoints;  // per block of kRows rows

  // The durations of the pauses that have a time, in row order, as ranks among `distinct` (sorted).
  std::vector<int64_t> distinct;
  WaveletMatrix duration_ranks;
  std::vector<size_t> timed_before;  // pauses with a time in the blocks before each block
  bool untimed_pauses = false;       // whether some pause has no time

  // Per block of kChartRows rows, over the rows a chart draws: their count, first and last time,
  // and each figure's smallest and largest value (kNull when none).
  struct ChartBlock {
    int64_t first = IntColumn::kNull, last = IntColumn::kNull;
    uint32_t count = 0;
  };
  std::vector<ChartBlock> event_blocks, pause_blocks;
  std::vector<int64_t> event_min, event_max;  // kChartFigures per block
  std::vector<int64_t> pause_min, pause_max;  // one per block

  explicit RangeIndex(const GcAggregator& a);
  // The position among the pauses with a time of pause row `row` (rows before it with a time).
  size_t timed_position(const GcColumns::Pauses& p, size_t row) const;
  size_t bytes() const;

 private:
  void add_totals(const GcAggregator& a);
  void add_durations(const GcColumns::Pauses& p);
  void add_event_chart(const GcColumns::Events& e);
  void add_pause_chart(const GcColumns::Pauses& p);
};

// The columns of the heap chart's figures, in kChartFigures order.
std::vector<const IntColumn*> chart_figure_columns(const GcColumns::Events& e);

}  // namespace gcscope::jvm
