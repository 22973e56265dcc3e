"""E-mail threads: threading, quote detection and inclusive messages on hand-made mail."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.quotes import contained, split_quoted, words
from ndd_desktop.core.threads import MailRecord, build_threads, message_ids, normalize_subject

A_TEXT = ("Dear all, the council will meet on Thursday at ten in the small hall to settle the harbour budget. "
          "Please bring the survey of the east quay and the figures from last spring.")
B_OWN = "Thursday suits me. I will bring the survey, but the spring figures are still with the treasurer."
C_OWN = "Thanks both. The treasurer sent the figures this morning; see you on Thursday."


def mail(key, subject, body, *, mid="", irt="", refs="", date=None, sender="x@example.org"):
    text = f"Subject: {subject}\nFrom: {sender}\nDate: whenever\n\n{body}"
    return MailRecord(key, mid, irt, refs, subject, date, text)


def quote(text: str) -> str:
    return "\n".join("> " + line for line in text.split("\n"))


def by_key(threads):
    return {m.key: (n, m) for n, t in enumerate(threads) for m in t.messages}


def test_headers_thread_gmail_and_outlook():
    a = mail(1, "Harbour budget", A_TEXT, mid="<a@x>", date=100.0)
    # Gmail: bottom of the reply, attribution then "> " lines
    b_body = f"{B_OWN}\n\nOn Mon, 3 Jan 2022 at 10:00, Alice Smith <alice@example.org> wrote:\n{quote(A_TEXT)}"
    b = mail(2, "Re: Harbour budget", b_body, mid="<b@x>", irt="<a@x>", refs="<a@x>", date=200.0)
    # Outlook: top-posted, "From: ... Sent: ..." block, the earlier text unmarked
    c_body = (f"{C_OWN}\n\n________________________________\nFrom: Bob Jones <bob@example.org>\n"
              f"Sent: Tuesday, January 4, 2022 9:12 AM\nTo: Alice Smith\nSubject: RE: Harbour budget\n\n{b_body}")
    c = mail(3, "RE: Harbour budget", c_body, mid="<c@x>", irt="<b@x>", refs="<a@x> <b@x>", date=300.0)
    threads = build_threads([c, a, b])
    assert len(threads) == 1
    msgs = threads[0].messages
    assert [m.key for m in msgs] == [1, 2, 3]
    assert [m.parent for m in msgs] == [None, 1, 2]
    assert [m.inclusive for m in msgs] == [False, False, True]
    assert msgs[0].contained_in == 2 and msgs[1].contained_in == 3


def test_partial_quote_keeps_the_earlier_message_inclusive():
    a = mail(1, "Harbour budget", A_TEXT, mid="<a@x>", date=100.0)
    first = A_TEXT.split(". ")[0]
    b = mail(2, "Re: Harbour budget", f"> {first}.\n\nYes, Thursday is fine with me and with the clerk.",
             mid="<b@x>", irt="<a@x>", date=200.0)
    msgs = build_threads([a, b])[0].messages
    assert [m.inclusive for m in msgs] == [True, True]


def test_thunderbird_quoting_and_no_headers_threads_by_subject_and_quotes():
    # no Message-ID, no In-Reply-To: subject and quoted text only
    a = mail(1, "Minutes of the meeting", A_TEXT, date=100.0)
    b_body = f"On 03/01/2022 10:00, Alice Smith wrote:\n{quote(A_TEXT)}\n\n{B_OWN}"  # bottom-posted
    b = mail(2, "Re: Minutes of the meeting", b_body, date=200.0)
    c_body = f"{C_OWN}\n\nOn 04/01/2022 09:00, Bob Jones wrote:\n{quote(b_body)}"
    c = mail(3, "Re: Re: Minutes of the meeting", c_body, date=300.0)
    other = mail(4, "Something else", "An unrelated note about the library opening hours.", date=150.0)
    threads = build_threads([a, b, c, other])
    place = by_key(threads)
    assert place[1][0] == place[2][0] == place[3][0] != place[4][0]
    assert place[2][1].parent == 1 and place[3][1].parent == 2  # c quotes b, not only a
    assert [place[k][1].inclusive for k in (1, 2, 3, 4)] == [False, False, True, True]


def test_forwarded_message_contains_the_original():
    a = mail(1, "Report", A_TEXT, mid="<a@x>", date=100.0)
    fwd = ("FYI, see below.\n\n---------- Forwarded message ---------\nFrom: Alice <alice@example.org>\n"
           f"Date: Mon, 3 Jan 2022 at 10:00\nSubject: Report\nTo: Bob <bob@example.org>\n\n{A_TEXT}")
    b = mail(2, "Fwd: Report", fwd, mid="<f@x>", date=200.0)  # no reply headers: subject threading
    msgs = build_threads([a, b])
    assert len(msgs) == 1
    assert [(m.key, m.inclusive) for m in msgs[0].messages] == [(1, False), (2, True)]


def test_a_forward_without_a_comment_stays_inclusive_when_nothing_later_holds_what_it_forwards():
    # it has no text of its own, but the notice it forwards is in no other message
    notice = ("Price notice: from March the AZ 26 sheet piles cost 12 percent more, deliveries of "
              "under ten tonnes carry a surcharge, and quotes older than thirty days lapse.")
    fwd = (f"---------- Forwarded message ---------\nFrom: Supplier <sales@example.com>\n"
           f"Subject: Price notice\n\n{notice}")
    f = mail(1, "Fwd: Price notice", fwd, mid="<f@x>", date=100.0)
    r = mail(2, "Re: Fwd: Price notice", "Noted; we order the piles before March then, in one load.",
             mid="<r@x>", irt="<f@x>", date=200.0)
    msgs = build_threads([f, r])[0].messages
    assert [(m.key, m.inclusive) for m in msgs] == [(1, True), (2, True)]


def test_answers_written_inline_below_a_quote_header_keep_the_reply_inclusive():
    question = "Who takes the night watch on the east quay, and who checks the pumps on Sunday?"
    inline = ("-----Original Message-----\nFrom: Alice\nSent: Monday\nSubject: Watch\n\n"
              "Who takes the night watch on the east quay?\nANSWER: Captain Marsh volunteered for all of May.\n"
              "Who checks the pumps on Sunday?\nANSWER: the harbour engineer, from eight in the morning.")
    a = mail(1, "Watch", question, mid="<a@x>", date=100.0)
    b = mail(2, "RE: Watch", f"See my answers below.\n\n{inline}", mid="<b@x>", irt="<a@x>", date=200.0)
    c = mail(3, "RE: Watch", "Thanks. See my answers below was all I needed to read; good.",
             mid="<c@x>", irt="<b@x>", date=300.0)
    place = by_key(build_threads([a, b, c]))
    assert place[2][1].inclusive  # its answers are in no later message


def test_a_sibling_reply_never_contains_the_other_sibling():
    disclaimer = ("This e-mail and any attachment are confidential and meant for the addressee only. If you "
                  "received it in error, tell the sender and delete it. The harbour board accepts no "
                  "liability for changes made to this message after it was sent.")
    a = mail(1, "Free period", f"I propose a free storage period of seven days.\n\n{disclaimer}",
             mid="<a@x>", date=100.0)
    approve = f"Approved. Nina\n\n{disclaimer}\n\n-----Original Message-----\n{a.text}"
    b = mail(2, "RE: Free period", approve, mid="<b@x>", irt="<a@x>", date=200.0)
    c = mail(3, "RE: Free period", f"I object. Nina\n\n{disclaimer}\n\n-----Original Message-----\n{a.text}",
             mid="<c@x>", irt="<a@x>", date=300.0)
    place = by_key(build_threads([a, b, c]))
    assert place[2][1].inclusive and place[3][1].inclusive  # c answers a: it never saw b
    assert not place[1][1].inclusive


def test_split_quoted_variants():
    own, quoted = split_quoted(f"{B_OWN}\n\n-----Original Message-----\nFrom: A\nSent: x\n\n{A_TEXT}")
    assert own == B_OWN and A_TEXT in quoted
    own, quoted = split_quoted(f"{B_OWN}\nOn Mon, 3 Jan 2022 at 10:00, Alice <a@x>\nwrote:\n> hello there")
    assert own == B_OWN and "hello there" in quoted and "wrote" in quoted
    own, quoted = split_quoted(f"Begin forwarded message:\n\nFrom: A\nDate: B\n{A_TEXT}")
    assert own == "" and A_TEXT in quoted


def test_contained_needs_most_of_the_text():
    own = words(A_TEXT)
    assert contained(own, words("> " + A_TEXT.replace(" ", "\n> ", 3)))
    assert not contained(own, words(A_TEXT[: len(A_TEXT) // 2]))
    assert contained(["ok"], ["well", "ok", "then"]) and not contained(["ok", "go"], ["go", "ok"])


def test_headers_helpers():
    assert message_ids("<a@x> <b@y>\n\t<c@z>") == ["a@x", "b@y", "c@z"]
    assert message_ids("bare@id") == ["bare@id"] and message_ids("") == []
    assert normalize_subject("RE: Fwd: [list] AW:  Budget  Plan") == "budget plan"
    assert normalize_subject("Re[2]: budget") == "budget"


def test_bad_headers_loops_and_duplicate_ids_lose_nothing():
    msgs = [
        mail(1, "Loop", "one", mid="<a@x>", refs="<b@x>", date=1.0),
        mail(2, "Loop", "two", mid="<b@x>", refs="<a@x>", date=2.0),
        mail(3, "Dup", "three", mid="<d@x>", date=3.0),
        mail(4, "Dup", "four", mid="<d@x>", irt="<d@x>", date=4.0),
        mail(5, "", "five", mid="<<<>>>", refs="garbage <", irt="<5@x>", date=None),
        mail(6, "=?utf-8?q?caf=C3=A9?=", "six", mid="<6@x>", refs="<6@x> <6@x>"),
    ]
    threads = build_threads(msgs)
    keys = [m.key for t in threads for m in t.messages]
    assert sorted(keys) == [1, 2, 3, 4, 5, 6]
    place = by_key(threads)
    assert place[1][0] == place[2][0] and place[3][0] == place[4][0]


mid_st = st.sampled_from(["", "<a@x>", "<b@x>", "<c@x>", "<d@x>", "junk", "<>", "<a@x> <b@x>"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(mid_st, mid_st, st.lists(mid_st, max_size=4),
                          st.sampled_from(["", "Budget", "Re: Budget", "RE: re: budget", "Other", "=?utf-8?b?w6k=?="]),
                          st.one_of(st.none(), st.floats(0, 10)),
                          st.sampled_from(["", "hello there friend", "> hello there friend\nfine", A_TEXT,
                                           f"x\nOn Mon Bob wrote:\n{quote(A_TEXT)}"])),
                max_size=12))
def test_every_message_in_exactly_one_thread(items):
    records = [MailRecord(k, mid, irt, " ".join(refs), subj, date, f"Subject: {subj}\n\n{body}")
               for k, (mid, irt, refs, subj, date, body) in enumerate(items)]
    threads = build_threads(records)
    keys = [m.key for t in threads for m in t.messages]
    assert sorted(keys) == list(range(len(items)))
    for t in threads:
        in_thread = {m.key for m in t.messages}
        assert t.messages[0].parent is None
        assert all(m.parent in in_thread for m in t.messages[1:])
        assert t.messages[-1].inclusive or len(t.messages) > 1


def test_reply_subjects():
    from ndd_desktop.core.threads import is_reply_subject

    assert [is_reply_subject(s) for s in ("[list] Budget", "[list] Re: Budget", "RE: x", "Fwd: x", "Report",
                                          "Re[2]: x", "Regarding: x")] == [False, True, True, True, False, True,
                                                                           False]


def test_a_message_without_headers_hangs_under_the_reply_it_quotes():
    # b answers a with headers; c has none and quotes b (which quotes a): c was compared
    # with the subject's roots alone and hung under a, a reply that never was
    a = mail(1, "Budget", A_TEXT, mid="<a@x>", date=100.0)
    b = mail(2, "Re: Budget", f"{B_OWN}\n\n{quote(A_TEXT)}", mid="<b@x>", irt="<a@x>", date=200.0)
    c = mail(3, "RE: Budget", f"{C_OWN}\n\n-----Original Message-----\n{B_OWN}\n\n{quote(A_TEXT)}",
             mid="<c@x>", date=300.0)
    (thread,) = build_threads([a, b, c])
    parents = {m.key: m.parent for m in thread.messages}
    assert parents == {1: None, 2: 1, 3: 2}
    assert [m.key for m in thread.messages if m.inclusive] == [3]


def test_a_message_held_in_part_says_how_much():
    # the holder need have only nine tenths of it: a P.S. nobody quoted is in no later
    # message, and the reason said "its text is contained" of a message 93 % held
    from ndd_desktop.pipeline.threads import contained

    body = f"{A_TEXT}\n{C_OWN}\n{A_TEXT}"
    a = mail(1, "Harbour budget", f"{body}\n\nP.S. code 4471.", mid="<a@x>", date=100.0)
    b = mail(2, "Re: Harbour budget", f"{B_OWN}\n\nOn Monday Alice wrote:\n{quote(body)}",
             mid="<b@x>", irt="<a@x>", date=200.0)
    msgs = by_key(build_threads([a, b]))
    first = msgs[1][1]
    assert not first.inclusive and first.contained_in == 2
    assert 0.9 <= first.contained_share < 0.99
    assert contained(first.contained_share) == f"{first.contained_share:.0%} of its text is contained"
    assert msgs[2][1].contained_share == 1.0 and contained(1.0) == "its text is contained"


def test_the_same_subject_alone_joins_no_thread():
    # two mails titled "Question", a fortnight apart, from two people, quoting nothing and
    # with no reply headers or prefix: one thread each (they were one, the second under the
    # first); a "Re:" of the same subject still joins by subject
    a = mail(1, "Question", A_TEXT, mid="<q1@x>", date=100.0, sender="ann@example.org")
    b = mail(2, "Question", C_OWN, mid="<q2@x>", date=1_300_000.0, sender="bob@example.org")
    c = mail(3, "Re: Question", B_OWN, mid="<q3@x>", date=1_400_000.0)
    threads = build_threads([a, b, c])
    keys = by_key(threads)
    assert len(threads) == 2 and keys[1][0] != keys[2][0]
    assert keys[3][1].parent == 1 and keys[3][0] == keys[1][0]
