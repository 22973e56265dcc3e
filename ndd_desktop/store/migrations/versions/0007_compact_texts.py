"""Smaller files: texts in zstd with the collection's dictionary; q-gram sets not stored.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25

The table ``text_dictionaries`` is added and every stored text is recompressed (zlib to a
zstd frame coded against a dictionary trained on the collection's first texts,
store.text_codec). The q-gram method's stored sketches go: its sketches are now made
from the stored texts when needed (``Method.sketch_from_text``) and its sketch key
changed with them, so the next scan writes a mark per document (from the stored text, no
file is read). Pairs, pair sets (with their input digests, so an unchanged collection is
not compared again) and the review are not touched. ``engine.upgrade`` then rewrites the
file (VACUUM) so the space comes back.
"""

import sqlalchemy as sa
from alembic import op

from ndd_desktop.store.text_codec import TEXT_ERRORS, TextCodec, dictionary_fetcher, encode_texts

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

#: Texts recompressed at a time (the first batch trains the dictionary).
BATCH = 1000


def upgrade() -> None:
    """Add text_dictionaries, recompress the texts, drop the stored q-gram sets."""
    op.create_table(
        "text_dictionaries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
    )
    cur = op.get_bind().connection.dbapi_connection.cursor()
    codec = TextCodec()
    decode = codec.decoder(dictionary_fetcher(cur))
    last = -1
    while True:
        rows = cur.execute("SELECT doc_id, data FROM document_text WHERE doc_id > ? ORDER BY doc_id LIMIT ?",
                           (last, BATCH)).fetchall()
        if not rows:
            break
        sound, texts = [], []
        for doc_id, data in rows:
            try:
                texts.append(decode(data))
                sound.append(doc_id)
            except (*TEXT_ERRORS, UnicodeDecodeError):
                continue  # a damaged text stays as it is: reading it says so, ndd repair saves the rest
        blobs = encode_texts(cur, codec, texts)
        cur.executemany("UPDATE document_text SET data = ? WHERE doc_id = ?", zip(blobs, sound))
        last = rows[-1][0]
    cur.execute("DELETE FROM sketches WHERE method = 'qgram'")
    cur.close()


def downgrade() -> None:
    """Not supported: the texts would have to be recompressed with zlib."""
    raise NotImplementedError("schema 0007 cannot be downgraded")
