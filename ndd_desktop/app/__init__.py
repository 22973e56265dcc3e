"""The application layer: what the window and ``ndd`` show of one collection, without Qt.

``selection`` resolves which pair set, threshold, keeper rule and grouping a view shows;
``session`` holds one open collection's state and review actions; ``analyses`` gives the
version order, near-duplicate folders and e-mail threads of what a session shows, and
``group_review`` a group against a reference with bulk review; ``elapsed`` says how long a
finished scan or export took. The window (``gui.collection``) and the CLI are views over
these; a policy lives here once.
"""

from .selection import GroupingChoice, Selection, SelectionError, choose_grouping, default_selection, select

__all__ = ["GroupingChoice", "Selection", "SelectionError", "choose_grouping", "default_selection", "select"]
