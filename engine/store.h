/* store: the set of reachable markings of an explicit search.
 *
 * A marking is stored as a key: a varint header (length << 1 | mode, plus 1
 * so that no key starts with a zero byte) followed by
 *   mode 0 (every count <= 1): a bitmap of the marked places, P/8 bytes;
 *   mode 1 (some count > 1):   the bitmap of marked places, then one bit per
 *                              marked place telling "count > 1", then for
 *                              those places the count - 2 as LEB128 varints.
 * A safe marking of P places thus costs about P/8 bytes plus one header
 * byte, and counts up to 2^63-1 still fit.  Keys are canonical: equal
 * markings have equal keys, so the store compares bytes, never markings.
 *
 * When every place has a proven bound, a store made with store_new_packed
 * uses fixed-width keys instead: each place's count is a field of the bits
 * its bound needs (a safe place: one bit), in 64-bit words, little-endian,
 * cut to the bytes the fields use.  Such keys need no header, and a
 * successor's key is the parent's plus the transition's effect, shifted
 * into the fields.  Places that always hold one token between them
 * (onehot.h) share a field holding which one has it: n places take
 * ceil(log2 n) bits, and the token moving from the place numbered i to
 * the one numbered j still adds a constant, j - i, to the key.
 *
 * Records (key, then as store_keep says nothing, or the parent record's
 * ref in 5 bytes and the transition as a varint, or the transition alone)
 * are appended to an arena of big blocks, in
 * insertion order; a record is named by its store_ref, its position in the
 * arena, which never changes.  A block is left for the next when a record
 * does not fit; how far it was filled is kept beside it.  Insertion order is breadth-first order in a
 * BFS, so the arena doubles as the queue: a cursor walking the records.
 *
 * The hash table is open addressing with linear probing over 64-bit slots
 * (ref + 1 in the low 40 bits, 24 more hash bits above it so that most
 * probes never touch the arena).  It doubles at 3/4 load; when doubling does
 * not fit the budget it keeps filling up to 9/10 before giving up.
 *
 * Memory: table, arena blocks and the block index count against the
 * budget, the bytes of the run's budget or of a part a checker carved out
 * of it (base/budget.h).  No allocation happens per
 * state: blocks are 2 MiB huge pages when the budget is at least 256 MiB,
 * else STORE_BLOCK_MIN bytes (more when a single record of the net could be
 * larger); the table is on huge pages once it reaches 2 MiB.
 *
 * Cost per state: the key (safe nets: P/8 + 1 bytes, fixed-width keys
 * often less), 1-2 bytes of transition (6-7 with the parent's ref), and
 * 8 bytes per table slot at 3/8..3/4 load.
 *
 * Compact stores (store_new_compact, fixed-width keys without parents)
 * keep the set in a ctable instead (ctable.h): each state's slot holds
 * its key less the bits the slot's position tells, and the transition
 * that reached it, at 0.6..0.9 load (0.97 when memory is short).  The
 * table grows by half, moving its entries in order, so that the old
 * table's pages are freed as the new one's are filled: growing holds the
 * new table and two huge pages more, not both tables.  The arena then
 * only queues keys: a state's key stays there until the search releases
 * it (store_release), and a known state has no ref. */
#ifndef MCK_STORE_H
#define MCK_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "base/netconv.h"

typedef uint64_t store_ref;
#define STORE_NO_REF ((store_ref)0xffffffffffull)   /* the root's parent */
#define STORE_REF_BITS 40
#define STORE_BLOCK_MIN ((size_t)256 << 10)

typedef struct store store_t;

/* What a record keeps beside its key.  STORE_PARENTS: the parent record
 * and the transition (store_parent), or a state number (store_number).
 * STORE_TRANSITIONS: only the transition that first reached the state
 * (store_transition): in a net, firing t changes the marking by a fixed
 * vector, so the parent's marking is the state's minus t's effect, and a
 * run is found again backwards with store_find, for 5 bytes less a state. */
typedef enum { STORE_KEYS = 0, STORE_PARENTS = 1, STORE_TRANSITIONS = 2 } store_keep;

/* NULL when even the initial table and block do not fit the budget or
 * malloc fails. */
store_t *store_new(uint32_t nplaces, size_t budget, store_keep keep);
void store_free(store_t *st);

/* Fixed-width keys: bits[p] (at most STORE_PACKED_BITS_MAX) is the width
 * of place p's field, so counts up to 2^bits[p] - 1 fit; 0 means the place
 * is never marked.  group, when not NULL, gives each place 0 or a group
 * number from 1 on (onehot_groups): the places of a group, at least two,
 * must hold one token between them in every marking; they share one
 * field, which holds the number of the one that has it (places numbered
 * from 0 in place order).  A count outside its field, or a group's token
 * missing or doubled, is never stored: encoding then returns 0 and
 * store_bound_broken says why.  NULL as store_new, or when a width is too
 * large or a group too small. */
