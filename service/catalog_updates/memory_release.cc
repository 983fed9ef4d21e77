#include "service/catalog_updates/memory_release.h"

#include <jemalloc/jemalloc.h>

#define DECISIOND_STRINGIFY_(x) #x
#define DECISIOND_STRINGIFY(x) DECISIOND_STRINGIFY_(x)

namespace service {

void release_freed_memory() {
  // Purges every arena's unused dirty pages. Failure (a build without jemalloc's control
  // interface) only leaves the pages to the allocator's own decay.
  mallctl("arena." DECISIOND_STRINGIFY(MALLCTL_ARENAS_ALL) ".purge", nullptr, nullptr, nullptr, 0);
}

}  // namespace service
