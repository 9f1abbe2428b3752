/* A marking of a CFA net read back as the global state of the model
 * (§5.1's invariants make this a function: one marked place per group). */
#include <stdlib.h>
#include "cfa.h"

int cfa_state_init(const cfa_model *m, cfa_state *s)
{
    size_t nd = m->ndecls ? m->ndecls : 1, slots = 0;
    for (size_t d = 0; d < m->ndecls; d++)
        if (m->decls[d].kind != CFA_VAR)
            slots += m->decls[d].capacity;
    s->control = calloc(m->nauts ? m->nauts : 1, sizeof *s->control);
    s->value = calloc(nd, sizeof *s->value);
    s->len = calloc(nd, sizeof *s->len);
    s->slots = calloc(slots ? slots : 1, sizeof *s->slots);
    s->slot_start = calloc(nd, sizeof *s->slot_start);
    if (!s->control || !s->value || !s->len || !s->slots || !s->slot_start) {
        cfa_state_free(s);
        return -1;
    }
    for (size_t d = 0, at = 0; d < m->ndecls; d++) {
        s->slot_start[d] = at;
        if (m->decls[d].kind != CFA_VAR)
            at += m->decls[d].capacity;
    }
    return 0;
}

void cfa_state_free(cfa_state *s)
{
    free(s->control);
    free(s->value);
    free(s->len);
    free(s->slots);
    free(s->slot_start);
    s->control = NULL;
    s->value = NULL;
    s->len = NULL;
    s->slots = NULL;
    s->slot_start = NULL;
}

/* The first marked place of [first, first+n) as an offset; -1 if none. */
static int64_t marked(const nc_count *mk, uint32_t first, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (mk[first + i])
            return (int64_t)i;
    return -1;
}

void cfa_state_decode(const cfa_model *m, const nc_count *mk, cfa_state *s)
{
    for (size_t a = 0; a < m->nauts; a++)
        s->control[a] = (int32_t)marked(mk, m->auts[a].first_place, m->auts[a].nstates);
    for (size_t i = 0; i < m->ndecls; i++) {
        const cfa_decl *d = &m->decls[i];
        uint64_t r = cfa_range_size(d);
        if (d->kind == CFA_VAR) {
            int64_t k = marked(mk, d->first_place, r);
            s->value[i] = (int64_t)((uint64_t)d->lo + (uint64_t)(k < 0 ? 0 : k));
            continue;
        }
        int64_t l = marked(mk, d->first_place, (uint64_t)d->capacity + 1);
        s->len[i] = l < 0 ? 0 : (uint32_t)l;
        for (uint32_t slot = 0; slot < s->len[i]; slot++) {
            uint32_t first = cfa_slot_first(d, slot);
            int64_t k = marked(mk, first, r);
            s->slots[s->slot_start[i] + slot] = (int64_t)((uint64_t)d->lo + (uint64_t)(k < 0 ? 0 : k));
        }
    }
}
