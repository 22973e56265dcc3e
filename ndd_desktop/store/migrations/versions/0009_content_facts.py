"""Answers about the collection's content that an unchanged rescan need not find again.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06

The table ``content_facts`` keeps them (``store.facts``). The triggers delete each one as
soon as a row it rests on is updated or deleted: the listing with ``files``, the sketch and
pair answers with a deleted sketch, everything with ``documents`` or with the roots (added,
removed, another path or reference flag). Rows added to ``files`` and ``documents`` are
seen by the answers' stamps instead: a trigger on inserts would slow every bulk write of
those tables (see ``store.facts``). Each trigger looks for a kept answer first.
"""

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_ANY = "EXISTS (SELECT 1 FROM content_facts)"
_LISTING = "EXISTS (SELECT 1 FROM content_facts WHERE key = 'listing')"
_NOT_LISTING = "EXISTS (SELECT 1 FROM content_facts WHERE key <> 'listing')"

#: (trigger name, event, table, condition, the rows deleted)
TRIGGERS = [
    *((f"facts_files_{ev.lower()}", ev, "files", _LISTING, "key = 'listing'") for ev in ("UPDATE", "DELETE")),
    # (a sketch's bytes are no part of an answer; an update of them would slow the upserts of
    # a scan's sketches as an insert trigger would)
    ("facts_sketches_delete", "DELETE", "sketches", _NOT_LISTING, "key <> 'listing'"),
    *((f"facts_documents_{ev.lower()}", ev, "documents", _ANY, "1") for ev in ("UPDATE", "DELETE")),
    ("facts_roots_insert", "INSERT", "roots", _ANY, "1"),
    ("facts_roots_delete", "DELETE", "roots", _ANY, "1"),
    # a scan writes every root's position again: only a new path or reference flag counts
    ("facts_roots_update", "UPDATE", "roots",
     f"(NEW.path IS NOT OLD.path OR NEW.reference IS NOT OLD.reference) AND {_ANY}", "1"),
]


def upgrade() -> None:
    """Add the table and its triggers."""
    op.execute("CREATE TABLE content_facts (\n\t\"key\" TEXT NOT NULL, \n\tvalue TEXT NOT NULL, \n\tPRIMARY KEY (\"key\")\n)")
    for name, event, table, when, rows in TRIGGERS:
        op.execute(f"CREATE TRIGGER {name} AFTER {event} ON {table} FOR EACH ROW WHEN {when} "
                   f"BEGIN DELETE FROM content_facts WHERE {rows}; END")


def downgrade() -> None:
    """Drop the triggers and the table."""
    for name, *_ in TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute("DROP TABLE content_facts")
