/* Reading a CFA file: the lexer and grammar run over the whole text in
 * memory; the builder (cfabuild.c) collects the model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cfaint.h"
#include "base/readfile.h"
#include "cfa.tab.h"

typedef void *yyscan_t;
int cylex_init_extra(cy_state *extra, yyscan_t *scanner);
int cylex_destroy(yyscan_t scanner);
struct yy_buffer_state *cy_scan_bytes(const char *bytes, int len, yyscan_t scanner);

/* A model file larger than this is not a hand-written CFA model. */
#define CFA_MAX_FILE ((size_t)64 << 20)

cfa_model *cfa_parse_file(const char *path)
{
    size_t len;
    char *text = read_file(path, CFA_MAX_FILE, &len);
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
        cfa_code_free(&st.items[i].code);
    free(st.items);
    free(st.use_bits);
    free(st.touched);
    if (rc != 0 || st.failed) {
        if (!st.failed)
            nc_error(path, st.line, "cannot read the model (%s)",
                     rc == 2 ? "out of memory" : "syntax error");
        cfa_model_free(st.m);
        return NULL;
    }
    return st.m;
}
