"""E-mail headers of message documents (threads): Message-ID, In-Reply-To, References, ...

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the email_headers table (one row per message document, removed with it)."""
    op.create_table(
        "email_headers",
        sa.Column("doc_id", sa.Integer, sa.ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("message_id", sa.Text, nullable=False),
        sa.Column("in_reply_to", sa.Text, nullable=False),
        sa.Column("refs", sa.Text, nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("sender", sa.Text, nullable=False),
        sa.Column("date_text", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop the email_headers table."""
    op.drop_table("email_headers")
