#pragma once
// An ad's "targeting" member: one to three rules of mixed kinds (geo, location circles,
// custom CEL, dayparts, destination), shaped as the loader wants them (docs/catalog.md).
#include "http/json_writer.h"
#include "tools/gen-catalog/random_stream.h"

namespace tools::gen_catalog {

// Draws only from random: the targeting stream, so the rest of the catalog is the same
// whether targeting is generated or not.
void write_targeting(http::JsonWriter& out, RandomStream& random);

}  // namespace tools::gen_catalog
