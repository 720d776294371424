// rbkit captures of the shared heap corpus, checked against the ground truth the corpus computed by
// decoding every capture with Ruby's msgpack gem (expected/rbkit_*.truth.json) and the manifest's
// `expect` blocks. Nothing here is computed by gcscope's own code.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "support.h"

using namespace gcscope::test;  // corpus(), fixture(), analyze_*(), report_of(), read_*()
using nlohmann::json;

namespace {

// Columnar {class:[...], count:[...]} → {class: count}.
std::map<std::string, uint64_t> columns_to_map(const json& cols, const char* key, const char* value) {
  std::map<std::string, uint64_t> m;
  for (size_t i = 0; i < cols[key].size(); ++i) m[cols[key][i].get<std::string>()] = cols[value][i].get<uint64_t>();
  return m;
}

uint64_t count_or_zero(const json& obj, const std::string& k) { return obj.contains(k) ? obj[k].get<uint64_t>() : 0; }

// Every field of a truth file that the report carries.
void check_against_truth(const json& r, const json& truth, const std::string& file) {
  INFO(file);
  CHECK(r["messages"] == truth["top_level_messages"]);
  for (auto& [type, n] : truth["top_level"].items()) CHECK(count_or_zero(r["events"]["top_level"], type) == n);
  CHECK(r["events"]["top_level"].size() == truth["top_level"].size());
  for (auto& [type, n] : truth["nested"].items()) CHECK(count_or_zero(r["events"]["nested"], type) == n);
  CHECK(r["events"]["nested"].size() == truth["nested"].size());

  const json& ec = truth["event_collection"];
  CHECK(r["counter_gaps"]["collections"] == ec["count"]);
  CHECK(r["counter_gaps"]["first"] == ec["message_counter_first"]);
  CHECK(r["counter_gaps"]["last"] == ec["message_counter_last"]);
  CHECK(r["counter_gaps"]["missing"] == ec["counter_gaps"]);

  const json& gc = truth["gc"];
  CHECK(r["gc_cycles"]["gc_start"] == gc["gc_start"]);
  CHECK(r["gc_cycles"]["gc_end_m"] == gc["gc_end_m"]);
  CHECK(r["gc_cycles"]["gc_end_s"] == gc["gc_end_s"]);
  CHECK(r["gc_cycles"]["count"] == gc["start_to_end_s_pairs"]);
  CHECK(r["gc_cycles"]["end_s_without_start"] == gc["gc_end_s_without_start"]);
  CHECK(r["gc_cycles"]["trailing_open"] == gc["trailing_open_gc"]);

  const json& ob = truth["objects"];
  CHECK(r["objects_created"] == ob["obj_created"]);
  CHECK(r["objects_destroyed"] == ob["obj_destroyed"]);
  CHECK(r["objects"]["destroyed_of_created_in_capture"] == ob["destroyed_of_created_in_capture"]);
  CHECK(r["objects"]["live_created_in_capture_at_end"] == ob["live_created_in_capture_at_end"]);
  CHECK(r["objects"]["created_nil_class_name"] == ob["obj_created_nil_class_name"]);
  auto created = columns_to_map(r["classes"], "class", "created");
  auto live = columns_to_map(r["classes"], "class", "live_at_end");
  for (auto& [cls, n] : ob["top_created_classes"].items()) CHECK(created[cls] == n);
  for (auto& [cls, n] : ob["live_at_end_top_classes"].items()) CHECK(live[cls] == n);

  REQUIRE(r["snapshots"].size() == truth["object_space_dumps"].size());
  for (size_t i = 0; i < r["snapshots"].size(); ++i) {
    const json& s = r["snapshots"][i];
    const json& t = truth["object_space_dumps"][i];
    CHECK(s["correlation_id"] == t["correlation_id"]);
    CHECK(s["messages"] == t["messages"]);
    CHECK(s["objects"] == t["objects"]);
    CHECK(s["distinct_ids"] == t["distinct_ids"]);
    CHECK(s["complete_message_count"] == t["complete_message_count"]);
    CHECK(s["complete"] == t["complete"]);
    std::map<std::string, uint64_t> by_class;  // the snapshot's classes, computed by the shared heap model
    for (const auto& row : s["heap"]["by_class"])
      by_class[row["class"].get<std::string>()] = row["count"].get<uint64_t>();
    for (auto& [cls, n] : t["top_classes"].items()) CHECK(by_class[cls] == n);
    std::map<std::string, uint64_t> at_site;
    const json& site = s["by_site"];
    for (size_t k = 0; k < site["class"].size(); ++k)
      at_site[site["class"][k].get<std::string>() + "@" + site["file"][k].get<std::string>() + ":" +
              std::to_string(site["line"][k].get<uint64_t>())] += site["count"][k].get<uint64_t>();
    for (auto& [key, n] : t["top_class_at_location"].items()) CHECK(at_site[key] == n);
  }

  const json& gs = truth["gc_stats"];
  CHECK(r["gc_stats"]["count"] == gs["count"]);
  if (gs["count"] != 0) {
    CHECK(r["gc_stats"]["keys"] == gs["keys"]);
    CHECK(r["gc_stats"]["non_numeric_values"] == gs["non_numeric_values"]);
    CHECK(r["gc_stats"]["series"]["count"].front() == gs["first_count"]);
    CHECK(r["gc_stats"]["series"]["count"].back() == gs["last_count"]);
    // truth's heap_live_slots = the 2.2+ key; the Ruby 2.1 server of the legacy fixture named it heap_live_slot.
    json hls = r["gc_stats"]["series"].value("heap_live_slots", json::array());
    if (hls.empty()) hls = json::array({nullptr});
    CHECK(hls == gs["heap_live_slots"]);
  }

  CHECK(r["cpu_samples"]["count"] == truth["cpu_samples"]["count"]);
  auto leaves = columns_to_map(r["cpu_samples"]["top_leaf_labels"], "label", "count");
  for (auto& [label, n] : truth["cpu_samples"]["top_leaf_labels"].items()) CHECK(leaves[label] == n);
  CHECK(leaves.size() == truth["cpu_samples"]["top_leaf_labels"].size());

  if (truth["handshake"].empty()) CHECK(r["handshake"].is_null());
  else CHECK(r["handshake"] == truth["handshake"][0]);
}

}  // namespace

