"""Every control has a tooltip and can take the keyboard focus, at both window sizes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QWidget,
)

CONTROLS = (QAbstractButton, QAbstractItemView, QAbstractSlider, QAbstractSpinBox, QComboBox, QLineEdit,
            QPlainTextEdit)


def controls(root):
    for w in root.findChildren(QWidget):
        if isinstance(w, CONTROLS) and w.isVisibleTo(root) and not isinstance(w.parent(), (QTabBar,)):
            # scroll bars and header sections are parts of a view, explained by the view's tooltip
            if w.objectName().startswith("qt_") or type(w).__name__ == "QScrollBar" or isinstance(w, QHeaderView):
                continue
            yield w


def test_controls_have_tooltips_and_take_focus(qtbot, window, tmp_path):
    for size in ((1280, 800), (1920, 1080)):
        window.resize(*size)
        window.stack.setCurrentIndex(0)
        pages = [window.start_page]
        window.open_folder(str(tmp_path))
        pages.append(window.split)
        for page in pages:
            window.stack.setCurrentWidget(page)
            for tab in range(window.tabs.count()):
                window.tabs.setCurrentIndex(tab)
                checked = list(controls(page))
                assert len(checked) >= (4 if page is window.start_page else 20)
                for w in checked:
                    name = w.accessibleName() or w.objectName() or getattr(w, "text", lambda: "")()
                    assert w.toolTip(), f"{type(w).__name__} {name!r} has no tooltip"
                    assert w.focusPolicy() != Qt.FocusPolicy.NoFocus, f"{type(w).__name__} {name!r} takes no focus"
    for n in range(window.tabs.count()):
        assert window.tabs.tabToolTip(n)
