#pragma once
// Running the outside tools the issue names (xmllint, node read_vast.mjs) over documents
// written to a scratch directory: xmllint once over every file, node once per file, two at a
// time (the machine has two CPUs).
#include <string>
#include <vector>

namespace conformance::vast {

// A private directory under /tmp, removed with the object.
class ScratchDir {
 public:
  ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir();
  // Writes text to name inside the directory; returns the file's path.
  std::string write(const std::string& name, const std::string& text) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// sh -c command, with stderr folded into stdout.
CommandResult run_command(const std::string& command);

// 'text' for sh.
std::string shell_quote(const std::string& text);

struct FileRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// command + " " + file for each file, at most two at a time; results in files' order.
std::vector<FileRun> run_per_file(const std::string& command, const std::vector<std::string>& files);

std::string read_text_file(const std::string& path);

}  // namespace conformance::vast
