#include "input_set.h"

#include <algorithm>
#include <exception>

#include "follow.h"
#include "identify.h"
#include "query.h"
#include "table_writers.h"
#include "version.h"
#include "zip_archive.h"

namespace gcscope {

namespace {
constexpr int kMaxArchiveDepth = 3;  // a zip inside a zip inside a zip is the most anyone needs

nlohmann::json or_null(int64_t v) { return v < 0 ? nlohmann::json() : nlohmann::json(v); }

nlohmann::json schema_json(const tables::Schema& s) {
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& c : s.columns)
    columns.push_back(
        {{"name", c.name}, {"type", tables::type_name(c.type)}, {"unit", c.unit}, {"meaning", c.meaning}});
  return {{"name", s.name}, {"meaning", s.meaning}, {"columns", std::move(columns)}};
}
}  // namespace

// A stream of decoded bytes that ends up at one analyzer: a plain file, a .gz file, or one member
// of a .zip (which may itself be gzip'd).
struct InputSet::Member {
  std::string path;
  std::string sniff;  // first bytes, until we know whether they are gzip
  bool sniffed = false;
  std::unique_ptr<GzipDecoder> gzip;
  bool gzip_failed = false;
  std::string nested_zip;  // a zip inside a zip: kept whole, like the outer one
  bool is_nested_zip = false;
  int depth = 0;
  std::string head;  // decoded bytes kept until identification
  bool routed = false;
  Identification identification;
  Group* group = nullptr;
  uint64_t decoded = 0;
  nlohmann::json children = nlohmann::json::array();  // members of a nested zip
};

struct InputSet::File {
  std::string path;
  std::string compression = "none";
  uint64_t bytes = 0;
  std::string sniff;
  bool decided = false;
  bool is_zip = false;
  std::string zip_bytes;
  std::unique_ptr<Member> plain;
  std::vector<std::unique_ptr<Member>> members;  // zip members, in archive order
  bool archive_failed = false;
};

struct InputSet::Group {
  std::string format;
  const FormatHandler* handler = nullptr;
  std::unique_ptr<Analyzer> analyzer;
  std::vector<std::string> member_paths;
  Identification identification;  // of the first member
  bool broken = false;            // the analyzer threw: stop feeding it, keep what it has
  nlohmann::json report;          // kept after finish for formats that compare (the default side)
};

InputSet::InputSet(AnalyzeOptions options, const FormatRegistry& registry)
    : options_(options.is_object() ? std::move(options) : nlohmann::json::object()), registry_(registry) {
  if (options_.contains("zip_max_bytes") && options_["zip_max_bytes"].is_number_integer() &&
      options_["zip_max_bytes"].get<int64_t>() > 0)
    zip_max_bytes_ = options_["zip_max_bytes"].get<uint64_t>();
  follow_ = options_.value("follow", false) == true;
}

InputSet::~InputSet() = default;

void InputSet::begin_file(const std::string& path) {
  files_.push_back(std::make_unique<File>());
  current_ = files_.back().get();
  current_->path = path;
}