TEST_CASE("rbkit: every capture of the corpus matches the msgpack gem's ground truth", "[rbkit][corpus]") {
  const json manifest = read_json(corpus("heap/manifest.json"));
  size_t n = 0;
  for (const auto& f : manifest["files"]) {
    const std::string kind = f["kind"];
    if (kind.rfind("rbkit_capture", 0) != 0) continue;
    const std::string rel = f["path"];
    const json& expect = f["expect"];
    json truth = read_json(corpus("heap/" + expect["full_truth"].get<std::string>()));
    json doc = analyze_paths({corpus("heap/" + rel)});
    INFO(rel);
    const json& r = report_of(doc, "rbkit-capture");
    CHECK(doc["errors"].empty());  // parse_error: null for every real capture
    check_against_truth(r, truth, rel);
    // The manifest's own expect block repeats the truth's headline numbers.
    CHECK(r["messages"] == expect["top_level_messages"]);
    CHECK(r["objects_created"] == expect["objects"]["obj_created"]);
    if (rel.find("gc_start.rbkit") != std::string::npos) {
      // The one hand-edited legacy fixture (corpus README): its gc_start carries SECONDS
      // (1407668549.46) inside a millisecond collection. The truth lists the raw value as the minimum;
      // gcscope scales seconds to ms (and says so), so the minimum is the collection's timestamp.
      CHECK(r["timestamps_in_seconds"] == 1);
      CHECK(r["timestamps_ms"]["min"] == expect["timestamps_ms"]["max"]);
      CHECK(r["timestamps_ms"]["max"].get<double>() == Approx(1407668549461.5302));
    } else {
      CHECK(r["timestamps_ms"]["min"] == expect["timestamps_ms"]["min"]);
      CHECK(r["timestamps_ms"]["max"] == expect["timestamps_ms"]["max"]);
      CHECK(r["timestamps_ms"]["span_s"] == expect["timestamps_ms"]["span_s"]);
    }
    ++n;
  }
  CHECK(n == 8);  // 1 real 2.1 capture + 7 legacy rbkit-client fixtures (corpus README)
}

