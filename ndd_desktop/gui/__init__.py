"""The desktop application (PySide6): the only package that imports Qt.

Start it with :func:`ndd_desktop.gui.app.main` (the ``ndd-desktop`` command).
"""
