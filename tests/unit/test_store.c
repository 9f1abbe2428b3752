/* store: encoding round trips, canonical keys, the table and the arena as
 * a queue, parents, growth and the memory budget. */
#include "base/clock.h"
#include "engine/store.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void) { return unit_rand(&rng); }

/* A random marking: mostly 0/1, sometimes a count of any size. */
static void random_marking(nc_count *m, uint32_t P, int big)
{
    for (uint32_t p = 0; p < P; p++) {
        uint64_t r = next_rand();
        m[p] = r & 1;
        if (big && (r >> 8) % 7 == 0) {
            unsigned bits = (unsigned)((r >> 16) % 64);
            m[p] = (next_rand() >> (64 - bits - 1)) & NC_COUNT_MAX;
        }
    }
}

/* Encodes m directly and as the successor of base that changes the
 * places where they differ (and a few more by 0), decodes it back, and
 * compares. */
static int round_trip(store_t *st, const nc_count *m, const nc_count *base, uint32_t P)
{
    uint8_t *key = malloc(store_key_max(st)), *key2 = malloc(store_key_max(st));
    nc_count *back = calloc(P ? P : 1, sizeof *back), *b = malloc((P + 1) * sizeof *b);
    uint32_t *marked = malloc((P ? P : 1) * sizeof *marked);
    uint32_t *changed = malloc((P + 1) * sizeof *changed), nchanged = 0, nbase = 0;
    int64_t *delta = malloc((P + 1) * sizeof *delta);
    for (uint32_t p = 0; p < P; p++) {
        b[p] = base[p];
        if (base[p])
            marked[nbase++] = p;
        if (base[p] != m[p] || (next_rand() & 7) == 0) {
            delta[nchanged] = (int64_t)(m[p] - base[p]);
            changed[nchanged++] = p;
        }
    }
    store_set_base(st, b, marked, nbase);
    size_t len = store_encode(st, m, key);
    size_t len2 = store_encode_succ(st, b, changed, delta, nchanged, key2);
    int same_base = memcmp(b, base, P * sizeof *b) == 0;
    uint32_t n = store_decode(st, key, back, marked);
    int ok = same_base && len <= store_key_max(st) && len == len2 && memcmp(key, key2, len) == 0;
    uint32_t want = 0;
    for (uint32_t p = 0; p < P; p++) {
        if (back[p] != m[p])
            ok = 0;
        if (m[p] && (want >= n || marked[want++] != p))
            ok = 0;
    }
    ok = ok && want == n;
    int safe = 1;
    for (uint32_t p = 0; p < P; p++)
        safe &= m[p] <= 1;
    ok = ok && store_key_safe(st, key) == safe;
    if (!store_is_packed(st)) {
        size_t header;
        ok = ok && store_key_is_safe(key, &header) == safe;
    }
    free(key);
    free(key2);
    free(back);
    free(marked);
    free(changed);
    free(delta);
    free(b);
    return ok;
}

static void test_encoding(void)
{
    uint32_t sizes[] = {0, 1, 7, 8, 9, 63, 64, 65, 200, 1000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        uint32_t P = sizes[s];
        store_t *st = store_new(P, (size_t)64 << 20, 1);
        nc_count *m = calloc(P ? P : 1, sizeof *m), *base = calloc(P ? P : 1, sizeof *m);
        int ok = st != NULL;
        for (int i = 0; ok && i < 400; i++) {
            random_marking(m, P, i & 1);
            if (i & 2) {   /* a near successor, sometimes leaving or entering mode 0 */
                memcpy(base, m, P * sizeof *m);
                for (int k = 0; P && k < 3; k++)
                    base[next_rand() % P] = next_rand() % 3;
            } else {
                random_marking(base, P, i & 4);
            }
            ok = round_trip(st, m, base, P);
        }
        if (ok && P) {   /* extremes */
            for (uint32_t p = 0; p < P; p++)
                m[p] = NC_COUNT_MAX;
            ok = round_trip(st, m, base, P);
            memset(m, 0, P * sizeof *m);
            ok = ok && round_trip(st, m, base, P);
            m[P - 1] = 2;
            ok = ok && round_trip(st, m, m, P);
        }
        CHECK(ok, "encode, encode as successor, decode: round trip, %u places", P);
        free(m);
        free(base);
        store_free(st);
    }
}

