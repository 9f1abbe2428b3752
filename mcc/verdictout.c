/* `mck mcc --xml FILE`: every answer of the run also goes into a verdict
 * set (verdicts/), written when the run ends, with the run that shows a
 * reachable property where the examination found one.  answer.c is the
 * only caller of the recording functions, so the file holds exactly what
 * was printed; the formula examinations add the values they leave open as
 * unknown, with the reason. */
#include "mcc/internal.h"
#include "verdicts/verdicts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    const char *path;
    const char *exam;
    FILE *out;
    verdictset_t *vs;
    const net_t *net;
    int failed;        /* a verdict could not be built: the file says so by failing */
} xo;

int mcc_xml_open(const char *path, const char *exam)
{
    /* Opened now so that a bad path is reported before any work. */
    xo.out = fopen(path, "w");
    if (!xo.out) {
        fprintf(stderr, "mck mcc: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    xo.path = path;
    xo.exam = exam;
    xo.vs = vs_create(NULL);
    if (!xo.vs) {
        fprintf(stderr, "mck mcc: out of memory\n");
        fclose(xo.out);
        xo.out = NULL;
        return -1;
    }
    return 0;
}

int mcc_xml_active(void)
{
    return xo.vs != NULL;
}

void mcc_xml_set_model(const net_t *net, const char *fallback_name)
{
    if (!xo.vs)
        return;
    xo.net = net;
    const char *name = net && net->name ? net->name : fallback_name;
    char *copy = name ? strdup(name) : NULL;
    if (copy) {
        free(xo.vs->modelname);
        xo.vs->modelname = copy;
    }
}

static void build(const char *id, const char *value, const char *techniques, const char *reason,
                  const mcc_evidence *ev)
{
    if (!xo.net)
        return;   /* nothing is answered before the net is read */
    result_t res;
    result_init(&res);
    res.answer = ANSWER_UNKNOWN;
    if (reason)
        snprintf(res.reason, sizeof res.reason, "%s", reason);
    if (techniques)
        snprintf(res.techniques, sizeof res.techniques, "%s", techniques);
    if (ev && xo.net && result_set_run(&res, ev->role, ev->run, ev->len, ev->loop_start) < 0) {
        xo.failed = 1;
        return;
    }
    verdict_t *v = vs_add_result(xo.vs, xo.exam, id, xo.net, &res);
    result_clear(&res);
    if (!v || (value && vd_set_value_text(v, value)))
        xo.failed = 1;
}

void mcc_xml_value(const char *id, const char *value, const char *techniques,
                   const mcc_evidence *ev)
{
    if (xo.vs)
        build(id, value, techniques, NULL, ev);
}

void mcc_xml_unknown(const char *id, const char *reason)
{
    if (xo.vs && !vs_find(xo.vs, xo.exam, id))
        build(id, NULL, NULL, reason, NULL);
}

int mcc_xml_close(void)
{
    if (!xo.vs)
        return 0;
    int rc = 0;
    if (xo.failed) {
        fprintf(stderr, "mck mcc: %s: out of memory while recording verdicts\n", xo.path);
        rc = -1;
    }
    if (vs_write(xo.vs, xo.out, xo.path) < 0)
        rc = -1;
    if (fclose(xo.out) != 0) {
        fprintf(stderr, "mck mcc: cannot write %s: %s\n", xo.path, strerror(errno));
        rc = -1;
    }
    vs_free(xo.vs);
    memset(&xo, 0, sizeof xo);
    return rc;
}
