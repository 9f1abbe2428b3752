/* Reading propertiesverdict files (the MCC's GenericPropertiesVerdict.xml,
 * mck's own output) into a verdict set.  The files are small, so DOM.
 *
 * Hostile input: no network, no entity substitution, and a DTD that
 * declares any entity is refused at the declaration, before anything could
 * be expanded.  Every failure is exactly one "FILE:LINE: message". */
#include "verdicts/verdicts.h"
#include "base/xmltext.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>

/* What the parser callbacks remember: the first problem only, since
 * libxml2 may report follow-up errors that only confuse. */
typedef struct read_state {
    long line;
    char message[200];
} read_state;

static void remember(read_state *st, long line, const char *message)
{
    if (st->message[0])
        return;
    st->line = line;
    snprintf(st->message, sizeof st->message, "%s", message);
    /* libxml2 messages end in a newline; ours are one line */
    st->message[strcspn(st->message, "\n")] = '\0';
}

/* libxml2 2.12 made the error argument const */
#if LIBXML_VERSION >= 21200
typedef const xmlError *error_arg;
#else
typedef xmlErrorPtr error_arg;
#endif

static void on_error(void *ctx, error_arg err)
{
    xmlParserCtxtPtr ctxt = ctx;
    char own[96];
    if (err->level >= XML_ERR_ERROR)
        remember(ctxt->_private, err->line,
                 err->message ? xml_error_text(err->message, own, sizeof own) : "malformed XML");
}

static void on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                           const xmlChar *system_id, xmlChar *content)
{
    xmlParserCtxtPtr ctxt = ctx;
    char message[160];
    (void)type, (void)public_id, (void)system_id, (void)content;
    snprintf(message, sizeof message, "entity declarations are not allowed (entity '%s')",
             (const char *)name);
    remember(ctxt->_private, xmlSAX2GetLineNumber(ctxt), message);
    xmlStopParser(ctxt);
}

/* The parsed document, or NULL after the one error message. */
static xmlDocPtr parse(const char *path)
{
    read_state st = { 0, "" };
    FILE *in = fopen(path, "r");
    if (!in) {
        nc_error(path, 0, "cannot open: %s", strerror(errno));
        return NULL;
    }
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        fclose(in);
        nc_error(path, 0, "out of memory");
        return NULL;
    }
    ctxt->_private = &st;
    ctxt->sax->serror = on_error;
    ctxt->sax->entityDecl = on_entity_decl;
    /* I/O errors bypass the context's handler and would print on their own */
    xmlStructuredErrorFunc saved = xmlStructuredError;
    void *saved_ctx = xmlStructuredErrorContext;
    xmlSetStructuredErrorFunc(ctxt, on_error);
    xmlDocPtr doc = xmlCtxtReadFd(ctxt, fileno(in), path, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                  XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA);
    xmlSetStructuredErrorFunc(saved_ctx, saved);
    fclose(in);
    if (doc && (st.message[0] || !ctxt->wellFormed)) {
        xmlFreeDoc(doc);
        doc = NULL;
    }
    xmlFreeParserCtxt(ctxt);
    if (!doc)
        nc_error(path, st.line, "%s", st.message[0] ? st.message : "malformed XML");
    return doc;
}

/* ---- walking the tree ---- */

typedef struct walk {
    const char *path;
    verdictset_t *vs;
} walk;

static int is_element(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* An attribute's value with surrounding white space removed (the grammar's
 * enumerated values are compared that way); NULL when absent.  Free with
 * xmlFree. */
static char *attr(xmlNodePtr n, const char *name)
{
    xmlChar *raw = xmlGetNoNsProp(n, (const xmlChar *)name);
    if (!raw)
        return NULL;
    char *s = (char *)raw, *start = s + strspn(s, " \t\r\n");
    size_t len = strlen(start);
    while (len && strchr(" \t\r\n", start[len - 1]))
        len--;
    memmove(s, start, len);
    s[len] = '\0';
    return s;
}

