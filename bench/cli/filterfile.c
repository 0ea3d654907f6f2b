/* bench/cli/filterfile.c: see filterfile.h. */
#define _DEFAULT_SOURCE /* realpath, flock */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "filterfile.h"
#include "../../registry/registry.h"

static int fail(const char *cmd, const char *path, const char *why)
{
    fprintf(stderr, "filterkit %s: %s: %s\n", cmd, path, why);
    return -1;
}

/* What the loader learned of the input's length: `size` bytes in all
 * (0: unknown), the last one a newline or not; `record` is the length the
 * header announces (0: no header read). */
typedef struct {
    uint64_t size, record;
    int ends_in_newline;
} input_length;

/* head: the first `got` bytes of the input, to tell a foreign file (no
 * filterkit magic: a text file, an image) from a damaged filter; len tells
 * a cut-short or a padded record (a download cut off, redis-cli's newline)
 * from one whose bytes changed. */
static int fail_status(const char *cmd, const char *path, fk_status s, const uint8_t *head, size_t got,
                       const input_length *len)
{
    char why[400];
    if (s == FK_EIO || s == FK_ENOMEM)
        snprintf(why, sizeof why, "%s", s == FK_EIO ? strerror(errno) : fk_strerror(s));
    else if (got < FK_SERIAL_MAGIC_BYTES || memcmp(head, FK_SERIAL_MAGIC, FK_SERIAL_MAGIC_BYTES) != 0)
        snprintf(why, sizeof why, "not a filterkit file (it does not start with the filterkit header; "
                 "'filterkit build' writes one)");
    else if (got < FK_SERIAL_HEADER_BYTES)
        snprintf(why, sizeof why, "truncated: %zu bytes, shorter than the %d-byte header "
                 "(a copy or download cut short?)", got, (int)FK_SERIAL_HEADER_BYTES);
    else if (s == FK_ECORRUPT && len->record && len->size && len->size < len->record)
        snprintf(why, sizeof why, "truncated: %llu bytes of the %llu its header announces "
                 "(a copy or download cut short?)",
                 (unsigned long long)len->size, (unsigned long long)len->record);
    else if (s == FK_ECORRUPT && len->record && len->size == len->record + 1 && len->ends_in_newline)
        snprintf(why, sizeof why, "1 byte after the %llu-byte record: a trailing newline, as "
                 "'redis-cli FK.DUMP KEY > FILE' leaves? Save a dump with "
                 "'redis-cli --raw FK.DUMP KEY | head -c -1 > FILE' (docs/redis.md)",
                 (unsigned long long)len->record);
    else if (s == FK_ECORRUPT && len->record && len->size > len->record)
        snprintf(why, sizeof why, "%llu bytes after the %llu-byte record its header announces "
                 "(files joined, or written over a longer one?)",
                 (unsigned long long)(len->size - len->record), (unsigned long long)len->record);
    else
        snprintf(why, sizeof why, "not a filter this version can read: %s", fk_strerror(s));
    return fail(cmd, path, why);
}

/* For a stream that cannot seek back (a pipe): the rest of the record
 * after the header already read, growing as bytes arrive and never past
 * the length the header claims plus one byte (to see trailing bytes). */
static fk_status load_rest(FILE *fp, const uint8_t *head, const fk_serial_head *h,
                           fk_filter **out, uint64_t *bytes, input_length *len)
{
    if (h->payload_len > FK_MEMORY_CAP)
        return FK_ECORRUPT;
    size_t total = FK_SERIAL_HEADER_BYTES + (size_t)h->payload_len + FK_SERIAL_TRAILER_BYTES;
    size_t have = FK_SERIAL_HEADER_BYTES, cap = 1 << 16;
    uint8_t *buf = malloc(cap);
    if (!buf)
        return FK_ENOMEM;
    memcpy(buf, head, have);
    for (;;) {
        if (have == cap) {
            uint8_t *p = realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                return FK_ENOMEM;
            }
            buf = p;
            cap *= 2;
        }
        size_t want = total + 1 - have;
        size_t got = fread(buf + have, 1, want < cap - have ? want : cap - have, fp);
        have += got;
        if (got == 0 || have > total)
            break;
    }
    fk_status s = ferror(fp) ? FK_EIO : fk_filter_load_any(buf, have, out);
    *bytes = have;
    len->size = have;
    len->ends_in_newline = have && buf[have - 1] == '\n';
    free(buf);
    if (s == FK_ECORRUPT && have > total) { /* count the rest, for the message */
        int c;
        while ((c = getc(fp)) != EOF) {
            len->size++;
            len->ends_in_newline = c == '\n';
        }
    }
    return s;
}

