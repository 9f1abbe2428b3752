/* Reading a CFA file: the lexer and grammar run over the whole text in
 * memory; the builder (cfabuild.c) collects the model. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cfaint.h"
#include "cfa.tab.h"

typedef void *yyscan_t;
int cylex_init_extra(cy_state *extra, yyscan_t *scanner);
int cylex_destroy(yyscan_t scanner);
struct yy_buffer_state *cy_scan_bytes(const char *bytes, int len, yyscan_t scanner);

/* A model file larger than this is not a hand-written CFA model. */
#define CFA_MAX_FILE (64L << 20)

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        nc_error(path, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f)) {
                nc_error(path, 0, "read error: %s", strerror(errno));
                free(buf);
                buf = NULL;
            }
            break;
        }
        if (cap >= (size_t)CFA_MAX_FILE) {
            nc_error(path, 0, "file larger than %ld MiB: not a CFA model", CFA_MAX_FILE >> 20);
            free(buf);
            buf = NULL;
            break;
        }
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    fclose(f);
    if (!buf && n == 0 && nc_error_count() == 0)
        nc_error(path, 0, "out of memory");
    *len = n;
    return buf;
}

cfa_model *cfa_parse_file(const char *path)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text)
        return NULL;
    cy_state st;
    memset(&st, 0, sizeof st);
    st.file = path;
    st.line = 1;
    st.m = calloc(1, sizeof *st.m);
    st.m->file = st.m ? strdup(path) : NULL;
    yyscan_t scanner = NULL;
    if (!st.m || !st.m->file || cylex_init_extra(&st, &scanner)) {
        nc_error(path, 0, "out of memory");
        free(text);
        cfa_model_free(st.m);
        return NULL;
    }
    cy_scan_bytes(text, (int)len, scanner);
    int rc = cyparse(scanner, &st);
    cylex_destroy(scanner);
    free(text);
    for (size_t i = 0; i < st.nitems; i++)
        cfa_expr_free(st.items[i].expr);
    free(st.items);
    if (rc != 0 || st.failed) {
        if (!st.failed)
            nc_error(path, st.line, "cannot read the model (%s)",
                     rc == 2 ? "out of memory" : "syntax error");
        cfa_model_free(st.m);
        return NULL;
    }
    return st.m;
}