static int fail(const walk *w, xmlNodePtr n, const char *message, const char *detail)
{
    nc_error(w->path, n ? xmlGetLineNo(n) : 0, "%s%s", message, detail ? detail : "");
    return -1;
}

static int no_memory(const walk *w, xmlNodePtr n)
{
    return fail(w, n, "out of memory", NULL);
}

static void free_attrs(char **a, size_t count)
{
    for (size_t i = 0; i < count; i++)
        xmlFree(a[i]);
}

/* Reads required attributes into out[]; on failure frees what it read. */
static int required_attrs(const walk *w, xmlNodePtr n, const char *const *names, char **out,
                          size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!(out[i] = attr(n, names[i]))) {
            char detail[80];
            snprintf(detail, sizeof detail, "'%s' on <%s>", names[i], (const char *)n->name);
            free_attrs(out, i);
            return fail(w, n, "missing attribute ", detail);
        }
    return 0;
}

static int is_extra(xmlAttrPtr a)
{
    const char *key = (const char *)a->name;
    return !a->ns && strcmp(key, "transition") && strcmp(key, "name");
}

/* Every attribute of a step except its own two, as key/value pairs. */
static int read_step(const walk *w, verdict_t *v, xmlNodePtr n)
{
    char *transition = attr(n, "transition");
    if (!transition || !*transition) {
        xmlFree(transition);
        return fail(w, n, "a <step> needs a 'transition' attribute", NULL);
    }
    size_t count = 0, nextra = 0;
    for (xmlAttrPtr a = n->properties; a; a = a->next)
        count += is_extra(a);
    const char **pairs = calloc(2 * count + 1, sizeof *pairs);
    xmlChar **values = calloc(count + 1, sizeof *values);
    xmlChar *name = xmlGetNoNsProp(n, (const xmlChar *)"name");
    int rc = !pairs || !values ? -1 : 0;
    for (xmlAttrPtr a = n->properties; a && !rc; a = a->next) {
        if (!is_extra(a))
            continue;
        if (!(values[nextra] = xmlNodeGetContent((xmlNodePtr)a)))
            rc = -1;
        pairs[2 * nextra] = (const char *)a->name;
        pairs[2 * nextra + 1] = (const char *)values[nextra];
        nextra++;
    }
    if (!rc)
        rc = vd_add_step(v, transition, (const char *)name, pairs, nextra);
    while (values && nextra--)
        xmlFree(values[nextra]);
    free(values);
    free(pairs);
    xmlFree(name);
    xmlFree(transition);
    return rc ? no_memory(w, n) : 0;
}

static run_role role_of(const char *s)
{
    if (s && !strcmp(s, "witness"))
        return RUN_WITNESS;
    if (s && !strcmp(s, "counterexample"))
        return RUN_COUNTEREXAMPLE;
    return RUN_NONE;
}

static int read_trace(const walk *w, verdict_t *v, xmlNodePtr n)
{
    char *role = attr(n, "role");
    vd_start_trace(v, role_of(role));
    xmlFree(role);
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (is_element(c, "step")) {
            if (read_step(w, v, c))
                return -1;
        } else if (is_element(c, "loop")) {
            if (v->loop_start != VD_NO_LOOP)
                return fail(w, c, "a trace has one <loop/> at most", NULL);
            vd_set_loop_start(v, v->nsteps);
        }
    }
    return 0;
}

static int read_techniques(const walk *w, verdict_t *v, xmlNodePtr n)
{
    for (xmlNodePtr c = n->children; c; c = c->next) {
        if (!is_element(c, "technique"))
            continue;
        xmlChar *text = xmlNodeGetContent(c);
        int rc = text ? vd_add_techniques(v, (const char *)text) : -1;
        xmlFree(text);
        if (rc)
            return no_memory(w, c);
    }
    return 0;
}