/* A random marking within the widths: counts near the top of their
 * fields half of the time. */
static void random_fitting(nc_count *m, const uint8_t *bits, uint32_t P)
{
    for (uint32_t p = 0; p < P; p++) {
        uint64_t top = bits[p] ? (UINT64_C(1) << bits[p]) - 1 : 0, r = next_rand();
        m[p] = !top ? 0 : (r & 1) ? top - (r >> 1) % (top < 3 ? top + 1 : 3) : (r >> 1) % (top + 1);
        if ((r >> 40) % 3 == 0)
            m[p] = 0;
    }
}

/* Rebasing on a key brings the marking to the key's, names exactly the
 * places that changed, and leaves the key as the successors' base. */
static void test_rebase(void)
{
    uint32_t sizes[] = {1, 7, 63, 64, 65, 200, 1000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        uint32_t P = sizes[s];
        uint8_t *bits = calloc(P, 1);
        for (uint32_t p = 0; p < P; p++)
            bits[p] = (uint8_t)(p % 5 == 4 ? next_rand() % 33 : p % 7 == 3 ? 0 : 1);
        store_t *st = store_new_packed(P, bits, NULL, (size_t)64 << 20, 1);
        nc_count *m = calloc(P, sizeof *m), *cur = calloc(P, sizeof *cur);
        uint32_t *marked = calloc(P, sizeof *marked), *changed = calloc(P, sizeof *changed);
        uint8_t *key = st ? malloc(store_key_max(st)) : NULL, *again = st ? malloc(store_key_max(st)) : NULL;
        int ok = st && key && again;
        if (ok)
            store_set_base(st, cur, marked, 0);
        for (int i = 0; ok && i < 300; i++) {
            nc_count *old = malloc(P * sizeof *old);
            memcpy(old, cur, P * sizeof *old);
            if (i % 3) {   /* a near successor */
                memcpy(m, cur, P * sizeof *m);
                nc_count *other = calloc(P, sizeof *other);
                random_fitting(other, bits, P);
                for (int k = 0; k < 3; k++) {
                    uint32_t p = (uint32_t)(next_rand() % P);
                    m[p] = other[p];
                }
                free(other);
            } else {
                random_fitting(m, bits, P);
            }
            size_t len = store_encode(st, m, key);
            uint32_t n = store_rebase(st, key, cur, changed);
            uint32_t want = 0;
            uint8_t *seen = calloc(P, 1);
            for (uint32_t p = 0; p < P; p++)
                want += old[p] != m[p];
            ok = len > 0 && n == want && memcmp(cur, m, P * sizeof *m) == 0;
            for (uint32_t k = 0; ok && k < n; k++) {
                ok = changed[k] < P && !seen[changed[k]] && old[changed[k]] != m[changed[k]];
                seen[changed[k] < P ? changed[k] : 0] = 1;
            }
            free(seen);
            free(old);
            ok = ok && store_encode_succ(st, cur, NULL, NULL, 0, again) == len &&
                 memcmp(again, key, len) == 0;
        }
        CHECK(ok, "fixed-width keys: rebasing names the changed places, %u places", P);
        free(bits);
        free(m);
        free(cur);
        free(marked);
        free(changed);
        free(key);
        free(again);
        store_free(st);
    }
}

