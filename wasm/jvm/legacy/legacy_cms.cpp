// ParNew/CMS (and iCMS) in legacy logs: the ParNew and CMS pools, the CMS marks, a young collection
// failing into an old one, CMS initial mark and remark without -XX:+PrintGCDetails, the concurrent
// phases. GCToolKit's names for the event types, so that counts compare 1:1.
#include <algorithm>
#include <cmath>

#include "core/text_scan.h"
#include "jvm/legacy/legacy_parser.h"
#include "jvm/legacy/legacy_scan.h"

namespace gcscope::jvm {

using namespace legacy_scan;
using text::contains;
using text::starts_with;

// A ParNew/CMS sub-record ("ParNew: …", "CMS: …", "1 CMS-initial-mark: …", "1 CMS-remark: …",
// "YG occupancy: …"); false when the sub-record is none of them ("CMS Perm" is a generational pool).
bool LegacyGcLogParser::read_cms_sub(std::string_view sub, RecordFacts& f, GcEvent& e) {
  if (starts_with(sub, "ParNew")) {
    f.young = RecordFacts::Young::kParNew;
    e.young_pool = "ParNew";
    ev_.parnew = true;
    find_transition(sub, e.young);
    f.parnew_sub = sub;
    if (f.rare && contains(sub, "promotion failed")) e.flags |= kPromotionFailed;
    if (f.rare && contains(sub, "promotion failure size")) ev_.promotion_failure_size = true;
  } else if (starts_with(sub, "CMS") && !starts_with(sub, "CMS-") && !starts_with(sub, "CMS Perm")) {
    ev_.cms = true, f.old_pool = true, f.cms_old = true;
    e.old_pool = "CMS";
    find_transition(sub, e.old);
  } else if (starts_with(sub, "1 CMS-initial-mark") || starts_with(sub, "CMS-initial-mark")) {
    f.initial_mark = true;
    ev_.cms = true;
    find_transition(sub, e.old);
  } else if (starts_with(sub, "1 CMS-remark") || starts_with(sub, "CMS-remark")) {
    f.remark = true;
    ev_.cms = true;
    find_transition(sub, e.old);
  } else if (starts_with(sub, "YG occupancy")) {
    ev_.cms = true;
  } else {
    return false;
  }
  return true;
}

// Without -XX:+PrintGCDetails: a CMS initial mark or remark, told by its cause or by the alternation
// of the two; false for any other record.
bool LegacyGcLogParser::type_cms_without_details(const RecordFacts& f, GcEvent& e) {
  if (f.cause == "CMS Initial Mark") {
    e.type = GcType::InitialMark;
    cms_cycle_open_ = true;
  } else if (f.cause == "CMS Final Remark" && e.heap.before_kb < 0) {
    e.type = GcType::Remark;
    cms_cycle_open_ = false;
  } else if (e.heap.before_kb < 0 && e.heap.after_kb >= 0) {
    // Without details a CMS initial mark and remark both print "[GC 46468K(83008K), 0.0039 secs]" (an
    // occupancy, no "->"): they alternate, the first of a cycle being the initial mark.
    e.type = cms_cycle_open_ ? GcType::Remark : GcType::InitialMark;
    cms_cycle_open_ = !cms_cycle_open_;
  } else {
    return false;
  }
  ev_.cms_no_details = true;
  return true;
}

// A ParNew that could not finish (promotion failed, or nothing copied) followed by a CMS collection of
// the old generation in the same pause. Like GCToolKit, the young part is an event of its own when it
// failed to promote or the CMS part is a concurrent mode failure/interruption; its pause is the ParNew
// bracket's, and the old collection keeps the rest, so pause totals stay those of the log.
void LegacyGcLogParser::split_parnew_cms(const RecordFacts& f, GcEvent& e) {
  const bool pf = (e.flags & kPromotionFailed) != 0;
  const double young_secs = last_secs(f.parnew_sub);
  const auto young_part = [&](GcType type) {
    GcEvent y = e;
    y.type = type;
    y.old = PoolSizes{};
    y.old_pool = nullptr;
    y.metaspace = PoolSizes{};
    y.duration_s = young_secs;
    return y;
  };
  if (pf || f.cmf || f.cmi) {
    GcEvent y = young_part(pf ? GcType::ParNewPromotionFailed : GcType::ParNew);
    y.flags &= ~static_cast<uint32_t>(kConcurrentModeFailure);
    y.user_s = y.sys_s = y.real_s = kUnknown;
    y.cause = open_cause_;
    emit(y);
    if (!std::isnan(young_secs) && !std::isnan(e.duration_s)) e.duration_s = std::max(0.0, e.duration_s - young_secs);
    if (!std::isnan(young_secs) && !std::isnan(e.uptime_s)) e.uptime_s += young_secs;
  }
  // A ParNew that copied nothing followed by "[CMS: …]": GCToolKit calls it a concurrent mode failure in
  // CMS logs and a ParNew plus a full collection in iCMS logs (icms_dc=); the counts follow it.
  const bool icms_record = f.rare && contains(f.whole, "icms_dc=");
  if (!pf && !f.cmf && !f.cmi && icms_record) {
    GcEvent y = young_part(GcType::ParNew);
    y.user_s = y.sys_s = y.real_s = kUnknown;
    y.cause = open_cause_;
    emit(y);
    if (!std::isnan(young_secs) && !std::isnan(e.duration_s)) e.duration_s = std::max(0.0, e.duration_s - young_secs);
  }
  e.type = f.cmf                 ? GcType::ConcurrentModeFailure
           : f.cmi               ? GcType::ConcurrentModeInterrupted
           : (pf || icms_record) ? GcType::FullGC
                                 : GcType::ConcurrentModeFailure;
}

// "[CMS-concurrent-mark: 2.497/2.538 secs]": the phase's type and duration; false for a "-start"
// record or a phase the report does not type.
bool LegacyGcLogParser::type_cms_concurrent(std::string_view rec, GcEvent& e) {
  ev_.cms = true;
  std::string_view name = rec.substr(16);
  size_t stop = name.find_first_of(":]");
  std::string_view phase = name.substr(0, stop);
  if (ends_with(phase, "-start")) return false;
  if (phase == "mark") e.type = GcType::ConcurrentMark;
  else if (phase == "preclean") e.type = GcType::Concurrent_Preclean;
  else if (phase == "abortable-preclean") e.type = GcType::Abortable_Preclean;
  else if (phase == "sweep") e.type = GcType::Concurrent_Sweep;
  else if (phase == "reset") e.type = GcType::Concurrent_Reset;
  else return false;
  // "mark: 2.497/2.538 secs": CPU time / wall time; the wall time is the phase's duration.
  size_t slash = name.find('/');
  if (slash != std::string_view::npos) {
    size_t p = slash + 1;
    double v;
    if (log_decimal(name, p, v)) e.duration_s = v;
  }
  return true;
}

}  // namespace gcscope::jvm
