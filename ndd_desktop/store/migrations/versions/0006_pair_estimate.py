"""The method's own estimate of a pair, beside the verified share of text it is scored by.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add pairs.estimate (NULL for pair sets stored before scores were verified on the texts)."""
    with op.batch_alter_table("pairs") as batch:
        batch.add_column(sa.Column("estimate", sa.Float, nullable=True))


def downgrade() -> None:
    """Drop pairs.estimate."""
    with op.batch_alter_table("pairs") as batch:
        batch.drop_column("estimate")
