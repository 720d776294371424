// The capture model → the report's JSON (columnar arrays for everything per event or per second).
#include <algorithm>
#include <cmath>

#include "profile/stack_queries.h"
#include "rbkit/capture.h"

namespace gcscope::rbkit {

namespace {
constexpr size_t kMaxTimelineBins = 4000;
constexpr size_t kTimelineClasses = 10;
constexpr size_t kTopRows = 200;

nlohmann::json u64_json(uint64_t v) {
  if (v <= (uint64_t(1) << 53)) return v;
  return std::to_string(v);
}
double round3(double v) { return std::round(v * 1000.0) / 1000.0; }
}  // namespace

// The protocol version and how it is known.
void CaptureDecoder::write_protocol(nlohmann::json& r) {
  nlohmann::json version = nullptr;
  std::string evidence;
  if (handshake_.is_object() && handshake_.contains("rbkit_protocol_version") &&
      handshake_["rbkit_protocol_version"].is_string()) {
    version = handshake_["rbkit_protocol_version"];
    evidence = "handshake rbkit_protocol_version";
  } else {
    bool chunked = false, unchunked = false;
    for (const auto& s : snapshots_) (s.has_corr ? chunked : unchunked) = true;
    if (by_type_[kCpuSample]) {
      version = "2.1";
      evidence = "no handshake; cpu_sample events exist only since protocol 2.1";
    } else if (chunked) {
      evidence = "no handshake; object_space_dump chunks with correlation_id: protocol 2.0 or later";
    } else if (unchunked) {
      evidence = "no handshake; object_space_dump without correlation_id: a server from before protocol 2.0";
    } else {
      evidence = "no handshake in the capture and nothing version-specific in the events";
    }
  }
  r["protocol_version"] = version;
  r["protocol_evidence"] = evidence;
  r["handshake"] = handshakes_ ? handshake_ : nlohmann::json();
  if (handshakes_ > 1) r["handshakes"] = handshakes_;
}

// Messages and events: counts by type, rejections, timestamps, resyncs.
void CaptureDecoder::write_event_counts(nlohmann::json& r) {
  r["messages"] = messages_;
  r["rejected_messages"] = rejected_messages_;
  r["rejected_events"] = rejected_events_;
  r["broken_messages"] = broken_messages_;
  nlohmann::json reasons = nlohmann::json::object();
  for (const auto& [why, n] : rejection_reasons_) reasons[why] = n;
  r["rejection_reasons"] = reasons;
  nlohmann::json by_type = nlohmann::json::object(), top = nlohmann::json::object(), nested = nlohmann::json::object();
  for (int t = 0; t < kEventTypeCount; ++t) {
    if (by_type_[t]) by_type[event_type_name(t)] = by_type_[t];
    if (top_level_by_type_[t]) top[event_type_name(t)] = top_level_by_type_[t];
    if (by_type_[t] > top_level_by_type_[t]) nested[event_type_name(t)] = by_type_[t] - top_level_by_type_[t];
  }
  nlohmann::json unknown = nlohmann::json::object();
  uint64_t unknown_total = 0;
  for (const auto& [t, n] : unknown_types_) {
    unknown[std::to_string(t)] = n;
    unknown_total += n;
  }
  r["events"] = {{"by_type", by_type},
                 {"top_level", top},
                 {"nested", nested},
                 {"unknown", unknown_total},
                 {"unknown_types", unknown}};
  if (has_ts_)
    r["timestamps_ms"] = {{"min", ts_min_}, {"max", ts_max_}, {"span_s", round3((ts_max_ - ts_min_) / 1000.0)}};
  else r["timestamps_ms"] = nullptr;
  r["timestamps_in_seconds"] = ts_in_seconds_;
  r["timestamps_from_ext"] = ts_from_ext_;
  r["resync"] = {{"count", resyncs_}, {"skipped_bytes", skipped_bytes_}};
  r["truncated_at"] = truncated_at_ >= 0 ? nlohmann::json(truncated_at_) : nlohmann::json();
}

// Objects created and destroyed, by class, and the leak reading.
void CaptureDecoder::write_objects(nlohmann::json& r) {
  r["objects_created"] = created_;
  r["objects_destroyed"] = destroyed_;
  std::vector<uint64_t> live_by_class(classes_.size(), 0);
  live_.for_each([&](uint64_t, uint32_t cls) { ++live_by_class[cls]; });
  created_by_class_.resize(classes_.size(), 0);
  destroyed_by_class_.resize(classes_.size(), 0);
  r["objects"] = {{"destroyed_of_created_in_capture", destroyed_of_created_},
                  {"destroyed_created_before_capture", destroyed_ - destroyed_of_created_},
                  {"live_created_in_capture_at_end", live_.size()},
                  {"created_nil_class_name", nil_class_created_},
                  {"created_again_while_live", recreated_live_},
                  {"object_id_min", created_ ? nlohmann::json(std::to_string(id_min_)) : nlohmann::json()},
                  {"object_id_max", created_ ? nlohmann::json(std::to_string(id_max_)) : nlohmann::json()}};
  std::vector<uint32_t> order;
  for (uint32_t c = 0; c < classes_.size(); ++c)
    if (created_by_class_[c] || live_by_class[c]) order.push_back(c);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return created_by_class_[a] != created_by_class_[b] ? created_by_class_[a] > created_by_class_[b] : a < b;
  });
  {
    nlohmann::json cn = nlohmann::json::array(), cc = nlohmann::json::array(), cd = nlohmann::json::array(),
                   cl = nlohmann::json::array();
    for (size_t i = 0; i < order.size() && i < 1000; ++i) {
      cn.push_back(classes_.shown(order[i]));
      cc.push_back(created_by_class_[order[i]]);
      cd.push_back(destroyed_by_class_[order[i]]);
      cl.push_back(live_by_class[order[i]]);
    }
    r["classes"] = {
        {"class", cn}, {"created", cc}, {"destroyed", cd}, {"live_at_end", cl}, {"total_classes", order.size()}};
  }
  r["leak"] = leak_reading(live_by_class);
}

