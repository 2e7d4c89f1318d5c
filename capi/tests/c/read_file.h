/* A whole file into memory for the C tests: the bytes (free them) and their count in `*len`,
 * or NULL when the file cannot be read. One copy for every test that reads a blob. */
#ifndef D3D9S_TEST_READ_FILE_H
#define D3D9S_TEST_READ_FILE_H

#include <stdio.h>
#include <stdlib.h>

static inline unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
    long n = ftell(f);
    rewind(f);
    unsigned char *data = malloc(n > 0 ? (size_t)n : 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) { free(data); data = NULL; }
    fclose(f);
    *len = (size_t)n;
    return data;
}

#endif