#define STORE_PACKED_BITS_MAX 32
store_t *store_new_packed(uint32_t nplaces, const uint8_t *bits, const uint32_t *group,
                          size_t budget, store_keep keep);
int store_is_packed(const store_t *st);
/* Packed stores: a key's 64-bit words (0 for other stores), and place
 * p's field: at bit *shift of word *word, counts up to *max (0: a field
 * of no bits, the place is never marked). */
size_t store_key_words(const store_t *st);
void store_field(const store_t *st, uint32_t p, unsigned *word, unsigned *shift, uint64_t *max);
/* Whether p is in a group, with its number (the value of its group's
 * field when it has the token; store_field gives that field). */
int store_place_number(const store_t *st, uint32_t p, uint64_t *number);
/* The groups of a packed store, their places into *places. */
uint32_t store_groups(const store_t *st, uint32_t *places);

/* A compact store of fixed-width keys (bits as store_new_packed) for a net
 * of ntransitions transitions; keep is STORE_KEYS or STORE_TRANSITIONS.
 * store_insert then gives refs only to the keys it adds (STORE_NO_REF
 * for known ones), and a ref's key (store_key, store_transition) can be
 * read until store_release passes it.  store_find, store_parent and
 * store_number are for the other stores only.  NULL as store_new_packed,
 * or for STORE_PARENTS. */
store_t *store_new_compact(uint32_t nplaces, const uint8_t *bits, const uint32_t *group,
                           uint32_t ntransitions, size_t budget, store_keep keep);
int store_is_compact(const store_t *st);
/* A compact store's table (NULL for other stores), for lookups that
 * only read (ctable_locate, ctable_prefetch; x is store_key_hash): a
 * key found there is known, and needs no store_insert.  The pointer
 * stays valid as the table grows. */
struct ctable;
const struct ctable *store_table(const store_t *st);
/* store_insert of a key a probe of the compact store's table did not find
 * (ctable_probe returned r, 0 or CTABLE_FULL, and the position in pos):
 * 1 added, or < 0 as store_insert.  The table must not have changed since
 * the probe. */
struct ctable_pos;
int store_add_probed(store_t *st, const uint8_t *key, size_t len, uint64_t hash,
                     uint32_t transition, int r, struct ctable_pos *pos, store_ref *ref);
/* Frees what only keys before ref needed (compact stores; others keep
 * everything). */
void store_release(store_t *st, store_ref ref);
/* A count did not fit the width its place was given: the bound the width
 * came from was wrong (an internal error, reported, never a wrong answer). */
int store_bound_broken(const store_t *st);

/* The time limit of the search using the store (monotonic seconds as
 * base/clock.h counts them; 0: none).  Doubling the table rehashes
 * every state at once, which on big tables takes a good part of a second:
 * a doubling that would, judged by the last one, end after the limit is
 * not started, and one that runs into the limit all the same is given up;
 * the table fills up instead, the search meeting its limit at its next
 * clock check.  Should the table be full first, store_insert says
 * STORE_OUT_OF_TIME. */
void store_set_deadline(store_t *st, double deadline);
#define STORE_OUT_OF_TIME (-2)

/* Largest key of this net, for sizing key buffers. */
size_t store_key_max(const store_t *st);

/* Encoding.  buf must hold store_key_max bytes; the key is written at its
 * start and its length returned.  store_encode looks at every place.
 * Packed stores return 0 for a count outside its field. */
size_t store_encode(store_t *st, const nc_count *m, uint8_t *buf);
/* Successors: store_set_base takes the marking being expanded (m, with its
 * marked places); then store_encode_succ encodes the marking m + delta,
 * delta[i] being added to place[i] (each place at most once), at a cost
 * independent of the number of places.  m must be the base marking; it is
 * changed during the call and restored.  Returns 0 when a count would
 * exceed NC_COUNT_MAX (packed stores: its field). */
void store_set_base(store_t *st, const nc_count *m, const uint32_t *marked, uint32_t n);
/* Packed stores only: makes the marking of key the base, m (which holds
 * the old base marking) becoming it too, and writes the places whose
 * count changed to changed[] (each once); returns their number.  Costs a
 * word per 64 key bits and a step per changed place, however many places
 * are marked. */
uint32_t store_rebase(store_t *st, const uint8_t *key, nc_count *m, uint32_t *changed);
size_t store_encode_succ(store_t *st, nc_count *m, const uint32_t *place, const int64_t *delta,
                         size_t n, uint8_t *buf);
/* Writes the marking of key into m, which must be all zero on entry, and
 * the marked places into marked (ascending, but for a packed key's
 * grouped place, which comes where its group's field is); returns how
 * many. */
