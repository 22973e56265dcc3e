"""Format detection's name rules: the extension of a name, one by one and many at once."""

from __future__ import annotations


def test_the_extensions_of_many_names_are_those_ext_of_gives():
    """``extensions`` (a plan's thousands of paths at once) follows ext_of's rules, checked
    on names made of the characters the rules turn on and on worked cases."""
    import itertools

    from ndd_desktop.ingest.detect import ext_of, extensions

    worked = {"a/b.TXT": "txt", ".bashrc": "", "dir.d/file": "", "x/..txt": "", "x/a..b": "b", "a.": "",
              "a/.x.PDF": "pdf", "noext": "", "d/.": "", "Ünïcode.DOCX": "docx", "a.tar.gz": "gz"}
    for name, ext in worked.items():
        assert ext_of(name) == ext and extensions([name]) == {ext}, name
    names = ["".join(p) for n in range(1, 6) for p in itertools.product("a./", repeat=n)]
    assert all(extensions([n]) == {ext_of(n)} for n in names)
    assert extensions(names) == {ext_of(n) for n in names}
