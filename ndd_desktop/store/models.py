"""SQLAlchemy 2.0 ORM models: the schema at the newest migration.

The migration scripts in ``migrations/versions`` create these tables; a test checks that
the migrated schema and these models agree. Pairs carry no foreign keys to documents (a
pair set is replaced as a whole by each scan, and reads join documents, so pairs of a
removed document disappear from every view); review decisions carry none either, so no
document removal can ever delete a decision.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Base of all models."""


class RootRow(Base):
    """A folder of the collection."""

    __tablename__ = "roots"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(Text, unique=True)
    reference: Mapped[bool] = mapped_column(Boolean, default=False)
    position: Mapped[int] = mapped_column(Integer, default=0)


class FileRow(Base):
    """A file on disk as the last scan saw it (size and mtime decide if it changed)."""

    __tablename__ = "files"
    __table_args__ = (UniqueConstraint("root_id", "relpath"), {"sqlite_autoincrement": True})
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    root_id: Mapped[int] = mapped_column(ForeignKey("roots.id", ondelete="CASCADE"))
    relpath: Mapped[str] = mapped_column(Text)
    size: Mapped[int] = mapped_column(Integer)
    mtime_ns: Mapped[int] = mapped_column(Integer)
    xxh128: Mapped[str | None] = mapped_column(String(32), nullable=True)


class DocumentRow(Base):
    """One document (a container file yields several); ids are never reused."""

    __tablename__ = "documents"
    __table_args__ = (
        UniqueConstraint("root_id", "relpath"),
        Index("ix_documents_file_id", "file_id"),
        Index("ix_documents_xxh128", "xxh128"),
        {"sqlite_autoincrement": True},
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    file_id: Mapped[int] = mapped_column(ForeignKey("files.id", ondelete="CASCADE"))
    root_id: Mapped[int] = mapped_column(ForeignKey("roots.id", ondelete="CASCADE"))
    relpath: Mapped[str] = mapped_column(Text)
    container: Mapped[str | None] = mapped_column(Text, nullable=True)
    size: Mapped[int] = mapped_column(Integer)
    mtime_ns: Mapped[int] = mapped_column(Integer)
    date: Mapped[float | None] = mapped_column(Float, nullable=True)
    format: Mapped[str] = mapped_column(String(16))
    xxh128: Mapped[str] = mapped_column(String(32))
    sha256: Mapped[str] = mapped_column(String(64))
    text_length: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(Text, default="")


class DocumentTextRow(Base):
    """The extracted text of a document, compressed (store.text_codec: a zstd frame naming
    its dictionary; zlib in rows written before schema 0007). The compare view shows it,
    the verification and sketch_from_text methods read it."""

    __tablename__ = "document_text"
    doc_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class TextDictionaryRow(Base):
    """A zstd dictionary the collection's texts are compressed with (never changed once
    written; ``id`` is the dictionary's own id, which each frame names)."""

    __tablename__ = "text_dictionaries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    created: Mapped[float] = mapped_column(Float)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class EmailHeadersRow(Base):
    """The threading headers of an e-mail message document (eml, msg, a message of an mbox)."""

    __tablename__ = "email_headers"
    doc_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True)
    message_id: Mapped[str] = mapped_column(Text)
    in_reply_to: Mapped[str] = mapped_column(Text)
    refs: Mapped[str] = mapped_column(Text)
    subject: Mapped[str] = mapped_column(Text)
    sender: Mapped[str] = mapped_column(Text)
    date_text: Mapped[str] = mapped_column(Text)


class SketchRow(Base):
    """A document's sketch under one method and the parameters that shape the sketch."""

    __tablename__ = "sketches"
    doc_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True)
    method: Mapped[str] = mapped_column(String(32), primary_key=True)
    sketch_key: Mapped[str] = mapped_column(String(32), primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class PairSetRow(Base):
    """The pairs of one method and parameter hash: replaced as a whole by each scan."""

    __tablename__ = "pair_sets"
    __table_args__ = (UniqueConstraint("method", "pairs_key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    method: Mapped[str] = mapped_column(String(32))
    pairs_key: Mapped[str] = mapped_column(String(32))
    sketch_key: Mapped[str] = mapped_column(String(32))
    params: Mapped[str] = mapped_column(Text)  # JSON
    floor: Mapped[float] = mapped_column(Float)
    count: Mapped[int] = mapped_column(Integer, default=0)
    input_hash: Mapped[str] = mapped_column(String(64), default="")
    created: Mapped[float] = mapped_column(Float)
    # The score from which every pair was searched for; NULL: down to the floor.
    complete_from: Mapped[float | None] = mapped_column(Float, nullable=True)


class PairRowModel(Base):
    """One scored pair of documents (a < b)."""

    __tablename__ = "pairs"
    __table_args__ = (Index("ix_pairs_set_score", "set_id", "score"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    set_id: Mapped[int] = mapped_column(ForeignKey("pair_sets.id", ondelete="CASCADE"))
    a: Mapped[int] = mapped_column(Integer)
    b: Mapped[int] = mapped_column(Integer)
    score: Mapped[float] = mapped_column(Float)
    cont_ab: Mapped[float | None] = mapped_column(Float, nullable=True)
    cont_ba: Mapped[float | None] = mapped_column(Float, nullable=True)
    hamming: Mapped[float | None] = mapped_column(Float, nullable=True)
    estimate: Mapped[float | None] = mapped_column(Float, nullable=True)  # the method's own score


class DecisionRow(Base):
    """The append-only review log: pair verdicts and keeper choices (latest row wins)."""

    __tablename__ = "decisions"
    __table_args__ = (
        Index("ix_decisions_kind_a_b", "kind", "a", "b"),
        {"sqlite_autoincrement": True},
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    time: Mapped[float] = mapped_column(Float)
    reviewer: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[str] = mapped_column(String(16))
    a: Mapped[int] = mapped_column(Integer)
    b: Mapped[int | None] = mapped_column(Integer, nullable=True)
    a_xxh128: Mapped[str] = mapped_column(String(32), default="")
    b_xxh128: Mapped[str] = mapped_column(String(32), default="")
    value: Mapped[str] = mapped_column(String(16), default="")
    note: Mapped[str] = mapped_column(Text, default="")


class ScanRunRow(Base):
    """One run of the scan job."""

    __tablename__ = "scan_runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    started: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(16))
    method: Mapped[str] = mapped_column(String(32))
    params: Mapped[str] = mapped_column(Text)  # JSON
    pairs_key: Mapped[str] = mapped_column(String(32))
    floor: Mapped[float] = mapped_column(Float)
    documents: Mapped[int] = mapped_column(Integer, default=0)
    new: Mapped[int] = mapped_column(Integer, default=0)
    changed: Mapped[int] = mapped_column(Integer, default=0)
    unchanged: Mapped[int] = mapped_column(Integer, default=0)
    removed: Mapped[int] = mapped_column(Integer, default=0)
    errors: Mapped[int] = mapped_column(Integer, default=0)
    pairs: Mapped[int] = mapped_column(Integer, default=0)
    message: Mapped[str] = mapped_column(Text, default="")


class SettingRow(Base):
    """A setting kept with the collection (the reviewer's threshold, keeper rule, ...)."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(Text, primary_key=True)
    value: Mapped[str] = mapped_column(Text)  # JSON


class ContentFact(Base):
    """An answer about the content kept until a row it rests on changes (``store.facts``;
    the triggers that delete it are in migration 0009)."""

    __tablename__ = "content_facts"
    key: Mapped[str] = mapped_column(Text, primary_key=True)
    value: Mapped[str] = mapped_column(Text)
