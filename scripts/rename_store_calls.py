"""Rename calls of the old Store methods to the narrow interfaces (store/ by concern).

Usage: python rename_store_calls.py FILE_OR_DIR...   (rewrites in place; prints each edit)
Receivers treated as a Store: RECEIVER below (calls), STORE_REF (plain references).
"""
import ast, pathlib, re, sys

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
RECEIVER = re.compile(r"^(store|_store|s|s1|s2|file_store|inc|fresh|db_store|.*\.store|.*\._store)$")
STORE_REF = re.compile(r"^(store|.*\.store)$")


def rewrite(path: pathlib.Path) -> int:
    text = path.read_text()
    tree = ast.parse(text)
    funcs = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    edits = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and n.attr in TABLE:
            recv = ast.unparse(n.value)
            ok = RECEIVER.match(recv) if id(n) in funcs else STORE_REF.match(recv)
            if ok:
                edits.append((n.end_lineno, n.end_col_offset, n.attr, recv))
    if not edits:
        return 0
    lines = text.split("\n")
    for lineno, end, attr, recv in sorted(edits, reverse=True):
        raw = lines[lineno - 1].encode()
        start = end - len(attr)
        assert raw[start:end] == attr.encode(), (path, lineno, attr)
        raw = raw[:start] + TABLE[attr].encode() + raw[end:]
        lines[lineno - 1] = raw.decode()
        print(f"{path}:{lineno}: {recv}.{attr} -> {recv}.{TABLE[attr]}")
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
