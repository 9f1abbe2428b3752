/* libFuzzer target for the MCC property XML reader (mccxml_read,
 * formula/mccxml.c, mcc-formats.md §3) on a small fixed net.
 *
 * The reader refuses a file naming a place or transition the net does not
 * have, so the net holds the ids the seeds use: p1..p3 and t1..t3 of
 * tests/data/mccxml, and the whole of the MCC's Sudoku-PT-AN01 (4 places,
 * 1 transition), whose property files are seeds as they are.
 *
 * The examination decides how a formula is read, so it is part of the
 * input: a first byte 0x00..0x08 picks it (the table below) and is not
 * part of the XML; any other first byte (a seed as it stands) reads with
 * exam NULL, where the structure decides.  So a seed file is an input as
 * it stands; the only XML that starts with such a byte (UTF-16BE, UCS-4)
 * is still reachable behind a selector byte.
 * Build and run: tests/fuzz/README.md. */
#include "fuzz_file.h"

#include "base/netconv.h"
#include "formula/mccxml.h"

static net_t *net;

static const char *const exams[] = {
    NULL, "UpperBounds", "ReachabilityCardinality", "ReachabilityFireability",
    "CTLCardinality", "CTLFireability", "LTLCardinality", "LTLFireability",
    "StateSpace",   /* not a formula examination: the reader's refusal */
};

static void must(int status)
{
    if (status < 0)
        abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const char *const places[] = {
        "p1", "p2", "p3", "Rows_0_0", "Board_0_0_0", "Cells_0_0", "Columns_0_0",
    };
    static const char *const transitions[] = { "t1", "t2", "t3", "select_0_0_0" };
    (void)argc;
    (void)argv;
    nc_set_verbosity(0);   /* no warnings; errors still go to stderr */
    fuzz_open_scratch("fuzz_mccxml");
    net = nc_create_net("fuzz", NULL);
    if (!net)
        abort();
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
        must(nc_create_place(net, places[i], NULL, 1));
    for (size_t i = 0; i < sizeof transitions / sizeof transitions[0]; i++)
        must(nc_create_transition(net, transitions[i], NULL));
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *exam = NULL;
    if (size > 0 && data[0] < sizeof exams / sizeof exams[0]) {
        exam = exams[data[0]];
        data++;
        size--;
    }
    mcc_property_set *s = mccxml_read(fuzz_store(data, size), net, exam);
    if (s)
        mccxml_free(s);
    return 0;
}
