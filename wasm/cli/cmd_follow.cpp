// `gcscope analyze --follow FILE`: follows a GC log as it grows. Each interval reads the bytes
// appended since the last one (pread from where reading stopped), feeds them to one live analysis
// (InputSet option "follow") and prints one JSON line: when, how much was read, the pause figures
// and what changed. A truncated or replaced file (FollowCursor) continues the set as its next member.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "commands.h"
#include "core/follow.h"
#include "core/input_set.h"
#include "input_loader.h"

namespace gcscope::cli {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
void on_interrupt(int) { g_interrupted = 1; }

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Reads [from, to) of the file at `fd` into `sink` in 8 MiB pieces; the bytes actually read.
template <typename Sink>
uint64_t read_range(int fd, uint64_t from, uint64_t to, Sink&& sink) {
  std::vector<char> buffer(std::min<uint64_t>(to - from, 8u << 20));
  uint64_t at = from;
  while (at < to) {
    const ssize_t n = ::pread(fd, buffer.data(), static_cast<size_t>(std::min<uint64_t>(buffer.size(), to - at)),
                              static_cast<off_t>(at));
    if (n <= 0) break;
    sink(buffer.data(), static_cast<size_t>(n));
    at += static_cast<uint64_t>(n);
  }
  return at - from;
}

// One interval: what was appended (or the rotated file's new content) into the set.
void read_appended(const std::string& path, InputSet& set, FollowCursor& cursor, bool& rotated) {
  rotated = false;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    if (fd >= 0) ::close(fd);
    return;  // between a rename and the new file's creation: nothing to read yet
  }
  std::string head(FollowCursor::kHeadBytes, '\0');
  const ssize_t got = ::pread(fd, &head[0], head.size(), 0);
  head.resize(got > 0 ? static_cast<size_t>(got) : 0);
  const FollowCursor::Step step = cursor.next(static_cast<uint64_t>(st.st_size), head);
  if (step.rotated) {
    rotated = true;
    set.end_file();
    set.begin_file(path);
    cursor.restart();
  }
  read_range(fd, step.from, step.to, [&](const char* data, size_t n) {
    set.feed(reinterpret_cast<const uint8_t*>(data), n);
    cursor.advance(std::string_view(data, n));
  });
  ::close(fd);
}

nlohmann::json interval_line(const nlohmann::json& doc, bool rotated, double elapsed) {
  const nlohmann::json figures = follow_figures(doc);
  const nlohmann::json& f = figures.empty() ? nlohmann::json::object() : figures[0];
  nlohmann::json line = {{"time", utc_now()},
                         {"elapsed_s", std::round(elapsed * 1000) / 1000},
                         {"bytes", doc.contains("follow") ? doc["follow"]["bytes"] : nlohmann::json(0)},
                         {"files", doc.contains("follow") ? doc["follow"]["files"] : nlohmann::json(1)},
                         {"rotated", rotated},
                         {"pauses", f.value("pauses", int64_t{0})},
                         {"pause_total_s", f.value("pause_total_s", 0.0)},
                         {"pause_max_s", f.value("pause_max_s", 0.0)},
                         {"events", f.value("events", int64_t{0})},
                         {"errors", doc["errors"].size()}};
  if (doc.contains("follow")) line["new"] = doc["follow"]["new"];
  if (!doc["reports"].empty()) line["format"] = doc["reports"][0]["format"];
  return line;
}

}  // namespace

int run_follow(const std::string& path, nlohmann::json options, const FollowLimits& limits) {
  options["follow"] = true;
  InputSet set(options);
  set.begin_file(path);
  FollowCursor cursor;
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  for (int64_t n = 1;; ++n) {
    bool rotated = false;
    read_appended(path, set, cursor, rotated);
    const nlohmann::json doc = set.finish();
    std::cout << interval_line(doc, rotated, elapsed()).dump() << std::endl;
    if (!doc.contains("follow")) {
      std::cerr << "gcscope: " << path
                << " was analyzed once but cannot be followed: only plain files (not .gz or .zip) "
                << "of formats that follow (JVM GC logs) can\n";
      return InputSet::exit_status(doc);
    }
    if (g_interrupted || (limits.max_intervals > 0 && n >= limits.max_intervals) ||
        (limits.follow_for_s > 0 && elapsed() >= limits.follow_for_s))
      break;
    const auto wake = std::chrono::steady_clock::now() + std::chrono::duration<double>(limits.interval_s);
    while (!g_interrupted && std::chrono::steady_clock::now() < wake)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (g_interrupted) {
      read_appended(path, set, cursor, rotated);  // what came until the stop, then one last line
      std::cout << interval_line(set.finish(), rotated, elapsed()).dump() << std::endl;
      break;
    }
  }
  return 0;
}

}  // namespace gcscope::cli
