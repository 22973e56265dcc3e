"""Text lengths recorded again where a rescan recorded none.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28

A rescan whose extraction workers sent a document's text on compressed (or, for a plain
UTF-8 file, as the mark of ``store.originals``) recorded its text as 0 characters long: the
length was taken from the text after the worker had let go of it. The keeper rule "longest"
and the groups' principals read that length. Every readable document with a text and a
recorded length of 0 gets the length of its stored text (or of its file, when that still
holds the scanned content). Nothing else is touched.
"""

from alembic import op

from ndd_desktop.store._sql import abspath_of, dec_path
from ndd_desktop.store.originals import ORIGINAL, read_original
from ndd_desktop.store.text_codec import TEXT_ERRORS, TextCodec, dictionary_fetcher

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

#: Documents looked at a time.
BATCH = 1000


def upgrade() -> None:
    """Set text_length from the text of each ok document recorded with 0 characters."""
    cur = op.get_bind().connection.dbapi_connection.cursor()
    decode = TextCodec().decoder(dictionary_fetcher(cur))
    last = -1
    while True:
        rows = cur.execute(
            "SELECT d.id, t.data, r.path, d.relpath, d.size, d.xxh128 FROM documents d "
            "JOIN document_text t ON t.doc_id = d.id JOIN roots r ON r.id = d.root_id "
            "WHERE d.status = 'ok' AND d.text_length = 0 AND d.id > ? ORDER BY d.id LIMIT ?", (last, BATCH)).fetchall()
        if not rows:
            break
        lengths = []
        for doc_id, data, root, rel, size, xxh in rows:
            if bytes(data) == ORIGINAL:
                text, _ = read_original(abspath_of(dec_path(root), dec_path(rel), None), size, xxh)
            else:
                try:
                    text = decode(data)
                except (*TEXT_ERRORS, UnicodeDecodeError):
                    text = None  # a damaged text stays as it is: reading it says so
            if text:
                lengths.append((len(text), doc_id))
        cur.executemany("UPDATE documents SET text_length = ? WHERE id = ?", lengths)
        last = rows[-1][0]
    cur.close()


def downgrade() -> None:
    """Nothing to undo: the lengths are facts of the texts."""
