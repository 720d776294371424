// The TuneMyGC payload analyzer: collects the member's bytes (payloads are a few MB; the service
// capped uploads at 50 MB), reads them with nlohmann/json, answers with the protocol's verdicts
// (400/404/412/426/501/200) as precise messages, and fills the tuner's report.
#include <cctype>
#include <string>

#include "core/analyzer.h"
#include "core/identify.h"
#include "rubygc/fleet.h"
#include "rubygc/payload.h"
#include "rubygc/queries.h"
#include "rubygc/probe.h"
#include "rubygc/tables.h"
#include "rubygc/tuner.h"

namespace gcscope {

namespace {

using nlohmann::json;
using namespace rubygc;

// The service's HTTP frontend refused bodies above 50 MB; we read a little more before giving up.
constexpr size_t kMaxPayloadBytes = 64u << 20;
// The protocol's first documented agent version (doc/protocol.md); older agents answer 426. POLICY.
constexpr const char* kMinimumAgent = "1.0.15";

class TuneMyGcAnalyzer final : public Analyzer {
 public:
  explicit TuneMyGcAnalyzer(const AnalyzeOptions& options) {
    if (options.contains("rss_budget_mb")) {
      const auto& v = options["rss_budget_mb"];
      if (v.is_number()) options_.rss_budget_mb = v.get<double>();
      else if (v.is_string()) options_.rss_budget_mb = std::atof(v.get<std::string>().c_str());
    }
    // --set tunemygc_reader=dom: skip the fast scanner (tests compare both readers).
    force_dom_ = options.value("tunemygc_reader", std::string()) == "dom";
  }

  void feed(const char* data, size_t len) override {
    total_ += len;
    if (bytes_.size() + len > kMaxPayloadBytes) {
      too_large_ = true;
      return;
    }
    bytes_.append(data, len);
  }

  void finish(json& report) override {
    Verdict v = run(report);
    json warnings = json::array();
    for (auto& w : warnings_) warnings.push_back(w);
    report["verdict"] = {{"status", v.status}, {"message", v.message}, {"details", v.details}, {"warnings", warnings}};
    if (v.status == 400 || v.status == 426 || v.status == 501)
      error(-1, offset_, std::to_string(v.status) + ": " + v.message);
    else if (v.status == 412) warning(-1, -1, "412: " + v.message);
    for (auto& w : warnings_) warning(-1, -1, w["status"].dump() + ": " + w["message"].get<std::string>());
  }

  json query(const std::string& method, const json& args) override { return payload_query(payload_, method, args); }
  std::vector<tables::Schema> tables() const override { return payload_tables(payload_); }
  bool write_table(const std::string& name, tables::RowSink& sink) override {
    return write_payload_table(payload_, current_path(), name, sink);
  }

