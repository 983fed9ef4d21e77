// Type conversions (cel-spec "Type conversions"), with cel-go's edge cases.
#include "cel/conversions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tests/unit/cel/cel_runner.h"

namespace cel {
namespace {

using testing::CelRunner;

std::string shortest_g(double d) {
  char buffer[32];
  return std::string(buffer, format_double_shortest_g(d, buffer));
}

TEST(CelConversions, IntFromUintDoubleAndString) {
  CelRunner cel;
  EXPECT_EQ(cel.run("int(42u)"), "42");
  EXPECT_EQ(cel.run("int(9223372036854775808u)"), "error: conversion out of range");
  EXPECT_EQ(cel.run("int(-7.9)"), "-7");  // truncates
  EXPECT_EQ(cel.run("int(1e99)"), "error: conversion out of range");
  EXPECT_EQ(cel.run("int(-9223372036854775808.0)"), "error: conversion out of range");
  EXPECT_EQ(cel.run("int(0.0 / 0.0)"), "error: conversion out of range");
  EXPECT_EQ(cel.run("int('-987') + int('+1')"), "-986");
  EXPECT_EQ(cel.run("int('1.5')"), "error: type conversion error");
  EXPECT_EQ(cel.run("int(' 1')"), "error: type conversion error");
  EXPECT_EQ(cel.run("int(true)"), "error: no matching overload");
}

TEST(CelConversions, UintFromIntDoubleAndString) {
  CelRunner cel;
  EXPECT_EQ(cel.run("uint(42)"), "42");
  EXPECT_EQ(cel.run("uint(-1)"), "error: conversion out of range");
  EXPECT_EQ(cel.run("uint(25.9)"), "25");
  EXPECT_EQ(cel.run("uint(18446744073709551616.0)"), "error: conversion out of range");
  EXPECT_EQ(cel.run("uint('300')"), "300");
  EXPECT_EQ(cel.run("uint('-1')"), "error: type conversion error");
}

TEST(CelConversions, DoubleFromNumbersAndStrings) {
  CelRunner cel;
  EXPECT_EQ(cel.run("double(1)"), "1.0");
  EXPECT_EQ(cel.run("double(18446744073709551615u)"), "18446744073709551616.0");
  EXPECT_EQ(cel.run("double('-84.32e7')"), "-843200000.0");
  EXPECT_EQ(cel.run("double('-0.0')"), "-0.0");
  EXPECT_EQ(cel.run("double('inf')"), "\"Infinity\"");
  EXPECT_EQ(cel.run("double('NaN')"), "\"NaN\"");
  EXPECT_EQ(cel.run("double('1e5x')"), "error: type conversion error");
  EXPECT_EQ(cel.run("double('')"), "error: type conversion error");
}

TEST(CelConversions, StringOfNumbersBytesAndBools) {
  CelRunner cel;
  EXPECT_EQ(cel.run("string(-456) + string(9876u)"), "\"-4569876\"");
  EXPECT_EQ(cel.run("string(123.456)"), "\"123.456\"");
  EXPECT_EQ(cel.run("string(b'\\303\\277')"), "\"ÿ\"");
  EXPECT_EQ(cel.run("string(b'\\xff')"), "error: invalid UTF-8");
  EXPECT_EQ(cel.run("string(true)"), "\"true\"");
  EXPECT_EQ(cel.run("string(int)"), "\"int\"");
  EXPECT_EQ(cel.run("string(null)"), "error: no matching overload");
}

TEST(CelConversions, StringOfDoubleIsGoShortestG) {
  EXPECT_EQ(shortest_g(123.456), "123.456");
  EXPECT_EQ(shortest_g(-4.5e-3), "-0.0045");
  EXPECT_EQ(shortest_g(1e-5), "1e-05");
  EXPECT_EQ(shortest_g(100.0), "100");
  EXPECT_EQ(shortest_g(123456.0), "123456");
  EXPECT_EQ(shortest_g(1e6), "1e+06");
  EXPECT_EQ(shortest_g(1234567.0), "1.234567e+06");
  EXPECT_EQ(shortest_g(1e100), "1e+100");
  EXPECT_EQ(shortest_g(0.0), "0");
  EXPECT_EQ(shortest_g(-0.0), "-0");
  EXPECT_EQ(shortest_g(0.1), "0.1");
  EXPECT_EQ(shortest_g(HUGE_VAL), "+Inf");
  EXPECT_EQ(shortest_g(std::nan("")), "NaN");
}

TEST(CelConversions, BoolFromGoSpellings) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[bool('1'), bool('t'), bool('TRUE'), bool('True'), bool('true')]"),
            "[true,true,true,true,true]");
  EXPECT_EQ(cel.run("[bool('0'), bool('f'), bool('FALSE'), bool('False'), bool('false')]"),
            "[false,false,false,false,false]");
  EXPECT_EQ(cel.run("bool('TrUe')"), "error: type conversion error");
  EXPECT_EQ(cel.run("bool(1)"), "error: no matching overload");
}

TEST(CelConversions, BytesOfStringsAreTheirUtf8) {
  CelRunner cel;
  EXPECT_EQ(cel.run("bytes('ÿ') == b'\\303\\277'"), "true");
  EXPECT_EQ(cel.run("bytes(1)"), "error: no matching overload");
}

TEST(CelConversions, IdentityOnTheSameType) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[int(1), uint(1u), double(1.5), string('a'), bool(true)]"),
            "[1,1,1.5,\"a\",true]");
  EXPECT_EQ(cel.run("bytes(b'a') == b'a'"), "true");
}

TEST(CelConversions, TypeAndDyn) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[type(null), type(true), type(1), type(1u), type(1.0), type('a')]"),
            R"(["null_type","bool","int","uint","double","string"])");
  EXPECT_EQ(cel.run("[type(b'a'), type([]), type({}), type(int)]"),
            R"(["bytes","list","map","type"])");
  EXPECT_EQ(cel.run("dyn(1) == 1.0 && dyn('a') == 'a'"), "true");
}

}  // namespace
}  // namespace cel