static void test_packed(void)
{
    uint32_t sizes[] = {0, 1, 7, 63, 64, 65, 200, 1000};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        uint32_t P = sizes[s];
        uint8_t *bits = calloc(P ? P : 1, 1);
        for (uint32_t p = 0; p < P; p++)   /* mostly safe places, some of any width */
            bits[p] = (uint8_t)(p % 5 == 4 ? next_rand() % 33 : p % 7 == 3 ? 0 : 1);
        store_t *st = store_new_packed(P, bits, NULL, (size_t)64 << 20, 1);
        nc_count *m = calloc(P ? P : 1, sizeof *m), *base = calloc(P ? P : 1, sizeof *m);
        int ok = st != NULL && store_is_packed(st);
        for (int i = 0; ok && i < 400; i++) {
            random_fitting(m, bits, P);
            random_fitting(base, bits, P);
            if (i & 1)   /* a near successor */
                for (uint32_t p = 0; p < P; p++)
                    if (next_rand() % 8)
                        base[p] = m[p];
            ok = round_trip(st, m, base, P);
        }
        CHECK(ok, "fixed-width keys: round trip, %u places", P);
        free(m);
        free(base);
        free(bits);
        store_free(st);
    }

    /* counts outside a field are refused, and said to be */
    uint8_t bits[4] = {1, 3, 0, 32};
    store_t *st = store_new_packed(4, bits, NULL, (size_t)64 << 20, 0);
    nc_count m[4] = {1, 7, 0, UINT32_MAX};
    uint32_t marked[3] = {0, 1, 3};
    uint8_t key[256];
    CHECK(st && store_encode(st, m, key) > 0 && !store_bound_broken(st),
          "fixed-width keys: the largest count of each field fits");
    m[1] = 8;
    CHECK(st && store_encode(st, m, key) == 0 && store_bound_broken(st),
          "fixed-width keys: a count above its field is refused");
    store_free(st);
    st = store_new_packed(4, bits, NULL, (size_t)64 << 20, 0);
    m[1] = 7;
    store_set_base(st, m, marked, 3);
    uint32_t place[2] = {1, 0};
    int64_t up[2] = {1, 0}, down[2] = {-1, -2}, ok_delta[2] = {-7, -1};
    CHECK(st && store_encode_succ(st, m, place, up, 2, key) == 0 && store_bound_broken(st),
          "fixed-width keys: a successor above a field is refused");
    store_free(st);
    st = store_new_packed(4, bits, NULL, (size_t)64 << 20, 0);
    store_set_base(st, m, marked, 3);
    CHECK(st && store_encode_succ(st, m, place, down, 2, key) == 0 && store_bound_broken(st),
          "fixed-width keys: a count below zero is refused");
    store_free(st);
    st = store_new_packed(4, bits, NULL, (size_t)64 << 20, 0);
    store_set_base(st, m, marked, 3);
    size_t len = st ? store_encode_succ(st, m, place, ok_delta, 2, key) : 0;
    nc_count back[4] = {0, 0, 0, 0};
    CHECK(len > 0 && store_decode(st, key, back, marked) == 1 && back[3] == UINT32_MAX &&
          !back[0] && !back[1], "fixed-width keys: a successor emptying two fields");
    store_free(st);
    bits[0] = STORE_PACKED_BITS_MAX + 1;
    CHECK(store_new_packed(4, bits, NULL, (size_t)64 << 20, 0) == NULL,
          "fixed-width keys: a field wider than %d bits is refused", STORE_PACKED_BITS_MAX);

    /* Keys starting with zero bytes, in a small budget's many blocks: the
     * arena walk must find blocks left early without a marker byte. */
    enum { PP = 20, N = 100000 };
    uint8_t w[PP];
    for (uint32_t p = 0; p < PP; p++)
        w[p] = p < 16 ? 1 : 8;
    st = store_new_packed(PP, w, NULL, (size_t)16 << 20, 1);
    store_ref *refs = malloc(N * sizeof *refs);
    int ok = st != NULL && refs != NULL;
    for (uint32_t i = 0; ok && i < N; i++) {
        nc_count mm[PP] = {0};
        for (uint32_t p = 0; p < 16; p++)
            mm[p] = (i >> (p + 4)) & 1;   /* the first byte is 0 for most keys */
        mm[16] = i % 16;
        mm[17] = i / 4096;
        len = store_encode(st, mm, key);
        if (store_insert(st, key, len, store_hash(key, len), i ? refs[i - 1] : STORE_NO_REF,
                         i % 300, &refs[i]) != 1)
            ok = 0;
    }
    uint32_t i = 0;
    store_ref r = store_first(st);
    while (ok && store_more(st, &r)) {
        store_ref parent;
        uint32_t t;
        if (i >= N || r != refs[i] || store_parent(st, r, &parent, &t) < 0 ||
            parent != (i ? refs[i - 1] : STORE_NO_REF) || t != i % 300)
            ok = 0;
        r = store_after(st, r);
        i++;
    }
    CHECK(ok && i == N && store_count(st) == N,
          "fixed-width keys: %u markings, the arena walked in insertion order", i);
    free(refs);
    store_free(st);
}

