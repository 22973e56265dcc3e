"""``ndd compare``: where two documents of a collection share text.

The passages of A found in B, each with its place in both (page for PDF, sheet and row for
spreadsheets, paragraph for the rest), and the share of each document found in the other.
A document (nearly) wholly inside the other is said to be contained, with where. See
docs/cli.md.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import EXIT_OK, UsageError


def add_parser(sub, add_db) -> None:
    """Register ``compare`` on the subcommand parsers ``sub``."""
    p = sub.add_parser(
        "compare", help="where two documents share text (passages with pages, paragraphs or rows)",
        description="The passages of PATH_A found in PATH_B (runs of at least five words in the same order), "
                    "with their places in both documents and the share of each document found in the other. "
                    "A path is a file path or a path as 'ndd pairs' lists it.")
    add_db(p)
    p.add_argument("path_a", metavar="PATH_A")
    p.add_argument("path_b", metavar="PATH_B")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    """``ndd compare``: print the shared passages of two documents."""
    from ..pipeline.passages import NotInCollection, compare_documents
    from .opening import open_store

    with open_store(args.db) as store:
        try:
            a = find_listed(store.documents, args.path_a)
            b = find_listed(store.documents, args.path_b)
        except NotInCollection as exc:
            raise UsageError(str(exc)) from None
        result = compare_documents(store.documents, a.id, b.id)
        for label, doc in (("A", a), ("B", b)):
            why = store.documents.text_missing(doc.id)
            if why:
                sys.stderr.write(f"ndd: note: {label} has no text: {why}\n")
    if args.format == "json":
        json.dump(printable(result.to_dict()), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return EXIT_OK
    from .output import one_line

    s = result.shared
    out = sys.stdout
    out.write(f"A: {one_line(a.relpath)}  ({s.words_a:,} words, {s.share_a:.0%} found in B)\n")
    out.write(f"B: {one_line(b.relpath)}  ({s.words_b:,} words, {s.share_b:.0%} found in A)\n")
    if result.contained:
        out.write(f"{result.contained}\n")
    if not s.complete:
        out.write("partial: the texts are too large to compare in full in the time allowed; "
                  "the passages found so far follow\n")
    n = len(result.passages)
    out.write(f"{n} shared passage{'' if n == 1 else 's'}\n")
    for k, p in enumerate(result.passages, start=1):
        out.write(f"{k:>4}. A {one_line(p.a_place)} ↔ B {one_line(p.b_place)}  {p.words_a:,} words "
                  f"({p.share_of_a:.0%} of A, {p.share_of_b:.0%} of B)\n      {one_line(p.excerpt)}\n")
    return EXIT_OK


def find_listed(documents, path: str):
    """The document at ``path`` (``pipeline.passages.find_document``), or, when none is,
    the one whose path ``path`` spells as ``ndd`` prints it: a name that is not valid UTF-8
    on disk is listed with ``\\xNN`` escapes (``bad_\\xff.txt``), a control character as
    its escape (``\\n``), and that spelling, copied from ``ndd pairs``, named nothing.

    Raises:
        NotInCollection: no document, or several, at that path in either spelling.
    """
    from ..pipeline.passages import NotInCollection, find_document

    try:
        return find_document(documents, path)
    except NotInCollection:
        if "\\" not in path:
            raise
        found = _by_printed_path(documents, path)
        if found is None:
            raise
        return found


def _by_printed_path(documents, path: str):
    """The one document whose path, printed as ``ndd`` prints it, is ``path`` (as a file
    path, or as listed, relative to its folder; ``find_document``'s rules); None when no
    document or several are."""
    import os

    from ..ingest.document import display_path
    from .output import one_line

    def spellings(text: str) -> set[str]:
        return {display_path(text), one_line(text)}

    full = os.path.abspath(path)
    norm = path.replace(os.sep, "/")
    tail = "/" + norm.lstrip("./")
    docs = documents.all(status=None)
    hits = [d for d in docs if full in spellings(os.path.join(d.root, *d.relpath.split("/")))]
    if not hits:
        hits = [d for d in docs if any(s == norm or s.endswith(tail) for s in spellings(d.relpath))]
    ok = [d for d in hits if d.status == "ok"] or hits
    return ok[0] if len(ok) == 1 else None


def printable(value):
    """``value`` (JSON-ready) with every string fit for output: paths not valid UTF-8 and
    lone surrogates of a stored text written as escapes instead of failing the write."""
    from .output import clean

    if isinstance(value, dict):
        return {k: printable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [printable(v) for v in value]
    if isinstance(value, str):
        value = clean(value)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            value = value.encode("utf-8", "backslashreplace").decode("utf-8")
    return value
