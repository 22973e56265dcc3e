"""``ndd lineage`` and the keeper rule ``latest`` on scanned hand-made histories."""

from __future__ import annotations

import csv
import io
import json
import os
import random

import pytest

from ndd_desktop.cli import main
from cli_run import run

WORDS = ("archive record letter council minute budget harbour school river bridge market tax road "
         "church mill farm court clerk deed lease survey map plan rent wage fund loan grant").split()


def history(seed: int, n: int) -> list[str]:
    """n versions of one document: each adds a sentence; the later ones carry a later date."""
    rng = random.Random(seed)
    sentences = [" ".join(rng.choice(WORDS) for _ in range(12)) + "." for _ in range(40)]
    out = []
    for k in range(n):
        out.append(f"Rules of the {seed} board\nLast updated: {2010 + k}-05-0{seed % 9 + 1}\n\n" + "\n".join(sentences))
        sentences.insert(rng.randrange(len(sentences)), " ".join(rng.choice(WORDS) for _ in range(12)) + ".")
    return out


@pytest.fixture(scope="module")
def histories(tmp_path_factory):
    """Two histories of 5 and 4 versions under random names, scanned once for the module
    (the tests only read it): (collection file, {name: (history, place)})."""
    tmp_path = tmp_path_factory.mktemp("lineage")
    folder = tmp_path / "docs"
    folder.mkdir()
    truth = {}
    rng = random.Random(3)
    for h, n in ((1, 5), (2, 4)):
        for place, text in enumerate(history(h, n), start=1):
            name = "".join(rng.choice("abcdefghjkmnpqrstuwxyz") for _ in range(10)) + ".txt"
            (folder / name).write_text(text)
            os.utime(folder / name, (1_600_000_000, 1_600_000_000))  # equal file dates: the content decides
            truth[name] = (h, place)
    db = tmp_path / "c.ndd"
    assert main(["scan", str(folder), "--db", str(db), "-q", "--workers", "0"]) == 0
    return db, truth


def test_lineage_json_lists_each_group_oldest_first(capsys, histories):
    db, truth = histories
    status, out, err = run(capsys, "lineage", "--db", db, "--format", "json")
    assert status == 0, err
    groups = json.loads(out)
    assert len(groups) == 2
    for g in groups:
        places = [truth[p][1] for p in g["order"]]
        assert places == sorted(places) and len({truth[p][0] for p in g["order"]}) == 1
        assert truth[g["latest"]][1] == max(places) == len(places)
        assert g["level"] in ("high", "medium", "low") and 0.0 <= g["confidence"] <= 1.0
        assert [m["place"] for m in g["members"]] == list(range(1, len(places) + 1))
        assert g["evidence"]["stamp"] == pytest.approx(1.0)


def test_lineage_csv_one_row_per_document(capsys, histories):
    db, truth = histories
    status, out, err = run(capsys, "lineage", "--db", db, "--format", "csv")
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(truth)
    for r in rows:
        assert int(r["place"]) == truth[r["path"]][1]
        assert (r["latest"] == "yes") == (truth[r["path"]][1] == (5 if truth[r["path"]][0] == 1 else 4))


def test_lineage_of_one_group_and_an_unknown_group(capsys, histories):
    db, _ = histories
    status, out, _ = run(capsys, "lineage", "--db", db, "--group", "2")
    assert status == 0 and [g["group"] for g in json.loads(out)] == [2]
    status, out, err = run(capsys, "lineage", "--db", db, "--group", "7")
    assert status == 2 and out == ""
    assert "no group 7" in err and "numbered 1 to 2" in err


def test_keeper_rule_latest_keeps_the_last_version(capsys, histories):
    db, truth = histories
    status, out, err = run(capsys, "clusters", "--db", db, "--keeper-rule", "latest", "--format", "json")
    assert status == 0, err
    for g in json.loads(out):
        assert truth[g["keeper"]][1] == len(g["members"])
    status, out, err = run(capsys, "clusters", "--db", db, "--keeper-rule", "newest", "--format", "json")
    assert status == 0, err  # the other rules still run