static void test_overflow(void)
{
    store_t *st = store_new(3, (size_t)64 << 20, 0);
    nc_count m[3] = {NC_COUNT_MAX - 1, 5, 0};
    uint32_t marked[3] = {0, 1}, place[2] = {0, 2};
    int64_t delta[2] = {1, 1};
    uint8_t key[256], key2[256];
    store_set_base(st, m, marked, 2);
    size_t len = store_encode_succ(st, m, place, delta, 2, key);
    nc_count want[3] = {NC_COUNT_MAX, 5, 1};
    size_t len2 = store_encode(st, want, key2);
    CHECK(len && len == len2 && memcmp(key, key2, len) == 0 && m[0] == NC_COUNT_MAX - 1,
          "successor reaching 2^63-1 encoded, base restored");
    delta[0] = 2;
    CHECK(store_encode_succ(st, m, place, delta, 2, key) == 0, "successor passing 2^63-1 refused");
    store_free(st);
}

static void test_sizes(void)
{
    store_t *st = store_new(100, (size_t)64 << 20, 0);
    nc_count m[100] = {0};
    uint8_t key[2048];
    for (int p = 0; p < 100; p += 3)
        m[p] = 1;
    size_t len = store_encode(st, m, key);
    CHECK(len == 1 + 13, "safe marking of 100 places: 14 bytes (got %zu)", len);
    m[5] = 1000;
    len = store_encode(st, m, key);
    CHECK(len == 1 + 13 + 5 + 2, "one count of 1000 adds the >1 bits and a varint (got %zu)", len);
    store_free(st);
}

/* Inserts many distinct markings, then all again: the second round finds
 * every one, refs and parents survive table doubling, and walking the
 * arena gives them back in insertion order. */
static void test_table(void)
{
    enum { P = 40, N = 200000 };
    store_t *st = store_new(P, (size_t)256 << 20, 1);
    uint8_t key[1024];
    nc_count m[P];
    store_ref *refs = malloc(N * sizeof *refs);
    int ok = 1;
    for (uint32_t i = 0; i < N; i++) {
        for (uint32_t p = 0; p < P; p++)
            m[p] = (i >> (p % 20)) & 1;
        m[P - 1] = i / 4096;       /* makes them distinct, some counts > 1 */
        m[P - 2] = i % 4096;
        size_t len = store_encode(st, m, key);
        store_ref parent = i ? refs[i - 1] : STORE_NO_REF;
        if (store_insert(st, key, len, store_hash(key, len), parent, i % 1000, &refs[i]) != 1)
            ok = 0;
    }
    CHECK(ok && store_count(st) == N, "%d distinct markings inserted", N);
    ok = 1;
    for (uint32_t i = 0; i < N; i++) {
        for (uint32_t p = 0; p < P; p++)
            m[p] = (i >> (p % 20)) & 1;
        m[P - 1] = i / 4096;
        m[P - 2] = i % 4096;
        size_t len = store_encode(st, m, key);
        store_ref r;
        if (store_insert(st, key, len, store_hash(key, len), 0, 0, &r) != 0 || r != refs[i])
            ok = 0;
    }
    CHECK(ok && store_count(st) == N, "every marking found again, same ref");
    ok = 1;
    store_ref r = store_first(st);
    uint32_t i = 0;
    while (store_more(st, &r)) {
        store_ref parent;
        uint32_t t;
        if (i >= N || r != refs[i] || store_parent(st, r, &parent, &t) < 0 ||
            parent != (i ? refs[i - 1] : STORE_NO_REF) || t != i % 1000)
            ok = 0;
        r = store_after(st, r);
        i++;
    }
    CHECK(ok && i == N, "arena walk: insertion order, parents and transitions kept");
    CHECK(store_peak_bytes(st) >= store_bytes(st) && store_bytes(st) > store_record_bytes(st),
          "accounting covers the records (%zu bytes, %llu in records)", store_bytes(st),
          (unsigned long long)store_record_bytes(st));
    free(refs);
    store_free(st);
}

