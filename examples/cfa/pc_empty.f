AG EF "ch.empty"
