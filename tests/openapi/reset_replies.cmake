# Empties the reply log directory before the integration tests write to it.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