void InputSet::feed(const uint8_t* data, size_t len) {
  if (!current_ || len == 0) return;
  File& f = *current_;
  f.bytes += len;
  if (!f.decided) {
    // Four bytes tell a zip from anything else; a plain or gzip file is passed to its member.
    size_t take = std::min<size_t>(4 - f.sniff.size(), len);
    f.sniff.append(reinterpret_cast<const char*>(data), take);
    data += take;
    len -= take;
    if (f.sniff.size() < 4) return;
    f.decided = true;
    f.is_zip = looks_zip(reinterpret_cast<const uint8_t*>(f.sniff.data()), f.sniff.size());
    if (f.is_zip) {
      f.compression = "zip";
      f.zip_bytes = f.sniff;
    } else {
      f.plain = std::make_unique<Member>();
      f.plain->path = f.path;
      feed_member(*f.plain, f.sniff.data(), f.sniff.size());
    }
    f.sniff.clear();
  }
  if (len == 0) return;
  if (f.is_zip) {
    if (f.archive_failed) return;
    if (f.zip_bytes.size() + len > zip_max_bytes_) {
      // A zip is read whole (its index is at its end); past the cap, say so instead of running the
      // worker out of memory.
      f.archive_failed = true;
      diagnostics_.error(
          f.path, -1, static_cast<int64_t>(f.zip_bytes.size()),
          "zip archive larger than " + std::to_string(zip_max_bytes_ >> 20) +
              " MiB: archives are read whole to find their index; unzip it and drop the folder (or the files) instead");
      std::string().swap(f.zip_bytes);
      return;
    }
    f.zip_bytes.append(reinterpret_cast<const char*>(data), len);
  } else feed_member(*f.plain, reinterpret_cast<const char*>(data), len);
}

void InputSet::end_file() {
  if (!current_) return;
  File& f = *current_;
  if (!f.decided) {  // fewer than 4 bytes in all
    f.decided = true;
    f.plain = std::make_unique<Member>();
    f.plain->path = f.path;
    if (!f.sniff.empty()) feed_member(*f.plain, f.sniff.data(), f.sniff.size());
  }
  if (f.is_zip) {
    if (!f.archive_failed) extract_zip(f);
  } else {
    close_member(*f.plain);
    if (f.plain->gzip) f.compression = "gzip";
  }
  current_ = nullptr;
}

uint64_t InputSet::decoded_bytes() const {
  if (!current_ || !current_->plain) return 0;
  return current_->plain->decoded;
}

void InputSet::feed_member(Member& m, const char* data, size_t len) {
  if (!m.sniffed) {
    size_t take = std::min<size_t>(4 - m.sniff.size(), len);
    m.sniff.append(data, take);
    data += take;
    len -= take;
    if (m.sniff.size() < 4) return;
    m.sniffed = true;
    const auto* s = reinterpret_cast<const uint8_t*>(m.sniff.data());
    if (looks_gzip(s, m.sniff.size())) {
      m.gzip = std::make_unique<GzipDecoder>(limits_);
    } else if (m.depth > 0 && m.depth < kMaxArchiveDepth && looks_zip(s, m.sniff.size())) {
      m.is_nested_zip = true;
    }
    std::string first;
    first.swap(m.sniff);
    feed_member(m, first.data(), first.size());
  }
  if (len == 0) return;
  if (m.is_nested_zip) {
    m.nested_zip.append(data, len);
  } else if (m.gzip) {
    if (m.gzip_failed) return;
    bool ok = m.gzip->feed(reinterpret_cast<const uint8_t*>(data), len,
                           [&](const char* out, size_t n) { feed_member_decoded(m, out, n); });
    if (!ok) {
      m.gzip_failed = true;
      diagnostics_.error(m.path, -1, static_cast<int64_t>(m.gzip->error_offset()),
                         m.gzip->error() + " (compressed byte offset " + std::to_string(m.gzip->error_offset()) + ")");
    }
  } else {
    feed_member_decoded(m, data, len);
  }
}

void InputSet::feed_member_decoded(Member& m, const char* data, size_t len) {
  m.decoded += len;
  if (!m.routed) {
    size_t take = std::min(len, kIdentifyHeadBytes - m.head.size());
    m.head.append(data, take);
    data += take;
    len -= take;
    if (m.head.size() < kIdentifyHeadBytes) return;
    m.identification = registry_.identify(m.head, false);
    route(m, false);
  }
  if (len == 0 || !m.group || m.group->broken) return;
  try {
    m.group->analyzer->feed(data, len);
  } catch (const std::exception& e) {
    m.group->broken = true;
    diagnostics_.error(m.path, -1, -1,
                       std::string("internal error in the ") + m.group->format + " analyzer: " + e.what());
  }
}

