/*
 * The scan's hot loops in C (wrapped by core/native.py):
 * - the word sketches of core.minhash_kernel and the verification's runs of
 *   core.share_kernel: the same functions as their numba versions, bit for bit the same
 *   results (tests/core/test_minhash_kernel.py, tests/core/test_native.py);
 * - bottomk's sketches and fingerprint's block checksums, whose numpy paths in
 *   core.methods stay the reference;
 * - the walk's stat of a folder's entries (POSIX only).
 *
 * Why C as well as numba: a process that uses a numba kernel first imports numba and
 * loads the machine code from numba's cache, 0.25-0.3 s of CPU. A scan's workers' server
 * paid that before it could fork the first worker, on the critical path of every first
 * scan. This module loads in a millisecond. It is optional: setup.py builds it where a C
 * compiler is found, and the numba and numpy versions serve where it is not.
 *
 * Arrays come in through the buffer protocol (numpy arrays, C-contiguous, of the dtypes
 * the Python wrappers in native.py make sure of), and every wrapper checks that they fit
 * together before a loop reads them; the loops run without the GIL. The hashing
 * constants are set once by configure(), from core.hashing, so they are written in one
 * place.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdarg.h>
#ifndef _WIN32
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The loops are built twice on x86-64 Linux with GCC 11 or later, for the baseline CPU and
 * for x86-64-v3 (AVX2, BMI2: every x86 CPU since 2013-2015), and the loader picks the one
 * the CPU runs. The baseline (SSE2) has neither a 32-bit multiply nor an unsigned 32-bit
 * minimum in vector form, which the sketch's minima need: its loop took 2.7x as long. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11 && defined(__x86_64__) && defined(__linux__)
#define FOR_THIS_CPU __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define FOR_THIS_CPU
#endif

static uint64_t K1, K2, POLY, SHORT_TAG, SEED7, M1, M2;
static int configured = 0;

static inline uint64_t mix(uint64_t z) {
    z *= K1;
    z ^= z >> 32;
    return z * K2;
}

/* The n (1..8) bytes at byte pos of words, as a little-endian integer. */
static inline uint64_t u64_at(const uint64_t *words, int64_t pos, int64_t n) {
    int64_t q = pos >> 3;
    uint64_t shift = (uint64_t)((pos & 7) << 3);
    uint64_t key = (words[q] >> shift) | ((words[q + 1] << 1) << (63 - shift));
    if (n < 8) key &= (((uint64_t)1) << (8 * n)) - 1;
    return key;
}

static inline uint64_t token_key(const uint64_t *words, int64_t start, int64_t length) {
    if (length <= 8) return mix(u64_at(words, start, length));  /* most words */
    uint64_t key = u64_at(words, start, 8);
    int64_t k = 1;
    while (length > 8 * k) {
        int64_t rest = length - 8 * k;
        key = mix(key) ^ u64_at(words, start + 8 * k, rest < 8 ? rest : 8);
        k++;
    }
    return mix(key);
}

static inline uint32_t odd_high(uint64_t z) { return (uint32_t)((mix(z) >> 32) | 1); }

/* A buffer argument and how many items of `item` bytes it holds. */
static int item_count(Py_buffer *b, Py_ssize_t item, const char *name, Py_ssize_t *count) {
    if (b->len % item != 0) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes is not a whole number of %zd-byte items", name, b->len, item);
        return -1;
    }
    *count = b->len / item;
    return 0;
}

/* Whether a token of l bytes at byte s lies within nw words, with the word after its last
 * piece there too (u64_at reads two). */
static inline int span_fits(int64_t s, int64_t l, Py_ssize_t nw) {
    return s >= 0 && l >= 0 && (s + (l > 0 ? l : 1) - 1) / 8 + 1 < nw;
}

/* Release n buffers (Py_buffer *), those a wrapper parsed. */
static void release(int n, ...) {
    va_list buffers;
    va_start(buffers, n);
    for (int i = 0; i < n; i++) PyBuffer_Release(va_arg(buffers, Py_buffer *));
    va_end(buffers);
}

/* What a wrapper returns once its loop ran: None, or MemoryError when the loop could not
 * allocate its work arrays. */
