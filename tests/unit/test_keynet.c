/* keynet: enabling, firing and field overflow computed on fixed-width
 * keys agree with the net's own rule (cn_enabled and the counts) on
 * random nets, field widths and markings, one key word and two; so do
 * the tables of keytab.c, and the incremental enabled list of nets of
 * more than 32 transitions that have none, along sequences of markings a
 * few places apart, as a search's queue gives them. */
#include "engine/keynet.h"
#include "engine/onehot.h"
#include "engine/store.h"
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

static world world_new(const cnet_t *cn, store_t *st, keynet_t *kn)
{
    uint32_t P = cn->nplaces, T = cn->ntransitions;
    world w = {cn, st, kn, calloc(P, sizeof(uint64_t)), malloc(store_key_max(st)),
               malloc(store_key_max(st)), calloc(P, sizeof(nc_count)),
               calloc(P, sizeof(nc_count)), calloc(T, sizeof(uint32_t)), 0, 0, 0, 0, 0};
    return w;
}

/* Frees the world's arrays, its keynet and its store. */
static void world_free(world *w)
{
    free(w->max);
    free(w->key);
    free(w->key2);
    free(w->m);
    free(w->m2);
    free(w->enabled);
    keynet_free(w->kn);
    store_free(w->st);
}

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
        store_t *st = store_new_packed(P, bits, NULL, (size_t)64 << 20, STORE_KEYS);
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
        world w = world_new(cn, st, kn);
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
        world_free(&w);
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

/* Nets of a few state machines, each places with one token between
 * them and a cycle of transitions through them, synchronised by more
 * transitions that move one or two of them, with other places around;
 * now and then a transition takes a machine's token without giving it
 * back, or gives one without taking it (broken[k]). */
static net_t *machines_net(uint32_t *P, uint32_t machines, uint32_t *size, uint32_t *first,
                           uint8_t *broken, uint32_t others)
{
    net_t *n = nc_create_net("machines", NULL);
    uint32_t places = 0;
    for (uint32_t k = 0; k < machines; k++) {
        first[k] = places;
        size[k] = 2 + pick(k % 3 == 2 ? 40 : 8);
        uint32_t start = pick(size[k]);
        for (uint32_t i = 0; i < size[k]; i++)
            nc_create_place(n, NULL, NULL, i == start);
        places += size[k];
        broken[k] = 0;
    }
    for (uint32_t i = 0; i < others; i++)
        nc_create_place(n, NULL, NULL, pick(2));
    *P = places + others;
    /* a cycle through each machine: its token can reach every place */
    uint32_t T = 0;
    for (uint32_t k = 0; k < machines; k++)
        for (uint32_t i = 0; i < size[k]; i++, T++) {
            nc_create_transition(n, NULL, NULL);
            nc_create_arc(n, NC_ARC_PT, first[k] + i, T, 1, 0);
            nc_create_arc(n, NC_ARC_TP, first[k] + (i + 1) % size[k], T, 1, 0);
        }
    for (uint32_t more = 4 + pick(60); more > 0; more--, T++) {
        uint32_t t = T;
        nc_create_transition(n, NULL, NULL);
        uint32_t a = pick(machines), b = pick(machines), moves = 1 + pick(2);
        for (uint32_t j = 0; j < moves; j++) {
            uint32_t k = j ? b : a;
            if (j && b == a)
                break;
            uint32_t from = first[k] + pick(size[k]), to = first[k] + pick(size[k]);
            uint32_t r = pick(60);
            switch (r < 2 ? r : r < 8 ? 2 : r < 11 ? 3 : 4) {
            case 0:   /* taken, not given back */
                nc_create_arc(n, NC_ARC_PT, from, t, 1, 0);
                broken[k] = 1;
                break;
            case 1:   /* given, not taken */
                nc_create_arc(n, NC_ARC_TP, to, t, 1, 0);
                broken[k] = 1;
                break;
            case 2:   /* read */
                nc_create_arc(n, NC_ARC_READ, from, t, 1, 0);
                break;
            case 3:   /* needs two tokens of the machine: never enabled */
                nc_create_arc(n, NC_ARC_PT, from, t, 2, 0);
                nc_create_arc(n, NC_ARC_TP, to, t, 2, 0);
                break;
            default:
                nc_create_arc(n, NC_ARC_PT, from, t, 1, 0);
                nc_create_arc(n, NC_ARC_TP, to, t, 1, 0);
                break;
            }
        }
        for (uint32_t i = 0; i < others; i++)
            switch (pick(8)) {
            case 0: nc_create_arc(n, NC_ARC_PT, places + i, t, 1 + pick(2), 0); break;
            case 1: nc_create_arc(n, NC_ARC_TP, places + i, t, 1 + pick(2), 0); break;
            case 2: nc_create_arc(n, NC_ARC_READ, places + i, t, 1, 0); break;
            default: break;
            }
    }
    return n;
}

