"""Cross-format quality: one text saved in every format an archive holds is one document.

    python benchmarks/bench_crossformat.py ../shared/eval/site_policy [--texts 20] [--old-html]

Takes the newest revision of the first N policies of site_policy (different documents,
each several pages long), writes each as txt, Markdown, HTML, PDF, DOCX, ODT, RTF, ODP,
PPTX, EPUB, XLSX, ODS, EML, gzip, tar.gz, 7z and ZIP (the makers the ingest tests use),
and as two web pages: the Markdown rendered to HTML as a document (``md.html``: headings,
lists, links, no site around it) and the text as an article on a newspaper site's page
(``site.html``: the test template with its menus, sidebar, teasers and footer). It
scans the folder with the default method at its defaults (the same ScanJob a user runs),
and scores the pairs at the default threshold: a pair is positive when both documents
carry the same text, negative otherwise. Prints pairwise precision, recall and F1, and the
formats whose documents miss their siblings. ``--old-html`` reads the web pages with the
HTML reader from before issue 19 (``benchmarks/legacy_readers``; in the calling process).
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "ingest"))

from ingest_makers import (  # noqa: E402
    make_7z, make_docx, make_eml, make_epub, make_html, make_odp, make_ods, make_odt, make_pdf, make_pptx,
    make_rtf, make_tar, make_xlsx, make_zip,
)

from markdown_it import MarkdownIt  # noqa: E402  (a dependency of rich)
from site_pages import page_site_a  # noqa: E402

from ndd_desktop.core.methods import DEFAULT_METHOD, default_threshold  # noqa: E402
from ndd_desktop.pipeline import ScanConfig, ScanJob  # noqa: E402
from ndd_desktop.store import Root, Store  # noqa: E402


def _chunks(lines: list[str], n: int) -> list[list[str]]:
    size = max(1, -(-len(lines) // n))
    return [lines[k:k + size] for k in range(0, len(lines), size)]


def renderings(lines: list[str]) -> dict[str, bytes]:
    """The same text in every format, by file extension."""
    plain = "\n".join(lines).encode("utf-8")
    rendered = MarkdownIt("commonmark").enable("table").render("\n\n".join(lines))
    return {
        "md.html": f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{lines[0]}</title></head>"
                   f"<body>{rendered}</body></html>".encode("utf-8"),
        "site.html": page_site_a(lines[0], lines[1:]).encode("utf-8"),
        "txt": plain,
        "md": plain,
        "html": make_html(lines),
        "pdf": make_pdf(lines),
        "docx": make_docx(lines),
        "odt": make_odt(lines),
        "rtf": make_rtf(lines),
        "odp": make_odp(_chunks(lines, 4)),
        "pptx": make_pptx(_chunks(lines, 4)),
        "epub": make_epub(_chunks(lines, 3)),
        "xlsx": make_xlsx({"Text": [[line] for line in lines]}),
        "ods": make_ods({"Text": [[line] for line in lines]}),
        "eml": make_eml("\n".join(lines)),
        "txt.gz": gzip.compress(plain),
        "tar.gz": make_tar({"text.txt": plain}, "w:gz"),
        "7z": make_7z({"text.txt": plain}),
        "zip": make_zip({"text.txt": plain}),
    }


def texts(folder: Path, n: int) -> list[list[str]]:
    """The newest revision of the first ``n`` policies, as lines."""
    newest: dict[str, Path] = {}
    for path in sorted((folder / "docs").iterdir()):
        newest[path.stem.split("__")[0]] = path
    out = []
    for path in list(newest.values())[:n]:
        # the test PDF maker writes Latin-1 text: the same characters go into every format
        text = path.read_text(encoding="utf-8").encode("latin-1", "replace").decode("latin-1")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        out.append(lines)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("collection", type=Path, help="../shared/eval/site_policy")
    parser.add_argument("--texts", type=int, default=20)
    parser.add_argument("--old-html", action="store_true",
                        help="read web pages with the HTML reader from before issue 19 (in this process)")
    args = parser.parse_args(argv)
    workers = 2
    if args.old_html:
        from legacy_readers import html as legacy_html

        from ndd_desktop.ingest import extract as _extract

        _extract.EXTRACTORS["html"] = legacy_html.extract
        workers = 0
    if not (args.collection / "docs").is_dir():
        parser.error(f"no labelled collection at {args.collection} (see benchmarks/README.md)")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "formats"
        root.mkdir()
        for k, lines in enumerate(texts(args.collection, args.texts)):
            for ext, data in renderings(lines).items():
                (root / f"doc{k:02d}.{ext}").write_bytes(data)
        store = Store.open(Path(tmp) / "c.ndd")
        start = time.perf_counter()
        ScanJob(store, ScanConfig(roots=[Root(str(root))], method=DEFAULT_METHOD, workers=workers)).run()
        seconds = time.perf_counter() - start
        threshold = default_threshold(DEFAULT_METHOD)
        docs = {d.id: d for d in store.documents.all(status=None)}
        failed = sorted(d.relpath for d in docs.values() if d.status != "ok")
        ok = [d for d in docs.values() if d.status == "ok"]
        text_of = {d.id: d.relpath[:5] for d in ok}  # "docNN"
        (ps,) = [p for p in store.pairs.sets() if p.method == DEFAULT_METHOD]
        pa = store.pairs.arrays(DEFAULT_METHOD, ps.pairs_key)
        keep = pa.score >= threshold
        listed = {(min(a, b), max(a, b)) for a, b in zip(pa.a[keep].tolist(), pa.b[keep].tolist())}
        score_of = {(min(a, b), max(a, b)): s for a, b, s in zip(pa.a.tolist(), pa.b.tolist(), pa.score.tolist())}
        store.close()
    ext_of = {d: docs[d].relpath.split(".", 1)[1] for d in text_of}
    txt_of = {text_of[d]: d for d in text_of if ext_of[d] == "txt"}
    web = {}  # web-page format -> scores of its pairs with the txt of the same text
    for d in text_of:
        if ext_of[d].endswith("html"):
            pair = (min(d, txt_of[text_of[d]]), max(d, txt_of[text_of[d]]))
            web.setdefault(ext_of[d], []).append(score_of.get(pair, 0.0))
    positives = {(min(a, b), max(a, b)) for a, b in itertools.combinations(sorted(text_of), 2)
                 if text_of[a] == text_of[b]}
    tp = len(listed & positives)
    fp = len({p for p in listed if p[0] in text_of and p[1] in text_of} - positives)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / len(positives) if positives else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    missed: dict[str, int] = {}
    for a, b in positives - listed:
        for d in (a, b):
            ext = docs[d].relpath.split(".", 1)[1]
            missed[ext] = missed.get(ext, 0) + 1
    print(f"{args.texts} texts x {len(renderings(['x']))} formats = {len(docs)} documents "
          f"({len(failed)} not read: {failed[:5]}), scanned with {DEFAULT_METHOD} in {seconds:.1f} s")
    print(f"pairwise at the default threshold {threshold:g}: precision {precision:.3f}, recall {recall:.3f}, "
          f"F1 {f1:.3f} ({tp} of {len(positives)} same-text pairs, {fp} wrong pairs)")
    print("web pages against the txt of their text (score: mean, lowest): " + ", ".join(
        f"{ext} {sum(v) / len(v):.3f}, {min(v):.3f}" for ext, v in sorted(web.items())))
    if missed:
        print("documents in missed pairs, by format: " + ", ".join(f"{k} {v}" for k, v in sorted(missed.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
