"""Migration scripts, one per schema revision (0001, 0002, ...)."""
