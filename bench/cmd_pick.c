/* bench/cmd_pick.c: placeholder, replaced below. */
#include "cmd.h"
int fk_cmd_pick(int argc, char **argv) { (void)argc; (void)argv; return 1; }
