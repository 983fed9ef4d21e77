#pragma once
// Golden files of JSON bodies, byte for byte yet reviewable: the file holds the body laid
// out one member per line (whitespace added only between tokens), so a regenerated golden
// reads as a diff of members; the comparison is of that layout, which is a function of the
// exact bytes, and the body itself must carry no whitespace between tokens, so nothing is
// lost to the layout. DECISIOND_UPDATE_GOLDEN=1 rewrites the file from the body.
#include <string>
#include <string_view>

namespace test_support {

// Two-space indentation, a member or element per line, "key": value; strings, numbers and
// literals kept byte for byte; {} and [] stay whole. Input must be compact JSON.
std::string laid_out_json(std::string_view compact);
// The same text without any whitespace between tokens (strings untouched).
std::string compact_json(std::string_view text);

// Fails the current test unless `body` is compact and its layout is the file's content.
void ExpectJsonGolden(const std::string& path, std::string_view body);

}  // namespace test_support
