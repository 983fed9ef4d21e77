#include "tests/support/json_golden.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace test_support {

namespace {
bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The index just past the string that starts with the quote at `at`.
size_t end_of_string(std::string_view text, size_t at) {
  size_t i = at + 1;
  while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
  return i < text.size() ? i + 1 : text.size();
}

void new_line(std::string& out, int depth) {
  out.push_back('\n');
  out.append(static_cast<size_t>(depth) * 2, ' ');
}
}  // namespace

std::string laid_out_json(std::string_view compact) {
  std::string out;
  int depth = 0;
  for (size_t i = 0; i < compact.size();) {
    const char c = compact[i];
    if (c == '"') {
      const size_t end = end_of_string(compact, i);
      out.append(compact.substr(i, end - i));
      i = end;
      continue;
    }
    const bool opens = c == '{' || c == '[';
    if (opens && i + 1 < compact.size() && compact[i + 1] == (c == '{' ? '}' : ']')) {
      out.append(compact.substr(i, 2));  // {} and [] stay whole
      i += 2;
      continue;
    }
    if (c == '}' || c == ']') new_line(out, --depth);
    out.push_back(c);
    if (opens) new_line(out, ++depth);
    if (c == ',') new_line(out, depth);
    if (c == ':') out.push_back(' ');
    ++i;
  }
  out.push_back('\n');
  return out;
}

std::string compact_json(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '"') {
      const size_t end = end_of_string(text, i);
      out.append(text.substr(i, end - i));
      i = end;
    } else {
      if (!is_space(text[i])) out.push_back(text[i]);
      ++i;
    }
  }
  return out;
}

void ExpectJsonGolden(const std::string& path, std::string_view body) {
  ASSERT_EQ(compact_json(body), body) << "the body carries whitespace between tokens, which a layout would hide";
  const std::string laid_out = laid_out_json(body);
  if (std::getenv("DECISIOND_UPDATE_GOLDEN") != nullptr) std::ofstream(path, std::ios::binary) << laid_out;
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden file " << path;
  std::stringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(laid_out, expected.str()) << "golden file " << path;
}

}  // namespace test_support