def test_latest_says_when_a_group_s_order_is_a_guess(tmp_path, capsys, histories):
    """A policy trimmed sentence by sentence, with nothing dated: its order rests on length
    alone (low) and 'latest' keeps the first version; the dated histories are sure."""
    db, _truth = histories
    status, _, err = run(capsys, "clusters", "--db", db, "--keeper-rule", "latest")
    assert status == 0 and "version order is a guess" not in err
    folder = tmp_path / "trimmed"
    folder.mkdir()
    rng = random.Random(7)
    sentences = [" ".join(rng.choice(WORDS) for _ in range(12)) + "." for _ in range(30)]
    for k in range(4):  # random names, one file date: nothing but the texts to go by
        path = folder / ("".join(rng.choice("abcdefghjkmnpqrstuwxyz") for _ in range(10)) + ".txt")
        path.write_text("\n".join(sentences))
        os.utime(path, (1_600_000_000, 1_600_000_000))
        del sentences[rng.randrange(len(sentences))]
    trimmed = tmp_path / "t.ndd"
    assert run(capsys, "scan", str(folder), "--db", trimmed)[0] == 0
    status, _, err = run(capsys, "clusters", "--db", trimmed, "--keeper-rule", "latest")
    assert status == 0 and "ndd: note: in 1 of 1 groups the version order is a guess (low confidence)" in err
    status, _, err = run(capsys, "export", "--db", trimmed, "--to", tmp_path / "out", "--keeper-rule", "latest")
    assert status == 0 and "version order is a guess" in err
    status, _, err = run(capsys, "clusters", "--db", trimmed, "--keeper-rule", "oldest")
    assert "version order is a guess" not in err  # only the rule that rests on the order says so


def test_copies_of_one_text_are_not_counted_as_a_guessed_order(tmp_path, capsys):
    # a folder copied twice: every group holds the same text, whose order no clue can give
    # and none needs; they were counted ("in 8 of 9 groups the version order is a guess")
    # and hid the one group whose order mattered
    rng = random.Random(9)
    for copy in ("proj", "proj_copy", "proj_copy2"):
        (tmp_path / "src" / copy).mkdir(parents=True)
    for k in range(3):
        text = "\n".join(" ".join(rng.choice(WORDS) for _ in range(12)) + "." for _ in range(20))
        for copy in ("proj", "proj_copy", "proj_copy2"):
            (tmp_path / "src" / copy / f"doc{k}.txt").write_text(text)
    db = tmp_path / "c.ndd"
    assert run(capsys, "scan", str(tmp_path / "src"), "--db", db)[0] == 0
    status, out, err = run(capsys, "clusters", "--db", db, "--keeper-rule", "latest", "--format", "json")
    assert status == 0 and len(json.loads(out)) == 3
    assert "version order is a guess" not in err


def test_e_mails_are_ordered_by_when_they_were_sent(tmp_path, capsys):
    # a message, a reply the next day and a forward two days later: not edits of one
    # another (the reply and the forward both grow from the message), and the chain of
    # smallest edits called the forward version 1 of the message it forwards
    rng = random.Random(3)
    body = "\n".join(" ".join(rng.choice(WORDS) for _ in range(14)) + "." for _ in range(12))
    folder = tmp_path / "mail"
    folder.mkdir()

    def write(name, subject, day, text, mid):
        (folder / name).write_text(
            f"From: ann@example.org\nTo: bob@example.org\nSubject: {subject}\nMessage-ID: <{mid}@x>\n"
            f"Date: {day} Mar 2021 10:00:00 +0000\nContent-Type: text/plain; charset=utf-8\n\n{text}\n")

    write("c_original.eml", "Budget", 1, body, "a")
    write("a_reply.eml", "Re: Budget", 2, "Agreed, thank you.\n\n" + "\n".join("> " + x for x in body.split("\n")), "b")
    write("b_forward.eml", "Fwd: Budget", 3,
          "For your files.\n\n---------- Forwarded message ---------\nFrom: ann@example.org\n\n" + body, "c")
    db = tmp_path / "m.ndd"
    assert run(capsys, "scan", str(folder), "--db", db)[0] == 0
    status, out, err = run(capsys, "lineage", "--db", db, "--format", "csv")
    assert status == 0, err
    rows = [line.split(",") for line in out.strip().splitlines()[1:]]
    assert [r[2] for r in rows] == ["c_original.eml", "a_reply.eml", "b_forward.eml"]
    assert {r[6] for r in rows} == {"high"}