int fkc_filterfile_load(const char *cmd, const char *path, fk_filter **out,
                       fk_serial_head *head, uint64_t *bytes)
{
    *out = NULL;
    int from_stdin = strcmp(path, "-") == 0; /* "-" is stdin, as for cat */
    if (from_stdin)
        path = "(stdin)";
    FILE *fp = from_stdin ? stdin : fopen(path, "rb");
    if (!fp)
        return fail(cmd, path, strerror(errno));
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(fp);
        return fail(cmd, path, strerror(EISDIR));
    }
    uint8_t hb[FK_SERIAL_HEADER_BYTES];
    size_t got = fread(hb, 1, sizeof hb, fp);
    fk_serial_head h;
    fk_status s = ferror(fp) ? FK_EIO : fk_serial_read_head(hb, got, &h);
    uint64_t size = 0;
    input_length len = { 0, 0, 0 };
    if (s == FK_OK) {
        len.record = FK_SERIAL_HEADER_BYTES + h.payload_len + FK_SERIAL_TRAILER_BYTES;
        if (!from_stdin && fseek(fp, 0, SEEK_SET) == 0) {
            s = fk_filter_load_file_any(fp, out);
            size = len.record;
            if (s == FK_ECORRUPT && S_ISREG(st.st_mode) && st.st_size > 0) {
                len.size = (uint64_t)st.st_size;
                len.ends_in_newline = fseek(fp, -1, SEEK_END) == 0 && getc(fp) == '\n';
            }
        } else {
            clearerr(fp);
            s = load_rest(fp, hb, &h, out, &size, &len);
        }
    }
    int err = errno;
    if (!from_stdin)
        fclose(fp);
    if (s != FK_OK) {
        fk_filter_free(*out);
        *out = NULL;
        errno = err;
        return fail_status(cmd, path, s, hb, got, &len);
    }
    if (head)
        *head = h;
    if (bytes)
        *bytes = size;
    return 0;
}

/* The folder holding path, into dir ("." for a bare name). Returns 0, or
 * -1 when it does not fit. */
static int folder_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else if ((size_t)(slash - path) < len)
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
    else
        return -1;
    return 0;
}

int fkc_filterfile_can_save(const char *cmd, const char *path)
{
    char dir[4096];
    if (folder_of(path, dir, sizeof dir) != 0 || access(dir, W_OK | X_OK) == 0)
        return 0; /* (a path too long to check is left to the save) */
    char msg[256];
    snprintf(msg, sizeof msg, "cannot be saved there (nothing done): %s",
             errno == ENOENT ? "its folder does not exist" : strerror(errno));
    return fail(cmd, path, msg);
}

/* fsyncs the folder holding path, so the rename itself is durable; best
 * effort (some file systems refuse fsync on a folder), as the new file is
 * already in place. */
