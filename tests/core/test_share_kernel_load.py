"""The verification kernel loads without importing SciPy's linear algebra, and computes as before."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from ndd_desktop.core.share_kernel import covered_batch, load


def test_loading_the_kernel_leaves_scipy_linalg_unimported_and_imports_unblocked():
    code = (
        "import sys\n"
        "from ndd_desktop.core import share_kernel\n"
        "share_kernel.load()\n"
        "print('scipy.linalg' in sys.modules, 'scipy.linalg.cython_blas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    # numba asked for BLAS while loading (it would import scipy.linalg when installed); the
    # stand-in that refused it is gone again, so a later import of SciPy works as usual
    assert out == ["False", "False"]


def test_worked_values_after_loading():
    load()
    # document 0: runs 10, 20, 30 at positions 0, 1, 2; document 1: runs 20, 30, 40 at 0, 1, 2
    srt = np.array([10, 20, 30, 20, 30, 40], dtype=np.uint64)
    pos = np.array([0, 1, 2, 0, 1, 2], dtype=np.int64)
    off = np.array([0, 3, 6], dtype=np.int64)
    ci, cj = covered_batch(srt, pos, off, np.array([0]), np.array([1]), 2)
    # runs of two words: document 0's runs 1 and 2 cover words 1..3; document 1's runs 0
    # and 1 cover words 0..2
    assert ci.tolist() == [3] and cj.tolist() == [3]
