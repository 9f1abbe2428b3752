/* keynet: enabling, firing and field overflow computed on fixed-width
 * keys agree with the net's own rule (cn_enabled and the counts) on
 * random nets, field widths and markings, one key word and two; so do
 * the tables of keytab.c, and the incremental enabled list of nets of
 * more than 32 transitions that have none, along sequences of markings a
 * few places apart, as a search's queue gives them. */
#include "checkers/keynet.h"
#include "checkers/store.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

/* The widest field of a key. */
static unsigned widest_field(const store_t *st, uint32_t P)
{
    unsigned widest = 0;
    for (uint32_t p = 0; p < P; p++) {
        unsigned word, shift;
        uint64_t max;
        store_field(st, p, &word, &shift, &max);
        unsigned width = max ? 64u - (unsigned)__builtin_clzll(max) : 0;
        widest = width > widest ? width : widest;
    }
    return widest;
}

static uint64_t rng = 0x6a09e667f3bcc908ull;
static uint32_t pick(uint32_t n) { return (uint32_t)(unit_rand(&rng) % n); }

/* Weights up to 4, read arcs, self-loops, and transitions that need more
 * than a narrow field holds or produce more than it can take. */
static net_t *random_net(uint32_t P, uint32_t T)
{
    net_t *n = nc_create_net("keys", NULL);
    for (uint32_t p = 0; p < P; p++)
        nc_create_place(n, NULL, NULL, 0);
    for (uint32_t t = 0; t < T; t++) {
        nc_create_transition(n, NULL, NULL);
        for (uint32_t p = 0; p < P; p++) {
            uint32_t w = pick(4) ? 1 : 1 + pick(4);
            switch (pick(8)) {
            case 0: case 1: nc_create_arc(n, NC_ARC_PT, p, t, w, 0); break;
            case 2: case 3: nc_create_arc(n, NC_ARC_TP, p, t, w, 0); break;
            case 4: nc_create_arc(n, NC_ARC_READ, p, t, w, 0); break;
            case 5:
                nc_create_arc(n, NC_ARC_PT, p, t, w, 0);
                nc_create_arc(n, NC_ARC_TP, p, t, 1 + pick(3), 0);
                break;
            default: break;
            }
        }
    }
    return n;
}

/* Mostly one-bit fields, as in safe nets; some wide ones to make keys of
 * two words; now and then a place with no field. */
static void random_bits(uint8_t *bits, uint32_t P)
{
    for (uint32_t p = 0; p < P; p++) {
        uint32_t r = pick(10);
        bits[p] = (uint8_t)(r < 5 ? 1 : r == 5 ? 0 : r < 8 ? 1 + pick(4) : 8 + pick(25));
    }
}

static nc_count random_count(uint64_t max)
{
    switch (pick(4)) {
    case 0: return 0;
    case 1: return max;
    case 2: return max ? max - pick(max < 3 ? (uint32_t)max + 1 : 3) : 0;
    default: return max ? unit_rand(&rng) % (max + 1) : 0;
    }
}

typedef struct world {
    const cnet_t *cn;
    store_t *st;
    keynet_t *kn;
    uint64_t *max;
    uint8_t *key, *key2;
    nc_count *m, *m2;
    uint32_t *enabled;
    size_t len;
    int bad_enabled, bad_fire, bad_list, bad_unsafe;
} world;

