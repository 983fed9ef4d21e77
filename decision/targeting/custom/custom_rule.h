#pragma once
// The `custom` targeting rule for one core: evaluates the ad's compiled CEL program over
// the request's variables. The ad is eligible only when the result is true; false, an
// error (a missing key, an overflow, the evaluator's limits) or a non-bool is not.
//
// A program's result depends only on the request and the placement, not on the ad (CEL
// has no side effects and no clock), so each program runs at most once per placement
// however many ads share it: results are kept per program, stamped with the placement
// they were computed for.
#include <cstdint>
#include <vector>

#include "decision/request/decision_request.h"
#include "cel/evaluator.h"
#include "decision/targeting/custom/custom_programs.h"
#include "decision/targeting/custom/request_variables.h"

namespace decision::targeting {

// An ad's `custom` rule run for explaining a decision (decision/explain/), not for deciding.
struct CustomEvaluation {
  enum class Status : uint8_t { kNoRule, kUncompiled, kEvaluated };
  Status status = Status::kNoRule;
  const cel::Program* program = nullptr;  // kEvaluated
  // kEvaluated: the result; it and what it points into live until the rule's next
  // evaluation.
  cel::Value value;
};

class CustomRule {
 public:
  // programs: the served catalog's; it must outlive the request.
  void begin_request(const request::DecisionRequest& request, const CustomPrograms& programs);
  void begin_placement(const request::Targeting& targeting);

  // Whether the custom rule of the ad at ad_index holds; true when it has none.
  bool holds(uint32_t ad_index);
  // The rule of the ad at ad_index run again for the current placement, its value kept:
  // neither counted in evaluations()/errors() nor kept for holds().
  CustomEvaluation evaluate_for_explaining(uint32_t ad_index);

  // Since construction, for tests and metrics: evaluations run (results kept for a
  // placement not counted again), and those that ended in an error (a missing key, an
  // overflow, a limit): a rule that errs on most requests is an operator's bug to see.
  uint64_t evaluations() const { return evaluations_; }
  uint64_t errors() const { return errors_; }

 private:
  void next_stamp();

  const CustomPrograms* programs_ = nullptr;
  RequestVariables variables_;
  cel::Evaluator evaluator_;
  // Per program: the placement stamp its result was computed under, and the result. Sized
  // to the largest catalog seen, so it grows only after a catalog swap.
  std::vector<uint32_t> result_stamp_;
  std::vector<uint8_t> result_holds_;
  uint32_t stamp_ = 0;
  uint64_t evaluations_ = 0;
  uint64_t errors_ = 0;
};

}  // namespace decision::targeting
