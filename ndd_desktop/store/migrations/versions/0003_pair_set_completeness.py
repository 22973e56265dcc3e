"""Where a pair set is complete: the score from which every pair was searched for.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add pair_sets.complete_from (NULL: complete down to the floor)."""
    with op.batch_alter_table("pair_sets") as batch:
        batch.add_column(sa.Column("complete_from", sa.Float, nullable=True))


def downgrade() -> None:
    """Drop pair_sets.complete_from."""
    with op.batch_alter_table("pair_sets") as batch:
        batch.drop_column("complete_from")
