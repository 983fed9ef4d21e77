// The translation unit that builds tests/support/test_prelude.h's precompiled header
// (cmake/test_code.cmake); it has nothing of its own to compile.
