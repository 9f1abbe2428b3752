/* Open addressing with linear probing, at most half full: no tombstones,
 * since nothing is ever taken out. */
#include "base/strmap.h"

#include <stdlib.h>
#include <string.h>

/* The first capacity: small tables are the common case (sorts, units). */
#define FIRST_CAP 16

uint64_t strmap_hash(const char *key, size_t len)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)key[i]) * 1099511628211u;
    return h;
}

/* Whether the stored key k is the len bytes at s.  k[i] is read only up to
 * its NUL, so a NUL among the len bytes makes no match instead of a read
 * past k. */
static int same(const char *k, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (k[i] != s[i] || !k[i])
            return 0;
    return k[len] == '\0';
}

/* The slot of key (len bytes, hash h): the one that holds it, or the free
 * one it would take.  There is always a free slot: the map is at most half
 * full. */
static size_t slot(const strmap *m, const char *key, size_t len, uint64_t h)
{
    size_t mask = m->cap - 1, j = (size_t)h & mask;
    while (m->keys[j] && !same(m->keys[j], key, len))
        j = (j + 1) & mask;
    return j;
}

void strmap_free(strmap *m)
{
    free(m->keys);
    free(m->values);
    memset(m, 0, sizeof *m);
}

int64_t strmap_find_n(const strmap *m, const char *key, size_t len)
{
    if (!m->cap || !key)
        return -1;
    size_t j = slot(m, key, len, strmap_hash(key, len));
    return m->keys[j] ? (int64_t)m->values[j] : -1;
}

int64_t strmap_find(const strmap *m, const char *key)
{
    return key ? strmap_find_n(m, key, strlen(key)) : -1;
}

/* Doubles the table, or makes the first one.  -1 (m unchanged) when the
 * bigger table cannot be had. */
static int grow(strmap *m)
{
    if (m->cap > SIZE_MAX / 2 / sizeof *m->keys)
        return -1;
    size_t cap = m->cap ? 2 * m->cap : FIRST_CAP;
    strmap bigger = { calloc(cap, sizeof *m->keys), malloc(cap * sizeof *m->values), cap,
                      m->used };
    if (!bigger.keys || !bigger.values) {
        free(bigger.keys);
        free(bigger.values);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        const char *k = m->keys[i];
        if (!k)
            continue;
        /* the keys are distinct: the first free slot, no comparing */
        size_t j = (size_t)strmap_hash(k, strlen(k)) & (cap - 1);
        while (bigger.keys[j])
            j = (j + 1) & (cap - 1);
        bigger.keys[j] = k;
        bigger.values[j] = m->values[i];
    }
    free(m->keys);
    free(m->values);
    *m = bigger;
    return 0;
}

int strmap_insert(strmap *m, const char *key, uint32_t *value)
{
    size_t len = strlen(key);
    uint64_t h = strmap_hash(key, len);
    size_t j = 0;
    if (m->cap) {
        j = slot(m, key, len, h);
        if (m->keys[j]) {
            *value = m->values[j];
            return 0;
        }
    }
    /* used < cap / 2 here, so used + 1 cannot overflow */
    if (m->used + 1 > m->cap / 2) {
        if (grow(m) < 0)
            return -1;
        j = slot(m, key, len, h);
    }
    m->keys[j] = key;
    m->values[j] = *value;
    m->used++;
    return 1;
}
