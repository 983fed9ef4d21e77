// The CEL engine's invariants stay checked in Release (runtime/check.h): a value is read as
// the kind it is, a list within its size, and only a program the checker built is run.
#include <gtest/gtest.h>

#include "cel/arena.h"
#include "cel/arena_collections.h"
#include "cel/evaluator.h"
#include "cel/program.h"
#include "cel/value.h"

namespace cel {
namespace {

TEST(CelChecksDeathTest, AValueIsReadOnlyAsItsOwnKind) {
  const Value number = Value::integer(7);
  EXPECT_DEATH((void)number.as_text(), "check failed");
  EXPECT_DEATH((void)number.as_list(), "check failed");
  EXPECT_DEATH((void)Value::string("7").as_int(), "check failed");
  EXPECT_DEATH((void)number.error_code(), "check failed");
}

TEST(CelChecksDeathTest, AListIsReadWithinItsSize) {
  const Value items[] = {Value::integer(1), Value::integer(2)};
  const ArenaList list(items, 2);
  Arena arena(1024);
  EXPECT_EQ(list.at(1, arena).as_int(), 2);
  EXPECT_DEATH((void)list.at(2, arena), "check failed");
}

TEST(CelChecksDeathTest, AProgramTheCheckerNeverBuiltIsNotRun) {
  const Program empty;
  Evaluator evaluator;
  EXPECT_DEATH((void)evaluator.evaluate(empty, {}), "never built");
}

TEST(CelChecksDeathTest, AnAlignmentThatIsNoPowerOfTwoIsRefused) {
  Arena arena(1024);
  EXPECT_DEATH((void)arena.allocate(8, 3), "no power of two");
}

}  // namespace
}  // namespace cel