static int read_statedby(const walk *w, verdict_t *v, xmlNodePtr n)
{
    static const char *const names[] = { "tool", "version" };
    char *a[2];
    if (required_attrs(w, n, names, a, 2))
        return -1;
    char *date = attr(n, "date"), *url = attr(n, "reference");
    int rc = vd_set_statedby(v, a[0], a[1], date, url);
    free_attrs(a, 2);
    xmlFree(date);
    xmlFree(url);
    if (rc)
        return no_memory(w, n);
    for (xmlNodePtr c = n->children; c; c = c->next)
        if (is_element(c, "techniques") && read_techniques(w, v, c))
            return -1;
    return 0;
}

static int read_explanation(const walk *w, verdict_t *v, xmlNodePtr n)
{
    xmlChar *text = xmlNodeGetContent(n);
    int rc = text ? vd_set_explanation(v, (const char *)text) : -1;
    xmlFree(text);
    return rc ? no_memory(w, n) : 0;
}

static int read_instance(const walk *w, verdict_t *v, xmlNodePtr n)
{
    static const char *const names[] = { "reference" };
    char *ref;
    if (required_attrs(w, n, names, &ref, 1))
        return -1;
    int rc = vd_add_instance(v, ref);
    xmlFree(ref);
    return rc ? no_memory(w, n) : 0;
}

static int read_verdict_children(const walk *w, verdict_t *v, xmlNodePtr n)
{
    for (xmlNodePtr c = n->children; c; c = c->next) {
        int rc = 0;
        if (is_element(c, "modelinstance"))
            rc = read_instance(w, v, c);
        else if (is_element(c, "explanation"))
            rc = read_explanation(w, v, c);
        else if (is_element(c, "statedby"))
            rc = read_statedby(w, v, c);
        else if (is_element(c, "trace"))
            rc = read_trace(w, v, c);
        if (rc)
            return -1;
    }
    return 0;
}

static int read_verdict(const walk *w, xmlNodePtr n)
{
    static const char *const names[] = { "category", "reference", "value" };
    char *a[3];
    if (required_attrs(w, n, names, a, 3))
        return -1;
    verdict_t *v = vs_add(w->vs, a[0], a[1]);
    int rc = !v || vd_set_value_text(v, a[2]) ? no_memory(w, n) : 0;
    free_attrs(a, 3);
    if (rc)
        return -1;
    v->line = xmlGetLineNo(n);
    return read_verdict_children(w, v, n);
}

static int read_root(const walk *w, xmlNodePtr root)
{
    if (!root || !is_element(root, "toolspecific"))
        return fail(w, root, "not a propertiesverdict file: the root is not <toolspecific>", NULL);
    char *tool = attr(root, "tool");
    int ours = tool && !strcmp(tool, "propertiesverdict");
    xmlFree(tool);
    if (!ours)
        return fail(w, root, "not a propertiesverdict file: <toolspecific> lacks "
                    "tool=\"propertiesverdict\"", NULL);
    char *version = attr(root, "version");
    free(w->vs->version);
    w->vs->version = strdup(version ? version : "");
    xmlFree(version);
    if (!w->vs->version)
        return no_memory(w, root);

    int have_model = 0;
    for (xmlNodePtr c = root->children; c; c = c->next) {
        if (is_element(c, "modelreference") && !have_model) {
            char *name = attr(c, "modelname");
            free(w->vs->modelname);
            w->vs->modelname = strdup(name ? name : "");
            xmlFree(name);
            if (!w->vs->modelname)
                return no_memory(w, c);
            have_model = 1;
        } else if (is_element(c, "verdict") && read_verdict(w, c)) {
            return -1;
        }
    }
    if (!have_model)
        return fail(w, root, "no <modelreference> in the file", NULL);
    return 0;
}

verdictset_t *vs_read(const char *path)
{
    xmlDocPtr doc = parse(path);
    if (!doc)
        return NULL;
    walk w = { path, vs_create("") };
    if (!w.vs)
        no_memory(&w, NULL);
    else if (read_root(&w, xmlDocGetRootElement(doc))) {
        vs_free(w.vs);
        w.vs = NULL;
    }
    xmlFreeDoc(doc);
    return w.vs;
}
