/* The compose checker's account of memory and time (composeint.h). */
#include "base/grow.h"
#include "checkers/compose/composeint.h"

#include <stdlib.h>
#include <string.h>

#define TICK_EVERY 4096u

static void *fail(co_mem *cm)
{
    if (!cm->gave_up)
        cm->gave_up = "memory budget exhausted";
    return NULL;
}

void *co_alloc(co_mem *cm, size_t n, size_t size)
{
    if (!n)
        n = 1;
    if (size && n > SIZE_MAX / size)
        return fail(cm);
    size_t bytes = n * size;
    if (cm->used > cm->limit || bytes > cm->limit - cm->used)
        return fail(cm);
    void *p = calloc(n, size);
    if (!p)
        return fail(cm);
    cm->used += bytes;
    if (cm->used > cm->peak)
        cm->peak = cm->used;
    return p;
}

void co_free(co_mem *cm, void *p, size_t n, size_t size)
{
    if (!p)
        return;
    if (!n)
        n = 1;
    cm->used -= n * size <= cm->used ? n * size : cm->used;
    free(p);
}

int co_grow(co_mem *cm, void *arrp, size_t *cap, size_t need, size_t elem)
{
    if (grow_charged(arrp, cap, need, elem, 64, &cm->used, cm->limit, 0) < 0) {
        fail(cm);
        return -1;
    }
    if (cm->used > cm->peak)
        cm->peak = cm->used;
    return 0;
}

void co_free_grown(co_mem *cm, void *arrp, size_t *cap, size_t elem)
{
    void *p;
    memcpy(&p, arrp, sizeof p);
    if (p)
        co_free(cm, p, *cap, elem);
    p = NULL;
    memcpy(arrp, &p, sizeof p);
    *cap = 0;
}

int co_tick(co_mem *cm)
{
    if (cm->gave_up)
        return -1;
    /* the first call looks too: a limit already reached stops at once */
    if (++cm->ticks % TICK_EVERY != 1)
        return 0;
    if (*cm->budget->interrupted)
        cm->gave_up = "interrupted";
    else if (budget_expired(cm->budget))
        cm->gave_up = "time limit reached";
    return cm->gave_up ? -1 : 0;
}