static void test_budget(void)
{
    CHECK(store_new(10, 1000, 0) == NULL, "a budget below one block refuses to start");
    store_t *st = store_new(10, (size_t)1 << 20, 0);
    nc_count m[10] = {0};
    uint8_t key[512];
    int r = 1;
    uint64_t i;
    for (i = 0; r == 1 && i < 10000000; i++) {
        m[0] = i;
        size_t len = store_encode(st, m, key);
        store_ref ref;
        r = store_insert(st, key, len, store_hash(key, len), 0, 0, &ref);
    }
    CHECK(r == -1, "1 MiB budget runs out (after %llu markings)", (unsigned long long)i);
    CHECK(store_peak_bytes(st) <= ((size_t)1 << 20), "peak %zu stays within the budget",
          store_peak_bytes(st));
    store_free(st);
}

/* Inserts markings 0, 1, 2, ... until store_insert refuses; its status. */
static int fill(store_t *st, uint64_t *n)
{
    nc_count m[10] = {0};
    uint8_t key[512];
    int r = 1;
    for (*n = 0; r == 1 && *n < 10000000; ++*n) {
        m[0] = *n;
        size_t len = store_encode(st, m, key);
        store_ref ref;
        r = store_insert(st, key, len, store_hash(key, len), 0, 0, &ref);
    }
    return r;
}

/* A deadline that has passed: the table does not double any more, fills
 * to its squeeze limit, and says why it stopped. */
static void test_deadline(void)
{
    uint64_t free_n, late_n;
    store_t *st = store_new(10, (size_t)64 << 20, 0);
    int r = fill(st, &free_n);
    store_free(st);
    st = store_new(10, (size_t)64 << 20, 0);
    store_set_deadline(st, mono_now() - 1);
    int late = fill(st, &late_n);
    store_free(st);
    CHECK(r == -1 && late == STORE_OUT_OF_TIME,
          "past deadline: STORE_OUT_OF_TIME (%d), not the budget's -1 (%d)", late, r);
    CHECK(late_n * 100 < free_n, "past deadline: the table stays small (%llu markings, "
          "%llu with only the budget)", (unsigned long long)late_n, (unsigned long long)free_n);
    st = store_new(10, (size_t)64 << 20, 0);
    store_set_deadline(st, mono_now() + 3600);
    r = fill(st, &late_n);
    store_free(st);
    CHECK(r == -1 && late_n == free_n, "a distant deadline changes nothing (%llu markings)",
          (unsigned long long)late_n);
}

/* STORE_TRANSITIONS: a record keeps only its transition, 5 bytes less
 * than with the parent's ref; store_find finds exactly what was added,
 * with both kinds of keys. */
