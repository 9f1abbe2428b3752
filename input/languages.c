/* The built-in languages (languages.h). */
#include "input/languages.h"
#include "input/input.h"

#include <string.h>

static const input_type input_types[] = {
    {"pnml", ".pnml", pnml_read, netlang_formula, pnml_output,
     "PNML place/transition nets (ISO/IEC 15909-2, as used by the MCC)"},
    {"pep", ".ll_net .ll", pep_read, netlang_formula, netlang_output,
     "PEP low-level nets (docs: pep-format.md)"},
    {"senil", ".senil", senil_read, netlang_formula, netlang_output,
     "SENIL, the Kit's language for 1-safe nets typed by hand (kit-overview.md §5)"},
    {"apnn", ".apnn", apnn_read, netlang_formula, apnn_output,
     "APNN place/transition nets, the Abstract Petri Net Notation (apnn-format.md)"},
    {"bpn2", ".bpn2", bpn2_read, bpn2_formula, bpn2_output,
     "B(PN)2 core: blocks, actions, ; [] ||, do-od loops, channels (bpn2-format.md)"},
    {"cfa", ".cfa", cfa_read, cfa_formula, cfa_output,
     "CFA, communicating finite automata with variables, channels, stacks (cfa-format.md)"},
    {"rers", ".dot", rers_read, rers_formula, rers_output,
     "RERS parallel LTL systems: LTSs as Graphviz .dot (rers-format.md)"},
};
#define N_INPUT_TYPES (sizeof input_types / sizeof input_types[0])

const input_type *input_builtin(size_t i)
{
    return i < N_INPUT_TYPES ? &input_types[i] : NULL;
}

const input_type *input_builtin_by_name(const char *name)
{
    for (size_t i = 0; i < N_INPUT_TYPES; i++)
        if (strcmp(input_types[i].name, name) == 0)
            return &input_types[i];
    return NULL;
}
