// One list of error codes: docs/errors.md and http/error_codes.h name the same codes, so a
// code added to one and not the other fails here rather than in a client. Both are read
// as text from the source tree: the header's list is its constants, the doc's every code
// it mentions (errors 1xxxx, warnings 2000x).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace http {
namespace {

std::string read_source(const std::string& relative_path) {
  std::ifstream file(std::string(DECISIOND_SOURCE_DIR) + "/" + relative_path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::set<int> codes_matching(const std::string& text, const std::regex& pattern) {
  std::set<int> codes;
  for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it) {
    codes.insert(std::stoi((*it)[1].str()));
  }
  return codes;
}

TEST(ErrorCodes, TheDocAndTheHeaderListTheSameCodes) {
  const std::string doc = read_source("docs/errors.md");
  const std::string header = read_source("http/error_codes.h");
  ASSERT_FALSE(doc.empty());
  ASSERT_FALSE(header.empty());
  const std::set<int> in_doc = codes_matching(doc, std::regex(R"(\b(1\d{4}|2000\d)\b)"));
  const std::set<int> in_header = codes_matching(header, std::regex(R"(inline constexpr int k\w+ = (\d+);)"));
  EXPECT_EQ(in_doc, in_header);
}

}  // namespace
}  // namespace http
