# Debian's node-llhttp ships llhttp's generated C sources rather than a library;
# we compile them into a small static library of our own.
set(LLHTTP_SOURCE_DIR /usr/share/llhttp CACHE PATH "llhttp C sources")
set(LLHTTP_INCLUDE_DIR /usr/share/include/llhttp CACHE PATH "llhttp header")
if(NOT EXISTS ${LLHTTP_SOURCE_DIR}/llhttp.c OR NOT EXISTS ${LLHTTP_INCLUDE_DIR}/llhttp.h)
  message(FATAL_ERROR "llhttp sources not found: run tools/install-deps (package node-llhttp)")
endif()
add_library(llhttp STATIC
  ${LLHTTP_SOURCE_DIR}/llhttp.c ${LLHTTP_SOURCE_DIR}/api.c ${LLHTTP_SOURCE_DIR}/http.c)
target_include_directories(llhttp SYSTEM PUBLIC ${LLHTTP_INCLUDE_DIR})
# Its generated files declare the same callbacks with different types: one file each.
set_target_properties(llhttp PROPERTIES POSITION_INDEPENDENT_CODE ON C_STANDARD 99 UNITY_BUILD OFF)
target_compile_options(llhttp PRIVATE -O3 -w)
