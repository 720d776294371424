#include "file_walk.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace gcscope::cli {

std::vector<std::string> expand_paths(const std::vector<std::string>& paths, std::vector<PathError>& errors) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::error_code ec;
    fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) {
      errors.push_back({p, "no such file or directory"});
      continue;
    }
    if (fs::is_directory(st)) {
      std::vector<std::string> found;
      for (fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
           !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec)) found.push_back(it->path().generic_string());
      }
      if (ec) errors.push_back({p, "cannot list directory: " + ec.message()});
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else {
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace gcscope::cli
