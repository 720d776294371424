// The seam between the JVM analyzer and its two log parsers (unified JDK 9+ in wasm/jvm/unified/,
// legacy JDK <= 8 in wasm/jvm/legacy/). The analyzer decides per member, from its first lines,
// which dialect it is, creates the matching parser and hands it whole lines; the parser pushes
// finished events into the GcEventSink (the aggregator) and fills its Diary.
//
// Contract for implementations:
//  - feed_line() gets every line of the member in order, without "\n"/"\r", 1-based line numbers.
//    The view is only valid during the call: copy what must outlive it (no per-line strings kept).
//  - Nothing throws for bad input: unknown lines go to GcEventSink::on_unparsed().
//  - finish() flushes a record still open at the end (truncated log) and is called exactly once.
//  - Events carry `member` (the index given to the factory) and `first_line`, so findings can link
//    to the line and a later step can order members of a rotating set.
#pragma once
#include <cstdint>
#include <memory>
#include <string_view>

#include "jvm/gc_event.h"

namespace gcscope::jvm {

class LogParser {
 public:
  virtual ~LogParser() = default;
  virtual void feed_line(std::string_view line, uint64_t line_no) = 0;
  virtual void finish() = 0;
  virtual Diary& diary() = 0;
  // A parser in this one's state (records still open, what the header said) that emits into
  // `sink`: a followed log's report finishes the copy while this parser reads on.
  virtual std::unique_ptr<LogParser> clone(GcEventSink& sink) const = 0;
  // Optional: the member's first bytes (up to 64 KiB) before any line is fed, for facts that
  // appear late in a record but decide how earlier lines are typed (e.g. the collector of a log
  // without header, known from a "DefNew:" line that follows the pause it belongs to).
  virtual void hint_head(std::string_view head) { (void)head; }
};

// Unified logging (-Xlog:gc*, any decorations), wasm/jvm/unified/.
std::unique_ptr<LogParser> make_unified_parser(GcEventSink& sink, uint32_t member);
// Legacy (-XX:+PrintGC*), wasm/jvm/legacy/.
std::unique_ptr<LogParser> make_legacy_parser(GcEventSink& sink, uint32_t member);

// Dialect of a member, as identification found it (jvm/probe.cpp).
enum class LogDialect : uint8_t { kUnknown, kUnified, kLegacy };

}  // namespace gcscope::jvm
