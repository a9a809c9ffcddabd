"""KB tooling: the static features of the measured call sites, the resolver's recall on them."""
