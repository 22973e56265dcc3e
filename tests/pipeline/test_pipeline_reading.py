"""What a rescan does when the text to compare changes without the files changing: the
``ignore`` parameter (re-sketched from the stored text) and the reading of web pages
(``ExtractOptions.html``: the HTML files are read again)."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "ingest"))
from ingest_makers import make_docx, make_odt  # noqa: E402
from site_pages import ARTICLE_HARBOUR, ARTICLE_LIBRARY, page_site_a, page_site_b  # noqa: E402

from ndd_desktop.pipeline import CancelToken, ExtractOptions, ScanCancelled, ScanConfig, ScanJob  # noqa: E402
from ndd_desktop.core.methods import get_method  # noqa: E402
from ndd_desktop.pipeline.reading import (  # noqa: E402
    HTML_READER, LEGACY_READING, READERS, READING_KEY, TEXT_READER, reading_choice, recorded_reading,
)
from ndd_desktop.store import Root, Store  # noqa: E402

TWEETS = {  # seed 001's example: a real near-duplicate and a templated look-alike
    "obama1.txt": "Vet, 77, Busted For Obama Death Threat | The Smoking Gun http://t.co/MrTUwxv via @",
    "obama2.txt": "Vet, 77, Busted For Obama Death Threat http://tinyurl.com/25zyxgp #tcot #tlot #sgp",
    "show1.txt": "Playing a show in Chicago, IL at 9:00 PM today at LE PASSAGE http://artistdata.com/a/32on",
    "show2.txt": "Playing a show in Cape Girardeau, MO at 9:00 PM today at The Venue http://artistdata.com/a/32ow",
}


def run(store, folder, params=None, html="main", **kw):
    config = ScanConfig(roots=[Root(str(folder))], method="qgram", params=dict(params or {}), workers=0,
                        extract_options=ExtractOptions(html=html))
    return ScanJob(store, config, **kw).run()


def scores(store, params=None) -> dict[tuple[str, str], float]:
    """Stored scores of the qgram pair set for ``params``, by pair of file names."""
    from ndd_desktop.core.methods import get_method

    method = get_method("qgram")
    rows = store.pairs.rows("qgram", method.pairs_key(method.params(params or {})), 0.0)
    return {tuple(sorted((os.path.basename(r.a.relpath), os.path.basename(r.b.relpath)))): r.score for r in rows}


def write(folder, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_ignoring_links_and_numbers_resketches_the_stored_text_and_keeps_it(tmp_path, store, calls):
    write(tmp_path / "t", TWEETS)
    run(store, tmp_path / "t")
    plain = scores(store)
    estimates = {tuple(sorted((os.path.basename(r.a.relpath), os.path.basename(r.b.relpath)))): r.estimate
                 for r in store.pairs.rows("qgram", get_method("qgram").pairs_key(get_method("qgram").params({})), 0.0)}
    # q-grams alone are fooled by the links and figures the look-alikes share ...
    assert estimates[("show1.txt", "show2.txt")] > estimates[("obama1.txt", "obama2.txt")]
    # ... the verified share is not: seven words in a row against one run of six
    assert plain[("obama1.txt", "obama2.txt")] > plain.get(("show1.txt", "show2.txt"), 0.0)
    calls["extract"], calls["sketch"] = 0, {}
    ignore = {"ignore": "urls,numbers"}
    summary = run(store, tmp_path / "t", ignore)
    assert calls["extract"] == 0 and calls["sketch"] == {"qgram": 4}  # from the stored texts
    assert summary.changed == 0
    ignoring = scores(store, ignore)
    assert ignoring[("obama1.txt", "obama2.txt")] > ignoring.get(("show1.txt", "show2.txt"), 0.0)
    texts = {d.relpath: store.documents.text(d.id) for d in store.documents.all()}
    assert texts["obama1.txt"] == TWEETS["obama1.txt"]  # the stored text stays the original
    calls["sketch"] = {}
    run(store, tmp_path / "t")  # back to the default: its sketches and pairs are still there
    assert calls["sketch"] == {} and scores(store) == plain


def site_folder(folder):
    write(folder, {
        "courier-harbour.html": page_site_a(*ARTICLE_HARBOUR),
        "courier-library.html": page_site_a(*ARTICLE_LIBRARY),
        "parish-harbour.html": page_site_b(*ARTICLE_HARBOUR),
        "notes.txt": "Pages saved from the Courier and the parish site in March.",
    })


def near_duplicates(store) -> set[tuple[str, str]]:
    """The pairs at qgram's default threshold (0.5: half of each page's words in common)."""
    return {pair for pair, score in scores(store).items() if score >= 0.5}


def test_web_pages_are_compared_by_their_main_text_and_a_changed_reading_reads_them_again(tmp_path, store, calls):
    site_folder(tmp_path / "w")
    run(store, tmp_path / "w")
    main = near_duplicates(store)
    assert main == {("courier-harbour.html", "parish-harbour.html")}
    assert recorded_reading(store.settings) == {"html": "main", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}
    calls["extract"] = 0
    run(store, tmp_path / "w")
    assert calls["extract"] == 0

    summary = run(store, tmp_path / "w", html="all")
    assert calls["extract"] == 3  # the HTML files, not notes.txt
    assert summary.changed == 3 and summary.new == 0
    assert near_duplicates(store) == {("courier-harbour.html", "courier-library.html")}  # the site's boilerplate
    doc = next(d for d in store.documents.all() if d.relpath == "courier-harbour.html")
    assert "Most read this week" in store.documents.text(doc.id)
    assert recorded_reading(store.settings) == {"html": "all", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}

    calls["extract"] = 0
    run(store, tmp_path / "w", html="all")
    assert calls["extract"] == 0
    run(store, tmp_path / "w")
    assert calls["extract"] == 3 and near_duplicates(store) == main


def test_a_scan_stopped_while_reading_again_leaves_the_next_scan_to_read_again(tmp_path, store, calls,
                                                                              monkeypatch):
    import ndd_desktop.ingest.pool as pool

    site_folder(tmp_path / "w")
    run(store, tmp_path / "w")
    main = near_duplicates(store)
    token = CancelToken()
    extract_many = pool.extract_many

    def stop_after_the_first_file(entries, limits, **kw):  # Cancel pressed while a page is read
        for docs in extract_many(entries, limits, **kw):
            yield docs
            token.cancel()

    monkeypatch.setattr(pool, "extract_many", stop_after_the_first_file)
    with pytest.raises(ScanCancelled):
        run(store, tmp_path / "w", html="all", cancel=token)
    monkeypatch.setattr(pool, "extract_many", extract_many)
    assert recorded_reading(store.settings) is None  # some pages may be read one way, some the other
    calls["extract"] = 0
    run(store, tmp_path / "w")  # the options of the first scan, yet every page is read again
    assert calls["extract"] == 4  # and the text: an unsettled reading may be a stopped re-reading of texts
    assert near_duplicates(store) == main and recorded_reading(store.settings) == {"html": "main", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}


def test_a_collection_from_before_the_reading_options_read_pages_whole():
    store = Store.open(":memory:")
    try:
        assert recorded_reading(store.settings) == LEGACY_READING == {"html": "all"}
        assert reading_choice(store.settings).html == "main"  # what the window offers: the default
    finally:
        store.close()


def test_a_new_collection_read_whole_records_it(tmp_path, store, calls):
    site_folder(tmp_path / "w")
    run(store, tmp_path / "w", html="all")
    assert store.settings.get(READING_KEY) == {"html": "all", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER} and reading_choice(store.settings).html == "all"
    calls["extract"] = 0
    run(store, tmp_path / "w", html="all")
    assert calls["extract"] == 0


def test_files_an_earlier_release_skipped_are_read_once_by_the_new_readers(tmp_path, store, calls):
    """A collection whose reading was recorded by the previous readers (no "readers" key)
    reads its skipped files again once: what it could not read may be readable now."""
    import gzip

    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "manual.1.gz").write_bytes(gzip.compress(b"NAME\n  tool - does one thing well\n" * 20))
    (folder / "plain.txt").write_text("a plain text that every release reads\n", encoding="utf-8")
    run(store, folder)
    [gz] = [d for d in store.documents.all(status=None) if d.relpath == "manual.1.gz"]
    assert gz.status == "ok"
    # as an earlier release left it: the .gz skipped, the reading recorded without readers
    with store._write() as conn:
        conn.exec_driver_sql("UPDATE documents SET status = 'skipped', reason = 'unsupported format: gz' "
                             "WHERE id = ?", (gz.id,))
    store.settings.put(READING_KEY, {"html": "main", "text_reader": TEXT_READER})
    calls["extract"] = 0
    run(store, folder)
    assert calls["extract"] == 1  # the skipped file only, not the unchanged text
    assert store.documents.get(gz.id).status == "ok"
    assert recorded_reading(store.settings) == {"html": "main", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}
    calls["extract"] = 0
    run(store, folder)
    assert calls["extract"] == 0


def test_pages_read_by_the_previous_web_page_reader_are_read_once_more(tmp_path, store, calls):
    """A collection whose main-text reading was recorded by the previous web-page reader (no
    "html_reader" key: a page without site furniture went through trafilatura, which drops
    its lists) reads its HTML files again once; other files stay as they are."""
    folder = tmp_path / "w"
    write(folder, {"plain.txt": "a plain text that every release reads the same way\n",
                   "report.html": "<html><body><h1>Annual report</h1><p>The year in brief.</p>"
                                  "<ul><li>Roof repaired</li><li>Archive catalogued</li></ul></body></html>"})
    run(store, folder)
    [page] = [d for d in store.documents.all() if d.relpath == "report.html"]
    assert "Archive catalogued" in store.documents.text(page.id)  # read whole: no site furniture
    store.settings.put(READING_KEY, {"html": "main", "readers": READERS, "text_reader": TEXT_READER})  # as the previous reader left it
    calls["extract"] = 0
    run(store, folder)
    assert calls["extract"] == 1  # the page, not the unchanged text
    assert recorded_reading(store.settings) == {"html": "main", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}
    calls["extract"] = 0
    run(store, folder)
    assert calls["extract"] == 0
    # a whole-page reading does not depend on that reader: nothing is read again
    run(store, folder, html="all")
    store.settings.put(READING_KEY, {"html": "all", "readers": READERS, "text_reader": TEXT_READER})
    calls["extract"] = 0
    run(store, folder, html="all")
    assert calls["extract"] == 0


def test_texts_and_messages_read_by_the_previous_decoders_are_read_once_more(tmp_path, store, calls):
    """A collection recorded before the text decoders' generation ("text_reader": a Polish
    text read as cp1252, a mail's header lines in its text) reads its texts and messages
    again once, with the text they give now; other formats stay as they are."""
    folder = tmp_path / "t"
    polish = "Protokoły komisji portowej przeniesiono do archiwum miejskiego w zeszłym roku."
    write(folder, {"note.txt": polish, "mail.eml": "From: a@x.org\nSubject: hi\n\nThe harbour minutes arrived.\n"})
    (folder / "note.txt").write_bytes(polish.encode("cp1250"))
    (folder / "letter.odt").write_bytes(make_odt(["The harbour minutes arrived in March."]))
    # generation 3 reads a DOCX's notes, headers and footers too: it is read again as well
    (folder / "report.docx").write_bytes(make_docx(["The harbour minutes arrived in March."]))
    run(store, folder)
    note = next(d for d in store.documents.all() if d.relpath == "note.txt")
    assert store.documents.text(note.id) == polish
    store.settings.put(READING_KEY, {"html": "main", "readers": READERS, "html_reader": HTML_READER})  # as the previous release left it
    calls["extract"] = 0
    run(store, folder)
    assert calls["extract"] == 3  # the text, the mail and the DOCX, not the ODT
    assert recorded_reading(store.settings) == {"html": "main", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}
    calls["extract"] = 0
    run(store, folder)
    assert calls["extract"] == 0