uint32_t store_decode(const store_t *st, const uint8_t *key, nc_count *m, uint32_t *marked);

/* Whether the marking of a key has no count above 1, in either kind of
 * key. */
int store_key_safe(const store_t *st, const uint8_t *key);

/* Whether a variable-length key is of mode 0 (no count above 1); *header
 * gets the length of its header, behind which the bitmap of marked places
 * starts. */
static inline int store_key_is_safe(const uint8_t *key, size_t *header)
{
    size_t h = 0;
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        b = key[h++];
        v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    *header = h;
    return ((v - 1) & 1) == 0;
}

/* Reads up to 7 bytes behind the key: every key buffer of store_key_max
 * bytes and every record has that slack. */
uint64_t store_hash(const uint8_t *key, size_t len);
/* The hash store_insert, store_find and the prefetches of st take:
 * store_hash, but for compact stores, whose table places keys by its
 * own. */
uint64_t store_key_hash(const store_t *st, const uint8_t *key, size_t len);

/* Finds or adds a key.  Returns 1 when added (its record then gets parent
 * and transition, if parents are kept), 0 when it was there, -1 when the
 * memory budget is exhausted (nothing changed).  *ref names the record. */
int store_insert(store_t *st, const uint8_t *key, size_t len, uint64_t hash,
                 store_ref parent, uint32_t transition, store_ref *ref);

/* Searches that number their states densely (for arrays indexed by
 * state) keep the number in the record's parent field, in a store made
 * with STORE_PARENTS.  Finds or adds key: 1 when added as number `next`,
 * 0 when found; *number gets its number, *ref its record.  -1 when the
 * budget is exhausted. */
int store_number(store_t *st, const uint8_t *key, size_t len, uint64_t next, uint64_t *number,
                 store_ref *ref);
/* (Both return STORE_OUT_OF_TIME instead of -1 when the table is full
 * because a doubling was declined for the deadline.) */

/* Hints for a batch of insertions (they change nothing): touch the table
 * slot of a hash, then the record its probe compares with first, so that
 * the cache misses of several keys overlap. */
void store_prefetch_slot(const store_t *st, uint64_t hash);
void store_prefetch_record(const store_t *st, uint64_t hash);

/* The key of a record (its length through *len when not NULL). */
const uint8_t *store_key(const store_t *st, store_ref ref, size_t *len);
/* Parent and transition of a record; 0, or -1 unless the store keeps
 * STORE_PARENTS.  The initial record's parent is STORE_NO_REF. */
int store_parent(const store_t *st, store_ref ref, store_ref *parent, uint32_t *transition);
/* The transition of a record (0 for the initial one); 0, or -1 when the
 * store keeps only keys. */
int store_transition(const store_t *st, store_ref ref, uint32_t *transition);
/* Finds a key without adding it: 1 with *ref set, or 0.  hash is
 * store_hash(key, len). */
int store_find(const store_t *st, const uint8_t *key, size_t len, uint64_t hash, store_ref *ref);
/* The transition that first reached the state of key: 1 with *transition
 * set, or 0 when the key is not there or transitions are not kept.  hash
 * is store_key_hash(st, key, len). */
int store_find_transition(const store_t *st, const uint8_t *key, size_t len, uint64_t hash,
                          uint32_t *transition);

/* Walking the records in insertion order: start at store_first, then
 * while store_more(st, &ref) holds (it may move ref to the next block),
 * use ref and step with store_after. */
store_ref store_first(const store_t *st);
int store_more(const store_t *st, store_ref *ref);
store_ref store_after(const store_t *st, store_ref ref);
/* All three at once, and store_key: 0 when there is no record from *ref
 * on, else 1 with *ref at it, its key in *key and *after the ref of the
 * next. */
int store_next(const store_t *st, store_ref *ref, const uint8_t **key, store_ref *after);
/* A compact store's queued keys a run at a time: the number of keys from
 * *ref on that lie one after another in its block, 0 when none is
 * queued; *key is the first.  *ref moves to the next block first when
 * its block has no more.  A compact store's keys all have the length
 * store_encode gives; the keys of a run and their refs are that many
 * bytes apart, and stay where they are until store_release passes them. */
size_t store_next_keys(const store_t *st, store_ref *ref, const uint8_t **key);

uint64_t store_count(const store_t *st);
size_t store_bytes(const store_t *st);       /* accounted now */
size_t store_peak_bytes(const store_t *st);  /* accounted at most, so far */
/* Bytes of the records alone (keys and parents), for statistics. */
uint64_t store_record_bytes(const store_t *st);
/* The hash table: its bytes and its load (entries per home slot). */
size_t store_table_bytes(const store_t *st);
double store_load(const store_t *st);
/* One line on how the states are kept (for -v). */
void store_print_stats(const store_t *st, FILE *f);

#endif
