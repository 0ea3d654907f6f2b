/* tests/fpset/fpset.h: a test-only filter kind, "fpset": an exact set of
 * f-bit key fingerprints, f = ceil(log2(capacity / fpr)), so that about
 * fpr of all absent keys share a fingerprint with a present one. Open
 * addressing with linear probing; the home slot derives from the
 * fingerprint alone, so equal fingerprints always meet.
 *
 * It follows CONTRIBUTING.md's recipe for a new kind, in the layout every
 * kind has: its folder (this header, fpset_internal.h, fpset.c with the
 * core and the fk_ops table, fpset_serial.c with saving), one Makefile
 * word (TEST_KINDS, which builds it into build/tests/libfk_fpset.a for the
 * test programs, never into the library) and one registration
 * (fk_ops_register(&fk_test_fpset_ops), the run-time form of a registry
 * line): nothing else names it, and after it the contract test,
 * `filterkit bench`, `pick` and save/load all take it up. File kind id
 * 0x7F01 (the test-only range; registry/README.md lists the ids).
 */
#ifndef FK_TEST_FPSET_H
#define FK_TEST_FPSET_H

#include "../../common/filter.h"

/* The kind's id in saved files: the test-only range, never shipped. */
#define FK_KIND_TEST_FPSET 0x7F01u

/* The vtable; name "fpset". Bounded (FK_EFULL at 7/8 of its slots),
 * removes, saves. */
extern const fk_ops fk_test_fpset_ops;

#endif