 private:
  Verdict run(json& report) {
    report["layout"] = nullptr;
    if (too_large_) {
      Verdict v;
      v.status = 400;
      v.message = "payload of " + std::to_string(total_) + " bytes exceeds " + std::to_string(kMaxPayloadBytes >> 20) +
                  " MiB (the service accepted at most 50 MB; the agent caps a run at 2000 samples)";
      return v;
    }
    // Well-formed payloads take the hand-written fast scanner; anything else is re-read as a DOM whose
    // checks name the exact problem.
    bool fast = !force_dom_ && read_fast(bytes_, payload_);
    Verdict v;
    if (fast) v = check_header(payload_.doc, payload_);
    if (!fast || v.status != 200) {
      fast = false;
      payload_ = Payload{};
      v = read_header(std::move(bytes_), payload_, &offset_);
    }
    std::string().swap(bytes_);
    report["reader"] = fast ? "fast" : "dom";
    if (payload_.header.arity) report["header"] = header_json();
    if (v.status != 200) return v;
    const Header& h = payload_.header;

    // 426: agents older than the protocol's first documented version.
    if (compare_dotted(h.agent_version, kMinimumAgent) < 0) {
      v.status = 426;
      v.message = "agent " + h.agent_version + " (header[4]) is too old: the protocol needs agent " + kMinimumAgent +
                  " or newer";
      v.details = {{"minimum", kMinimumAgent}, {"found", h.agent_version}};
      return v;
    }
    // 501: Ruby before 2.1 has neither the RUBY_GC_* knobs nor GC events; Rails before 3.0 had no agent spy.
    RubyVersion ruby = parse_ruby_version(h.ruby_version);
    if (!ruby.valid || !ruby.at_least(2, 1)) {
      v.status = 501;
      v.message = "Ruby " + h.ruby_version +
                  " (header[1]) not supported: the RUBY_GC_* variables and GC events need MRI >= 2.1.0";
      v.details = {{"minimum", "2.1.0"}, {"found", h.ruby_version}};
      return v;
    }
    if (h.rails_version != "0.0") {
      RubyVersion rails = parse_ruby_version(h.rails_version);
      if (!rails.valid || rails.major < 3) {
        v.status = 501;
        v.message = "Rails " + h.rails_version +
                    " (header[2]) not supported: the agent needs Rails >= 3.0 (\"0.0\" = no Rails)";
        v.details = {{"minimum", "3.0"}, {"found", h.rails_version}};
        return v;
      }
    }
    // 404: the service needed an application token; offline it is only worth a warning.
    if (h.token.is_null()) {
      warnings_.push_back(
          {{"status", 404},
           {"message",
            "no application token (header[0] is null): the service would answer 404; offline it is not needed"}});
    } else {
      const std::string& t = h.token.get_ref<const std::string&>();
      bool hex32 = t.size() == 32;
      for (char ch : t) hex32 = hex32 && std::isxdigit(static_cast<unsigned char>(ch));
      if (!hex32)
        warnings_.push_back(
            {{"status", 404},
             {"message",
              "token \"" + t.substr(0, 40) +
                  "\" is not a 32-hex application token: the service would answer 404; offline it is ignored"}});
    }

    if (!fast) v = read_samples(payload_);
    if (v.status == 200) v = check_counter_order(payload_);
    report["layout"] = payload_.layout == Layout::kUnknown ? json(nullptr) : json(layout_name(payload_.layout));
    if (v.status != 200) {
      report["samples"] = {{"count", payload_.n}, {"read_before_error", payload_.n}};
      return v;
    }
    report["ruby_series"] = table_series(ruby);
    report["gc_variables"] = variables_json(ruby);
    return tune(payload_, ruby, options_, report);
  }

  json header_json() const {
    const Header& h = payload_.header;
    json env = json::object();
    for (auto& kv : h.env) env[kv.first] = kv.second;
    return {{"arity", h.arity},
            {"ruby_version", h.ruby_version},
            {"rails_version", h.rails_version},
            {"agent_version", h.agent_version},
            {"spy", h.spy.empty() ? json(nullptr) : json(h.spy)},
            {"hostname", h.hostname},
            {"ppid", h.ppid},
            {"pid", h.pid},
            {"token_present", h.token.is_string()},
            {"existing_env", env},
            {"compile_options", h.compile_options},
            {"internal_constants", h.internal_constants},
            {"stat_keys", h.stat_keys}};
  }

  // The version table rows this Ruby reads, with the payload's existing values next to them.
  json variables_json(const RubyVersion& ruby) const {
    json rows = json::array();
    for (const auto& p : gc_params()) {
      if (!find_param(p.name, ruby)) continue;
      json existing = nullptr;
      for (auto& kv : payload_.header.env)
        if (kv.first == p.name) existing = kv.second;
      rows.push_back({{"variable", p.name},
                      {"kind", p.kind == ParamKind::kSize ? "size" : "double"},
                      {"default", format_param_value(p, p.default_value)},
                      {"must_be_greater_than", p.lower_bound},
                      {"upper_bound", p.upper_bound == 0 ? json(nullptr) : json(p.upper_bound)},
                      {"zero_accepted", p.accept_zero},
                      {"what", p.what},
                      {"source", p.source},
                      {"existing", existing}});
    }
    return rows;
  }

  TunerOptions options_;
  bool force_dom_ = false;
  std::string bytes_;
  size_t total_ = 0;
  bool too_large_ = false;
  int64_t offset_ = -1;
  Payload payload_;
  std::vector<json> warnings_;
};

}  // namespace

void register_rubygc(FormatRegistry& registry) {
  FormatHandler h;
  h.id = "tunemygc-payload";
  h.title = "Ruby GC tuner (TuneMyGC payload)";
  h.accepts_many_members = true;  // a drop of payloads is a fleet (rubygc/fleet.h)
  h.make = [](const AnalyzeOptions& options) {
    return make_fleet_analyzer([options] { return std::make_unique<TuneMyGcAnalyzer>(options); });
  };
  h.memory_per_input_byte = 5;
  h.methods = payload_query_methods();
  h.compare_family = "rubygc";
  h.compare = compare_runs;
  h.probes = {{probe_rank::kJson, rubygc::probe_payload}, {probe_rank::kJson + 40, rubygc::probe_wrapped_payload}};
  registry.add(std::move(h));
}

}  // namespace gcscope
