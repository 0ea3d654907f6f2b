/* common/version.h: which filterkit this is.
 *
 * The macros tell what a program was compiled against; fk_version() tells
 * which library it runs with (they differ when an app built against one
 * release loads another's libfilterkit.so). The Makefile reads the three
 * numbers below for the shared library's file name and filterkit.pc, so
 * this file is the one place a release changes them.
 */
#ifndef FK_VERSION_H
#define FK_VERSION_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FK_VERSION_MAJOR 0 /* bumped on an incompatible ABI change (the SONAME) */
#define FK_VERSION_MINOR 5 /* bumped when API is added; while MAJOR is 0 also on
                              an incompatible change, and the SONAME is
                              libfilterkit.so.0.MINOR */
#define FK_VERSION_PATCH 0 /* bumped for fixes only */

#define FK_VERSION_STR2_(x) #x
#define FK_VERSION_STR_(x) FK_VERSION_STR2_(x)
/* "MAJOR.MINOR.PATCH", e.g. "0.3.0". */
#define FK_VERSION_STRING FK_VERSION_STR_(FK_VERSION_MAJOR) "." \
    FK_VERSION_STR_(FK_VERSION_MINOR) "." FK_VERSION_STR_(FK_VERSION_PATCH)
/* One number that orders releases: MAJOR * 10000 + MINOR * 100 + PATCH. */
#define FK_VERSION_NUMBER \
    (FK_VERSION_MAJOR * 10000 + FK_VERSION_MINOR * 100 + FK_VERSION_PATCH)

/* Returns the FK_VERSION_STRING the library was built with: a static string,
 * never NULL, never to be freed. No status; cannot fail. Cost: O(1). Safe to
 * call from any number of threads at once, before or after any other call. */
FK_API const char *fk_version(void);

/* Returns the FK_VERSION_NUMBER the library was built with. Compare it with
 * the macro to tell an older shared library at run time. Cost: O(1); any
 * thread, any time. */
FK_API unsigned fk_version_number(void);

#ifdef __cplusplus
}
#endif

#endif
