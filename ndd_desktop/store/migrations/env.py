"""Alembic environment: always run programmatically on a connection the store hands over.

The store calls ``alembic.command.upgrade`` with ``config.attributes["connection"]`` set,
so no alembic.ini and no URL are needed at run time.
"""

from __future__ import annotations

from alembic import context

from ndd_desktop.store.models import Base

target_metadata = Base.metadata


def run_migrations_online() -> None:
    """Run the migrations on the connection given by the store."""
    connection = context.config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite cannot ALTER most things; batch mode copies tables
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():  # pragma: no cover - the store never runs offline
    raise RuntimeError("ndd-desktop migrations run online only")
run_migrations_online()
