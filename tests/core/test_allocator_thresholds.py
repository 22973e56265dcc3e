"""core.allocator: with the allocator's thresholds fixed, sketching batch after batch reuses
its buffers instead of faulting in fresh pages for every batch."""

import subprocess
import sys

WORKLOAD = """
import resource, sys
import numpy as np
from ndd_desktop.core.allocator import keep_freed_memory
from ndd_desktop.core.minhash_sketch import sketch_matrix
if sys.argv[1] == "keep":
    assert keep_freed_memory() and keep_freed_memory()  # a second call changes nothing
rng = np.random.default_rng(5)
words = [f"w{k}" for k in range(3000)] + ["déjà", "über"]
texts = [" ".join(rng.choice(words, int(rng.integers(300, 900)))) for _ in range(400)]
sketch_matrix(texts[:50], "words", 3, 128)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for lo in range(0, 400, 50):
    sketch_matrix(texts[lo:lo + 50], "words", 3, 128)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def page_faults(mode: str) -> int:
    done = subprocess.run([sys.executable, "-c", WORKLOAD, mode], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


def test_batches_reuse_their_buffers():
    if not sys.platform.startswith("linux"):
        from ndd_desktop.core.allocator import keep_freed_memory

        assert keep_freed_memory() is False
        return
    default, kept = page_faults("default"), page_faults("keep")
    # 8 batches of ~1.5 MB of text: thousands of faults with the default thresholds
    # (4,836 when written), a few dozen with them fixed (39)
    assert kept * 10 < default, (kept, default)