// Timeline: objects created/destroyed per second, by class; live objects after each second. Reads
// the per-class counts as write_objects sized them (one per class).
void CaptureDecoder::write_timeline(nlohmann::json& r) {
  std::vector<std::pair<int64_t, const TimeBin*>> bins;
  for (const auto& [sec, b] : bins_) bins.emplace_back(sec, &b);
  const int64_t stored = bin_width_;  // seconds per stored bin (1 unless the capture forced coarsening)
  int64_t width = stored;
  bool dense = false;
  if (!bins.empty()) {
    int64_t span = (bins.back().first - bins.front().first) / stored + 1;  // in stored bins
    dense = span <= static_cast<int64_t>(kMaxTimelineBins);
    if (!dense && bins.size() > kMaxTimelineBins) width = stored * ((span + kMaxTimelineBins - 1) / kMaxTimelineBins);
  }
  // Classes with their own series: the most active ones; the rest are summed into "other".
  std::vector<uint64_t> activity(classes_.size(), 0);
  for (uint32_t c = 0; c < classes_.size(); ++c) activity[c] = created_by_class_[c] + destroyed_by_class_[c];
  std::vector<uint32_t> top_cls;
  for (uint32_t c = 0; c < classes_.size(); ++c)
    if (activity[c]) top_cls.push_back(c);
  std::sort(top_cls.begin(), top_cls.end(),
            [&](uint32_t a, uint32_t b) { return activity[a] != activity[b] ? activity[a] > activity[b] : a < b; });
  if (top_cls.size() > kTimelineClasses) top_cls.resize(kTimelineClasses);
  std::vector<int> series_of(classes_.size(), -1);
  for (size_t i = 0; i < top_cls.size(); ++i) series_of[top_cls[i]] = static_cast<int>(i);
  const size_t k = top_cls.size();
  const size_t other = k, before = k + 1;  // extra series: other classes, destroyed-before-capture

  std::vector<int64_t> t;
  std::vector<uint64_t> created, destroyed, live;
  std::vector<std::vector<uint64_t>> sc(k + 2), sd(k + 2);
  auto open_bin = [&](int64_t start) {
    t.push_back(start);
    created.push_back(0);
    destroyed.push_back(0);
    live.push_back(live.empty() ? 0 : live.back());
    for (auto& v : sc) v.push_back(0);
    for (auto& v : sd) v.push_back(0);
  };
  for (const auto& [sec, b] : bins) {
    int64_t start = dense ? sec : sec - ((sec % width) + width) % width;
    if (dense) {
      while (t.empty() ? false : t.back() + width < start) open_bin(t.back() + width);
    }
    if (t.empty() || t.back() != start) open_bin(start);
    created.back() += b->created;
    destroyed.back() += b->destroyed;
    live.back() = b->live;
    for (const auto& x : b->by_class) {
      size_t s =
          x.cls == kBeforeCapture ? before : (series_of[x.cls] >= 0 ? static_cast<size_t>(series_of[x.cls]) : other);
      sc[s].back() += x.created;
      sd[s].back() += x.destroyed;
    }
  }
  nlohmann::json names = nlohmann::json::array();
  for (uint32_t c : top_cls) names.push_back(classes_.shown(c));
  names.push_back("(other classes)");
  names.push_back("(created before the capture)");
  r["timeline"] = {{"bin_s", width},     {"dense", dense},         {"t", t},
                   {"created", created}, {"destroyed", destroyed}, {"live", live},
                   {"classes", names},   {"created_by_class", sc}, {"destroyed_by_class", sd}};
}

