// Fuzz driver for decision::request::RequestReader: any body, under both versions' read
// options. Invariants: the outcome is one of ok / 400 / 422 / 500, a 422 lists at least
// one error and every error names a field, and an ok request respects its bounds.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "decision/request/request_reader.h"

namespace {
void check(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static decision::request::RequestReader reader;
  static decision::request::DecisionRequest request;
  decision::request::ReadOptions options;
  options.format_understood = (data[0] & 1) != 0;  // 2025-11-01 when set
  options.destination_understood = options.format_understood;
  const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);
  const decision::request::ReadResult result = reader.read(body, options, request);
  const int status = result.http_status();
  check(status == 200 || status == 400 || status == 422 || status == 500);
  if (status == 422) {
    check(!result.errors.empty());
    for (const auto& e : result.errors) check(!e.field.empty() && e.code >= 10010 && e.code <= 10021);
  }
  if (result.ok()) {
    check(!request.placements().empty() && request.placements().size() <= decision::request::kMaxPlacements);
    for (const auto& p : request.placements()) check(p.count >= 1 && p.count <= 10);
  }
  return 0;
}
