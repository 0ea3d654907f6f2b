/* python/src/parquet.c: _parquet_chunks(path): every column chunk of a
 * Parquet file with its Bloom filter (parquet/parquet.h), for
 * filterkit.parquet_filters (python/filterkit/__init__.py wraps each row
 * in a ParquetChunk that probes values of the column's type). */
#include "pyfk.h" /* first: Python.h sets the feature macros */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../../parquet/parquet.h"

/* The library's read callback over a descriptor. */
static int read_fd(void *ctx, uint64_t offset, void *buf, size_t len)
{
    int fd = *(const int *)ctx;
    char *p = buf;
    while (len) {
        ssize_t got = pread(fd, p, len, (off_t)offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        len -= (size_t)got;
        offset += (uint64_t)got;
    }
    return 0;
}

/* One row: (row_group, column, type, filter or None, distinct or None):
 * distinct from the footer's statistics, else the dictionary page. */
static PyObject *chunk_row(const pyfk_state *st, const fk_parquet_file *pf, uint64_t rg, uint64_t col)
{
    char path[1024];
    fk_parquet_chunk k;
    fk_status s = fk_parquet_chunk_info(pf, rg, col, &k);
    if (s != FK_OK)
        return pyfk_raise(st, s, "parquet_filters");
    fk_parquet_column_path(pf, col, path, sizeof path);
    fk_filter *f = NULL;
    Py_BEGIN_ALLOW_THREADS
    s = fk_parquet_chunk_filter(pf, rg, col, &f);
    Py_END_ALLOW_THREADS
    PyObject *filter;
    if (s == FK_ENOTFOUND) {
        filter = Py_NewRef(Py_None);
    } else if (s != FK_OK) {
        return pyfk_raise(st, s, "parquet_filters: a chunk's Bloom filter");
    } else {
        fk_stats stats;
        fk_filter_stats(f, &stats);
        if (!(filter = pyfk_wrap(st, f, stats.expected_fpr > 0 && stats.expected_fpr < 1 ? stats.expected_fpr : 0.5, 0)))
            return NULL;
    }
    int64_t distinct = k.distinct_count >= 0 ? k.distinct_count : k.dictionary_entries;
    PyObject *d = distinct >= 0 ? PyLong_FromLongLong(distinct) : Py_NewRef(Py_None);
    PyObject *row = d ? Py_BuildValue("(KsiOO)", (unsigned long long)rg, path, k.type, filter, d) : NULL;
    Py_DECREF(filter);
    Py_XDECREF(d);
    return row;
}

PyObject *pyfk_parquet_chunks(PyObject *module, PyObject *path_arg)
{
    const pyfk_state *st = PyModule_GetState(module);
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(path_arg, &path))
        return NULL;
    int fd, err = 0;
    struct stat sb;
    Py_BEGIN_ALLOW_THREADS
    fd = open(PyBytes_AS_STRING(path), O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && fstat(fd, &sb) != 0) {
        err = errno;
        close(fd);
        fd = -1;
        errno = err;
    }
    err = errno;
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (fd < 0) {
        errno = err;
        return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_arg);
    }
    fk_parquet_file *pf = NULL;
    fk_status s;
    Py_BEGIN_ALLOW_THREADS
    s = fk_parquet_open(read_fd, &fd, (uint64_t)sb.st_size, &pf);
    Py_END_ALLOW_THREADS
    PyObject *rows = NULL;
    if (s != FK_OK) {
        pyfk_raise(st, s, "parquet_filters: not a Parquet file this reader takes");
    } else {
        uint64_t groups, cols;
        fk_parquet_shape(pf, &groups, &cols);
        rows = PyList_New(0);
        for (uint64_t rg = 0; rows && rg < groups; rg++)
            for (uint64_t c = 0; rows && c < cols; c++) {
                PyObject *row = chunk_row(st, pf, rg, c);
                if (!row || PyList_Append(rows, row) < 0)
                    Py_CLEAR(rows);
                Py_XDECREF(row);
            }
    }
    fk_parquet_close(pf);
    close(fd);
    return rows;
}
