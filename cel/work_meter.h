#pragma once
// The work one evaluation may do, in units of about one byte scanned or one element
// visited. Iterations and arena bytes bound how many steps an expression takes and how
// much it builds, but not what each step costs: a string doubled into 256 KiB by nested
// map() and searched on every step of a 100,000-step loop would run for minutes. Every
// operation whose cost grows with its operands charges the meter; once spent, the
// evaluation ends in an error (the ad is not eligible), never in a stalled core.
#include <cstdint>

namespace cel {

class WorkMeter {
 public:
  explicit WorkMeter(uint64_t units_max) : units_max_(units_max) {}

  void reset() { units_used_ = 0; }
  // False once the total passes the bound (and from then on).
  bool charge(uint64_t units) {
    units_used_ += units;
    return units_used_ <= units_max_;
  }
  bool spent() const { return units_used_ > units_max_; }
  uint64_t used() const { return units_used_; }

 private:
  uint64_t units_max_;
  uint64_t units_used_ = 0;
};

}  // namespace cel
