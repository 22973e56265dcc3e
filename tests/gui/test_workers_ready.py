"""Opening a collection that holds no document yet starts the extraction workers' server, so
its first scan does not wait the half second the server's imports take; opening one that
holds documents starts nothing."""

from __future__ import annotations

from fresh_python import fresh_python

#: Run after two lines that set WORK (an empty folder) and WHICH ("new" or "held").
_SCRIPT = """
import os
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from pathlib import Path
import psutil
import ndd_desktop.gui  # noqa: F401
from ndd_desktop.gui.app import create_application
from ndd_desktop.gui.main_window import MainWindow
from ndd_desktop.gui.settings import Settings
from ndd_desktop.store import Root, Store

def servers():
    return [p for p in psutil.Process().children() if "multiprocessing.forkserver" in " ".join(p.cmdline())]

app = create_application()
work = Path(WORK)
w = MainWindow(settings=Settings.at(str(work / "settings.ini")), data_dir=work / "data")
if WHICH == "new":
    folder = work / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("a letter about the mill", encoding="utf-8")
    assert w.open_folder(str(folder))
else:  # a collection scanned before, read in this process (no workers, no server)
    from ndd_desktop.pipeline import ScanConfig, ScanJob
    folder = work / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("a letter about the mill", encoding="utf-8")
    path = work / "held.ndd"
    with Store.open(str(path)) as store:
        ScanJob(store, ScanConfig(roots=[Root(str(folder), False)], method="exact", workers=0)).run()
    assert not servers()
    assert w.open_store(str(path))
app.processEvents()
print("SERVERS", len(servers()), w.collection.store.documents.count(status=None))
w.close()
"""


def test_a_new_collection_gets_its_workers_server_at_once(tmp_path):
    out = fresh_python(f"WORK = {str(tmp_path)!r}\nWHICH = 'new'\n" + _SCRIPT).strip().splitlines()[-1]
    assert out == "SERVERS 1 0"


def test_a_collection_with_documents_starts_no_server(tmp_path):
    out = fresh_python(f"WORK = {str(tmp_path)!r}\nWHICH = 'held'\n" + _SCRIPT).strip().splitlines()[-1]
    assert out == "SERVERS 0 1"
