// Serial (DefNew, Tenured) and Parallel (PSYoungGen, ParOldGen, PSOldGen) in legacy logs: their
// pools, the permanent generation / Metaspace every generational record may print, and the type of a
// "Full GC" record. GCToolKit's names for the event types, so that counts compare 1:1.
#include "core/text_scan.h"
#include "jvm/legacy/legacy_parser.h"
#include "jvm/legacy/legacy_scan.h"

namespace gcscope::jvm {

using namespace legacy_scan;
using text::contains;
using text::starts_with;

// A generational sub-record ("DefNew: …", "PSYoungGen: …", "ParOldGen: …", "PSOldGen: …",
// "Tenured: …", "CMS Perm: …", "PSPermGen: …", "Metaspace: …"); false when it is none of them.
bool LegacyGcLogParser::read_generational_sub(std::string_view sub, RecordFacts& f, GcEvent& e) {
  using Young = RecordFacts::Young;
  if (starts_with(sub, "DefNew")) {
    f.young = Young::kDefNew;
    e.young_pool = "DefNew";
    ev_.defnew = true;
    find_transition(sub, e.young);
    if (f.rare && contains(sub, "promotion failed")) e.flags |= kPromotionFailed;
  } else if (starts_with(sub, "PSYoungGen")) {
    f.young = Young::kPS;
    e.young_pool = "PSYoungGen";
    ev_.psyoung = true;
    find_transition(sub, e.young);
  } else if (starts_with(sub, "ParOldGen")) {
    ev_.parold = true, f.old_pool = true;
    e.old_pool = "ParOldGen";
    find_transition(sub, e.old);
  } else if (starts_with(sub, "PSOldGen")) {
    ev_.psold = true, f.old_pool = true;
    e.old_pool = "PSOldGen";
    find_transition(sub, e.old);
  } else if (starts_with(sub, "Tenured")) {
    ev_.tenured = true, f.old_pool = true;
    e.old_pool = "Tenured";
    find_transition(sub, e.old);
  } else if (starts_with(sub, "CMS Perm") || starts_with(sub, "PSPermGen") || starts_with(sub, "PS Perm") ||
             starts_with(sub, "Perm")) {
    ev_.perm = true;
    find_transition(sub, e.metaspace);
  } else if (starts_with(sub, "Metaspace")) {
    ev_.metaspace = true;
    find_transition(sub, e.metaspace);
  } else {
    return false;
  }
  return true;
}

// "Full GC": a System.gc(), a G1 full collection (sizes in "M"/"B"/"G") or a generational one.
void LegacyGcLogParser::type_full(const RecordFacts& f, GcEvent& e) {
  bool g1_sizes = false;  // G1 prints "M"/"B" sizes with decimals; the generational collectors print "K"
  if (f.young == RecordFacts::Young::kNone && !f.old_pool) {
    size_t arrow = f.tail_of_head.find("->");
    if (arrow != std::string_view::npos && arrow > 0 &&
        (f.tail_of_head[arrow - 1] == 'M' || f.tail_of_head[arrow - 1] == 'B' || f.tail_of_head[arrow - 1] == 'G'))
      g1_sizes = true;
    if (!g1_sizes) ev_.full_no_details = true;
  }
  if (is_cause_system(f.cause)) e.type = GcType::SystemGC;
  else e.type = (g1_sizes || ev_.g1) ? GcType::Full : GcType::FullGC;
}

}  // namespace gcscope::jvm
