"""A form built from a method's parameter definitions (``Method.param_infos()``).

Each parameter gets the editor its type calls for (a spin box bounded by its range, a combo
box for choices, a button with a menu of check marks for any subset of choices such as
``ignore``, a check box for flags), its help text as a tooltip, and a button that resets
it to its default. Parameters that change the sketch are marked, because changing one
re-sketches every document.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QWidget,
)

from ..core.params import ParamInfo

_INT_LIMIT = 2**31 - 1


class _StayOpenMenu(QMenu):
    """A menu that stays open when a check mark is toggled, so several can be set at once."""

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt override
        action = self.activeAction()
        if action is not None and action.isCheckable() and action.isEnabled():
            action.trigger()
            return
        super().mouseReleaseEvent(event)


class ChoiceSet(QToolButton):
    """A parameter that takes any subset of its choices: a button showing the chosen ones
    ("none" when none) with a menu of check marks (a row of check boxes does not fit the
    narrow set-up panel). The value is the chosen ones comma-separated, in the order of the
    choices ("" for none)."""

    changed = Signal()

    def __init__(self, choices: tuple, parent: QWidget | None = None):
        super().__init__(parent)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        menu = _StayOpenMenu(self)
        self.choice_actions: dict[str, QAction] = {}
        for choice in choices:
            action = menu.addAction(str(choice))
            action.setCheckable(True)
            action.toggled.connect(self._toggled)
            self.choice_actions[str(choice)] = action
        self.setMenu(menu)
        self._show_value()

    def value(self) -> str:
        """The chosen items, comma-separated."""
        return ",".join(name for name, action in self.choice_actions.items() if action.isChecked())

    def set_value(self, value: Any) -> None:
        """Check the items named in ``value`` ("a,b" or a list), uncheck the others."""
        items = value.split(",") if isinstance(value, str) else list(value or ())
        wanted = {str(i).strip().lower() for i in items}
        for name, action in self.choice_actions.items():
            action.setChecked(name in wanted)
        self._show_value()

    def _toggled(self, _checked: bool = False) -> None:
        self._show_value()
        self.changed.emit()

    def _show_value(self) -> None:
        self.setText(self.value().replace(",", ", ") or "none")


class ParamForm(QWidget):
    """Editors for one method's parameters; ``changed`` fires on every edit."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._infos: list[ParamInfo] = []
        self._building = False
        self._editors: dict[str, QWidget] = {}
        self._resets: dict[str, QToolButton] = {}
        self._layout = QFormLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)

    # -- building -------------------------------------------------------------------------
    def set_params(self, infos: list[ParamInfo], values: dict[str, Any] | None = None) -> None:
        """Rebuild the form for ``infos``, filled with ``values`` (defaults for the rest)."""
        self._building = True
        try:
            self._build(infos, values)
        finally:
            self._building = False
        self._update_resets()

    def _build(self, infos: list[ParamInfo], values: dict[str, Any] | None) -> None:
        while self._layout.rowCount():
            self._layout.removeRow(0)
        self._infos = list(infos)
        self._editors.clear()
        self._resets.clear()
        values = values or {}
        for info in self._infos:
            editor = self._make_editor(info)
            self._editors[info.name] = editor
            self._set_editor_value(info, editor, values.get(info.name, info.default))
            reset = QToolButton(self)
            reset.setText("↺")
            reset.setAccessibleName(f"Reset {info.label}")
            reset.setToolTip(f"Reset {info.label} to its default ({info.default if info.default != '' else 'none'})")
            reset.clicked.connect(lambda _=False, i=info: self.reset(i.name))
            self._resets[info.name] = reset
            row = QHBoxLayout()
            row.addWidget(editor, 1)
            row.addWidget(reset)
            label = QLabel(info.label + ("" if not info.affects_sketch else " *"), self)
            label.setBuddy(editor)
            label.setToolTip(self._tooltip(info))
            self._layout.addRow(label, row)
        if any(i.affects_sketch for i in self._infos):
            note = QLabel("* changing this re-reads every document's sketch", self)
            note.setEnabled(False)
            note.setWordWrap(True)  # wraps in a narrow panel instead of being cut off
            self._layout.addRow(note)

    def _tooltip(self, info: ParamInfo) -> str:
        parts = [info.help or info.label]
        if info.minimum is not None or info.maximum is not None:
            parts.append(f"Range: {info.minimum if info.minimum is not None else '…'} to "
                         f"{info.maximum if info.maximum is not None else '…'}")
        if info.choices:
            parts.append(("Any of: " if info.multiple else "Choices: ") + ", ".join(str(c) for c in info.choices))
        parts.append(f"Default: {info.default if info.default != '' else 'none'}")
        return "\n".join(parts)

    def _make_editor(self, info: ParamInfo) -> QWidget:
        if info.choices and info.multiple:
            editor: QWidget = ChoiceSet(info.choices, self)
            editor.changed.connect(self._on_edit)
        elif info.choices:
            editor: QWidget = QComboBox(self)
            for choice in info.choices:
                editor.addItem(str(choice), choice)
            editor.currentIndexChanged.connect(self._on_edit)
        elif info.type is bool:
            editor = QCheckBox(self)
            editor.toggled.connect(self._on_edit)
        elif info.type is int:
            editor = QSpinBox(self)
            editor.setRange(
                int(info.minimum) if info.minimum is not None else -_INT_LIMIT,
                int(info.maximum) if info.maximum is not None else _INT_LIMIT,
            )
            editor.valueChanged.connect(self._on_edit)
        elif info.type is float:
            editor = QDoubleSpinBox(self)
            editor.setDecimals(3)
            editor.setSingleStep(0.01 if (info.maximum or 2) <= 1 else 0.1)
            editor.setRange(
                float(info.minimum) if info.minimum is not None else -1e12,
                float(info.maximum) if info.maximum is not None else 1e12,
            )
            editor.valueChanged.connect(self._on_edit)
        else:
            editor = QLineEdit(self)
            editor.textChanged.connect(self._on_edit)
        editor.setObjectName(f"param_{info.name}")
        editor.setToolTip(self._tooltip(info))
        editor.setAccessibleName(info.label)
        return editor

    # -- values ---------------------------------------------------------------------------
    @staticmethod
    def _set_editor_value(info: ParamInfo, editor: QWidget, value: Any) -> None:
        if isinstance(editor, ChoiceSet):
            editor.set_value(value)
        elif isinstance(editor, QComboBox):
            idx = editor.findData(value)
            if idx < 0:
                idx = editor.findText(str(value))
            editor.setCurrentIndex(max(idx, 0))
        elif isinstance(editor, QCheckBox):
            editor.setChecked(bool(value) if not isinstance(value, str) else value.lower() in ("1", "true", "yes"))
        elif isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            try:
                editor.setValue(info.type(value))
            except (TypeError, ValueError):
                editor.setValue(info.type(info.default))
        elif isinstance(editor, QLineEdit):
            editor.setText(str(value))

    @staticmethod
    def _editor_value(info: ParamInfo, editor: QWidget) -> Any:
        if isinstance(editor, ChoiceSet):
            return editor.value()
        if isinstance(editor, QComboBox):
            return editor.currentData()
        if isinstance(editor, QCheckBox):
            return editor.isChecked()
        if isinstance(editor, (QSpinBox, QDoubleSpinBox)):
            return info.type(editor.value())
        return info.type(editor.text()) if info.type is not str else editor.text()

    def values(self) -> dict[str, Any]:
        """The current value of every parameter."""
        return {i.name: self._editor_value(i, self._editors[i.name]) for i in self._infos}

    def changed_values(self) -> dict[str, Any]:
        """Only the parameters that differ from their defaults."""
        return {k: v for k, v in self.values().items() if v != self._info(k).default}

    def set_value(self, name: str, value: Any) -> None:
        """Set one parameter."""
        self._set_editor_value(self._info(name), self._editors[name], value)

    def editor(self, name: str) -> QWidget:
        """The editor widget of one parameter (for tests and focus handling)."""
        return self._editors[name]

    def reset_button(self, name: str) -> QToolButton:
        """The reset button of one parameter."""
        return self._resets[name]

    def reset(self, name: str) -> None:
        """Put one parameter back to its default."""
        self.set_value(name, self._info(name).default)

    def reset_all(self) -> None:
        """Put every parameter back to its default."""
        for info in self._infos:
            self._set_editor_value(info, self._editors[info.name], info.default)

    def _info(self, name: str) -> ParamInfo:
        for info in self._infos:
            if info.name == name:
                return info
        raise KeyError(name)

    def _on_edit(self, *_: Any) -> None:
        if self._building:
            return
        self._update_resets()
        self.changed.emit()

    def _update_resets(self) -> None:
        values = self.values() if self._infos else {}
        for info in self._infos:
            self._resets[info.name].setEnabled(values.get(info.name) != info.default)


