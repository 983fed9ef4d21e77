# How test code is compiled, apart from the code under test (the libraries) and the test
# support libraries (harness, load generators, fixtures), which keep the build's level: the
# load tests need a client as fast as the server.
#
# Under g++ (the Release build of make test), every test executable, its *_test.cc files
# batched by the unity build (CMakeLists.txt), is compiled at -O1 instead of -O2: once the
# headers are parsed once per batch, the optimizer is most of what is left (an integration
# batch of eight files: 12.1 s at -O2, 8.2 s at -O1). -O0 would save more, but simdjson
# changes its classes' layout when __OPTIMIZE__ is not defined (below).
#
# Under clang (make sanitize's build), for the files named *_test.cc only:
#   - one precompiled header, tests/support/test_prelude.h, built once and reused by every
#     test target (REUSE_FROM), which saves the parse;
#   - -O0 instead of the build's -O1, which saves the optimizer. simdjson changes its
#     classes' layout when __OPTIMIZE__ is not defined (SIMDJSON_DEVELOPMENT_CHECKS), so
#     test files pin that off to match the libraries.
# These targets are compiled file by file (no unity batches): the precompiled header
# already shares the parse, and a batch would include it at another level than its own.
# g++ gets no precompiled header: its header (150 MB, read whole into every file) cost
# more system time than the parse it saved.
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

# Sets test_sources (its *_test.cc files) and other_sources (its other C and C++ files) of
# target, as absolute paths, in the caller's scope.
function(_decisiond_split_sources target)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(tests "")
  set(others "")
  foreach(source IN LISTS sources)
    # Relative source paths name files of the target's own folder.
    cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY "${source_dir}")
    if(source MATCHES "_test\\.cc$")
      list(APPEND tests "${source}")
    elseif(source MATCHES "\\.(cc|cpp|c)$")
      list(APPEND others "${source}")
    endif()
  endforeach()
  set(test_sources ${tests} PARENT_SCOPE)
  set(other_sources ${others} PARENT_SCOPE)
endfunction()

# Applies the above to every target defined under `dir` that compiles a *_test.cc file:
# under g++ to its executables (-O1, after the build type's -O2, so it wins).
function(decisiond_compile_test_code dir)
  set(clang FALSE)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(clang TRUE)
    set(test_code_options -O0 -DSIMDJSON_DEVELOPMENT_CHECKS=0)
    add_library(decisiond_test_prelude OBJECT "${PROJECT_SOURCE_DIR}/tests/support/test_prelude.cc")
    target_link_libraries(decisiond_test_prelude PRIVATE ${_decisiond_test_prelude_links})
    target_compile_options(decisiond_test_prelude PRIVATE ${_decisiond_test_prelude_options} ${test_code_options})
    target_precompile_headers(decisiond_test_prelude PRIVATE "${PROJECT_SOURCE_DIR}/tests/support/test_prelude.h")
  endif()

  _decisiond_targets_under("${dir}" targets)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "EXECUTABLE|STATIC_LIBRARY|OBJECT_LIBRARY")
      continue()
    endif()
    _decisiond_split_sources(${target})
    if(NOT test_sources)
      continue()
    endif()
    if(NOT clang)
      if(type STREQUAL "EXECUTABLE")
        target_compile_options(${target} PRIVATE -O1)
      endif()
      continue()
    endif()
    set_source_files_properties(${test_sources} TARGET_DIRECTORY ${target}
                                PROPERTIES COMPILE_OPTIONS "${test_code_options}")
    target_link_libraries(${target} PRIVATE ${_decisiond_test_prelude_links})
    target_compile_options(${target} PRIVATE ${_decisiond_test_prelude_options})
    target_precompile_headers(${target} REUSE_FROM decisiond_test_prelude)
    # File by file: the precompiled header is what saves the parse here, and a unity batch
    # of the target's other files would include it at their level, not the header's.
    set_target_properties(${target} PROPERTIES UNITY_BUILD OFF)
    if(other_sources)
      set_source_files_properties(${other_sources} TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
