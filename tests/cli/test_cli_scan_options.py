"""``ndd scan --ignore`` and ``--html``: what is compared, and bad values refused in one line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from cli_run import run

TWEETS = {  # seed 001's example: a real near-duplicate and a templated look-alike
    "obama1.txt": "Vet, 77, Busted For Obama Death Threat | The Smoking Gun http://t.co/MrTUwxv via @",
    "obama2.txt": "Vet, 77, Busted For Obama Death Threat http://tinyurl.com/25zyxgp #tcot #tlot #sgp",
    "show1.txt": "Playing a show in Chicago, IL at 9:00 PM today at LE PASSAGE http://artistdata.com/a/32on",
    "show2.txt": "Playing a show in Cape Girardeau, MO at 9:00 PM today at The Venue http://artistdata.com/a/32ow",
}


@pytest.fixture
def tweets(tmp_path):
    folder = tmp_path / "tweets"
    folder.mkdir()
    for name, text in TWEETS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def pair_scores(capsys, db, column: str = "score") -> dict[tuple[str, str], float]:
    status, out, err = run(capsys, "pairs", "--db", db, "--threshold", "0.3")
    assert status == 0, err
    return {tuple(sorted((r["a"], r["b"]))): float(r[column]) for r in csv.DictReader(io.StringIO(out))}


def test_ignore_urls_and_numbers_ranks_the_real_duplicate_first(capsys, tweets, tmp_path):
    db = tmp_path / "c.ndd"
    status, _, err = run(capsys, "scan", tweets, "--db", db, "--workers", "0")
    assert status == 0, err
    plain = pair_scores(capsys, db, "estimate")  # q-grams alone are fooled by the shared links and figures
    assert plain[("show1.txt", "show2.txt")] > plain[("obama1.txt", "obama2.txt")]
    status, _, err = run(capsys, "scan", tweets, "--db", db, "--workers", "0", "--ignore", "numbers,urls")
    assert status == 0, err
    ignoring = pair_scores(capsys, db)  # pairs reads the pair set of the last scan
    assert ignoring[("obama1.txt", "obama2.txt")] > ignoring.get(("show1.txt", "show2.txt"), 0.0)
    status, out, _ = run(capsys, "pairs", "--db", db, "--set", "ignore=urls,numbers", "--format", "json",
                         "--threshold", "0.3")
    assert status == 0 and {tuple(sorted((r["a"], r["b"]))) for r in json.loads(out)} == set(ignoring)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--ignore", "urls,phones"], "ndd: error: --ignore: cannot ignore 'phones' (choose from urls, emails, numbers)"),
        (["--ignore", "urls", "--set", "ignore=numbers"], "ndd: error: --ignore urls and --set ignore=numbers disagree"),
        (["--set", "ignore=links"], "ndd: error: qgram: ignore: unknown item 'links' (choose any of urls, emails, "
                                    "numbers, comma-separated)"),
        (["--html", "body"], "ndd: error: argument --html: invalid choice: 'body' (choose from"),
    ],
)
def test_bad_choices_are_refused_in_one_line_before_anything_is_written(capsys, tweets, tmp_path, argv, message):
    db = tmp_path / "c.ndd"
    status, out, err = run(capsys, "scan", tweets, "--db", db, *argv)
    assert status == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1
    assert not db.exists()


def test_html_all_reads_the_whole_page(capsys, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    menu = "".join(f"<li><a href='/s{k}'>Section number {k} of the site menu</a></li>" for k in range(40))
    article = " ".join(f"The minutes of meeting {k} record the decision on the bridge." for k in range(30))
    (site / "page.html").write_text(f"<html><head><title>t</title></head><body><nav><ul>{menu}</ul></nav>"
                                    f"<article><h1>Minutes</h1><p>{article}</p></article></body></html>")
    db = tmp_path / "c.ndd"
    for reading, has_menu in (("main", False), ("all", True), ("main", False)):
        status, _, err = run(capsys, "scan", site, "--db", db, "--workers", "0", "--html", reading)
        assert status == 0, err
        status, out, _ = run(capsys, "errors", "--db", db)  # no file failed either way
        assert out.count("\n") == 1
        from ndd_desktop.store import Store

        store = Store.open(db)
        try:
            [doc] = store.documents.all()
            assert ("Section number 7 of the site menu" in store.documents.text(doc.id)) is has_menu
        finally:
            store.close()


def test_the_early_start_of_the_workers_server_names_the_scans_extractor():
    """``ndd scan`` into a new collection starts the workers' server before it imports the
    pipeline, naming the extractor's module as a string: it must be that module, or the
    server would preload another and the job's own start would not find it ready."""
    from ndd_desktop.cli.scan_start import SCAN_EXTRACTOR_MODULE
    from ndd_desktop.pipeline.worker_sketch import SketchingExtractor

    assert SCAN_EXTRACTOR_MODULE == SketchingExtractor.__module__


