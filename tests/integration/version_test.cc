// decisiond --version (issue 13): the version, the commit and the build date on the first
// line, then the libraries the binary runs with, each saying where its version comes
// from; exit 0 and nothing else done: no catalog read, no state directory created.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace integration {
namespace {

struct ProgramRun {
  int status = -1;
  std::string out;
  std::string err;
};

// Runs the binary by the shell in an empty directory of its own, with an empty
// environment (no DECISIOND_* variable of the test's), standard error into a file the
// test reads back.
ProgramRun run_in(const std::filesystem::path& dir, const std::string& args) {
  const std::string command = "cd '" + dir.string() + "' && env -i '" DECISIOND_BINARY "' " + args + " 2>stderr.txt";
  ProgramRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> chunk;
  size_t n;
  while ((n = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0) run.out.append(chunk.data(), n);
  const int raw = ::pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err(dir / "stderr.txt");
  run.err.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
  return run;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class VersionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/decisiond-version-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(VersionTest, PrintsVersionCommitAndBuildDateThenEveryLibraryAndExitsZero) {
  const ProgramRun run = run_in(dir_, "--version");
  EXPECT_EQ(run.status, 0) << run.err;
  const std::vector<std::string> lines = lines_of(run.out);
  ASSERT_GE(lines.size(), 2u) << run.out;
  // A build outside a git checkout says "commit unknown".
  EXPECT_TRUE(std::regex_match(lines[0], std::regex(R"(decisiond \d+\.\d+\.\d+ \(commit ([0-9a-f]{7,}(-dirty)?|unknown), built \d{4}-\d{2}-\d{2}\))")))
      << lines[0];
  EXPECT_EQ(lines[1], "libraries:");
  const std::regex library(R"(  (\S+) (\S.*) \((runtime|compile time|built into the binary)(.*)\))");
  std::vector<std::string> names;
  for (size_t i = 2; i < lines.size(); ++i) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(lines[i], m, library)) << lines[i];
    EXPECT_NE(m[2].str(), "unknown") << lines[i];
    names.push_back(m[1].str());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"liburing", "llhttp", "simdjson", "OpenSSL", "abseil", "jemalloc",
                                             "libmaxminddb", "re2", "libgcrypt", "xxhash"}));
}

TEST_F(VersionTest, DoesNothingElseNoStateDirectoryNoCatalogNoStderr) {
  // A catalog that does not exist would stop a start with exit 2; --version never reads it.
  const ProgramRun run = run_in(dir_, "--version --catalog=/nonexistent/catalog.json --state-dir=./state");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "state"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "var"));
  EXPECT_EQ(run.err, "");
}

TEST_F(VersionTest, UsageNamesTheVersionFlag) {
  const ProgramRun run = run_in(dir_, "--help");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("--version"), std::string::npos) << run.out.substr(0, 200);
}

}  // namespace
}  // namespace integration
