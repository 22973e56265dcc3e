"""Bring code written against the one-class ``Store`` over to its interfaces by concern.

Usage: python scripts/rename_store_calls.py FILE_OR_DIR...   (rewrites in place; prints each edit)

1. ``TABLE``: a call ``store.OLD(...)`` becomes ``store.NEW(...)`` (docs/store.md lists the
   same table). Receivers taken for a Store: ``RECEIVER`` (calls), ``STORE_REF`` (plain
   references such as a method handed on as a callback).
2. ``NARROWED``: functions that now take one interface instead of the store; a call whose
   first argument is a store gets ``.<interface>`` appended to it.
Both steps parse each file and are idempotent; review the printed edits and grep for what a
receiver of another name (``db``, ``coll``, ...) still calls. A plain reference on an object
named ``store`` that is no Store (a test's fake with a ``texts`` dict) is renamed too: check
the printed edits of reference lines.
"""

import ast
import pathlib
import re
import sys

TABLE = {
    # documents
    "roots": "documents.roots", "set_roots": "documents.set_roots", "documents": "documents.all",
    "document": "documents.get", "document_text": "documents.text", "texts": "documents.texts",
    "errors": "documents.errors", "count_documents": "documents.count",
    # pairs
    "pair_sets": "pairs.sets", "pair_set": "pairs.find_set", "pair_arrays": "pairs.arrays",
    "pairs": "pairs.rows", "iter_pairs": "pairs.iter_rows", "count_pairs": "pairs.count",
    "pair_set_input": "pairs.input_hash", "replace_pairs": "pairs.replace",
    # sketches
    "sketched": "sketches.sketched", "unsketched": "sketches.unsketched", "sketch_inventory": "sketches.inventory",
    "load_sketches": "sketches.load", "put_sketches": "sketches.put",
    # scans
    "scans": "scans.runs", "last_method": "scans.last_method", "begin_run": "scans.begin_run",
    "end_run": "scans.end_run", "root_ids": "scans.root_ids", "known_files": "scans.known_files",
    "documents_of_files": "scans.documents_of_files", "documents_at": "scans.documents_at",
    "write_documents": "scans.write_documents", "touch_files": "scans.touch_files",
    "remove_files": "scans.remove_files",
    # review
    "set_verdict": "review.set_verdict", "verdicts": "review.verdicts", "set_keeper": "review.set_keeper",
    "keepers": "review.keepers", "standing_decisions": "review.standing", "decision_history": "review.history",
    "reattach_decisions": "review.reattach", "export_review": "review.export_dict",
    "import_review": "review.import_dict",
    # settings
    "setting": "settings.get", "set_setting": "settings.put", "saved_threshold": "settings.saved_threshold",
    "settings": "settings.all",
    # emails
    "email_headers": "emails.headers",
}
INTERFACES = {"documents", "pairs", "sketches", "scans", "review", "settings", "emails"}
NARROWED = {  # function -> the interface its first argument is now
    "make_plan": "scans", "verify_pairs": "documents", "compare_documents": "documents",
    "find_document": "documents", "bulk_review": "review", "undo_bulk": "review",
    "recorded_reading": "settings", "settle_reading": "settings", "reading_choice": "settings",
    "choose_threshold": "settings", "saved_choice": "settings", "GroupView": "documents", "of_group": "documents",
}
RECEIVER = re.compile(r"^(store|_store|s|s1|s2|file_store|inc|fresh|db_store|.*\.store|.*\._store)$")
STORE_REF = re.compile(r"^(store|.*\.store)$")


def rewrite(path: pathlib.Path) -> int:
    text = path.read_text()
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:  # e.g. merge conflict markers: resolve them, then run again
        print(f"{path}: skipped, does not parse ({exc.msg}, line {exc.lineno})", file=sys.stderr)
        return 0
    funcs = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    edits = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and n.attr in TABLE:
            recv = ast.unparse(n.value)
            # a plain reference (not a call) is renamed only when its old name is no interface
            # now: ``store.documents`` is the interface, ``store.document_text`` the old method
            ok = RECEIVER.match(recv) if id(n) in funcs else (STORE_REF.match(recv) and n.attr not in INTERFACES)
            if ok:
                edits.append((n.end_lineno, n.end_col_offset, n.attr, recv, "rename"))
        elif isinstance(n, ast.Call) and n.args:
            name = getattr(n.func, "id", None) or getattr(n.func, "attr", None)
            first = n.args[0]
            if name in NARROWED and RECEIVER.match(ast.unparse(first)):
                edits.append((first.end_lineno, first.end_col_offset, name, ast.unparse(first), "narrow"))
    if not edits:
        return 0
    lines = text.split("\n")
    for lineno, end, name, recv, kind in sorted(edits, reverse=True):
        raw = lines[lineno - 1].encode()
        if kind == "narrow":
            raw = raw[:end] + f".{NARROWED[name]}".encode() + raw[end:]
            print(f"{path}:{lineno}: {name}({recv}, ...) -> {name}({recv}.{NARROWED[name]}, ...)")
        else:
            start = end - len(name)
            assert raw[start:end] == name.encode(), (path, lineno, name)
            raw = raw[:start] + TABLE[name].encode() + raw[end:]
            print(f"{path}:{lineno}: {recv}.{name} -> {recv}.{TABLE[name]}")
        lines[lineno - 1] = raw.decode()
    path.write_text("\n".join(lines))
    return len(edits)


if __name__ == "__main__":
    total = 0
    for arg in sys.argv[1:]:
        p = pathlib.Path(arg)
        for f in ([p] if p.is_file() else sorted(p.rglob("*.py"))):
            if ".venv" not in f.parts:
                total += rewrite(f)
    print(f"{total} edits", file=sys.stderr)