void InputSet::route(Member& m, bool complete) {
  m.routed = true;
  std::string format = m.identification.format;
  if (options_.contains("format") && options_["format"].is_string()) {
    std::string forced = options_["format"].get<std::string>();
    const FormatHandler* handler = registry_.find(forced);
    if (forced != format && handler) {
      // The forced format's analyzer gets what that format's own probes find in the head.
      Identification as = registry_.identify_as(*handler, m.head, complete);
      as.reason = "format forced to " + forced +
                  " (identification said: " + (m.identification.recognized() ? format : std::string("unrecognized")) +
                  ", " + m.identification.reason + ")";
      m.identification = std::move(as);
      format = forced;
    } else if (forced != format) {
      m.identification.reason = "format forced to " + forced + " (identification said: " +
                                (m.identification.recognized() ? format : std::string("unrecognized")) + ", " +
                                m.identification.reason + ")";
      m.identification.format = forced;
      format = forced;
    }
  }
  if (!m.identification.recognized()) {
    diagnostics_.error(m.path, -1, 0, "unrecognized input: " + m.identification.reason);
    m.head.clear();
    return;
  }
  const FormatHandler* handler = registry_.find(format);
  if (!handler) {
    diagnostics_.error(m.path, -1, -1, "no analyzer is registered for format " + format);
    m.head.clear();
    return;
  }
  Group* group = nullptr;
  if (handler->accepts_many_members) {
    for (auto& g : groups_)
      if (g->format == format) group = g.get();
  }
  if (!group) {
    groups_.push_back(std::make_unique<Group>());
    group = groups_.back().get();
    group->format = format;
    group->handler = handler;
    group->identification = m.identification;
    group->analyzer = handler->make(options_);
    group->analyzer->attach(&diagnostics_);
  }
  m.group = group;
  group->member_paths.push_back(m.path);
  std::string head;
  head.swap(m.head);
  if (group->broken) return;
  try {
    group->analyzer->set_identification(m.identification);
    group->analyzer->begin_member(m.path);
    if (!head.empty()) group->analyzer->feed(head.data(), head.size());
  } catch (const std::exception& e) {
    group->broken = true;
    diagnostics_.error(m.path, -1, -1, std::string("internal error in the ") + format + " analyzer: " + e.what());
  }
}

void InputSet::close_member(Member& m) {
  if (!m.sniffed && !m.sniff.empty()) {
    // Fewer than four bytes in the whole member: it is what it is, uncompressed.
    m.sniffed = true;
    std::string rest;
    rest.swap(m.sniff);
    feed_member_decoded(m, rest.data(), rest.size());
  }
  if (m.is_nested_zip) {
    // Recurse: a nested archive's members join the set under "outer.zip/inner.zip/…".
    File inner;
    inner.path = m.path;
    inner.zip_bytes.swap(m.nested_zip);
    inner.is_zip = true;
    ZipArchive zip;
    if (!zip.open(inner.zip_bytes)) {
      diagnostics_.error(m.path, -1, static_cast<int64_t>(zip.error_offset()), zip.error());
    } else {
      for (const auto& zm : zip.members()) {
        if (zm.is_directory() || is_archive_noise(zm.name)) continue;
        Member child;
        child.path = m.path + "/" + zm.name;
        child.depth = m.depth + 1;
        if (!zip.extract(
                zm, [&](const char* d, size_t n) { feed_member(child, d, n); }, limits_))
          diagnostics_.error(child.path, -1, static_cast<int64_t>(zip.error_offset()), zip.error());
        close_member(child);
        m.children.push_back({{"path", child.path},
                              {"format", child.identification.format},
                              {"bytes", child.decoded},
                              {"identification", child.identification.reason}});
      }
    }
    m.routed = true;
    m.identification.format = "zip";
    m.identification.reason = "nested zip archive";
    return;
  }
  if (m.gzip && !m.gzip_failed && !m.gzip->finish()) {
    m.gzip_failed = true;
    diagnostics_.error(m.path, -1, static_cast<int64_t>(m.gzip->error_offset()), m.gzip->error());
  }
  if (!m.routed) {
    m.identification = registry_.identify(m.head, true);
    if (m.identification.format == format_id::kUnrecognized && m.decoded == 0 && m.gzip_failed)
      m.identification.reason = "nothing could be decompressed";
    route(m, true);
  }
  if (m.group && !m.group->broken) {
    try {
      m.group->analyzer->end_member();
    } catch (const std::exception& e) {
      m.group->broken = true;
      diagnostics_.error(m.path, -1, -1,
                         std::string("internal error in the ") + m.group->format + " analyzer: " + e.what());
    }
  }
}

