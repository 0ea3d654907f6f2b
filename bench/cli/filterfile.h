/* bench/cli/filterfile.h: saved filters named on the command line: opening one
 * (query, info, add, remove, merge, dedup) and replacing one atomically
 * (add, remove, dedup). Messages go to stderr as "filterkit CMD: PATH: why". */
#ifndef FKC_BENCH_FILTERFILE_H
#define FKC_BENCH_FILTERFILE_H

#include <stdint.h>
#include "../../common/serial.h"
#include "../../registry/registry.h"

/* Loads the filter saved in the file at path, of any built-in kind, fully
 * validated. The header is read and checked first (fk_serial_read_head, then
 * fk_filter_load_file_any, which validates before allocating), so a file
 * that is not a filter -- /dev/zero, a 1 GiB log -- fails after reading
 * 120 bytes; memory grows only as a claimed payload actually arrives. head
 * and bytes, when not NULL, receive the decoded header and the file size.
 * path "-" reads stdin (to its end; messages name it "(stdin)").
 * Returns 0; on failure prints "filterkit CMD: PATH: reason" -- "not a
 * filterkit file" when the input lacks the filterkit header -- and returns
 * -1 (*out NULL). */
int fkc_filterfile_load(const char *cmd, const char *path, fk_filter **out,
                       fk_serial_head *head, uint64_t *bytes);

/* Replaces (or creates) the file at path with f, saved, atomically: writes
 * a temporary file in the same folder, flushes and fsyncs it, gives it the
 * old file's permissions (a new file: 0666 less the umask), renames it over
 * path and fsyncs the folder. Any failure (a full disk, a write error)
 * removes the temporary file and leaves the old file as it was. Returns 0,
 * or -1 after printing why. */
int fkc_filterfile_save(const char *cmd, const char *path, const fk_filter *f);

/* Checks, before any work, that a file at path could be saved by
 * fkc_filterfile_save (its folder exists and is writable), so that add,
 * remove and dedup fail at once rather than after reading all their input.
 * Returns 0, or -1 after printing why. */
int fkc_filterfile_can_save(const char *cmd, const char *path);

/* A filter file held for rewriting (add, remove, dedup): the real file
 * behind path (symlinks resolved, so a link stays a link and its target
 * is replaced), an exclusive flock on it held from before the read until
 * after the rename, and the mode the new file gets (the old file's,
 * exactly; a new file: 0666 less the umask). */
typedef struct {
    int    fd;      /* the locked file, -1 when not held (a new file not yet saved) */
    char  *real;    /* the path to read and replace (malloc'd) */
    unsigned mode;  /* permission bits for the replacement */
    int    created; /* 1: the file did not exist (or was an empty leftover);
                       fkc_filterfile_unlock(lk, 0) removes what was saved
                       of it since */
} fkc_filelock;

/* Takes path for rewriting: resolves it through symlinks, opens it and
 * waits for an exclusive flock; when another writer replaced the file
 * meanwhile, takes the new one (the lock is on the file that is there).
 * Temporary files that a killed save left beside it (FILE.tmp-XXXXXX,
 * untouched for a few seconds and locked by no one) are removed once the
 * lock is held. A missing file is an error unless create is 1: then
 * nothing is made yet (lk->fd -1, lk->created 1) -- no empty placeholder
 * that other commands would take for a damaged filter -- and the first
 * fkc_filterfile_save_held puts the whole file in place and takes its
 * lock. An empty regular file (a placeholder an older version left) is
 * taken as missing when create is 1, and held. Returns 0, or -1 after
 * printing why. */
int fkc_filterfile_lock(const char *cmd, const char *path, int create, fkc_filelock *lk);

/* fkc_filterfile_save to lk->real with lk->mode, under the lock. */
int fkc_filterfile_save_locked(const char *cmd, const fkc_filelock *lk, const fk_filter *f);

/* Saves f to lk->real as fkc_filterfile_save_locked does, and goes on
 * holding the file: the new file is locked before it is renamed into
 * place, and lk->fd becomes it (the old file's lock is released then), so
 * a long-running writer (dedup's checkpoints) can save again and again
 * with no other writer slipping in between. When lk holds no file (a new
 * file, fkc_filterfile_lock with create 1), the file is put in place only
 * if the name is still free. Returns 0; 1 when another writer created the
 * file first (nothing saved, nothing printed: lock it again and load it);
 * -1 after printing why (the file as it was). */
int fkc_filterfile_save_held(const char *cmd, fkc_filelock *lk, const fk_filter *f);

/* Releases the lock; when the file was created here and not saved
 * (saved 0), removes it. NULL-safe; lk may be unheld. */
void fkc_filterfile_unlock(fkc_filelock *lk, int saved);

/* What header parameter i of the kind with file id kind_id means ("bits
 * (m)"), or NULL when it has no name here (unused, or an unknown kind). */
const char *fkc_filterfile_param_name(uint32_t kind_id, unsigned i);

#endif
