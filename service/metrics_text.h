#pragma once
// Pieces of the Prometheus text exposition format (version 0.0.4) that need care.
#include <string>
#include <string_view>

namespace service {

// A label value as the format wants it between its quotes: backslash, double quote and
// line feed escaped (\\, \", \n), every other byte as it is (values are UTF-8: catalog
// keys and revisions come from JSON). JSON escaping would not do: \uXXXX and \t are not
// escapes the format knows, and Prometheus refuses the page.
void append_label_value(std::string& out, std::string_view value);

}  // namespace service
