// JSONTestSuite (nst/JSONTestSuite, test_parsing/): every file, read as a whole body and
// embedded in an ignored field. n_ files must be refused as not JSON (10001); y_ files
// are JSON but never a valid request (not an object: 10001; an object without placements:
// 10010); i_ files may go either way but must not crash. The reader's verdict on JSON
// validity must match simdjson::dom's, the reference parser.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "reader_fixture.h"
#include "simdjson.h"

namespace decision::request {
namespace {

struct SuiteFile {
  std::string name;
  std::string content;
};

std::vector<SuiteFile> suite_files() {
  std::vector<SuiteFile> files;
  for (const auto& entry : std::filesystem::directory_iterator(JSON_TEST_SUITE_DIR)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files.push_back({entry.path().filename().string(),
                     std::string(std::istreambuf_iterator<char>(in), {})});
  }
  std::sort(files.begin(), files.end(),
            [](const SuiteFile& a, const SuiteFile& b) { return a.name < b.name; });
  return files;
}

bool dom_accepts(const std::string& json) {
  simdjson::dom::parser parser(simdjson::SIMDJSON_MAXSIZE_BYTES);
  if (parser.allocate(json.size() + 1, kMaxJsonDepth) != simdjson::SUCCESS) return false;
  simdjson::dom::element root;
  return parser.parse(json).get(root) == simdjson::SUCCESS;
}

// The reader's verdict: was the body JSON (whatever else was wrong with it)?
bool reader_accepts_json(const ReadResult& result) {
  if (result.status != ReadStatus::kInvalidJson) return true;
  return result.errors[0].message == "body must be a JSON object";
}

using JsonTestSuite = ReaderTest;

TEST_F(JsonTestSuite, EveryFileGivesTheExpectedOutcome) {
  const std::vector<SuiteFile> files = suite_files();
  ASSERT_GT(files.size(), 300u) << "JSONTestSuite not found at " << JSON_TEST_SUITE_DIR;
  int y_files = 0, y_not_object = 0, y_no_placements = 0;
  int n_files = 0, n_refused = 0;
  int i_files = 0, i_refused = 0, i_json = 0;
  for (const SuiteFile& file : files) {
    SCOPED_TRACE(file.name);
    const ReadResult result = read(file.content);
    ASSERT_NE(result.status, ReadStatus::kOk);
    const char kind = file.name[0];
    if (kind == 'n') {
      ++n_files;
      EXPECT_EQ(errors(), (std::vector<Error>{{10001, ""}}));
      n_refused += result.status == ReadStatus::kInvalidJson;
    } else if (kind == 'y') {
      ++y_files;
      if (result.status == ReadStatus::kInvalidJson) {
        EXPECT_EQ(result.errors[0].message, "body must be a JSON object");
        ++y_not_object;
      } else {
        EXPECT_EQ(errors(), (std::vector<Error>{{10010, "placements"}}));
        ++y_no_placements;
      }
    } else {
      ++i_files;
      if (result.status == ReadStatus::kInvalidJson) {
        ++i_refused;
        i_json += reader_accepts_json(result);
      } else {
        ++i_json;
      }
    }
  }
  std::printf("JSONTestSuite: %zu files\n", files.size());
  std::printf("  y_: %d files: %d not an object (400 10001), %d without placements (422 10010)\n",
              y_files, y_not_object, y_no_placements);
  std::printf("  n_: %d files: %d refused as 400 10001\n", n_files, n_refused);
  std::printf("  i_: %d files: %d read as JSON, %d refused as not JSON, none crashed\n", i_files,
              i_json, i_files - i_json);
  EXPECT_EQ(n_refused, n_files);
  EXPECT_EQ(y_not_object + y_no_placements, y_files);
}

TEST_F(JsonTestSuite, JsonVerdictMatchesSimdjsonDom) {
  int compared = 0;
  for (const SuiteFile& file : suite_files()) {
    if (file.name[0] == 'i') continue;  // implementation-defined: either verdict is right
    SCOPED_TRACE(file.name);
    EXPECT_EQ(reader_accepts_json(read(file.content)), dom_accepts(file.content));
    ++compared;
  }
  EXPECT_GT(compared, 250);
}

// Inside fields nobody reads, a y_ file must read as a valid request and an n_ file as not
// JSON, wherever it sits: the single validating pass checks what it skips.
TEST_F(JsonTestSuite, EmbeddedInIgnoredFieldsEveryVerdictMatchesSimdjsonDom) {
  const std::string wrappers[][2] = {
      {R"({"placements":[{"key":"k"}],"device":{"x":)", "}}"},
      {R"({"unknown":)", R"(,"placements":[{"key":"k"}]})"},
      {R"({"placements":[{"key":"k","targeting":{"weather":)", "}}]}"},
      {R"({"placements":[{"key":"k","format":)", "}]}"},
  };
  int compared = 0, valid = 0;
  for (const SuiteFile& file : suite_files()) {
    if (file.name[0] == 'i') continue;
    if (file.content.starts_with("\xEF\xBB\xBF")) continue;  // a BOM is only skipped up front
    for (const auto& wrapper : wrappers) {
      SCOPED_TRACE(file.name + " in " + wrapper[0]);
      const std::string body = wrapper[0] + file.content + wrapper[1];
      const ReadResult result = read(body, v2025_01_01());
      const bool dom = dom_accepts(body);
      EXPECT_EQ(reader_accepts_json(result), dom);
      if (dom) {
        EXPECT_TRUE(result.ok()) << ::testing::PrintToString(errors());
        ++valid;
      }
      ++compared;
    }
  }
  std::printf("embedded: %d bodies compared with simdjson::dom, %d valid requests\n", compared,
              valid);
}

}  // namespace
}  // namespace decision::request
