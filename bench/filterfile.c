/* bench/filterfile.c: opening a saved filter named on the command line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filterfile.h"
#include "keylines.h"

int fk_filterfile_load(const char *cmd, const char *path, fk_filter **out,
                       fk_serial_head *head, uint64_t *bytes)
{
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "filterkit %s: %s: %s\n", cmd, path, strerror(errno));
        return -1;
    }
    char *data = NULL;
    size_t len = 0;
    int rd = fk_read_all(fp, &data, &len);
    int err = errno;
    fclose(fp);
    if (rd != 0) {
        fprintf(stderr, "filterkit %s: %s: %s\n", cmd, path, strerror(err));
        return -1;
    }
    fk_status s = fk_filter_load_any(data, len, out);
    if (s == FK_OK && head)
        s = fk_serial_read_head(data, len, head);
    if (bytes)
        *bytes = len;
    free(data);
    if (s != FK_OK) {
        fprintf(stderr, "filterkit %s: %s: not a filter this version can read: %s\n", cmd, path,
                fk_strerror(s));
        fk_filter_free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}
