"""Flow 2: folders (also dropped), reference marks, a method and its generated form."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QComboBox, QDoubleSpinBox, QSpinBox

from ndd_desktop.core.methods import get_method
from ndd_desktop.gui.param_form import ChoiceSet, ParamForm
from ndd_desktop.gui.resources import folder_store_path
from ndd_desktop.gui.scan_setup import available_methods


def drop_folders(widget, folders: list[Path]) -> None:
    """Send a drag-enter and a drop of ``folders`` to ``widget``, as a file manager would."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(f)) for f in folders])
    enter = QDragEnterEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, drop)


def test_folders_by_dialog_and_drop_with_reference(window, tmp_path, data_dir):
    first, second, third = (tmp_path / n for n in ("holdings", "accession", "more"))
    for f in (first, second, third):
        f.mkdir()
    assert window.open_folder(str(first))
    assert window.stack.currentIndex() == 1
    # the store goes to the user's data folder by default, named after the folder and its path
    assert Path(window.collection.path) == folder_store_path(first, data_dir)
    assert Path(window.collection.path).parent == data_dir / "collections"
    assert Path(window.collection.path).name.startswith("holdings-")
    drop_folders(window.setup, [second, third])
    assert [p for p, _ in window.setup.roots()] == [str(first), str(second), str(third)]
    window.setup.set_reference(str(first), True)
    assert window.setup.roots()[0] == (str(first), True)
    assert window.setup.roots()[1] == (str(second), False)
    window.setup.folders.setCurrentRow(2)
    window.setup.remove_selected()
    assert len(window.setup.roots()) == 2
    # a file dropped is not a folder: refused
    (tmp_path / "note.txt").write_text("x")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(tmp_path / "note.txt"))])
    enter = QDragEnterEvent(QPoint(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window.setup, enter)
    assert not enter.isAccepted()


def test_a_folder_inside_a_listed_one_is_refused_when_added(window, tmp_path):
    """It was listed and saved, and only the scan failed ("give each folder once")."""
    outer = tmp_path / "letters"
    (outer / "1990").mkdir(parents=True)
    assert window.open_folder(str(outer))
    assert not window.setup.add_folder(str(outer / "1990"))
    assert not window.setup.add_folder(str(tmp_path))  # one that holds a listed folder
    assert [p for p, _ in window.setup.roots()] == [str(outer)]
    assert [r.path for r in window.collection.store.documents.roots()] == [str(outer)]
    message = window.statusBar().currentMessage()
    assert message.startswith("Not added: ") and "is inside" in message and "give each folder once" in message
    drop_folders(window.setup, [outer / "1990"])  # dropped: refused alike
    assert [p for p, _ in window.setup.roots()] == [str(outer)]


def test_method_list_has_a_description_each_and_builds_the_form(window, tmp_path):
    window.open_folder(str(tmp_path))
    methods = available_methods()
    assert window.setup.methods.count() == len(methods) >= 2
    for k, m in enumerate(methods):
        item = window.setup.methods.item(k)
        assert m.name in item.text() and m.description in item.text()
        window.setup.methods.setCurrentRow(k)
        assert m.description in window.setup.description.text()
        names = [i.name for i in m.param_infos()]
        assert list(window.setup.params()) == names
        for info in m.param_infos():
            editor = window.setup.form.editor(info.name)
            assert editor.toolTip() and info.help.split()[0] in editor.toolTip()
            if isinstance(editor, (QSpinBox, QDoubleSpinBox)) and info.minimum is not None:
                assert editor.minimum() == info.minimum
            if isinstance(editor, (QSpinBox, QDoubleSpinBox)) and info.maximum is not None:
                assert editor.maximum() == info.maximum
            if info.choices and info.multiple:  # any subset: a menu of check marks
                assert isinstance(editor, ChoiceSet) and list(editor.choice_actions) == list(info.choices)
            elif info.choices:
                assert isinstance(editor, QComboBox)
                assert [editor.itemData(i) for i in range(editor.count())] == list(info.choices)


def test_form_ranges_and_reset(qtbot):
    method = next(m for m in available_methods() if any(i.type is int and i.maximum for i in m.param_infos()))
    info = next(i for i in method.param_infos() if i.type is int and i.maximum)
    form = ParamForm()
    qtbot.addWidget(form)
    form.set_params(method.param_infos())
    assert form.values() == {i.name: i.default for i in method.param_infos()}
    assert not form.reset_button(info.name).isEnabled()
    form.set_value(info.name, info.maximum + 100)  # clamped to the range
    assert form.values()[info.name] == info.maximum
    assert form.reset_button(info.name).isEnabled()
    assert form.changed_values() == ({info.name: info.maximum} if info.maximum != info.default else {})
    qtbot.mouseClick(form.reset_button(info.name), Qt.MouseButton.LeftButton)
    assert form.values()[info.name] == info.default
    get_method(method.name).params(form.values())  # the form's values are valid parameters


def test_the_remove_question_counts_documents_as_the_window_does():
    """It said 205 documents where the window counted 203 (two files could not be read)."""
    from ndd_desktop.gui.pair_set_views import remove_question

    text = remove_question("/archive/letters", 203, 2, 1)
    assert "203 documents read from it will be dropped from the collection, with their pairs (and the records " \
           "of 2 files that could not be read), and 1 review decision about them" in text
    assert "could not be read" not in remove_question("/archive/letters", 1, 0, 0)
