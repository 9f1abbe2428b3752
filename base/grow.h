/* Arrays that grow at their end: the one way mck makes room in them.  The
 * room doubles, so that n appends cost O(n) copying in all, and every size
 * is checked, so that a count from a hostile file cannot wrap around. */
#ifndef MCK_GROW_H
#define MCK_GROW_H

#include <stddef.h>

/* Makes room for need elements of elem bytes in the array whose address is
 * arrp (a T **, or the address of any object pointer) and whose room is
 * *cap elements: the room doubles (from 8 at first) or becomes need when
 * that is more.  The new room is not cleared.  0, or -1 when need * elem
 * does not fit a size_t or there is no memory: then the array and *cap
 * are as they were. */
int grow_array(void *arrp, size_t *cap, size_t need, size_t elem);

/* grow_array for an array a (any T *) and its room cap (a size_t). */
#define GROW(a, cap, need) grow_array(&(a), &(cap), (need), sizeof *(a))

/* The same for an array whose bytes count against a memory budget: the
 * room doubles from first until it holds need; *charged (the bytes the
 * caller has so far) grows by the added room, which may not take it past
 * limit.  With zero, the added room is cleared.  0, or -1 past the limit
 * or with no memory, the array, *cap and *charged as they were. */
int grow_charged(void *arrp, size_t *cap, size_t need, size_t elem, size_t first,
                 size_t *charged, size_t limit, int zero);

#endif
