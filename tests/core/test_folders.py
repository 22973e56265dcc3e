"""Near-duplicate folders: counts checked by hand and against a brute-force reference."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ndd_desktop.core.folders import (
    A_IN_B, B_IN_A, OVERLAP, SAME, align_documents, ancestor_matrix, covered_by, folder_pairs,
)

# Folders: 0 root, 1 root/A, 2 root/B, 3 root/A/sub, 4 root/C
PARENT = np.array([-1, 0, 0, 1, 0])


def as_dict(fp):
    return {
        (int(a), int(b)): (int(na), int(nb), int(ma), int(mb))
        for a, b, na, nb, ma, mb in zip(fp.a, fp.b, fp.n_a, fp.n_b, fp.matched_a, fp.matched_b)
    }


def test_ancestor_matrix():
    anc = ancestor_matrix(PARENT)
    assert anc.tolist() == [[0, -1, -1], [1, 0, -1], [2, 0, -1], [3, 1, 0], [4, 0, -1]]


def test_copy_of_a_folder_with_a_subfolder_and_a_subset():
    # A holds d0, d1 and A/sub holds d2; B holds copies of d0, d1, d2 (d3, d4, d5);
    # C holds d6 = copy of d0 only, and d7 unique.
    doc_folder = np.array([1, 1, 3, 2, 2, 2, 4, 4])
    pair_a = np.array([0, 1])  # near pairs d0~d3, d1~d4
    pair_b = np.array([3, 4])
    hash_class = np.array([-1, -1, 7, -1, -1, 7, -1, -1])  # d2 == d5 exactly
    pairs = folder_pairs(doc_folder, PARENT, pair_a, pair_b, hash_class, min_share=0.0)
    got = as_dict(pairs)
    assert got[(1, 2)] == (3, 3, 3, 3)  # A and B: the same
    assert got[(2, 3)] == (3, 1, 1, 1)  # A/sub is a subset of B
    assert (0, 1) not in got and (1, 3) not in got  # ancestors are never paired
    assert (1, 4) not in got  # no match between A and C yet
    k = list(zip(pairs.a.tolist(), pairs.b.tolist())).index((1, 2))
    assert pairs.relation(k) == SAME
    k = list(zip(pairs.a.tolist(), pairs.b.tolist())).index((2, 3))
    assert pairs.relation(k) == B_IN_A
    # d6 is near d0: C is half covered by A and by B? only A (no pair with d3)
    pairs = folder_pairs(doc_folder, PARENT, np.array([0, 1, 0]), np.array([3, 4, 6]), hash_class, min_share=0.5)
    got = as_dict(pairs)
    assert got[(1, 4)] == (3, 2, 1, 1)
    assert (2, 4) not in got
    k = list(zip(pairs.a.tolist(), pairs.b.tolist())).index((1, 4))
    assert pairs.relation(k) == OVERLAP
    assert pairs.share_b[k] == 0.5


def test_min_share_filters_and_order():
    doc_folder = np.array([1, 1, 2, 2, 4, 4, 4, 4])
    # A = {d0, d1}, B = {d2, d3}: d0~d2 only. C = {d4..d7}: d4~d0, d5~d1
    pairs = folder_pairs(doc_folder, PARENT, np.array([0, 4, 5]), np.array([2, 0, 1]), None, min_share=0.6)
    got = as_dict(pairs)
    assert set(got) == {(1, 4)}  # A fully in C; A-B only 0.5
    assert got[(1, 4)] == (2, 4, 2, 2)
    assert pairs.relation(0) == A_IN_B
    assert covered_by(pairs) == [(1, 4)]
    pairs = folder_pairs(doc_folder, PARENT, np.array([0, 4, 5]), np.array([2, 0, 1]), None, min_share=0.0)
    shares = np.maximum(pairs.share_a, pairs.share_b)
    assert (np.diff(shares) <= 0).all()  # best first


def test_exact_class_of_one_and_no_pairs():
    pairs = folder_pairs(np.array([1, 2]), PARENT, np.array([], int), np.array([], int), np.array([5, 6]))
    assert len(pairs) == 0
    assert len(folder_pairs(np.array([], int), PARENT, [], [])) == 0


def brute(doc_folder, parent, pa, pb, hc, min_share):
    nf = len(parent)
    anc = [set() for _ in range(nf)]
    for f in range(nf):
        g = f
        while g >= 0:
            anc[f].add(g)
            g = parent[g]
    members = [{d for d in range(len(doc_folder)) if f in anc[doc_folder[d]]} for f in range(nf)]
    match = {d: set() for d in range(len(doc_folder))}
    for x, y in zip(pa, pb):
        if x != y:
            match[x].add(y)
            match[y].add(x)
    for x in range(len(doc_folder)):
        for y in range(len(doc_folder)):
            if x != y and hc[x] >= 0 and hc[x] == hc[y]:
                match[x].add(y)
    out = {}
    for f in range(nf):
        for g in range(f + 1, nf):
            if f in anc[g] or g in anc[f] or not members[f] or not members[g]:
                continue
            ma = sum(1 for x in members[f] if match[x] & members[g])
            mb = sum(1 for y in members[g] if match[y] & members[f])
            if ma == 0 and mb == 0:
                continue
            if max(ma / len(members[f]), mb / len(members[g])) >= min_share:
                out[(f, g)] = (len(members[f]), len(members[g]), ma, mb)
    return out


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_matches_brute_force(data):
    nf = data.draw(st.integers(1, 7))
    parent = [-1] + [data.draw(st.integers(-1, f - 1)) for f in range(1, nf)]
    nd = data.draw(st.integers(1, 12))
    doc_folder = data.draw(st.lists(st.integers(0, nf - 1), min_size=nd, max_size=nd))
    npairs = data.draw(st.integers(0, 10))
    pa = data.draw(st.lists(st.integers(0, nd - 1), min_size=npairs, max_size=npairs))
    pb = data.draw(st.lists(st.integers(0, nd - 1), min_size=npairs, max_size=npairs))
    keep = [i for i in range(npairs) if pa[i] != pb[i]]
    pa, pb = [pa[i] for i in keep], [pb[i] for i in keep]
    hc = data.draw(st.lists(st.integers(-1, 3), min_size=nd, max_size=nd))
    share = data.draw(st.sampled_from([0.0, 0.5, 1.0]))
    got = as_dict(folder_pairs(np.array(doc_folder), np.array(parent), np.array(pa, dtype=np.int64),
                               np.array(pb, dtype=np.int64), np.array(hc), share))
    assert got == brute(doc_folder, parent, pa, pb, hc, share)


def test_align_documents():
    rows = align_documents(np.array([10, 11, 12]), np.array([20, 21, 22]),
                           np.array([10, 11, 10]), np.array([20, 20, 21]), np.array([0.9, 0.95, 0.8]))
    assert rows == [(11, 20, 0.95), (10, 21, 0.8), (12, None, None), (None, 22, None)]