/* The number of tokens of group g in m, and whether every place of g
 * holds 0 or 1. */
static nc_count group_tokens(const uint32_t *group, uint32_t P, uint32_t g, const nc_count *m)
{
    nc_count n = 0;
    for (uint32_t p = 0; p < P; p++)
        n += group[p] == g ? m[p] : 0;
    return n;
}

/* onehot_groups' groups hold one token in every marking of random runs,
 * and the unbroken machines are found, whole; keys with their fields
 * agree with the net as in test_random_nets, on the markings of those
 * runs. */
static void test_onehot_nets(void)
{
    int nets = 0, groups_found = 0, wrong_groups = 0, whole = 0, unbroken = 0, wide_groups = 0;
    int tabled = 0, untabled_many = 0, two_words = 0, compared = 0, bad_decode = 0, bad_rebase = 0;
    int bad_enabled = 0, bad_fire = 0, bad_list = 0, bad_unsafe = 0, refused = 0, refusals = 0;
    int bounded_nets = 0, machine_places = 0, held_places = 0, bounds_tested = 0, bounds_broken = 0;
    for (int round = 0; round < 300; round++) {
        uint32_t machines = 1 + pick(5), size[6], first[6], P;
        uint8_t broken[6];
        uint32_t others = round % 4 == 3 ? 20 + pick(8) : 1 + pick(5);
        net_t *net = machines_net(&P, machines, size, first, broken, others);
        const cnet_t *cn = nc_compile(net);
        uint32_t in_machines = first[machines - 1] + size[machines - 1];
        /* no width 0: the widths here are no proven bounds */
        uint8_t *bits = calloc(P, 1);
        for (uint32_t p = 0; p < P; p++)
            bits[p] = p < in_machines ? 1 : (uint8_t)(round % 4 == 3 ? 2 + pick(3) : 1 + pick(2));
        if (round % 4 == 1)   /* a field too wide for tables */
            bits[P - 1] = 14;
        uint32_t ngroups = 0;
        uint32_t *group = onehot_groups(cn, bits, 10.0, &ngroups);
        /* the invariants' bounds: every place of an unbroken machine is
         * held to its one token; bounds must hold in the runs below */
        uint8_t *held = onehot_bounds(cn, 10.0);
        bounded_nets += held != NULL;
        for (uint32_t k = 0; k < machines && held; k++)
            for (uint32_t i = 0; i < size[k] && !broken[k]; i++) {
                machine_places++;
                held_places += held[first[k] + i] == 1;
            }
        for (uint32_t k = 0; k < machines; k++) {
            uint32_t g = group ? group[first[k]] : 0;
            int all = g != 0;
            for (uint32_t i = 0; i < size[k]; i++)
                all = all && group[first[k] + i] == g;
            unbroken += !broken[k];
            whole += all && !broken[k];
            wide_groups += all && size[k] > 16;
        }
        for (uint32_t g = 1; g <= ngroups; g++)
            wrong_groups += !onehot_group_holds(cn, bits, group, g);
        groups_found += (int)ngroups;
        store_t *st = store_new_packed(P, bits, group, (size_t)64 << 20, STORE_KEYS);
        keynet_t *kn = st ? keynet_new(cn, st) : NULL;
        if (!kn) {
            keynet_free(kn);
            store_free(st);
            free(group);
            free(held);
            free(bits);
            nc_free_net(net);
            continue;
        }
        nets++;
        tabled += kn->tab != NULL;
        untabled_many += !kn->tab && cn->ntransitions > 32;
        two_words += store_key_words(st) == 2;
        uint32_t T = cn->ntransitions;
        world w = world_new(cn, st, kn);
        nc_count *back = calloc(P, sizeof(nc_count));
        uint32_t *marked = calloc(P, sizeof(uint32_t)), *changed = calloc(2 * P, sizeof(uint32_t));
        uint32_t *enabled = calloc(T, sizeof(uint32_t));
        uint8_t *last = malloc(store_key_max(st));
        for (uint32_t p = 0; p < P; p++) {
            unsigned word, shift;
            uint64_t number;
            store_field(st, p, &word, &shift, &w.max[p]);
            if (store_place_number(st, p, &number))
                w.max[p] = 1;   /* a grouped place holds the token or not */
        }
        int have_last = 0;
        for (int step = 0; step < 300; step++) {
            if (step % 60 == 0)
                memcpy(w.m, cn->initial, P * sizeof *w.m);
            for (uint32_t g = 1; g <= ngroups; g++)
                wrong_groups += group_tokens(group, P, g, w.m) != 1;
            for (uint32_t p = 0; p < P && held; p++) {
                bounds_tested += held[p] != ONEHOT_NO_BOUND;
                bounds_broken += held[p] != ONEHOT_NO_BOUND && w.m[p] > held[p];
            }
            int fits = 1;
            for (uint32_t p = 0; p < P; p++)
                fits &= w.m[p] <= w.max[p];
            if (fits) {
                compared++;
                compare(&w);
                /* the key read back: in full, and as the changes from the
                 * last one */
                memset(back, 0, P * sizeof *back);
                uint32_t nm = store_decode(st, w.key, back, marked);
                int same = memcmp(back, w.m, P * sizeof *back) == 0;
                for (uint32_t i = 0; i < nm; i++)
                    same &= w.m[marked[i]] != 0;
                bad_decode += !same;
                if (have_last) {
                    memset(back, 0, P * sizeof *back);
                    store_set_base(st, back, marked, store_decode(st, last, back, marked));
                    uint32_t nc = store_rebase(st, w.key, back, changed);
                    int ok = memcmp(back, w.m, P * sizeof *back) == 0;
                    for (uint32_t i = 0; i < nc; i++)
                        for (uint32_t j = i + 1; j < nc; j++)
                            ok &= changed[i] != changed[j];
                    bad_rebase += !ok;
                }
                memcpy(last, w.key, store_key_max(st));
                have_last = 1;
            }
            uint32_t n = 0;
            for (uint32_t t = 0; t < T; t++)
                if (cn_enabled(cn, w.m, t))
                    enabled[n++] = t;
            if (n)
                (void)cn_fire(cn, w.m, enabled[pick(n)]);
            else
                memcpy(w.m, cn->initial, P * sizeof *w.m);
        }
        /* a marking with a group's token missing, or doubled, is no key */
        if (ngroups) {
            uint32_t g = 1 + pick(ngroups), at = 0;
            memcpy(w.m, cn->initial, P * sizeof *w.m);
            for (uint32_t p = 0; p < P; p++)
                if (group[p] == g && !w.m[p])
                    at = p;
            if (pick(2))
                w.m[at] = 1;   /* two */
            else
                for (uint32_t p = 0; p < P; p++)
                    w.m[p] = group[p] == g ? 0 : w.m[p];   /* none */
            refusals++;
            refused += store_encode(st, w.m, w.key) == 0 && store_bound_broken(st);
        }
        bad_enabled += w.bad_enabled;
        bad_fire += w.bad_fire;
        bad_list += w.bad_list;
        bad_unsafe += w.bad_unsafe;
        free(back);
        free(marked);
        free(changed);
        free(enabled);
        free(last);
        world_free(&w);
        free(group);
        free(held);
        free(bits);
        nc_free_net(net);
    }
    CHECK(bounded_nets == 300 && held_places == machine_places && machine_places > 1000,
          "onehot_bounds holds every place of an unbroken machine to one token (%d of %d, in "
          "%d nets)", held_places, machine_places, bounded_nets);
    CHECK(bounds_tested > 100000 && bounds_broken == 0,
          "onehot_bounds' bounds hold in every marking of the runs (%d tested, %d broken)",
          bounds_tested, bounds_broken);
    CHECK(nets > 250 && groups_found > 300 && wide_groups > 20 && tabled > 100 &&
              untabled_many > 30 && two_words > 20,
          "nets of state machines, with groups of more than 16 places, tables, incremental "
          "lists and keys of two words (%d nets, %d groups, %d wide, %d tabled, %d "
          "incremental, %d two words)", nets, groups_found, wide_groups, tabled, untabled_many,
          two_words);
    CHECK(wrong_groups == 0, "every group found holds one token in every marking of the runs "
          "(%d wrong)", wrong_groups);
    CHECK(whole == unbroken, "every unbroken machine is found, whole (%d of %d)", whole,
          unbroken);
    CHECK(compared > 30000 && bad_decode == 0 && bad_rebase == 0,
          "grouped keys decode to their markings, in full and from the last (%d keys; %d, %d "
          "differ)", compared, bad_decode, bad_rebase);
    CHECK(refusals > 150 && refused == refusals,
          "a group's token missing or doubled is never encoded (%d of %d)", refused, refusals);
    CHECK(bad_unsafe == 0, "grouped keys: a table's unsafe transitions (%d differ)", bad_unsafe);
    CHECK(bad_enabled == 0, "grouped keys: enabling is the net's (%d differ)", bad_enabled);
    CHECK(bad_list == 0, "grouped keys: enabled lists (%d differ)", bad_list);
    CHECK(bad_fire == 0, "grouped keys: successors are the net's (%d differ)", bad_fire);
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
    store_t *st = store_new_packed(5, bits, NULL, (size_t)64 << 20, STORE_KEYS);
    CHECK(st && store_key_words(st) == 3 && keynet_new(cn, st) == NULL,
          "a key of three words gets no keynet");
    store_free(st);
    nc_free_net(net);
}

int main(void)
{
    test_random_nets();
    test_onehot_nets();
    test_too_wide();
    UNIT_DONE();
}
