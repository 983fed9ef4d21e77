#pragma once
// The headers nearly every *_test.cc parses, precompiled once per build and reused by every
// test target (cmake/test_code.cmake). Only what most tests include belongs here: the
// compiler loads all of it into each test file, so a header few tests use costs the rest.
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