TEST_CASE("rbkit: the real stock-server capture, as the manifest says it must be shown", "[rbkit][corpus]") {
  json doc = analyze_paths({corpus("heap/rbkit/real_stock_threaddeath.rbkit")});
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(r["protocol_version"] == "2.1");
  CHECK(r["handshake"]["rbkit_server_version"] == "0.1.10");
  // must: "state that no snapshot/gc_stats exist; capture simply ends (trailing open gc_start)"
  auto has_note = [&](const std::string& part) {
    for (const auto& n : r["notes"])
      if (n.get<std::string>().find(part) != std::string::npos) return true;
    return false;
  };
  CHECK(has_note("no gc_stats"));
  CHECK(has_note("no object_space_dump snapshot"));
  CHECK(has_note("ends inside a GC cycle"));
  CHECK(r["gc_cycles"]["trailing_open_start_ms"].is_number());
  // Timeline: 1-second bins over the 38 s capture; the per-second counts add up to the totals and the
  // live curve ends at the number of objects created in the capture and still alive.
  const json& tl = r["timeline"];
  CHECK(tl["bin_s"] == 1);
  CHECK(tl["dense"] == true);
  CHECK(tl["t"].size() == 39);  // 1795257121 .. 1795257159 (timestamps_ms min/max of the manifest)
  CHECK(tl["t"].front() == 1795257121);
  uint64_t created = 0, destroyed = 0;
  for (const auto& v : tl["created"]) created += v.get<uint64_t>();
  for (const auto& v : tl["destroyed"]) destroyed += v.get<uint64_t>();
  CHECK(created == 119264);
  CHECK(destroyed == 111812);
  CHECK(tl["live"].back() == 11322);
  // The class series partition the totals: top classes + "(other classes)" + "(created before the capture)".
  uint64_t by_class_created = 0, before_capture = 0;
  for (const auto& s : tl["created_by_class"])
    for (const auto& v : s) by_class_created += v.get<uint64_t>();
  for (const auto& v : tl["destroyed_by_class"].back()) before_capture += v.get<uint64_t>();
  CHECK(by_class_created == 119264);
  CHECK(before_capture == 111812 - 107942);  // destroyed minus destroyed_of_created_in_capture (manifest)
  // GC bands: 11 complete cycles, each start <= end of mark <= end of sweep.
  const json& gc = r["gc_cycles"];
  REQUIRE(gc["start_ms"].size() == 11);
  for (size_t i = 0; i < 11; ++i) {
    CHECK(gc["start_ms"][i].get<double>() <= gc["mark_end_ms"][i].get<double>());
    CHECK(gc["mark_end_ms"][i].get<double>() <= gc["end_ms"][i].get<double>());
    CHECK(gc["duration_ms"][i].get<double>() >= 0);
  }
}

TEST_CASE("rbkit: reports do not depend on how the input is cut into chunks", "[rbkit][corpus]") {
  for (const char* rel :
       {"heap/rbkit/real_stock_threaddeath.rbkit", "heap/rbkit/legacy_rbkit_client_fixtures/split_dump.rbkit",
        "heap/rbkit/legacy_rbkit_client_fixtures/cpusample.rbkit", "heap/malformed/rbkit_truncated_mid_frame.rbkit",
        "heap/malformed/rbkit_garbage_prefix.rbkit"}) {
    INFO(rel);
    std::string bytes = read_file(corpus(rel));
    json whole = analyze_bytes({{"capture.rbkit", bytes}});
    for (size_t chunk : {size_t(1), size_t(3), size_t(8), size_t(4093)}) {
      if (chunk < 8 && bytes.size() > 100000) continue;  // byte-wise feeding of MBs is too slow for CI
      INFO("chunk " << chunk);
      json cut = analyze_bytes({{"capture.rbkit", bytes}}, json::object(), chunk);
      CHECK(cut["reports"] == whole["reports"]);
      CHECK(cut["errors"] == whole["errors"]);
    }
  }
}