// GC cycles: start, mark end, end and duration of each.
void CaptureDecoder::write_gc_cycles(nlohmann::json& r) {
  nlohmann::json start = nlohmann::json::array(), mark = nlohmann::json::array(), end = nlohmann::json::array(),
                 dur = nlohmann::json::array();
  for (const auto& c : cycles_) {
    start.push_back(c.start_ms);
    mark.push_back(c.mark_end_ms >= 0 ? nlohmann::json(c.mark_end_ms) : nlohmann::json());
    end.push_back(c.end_ms);
    dur.push_back(round3(c.end_ms - c.start_ms));
  }
  r["gc_cycles"] = {{"count", cycles_.size()},
                    {"gc_start", gc_start_},
                    {"gc_end_m", gc_end_m_},
                    {"gc_end_s", gc_end_s_},
                    {"end_s_without_start", orphan_end_s_},
                    {"end_m_without_start", orphan_end_m_},
                    {"starts_never_closed", unclosed_starts_},
                    {"out_of_order", negative_durations_},
                    {"trailing_open", trailing_open_gc_},
                    {"trailing_open_start_ms", trailing_open_gc_ ? nlohmann::json(open_.start_ms) : nlohmann::json()},
                    {"unclosed_start_ms", unclosed_start_ms_},
                    {"start_ms", start},
                    {"mark_end_ms", mark},
                    {"end_ms", end},
                    {"duration_ms", dur}};
}

// gc_stats series: one column per key, null where a message lacks it.
void CaptureDecoder::write_gc_stats(nlohmann::json& r) {
  nlohmann::json keys = nlohmann::json::array(), t = nlohmann::json::array(), series = nlohmann::json::object(),
                 non_numeric = nlohmann::json::object();
  std::vector<nlohmann::json> cols(gc_keys_.size(), nlohmann::json::array());
  for (size_t i = 0; i < gc_stats_.size(); ++i) {
    t.push_back(gc_stats_[i].t_ms);
    for (auto& c : cols) c.push_back(nullptr);
    for (const auto& [key, v] : gc_stats_[i].values) cols[key][i] = v;
  }
  for (uint32_t k = 1; k < gc_keys_.size(); ++k) {
    keys.push_back(gc_keys_.shown(k));
    series[gc_keys_.shown(k)] = std::move(cols[k]);
  }
  for (const auto& [k, n] : gc_non_numeric_) non_numeric[gc_keys_.shown(k)] = n;
  r["gc_stats"] = {{"count", gc_stats_.size()},
                   {"keys", keys},
                   {"t_ms", t},
                   {"series", series},
                   {"non_numeric_values", non_numeric}};
}

