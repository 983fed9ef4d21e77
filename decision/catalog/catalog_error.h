#pragma once
// One reason a catalog is refused, with the JSON path of the value at fault.
#include <cstdint>
#include <optional>
#include <string>

namespace decision::catalog {

// Where in the text a JSON syntax error is: line and column count from 1, in bytes.
struct TextPosition {
  uint64_t offset = 0;
  uint32_t line = 1;
  uint32_t column = 1;
};

struct CatalogError {
  // JSON path of the value at fault: "ads[3].creatives[0].video.skipOffset",
  // "ads[0].creatives[0].contents.pt-BR[1].value"; a key other than [A-Za-z0-9_-]+ is
  // quoted: contents["fr FR"]. Empty for the document itself.
  std::string path;
  std::string message;
  std::optional<TextPosition> position;  // syntax errors only

  // "ads[3].weight: must be an integer in 1..1000000"
  std::string to_string() const { return path.empty() ? message : path + ": " + message; }
};

}  // namespace decision::catalog