/* Compares everything keynet says of the marking w->m with the net. */
static void compare(world *w)
{
    const cnet_t *cn = w->cn;
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    w->len = store_encode(w->st, w->m, w->key);
    uint64_t k[2], s[2];
    keynet_load(w->kn, w->key, k);
    uint32_t n = keynet_enabled(w->kn, k, w->enabled), seen = 0, unsafe_seen = 0;
    for (uint32_t t = 0; t < T; t++) {
        int en = cn_enabled(cn, w->m, t);
        if (en != keynet_enabled_in(w->kn, t, k))
            w->bad_enabled++;
        if (en && (seen >= n || w->enabled[seen++] != t))
            w->bad_list++;
        /* a table's verdict on t, made once for the whole key */
        int unsafe = w->kn->tab && (w->kn->unsafe_bits[t / 64] >> (t % 64) & 1);
        if (!en) {
            w->bad_unsafe += unsafe;   /* only enabled transitions are unsafe */
            continue;
        }
        memcpy(w->m2, w->m, P * sizeof *w->m2);
        int fits = 1;
        for (uint32_t i = cn->eff_start[t]; i < cn->eff_start[t + 1]; i++) {
            uint32_t p = cn->eff_place[i];
            w->m2[p] += (nc_count)cn->eff_delta[i];
            fits &= w->m2[p] <= w->max[p];
        }
        unsafe_seen += !fits;
        if (w->kn->tab && unsafe == fits)
            w->bad_unsafe++;
        int fired = keynet_fire(w->kn, t, k, s);
        if (fired != fits) {
            w->bad_fire++;
            continue;
        }
        if (!fits)
            continue;
        uint8_t got[16 + 8];
        keynet_store(got, s);
        if (store_encode(w->st, w->m2, w->key2) != w->len || memcmp(got, w->key2, w->len) != 0)
            w->bad_fire++;
        uint64_t safe[2];
        keynet_fire_safe(w->kn, t, k, safe, w->kn->words);
        if (safe[0] != s[0] || safe[1] != s[1])
            w->bad_fire++;
    }
    if (seen != n)
        w->bad_list++;
    if (w->kn->tab && (w->kn->unsafe != 0) != (unsafe_seen != 0))
        w->bad_unsafe++;
}

