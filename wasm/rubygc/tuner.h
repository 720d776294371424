// The tuner: from a checked payload to metrics, findings and version-aware RUBY_GC_* advice for three
// strategies (speed, memory, RSS budget), each value validated with Ruby's own parsing rules.
#pragma once
#include <nlohmann/json.hpp>

#include "payload.h"

namespace gcscope::rubygc {

struct TunerOptions {
  double rss_budget_mb = 0;  // 0 = no budget strategy
};

// Fills the analysis fields of `report` (units_of_work, timeline, recommendations, ...) and returns
// the verdict: 400 when there is no unit of work, 412 when existing settings conflict, else 200.
Verdict tune(const Payload& payload, const RubyVersion& version, const TunerOptions& options, nlohmann::json& report);

// Copyable blocks (shell, Dockerfile, Heroku, systemd) of {strategy: {VARIABLE: value}}.
nlohmann::json exports_of(const nlohmann::json& strategies);

}  // namespace gcscope::rubygc