static PyObject *none_or_no_memory(int failed) {
    if (failed) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *py_configure(PyObject *self, PyObject *args) {
    unsigned long long k1, k2, poly, tag, seed7, m1, m2;
    if (!PyArg_ParseTuple(args, "KKKKKKK", &k1, &k2, &poly, &tag, &seed7, &m1, &m2)) return NULL;
    K1 = k1; K2 = k2; POLY = poly; SHORT_TAG = tag; SEED7 = seed7; M1 = m1; M2 = m2;
    configured = 1;
    Py_RETURN_NONE;
}

static int check_configured(void) {
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "ndd_desktop.core._native: configure() was not called");
        return -1;
    }
    return 0;
}

FOR_THIS_CPU static void keys_loop(const uint64_t *w, const int64_t *s, const int64_t *l, Py_ssize_t n, uint64_t *o) {
    for (Py_ssize_t k = 0; k < n; k++) o[k] = token_key(w, s[k], l[k]);
}

/* token_keys(words u64, tok_starts i64, tok_lens i64, out u64) */
static PyObject *py_token_keys(PyObject *self, PyObject *args) {
    Py_buffer words, starts, lens, out;
    if (check_configured() < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*w*", &words, &starts, &lens, &out)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t nw, ns, nl, no;
    if (item_count(&words, 8, "words", &nw) < 0 || item_count(&starts, 8, "tok_starts", &ns) < 0 ||
        item_count(&lens, 8, "tok_lens", &nl) < 0 || item_count(&out, 8, "out", &no) < 0) goto done;
    if (nl != ns || no < ns) {
        PyErr_SetString(PyExc_ValueError, "token_keys: tok_starts, tok_lens and out differ in length");
        goto done;
    }
    const uint64_t *w = words.buf;
    const int64_t *s = starts.buf, *l = lens.buf;
    uint64_t *o = out.buf;
    for (Py_ssize_t k = 0; k < ns; k++) {
        if (!span_fits(s[k], l[k], nw)) {
            PyErr_SetString(PyExc_ValueError, "token_keys: a token lies beyond the text's bytes");
            goto done;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    keys_loop(w, s, l, ns, o);
    Py_END_ALLOW_THREADS
    result = none_or_no_memory(0);
done:
    release(4, &words, &starts, &lens, &out);
    return result;
}

/* The row of each document: the minima of its shingle values under the t multipliers,
 * then the number of distinct values (core.minhash_kernel.sketch_spans). */
FOR_THIS_CPU static int sketch_loop(const uint64_t *words, const int64_t *ts, const int64_t *tl, const int64_t *first,
                       const int64_t *counts, Py_ssize_t docs, int64_t w, const uint32_t *mult, Py_ssize_t t,
                       uint32_t *out) {
    int64_t widest = 1;
    for (Py_ssize_t d = 0; d < docs; d++) if (counts[d] > widest) widest = counts[d];
    int64_t size = 16;
    while (size < 2 * widest) size *= 2;
    uint64_t *keys = malloc(sizeof(uint64_t) * (size_t)widest);
    uint32_t *values = malloc(sizeof(uint32_t) * (size_t)widest);
    uint32_t *table = malloc(sizeof(uint32_t) * (size_t)size);
    uint32_t *mins = malloc(sizeof(uint32_t) * (size_t)(t > 0 ? t : 1));
    if (!keys || !values || !table || !mins) {
        free(keys); free(values); free(table); free(mins);
        return -1;
    }
    for (Py_ssize_t d = 0; d < docs; d++) {
        int64_t n = counts[d], f = first[d], m;
        for (int64_t k = 0; k < n; k++) keys[k] = token_key(words, ts[f + k], tl[f + k]);
        if (n >= w) {
            m = n - w + 1;
            for (int64_t k = 0; k < m; k++) {
                uint64_t s = keys[k];
                for (int64_t j = 1; j < w; j++) s = s * POLY + keys[k + j];
                values[k] = odd_high(s);
            }
        } else if (n > 0) {  /* fewer tokens than a shingle: one value of all of them */
            m = 1;
            uint64_t s = keys[0];
            for (int64_t j = 1; j < w - 1; j++) if (n > j) s = s * POLY + keys[j];
            values[0] = odd_high(s ^ (SHORT_TAG * (uint64_t)(n + 1)));
        } else {
            m = 0;
        }
        int64_t cells = 16;
        while (cells < 2 * m) cells *= 2;
        int64_t mask = cells - 1;
        memset(table, 0, sizeof(uint32_t) * (size_t)cells);
        uint32_t distinct = 0;
        for (int64_t k = 0; k < m; k++) {  /* values are odd: 0 is a free cell */
            uint32_t v = values[k];
            int64_t h = (int64_t)(v >> 1) & mask;
            while (table[h] != 0 && table[h] != v) h = (h + 1) & mask;
            if (table[h] == 0) { table[h] = v; distinct++; }
        }
        for (Py_ssize_t i = 0; i < t; i++) mins[i] = 0xFFFFFFFFu;
        for (int64_t k = 0; k < m; k++) {  /* 32-bit, branch-free: vectorised by the compiler */
            uint32_t v = values[k];
            for (Py_ssize_t i = 0; i < t; i++) {
                uint32_t p = v * mult[i];
                mins[i] = p < mins[i] ? p : mins[i];
            }
        }
        uint32_t *row = out + d * (t + 1);
        memcpy(row, mins, sizeof(uint32_t) * (size_t)t);
        row[t] = distinct;
    }
    free(keys); free(values); free(table); free(mins);
    return 0;
}

/* sketch_spans(words u64, tok_starts i64, tok_lens i64, first i64, counts i64, w, multipliers u32, out u32) */
static PyObject *py_sketch_spans(PyObject *self, PyObject *args) {
    Py_buffer words, starts, lens, first, counts, mult, out;
    long long w;
    if (check_configured() < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*Ly*w*", &words, &starts, &lens, &first, &counts, &w, &mult, &out))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t nw, ns, nl, nf, nc, t, no;
    if (item_count(&words, 8, "words", &nw) < 0 || item_count(&starts, 8, "tok_starts", &ns) < 0 ||
        item_count(&lens, 8, "tok_lens", &nl) < 0 || item_count(&first, 8, "first", &nf) < 0 ||
        item_count(&counts, 8, "counts", &nc) < 0 || item_count(&mult, 4, "multipliers", &t) < 0 ||
        item_count(&out, 4, "out", &no) < 0) goto done;
    if (w < 1 || nl != ns || nf != nc || no != nc * (t + 1)) {
        PyErr_SetString(PyExc_ValueError, "sketch_spans: the arrays do not fit together");
        goto done;
    }
    const int64_t *s = starts.buf, *l = lens.buf, *fi = first.buf, *co = counts.buf;
    for (Py_ssize_t d = 0; d < nc; d++) {
        if (fi[d] < 0 || co[d] < 0 || fi[d] + co[d] > ns) {
            PyErr_SetString(PyExc_ValueError, "sketch_spans: a document's tokens lie beyond tok_starts");
            goto done;
        }
    }
    for (Py_ssize_t k = 0; k < ns; k++) {
        if (!span_fits(s[k], l[k], nw)) {
            PyErr_SetString(PyExc_ValueError, "sketch_spans: a token lies beyond the text's bytes");
            goto done;
        }
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = sketch_loop(words.buf, s, l, fi, co, nc, (int64_t)w, mult.buf, t, out.buf);
    Py_END_ALLOW_THREADS
    result = none_or_no_memory(failed);
done:
    release(7, &words, &starts, &lens, &first, &counts, &mult, &out);
    return result;
}

/* The runs of w words of each document, sorted by hash (core.share_kernel._sorted_runs):
 * a stable radix sort on the top 32 bits, four passes of a byte, from SMALL runs on, then
 * insertion on the whole hash. */
#define SMALL 48

FOR_THIS_CPU static int runs_loop(const uint64_t *tokens, const int64_t *starts, Py_ssize_t n, const int64_t *off, int64_t w,
                     uint64_t *srt, int64_t *pos) {
    int64_t big = 0;
    for (Py_ssize_t d = 0; d < n; d++) if (off[d + 1] - off[d] > big) big = off[d + 1] - off[d];
    size_t cells = (size_t)(big > 0 ? big : 1);
    uint64_t *key_a = malloc(8 * cells), *key_b = malloc(8 * cells);
    int64_t *pos_a = malloc(8 * cells), *pos_b = malloc(8 * cells);
    if (!key_a || !key_b || !pos_a || !pos_b) {
        free(key_a); free(key_b); free(pos_a); free(pos_b);
        return -1;
    }
    int64_t count[256];
    uint64_t tag = (uint64_t)w;
    for (Py_ssize_t d = 0; d < n; d++) {
        int64_t m = off[d + 1] - off[d];
        if (m <= 0) continue;
        int64_t s = starts[d];
        for (int64_t p = 0; p < m; p++) {
            uint64_t h = tokens[s + p];
            for (int64_t k = 1; k < w; k++) h = h * POLY + tokens[s + p + k];
            uint64_t z = (h ^ tag) + SEED7;
            z = (z ^ (z >> 30)) * M1;
            z = (z ^ (z >> 27)) * M2;
            key_a[p] = z ^ (z >> 31);
            pos_a[p] = p;
        }
        uint64_t *src_k = key_a, *dst_k = key_b, *tk;
        int64_t *src_p = pos_a, *dst_p = pos_b, *tp;
        if (m >= SMALL) {
            for (int shift = 32; shift < 64; shift += 8) {
                memset(count, 0, sizeof(count));
                for (int64_t p = 0; p < m; p++) count[(src_k[p] >> shift) & 255]++;
                int64_t total = 0;
                for (int b = 0; b < 256; b++) { int64_t c = count[b]; count[b] = total; total += c; }
                for (int64_t p = 0; p < m; p++) {
                    int64_t q = count[(src_k[p] >> shift) & 255]++;
                    dst_k[q] = src_k[p];
                    dst_p[q] = src_p[p];
                }
                tk = src_k; src_k = dst_k; dst_k = tk;
                tp = src_p; src_p = dst_p; dst_p = tp;
            }
        }
        int64_t o = off[d];
        for (int64_t p = 0; p < m; p++) {
            uint64_t key = src_k[p];
            int64_t at = src_p[p], q = o + p;
            while (q > o && srt[q - 1] > key) { srt[q] = srt[q - 1]; pos[q] = pos[q - 1]; q--; }
            srt[q] = key;
            pos[q] = at;
        }
    }
    free(key_a); free(key_b); free(pos_a); free(pos_b);
    return 0;
}

/* sorted_runs(tokens u64, starts i64, counts i64, w, off i64, srt u64, pos i64): off as
 * the wrapper computed it from counts (len(counts) + 1 places), srt and pos filled. */
static PyObject *py_sorted_runs(PyObject *self, PyObject *args) {
    Py_buffer tokens, starts, counts, off, srt, pos;
    long long w;
    if (check_configured() < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*Ly*w*w*", &tokens, &starts, &counts, &w, &off, &srt, &pos)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t nt, ns, nc, no, nr, np_;
    if (item_count(&tokens, 8, "tokens", &nt) < 0 || item_count(&starts, 8, "starts", &ns) < 0 ||
        item_count(&counts, 8, "counts", &nc) < 0 || item_count(&off, 8, "off", &no) < 0 ||
        item_count(&srt, 8, "srt", &nr) < 0 || item_count(&pos, 8, "pos", &np_) < 0) goto done;
    const int64_t *st = starts.buf, *co = counts.buf, *of = off.buf;
    if (w < 1 || ns != nc || no != nc + 1 || of[0] != 0 || of[nc] != nr || np_ != nr) {
        PyErr_SetString(PyExc_ValueError, "sorted_runs: the arrays do not fit together");
        goto done;
    }
    for (Py_ssize_t d = 0; d < nc; d++) {
        int64_t m = co[d] - w + 1;
        if (m < 0) m = 0;
        if (of[d + 1] - of[d] != m || st[d] < 0 || (m > 0 && st[d] + co[d] > nt)) {
            PyErr_SetString(PyExc_ValueError, "sorted_runs: a document's runs do not fit its words");
            goto done;
        }
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = runs_loop(tokens.buf, st, nc, of, (int64_t)w, srt.buf, pos.buf);
    Py_END_ALLOW_THREADS
    result = none_or_no_memory(failed);
done:
    release(6, &tokens, &starts, &counts, &off, &srt, &pos);
    return result;
}

/* Words covered by the runs marked in hit (run k covers words k .. k + w - 1). */
static int64_t covered(const unsigned char *hit, int64_t m, int64_t w) {
    int64_t total = 0, last_end = 0;
    for (int64_t k = 0; k < m; k++) {
        if (hit[k]) {
            int64_t end = k + w;
            total += end - (k > last_end ? k : last_end);
            last_end = end;
        }
    }
    return total;
}

FOR_THIS_CPU static int covered_loop(const uint64_t *srt, const int64_t *pos, const int64_t *off, const int64_t *pi,
                        const int64_t *pj, Py_ssize_t n, int64_t w, int64_t *ci, int64_t *cj, int64_t big) {
    unsigned char *hit_a = malloc((size_t)(big > 0 ? big : 1)), *hit_b = malloc((size_t)(big > 0 ? big : 1));
    if (!hit_a || !hit_b) {
        free(hit_a); free(hit_b);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        int64_t a0 = off[pi[k]], a1 = off[pi[k] + 1], b0 = off[pj[k]], b1 = off[pj[k] + 1];
        memset(hit_a, 0, (size_t)(a1 - a0));
        memset(hit_b, 0, (size_t)(b1 - b0));
        int64_t x = a0, y = b0;
        while (x < a1 && y < b1) {
            uint64_t hx = srt[x], hy = srt[y];
            if (hx < hy) x++;
            else if (hy < hx) y++;
            else {
                while (x < a1 && srt[x] == hx) hit_a[pos[x++]] = 1;
                while (y < b1 && srt[y] == hx) hit_b[pos[y++]] = 1;
            }
        }
        ci[k] = covered(hit_a, a1 - a0, w);
        cj[k] = covered(hit_b, b1 - b0, w);
    }
    free(hit_a); free(hit_b);
    return 0;
}

/* covered_batch(srt u64, pos i64, off i64, pi i64, pj i64, w, ci i64, cj i64) */
static PyObject *py_covered_batch(PyObject *self, PyObject *args) {
    Py_buffer srt, pos, off, pi, pj, ci, cj;
    long long w;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*Lw*w*", &srt, &pos, &off, &pi, &pj, &w, &ci, &cj)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t nr, np_, no, ni, nj, nci, ncj;
    if (item_count(&srt, 8, "srt", &nr) < 0 || item_count(&pos, 8, "pos", &np_) < 0 ||
        item_count(&off, 8, "off", &no) < 0 || item_count(&pi, 8, "pi", &ni) < 0 ||
        item_count(&pj, 8, "pj", &nj) < 0 || item_count(&ci, 8, "ci", &nci) < 0 ||
        item_count(&cj, 8, "cj", &ncj) < 0) goto done;
    const int64_t *of = off.buf, *a = pi.buf, *b = pj.buf, *ps = pos.buf;
    if (no < 1 || np_ != nr || ni != nj || nci != ni || ncj != ni || of[0] < 0 || of[no - 1] > nr) {
        PyErr_SetString(PyExc_ValueError, "covered_batch: the arrays do not fit together");
        goto done;
    }
    int64_t big = 0;
    for (Py_ssize_t d = 0; d + 1 < no; d++) {
        int64_t m = of[d + 1] - of[d];
        if (m < 0) {
            PyErr_SetString(PyExc_ValueError, "covered_batch: off is not in order");
            goto done;
        }
        for (int64_t x = of[d]; x < of[d + 1]; x++) {
            if (ps[x] < 0 || ps[x] >= m) {
                PyErr_SetString(PyExc_ValueError, "covered_batch: a run's place lies beyond its document");
                goto done;
            }
        }
        if (m > big) big = m;
    }
    for (Py_ssize_t k = 0; k < ni; k++) {
        if (a[k] < 0 || a[k] + 1 >= no || b[k] < 0 || b[k] + 1 >= no) {
            PyErr_SetString(PyExc_IndexError, "covered_batch: a pair names a document beyond off");
            goto done;
        }
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = covered_loop(srt.buf, ps, of, a, b, ni, (int64_t)w, ci.buf, cj.buf, big);
    Py_END_ALLOW_THREADS
    result = none_or_no_memory(failed);
done:
    release(7, &srt, &pos, &off, &pi, &pj, &ci, &cj);
    return result;
}

/* bottomk's sketch (core.methods.bottomk): the k smallest distinct 64-bit hashes of a
 * text's character n-grams, as core.hashing.hash_char_ngrams hashes them (each window's
 * code points combined by the polynomial, plus n, through mix64 with the seed's offset;
 * a text shorter than n: one window of all of it). The windows are combined by a rolling
 * update, which gives the polynomial's values exactly (modulo 2^64). */
static inline uint64_t splitmix(uint64_t z) {
    z = (z ^ (z >> 30)) * M1;
    z = (z ^ (z >> 27)) * M2;
    return z ^ (z >> 31);
}

static void sort_u64(uint64_t *a, int64_t n) {  /* quicksort, insertion below 24 */
    while (n > 24) {
        uint64_t x = a[0], y = a[n / 2], z = a[n - 1];
        uint64_t pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        int64_t i = 0, j = n - 1;
        while (i <= j) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i <= j) { uint64_t t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
        }
        if (j + 1 < n - i) { sort_u64(a, j + 1); a += i; n -= i; }  /* the smaller side first */
        else { sort_u64(a + i, n - i); n = j + 1; }
    }
    for (int64_t i = 1; i < n; i++) {
        uint64_t v = a[i];
        int64_t j = i;
        while (j > 0 && a[j - 1] > v) { a[j] = a[j - 1]; j--; }
        a[j] = v;
    }
}

/* The sorted distinct values of a[0:n] (sorted in place) into out, at most k; how many. */
static int64_t distinct_first(uint64_t *a, int64_t n, int64_t k, uint64_t *out) {
    sort_u64(a, n);
    int64_t kept = 0;
    for (int64_t i = 0; i < n && kept < k; i++)
        if (kept == 0 || a[i] != out[kept - 1]) out[kept++] = a[i];
    return kept;
}

FOR_THIS_CPU static int bottom_k_loop(const uint32_t *cps, const int64_t *starts, const int64_t *lengths,
                                      Py_ssize_t docs, int64_t n, int64_t k, uint64_t offset, uint64_t *out,
                                      int64_t *counts) {
    int64_t widest = 1;
    for (Py_ssize_t d = 0; d < docs; d++) if (lengths[d] > widest) widest = lengths[d];
    uint64_t *h = malloc(sizeof(uint64_t) * (size_t)widest), *small = malloc(sizeof(uint64_t) * (size_t)widest);
    if (!h || !small) { free(h); free(small); return -1; }
    for (Py_ssize_t d = 0; d < docs; d++) {
        const uint32_t *c = cps + starts[d];
        int64_t len = lengths[d], m;
        uint64_t *row = out + d * k;
        if (len == 0) { counts[d] = 0; continue; }
        if (len < n) {
            uint64_t x = c[0];
            for (int64_t j = 1; j < len; j++) x = x * POLY + c[j];
            row[0] = splitmix(x + (uint64_t)n + offset);
            counts[d] = 1;
            continue;
        }
        m = len - n + 1;
        uint64_t lead = 1;  /* POLY^(n-1): the weight of the character leaving the window */
        for (int64_t j = 1; j < n; j++) lead *= POLY;
        uint64_t x = c[0];
        for (int64_t j = 1; j < n; j++) x = x * POLY + c[j];
        h[0] = splitmix(x + (uint64_t)n + offset);
        for (int64_t s = 1; s < m; s++) {
            x = (x - c[s - 1] * lead) * POLY + c[s + n - 1];
            h[s] = splitmix(x + (uint64_t)n + offset);
        }
        int64_t got = -1;
        if (m > 4 * k) {  /* the k smallest lie near k / m of the range: look below 3k / m first */
            double share = 3.0 * (double)k / (double)m;
            uint64_t limit = share >= 1.0 ? UINT64_MAX : (uint64_t)(share * 18446744073709551616.0);
            int64_t below = 0;
            for (int64_t s = 0; s < m; s++) if (h[s] < limit) small[below++] = h[s];
            if (below >= k) {
                got = distinct_first(small, below, k, row);
                if (got < k) got = -1;  /* repeats: take all of them */
            }
        }
        if (got < 0) got = distinct_first(h, m, k, row);
        counts[d] = got;
    }
    free(h); free(small);
    return 0;
}

/* bottom_k_grams(cps u32, starts i64, lengths i64, n, k, offset, out u64 (docs * k), counts i64) */
static PyObject *py_bottom_k_grams(PyObject *self, PyObject *args) {
    Py_buffer cps, starts, lengths, out, counts;
    long long n, k;
    unsigned long long offset;
    if (check_configured() < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*LLKw*w*", &cps, &starts, &lengths, &n, &k, &offset, &out, &counts))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t nc, ns, nl, no, nk;
    if (item_count(&cps, 4, "cps", &nc) < 0 || item_count(&starts, 8, "starts", &ns) < 0 ||
        item_count(&lengths, 8, "lengths", &nl) < 0 || item_count(&out, 8, "out", &no) < 0 ||
        item_count(&counts, 8, "counts", &nk) < 0) goto done;
    const int64_t *st = starts.buf, *le = lengths.buf;
    if (n < 1 || k < 1 || nl != ns || nk != ns || no != ns * k) {
        PyErr_SetString(PyExc_ValueError, "bottom_k_grams: the arrays do not fit together");
        goto done;
    }
    for (Py_ssize_t d = 0; d < ns; d++) {
        if (st[d] < 0 || le[d] < 0 || st[d] + le[d] > nc) {
            PyErr_SetString(PyExc_ValueError, "bottom_k_grams: a text lies beyond the code points");
            goto done;
        }
    }
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = bottom_k_loop(cps.buf, st, le, ns, (int64_t)n, (int64_t)k, (uint64_t)offset, out.buf, counts.buf);
    Py_END_ALLOW_THREADS
    result = none_or_no_memory(failed);
done:
    release(5, &cps, &starts, &lengths, &out, &counts);
    return result;
}

/* fingerprint's block checksums (core.methods.fingerprint): the high 32 bits of mix64 of
 * every window of w bytes, as core.hashing.hash_bytes_windows hashes them (the bytes
 * combined by the polynomial, here by a rolling update: the same values modulo 2^64). */
FOR_THIS_CPU static void window_checks_loop(const unsigned char *d, int64_t len, int64_t w, uint64_t offset,
                                            uint32_t *out) {
    uint64_t lead = 1, x = 0;
    for (int64_t j = 1; j < w; j++) lead *= POLY;
    for (int64_t j = 0; j < w; j++) x = x * POLY + d[j];
    out[0] = (uint32_t)(splitmix(x + offset) >> 32);
    for (int64_t s = 1; s + w <= len; s++) {
        x = (x - d[s - 1] * lead) * POLY + d[s + w - 1];
        out[s] = (uint32_t)(splitmix(x + offset) >> 32);
    }
}

/* window_checks(data, w, offset, out u32 (len(data) - w + 1)) */
static PyObject *py_window_checks(PyObject *self, PyObject *args) {
    Py_buffer data, out;
    long long w;
    unsigned long long offset;
    if (check_configured() < 0) return NULL;
    if (!PyArg_ParseTuple(args, "y*LKw*", &data, &w, &offset, &out)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t no;
    if (item_count(&out, 4, "out", &no) < 0) goto done;
    if (w < 1 || data.len < w || no != data.len - w + 1) {
        PyErr_SetString(PyExc_ValueError, "window_checks: one checksum for each window of the data");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    window_checks_loop(data.buf, (int64_t)data.len, (int64_t)w, (uint64_t)offset, out.buf);
    Py_END_ALLOW_THREADS
    result = none_or_no_memory(0);
done:
    release(2, &data, &out);
    return result;
}

#ifndef _WIN32
/* The walk's stat of a folder's entries (ingest.walk), by name relative to the folder's
 * descriptor, without following links: what DirEntry.stat(follow_symlinks=False) asks,
 * with no Python object per entry. names: the file system's bytes of each name, each
 * ended by a NUL. */
static void stat_loop(int dir_fd, const char *names, Py_ssize_t n, uint32_t *modes, int64_t *sizes,
                      int64_t *mtimes, int32_t *errs) {
    const char *name = names;
    for (Py_ssize_t k = 0; k < n; k++) {
        struct stat st;
        if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
            modes[k] = (uint32_t)st.st_mode;
            sizes[k] = (int64_t)st.st_size;
#if defined(__APPLE__)
            mtimes[k] = (int64_t)st.st_mtimespec.tv_sec * 1000000000 + st.st_mtimespec.tv_nsec;
#else
            mtimes[k] = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
#endif
            errs[k] = 0;
        } else {
            modes[k] = 0; sizes[k] = 0; mtimes[k] = 0;
            errs[k] = errno ? errno : EIO;
        }
        name += strlen(name) + 1;
    }
}

/* stat_names(dir_fd, names bytes, modes u32, sizes i64, mtimes i64, errs i32) */
static PyObject *py_stat_names(PyObject *self, PyObject *args) {
    int dir_fd;
    Py_buffer names, modes, sizes, mtimes, errs;
    if (!PyArg_ParseTuple(args, "iy*w*w*w*w*", &dir_fd, &names, &modes, &sizes, &mtimes, &errs)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t nm, ns, nt, ne, ends = 0;
    if (item_count(&modes, 4, "modes", &nm) < 0 || item_count(&sizes, 8, "sizes", &ns) < 0 ||
        item_count(&mtimes, 8, "mtimes", &nt) < 0 || item_count(&errs, 4, "errs", &ne) < 0) goto done;
    for (Py_ssize_t i = 0; i < names.len; i++) ends += ((const char *)names.buf)[i] == 0;
    if (ns != nm || nt != nm || ne != nm || ends != nm || (names.len > 0 && ((const char *)names.buf)[names.len - 1] != 0)) {
        PyErr_SetString(PyExc_ValueError, "stat_names: one name (ended by a NUL) for each place of the arrays");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    stat_loop(dir_fd, names.buf, nm, modes.buf, sizes.buf, mtimes.buf, errs.buf);
    Py_END_ALLOW_THREADS
    result = none_or_no_memory(0);
done:
    release(5, &names, &modes, &sizes, &mtimes, &errs);
    return result;
}
#endif

static PyMethodDef methods[] = {
    {"configure", py_configure, METH_VARARGS, "configure(k1, k2, poly, short_tag, seed7, m1, m2): the hashing constants"},
    {"token_keys", py_token_keys, METH_VARARGS, "token_keys(words, tok_starts, tok_lens, out)"},
    {"sketch_spans", py_sketch_spans, METH_VARARGS,
     "sketch_spans(words, tok_starts, tok_lens, first, counts, w, multipliers, out)"},
    {"sorted_runs", py_sorted_runs, METH_VARARGS, "sorted_runs(tokens, starts, counts, w, off, srt, pos)"},
    {"covered_batch", py_covered_batch, METH_VARARGS, "covered_batch(srt, pos, off, pi, pj, w, ci, cj)"},
    {"window_checks", py_window_checks, METH_VARARGS, "window_checks(data, w, offset, out)"},
    {"bottom_k_grams", py_bottom_k_grams, METH_VARARGS, "bottom_k_grams(cps, starts, lengths, n, k, offset, out, counts)"},
#ifndef _WIN32
    {"stat_names", py_stat_names, METH_VARARGS, "stat_names(dir_fd, names, modes, sizes, mtimes, errs)"},
#endif
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native",
    "The scan's word-sketch and verification loops in C (see core.minhash_kernel, core.share_kernel).", -1, methods,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
