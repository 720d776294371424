// The legacy parser behind the JVM analyzer's LogParser seam (wasm/jvm/log_parser.h).
#include "jvm/legacy/legacy_parser.h"
#include "jvm/log_parser.h"

namespace gcscope::jvm {

namespace {

class LegacyLogParser final : public LogParser {
 public:
  LegacyLogParser(GcEventSink& sink, uint32_t member) : parser_(sink, diary_, member) {}
  void feed_line(std::string_view line, uint64_t line_no) override { parser_.feed_line(line, line_no); }
  void finish() override { parser_.finish(); }
  Diary& diary() override { return diary_; }
  std::unique_ptr<LogParser> clone(GcEventSink& sink) const override {
    auto copy = std::make_unique<LegacyLogParser>(*this);
    copy->parser_.rebind(sink, copy->diary_);
    return copy;
  }

 private:
  Diary diary_;  // declared before parser_, which keeps a reference to it
  LegacyGcLogParser parser_;
};

}  // namespace

std::unique_ptr<LogParser> make_legacy_parser(GcEventSink& sink, uint32_t member) {
  return std::make_unique<LegacyLogParser>(sink, member);
}

}  // namespace gcscope::jvm
