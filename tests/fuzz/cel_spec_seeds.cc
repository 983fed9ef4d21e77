// Writes every expression of the CEL spec's conformance files (../shared/fixtures/cel-spec,
// read with the conformance suite's textproto reader) as a seed of cel_fuzz, one file each:
//   cel_spec_seeds <cel-spec dir> <out dir>
// The fixtures stay where they are; their expressions are seeds, not corpus files.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/conformance/cel/textproto.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: cel_spec_seeds <cel-spec dir> <out dir>\n");
    return 2;
  }
  const std::filesystem::path out = argv[2];
  std::filesystem::create_directories(out);
  size_t written = 0;
  for (const auto& entry : std::filesystem::directory_iterator(argv[1])) {
    if (entry.path().extension() != ".textproto") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const auto document = conformance::parse_textproto(text.str());
    if (!document.ok()) {
      std::fprintf(stderr, "%s: %s\n", entry.path().c_str(), std::string(document.status().message()).c_str());
      return 1;
    }
    size_t n = 0;
    for (const conformance::TextField* section : document->find_all("section")) {
      for (const conformance::TextField* test : section->message.find_all("test")) {
        const std::string_view expr = test->message.scalar("expr");
        if (expr.empty()) continue;
        std::ofstream seed(out / (entry.path().stem().string() + "_" + std::to_string(n++)), std::ios::binary);
        seed.write(expr.data(), static_cast<std::streamsize>(expr.size()));
        ++written;
      }
    }
  }
  std::printf("wrote %zu CEL seeds to %s\n", written, out.c_str());
  return written > 0 ? 0 : 1;
}