void InputSet::extract_zip(File& f) {
  ZipArchive zip;
  if (!zip.open(f.zip_bytes)) {
    f.archive_failed = true;
    diagnostics_.error(f.path, -1, static_cast<int64_t>(zip.error_offset()), zip.error());
    f.zip_bytes.clear();
    return;
  }
  for (const auto& zm : zip.members()) {
    if (zm.is_directory() || is_archive_noise(zm.name)) continue;
    auto m = std::make_unique<Member>();
    m->path = f.path + "/" + zm.name;
    m->depth = 1;
    if (!zip.extract(
            zm, [&](const char* d, size_t n) { feed_member(*m, d, n); }, limits_))
      diagnostics_.error(m->path, -1, static_cast<int64_t>(zip.error_offset()), zip.error());
    close_member(*m);
    f.members.push_back(std::move(m));
  }
  std::string().swap(f.zip_bytes);  // release the archive before the analyzers finish
}

// True when the current file can stay open through this finish(): a plain file of formats that
// follow. A file shorter than the identification head is identified once it holds a whole line; a
// rotated file's new content that says nothing recognizable yet is taken for the format it had.
bool InputSet::follow_ready() {
  if (!follow_ || !current_ || current_->is_zip) return false;
  if (current_->decided) {
    Member& m = *current_->plain;
    if (m.gzip || m.is_nested_zip) return false;
    if (m.sniffed && !m.routed && m.head.find('\n') != std::string::npos) {
      m.identification = registry_.identify(m.head, true);
      const Member* before = files_.size() > 1 ? files_[files_.size() - 2]->plain.get() : nullptr;
      if (!m.identification.recognized() && before && before->identification.recognized()) {
        m.identification = before->identification;
        m.identification.reason = "the followed file's earlier content: " + before->identification.reason;
      }
      route(m, true);
    }
  }
  for (const auto& g : groups_)
    if (g->broken || !g->analyzer->follows()) return false;
  return true;
}

nlohmann::json InputSet::finish() {
  const bool snapshot = follow_ready();
  // Only a followed set's snapshots are written more than once; its analyzers finish once.
  if (finished_ && !snapshot) throw QueryError("this analysis was closed: its input cannot be followed further");
  if (!snapshot && current_) end_file();
  nlohmann::json doc;
  doc["gcscope"] = kVersion;
  doc["inputs"] = inputs_json();
  doc["reports"] = reports_json(snapshot);
  nlohmann::json errors = nlohmann::json::array();
  for (const auto& d : diagnostics_.items()) {
    nlohmann::json e = {
        {"path", d.path}, {"line", or_null(d.line)}, {"offset", or_null(d.offset)}, {"message", d.message}};
    if (d.severity != "error") e["severity"] = d.severity;
    errors.push_back(e);
  }
  doc["errors"] = std::move(errors);
  if (snapshot) {
    uint64_t bytes = 0;
    for (const auto& f : files_) bytes += f->bytes;
    nlohmann::json figures = follow_figures(doc);
    doc["follow"] = {{"bytes", bytes}, {"files", files_.size()}, {"new", follow_changes(follow_figures_, figures)}};
    follow_figures_ = std::move(figures);
  }
  finished_ = true;
  return doc;
}

