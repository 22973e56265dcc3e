"""The first schema: roots, files, documents, texts, sketches, pairs, decisions, scan runs.

Revision ID: 0001
Revises:
Create Date: 2024-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the first schema."""
    op.create_table(
        "roots",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("path", sa.Text, nullable=False, unique=True),
        sa.Column("reference", sa.Boolean, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
    )
    op.create_table(
        "files",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("root_id", sa.Integer, sa.ForeignKey("roots.id", ondelete="CASCADE"), nullable=False),
        sa.Column("relpath", sa.Text, nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("mtime_ns", sa.Integer, nullable=False),
        sa.Column("xxh128", sa.String(32), nullable=True),
        sa.UniqueConstraint("root_id", "relpath"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("file_id", sa.Integer, sa.ForeignKey("files.id", ondelete="CASCADE"), nullable=False),
        sa.Column("root_id", sa.Integer, sa.ForeignKey("roots.id", ondelete="CASCADE"), nullable=False),
        sa.Column("relpath", sa.Text, nullable=False),
        sa.Column("container", sa.Text, nullable=True),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("mtime_ns", sa.Integer, nullable=False),
        sa.Column("date", sa.Float, nullable=True),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("xxh128", sa.String(32), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("text_length", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.UniqueConstraint("root_id", "relpath"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_documents_file_id", "documents", ["file_id"])
    op.create_table(
        "document_text",
        sa.Column("doc_id", sa.Integer, sa.ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "sketches",
        sa.Column("doc_id", sa.Integer, sa.ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("method", sa.String(32), primary_key=True),
        sa.Column("sketch_key", sa.String(32), primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "pair_sets",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("method", sa.String(32), nullable=False),
        sa.Column("pairs_key", sa.String(32), nullable=False),
        sa.Column("sketch_key", sa.String(32), nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("floor", sa.Float, nullable=False),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("input_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("method", "pairs_key"),
    )
    op.create_table(
        "pairs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("set_id", sa.Integer, sa.ForeignKey("pair_sets.id", ondelete="CASCADE"), nullable=False),
        sa.Column("a", sa.Integer, nullable=False),
        sa.Column("b", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("cont_ab", sa.Float, nullable=True),
        sa.Column("cont_ba", sa.Float, nullable=True),
        sa.Column("hamming", sa.Float, nullable=True),
    )
    op.create_index("ix_pairs_set_score", "pairs", ["set_id", "score"])
    op.create_table(
        "decisions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("time", sa.Float, nullable=False),
        sa.Column("reviewer", sa.Text, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("a", sa.Integer, nullable=False),
        sa.Column("b", sa.Integer, nullable=True),
        sa.Column("a_xxh128", sa.String(32), nullable=False),
        sa.Column("b_xxh128", sa.String(32), nullable=False),
        sa.Column("value", sa.String(16), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "scan_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("method", sa.String(32), nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("pairs_key", sa.String(32), nullable=False),
        sa.Column("floor", sa.Float, nullable=False),
        sa.Column("documents", sa.Integer, nullable=False),
        sa.Column("new", sa.Integer, nullable=False),
        sa.Column("changed", sa.Integer, nullable=False),
        sa.Column("unchanged", sa.Integer, nullable=False),
        sa.Column("removed", sa.Integer, nullable=False),
        sa.Column("errors", sa.Integer, nullable=False),
        sa.Column("pairs", sa.Integer, nullable=False),
        sa.Column("message", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop everything."""
    for table in ("scan_runs", "decisions", "pairs", "pair_sets", "sketches", "document_text", "documents", "files", "roots"):
        op.drop_table(table)
