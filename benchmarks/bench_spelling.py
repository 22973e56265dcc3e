"""Speed of the hybrid method's spelling corrector (moved here from the tests: timings
depend on the machine, so they are measured, not asserted).

    python benchmarks/bench_spelling.py
"""

from __future__ import annotations

import time

from ndd_desktop.core.spelling import SpellingCorrector
from ndd_desktop.core.vocabulary import wordfreq_dictionary


def main() -> None:
    d = wordfreq_dictionary("en", 50000)
    c = SpellingCorrector(d)
    typos = [w[:1] + w[2:] for w in list(d)[2000:2400] if len(w) >= 5 and w.isalpha()]
    typos = [t for t in typos if t not in d]
    start = time.perf_counter()
    c.correct_words(typos)
    seconds = time.perf_counter() - start
    print(f"{len(typos)} misspelt words corrected in {seconds:.3f} s: {len(typos) / seconds:,.0f} words/s "
          "(about 1,500 words/s on the reference machine)")


if __name__ == "__main__":
    main()
