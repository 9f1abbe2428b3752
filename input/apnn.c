/* APNN, the Abstract Petri Net Notation, place/transition part only, read
 * exactly as apnn-format.md says (§ numbers refer to it).
 *
 * The notation is LaTeX-like: commands, brace groups, % comments.  A small
 * character scanner parses the whole file into lists of places,
 * transitions and arcs first; the net is built only at the end, because
 * arcs may name nodes declared later (§3) and because whether a \name can
 * stand for its node in runs depends on all the other names (§5).
 *
 * Anything that could change the reachable markings but that mck cannot
 * represent (colours, priorities, extended arcs, subnets) is an error, never
 * dropped: a silently different net is worse than a refusal. */
#include "input/input.h"
#include "base/grow.h"
#include "base/readfile.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A bound on the file, far above any hand-written or exported net, so that
 * a hostile file cannot make the reader hold gigabytes. */
#define APNN_MAX_FILE ((size_t)1 << 30)
/* Nested braces in skipped groups: deeper means a broken file, and the
 * skipping is iterative anyway; the bound only keeps the depth counter sane. */
#define APNN_MAX_DEPTH 10000

typedef struct node {
    char *id, *name;
    long line;
    nc_count init, capacity;
    int is_place;
} node;

typedef struct arc {
    char *id, *from, *to;
    long line;
    nc_count weight;
} arc;

typedef struct reader {
    const char *path;
    const char *s, *end;   /* the text and where it ends */
    long line;
    node *nodes;
    size_t nnodes, cnodes;
    arc *arcs;
    size_t narcs, carcs;
    char *netname;
} reader;

/* What a reader hands its output function: the places after these are
 * capacity complements (§5), which runs do not show. */
typedef struct apnn_data {
    size_t visible_places;
} apnn_data;

