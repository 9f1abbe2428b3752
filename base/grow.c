#include "base/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first room: most arrays that grow stay small (a unit's places, a
 * term's children), and a few more doublings for the large ones are
 * cheap. */
#define FIRST_CAP 8

/* The array at arrp gets ncap elements, the added ones cleared with zero. */
static int resize(void *arrp, size_t *cap, size_t ncap, size_t elem, int zero)
{
    /* arrp points at a T *: read and written as bytes, since a T * may not
     * be accessed as a void * (C11 6.5p7); every object pointer has the
     * same representation on the systems mck runs on (POSIX) */
    void *a;
    memcpy(&a, arrp, sizeof a);
    a = realloc(a, ncap * elem);
    if (!a)
        return -1;
    if (zero)
        memset((char *)a + *cap * elem, 0, (ncap - *cap) * elem);
    memcpy(arrp, &a, sizeof a);
    *cap = ncap;
    return 0;
}

int grow_array(void *arrp, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    if (!elem || need > SIZE_MAX / elem)
        return -1;
    size_t ncap = *cap < FIRST_CAP ? FIRST_CAP : *cap > SIZE_MAX / 2 ? SIZE_MAX : 2 * *cap;
    if (ncap < need)
        ncap = need;
    if (ncap > SIZE_MAX / elem)   /* need still fits */
        ncap = SIZE_MAX / elem;
    return resize(arrp, cap, ncap, elem, 0);
}

int grow_charged(void *arrp, size_t *cap, size_t need, size_t elem, size_t first,
                 size_t *charged, size_t limit, int zero)
{
    if (need <= *cap)
        return 0;
    if (!elem || need > SIZE_MAX / elem)
        return -1;
    size_t ncap = *cap ? *cap : first ? first : 1;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return -1;
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / elem)
        return -1;
    size_t extra = (ncap - *cap) * elem;
    if (*charged > limit || extra > limit - *charged)
        return -1;
    if (resize(arrp, cap, ncap, elem, zero) < 0)
        return -1;
    *charged += extra;
    return 0;
}
