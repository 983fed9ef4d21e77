#pragma once
// Every bound the CEL compiler and evaluator enforce, in one place. An expression past a
// compile bound is refused with its position; an evaluation past a run-time bound ends in
// an error value (the ad is not eligible), never in unbounded memory or time.
#include <cstddef>
#include <cstdint>

namespace cel {

// Largest source accepted. The catalog bounds targeting.custom tighter (4 KiB); this is
// the compiler's own guard for every other caller (tool, tests).
inline constexpr size_t kMaxSourceBytes = 16 * 1024;
// Syntax nodes per expression: bounds the compiled program's size.
inline constexpr size_t kMaxSyntaxNodes = 4096;
// Nesting of the syntax tree (parentheses, operands, arguments, chains of binary
// operators). The parser, the checker and the evaluator recurse along it, so this also
// bounds their stack use (a few hundred bytes per level).
inline constexpr uint32_t kMaxNestingDepth = 128;

// Bytes one evaluation may take from its arena (strings, lists and maps built at run time,
// views of nested host objects). Past it the evaluation fails with "evaluation limit".
inline constexpr size_t kDefaultArenaBytesMax = size_t{1} << 20;
// Comprehension steps (all, exists, exists_one, map, filter) per evaluation: nested
// macros multiply, so the product is bounded, not each loop.
inline constexpr uint64_t kDefaultIterationsMax = 100'000;
// Work per evaluation (work_meter.h): bytes scanned, copied or compared plus elements
// visited. A typical rule spends tens of units; a million bounds the worst rule to about a
// millisecond of a core.
inline constexpr uint64_t kDefaultWorkMax = uint64_t{1} << 20;

}  // namespace cel
