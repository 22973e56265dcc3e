"""Alembic migrations of the collection store, run by ``Store.open``."""
