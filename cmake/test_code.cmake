# How test code is compiled under clang, that is in make sanitize's build (docs/testing.md
# "What .ci/run costs"). CI builds every test twice on two cores, and in the sanitizer
# build the *_test.cc files are most of it: each parses GoogleTest, simdjson and abseil
# again, then optimizes and instruments test bodies that run once. So, for the files named
# *_test.cc only:
#   - one precompiled header, tests/support/test_prelude.h, built once and reused by every
#     test target (REUSE_FROM), which saves the parse;
#   - -O0 instead of the build's -O1, which saves the optimizer. simdjson changes its
#     classes' layout when __OPTIMIZE__ is not defined (SIMDJSON_DEVELOPMENT_CHECKS), so
#     test files pin that off to match the libraries.
# The code under test (the libraries) and the test support code (harness, load generators,
# fuzz drivers) keep the build's level: the load tests need a client as fast as the server.
# g++ (the Release build of make test) is left alone: there the precompiled header cost more
# system time than the parse it saved (g++ reads all 150 MB of it into every file), and -O0
# saved nothing measurable (make test 1,332 s against 1,313 s).
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
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    return()
  endif()
  set(test_code_options -O0 -DSIMDJSON_DEVELOPMENT_CHECKS=0)
  add_library(decisiond_test_prelude OBJECT "${PROJECT_SOURCE_DIR}/tests/support/test_prelude.cc")
  target_link_libraries(decisiond_test_prelude PRIVATE ${_decisiond_test_prelude_links})
  target_compile_options(decisiond_test_prelude PRIVATE ${_decisiond_test_prelude_options} ${test_code_options})
  target_precompile_headers(decisiond_test_prelude PRIVATE "${PROJECT_SOURCE_DIR}/tests/support/test_prelude.h")

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
                                PROPERTIES COMPILE_OPTIONS "${test_code_options}")
    target_link_libraries(${target} PRIVATE ${_decisiond_test_prelude_links})
    target_compile_options(${target} PRIVATE ${_decisiond_test_prelude_options})
    target_precompile_headers(${target} REUSE_FROM decisiond_test_prelude)
    if(other_sources)
      set_source_files_properties(${other_sources} TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