nlohmann::json InputSet::inputs_json() const {
  nlohmann::json inputs = nlohmann::json::array();
  for (const auto& fp : files_) {
    const File& f = *fp;
    nlohmann::json in = {{"path", f.path}, {"bytes", f.bytes}, {"compression", f.compression}};
    nlohmann::json members = nlohmann::json::array();
    std::vector<std::string> formats;
    auto add_format = [&](const std::string& id) {
      if (id != format_id::kUnrecognized && id != "zip" &&
          std::find(formats.begin(), formats.end(), id) == formats.end())
        formats.push_back(id);
    };
    if (f.is_zip) {
      for (const auto& m : f.members) {
        nlohmann::json mj = {{"path", m->path},
                             {"format", m->identification.format},
                             {"bytes", m->decoded},
                             {"compression", m->gzip ? "gzip" : (m->identification.format == "zip" ? "zip" : "none")},
                             {"identification", {{"reason", m->identification.reason}}}};
        for (auto& [k, v] : m->identification.details.items()) mj["identification"][k] = v;
        members.push_back(mj);
        add_format(m->identification.format);
        for (const auto& c : m->children) {
          members.push_back(c);
          add_format(c["format"].get<std::string>());
        }
      }
      in["format"] = formats.empty() ? format_id::kUnrecognized : (formats.size() == 1 ? formats[0] : "mixed");
      in["identification"] = {{"reason", f.archive_failed
                                             ? "the archive could not be read"
                                             : "zip archive with " + std::to_string(f.members.size()) + " member(s)"}};
    } else if (!f.plain) {  // a followed file with fewer than 4 bytes so far
      in["format"] = format_id::kUnrecognized;
      in["identification"] = {{"reason", "too few bytes read so far to tell"}};
    } else {
      const Member& m = *f.plain;
      in["format"] = m.identification.format;
      in["decoded_bytes"] = m.decoded;
      in["identification"] = {{"reason", m.identification.reason}};
      for (auto& [k, v] : m.identification.details.items()) in["identification"][k] = v;
    }
    in["members"] = members;
    inputs.push_back(in);
  }
  return inputs;
}

// The reports of the groups; a snapshot (following) keeps every group and its analyzer open.
nlohmann::json InputSet::reports_json(bool snapshot) {
  nlohmann::json reports = nlohmann::json::array();
  std::vector<std::unique_ptr<Group>> kept;  // report i is group i: rejected groups go with their report
  for (auto& g : groups_) {
    nlohmann::json r = {
        {"format", g->format}, {"title", g->handler ? g->handler->title : g->format}, {"inputs", g->member_paths}};
    nlohmann::json ident = {{"reason", g->identification.reason}};
    for (auto& [k, v] : g->identification.details.items()) ident[k] = v;
    r["identification"] = ident;
    if (!g->broken) {
      try {
        if (snapshot) g->analyzer->snapshot(r);
        else g->analyzer->finish(r);
        if (g->handler && g->handler->compare) g->report = r;
      } catch (const std::exception& e) {
        g->broken = true;
        diagnostics_.error(g->member_paths.empty() ? "" : g->member_paths.front(), -1, -1,
                           std::string("internal error in the ") + g->format + " analyzer: " + e.what());
      }
    }
    if (!snapshot && !g->broken && g->analyzer->rejected()) continue;
    // An analyzer that stopped (out of memory, an internal error) left its report cut short.
    if (g->broken) r["partial"] = true;
    reports.push_back(std::move(r));
    kept.push_back(std::move(g));
  }
  groups_ = std::move(kept);
  return reports;
}

