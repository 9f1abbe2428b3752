/* A map from strings to uint32 values (most often the index of the record
 * that bears the name): the one string table of mck, for the names of
 * nets, sorts and labels that readers and writers look up.
 *
 * The map holds the keys' pointers, not copies: a key must stay as it is
 * while the map holds it.  Every key mck looks up is the id of a record
 * its owner keeps anyway, and a copy would double the memory of a large
 * net's names.  A zeroed strmap is an empty map. */
#ifndef MCK_STRMAP_H
#define MCK_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct strmap {
    const char **keys;   /* NULL: a free slot */
    uint32_t *values;
    size_t cap, used;    /* cap: 0 or a power of two, at least twice used */
} strmap;

/* Frees the table (not the keys) and leaves m empty. */
void strmap_free(strmap *m);

/* The value under key, or -1 when key is not there (or NULL). */
int64_t strmap_find(const strmap *m, const char *key);

/* The same for the len bytes at key, which need no NUL after them. */
int64_t strmap_find_n(const strmap *m, const char *key, size_t len);

/* Insert-or-find: adds key with *value unless key is there already; then
 * *value becomes the value it has.  1 when added, 0 when it was there,
 * -1 out of memory; the map is unchanged unless 1.  key must not be NULL. */
int strmap_insert(strmap *m, const char *key, uint32_t *value);

/* The hash the map places a key by (64-bit FNV-1a of its len bytes): its
 * low bits are the key's first slot. */
uint64_t strmap_hash(const char *key, size_t len);

#endif