static void sync_folder(const char *path)
{
    char dir[4096];
    if (folder_of(path, dir, sizeof dir) != 0)
        return;
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

static int save_as(const char *cmd, const char *path, const fk_filter *f, const mode_t *keep,
                   int noclobber, int *held);

int fkc_filterfile_save(const char *cmd, const char *path, const fk_filter *f)
{
    return save_as(cmd, path, f, NULL, 0, NULL);
}

int fkc_filterfile_save_locked(const char *cmd, const fkc_filelock *lk, const fk_filter *f)
{
    mode_t mode = (mode_t)lk->mode;
    return save_as(cmd, lk->real, f, &mode, 0, NULL);
}

/* A temporary file of a save of path: "NAME.tmp-" and the six letters or
 * digits mkstemp puts in place of XXXXXX, in path's folder. */
static int is_temp_of(const char *name, const char *base)
{
    size_t n = strlen(base);
    if (strncmp(name, base, n) != 0 || strncmp(name + n, ".tmp-", 5) != 0)
        return 0;
    const char *x = name + n + 5;
    for (int i = 0; i < 6; i++)
        if (!((x[i] >= 'a' && x[i] <= 'z') || (x[i] >= 'A' && x[i] <= 'Z') || (x[i] >= '0' && x[i] <= '9')))
            return 0;
    return x[6] == '\0';
}

/* Removes the temporary files a killed save of path left beside it (its
 * own name is never taken for them: they are only ever ignored or
 * removed). Called with path's lock held, so no writer that takes turns is
 * saving it; and a file is removed only when it is ours, a regular file,
 * not locked (a live save holds its temporary file's lock from its
 * mkstemp on) and untouched for STALE_SECONDS (older than the instant
 * between a save's mkstemp and its flock). Best effort, silent. */
#define STALE_SECONDS 10
static void remove_stale_temps(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (!*base || folder_of(path, dir, sizeof dir) != 0)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_temp_of(e->d_name, base))
            continue;
        char tmp[4096 + 256];
        struct stat st;
        snprintf(tmp, sizeof tmp, "%s/%s", dir, e->d_name);
        if (lstat(tmp, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
            now - st.st_mtime < STALE_SECONDS)
            continue;
        int fd = open(tmp, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            unlink(tmp);
        close(fd);
    }
    closedir(d);
}

int fkc_filterfile_save_held(const char *cmd, fkc_filelock *lk, const fk_filter *f)
{
    mode_t mode = (mode_t)lk->mode;
    int held = -1;
    int rc = save_as(cmd, lk->real, f, &mode, lk->fd < 0, &held);
    if (rc != 0)
        return rc;
    int was_missing = lk->fd < 0;
    if (lk->fd >= 0)
        close(lk->fd); /* the old file's lock: its waiters find the new file */
    lk->fd = held;
    if (was_missing)
        remove_stale_temps(lk->real);
    return 0;
}

int fkc_filterfile_lock(const char *cmd, const char *path, int create, fkc_filelock *lk)
{
    lk->fd = -1;
    lk->real = NULL;
    lk->mode = 0;
    lk->created = 0;
    for (int tries = 0; tries < 1000; tries++) {
        struct stat ls;
        char *real = realpath(path, NULL);
        if (!real && errno == ENOENT && lstat(path, &ls) == 0)
            return fail(cmd, path, "a symbolic link to a file that does not exist");
        if (!real && errno != ENOENT)
            return fail(cmd, path, strerror(errno));
        /* O_NONBLOCK: a FIFO named as the filter must not hang the open */
        int fd = real ? open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
        if (fd < 0 && errno != ENOENT) {
            int err = errno;
            free(real);
            return fail(cmd, path, strerror(err));
        }
        if (fd < 0) {
            free(real);
            if (!create)
                return fail(cmd, path, strerror(ENOENT));
            /* a new file: nothing is made and nothing locked until the
             * caller's first fkc_filterfile_save_held, which puts the
             * whole file in place at once (never an empty placeholder) */
            lk->real = strdup(path);
            if (!lk->real)
                return fail(cmd, path, strerror(ENOMEM));
            mode_t mask = umask(0);
            umask(mask);
            lk->mode = 0666 & ~mask;
            lk->created = 1;
            return 0;
        }
        struct stat held, now;
        if (flock(fd, LOCK_EX) != 0 || fstat(fd, &held) != 0) {
            int err = errno;
            close(fd);
            free(real);
            return fail(cmd, path, strerror(err));
        }
        if (S_ISDIR(held.st_mode)) {
            close(fd);
            free(real);
            return fail(cmd, path, strerror(EISDIR));
        }
        if (!S_ISREG(held.st_mode)) {
            /* a device or a FIFO (/dev/null reads as an empty file): it
             * is neither a filter nor ours to replace or remove */
            close(fd);
            free(real);
            return fail(cmd, path, "not a regular file (a filter is rewritten by a rename "
                                   "beside it; nothing done)");
        }
        /* the lock is good only on the file still at that name */
        if (stat(real, &now) == 0 && now.st_dev == held.st_dev && now.st_ino == held.st_ino) {
            /* an empty file (a placeholder left by a writer that was
             * killed) is taken as missing by a command that creates */
            lk->created = held.st_size == 0 && create;
            lk->fd = fd;
            lk->real = real;
            lk->mode = held.st_mode & 07777;
            remove_stale_temps(real);
            return 0;
        }
        close(fd);
        free(real);
    }
    return fail(cmd, path, "the file keeps being replaced; giving up");
}

void fkc_filterfile_unlock(fkc_filelock *lk, int saved)
{
    if (!lk)
        return;
    if (lk->created && !saved && lk->real && lk->fd >= 0)
        unlink(lk->real); /* created here (or an empty leftover), still locked: no one else wrote it */
    if (lk->fd >= 0)
        close(lk->fd); /* releases the flock */
    free(lk->real);
    lk->fd = -1;
    lk->real = NULL;
}

static int save_as(const char *cmd, const char *path, const fk_filter *f, const mode_t *keep,
                   int noclobber, int *held)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp)
        return fail(cmd, path, strerror(ENOMEM));
    snprintf(tmp, plen + 16, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot create a temporary file beside it (the file is unchanged): %s",
                 errno == ENOENT ? "its folder does not exist" : strerror(errno));
        free(tmp);
        return fail(cmd, path, msg);
    }
    /* locked from its creation: remove_stale_temps leaves a live save's
     * file alone, and with held the lock goes on with the file once it is
     * renamed into place, so no other writer takes it in between */
    (void)flock(fd, LOCK_EX | LOCK_NB);
    int keep_fd = -1;
    struct stat st;
    mode_t mode;
    if (keep) {
        mode = *keep;
    } else if (stat(path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    const char *why = NULL;
    if (held && (keep_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
        why = strerror(errno);
    FILE *fp = why ? NULL : fdopen(fd, "wb");
    if (!fp) {
        if (!why)
            why = strerror(errno);
        close(fd);
    } else {
        fk_status s = fk_filter_save_file(f, fp);
        if (s != FK_OK)
            why = s == FK_EIO ? strerror(errno) : fk_strerror(s);
        else if (fsync(fd) != 0 || fchmod(fd, mode) != 0)
            why = strerror(errno);
        if (fclose(fp) != 0 && !why)
            why = strerror(errno);
    }
    int raced = 0;
    if (!why && noclobber) {
        /* a new file: link(2) puts it in place only if the name is still
         * free (another writer may have created it meanwhile); a file
         * system without hard links gets a checked rename */
        struct stat ls;
        if (link(tmp, path) == 0)
            unlink(tmp);
        else if (errno == EEXIST)
            raced = 1;
        else if (lstat(path, &ls) == 0)
            raced = 1;
        else if (rename(tmp, path) != 0)
            why = strerror(errno);
    } else if (!why && rename(tmp, path) != 0) {
        why = strerror(errno);
    }
    if (!why && !raced)
        sync_folder(path);
    char msg[256];
    if (why) {
        snprintf(msg, sizeof msg, "cannot save (the file is unchanged): %s", why);
    }
    if (why || raced)
        unlink(tmp);
    free(tmp);
    if ((why || raced) && keep_fd >= 0)
        close(keep_fd);
    else if (held)
        *held = keep_fd;
    if (raced)
        return 1;
    return why ? fail(cmd, path, msg) : 0;
}

const char *fkc_filterfile_param_name(uint32_t kind_id, unsigned i)
{
    /* what the kind itself says each header parameter means */
    const fk_ops *ops = fk_ops_find_kind_id(kind_id);
    return ops && ops->serial && i < FK_SERIAL_PARAMS ? ops->serial->param_names[i] : NULL;
}
