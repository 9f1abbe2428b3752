/* grow_array and GROW: doubling, exact need, and refusals (an overflowing
 * size, no memory) that leave the array as it was; grow_charged under a
 * memory budget. */
#include "base/grow.h"
#include "unit.h"

#include <stdlib.h>

/* Under AddressSanitizer an impossible allocation must come back NULL, as
 * it does from malloc, instead of ending the test. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

typedef struct pair { uint64_t a, b; } pair;

static void test_appends(void)
{
    uint32_t *v = NULL;
    size_t n = 0, cap = 0, caps = 0;
    int ok = 1, doubled = 1;
    for (uint32_t i = 0; i < 100000; i++) {
        size_t before = cap;
        ok &= GROW(v, cap, n + 1) == 0;
        if (cap != before) {
            caps++;
            doubled &= before == 0 ? cap == 8 : cap == 2 * before;
        }
        v[n++] = i * 7;
    }
    for (uint32_t i = 0; i < n; i++)
        ok &= v[i] == i * 7;
    CHECK(ok, "appends: 100000 elements kept through every move");
    CHECK(doubled && caps == 15, "appends: the room starts at 8 and doubles (%zu times)", caps);
    free(v);
}

static void test_exact_need(void)
{
    pair *p = NULL;
    size_t cap = 0;
    CHECK(GROW(p, cap, 0) == 0 && !p && cap == 0, "need 0: nothing allocated");
    CHECK(GROW(p, cap, 3) == 0 && p && cap == 8, "need 3 of none: room for 8");
    pair *was = p;
    p[7] = (pair){1, 2};
    CHECK(GROW(p, cap, 8) == 0 && p == was && cap == 8, "need within the room: unchanged");
    CHECK(GROW(p, cap, 1000) == 0 && cap == 1000 && p[7].a == 1 && p[7].b == 2,
          "need beyond twice the room: exactly the need, contents kept");
    CHECK(GROW(p, cap, 1001) == 0 && cap == 2000, "one more: twice the room");
    free(p);
}

static void test_refusals(void)
{
    pair *p = NULL;
    size_t cap = 0;
    GROW(p, cap, 4);
    p[0] = (pair){5, 6};
    pair *was = p;
    size_t need = SIZE_MAX / sizeof *p + 1;
    CHECK(GROW(p, cap, need) == -1 && p == was && cap == 8 && p[0].a == 5,
          "need * elem overflows: -1, the array untouched");
    CHECK(GROW(p, cap, SIZE_MAX) == -1 && p == was && cap == 8, "need SIZE_MAX: -1, untouched");
    CHECK(grow_array(&p, &cap, 9, 0) == -1 && p == was && cap == 8, "elements of 0 bytes: -1");
    /* fits a size_t, but no allocator has it */
    CHECK(GROW(p, cap, SIZE_MAX / 2 / sizeof *p) == -1 && p == was && cap == 8 && p[0].b == 6,
          "no memory: -1, the array untouched");
    char *c = NULL;
    size_t ccap = 0;
    CHECK(GROW(c, ccap, SIZE_MAX) == -1 && !c && ccap == 0,
          "no memory for a first allocation: -1, still none");
    free(p);
}

/* grow_charged: the budget counts the added room, refuses what would pass
 * it, and a refusal leaves array, room and count as they were. */
static void test_charged(void)
{
    uint64_t *v = NULL;
    size_t cap = 0, used = 100, limit = 100 + 64 * 8;
    CHECK(grow_charged(&v, &cap, 5, 8, 16, &used, limit, 1) == 0 && cap == 16 &&
              used == 100 + 16 * 8,
          "charged: the first room, counted");
    int zeroed = 1;
    for (size_t i = 0; i < cap; i++)
        zeroed &= v[i] == 0;
    CHECK(zeroed, "charged: the new room cleared");
    v[3] = 42;
    CHECK(grow_charged(&v, &cap, 40, 8, 16, &used, limit, 0) == 0 && cap == 64 &&
              used == limit && v[3] == 42,
          "charged: doubles until the need fits (16 -> 64), exactly at the limit");
    uint64_t *was = v;
    CHECK(grow_charged(&v, &cap, 65, 8, 16, &used, limit, 1) == -1 && v == was && cap == 64 &&
              used == limit,
          "charged: past the limit: -1, untouched");
    size_t big = 0;
    CHECK(grow_charged(&v, &cap, SIZE_MAX, 8, 16, &big, SIZE_MAX, 0) == -1 && v == was &&
              cap == 64 && big == 0,
          "charged: an overflowing need: -1, untouched");
    free(v);
}

int main(void)
{
    test_appends();
    test_exact_need();
    test_refusals();
    test_charged();
    UNIT_DONE();
}
