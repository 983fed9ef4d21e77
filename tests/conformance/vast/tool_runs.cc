#include "tests/conformance/vast/tool_runs.h"

#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace conformance::vast {

ScratchDir::ScratchDir() {
  char pattern[] = "/tmp/decisiond-vast-XXXXXX";
  const char* made = ::mkdtemp(pattern);
  path_ = made != nullptr ? made : "";
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
}

std::string ScratchDir::write(const std::string& name, const std::string& text) const {
  const std::string file = path_ + "/" + name;
  std::ofstream(file, std::ios::binary) << text;
  return file;
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out.append("'\\''");
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

CommandResult run_command(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen(("(" + command + ") 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[65536];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::vector<FileRun> run_per_file(const std::string& command, const std::vector<std::string>& files) {
  std::vector<FileRun> runs(files.size());
  if (files.empty()) return runs;
  // Each file's results beside it: <file>.out, .err, .rc (the paths are mkdtemp's, no
  // quoting needed inside the list; xargs passes each line as one argument).
  std::string list;
  for (const std::string& file : files) list.append(file).push_back('\n');
  const std::string list_path = files.front() + ".list";
  std::ofstream(list_path, std::ios::binary) << list;
  const std::string script = command + " \"$1\" > \"$1.out\" 2> \"$1.err\"; echo $? > \"$1.rc\"";
  run_command("xargs -d '\\n' -P 2 -n 1 -a " + shell_quote(list_path) + " sh -c " + shell_quote(script) + " sh");
  for (size_t i = 0; i < files.size(); ++i) {
    runs[i].out = read_text_file(files[i] + ".out");
    runs[i].err = read_text_file(files[i] + ".err");
    const std::string rc = read_text_file(files[i] + ".rc");
    runs[i].exit_code = rc.empty() ? -1 : std::atoi(rc.c_str());
  }
  return runs;
}

}  // namespace conformance::vast
