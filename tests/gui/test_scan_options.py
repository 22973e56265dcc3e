"""The scan settings of the window: what to leave out of the text (``ignore``, check boxes in
every method's form) and how web pages are read (main text or whole page)."""

from __future__ import annotations

from gui_helpers import scan
from PySide6.QtCore import Qt

from ndd_desktop.core.methods import get_method
from ndd_desktop.gui.scan_runner import WINDOW_NICENESS, window_scan_config
from ndd_desktop.pipeline import Limits
from ndd_desktop.pipeline.reading import HTML_READER, READERS, TEXT_READER, recorded_reading

TWEETS = {  # seed 001's example: a real near-duplicate and a templated look-alike
    "obama1.txt": "Vet, 77, Busted For Obama Death Threat | The Smoking Gun http://t.co/MrTUwxv via @",
    "obama2.txt": "Vet, 77, Busted For Obama Death Threat http://tinyurl.com/25zyxgp #tcot #tlot #sgp",
    "show1.txt": "Playing a show in Chicago, IL at 9:00 PM today at LE PASSAGE http://artistdata.com/a/32on",
    "show2.txt": "Playing a show in Cape Girardeau, MO at 9:00 PM today at The Venue http://artistdata.com/a/32ow",
}


def stored_scores(window, column: str = "score") -> dict[tuple[str, str], float]:
    """The scores (or the method's estimates) of the pair set the window shows, by pair of file names."""
    data = window.collection.data
    rows = window.collection.store.pairs.rows(data.method, data.pairs_key, 0.0)
    return {tuple(sorted((r.a.relpath, r.b.relpath))): getattr(r, column) for r in rows}


def test_every_method_form_has_the_ignore_choices(qtbot, window):
    for name in ("qgram", "bottomk", "minhash", "exact"):
        window.setup.set_method(name, {})
        editor = window.setup.form.editor("ignore")
        assert list(editor.choice_actions) == ["urls", "emails", "numbers"]
        assert editor.text() == "none" and not any(a.isChecked() for a in editor.choice_actions.values())
        assert not window.setup.form.reset_button("ignore").isEnabled()
    window.setup.set_method("qgram", {"ignore": "numbers,urls"})
    editor = window.setup.form.editor("ignore")
    assert [n for n, a in editor.choice_actions.items() if a.isChecked()] == ["urls", "numbers"]
    assert editor.text() == "urls, numbers"
    assert window.setup.form.reset_button("ignore").isEnabled()
    window.setup.form.reset("ignore")
    assert window.setup.params()["ignore"] == "" and editor.text() == "none"


def test_the_ignore_menu_stays_open_while_items_are_ticked(qtbot, window):
    window.setup.set_method("qgram", {})
    editor = window.setup.form.editor("ignore")
    menu = editor.menu()
    menu.popup(editor.mapToGlobal(editor.rect().bottomLeft()))
    qtbot.waitUntil(menu.isVisible)
    for name in ("emails", "urls"):
        action = editor.choice_actions[name]
        qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())
        assert menu.isVisible() and action.isChecked()
    assert window.setup.params()["ignore"] == "urls,emails"
    menu.close()


def test_ticking_links_and_numbers_rescans_with_them_left_out(qtbot, window, tmp_path):
    folder = tmp_path / "tweets"
    folder.mkdir()
    for name, text in TWEETS.items():
        (folder / name).write_text(text, encoding="utf-8")
    assert window.open_folder(str(folder))
    window.setup.set_method("qgram", {})
    scan(qtbot, window)
    plain = stored_scores(window, "estimate")  # q-grams alone are fooled by the shared links and figures
    assert plain[("show1.txt", "show2.txt")] > plain[("obama1.txt", "obama2.txt")]
    editor = window.setup.form.editor("ignore")
    editor.choice_actions["urls"].trigger()
    editor.choice_actions["numbers"].trigger()
    assert window.setup.params()["ignore"] == "urls,numbers"
    scan(qtbot, window)
    qgram = get_method("qgram")
    assert window.collection.data.pairs_key == qgram.pairs_key(qgram.params({"ignore": "urls,numbers"}))
    ignoring = stored_scores(window)
    assert ignoring[("obama1.txt", "obama2.txt")] > ignoring.get(("show1.txt", "show2.txt"), 0.0)


def test_the_web_page_choice_is_used_and_remembered_with_the_collection(qtbot, window, tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    menu = "".join(f"<li><a href='/s{k}'>Section number {k} of the site menu</a></li>" for k in range(40))
    article = " ".join(f"The minutes of meeting {k} record the decision on the bridge." for k in range(30))
    (folder / "page.html").write_text(f"<html><head><title>t</title></head><body><nav><ul>{menu}</ul></nav>"
                                      f"<article><h1>Minutes</h1><p>{article}</p></article></body></html>")
    (folder / "copy.html").write_text((folder / "page.html").read_text())
    assert window.open_folder(str(folder))
    combo = window.setup.html_reading
    assert (window.setup.html_choice(), combo.currentText()) == ("main", "main text")
    scan(qtbot, window)
    store = window.collection.store
    [doc, _] = store.documents.all()
    assert "Section number 7" not in store.documents.text(doc.id)
    combo.setCurrentIndex(combo.findData("all"))
    assert window.setup.html_choice() == "all"
    scan(qtbot, window)
    assert "Section number 7" in store.documents.text(doc.id)
    assert recorded_reading(store.settings) == {"html": "all", "readers": READERS, "html_reader": HTML_READER, "text_reader": TEXT_READER}
    path = str(store.path)
    combo.setCurrentIndex(combo.findData("main"))
    assert window.open_store(path)  # reopened: the choice the collection was read with
    assert window.setup.html_choice() == "all" and window.setup.html_reading.currentText() == "whole page"


def test_a_window_scan_reads_on_every_core_below_the_window(tmp_path):
    config = window_scan_config([(str(tmp_path), False)], "minhash", {"ignore": "urls"}, 0.3, html="all")
    assert config.workers is None  # as many workers as cores (ingest.pool.default_workers)
    assert WINDOW_NICENESS > 0
    assert config.limits == Limits(worker_niceness=WINDOW_NICENESS)  # every other limit the default
    assert (config.method, config.params, config.floor, config.extract_options.html) == (
        "minhash", {"ignore": "urls"}, 0.3, "all")
    assert [(r.path, r.reference) for r in config.roots] == [(str(tmp_path), False)]


def test_a_scan_of_tables_with_a_passage_search_says_which_method_finds_their_pairs(qtbot, window, tmp_path):
    folder = tmp_path / "tables"
    folder.mkdir()
    for k in range(3):
        rows = "\n".join(f"customer{k * 50 + i},product{i % 7},{i * 3.25:.2f}" for i in range(40))
        (folder / f"sales{k}.csv").write_text(rows)
        (folder / f"sales{k}_eu.csv").write_text(rows.replace(",", ";").replace(".", ","))
    assert window.open_folder(str(folder))
    window.setup.set_method("bottomk", {})
    scan(qtbot, window)
    assert "6 of the 6 documents are tables or logs" in window.progress.label.text()
    window.setup.set_method("qgram", {})
    scan(qtbot, window)
    assert "tables or logs" not in window.progress.label.text()
