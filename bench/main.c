/* bench/main.c: TEMPORARY stand-in so the notes branch links a CLI before
 * the bench issue's `filterkit` (its bench/main.c with the subcommand table)
 * lands on main. On that merge, take the bench version of this file and add
 * the `trace` and `theory` rows to its table. */
#include <stdio.h>
#include <string.h>
#include "trace.h"

int fk_cmd_theory(int argc, char **argv);

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "trace") == 0)
        return fk_cmd_trace(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "theory") == 0)
        return fk_cmd_theory(argc - 1, argv + 1);
    fputs("usage: filterkit trace|theory ...\n", stderr);
    return 2;
}