static void test_transitions(void)
{
    enum { P = 12, N = 5000 };
    uint8_t bits[P];
    for (uint32_t p = 0; p < P; p++)
        bits[p] = 3;
    for (int packed = 0; packed < 2; packed++) {
        store_t *st = packed ? store_new_packed(P, bits, NULL, (size_t)64 << 20, STORE_TRANSITIONS)
                             : store_new(P, (size_t)64 << 20, STORE_TRANSITIONS);
        store_t *full = packed ? store_new_packed(P, bits, NULL, (size_t)64 << 20, STORE_PARENTS)
                               : store_new(P, (size_t)64 << 20, STORE_PARENTS);
        uint8_t key[1024];
        nc_count m[P];
        int ok = st && full;
        for (uint32_t i = 0; ok && i < 2 * N; i++) {
            for (uint32_t p = 0; p < P; p++)
                m[p] = ((uint64_t)i >> (3 * p)) & 7;     /* 2N distinct markings */
            size_t len = store_encode(st, m, key);
            uint64_t h = store_hash(key, len);
            store_ref r, rf;
            if (i < N) {
                ok = store_insert(st, key, len, h, 0, i % 300, &r) == 1 &&
                     store_insert(full, key, len, h, 0, i % 300, &rf) == 1;
            } else {
                uint32_t t;
                /* the second half was never added: find says so */
                ok = store_find(st, key, len, h, &r) == 0;
                for (uint32_t p = 0; p < P; p++)
                    m[p] = ((uint64_t)(i - N) >> (3 * p)) & 7;
                len = store_encode(st, m, key);
                ok = ok && store_find(st, key, len, store_hash(key, len), &r) == 1 &&
                     store_transition(st, r, &t) == 0 && t == (i - N) % 300 &&
                     store_parent(st, r, &rf, &t) < 0;
            }
        }
        CHECK(ok, "%s keys: find and transition agree with what was added",
              packed ? "fixed-width" : "variable");
        CHECK(ok && store_record_bytes(full) - store_record_bytes(st) == (uint64_t)5 * N,
              "%s keys: 5 bytes a record less than with parents (%llu against %llu)",
              packed ? "fixed-width" : "variable", (unsigned long long)store_record_bytes(st),
              (unsigned long long)(ok ? store_record_bytes(full) : 0));
        store_free(st);
        store_free(full);
    }
}

/* Compact stores: refs for added keys only, the queue in insertion
 * order, transitions found by key, memory freed behind the queue, the
 * table grown through, and the budget and the deadline still end it. */
