#pragma once
// The headers most *_test.cc files parse, precompiled once in the sanitizer build (clang)
// and reused by every test target (cmake/test_code.cmake). Every test file there sees all
// of it, included or not, so a header belongs here only when many tests include it: the
// Release build (g++, no precompiled header) still checks that each file includes its own.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <absl/status/statusor.h>
#include <absl/strings/str_cat.h>
#include <absl/time/time.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>
