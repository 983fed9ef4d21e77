#include "decision/targeting/custom/custom_rule.h"

#include <algorithm>

namespace decision::targeting {

void CustomRule::begin_request(const request::DecisionRequest& request,
                               const CustomPrograms& programs) {
  programs_ = &programs;
  if (result_stamp_.size() < programs.size()) {
    result_stamp_.resize(programs.size(), 0);
    result_holds_.resize(programs.size(), 0);
  }
  variables_.begin_request(request);
  next_stamp();  // results of the last request (perhaps of another catalog) are void
}

void CustomRule::begin_placement(const request::Targeting& targeting) {
  variables_.begin_placement(targeting);
  next_stamp();
}

void CustomRule::next_stamp() {
  if (++stamp_ == 0) {  // wrapped: forget every result rather than trust an old stamp
    std::fill(result_stamp_.begin(), result_stamp_.end(), 0);
    stamp_ = 1;
  }
}

bool CustomRule::holds(uint32_t ad_index) {
  const uint32_t index = programs_ == nullptr ? CustomPrograms::kNone : programs_->program_of(ad_index);
  if (index == CustomPrograms::kNone) return true;
  if (index == CustomPrograms::kUncompiled) return false;
  if (result_stamp_[index] == stamp_) return result_holds_[index] != 0;
  const cel::Value result =
      evaluator_.evaluate(programs_->program(index), variables_.values(programs_->variables(index)));
  ++evaluations_;
  if (result.is_error()) ++errors_;
  const bool holds = cel::holds(result);
  result_stamp_[index] = stamp_;
  result_holds_[index] = holds ? 1 : 0;
  return holds;
}

CustomEvaluation CustomRule::evaluate_for_explaining(uint32_t ad_index) {
  CustomEvaluation out;
  const uint32_t index = programs_ == nullptr ? CustomPrograms::kNone : programs_->program_of(ad_index);
  if (index == CustomPrograms::kNone) return out;
  if (index == CustomPrograms::kUncompiled) {
    out.status = CustomEvaluation::Status::kUncompiled;
    return out;
  }
  out.status = CustomEvaluation::Status::kEvaluated;
  out.program = &programs_->program(index);
  out.value = evaluator_.evaluate(*out.program, variables_.values(programs_->variables(index)));
  return out;
}

}  // namespace decision::targeting
