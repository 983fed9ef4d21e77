#pragma once
// A reader and a request to read into, and matchers on the errors.
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "decision/request/request_reader.h"
#include "gtest/gtest.h"

namespace decision::request {

struct Error {
  int code;
  std::string field;
  bool operator==(const Error&) const = default;
};

inline std::ostream& operator<<(std::ostream& out, const Error& e) {
  return out << "{" << e.code << ", \"" << e.field << "\"}";
}

inline ReadOptions v2025_11_01() { return ReadOptions{true, true}; }
inline ReadOptions v2025_01_01() { return ReadOptions{false, false}; }

class ReaderTest : public ::testing::Test {
 protected:
  ReadResult read(std::string_view body, ReadOptions options = v2025_11_01()) {
    result_ = reader_.read(body, options, *request_);
    return result_;
  }

  // The (code, field) of each error of the last read, in order.
  std::vector<Error> errors() const {
    std::vector<Error> out;
    for (const http::ErrorItem& e : result_.errors) out.push_back({e.code, std::string(e.field)});
    return out;
  }

  // Reads a body that must be refused with exactly one 422 error.
  Error only_error(std::string_view body, ReadOptions options = v2025_11_01()) {
    const ReadResult result = read(body, options);
    EXPECT_EQ(result.status, ReadStatus::kInvalidRequest) << body;
    EXPECT_EQ(result.errors.size(), 1u) << body;
    return result.errors.empty() ? Error{0, ""} : errors().front();
  }

  const DecisionRequest& request() const { return *request_; }
  const PlacementRequest& placement(size_t i = 0) const { return request_->placements()[i]; }

  RequestReader reader_;
  std::unique_ptr<DecisionRequest> request_ = std::make_unique<DecisionRequest>();
  ReadResult result_;
};

// A request whose first placement carries `fields` after its key.
inline std::string with_placement_fields(std::string_view fields) {
  return std::string(R"({"placements":[{"key":"home_top",)") + std::string(fields) + "}]}";
}

// A request whose first placement's targeting is `targeting`.
inline std::string with_targeting(std::string_view targeting) {
  return with_placement_fields(std::string(R"("targeting":)") + std::string(targeting));
}

// A request whose user is `user`.
inline std::string with_user(std::string_view user) {
  return std::string(R"({"placements":[{"key":"home_top"}],"user":)") + std::string(user) + "}";
}

}  // namespace decision::request