def test_a_refused_scan_starts_no_workers_server(tmp_path):
    """The early start of the workers' server comes after the folders are checked: a typo
    in a folder name costs no process."""
    import subprocess
    import sys

    script = (
        "import multiprocessing.forkserver as fs\n"
        "from ndd_desktop.cli import main\n"
        f"rc = main(['scan', {str(tmp_path / 'no-such-folder')!r}, '--db', {str(tmp_path / 'new.ndd')!r}])\n"
        "print(rc, fs._forkserver._forkserver_pid)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["2", "None"], (done.stdout, done.stderr)
    assert "no such folder" in done.stderr


def test_ndd_scan_starts_the_workers_server_before_it_imports_the_database_layer(tmp_path):
    """``ndd scan`` into a new collection starts the workers' server right after parsing
    its arguments and checking its folders, so the server's imports run beside the
    command line's own (SQLAlchemy, the commands, the pipeline) instead of after them.
    That server preloads the plain text and PDF readers only (the formats are not known
    before the walk): the workers import the web page reader when they meet a page, and
    read PDFs within their memory cap with the lowest pypdfium2 allowed as well."""
    import subprocess
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "ingest"))  # the test file builders
    from ingest_makers import make_pdf

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("one two three four five six seven", encoding="utf-8")
    (folder / "b.html").write_text("<html><body><p>web words on a page</p></body></html>", encoding="utf-8")
    (folder / "c.pdf").write_bytes(make_pdf(["words in a portable document"]))
    script = (
        "import sys\n"
        "import ndd_desktop.ingest.pool_server as pw\n"
        "real = pw.prestart\n"
        "def seen(module, extra=()):\n"
        "    print('prestart', 'sqlalchemy' in sys.modules, 'ndd_desktop.cli.commands' in sys.modules, flush=True)\n"
        "    real(module, extra)\n"
        "pw.prestart = seen\n"
        "from ndd_desktop.cli import main\n"
        f"rc = main(['scan', {str(folder)!r}, '--db', {str(tmp_path / 'new.ndd')!r}])\n"
        "print('rc', rc)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    lines = done.stdout.split("\n")
    assert lines[0] == "prestart False False", (done.stdout, done.stderr)
    assert "rc 0" in lines, (done.stdout, done.stderr)
    assert "3 documents and 0 skipped or failed" in done.stderr, (done.stdout, done.stderr)


def test_a_collection_of_tables_is_told_which_method_finds_their_pairs(capsys, tmp_path):
    """One table saved with other delimiters and number formats verifies at 1.0, yet the
    bottom-k search never met the pair (its character sketches hold the punctuation) and
    the scan said nothing: a collection made largely of tables or logs is told so, for the
    methods whose search rests on passages; qgram's exact search needs no such note."""
    import random

    rng = random.Random(4)
    folder = tmp_path / "tables"
    folder.mkdir()
    for k in range(4):
        rows = [(f"customer{rng.randrange(500)}", f"product{rng.randrange(80)}", rng.randrange(1, 9999) / 100)
                for _ in range(60)]
        (folder / f"sales{k}.csv").write_text("\n".join(f"{c},{p},{v:.2f}" for c, p, v in rows))
        eu = f"sales{k}_eu.{'CSV' if k % 2 else 'Tsv'}"  # a name's case does not matter
        (folder / eu).write_text("\n".join(f"{c};{p};{v:.2f}".replace(".", ",") for c, p, v in rows))
    (folder / "readme.txt").write_text("Monthly sales exports of the shop, one file per month.")
    for method, noted in (("bottomk", True), ("minhash", True), ("qgram", False)):
        status, _, err = run(capsys, "scan", folder, "--db", tmp_path / f"{method}.ndd", "--method", method)
        assert status == 0, err
        assert ("8 of the 9 documents are tables or logs" in err) == noted, (method, err)
        assert ("--method qgram" in err) == noted
