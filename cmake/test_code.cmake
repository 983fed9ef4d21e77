# How test code is compiled (docs/testing.md "What .ci/run costs"). CI builds every test
# twice on two cores (make test with g++, then make sanitize with clang), and the *_test.cc
# files are most of both: each parses GoogleTest, simdjson and abseil again, then
# optimizes test bodies that run once. So, for the files named *_test.cc only:
#   - DECISIOND_TEST_CODE_OPTIMIZATION (-O0) instead of the build's level, which saves the
#     optimizer (and g++ 12's false -Warray-bounds reports on std::string at -O1);
#   - under clang, one precompiled header, tests/support/test_prelude.h, built once and
#     reused by every test target (REUSE_FROM), which saves the parse. clang loads a
#     precompiled header lazily; g++ reads all of it (150 MB) into every file, which cost
#     more system time than the parse it saved (measured: the Release build took 10% more
#     CPU), so g++ builds go without.
# The code under test (the libraries) and the test support code (harness, load generators,
# fuzz drivers) keep the build's level: the load tests need a client as fast as the server.

set(DECISIOND_TEST_CODE_OPTIMIZATION "-O0" CACHE STRING
    "Optimization of *_test.cc files (the libraries they test keep the build's level)")

# What a target must share with the precompiled header for the compiler to use it: the
# macros GTEST_HAS_PTHREAD and SIMDJSON_THREADS_ENABLED come with these libraries, and
# _REENTRANT with -pthread, which some libraries' pkg-config flags add to their users.
set(_decisiond_test_prelude_links GTest::gtest simdjson::simdjson absl::time absl::strings absl::statusor
    Threads::Threads)
set(_decisiond_test_prelude_options -pthread)

function(_decisiond_targets_under dir out)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    _decisiond_targets_under("${subdir}" more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# Applies the above to every target defined under `dir` that compiles a *_test.cc file.
function(decisiond_compile_test_code dir)
  set(precompile OFF)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(precompile ON)
  endif()
  if(precompile)
    add_library(decisiond_test_prelude OBJECT "${PROJECT_SOURCE_DIR}/tests/support/test_prelude.cc")
    target_link_libraries(decisiond_test_prelude PRIVATE ${_decisiond_test_prelude_links})
    target_compile_options(decisiond_test_prelude PRIVATE ${_decisiond_test_prelude_options}
                                                          ${DECISIOND_TEST_CODE_OPTIMIZATION})
    target_precompile_headers(decisiond_test_prelude PRIVATE "${PROJECT_SOURCE_DIR}/tests/support/test_prelude.h")
  endif()

  _decisiond_targets_under("${dir}" targets)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "EXECUTABLE|STATIC_LIBRARY|OBJECT_LIBRARY")
      continue()
    endif()
    get_target_property(sources ${target} SOURCES)
    get_target_property(source_dir ${target} SOURCE_DIR)
    set(test_sources "")
    set(other_sources "")
    foreach(source IN LISTS sources)
      # Relative source paths name files of the target's own folder.
      cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${source_dir}")
      if(source MATCHES "_test\\.cc$")
        list(APPEND test_sources "${source}")
      elseif(source MATCHES "\\.(cc|cpp|c)$")
        list(APPEND other_sources "${source}")
      endif()
    endforeach()
    if(NOT test_sources)
      continue()
    endif()
    set_source_files_properties(${test_sources} TARGET_DIRECTORY ${target}
                                PROPERTIES COMPILE_OPTIONS "${DECISIOND_TEST_CODE_OPTIMIZATION}")
    if(NOT precompile)
      continue()
    endif()
    target_link_libraries(${target} PRIVATE ${_decisiond_test_prelude_links})
    target_compile_options(${target} PRIVATE ${_decisiond_test_prelude_options})
    target_precompile_headers(${target} REUSE_FROM decisiond_test_prelude)
    if(other_sources)
      set_source_files_properties(${other_sources} TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