nlohmann::json InputSet::memory_estimate(uint64_t input_bytes) const {
  const FormatHandler* most = nullptr;
  for (const auto& g : groups_)
    if (g->handler && (!most || g->handler->memory_per_input_byte > most->memory_per_input_byte)) most = g->handler;
  if (!most) return nullptr;
  auto bytes = [&](double per_byte) { return per_byte * static_cast<double>(input_bytes); };
  nlohmann::json out = {{"format", most->id}, {"title", most->title}, {"bytes", bytes(most->memory_per_input_byte)}};
  const nlohmann::json& lighter_options =
      most->lighter.is_object() ? most->lighter.value("options", nlohmann::json()) : nlohmann::json();
  bool already_lighter = lighter_options.is_object() && !lighter_options.empty();
  for (auto& [k, v] : lighter_options.items())
    if (!options_.contains(k) || options_[k] != v) already_lighter = false;
  if (already_lighter) {
    out["bytes"] = bytes(most->lighter.value("memory_per_input_byte", most->memory_per_input_byte));
  } else if (most->lighter.is_object()) {
    out["lighter"] = most->lighter;
    out["lighter"]["bytes"] = bytes(most->lighter.value("memory_per_input_byte", most->memory_per_input_byte));
  }
  return out;
}

InputSet::Group& InputSet::group_for(const std::string& method, const nlohmann::json& args) {
  if (!finished_) throw QueryError("the analysis has not finished yet");
  if (groups_.empty()) throw QueryError("nothing was analyzed: no report to ask");
  int64_t index = query_args::integer(args, "report", -1, 0, static_cast<int64_t>(groups_.size()) - 1);
  if (index < 0) {
    for (auto& g : groups_) {
      const auto& m = g->handler ? g->handler->methods : std::vector<std::string>();
      if (std::find(m.begin(), m.end(), method) != m.end()) return *g;
    }
    if (method.rfind("compare.", 0) == 0) return *groups_.front();
    throw QueryError("no report of this analysis answers '" + method + "'");
  }
  Group& g = *groups_[static_cast<size_t>(index)];
  if (g.broken) throw QueryError("the " + g.format + " analyzer failed on this input; its report cannot be asked");
  return g;
}

nlohmann::json InputSet::side_of(Group& g) {
  try {
    return g.analyzer->query("compare.side", nlohmann::json::object());
  } catch (const QueryError&) {
    return g.report;  // the analyzer compares by its report
  }
}

nlohmann::json InputSet::compare_side(Group& g, bool whole_set) {
  if (!g.handler || !g.handler->compare)
    throw QueryError("a " + (g.handler ? g.handler->title : g.format) + " report has no comparison");
  std::vector<size_t> members;
  for (size_t i = 0; i < groups_.size(); ++i) {
    const Group& o = *groups_[i];
    bool same_family = o.handler && o.handler->compare && o.handler->compare_family == g.handler->compare_family;
    if (&o == &g || (whole_set && same_family && !o.broken)) members.push_back(i);
  }
  nlohmann::json out = {{"format", g.format}, {"family", g.handler->compare_family}, {"reports", members}};
  if (members.size() == 1) {
    out["side"] = side_of(g);
    return out;
  }
  if (!g.handler->sum_sides) {
    out["side"] = side_of(g);
    out["reports"] = {members[0]};
    out["not_summed"] = "only the first of " + std::to_string(members.size()) + " " + g.handler->title +
                        " reports is compared: reports of this kind are not summed";
    return out;
  }
  std::vector<nlohmann::json> sides;
  for (size_t i : members) {
    Group& m = *groups_[i];
    nlohmann::json side = side_of(m);
    if (side.is_object()) {
      side["format"] = m.format;
      side["inputs"] = m.member_paths;
      try {
        side["parts"] = m.analyzer->query("compare.parts", nlohmann::json::object());
      } catch (const QueryError&) {
      }
    }
    sides.push_back(std::move(side));
  }
  out["side"] = g.handler->sum_sides(sides);
  for (size_t i : members)
    if (groups_[i]->format != g.format) out["format"] = "mixed";
  return out;
}

