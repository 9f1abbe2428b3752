/* docs/adding-a-language.md: its C fragments (extracted by the Makefile
 * into tests/tmp/guide_lang.c and included here) must compile and work as
 * the guide says on its example model, which is read from the guide too. */
#include "../tmp/guide_lang.c"

#include "checkers/checkers.h"
#include "checkers/explicit.h"
#include "checkers/reduced.h"
#include "checkers/stubborn.h"
#include "unit.h"
#include "budgets.h"

/* The ```toy block of the guide, written to path. */
static int extract_model(const char *guide, const char *path)
{
    FILE *in = fopen(guide, "r"), *out = fopen(path, "w");
    char line[1024];
    int on = 0, lines = 0;
    while (in && out && fgets(line, sizeof line, in)) {
        if (!strncmp(line, "```toy", 6)) {
            on = 1;
            continue;
        }
        if (on && !strncmp(line, "```", 3))
            break;
        if (on) {
            fputs(line, out);
            lines++;
        }
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    return lines;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static result_t check(net_t *net, const char *formula_path, tree_t **f)
{
    prop_kind kind = KIND_AUTO;
    result_t res;
    result_init(&res);
    *f = toy_formula(formula_path, net, &kind);
    if (!*f)
        return res;
    budget_t budget = unit_budget(0, 0);
    check_options opt = {.budget = &budget};
    opt.want_run = 1;
    explicit_run(nc_compile(net), *f, kind, &opt, &res);
    return res;
}

int main(void)
{
    const char *top = getenv("TOP") ? getenv("TOP") : ".";
    char guide[1024], model[1024], form[1024], out[1024];
    snprintf(guide, sizeof guide, "%s/docs/adding-a-language.md", top);
    snprintf(model, sizeof model, "%s/tests/tmp/guide.toy", top);
    snprintf(form, sizeof form, "%s/tests/tmp/guide.form", top);
    snprintf(out, sizeof out, "%s/tests/tmp/guide.out", top);
    CHECK(extract_model(guide, model) > 5, "the guide's example model");
    CHECK(!strcmp(toy_rows[0].name, "toy") && toy_rows[0].readfunc == toy_read,
          "the guide's table row");
    net_t *net = toy_read(model);
    CHECK(net && net->nplaces == 6 && net->ntransitions == 4,
          "toy_read: 6 places (machine states), 4 transitions (actions)");
    if (!net)
        UNIT_DONE();

    tree_t *f;
    write_text(form, "\"w1.busy\" & \"w2.busy\"\n");
    result_t res = check(net, form, &f);
    CHECK(f && res.answer == ANSWER_NO, "the workers never hold the tool together");
    tree_free(f);
    result_clear(&res);

    write_text(form, "\"w2.busy\"\n");
    res = check(net, form, &f);
    FILE *o = fopen(out, "w");
    if (o) {
        toy_output(o, net, &res);
        fclose(o);
    }
    char text[1024] = "";
    o = fopen(out, "r");
    size_t n = o ? fread(text, 1, sizeof text - 1, o) : 0;
    text[n] = '\0';
    if (o)
        fclose(o);
    CHECK(res.answer == ANSWER_YES &&
              !strcmp(text, "*** initial state: w1=idle, w2=idle, tool=free ***\n"
                            "take2\n"
                            "*** final state: w1=idle, w2=busy, tool=used ***\n"),
          "toy_output prints the witness in machine states and actions:\n%s", text);
    tree_free(f);
    result_clear(&res);

    write_text(form, "\"w1\"\n");
    prop_kind kind = KIND_AUTO;
    f = toy_formula(form, net, &kind);
    CHECK(!f, "a machine without its state is refused (the resolver's hint)");
    nc_free_net(net);

    write_text(model, "machine a x\na: x -go-> y\na: y -go-> x\n");
    CHECK(!toy_read(model), "a second step for one action is refused");
    UNIT_DONE();
}
