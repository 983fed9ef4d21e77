// Fuzz driver for decision::request::RequestReader: the input is a POST /v1/decision body,
// read under both versions' options (2025-01-01, then 2025-11-01 with placements[].format
// and targeting.destination understood) by one reused reader, as a core reuses its own.
// Invariants, any break aborts:
//   - the outcome is ok / 400 / 422 / 500; a 400 is one error 10001; a 422 lists at least
//     one error and every error names a field with a code of 10010..10021;
//   - an ok request has 1..kMaxPlacements placements, each with a count of 1..10;
//   - reading the same body again gives the same outcome and errors (nothing of one read
//     leaks into the next).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "decision/request/request_reader.h"

namespace {

namespace request = decision::request;

void check(bool ok, const char* invariant) {
  if (!ok) {
    std::fprintf(stderr, "request_reader_fuzz: invariant broken: %s\n", invariant);
    std::abort();
  }
}

// The outcome as text, to compare two reads.
std::string read_checked(request::RequestReader& reader, std::string_view body,
                         const request::ReadOptions& options, request::DecisionRequest& out) {
  const request::ReadResult result = reader.read(body, options, out);
  const int status = result.http_status();
  check(status == 200 || status == 400 || status == 422 || status == 500, "status is 200/400/422/500");
  std::string outcome = std::to_string(status);
  if (status == 400) check(result.errors.size() == 1 && result.errors[0].code == 10001, "a 400 is one 10001");
  if (status == 422) {
    check(!result.errors.empty(), "a 422 lists an error");
    for (const auto& e : result.errors) {
      check(!e.field.empty(), "a 422 error names its field");
      check(e.code >= 10010 && e.code <= 10021, "a 422 error's code is 10010..10021");
    }
  }
  for (const auto& e : result.errors) {
    outcome.append(" ").append(std::to_string(e.code)).append(" ").append(e.field).append(" ").append(e.message);
  }
  if (result.ok()) {
    check(!out.placements().empty() && out.placements().size() <= request::kMaxPlacements,
          "an ok request has 1..kMaxPlacements placements");
    for (const auto& p : out.placements()) {
      check(p.count >= 1 && p.count <= 10, "an ok placement's count is 1..10");
      outcome.append(" ").append(p.key).append("x").append(std::to_string(p.count));
    }
  }
  return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static request::RequestReader reader;
  static request::DecisionRequest out;
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  for (const bool newer : {false, true}) {
    request::ReadOptions options;
    options.format_understood = newer;
    options.destination_understood = newer;
    const std::string first = read_checked(reader, body, options, out);
    const std::string again = read_checked(reader, body, options, out);
    check(first == again, "reading a body again gives the same outcome");
  }
  return 0;
}
