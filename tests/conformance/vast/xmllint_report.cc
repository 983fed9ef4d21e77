#include "tests/conformance/vast/xmllint_report.h"

#include <string_view>

#include "tests/conformance/vast/tool_runs.h"

namespace conformance::vast {
namespace {

constexpr std::string_view kAnyUriSuffix = "' is not a valid value of the atomic type 'xs:anyURI'.";

XmllintComplaint complaint_of(std::string line) {
  XmllintComplaint complaint;
  // ... Element '{http://www.iab.com/VAST}MediaFile': 'value' is not a valid value ...
  const size_t element = line.find("Element '{");
  if (element != std::string::npos) {
    const size_t name = line.find('}', element);
    const size_t name_end = name == std::string::npos ? name : line.find('\'', name);
    if (name_end != std::string::npos) {
      complaint.element = line.substr(name + 1, name_end - name - 1);
      const std::string_view value_prefix = "': '";
      if (line.compare(name_end, value_prefix.size(), value_prefix) == 0 && line.size() >= kAnyUriSuffix.size() &&
          line.compare(line.size() - kAnyUriSuffix.size(), kAnyUriSuffix.size(), kAnyUriSuffix) == 0) {
        const size_t value = name_end + value_prefix.size();
        complaint.any_uri_value = line.substr(value, line.size() - kAnyUriSuffix.size() - value);
      }
    }
  }
  complaint.line = std::move(line);
  return complaint;
}

}  // namespace

std::map<std::string, XmllintVerdict> run_xmllint(const std::string& xsd, const std::vector<std::string>& files) {
  std::map<std::string, XmllintVerdict> verdicts;
  std::string command = "xmllint --noout";
  if (!xsd.empty()) command += " --schema " + shell_quote(xsd);
  for (const std::string& file : files) {
    command += " " + shell_quote(file);
    verdicts[file];
  }
  const CommandResult result = run_command(command);
  size_t start = 0;
  while (start < result.output.size()) {
    size_t end = result.output.find('\n', start);
    if (end == std::string::npos) end = result.output.size();
    const std::string line = result.output.substr(start, end - start);
    start = end + 1;
    for (auto& [file, verdict] : verdicts) {
      if (line == file + " validates") {
        verdict.validates = true;
      } else if (line.rfind(file + ":", 0) == 0) {
        verdict.complaints.push_back(complaint_of(line.substr(file.size() + 1)));
      }
    }
  }
  for (auto& [file, verdict] : verdicts) {
    verdict.run_exit_code = result.exit_code;
    if (xsd.empty()) verdict.validates = verdict.complaints.empty() && result.exit_code == 0;
  }
  return verdicts;
}

}  // namespace conformance::vast