TEST_CASE("rbkit: the fixture (first 12 frames of the real capture)", "[rbkit]") {
  json doc = analyze_paths({fixture("rbkit/stock-server-first12.rbkit")});
  const json& r = report_of(doc, "rbkit-capture");
  CHECK(doc["errors"].empty());
  // Counted with the msgpack gem (ruby-msgpack 1.4.2): handshake + 11 collections, counters 0..10,
  // nested: 3152 obj_created, 4028 obj_destroyed, 1 gc_start, 1 gc_end_m, 2 gc_end_s;
  // created by class: String 1107, Hash 1104, Array 492, Order 328, Time 120, nil 1.
  CHECK(r["messages"] == 12);
  CHECK(r["events"]["top_level"] == json({{"handshake", 1}, {"event_collection", 11}}));
  CHECK(r["events"]["nested"] ==
        json({{"obj_created", 3152}, {"obj_destroyed", 4028}, {"gc_start", 1}, {"gc_end_m", 1}, {"gc_end_s", 2}}));
  CHECK(r["counter_gaps"]["first"] == 0);
  CHECK(r["counter_gaps"]["last"] == 10);
  CHECK(r["counter_gaps"]["missing"] == 0);
  auto created = columns_to_map(r["classes"], "class", "created");
  CHECK(created == std::map<std::string, uint64_t>{
                       {"String", 1107}, {"Hash", 1104}, {"Array", 492}, {"Order", 328}, {"Time", 120}, {"(nil)", 1}});
}

TEST_CASE("rbkit: snapshots also go through the shared heap model", "[rbkit][corpus]") {
  // split_dump.rbkit: the msgpack gem's truth (58189 objects, String 34860, ...) seen through the
  // heap model's by_class rows; no roots in a 2.x snapshot, so no dominator tree, with the reason.
  json truth = read_json(corpus("heap/expected/rbkit_split_dump.truth.json"));
  json doc = analyze_paths({corpus("heap/rbkit/legacy_rbkit_client_fixtures/split_dump.rbkit")});
  const json& heap = report_of(doc, "rbkit-capture")["snapshots"][0]["heap"];
  CHECK(heap["objects"] == 58189);
  std::map<std::string, uint64_t> by_class;
  for (const auto& row : heap["by_class"]) by_class[row["class"].get<std::string>()] = row["count"].get<uint64_t>();
  for (auto& [cls, n] : truth["object_space_dumps"][0]["top_classes"].items()) CHECK(by_class[cls] == n);
  CHECK(heap["dominators"]["available"] == false);
  CHECK(heap["dominators"]["reason"].get<std::string>().find("rbkit snapshots carry no GC roots") == 0);
  // What the wire format gives instead, counted with the msgpack gem by tests/rbkit/split_dump_references.rb:
  // 193804 references, 8783 of them to ids that are not in the snapshot, and only 34 objects that no
  // object references (so "unreferenced = root" could not stand in for the missing roots).
  CHECK(heap["total_references"] == 193804);
  CHECK(heap["dangling_references"] == 8783);
  CHECK(heap["dominators"]["references_out_of_snapshot"] == 8783);
  CHECK(heap["dominators"]["unreferenced_objects"] == 34);
  CHECK(report_of(doc, "rbkit-capture")["snapshots"][0]["objects_never_referenced"] == 34);
  CHECK(heap["dominators"]["reason"].get<std::string>().find(
            "8783 of 193804 references point to objects the walk left out") != std::string::npos);

  // objectdump.rbkit (pre-2.0): 19985 records of which 59 are root pseudo-objects (vm 1,
  // machine_context 39, global_tbl 16, global_list 2, end_proc 1: the truth's class counts); they
  // are roots, not objects, but reference nothing here.
  json legacy = analyze_paths({corpus("heap/rbkit/legacy_rbkit_client_fixtures/objectdump.rbkit")});
  const json& lh = report_of(legacy, "rbkit-capture")["snapshots"][0]["heap"];
  CHECK(lh["objects"] == 19985 - 59);
  CHECK(lh["dominators"]["available"] == false);
}
