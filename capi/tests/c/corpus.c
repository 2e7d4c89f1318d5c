/*
 * Translates every blob of a list through the C API and compares the WGSL and SPIR-V bytes
 * with those the Rust API wrote (capi/tests/c_api.rs writes the list and the expected files).
 *
 * corpus LIST
 *
 * Each line of LIST: STATUS BLOB WGSL SPV, where STATUS is the D3d9sStatus that parsing and
 * translating under the default key must give (0: success, and WGSL and SPV are the expected
 * outputs; otherwise they are "-"). Exits 0 when every line matches, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3d9_shader.h"

/* The whole file into a malloc'd buffer; NULL when it cannot be read. */
static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *data = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            unsigned char *grown = realloc(data, cap);
            if (!grown) { free(data); fclose(f); return NULL; }
            data = grown;
        }
        size_t got = fread(data + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    *len = n;
    return data;
}

static int same_as_file(const D3d9sBuffer *b, const char *path) {
    size_t len = 0;
    unsigned char *want = read_file(path, &len);
    int same = want && len == b->len && (len == 0 || memcmp(want, b->data, len) == 0);
    free(want);
    return same;
}

/* Parses and translates one blob; the status of the first step that fails, else 0 (and the
 * outputs compared with the expected files). */
static int check(const char *blob_path, const char *wgsl_path, const char *spv_path, int *mismatch) {
    size_t len = 0;
    unsigned char *blob = read_file(blob_path, &len);
    if (!blob) { fprintf(stderr, "%s: cannot read\n", blob_path); *mismatch = 1; return -1; }
    D3d9sShader *shader = NULL;
    D3d9sError *error = NULL;
    D3d9sStatus status = d3d9s_shader_parse(blob, len, NULL, &shader, &error);
    free(blob);
    if (status != D3D9S_STATUS_OK) {
        if (error == NULL || d3d9s_error_status(error) != status || d3d9s_error_diagnostic_count(error) == 0) {
            fprintf(stderr, "%s: status %d without a matching error handle\n", blob_path, status);
            *mismatch = 1;
        }
        d3d9s_error_free(error);
        return status;
    }
    D3d9sKey key;
    d3d9s_key_default(&key);
    D3d9sTranslation *t = NULL;
    status = d3d9s_shader_translate(shader, &key, &t, NULL);
    d3d9s_shader_free(shader);
    if (status != D3D9S_STATUS_OK) return status;
    D3d9sBuffer wgsl = {0}, spv = {0};
    status = d3d9s_translation_wgsl(t, &wgsl);
    if (status == D3D9S_STATUS_OK) status = d3d9s_translation_spirv(t, 0, 0, &spv);
    if (status == D3D9S_STATUS_OK) {
        if (!same_as_file(&wgsl, wgsl_path)) { fprintf(stderr, "%s: WGSL differs from Rust's\n", blob_path); *mismatch = 1; }
        if (!same_as_file(&spv, spv_path)) { fprintf(stderr, "%s: SPIR-V differs from Rust's\n", blob_path); *mismatch = 1; }
    }
    d3d9s_buffer_free(&wgsl);
    d3d9s_buffer_free(&spv);
    d3d9s_translation_free(t);
    return status;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: corpus LIST\n"); return 2; }
    FILE *list = fopen(argv[1], "r");
    if (!list) { perror(argv[1]); return 2; }
    char blob[4096], wgsl[4096], spv[4096];
    int expected, lines = 0, failures = 0;
    while (fscanf(list, "%d %4095s %4095s %4095s", &expected, blob, wgsl, spv) == 4) {
        int mismatch = 0;
        int status = check(blob, wgsl, spv, &mismatch);
        if (status != expected) {
            fprintf(stderr, "%s: status %d, Rust gave %d (%s)\n", blob, status, expected, d3d9s_last_error_message());
            mismatch = 1;
        }
        failures += mismatch;
        lines++;
    }
    fclose(list);
    printf("corpus: %d blobs, %d mismatches\n", lines, failures);
    return failures == 0 && lines > 0 ? 0 : 1;
}