nlohmann::json InputSet::query(const std::string& method, const nlohmann::json& args) {
  if (method == "session.prepare") {
    if (!finished_) throw QueryError("the analysis has not finished yet");
    for (auto& g : groups_)
      if (g->analyzer && !g->broken) g->analyzer->prepare();
    return nlohmann::json::object();
  }
  if (method == "session.reports") {
    nlohmann::json out = nlohmann::json::array();
    for (size_t i = 0; i < groups_.size(); ++i) {
      const Group& g = *groups_[i];
      const FormatHandler* h = g.handler;
      out.push_back({{"report", i},
                     {"format", g.format},
                     {"title", h ? h->title : g.format},
                     {"inputs", g.member_paths},
                     {"methods", h ? h->methods : std::vector<std::string>()},
                     {"compare_family", h ? h->compare_family : ""}});
    }
    return out;
  }
  if (method == "session.tables" || method == "table.rows") {
    if (!finished_) throw QueryError("the analysis has not finished yet");
    if (method == "session.tables") {
      nlohmann::json out = nlohmann::json::array();
      for (const auto& s : tables()) out.push_back(schema_json(s));
      return out;
    }
    std::string name = query_args::string(args, "name");
    tables::JsonRows rows(static_cast<uint64_t>(query_args::integer(args, "offset", 0)),
                          static_cast<uint64_t>(query_args::integer(args, "limit", 1000, 0, 100000)));
    if (!write_table(name, rows)) throw QueryError("no table named '" + name + "' (session.tables lists them)");
    return rows.take();
  }
  Group& g = group_for(method, args);
  const bool whole_set = query_args::boolean(args, "set", false);
  if (method == "compare.side") return compare_side(g, whole_set);
  if (method == "compare.with") {
    const nlohmann::json& other = query_args::required(args, "other");
    if (!other.is_object() || !other.contains("side") || !other.contains("family"))
      throw QueryError("argument 'other' must be another analysis's compare.side answer");
    nlohmann::json mine = compare_side(g, whole_set);
    if (other["family"] != mine["family"])
      throw QueryError("a " + other.value("format", std::string("?")) + " report cannot be compared with a " +
                       g.format + " report");
    bool other_is_b = query_args::string(args, "other_is", "a") == "b";
    nlohmann::json out =
        other_is_b ? g.handler->compare(mine["side"], other["side"]) : g.handler->compare(other["side"], mine["side"]);
    // a side compared by its first report only says so beside that side's figures
    for (const nlohmann::json* s : {&other, static_cast<const nlohmann::json*>(&mine)}) {
      const char* label = (s == &other) != other_is_b ? "a" : "b";
      if (s->contains("not_summed") && out.is_object() && (!out.contains(label) || out[label].is_object()))
        out[label]["not_summed"] = (*s)["not_summed"];
    }
    return out;
  }
  return g.analyzer->query(method, args);
}

std::vector<tables::Schema> InputSet::tables() const {
  std::vector<tables::Schema> out;
  for (const auto& g : groups_) {
    if (g->broken || !finished_) continue;
    for (auto& schema : g->analyzer->tables()) {
      bool seen = false;
      for (const auto& s : out) seen = seen || s.name == schema.name;
      if (!seen) out.push_back(std::move(schema));
    }
  }
  return out;
}

bool InputSet::write_table(const std::string& name, tables::RowSink& sink) {
  std::vector<tables::Schema> all = tables();
  const tables::Schema* schema = nullptr;
  for (const auto& s : all)
    if (s.name == name) schema = &s;
  if (!schema) return false;
  sink.begin(*schema);
  for (auto& g : groups_)
    if (!g->broken) g->analyzer->write_table(name, sink);
  sink.end();
  return true;
}

int InputSet::exit_status(const nlohmann::json& document) {
  const auto& reports = document.at("reports");
  return reports.empty() ? 3 : 0;
}

}  // namespace gcscope