static void test_compact(void)
{
    enum { P = 16, N = 300000 };
    uint8_t bits[P];
    for (uint32_t p = 0; p < P; p++)
        bits[p] = p < 8 ? 1 : 4;   /* 40 bits: 8 safe places, 8 of counts to 15 */
    /* below 256 MiB: blocks of 256 KiB, several of them */
    store_t *st = store_new_compact(P, bits, NULL, 700, (size_t)200 << 20, STORE_TRANSITIONS);
    CHECK(st && store_is_compact(st), "a compact store of 40-bit keys");
    if (!st)
        return;
    uint8_t key[1024];
    nc_count m[P];
    int ok = 1;
    store_ref first = STORE_NO_REF, prev = 0;
    for (uint32_t i = 0; ok && i < N; i++) {
        for (uint32_t p = 0; p < P; p++)
            m[p] = p < 8 ? (i >> p) & 1 : ((uint64_t)i * 2654435761u >> (4 * (p - 8) + 3)) & 15;
        size_t len = store_encode(st, m, key);
        store_ref r;
        int added = store_insert(st, key, len, store_key_hash(st, key, len), 0, i % 700, &r);
        ok = (added == 1 && r != STORE_NO_REF && (i == 0 || r > prev)) ||
             (added == 0 && r == STORE_NO_REF);
        prev = added == 1 ? r : prev;
        first = i == 0 ? r : first;
    }
    uint64_t n = store_count(st);
    CHECK(ok && n > N / 2 && first == store_first(st),
          "%llu of %d markings new, refs ascending; known ones have none", (unsigned long long)n,
          N);
    CHECK(store_load(st) > 0.55 && store_load(st) <= 0.9,
          "the table grew through, load %.2f", store_load(st));
    /* every marking's transition by key, and by ref walking the queue */
    ok = 1;
    for (uint32_t i = 0; ok && i < N; i++) {
        for (uint32_t p = 0; p < P; p++)
            m[p] = p < 8 ? (i >> p) & 1 : ((uint64_t)i * 2654435761u >> (4 * (p - 8) + 3)) & 15;
        size_t len = store_encode(st, m, key);
        uint32_t t;
        ok = store_find_transition(st, key, len, store_key_hash(st, key, len), &t) == 1 &&
             t < 700;
    }
    uint64_t walked = 0;
    int order = 1;
    nc_count back[P];
    uint32_t marked[P];
    for (store_ref r = store_first(st); store_more(st, &r); r = store_after(st, r), walked++) {
        size_t len;
        const uint8_t *k = store_key(st, r, &len);
        uint32_t t, t2;
        memset(back, 0, sizeof back);
        store_decode(st, k, back, marked);
        uint8_t again[1024];
        size_t len2 = store_encode(st, back, again);
        order = order && len == len2 && memcmp(k, again, len) == 0 &&
                store_transition(st, r, &t) == 0 &&
                store_find_transition(st, k, len, store_key_hash(st, k, len), &t2) == 1 &&
                t == t2;
    }
    CHECK(ok && order && walked == n, "transitions by key and by ref agree over the queue");
    /* the same queue a run of keys at a time: the keys and refs that
     * store_next gives one by one, across blocks left early */
    uint64_t by_runs = 0, runs = 0;
    size_t klen;
    (void)store_key(st, store_first(st), &klen);
    int same = 1;
    store_ref one = store_first(st), many = store_first(st);
    const uint8_t *run, *k1;
    store_ref after;
    for (size_t left; same && (left = store_next_keys(st, &many, &run)) > 0; runs++) {
        for (; same && left > 0; left--, by_runs++, run += klen, many += klen) {
            same = store_next(st, &one, &k1, &after) && one == many && k1 == run;
            one = after;
        }
    }
    same = same && !store_next(st, &one, &k1, &after);
    CHECK(same && by_runs == n && runs > 1,
          "the queue a run of keys at a time: %llu keys in %llu runs, as one by one",
          (unsigned long long)by_runs, (unsigned long long)runs);
    size_t before = store_bytes(st);
    store_ref last = store_first(st);
    for (uint64_t i = 0; i + 1 < n; i++)
        last = store_after(st, last);
    store_release(st, last);
    CHECK(store_bytes(st) < before && store_bytes(st) >= store_table_bytes(st),
          "releasing the queue frees its blocks (%zu -> %zu bytes, table %zu)", before,
          store_bytes(st), store_table_bytes(st));
    size_t len;
    const uint8_t *k = store_key(st, last, &len);
    uint32_t t, t2;
    CHECK(len == 5 && store_transition(st, last, &t) == 0 &&
              store_find_transition(st, k, len, store_key_hash(st, k, len), &t2) == 1 && t == t2,
          "the last key (5 bytes) is still there after the release");
    store_free(st);

    /* budget and deadline */
    st = store_new_compact(P, bits, NULL, 700, (size_t)4 << 20, STORE_KEYS);
    int r = 1;
    uint64_t i;
    for (i = 0; st && r == 1; i++) {
        for (uint32_t p = 0; p < P; p++)
            m[p] = p < 8 ? (i >> p) & 1 : (i >> (4 * (p - 8) + 8)) & 15;
        size_t l = store_encode(st, m, key);
        store_ref ref;
        r = store_insert(st, key, l, store_key_hash(st, key, l), 0, 0, &ref);
    }
    CHECK(st && r == -1 && store_peak_bytes(st) <= ((size_t)4 << 20),
          "4 MiB budget runs out after %llu markings (peak %zu)", (unsigned long long)i,
          st ? store_peak_bytes(st) : 0);
    store_free(st);
    st = store_new_compact(P, bits, NULL, 700, (size_t)64 << 20, STORE_KEYS);
    store_set_deadline(st, mono_now() - 1);
    for (i = 0, r = 1; st && r == 1; i++) {
        for (uint32_t p = 0; p < P; p++)
            m[p] = p < 8 ? (i >> p) & 1 : (i >> (4 * (p - 8) + 8)) & 15;
        size_t l = store_encode(st, m, key);
        store_ref ref;
        r = store_insert(st, key, l, store_key_hash(st, key, l), 0, 0, &ref);
    }
    CHECK(st && r == STORE_OUT_OF_TIME && i < 5000,
          "past deadline: no growth, STORE_OUT_OF_TIME after %llu markings",
          (unsigned long long)i);
    store_free(st);
    CHECK(store_new_compact(P, bits, NULL, 700, (size_t)64 << 20, STORE_PARENTS) == NULL,
          "no compact store keeps parents");
}

int main(void)
{
    test_encoding();
    test_packed();
    test_rebase();
    test_sizes();
    test_overflow();
    test_table();
    test_transitions();
    test_compact();
    test_budget();
    test_deadline();
    UNIT_DONE();
}
