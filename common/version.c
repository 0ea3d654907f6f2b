/* common/version.c: the library's own version, for programs linked with
 * the shared library (see version.h). */
#include "version.h"

const char *fk_version(void)
{
    return FK_VERSION_STRING;
}

unsigned fk_version_number(void)
{
    return FK_VERSION_NUMBER;
}
