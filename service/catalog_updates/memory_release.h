#pragma once
// After an update has freed the previous catalog (hundreds of MB for a large one), hands
// the allocator's now-unused pages back to the kernel at once, rather than after
// jemalloc's decay time: an operator watching resident memory across catalog updates
// sees it return to where it was. Runs on the update loop's thread, once per update.
namespace service {

void release_freed_memory();

}  // namespace service
