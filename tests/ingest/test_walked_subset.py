"""A walk's files held as columns, and the files a plan reads as indices into them
(``ingest.walked``): each FileEntry is made only when a reader is handed its file."""

from __future__ import annotations

from ndd_desktop.ingest.document import FileEntry
from ndd_desktop.ingest.walked import WalkedFiles

ENTRIES = [
    FileEntry("/r", "a.txt", "/r/a.txt", 1, 10),
    FileEntry("/r", "b/c.txt", "/r/b/c.txt", 2, 20),
    FileEntry("/s", "a.txt", "/s/a.txt", 3, 30),
    FileEntry("/s", "link.txt", "/elsewhere/real.txt", 4, 40),  # reached through a followed link
    FileEntry("/t", "z.txt", "/t/z.txt", 5, 50),
]


def test_a_subset_is_the_walk_s_entries_at_its_indices_in_its_order():
    walked = WalkedFiles.of(ENTRIES)
    sub = walked.subset([3, 0, 2, 4])
    assert list(sub) == [ENTRIES[3], ENTRIES[0], ENTRIES[2], ENTRIES[4]] and len(sub) == 4
    assert (sub[0], sub[1], sub[-1]) == (ENTRIES[3], ENTRIES[0], ENTRIES[4])
    assert list(sub[1:3]) == [ENTRIES[0], ENTRIES[2]] and len(sub[1:3]) == 2
    assert list(sub.relpaths()) == ["link.txt", "a.txt", "a.txt", "z.txt"]
    assert [walked.entry(k) for k in range(len(walked))] == ENTRIES == list(walked.subset(range(5)))
    assert not walked.subset(()) and list(WalkedFiles().subset(())) == []


def test_a_file_is_found_by_its_root_and_relative_path():
    walked = WalkedFiles.of(ENTRIES)
    assert [walked.index_of(e.root, e.relpath) for e in ENTRIES] == [0, 1, 2, 3, 4]
    assert [walked.root_of(k) for k in range(5)] == ["/r", "/r", "/s", "/s", "/t"]
    # the same name under another root, a path not walked, a root not walked
    assert walked.index_of("/t", "a.txt") is None and walked.index_of("/r", "c.txt") is None
    assert walked.index_of("/u", "a.txt") is None
    # files added after the first lookup are found too
    walked.add(FileEntry("/t", "a.txt", "/t/a.txt", 6, 60))
    assert walked.index_of("/t", "a.txt") == 5 and walked.entry(5).size == 6
    # the columns a walk hands on and empties in place are no longer found
    taken = walked.take()
    assert taken[5].relpath == "a.txt" and walked.index_of("/t", "a.txt") is None
    walked.add(FileEntry("/t", "b.txt", "/t/b.txt", 7, 70))
    assert walked.index_of("/t", "b.txt") == 0 and walked.index_of("/r", "a.txt") is None