static int fail(reader *r, long line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(reader *r, long line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nc_error(r->path, line, "%s", msg);
    return -1;
}

/* ------------------------------------------------------------------ */
/* scanning (§2) */

static int at_end(const reader *r)
{
    return r->s >= r->end;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f';
}

static int is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Blanks and comments, counting lines. */
static void skip_space(reader *r)
{
    while (!at_end(r)) {
        char c = *r->s;
        if (c == '\n') {
            r->line++;
            r->s++;
        } else if (is_blank(c)) {
            r->s++;
        } else if (c == '%') {
            while (!at_end(r) && *r->s != '\n')
                r->s++;
        } else {
            return;
        }
    }
}

/* A short, printable excerpt of the text at the cursor, for messages. */
static const char *excerpt(const reader *r, char *buf, size_t len)
{
    size_t n = 0;
    const char *p = r->s;
    while (p < r->end && n + 1 < len && n < 20 && !is_blank(*p) && (n == 0 || (*p != '\\' &&
           *p != '{' && *p != '}'))) {
        buf[n++] = (*p >= 32 && *p < 127) ? *p : '?';
        p++;
    }
    buf[n] = '\0';
    return buf;
}

/* "\letters" at the cursor into cmd; -1 after an error. */
static int command(reader *r, char *cmd, size_t len)
{
    if (at_end(r) || *r->s != '\\') {
        char b[32];
        return fail(r, r->line, "a command (\\place, \\transition, \\arc, ...) expected, not '%s'",
                    excerpt(r, b, sizeof b));
    }
    r->s++;
    size_t n = 0;
    while (!at_end(r) && is_letter(*r->s)) {
        if (n + 1 < len)
            cmd[n++] = *r->s;
        r->s++;
    }
    cmd[n] = '\0';
    if (n == 0)
        return fail(r, r->line, "a command name is missing after '\\'");
    if (n + 1 >= len)
        return fail(r, r->line, "unknown command \\%s...", cmd);
    return 0;
}

static int open_group(reader *r, const char *after)
{
    skip_space(r);
    if (at_end(r) || *r->s != '{')
        return fail(r, r->line, "'{' expected after %s", after);
    r->s++;
    return 0;
}

/* Skips a balanced group's content up to and including its closing brace
 * (the opening one already read); open_line is where it opened. */
static int skip_group_rest(reader *r, long open_line)
{
    unsigned long depth = 1;
    while (!at_end(r)) {
        char c = *r->s++;
        if (c == '\n') {
            r->line++;
        } else if (c == '%') {
            while (!at_end(r) && *r->s != '\n')
                r->s++;
        } else if (c == '{') {
            if (++depth > APNN_MAX_DEPTH)
                return fail(r, r->line, "braces nested more than %d deep", APNN_MAX_DEPTH);
        } else if (c == '}' && --depth == 0) {
            return 0;
        }
    }
    return fail(r, open_line, "a group opened here is not closed");
}

/* "{ ID }" (§2: no blanks, braces, backslashes or % inside).  *out is
 * malloc'd. */
static int read_id(reader *r, const char *after, char **out)
{
    if (open_group(r, after) < 0)
        return -1;
    long open_line = r->line;
    skip_space(r);
    const char *start = r->s;
    while (!at_end(r) && !is_blank(*r->s) && *r->s != '{' && *r->s != '}' && *r->s != '\\' &&
           *r->s != '%')
        r->s++;
    size_t n = (size_t)(r->s - start);
    skip_space(r);
    if (at_end(r))
        return fail(r, open_line, "a group opened here is not closed");
    if (*r->s != '}') {
        if (*r->s == '{' || *r->s == '\\')
            return fail(r, r->line, "coloured APNN is not supported: %s{...} holds an "
                        "expression, not an identifier", after);
        return fail(r, r->line, "%s{...} takes one identifier without blanks", after);
    }
    r->s++;
    if (n == 0)
        return fail(r, open_line, "empty identifier in %s{}", after);
    *out = strndup(start, n);
    return *out ? 0 : fail(r, r->line, "out of memory");
}

/* "{ TEXT }" with balanced braces; blanks at both ends dropped, inner line
 * ends read as blanks, comments left out (§2). */
static int read_text(reader *r, const char *after, char **out)
{
    if (open_group(r, after) < 0)
        return -1;
    long open_line = r->line;
    const char *start = r->s;
    if (skip_group_rest(r, open_line) < 0)
        return -1;
    size_t n = (size_t)(r->s - 1 - start);
    char *t = malloc(n + 1), *w = t;
    if (!t)
        return fail(r, r->line, "out of memory");
    for (size_t i = 0; i < n; i++) {
        char c = start[i];
        if (c == '%') {
            while (i + 1 < n && start[i + 1] != '\n')
                i++;
            continue;
        }
        *w++ = is_blank(c) ? ' ' : (c >= 0 && c < 32) || c == 127 ? '?' : c;
    }
    *w = '\0';
    char *a = t;
    while (*a == ' ')
        a++;
    while (w > a && w[-1] == ' ')
        *--w = '\0';
    memmove(t, a, strlen(a) + 1);
    *out = t;
    return 0;
}

/* "{ NUM }": an unsigned decimal up to NC_COUNT_MAX (§2). */
static int read_num(reader *r, const char *what, const char *owner, nc_count *out)
{
    char after[64];
    snprintf(after, sizeof after, "\\%s", what);
    if (open_group(r, after) < 0)
        return -1;
    long open_line = r->line;
    skip_space(r);
    nc_count v = 0;
    int digits = 0, neg = 0;
    if (!at_end(r) && *r->s == '-') {
        neg = 1;
        r->s++;
    }
    while (!at_end(r) && *r->s >= '0' && *r->s <= '9') {
        nc_count d = (nc_count)(*r->s - '0');
        if (v > (NC_COUNT_MAX - d) / 10)
            return fail(r, r->line, "\\%s of %s is larger than %llu", what, owner,
                        (unsigned long long)NC_COUNT_MAX);
        v = v * 10 + d;
        digits++;
        r->s++;
    }
    skip_space(r);
    if (at_end(r))
        return fail(r, open_line, "a group opened here is not closed");
    if (*r->s != '}' || !digits) {
        if (neg && digits)
            return fail(r, r->line, "negative number in \\%s of %s", what, owner);
        char b[32];
        return fail(r, r->line, "\\%s of %s is not an unsigned integer: '%s%s' (coloured APNN "
                    "is not supported: no expressions or constants)", what, owner,
                    neg ? "-" : "", excerpt(r, b, sizeof b));
    }
    if (neg)
        return fail(r, r->line, "negative number in \\%s of %s", what, owner);
    r->s++;
    *out = v;
    return 0;
}

/* ------------------------------------------------------------------ */
/* the grammar (§3, §4) */

/* Commands of the coloured, stochastic-with-priorities and hierarchical
 * variants: refused by name, so the message says what is missing. */
static int refuse_variant(reader *r, const char *cmd, const char *where)
{
    static const char *const coloured[] = {
        "const", "colorset", "colourset", "colset", "color", "colour", "sort", "domain",
        "variable", "var", "guard", "expression", "inscription", NULL};
    static const char *const priority[] = {"priority", "prio", NULL};
    static const char *const hierarchy[] = {"beginnet", "inputnet", "subnet", "refine",
                                            "refinement", "node", NULL};
    for (int i = 0; coloured[i]; i++)
        if (!strcmp(cmd, coloured[i]))
            return fail(r, r->line, "coloured APNN is not supported (\\%s%s)", cmd, where);
    for (int i = 0; priority[i]; i++)
        if (!strcmp(cmd, priority[i]))
            return fail(r, r->line, "priorities are not supported: they change the reachable "
                        "markings (\\%s%s)", cmd, where);
    for (int i = 0; hierarchy[i]; i++)
        if (!strcmp(cmd, hierarchy[i]))
            return fail(r, r->line, "hierarchical APNN is not supported (\\%s%s); flatten the "
                        "net first", cmd, where);
    return 0;
}

/* One attribute seen at most once (§3): bit i of *seen for attribute i. */
static int once(reader *r, unsigned *seen, unsigned bit, const char *cmd, const char *owner)
{
    if (*seen & bit)
        return fail(r, r->line, "duplicate \\%s in %s", cmd, owner);
    *seen |= bit;
    return 0;
}

/* The attributes every node and arc may carry and that change nothing. */
static int skip_layout(reader *r, const char *cmd, int *handled)
{
    *handled = 1;
    int groups = !strcmp(cmd, "coords") ? 2 : !strcmp(cmd, "function") ||
                 !strcmp(cmd, "comment") ? 1 : 0;
    if (!groups) {
        *handled = 0;
        return 0;
    }
    for (int i = 0; i < groups; i++) {
        char after[40];
        snprintf(after, sizeof after, "\\%s", cmd);
        if (open_group(r, after) < 0 || skip_group_rest(r, r->line) < 0)
            return -1;
    }
    return 0;
}

enum { A_NAME = 1, A_INIT = 2, A_CAP = 4, A_FROM = 8, A_TO = 16, A_WEIGHT = 32, A_TYPE = 64,
       A_COORDS = 128, A_FUNCTION = 256, A_COMMENT = 512, A_RATE = 1024 };

static unsigned layout_bit(const char *cmd)
{
    return !strcmp(cmd, "coords") ? A_COORDS : !strcmp(cmd, "function") ? A_FUNCTION : A_COMMENT;
}

/* Attribute list of a place, transition or arc: "{ ATTR* }".  kind: 'p',
 * 't' or 'a'; owner names the element in messages. */
static int read_attrs(reader *r, int kind, const char *owner, node *n, arc *a)
{
    const char *what = kind == 'p' ? "\\place" : kind == 't' ? "\\transition" : "\\arc";
    char after[300];
    snprintf(after, sizeof after, "%s's identifier", what);
    if (open_group(r, after) < 0)
        return -1;
    long open_line = r->line;
    unsigned seen = 0;
    char where[300];
    snprintf(where, sizeof where, " in %s", owner);
    for (;;) {
        skip_space(r);
        if (at_end(r))
            return fail(r, open_line, "a group opened here is not closed");
        if (*r->s == '}') {
            r->s++;
            return 0;
        }
        if (*r->s != '\\') {
            char b[32];
            return fail(r, r->line, "unexpected text '%s' in %s (attributes are commands)",
                        excerpt(r, b, sizeof b), owner);
        }
        char cmd[32];
        if (command(r, cmd, sizeof cmd) < 0 || refuse_variant(r, cmd, where) < 0)
            return -1;
        int handled;
        if (!strcmp(cmd, "coords") || !strcmp(cmd, "function") || !strcmp(cmd, "comment")) {
            if (once(r, &seen, layout_bit(cmd), cmd, owner) < 0 ||
                skip_layout(r, cmd, &handled) < 0)
                return -1;
        } else if (!strcmp(cmd, "name") && kind != 'a') {
            if (once(r, &seen, A_NAME, cmd, owner) < 0 || read_text(r, "\\name", &n->name) < 0)
                return -1;
        } else if (!strcmp(cmd, "init") && kind == 'p') {
            if (once(r, &seen, A_INIT, cmd, owner) < 0 ||
                read_num(r, cmd, owner, &n->init) < 0)
                return -1;
        } else if (!strcmp(cmd, "capacity") && kind == 'p') {
            if (once(r, &seen, A_CAP, cmd, owner) < 0 ||
                read_num(r, cmd, owner, &n->capacity) < 0)
                return -1;
        } else if ((!strcmp(cmd, "rate") || !strcmp(cmd, "weight")) && kind == 't') {
            /* quantitative only (§4): the reachable markings stay the same */
            if (once(r, &seen, !strcmp(cmd, "rate") ? A_RATE : A_WEIGHT, cmd, owner) < 0 ||
                open_group(r, cmd) < 0 || skip_group_rest(r, r->line) < 0)
                return -1;
        } else if ((!strcmp(cmd, "from") || !strcmp(cmd, "to")) && kind == 'a') {
            int from = !strcmp(cmd, "from");
            if (once(r, &seen, from ? A_FROM : A_TO, cmd, owner) < 0 ||
                read_id(r, from ? "\\from" : "\\to", from ? &a->from : &a->to) < 0)
                return -1;
        } else if (!strcmp(cmd, "weight") && kind == 'a') {
            if (once(r, &seen, A_WEIGHT, cmd, owner) < 0 ||
                read_num(r, cmd, owner, &a->weight) < 0)
                return -1;
            if (a->weight == 0)
                return fail(r, r->line, "\\weight{0} in %s: an arc weighs at least 1", owner);
        } else if (!strcmp(cmd, "type") && kind == 'a') {
            char *type = NULL;
            if (once(r, &seen, A_TYPE, cmd, owner) < 0 || read_id(r, "\\type", &type) < 0)
                return -1;
            int ordinary = !strcmp(type, "ordinary");
            if (!ordinary)
                fail(r, r->line, "unsupported arc type '%s' in %s (only 'ordinary' arcs)",
                     type, owner);
            free(type);
            if (!ordinary)
                return -1;
        } else {
            return fail(r, r->line, "unknown attribute \\%s in %s", cmd, owner);
        }
    }
}

/* Room for element n of the array at v (a T **), with the reader's
 * messages. */
static int grow(reader *r, void *v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    if (n >= NC_MAX_NODES)
        return fail(r, r->line, "too many elements");
    if (grow_array(v, cap, n + 1, size) < 0)
        return fail(r, r->line, "out of memory");
    return 0;
}

static int read_node(reader *r, int is_place)
{
    if (grow(r, &r->nodes, &r->cnodes, r->nnodes, sizeof *r->nodes) < 0)
        return -1;
    node *n = &r->nodes[r->nnodes];
    memset(n, 0, sizeof *n);
    n->line = r->line;
    n->is_place = is_place;
    r->nnodes++;   /* now, so that its strings are freed on every path */
    const char *what = is_place ? "\\place" : "\\transition";
    if (read_id(r, what, &n->id) < 0)
        return -1;
    char owner[300];
    snprintf(owner, sizeof owner, "%s %.200s", is_place ? "place" : "transition", n->id);
    return read_attrs(r, is_place ? 'p' : 't', owner, n, NULL);
}

static int read_arc(reader *r)
{
    if (grow(r, &r->arcs, &r->carcs, r->narcs, sizeof *r->arcs) < 0)
        return -1;
    arc *a = &r->arcs[r->narcs];
    memset(a, 0, sizeof *a);
    a->line = r->line;
    a->weight = 1;
    r->narcs++;
    if (read_id(r, "\\arc", &a->id) < 0)
        return -1;
    char owner[300];
    snprintf(owner, sizeof owner, "arc %.200s", a->id);
    if (read_attrs(r, 'a', owner, NULL, a) < 0)
        return -1;
    if (!a->from)
        return fail(r, a->line, "arc %s has no \\from", a->id);
    if (!a->to)
        return fail(r, a->line, "arc %s has no \\to", a->id);
    return 0;
}

/* file ::= net, with nothing but blanks and comments after \endnet. */
static int read_net(reader *r)
{
    char cmd[32];
    skip_space(r);
    if (at_end(r))
        return fail(r, r->line, "missing \\beginnet: the file holds no net");
    if (*r->s != '\\' || command(r, cmd, sizeof cmd) < 0 ||
        (strcmp(cmd, "beginnet") && strcmp(cmd, "inputnet")))
        return fail(r, r->line, "missing \\beginnet: an APNN file starts with \\beginnet{ID}");
    if (read_id(r, "\\beginnet", &r->netname) < 0)
        return -1;
    int first = 1;
    for (;;) {
        skip_space(r);
        if (at_end(r))
            return fail(r, r->line, "missing \\endnet at the end of net %s", r->netname);
        if (*r->s == '}')
            return fail(r, r->line, "'}' without a matching '{'");
        if (*r->s != '\\') {
            char b[32];
            return fail(r, r->line, "unexpected text '%s' (places, transitions and arcs are "
                        "commands)", excerpt(r, b, sizeof b));
        }
        if (command(r, cmd, sizeof cmd) < 0)
            return -1;
        if (!strcmp(cmd, "endnet"))
            break;
        if (!strcmp(cmd, "beginnet") || !strcmp(cmd, "inputnet"))
            return fail(r, r->line, "hierarchical APNN is not supported (a \\%s inside net "
                        "%s); flatten the net first", cmd, r->netname);
        if (refuse_variant(r, cmd, "") < 0)
            return -1;
        int rc;
        if (!strcmp(cmd, "name") && first) {
            char *name = NULL;
            rc = read_text(r, "\\name", &name);
            free(name);   /* a title only; the net keeps its identifier */
        } else if (!strcmp(cmd, "place") || !strcmp(cmd, "transition")) {
            rc = read_node(r, cmd[0] == 'p');
        } else if (!strcmp(cmd, "arc")) {
            rc = read_arc(r);
        } else {
            rc = fail(r, r->line, "unknown command \\%s in net %s", cmd, r->netname);
        }
        if (rc < 0)
            return -1;
        first = 0;
    }
    skip_space(r);
    if (!at_end(r)) {
        char b[32];
        return fail(r, r->line, "text after \\endnet: '%s' (one net per file)",
                    excerpt(r, b, sizeof b));
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* building the net (§5) */

static int cmp_str(const void *a, const void *b)
{
    const char *const *x = a, *const *y = b;
    if (!*x || !*y)
        return !*x - !*y;
    return strcmp(*x, *y);
}

/* Whether name occurs once among the sorted names[0..n). */
static int unique_in(const char **sorted, size_t n, const char *name)
{
    const char **hit = bsearch(&name, sorted, n, sizeof *sorted, cmp_str);
    if (!hit)
        return 0;
    return !((hit > sorted && !strcmp(hit[-1], name)) || (hit + 1 < sorted + n &&
             !strcmp(hit[1], name)));
}

/* The names of the nodes of one kind, sorted; NULL names sort first. */
static const char **sorted_names(const reader *r, int places, size_t *count)
{
    const char **v = malloc((r->nnodes + 1) * sizeof *v);
    size_t n = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < r->nnodes; i++)
        if (r->nodes[i].is_place == places && r->nodes[i].name && r->nodes[i].name[0])
            v[n++] = r->nodes[i].name;
    qsort(v, n, sizeof *v, cmp_str);
    *count = n;
    return v;
}

static int create_nodes(reader *r, net_t *net)
{
    size_t np = 0, nt = 0;
    const char **pn = sorted_names(r, 1, &np), **tn = sorted_names(r, 0, &nt);
    int rc = pn && tn ? 0 : fail(r, 0, "out of memory");
    for (size_t i = 0; rc == 0 && i < r->nnodes; i++) {
        const node *n = &r->nodes[i];
        /* a name that is not unique would make runs ambiguous (§5) */
        const char *name = n->name && n->name[0] &&
                           unique_in(n->is_place ? pn : tn, n->is_place ? np : nt, n->name)
                           ? n->name : NULL;
        int64_t other = n->is_place ? nc_find_transition(net, n->id) : nc_find_place(net, n->id);
        int k = other >= 0 ? NC_ERR_DUPLICATE_ID
                : n->is_place ? nc_create_place(net, n->id, name, n->init)
                              : nc_create_transition(net, n->id, name);
        if (k == NC_ERR_DUPLICATE_ID)
            rc = fail(r, n->line, "identifier %s is declared twice%s", n->id,
                      other >= 0 ? " (as a place and as a transition)" : "");
        else if (k < 0)
            rc = fail(r, n->line, "%s %s: %s", n->is_place ? "place" : "transition", n->id,
                      nc_status_text(k));
        else if (n->is_place && n->capacity && n->init > n->capacity)
            rc = fail(r, n->line, "place %s starts with %llu tokens, above its \\capacity{%llu}",
                      n->id, (unsigned long long)n->init, (unsigned long long)n->capacity);
    }
    free(pn);
    free(tn);
    return rc;
}

/* Arc identifiers have their own name space (§2); a repeated one is as
 * suspicious as a repeated node. */
static int cmp_arc_id(const void *a, const void *b)
{
    const arc *const *x = a, *const *y = b;
    return strcmp((*x)->id, (*y)->id);
}

static int check_arc_ids(reader *r)
{
    arc **v = malloc((r->narcs + 1) * sizeof *v);
    if (!v)
        return fail(r, 0, "out of memory");
    for (size_t i = 0; i < r->narcs; i++)
        v[i] = &r->arcs[i];
    qsort(v, r->narcs, sizeof *v, cmp_arc_id);
    const arc *dup = NULL;
    for (size_t i = 1; i < r->narcs; i++)
        if (!strcmp(v[i - 1]->id, v[i]->id)) {
            const arc *later = v[i - 1]->line > v[i]->line ? v[i - 1] : v[i];
            if (!dup || later->line < dup->line)
                dup = later;
        }
    free(v);
    return dup ? fail(r, dup->line, "arc identifier %s is declared twice", dup->id) : 0;
}

static int create_arcs(reader *r, net_t *net)
{
    for (size_t i = 0; i < r->narcs; i++) {
        const arc *a = &r->arcs[i];
        int64_t fp = nc_find_place(net, a->from), ft = nc_find_transition(net, a->from);
        int64_t tp = nc_find_place(net, a->to), tt = nc_find_transition(net, a->to);
        if (fp < 0 && ft < 0)
            return fail(r, a->line, "arc %s: unknown identifier %s in \\from", a->id, a->from);
        if (tp < 0 && tt < 0)
            return fail(r, a->line, "arc %s: unknown identifier %s in \\to", a->id, a->to);
        if ((fp >= 0) == (tp >= 0))
            return fail(r, a->line, "arc %s connects two %s (%s and %s)", a->id,
                        fp >= 0 ? "places" : "transitions", a->from, a->to);
        nc_arc_kind kind = fp >= 0 ? NC_ARC_PT : NC_ARC_TP;
        uint32_t p = (uint32_t)(fp >= 0 ? fp : tp), t = (uint32_t)(fp >= 0 ? tt : ft);
        if (nc_arc_weight(net, kind, p, t))
            nc_warning(r->path, a->line, "arc %s repeats an arc from %s to %s: weights added",
                       a->id, a->from, a->to);
        int rc = nc_create_arc(net, kind, p, t, a->weight, 1);
        if (rc == NC_ERR_OVERFLOW)
            return fail(r, a->line, "arc %s: total weight from %s to %s is larger than %llu",
                        a->id, a->from, a->to, (unsigned long long)NC_COUNT_MAX);
        if (rc < 0)
            return fail(r, a->line, "arc %s: %s", a->id, nc_status_text(rc));
    }
    return 0;
}

/* A capacity c of place p (§5): the fresh place p~cap holds c - M(p), and
 * each transition that changes p by d takes d from it (d > 0) or gives -d
 * back (d < 0).  So t is enabled only if after firing p holds at most c,
 * exactly the weak capacity semantics, with no new kind of arc. */
static int add_capacities(reader *r, net_t *net)
{
    size_t narcs = net->narcs, nplaces = net->nplaces;
    /* complement of each declared place, or UINT32_MAX: one pass over the
     * arcs then serves every capacity (no places x arcs loop) */
    uint32_t *comp = malloc((nplaces + 1) * sizeof *comp);
    if (!comp)
        return fail(r, 0, "out of memory");
    for (size_t p = 0; p < nplaces; p++)
        comp[p] = UINT32_MAX;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < r->nnodes; i++) {
        const node *n = &r->nodes[i];
        if (!n->is_place || !n->capacity)
            continue;
        size_t len = strlen(n->id) + 5;
        char *id = malloc(len);
        if (!id) {
            rc = fail(r, n->line, "out of memory");
            break;
        }
        snprintf(id, len, "%s~cap", n->id);
        int k = nc_create_place(net, id, NULL, n->capacity - n->init);
        if (k < 0)
            rc = fail(r, n->line, "cannot add the capacity place %s: %s", id, nc_status_text(k));
        else
            comp[nc_find_place(net, n->id)] = (uint32_t)k;
        free(id);
    }
    for (size_t j = 0; rc == 0 && j < narcs; j++) {
        uint32_t p = net->arcs[j].place, t = net->arcs[j].transition, c = comp[p];
        if (c == UINT32_MAX || nc_arc_weight(net, NC_ARC_PT, c, t) ||
            nc_arc_weight(net, NC_ARC_TP, c, t))
            continue;   /* no capacity, or the other arc of the pair came first */
        nc_count in = nc_arc_weight(net, NC_ARC_TP, p, t);
        nc_count out = nc_arc_weight(net, NC_ARC_PT, p, t);
        int k = in == out ? 0
                : in > out ? nc_create_arc(net, NC_ARC_PT, c, t, in - out, 0)
                           : nc_create_arc(net, NC_ARC_TP, c, t, out - in, 0);
        if (k < 0)
            rc = fail(r, 0, "capacity of place %s: %s", net->places[p].id, nc_status_text(k));
    }
    free(comp);
    return rc;
}

static void reader_free(reader *r)
{
    for (size_t i = 0; i < r->nnodes; i++) {
        free(r->nodes[i].id);
        free(r->nodes[i].name);
    }
    for (size_t i = 0; i < r->narcs; i++) {
        free(r->arcs[i].id);
        free(r->arcs[i].from);
        free(r->arcs[i].to);
    }
    free(r->nodes);
    free(r->arcs);
    free(r->netname);
}

net_t *apnn_read(const char *path)
{
    size_t len;
    char *text = read_file(path, APNN_MAX_FILE, &len);
    if (!text)
        return NULL;
    reader r = {.path = path, .s = text, .end = text + len, .line = 1};
    net_t *net = NULL;
    apnn_data *data = NULL;
    int ok = read_net(&r) == 0 && check_arc_ids(&r) == 0;
    if (ok) {
        net = nc_create_net(r.netname, path);
        data = malloc(sizeof *data);
        ok = net && data ? 1 : (fail(&r, 0, "out of memory"), 0);
    }
    ok = ok && create_nodes(&r, net) == 0;
    size_t visible = net ? net->nplaces : 0, declared_arcs = net ? r.narcs : 0;
    ok = ok && create_arcs(&r, net) == 0 && add_capacities(&r, net) == 0;
    if (ok) {
        data->visible_places = visible;
        net->lang_data = data;
        net->lang_free = free;
        data = NULL;
        size_t added = net->nplaces - visible;
        nc_info("%s: %zu places, %zu transitions, %zu arcs in the file; %zu capacity place%s "
                "added\n", path, visible, net->ntransitions, declared_arcs, added,
                added == 1 ? "" : "s");
    } else {
        nc_free_net(net);
        net = NULL;
    }
    free(data);
    reader_free(&r);
    free(text);
    return net;
}

/* Runs as transition names (netrun.c), markings without the capacity
 * places, which are mck's construction, not the user's. */
void apnn_output(FILE *out, net_t *net, const result_t *res)
{
    const apnn_data *d = net->lang_data;
    netlang_output_places(out, net, res, d ? d->visible_places : net->nplaces);
}
