"""Indexes for move detection (documents by content hash) and decision look-ups.

Revision ID: 0002
Revises: 0001
Create Date: 2024-11-23
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the look-up indexes."""
    op.create_index("ix_documents_xxh128", "documents", ["xxh128"])
    op.create_index("ix_decisions_kind_a_b", "decisions", ["kind", "a", "b"])


def downgrade() -> None:
    """Drop the look-up indexes."""
    op.drop_index("ix_decisions_kind_a_b", table_name="decisions")
    op.drop_index("ix_documents_xxh128", table_name="documents")
