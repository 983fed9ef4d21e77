#pragma once
// Reads a decision request with the real reader and evaluates expressions over its
// objects as a `custom` rule sees them.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "decision/request/request_reader.h"
#include "cel/compile.h"
#include "cel/evaluator.h"
#include "decision/targeting/custom/request_variables.h"

namespace decision::targeting {

class VariablesTest : public ::testing::Test {
 protected:
  static constexpr VariableSet kAll = 0b1111;

  void read(const std::string& body) {
    body_ = body;
    const request::ReadResult result = reader_.read(body_, {}, request_);
    ASSERT_TRUE(result.ok()) << body_;
    variables_.begin_request(request_);
    variables_.begin_placement(request_.placements()[0].targeting);
  }
  // Whether expression holds over placement 0 (or the current one).
  bool holds(std::string_view expression) {
    const absl::StatusOr<cel::Program> program = cel::compile(expression);
    EXPECT_TRUE(program.ok()) << program.status();
    if (!program.ok()) return false;
    const cel::Value result = evaluator_.evaluate(*program, variables_.values(kAll));
    if (result.is_error()) ADD_FAILURE() << expression << ": " << program->error_text(result);
    return cel::holds(result);
  }

  // Whether evaluating expression ends in an error (which leaves an ad ineligible).
  bool fails(std::string_view expression) {
    const absl::StatusOr<cel::Program> program = cel::compile(expression);
    EXPECT_TRUE(program.ok()) << program.status();
    return program.ok() && evaluator_.evaluate(*program, variables_.values(kAll)).is_error();
  }

  std::string body_;
  request::RequestReader reader_;
  request::DecisionRequest request_;
  RequestVariables variables_;
  cel::Evaluator evaluator_;
};

}  // namespace decision::targeting
