#include "base/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The first room: most arrays that grow stay small (a unit's places, a
 * term's children), and a few more doublings for the large ones are
 * cheap. */
#define FIRST_CAP 8

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
    /* arrp points at a T *: read and written as bytes, since a T * may not
     * be accessed as a void * (C11 6.5p7); every object pointer has the
     * same representation on the systems mck runs on (POSIX) */
    void *a;
    memcpy(&a, arrp, sizeof a);
    a = realloc(a, ncap * elem);
    if (!a)
        return -1;
    memcpy(arrp, &a, sizeof a);
    *cap = ncap;
    return 0;
}