// CPU samples: frames, leaf counts and stacks.
void CaptureDecoder::write_cpu_samples(nlohmann::json& r) {
  nlohmann::json fl = nlohmann::json::array(), ff = nlohmann::json::array(), fline = nlohmann::json::array(),
                 fm = nlohmann::json::array();
  for (const auto& f : frames_) {
    fl.push_back(labels_.shown(f.label));
    ff.push_back(files_.shown(f.file));
    fline.push_back(u64_json(f.line));
    fm.push_back(labels_.shown(f.method));
  }
  std::map<uint32_t, uint64_t> leaf_counts;
  for (int64_t l : cpu_leaf_)
    if (l >= 0) ++leaf_counts[frames_[static_cast<size_t>(l)].label];
  std::vector<std::pair<uint32_t, uint64_t>> leaves(leaf_counts.begin(), leaf_counts.end());
  std::sort(leaves.begin(), leaves.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  nlohmann::json ll = nlohmann::json::array(), lc = nlohmann::json::array();
  for (size_t i = 0; i < leaves.size() && i < kTopRows; ++i) {
    ll.push_back(labels_.shown(leaves[i].first));
    lc.push_back(leaves[i].second);
  }
  nlohmann::json st = nlohmann::json::array(), sn = nlohmann::json::array();
  for (const auto& [stack, n] : cpu_stacks_) {
    st.push_back(std::vector<uint32_t>(stack.rbegin(), stack.rend()));  // frame indexes, root first
    sn.push_back(n);
  }
  r["cpu_samples"] = {{"count", cpu_t_.size()},
                      {"t_ms", cpu_t_},
                      {"leaf", cpu_leaf_},
                      {"frames", {{"label", fl}, {"file", ff}, {"line", fline}, {"method", fm}}},
                      {"top_leaf_labels", {{"label", ll}, {"count", lc}}},
                      {"stacks", {{"frames", st}, {"count", sn}}},
                      {"tree", profile::tree_json(cpu_model_)}};
}

// Snapshots: a summary of each object_space_dump.
void CaptureDecoder::write_snapshots(nlohmann::json& r) {
  nlohmann::json snaps = nlohmann::json::array();
  for (const auto& s : snapshots_) {
    snaps.push_back(summarize_snapshot(s, classes_, files_, kTopRows));
  }
  r["snapshots"] = snaps;
  r["snapshot_note"] =
      "rbkit takes object_space_dump snapshots by walking the heap without running a GC first: they include "
      "objects that are already unreachable but not yet swept, and carry no GC roots, so retained sizes and "
      "dominators cannot be derived from them.";
}

// Counter gaps: missing, repeated and backwards message counters.
void CaptureDecoder::write_counter_gaps(nlohmann::json& r) {
  nlohmann::json ranges = nlohmann::json::array();
  for (const auto& [a, b] : missing_ranges_) ranges.push_back({u64_json(a), u64_json(b)});
  nlohmann::json dups = nlohmann::json::array();
  for (size_t i = 0; i < duplicate_counters_.size() && i < 1000; ++i) dups.push_back(u64_json(duplicate_counters_[i]));
  r["counter_gaps"] = {
      {"collections", collections_with_counter_},
      {"first", has_counter_ ? u64_json(counter_first_) : nlohmann::json()},
      {"last", has_counter_ ? u64_json(counter_last_) : nlohmann::json()},
      {"missing", counter_missing_},
      {"missing_ranges", ranges},
      {"duplicates", duplicate_counters_.size()},
      {"duplicate_counters", dups},
      {"backwards", counter_backwards_},
      {"policy",
       "events of a collection whose message_counter repeats or goes backwards are kept: rbkit's PUB socket "
       "never re-sends, so a repeat means a restarted server or a second publisher, not a duplicate delivery"}};
}

// What the user should know (reads the snapshots already written).
void CaptureDecoder::write_notes(nlohmann::json& r) {
  nlohmann::json notes = nlohmann::json::array();
  if (messages_ == 0 && bytes_seen_ == 0) notes.push_back("empty capture: no bytes");
  if (!created_ && !destroyed_) notes.push_back("no obj_created/obj_destroyed events (memory profiling was off)");
  if (gc_stats_.empty()) notes.push_back("no gc_stats messages in this capture");
  if (snapshots_.empty()) notes.push_back("no object_space_dump snapshot in this capture");
  if (trailing_open_gc_) notes.push_back("the capture ends inside a GC cycle (gc_start without gc_end_s)");
  if (counter_missing_)
    notes.push_back(std::to_string(counter_missing_) + " event_collection message(s) missing (message_counter gaps)");
  for (const auto& j : r["snapshots"]) {
    if (j["complete"] == false)
      notes.push_back("snapshot " + j["correlation_id"].dump() + " is INCOMPLETE: " + j["distinct_ids"].dump() +
                      " of " + j["complete_message_count"].dump() + " objects arrived");
  }
  if (ts_in_seconds_)
    notes.push_back(std::to_string(ts_in_seconds_) + " timestamp(s) were in seconds, not milliseconds (scaled ×1000)");
  r["notes"] = notes;
}

void CaptureDecoder::write_report(nlohmann::json& r) {
  write_protocol(r);
  write_event_counts(r);
  write_objects(r);
  write_timeline(r);
  write_gc_cycles(r);
  write_gc_stats(r);
  write_cpu_samples(r);
  write_snapshots(r);
  write_counter_gaps(r);
  write_notes(r);
}

}  // namespace gcscope::rbkit

namespace gcscope::rbkit {

nlohmann::json CaptureDecoder::compare_figures() const {
  nlohmann::json classes = nlohmann::json::object();
  for (uint32_t c = 0; c < created_by_class_.size() && c < classes_.size(); ++c)
    if (created_by_class_[c]) {
      const std::string name = classes_.shown(c);
      classes[name] = classes.value(name, uint64_t{0}) + created_by_class_[c];
    }
  double total = 0, longest = 0;
  for (const auto& c : cycles_) {
    total += c.end_ms - c.start_ms;
    longest = std::max(longest, c.end_ms - c.start_ms);
  }
  return {{"span_s", has_ts_ ? nlohmann::json((ts_max_ - ts_min_) / 1000.0) : nlohmann::json()},
          {"objects_created", created_},
          {"gc", {{"cycles", cycles_.size()}, {"total_ms", total}, {"max_ms", longest}}},
          {"classes", std::move(classes)}};
}

}  // namespace gcscope::rbkit