static void test_random_nets(void)
{
    int nets = 0, many = 0, two_words = 0, too_wide = 0, not_made = 0, overflows_seen = 0;
    int tabled = 0, tabled_two_words = 0, tabled_sets = 0, tabled_sets_wide = 0, incremental = 0;
    int tables_wrong = 0, bad_enabled = 0, bad_fire = 0, bad_list = 0,
        bad_unsafe = 0;
    for (int round = 0; round < 400; round++) {
        /* past 32 transitions the enabled list is kept incrementally and
         * there are no tables; many narrow fields make keys of two words
         * that have them */
        int narrow = round % 5 == 4;
        uint32_t P = narrow ? 20 + pick(8) : 1 + pick(12);
        uint32_t T = round % 3 ? 1 + pick(10) : 33 + pick(100);
        net_t *net = random_net(P, T);
        const cnet_t *cn = nc_compile(net);
        uint8_t bits[28];
        random_bits(bits, P);
        for (uint32_t p = 0; narrow && p < P; p++)
            bits[p] = (uint8_t)(2 + pick(3));
        store_t *st = store_new_packed(P, bits, (size_t)64 << 20, STORE_KEYS);
        keynet_t *kn = st ? keynet_new(cn, st) : NULL;
        if (!st || store_key_words(st) > 2) {
            too_wide += kn != NULL;   /* must not be made */
            keynet_free(kn);
            store_free(st);
            nc_free_net(net);
            continue;
        }
        if (!kn) {
            not_made++;
            store_free(st);
            nc_free_net(net);
            continue;
        }
        nets++;
        many += T > 32;
        tabled += kn->tab != NULL;
        tabled_two_words += kn->tab && store_key_words(st) == 2;
        tabled_sets += kn->tab && T > 32;
        tabled_sets_wide += kn->tab && T > 64;
        incremental += !kn->tab && T > 32;
        /* tables: never for a field of more than 12 bits; always for
         * fields of up to 4 bits: two of them share a chunk, so up to 28
         * places need 14 tables of 256 entries, of 48 bytes at most (two
         * sets of three words, for up to 192 transitions) */
        unsigned widest = widest_field(st, P);
        if (kn->tab ? widest > 12 : widest <= 4)
            tables_wrong++;
        two_words += store_key_words(st) == 2;
        world w = {cn, st, kn, calloc(P, sizeof(uint64_t)), malloc(store_key_max(st)),
                   malloc(store_key_max(st)), calloc(P, sizeof(nc_count)),
                   calloc(P, sizeof(nc_count)), calloc(T, sizeof(uint32_t)), 0, 0, 0, 0, 0};
        for (uint32_t p = 0; p < P; p++) {
            unsigned word, shift;
            store_field(st, p, &word, &shift, &w.max[p]);
        }
        /* a walk: each marking a few places from the last */
        for (int step = 0; step < 300; step++) {
            uint32_t changes = step % 50 == 0 ? P : 1 + pick(2);
            for (uint32_t c = 0; c < changes; c++) {
                uint32_t p = pick(P);
                w.m[p] = random_count(w.max[p]);
            }
            compare(&w);
            for (uint32_t t = 0; t < T; t++) {
                uint64_t k[2], s[2];
                keynet_load(kn, w.key, k);
                overflows_seen += cn_enabled(cn, w.m, t) && !keynet_fire(kn, t, k, s);
            }
        }
        bad_enabled += w.bad_enabled;
        bad_fire += w.bad_fire;
        bad_list += w.bad_list;
        bad_unsafe += w.bad_unsafe;
        free(w.max);
        free(w.key);
        free(w.key2);
        free(w.m);
        free(w.m2);
        free(w.enabled);
        keynet_free(kn);
        store_free(st);
        nc_free_net(net);
    }
    CHECK(nets > 200 && two_words > 20 && many > 100,
          "random nets with keys of one and two words, and many transitions (%d, %d, %d)", nets,
          two_words, many);
    CHECK(too_wide == 0 && not_made == 0,
          "keynet made for every key of at most two words and no other (%d, %d wrong)", too_wide,
          not_made);
    CHECK(tabled > 100 && tabled_two_words > 5 && tabled_sets > 20 && tabled_sets_wide > 10,
          "nets with narrow fields get tables, on keys of one and two words, past 32 and 64 "
          "transitions (%d, %d, %d, %d)", tabled, tabled_two_words, tabled_sets, tabled_sets_wide);
    CHECK(incremental > 20, "nets of more than 32 transitions and no tables (%d)", incremental);
    CHECK(tables_wrong == 0, "tables made for the nets they are for (%d wrong)", tables_wrong);
    CHECK(bad_unsafe == 0, "a table's unsafe transitions are the enabled ones that leave a field "
          "(%d differ)", bad_unsafe);
    CHECK(overflows_seen > 0, "firings that leave a field are met (%d)", overflows_seen);
    CHECK(bad_enabled == 0, "enabling on keys is the net's (%d differ)", bad_enabled);
    CHECK(bad_list == 0, "incremental enabled lists are the full ones (%d differ)", bad_list);
    CHECK(bad_fire == 0, "successor keys and overflows are the net's (%d differ)", bad_fire);
}

/* Keys of more than two words are not for keynet. */
static void test_too_wide(void)
{
    net_t *net = nc_create_net("wide", NULL);
    uint8_t bits[5];
    for (int p = 0; p < 5; p++) {
        nc_create_place(net, NULL, NULL, 0);
        bits[p] = 30;
    }
    nc_create_transition(net, NULL, NULL);
    nc_create_arc(net, NC_ARC_PT, 0, 0, 1, 0);
    const cnet_t *cn = nc_compile(net);
    store_t *st = store_new_packed(5, bits, (size_t)64 << 20, STORE_KEYS);
    CHECK(st && store_key_words(st) == 3 && keynet_new(cn, st) == NULL,
          "a key of three words gets no keynet");
    store_free(st);
    nc_free_net(net);
}

int main(void)
{
    test_random_nets();
    test_too_wide();
    UNIT_DONE();
}
