// The tracing domain's analyzers (one per format ID), registered in register.cpp.
#pragma once
#include <memory>

#include "core/analyzer.h"

namespace gcscope::tracing {

std::unique_ptr<Analyzer> make_bpftrace_text(const AnalyzeOptions&);  // also DTrace aggregations
std::unique_ptr<Analyzer> make_bpftrace_json(const AnalyzeOptions&);
std::unique_ptr<Analyzer> make_bcc_output(const AnalyzeOptions&);
std::unique_ptr<Analyzer> make_folded_stacks(const AnalyzeOptions&);  // also DTrace stack aggregations
std::unique_ptr<Analyzer> make_perf_script(const AnalyzeOptions&);

}  // namespace gcscope::tracing
