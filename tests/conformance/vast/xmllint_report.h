#pragma once
// xmllint over many documents in one run, its output split back per document.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace conformance::vast {

struct XmllintComplaint {
  std::string line;     // as xmllint printed it, without the file name
  std::string element;  // local name of the element it is about, when it names one
  // For "'<value>' is not a valid value of the atomic type 'xs:anyURI'", the value.
  std::optional<std::string> any_uri_value;
};

struct XmllintVerdict {
  std::vector<XmllintComplaint> complaints;
  bool validates = false;  // with a schema: "<file> validates"
  int run_exit_code = -1;  // of the whole xmllint run (0: every file passed); 127: no xmllint
};

// xmllint --noout [--schema xsd] files...: the verdict of each file. An empty xsd checks
// well-formedness only (then validates means no complaint).
std::map<std::string, XmllintVerdict> run_xmllint(const std::string& xsd, const std::vector<std::string>& files);

}  // namespace conformance::vast
