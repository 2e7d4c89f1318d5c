/*
 * Damaged blobs through the C API under AddressSanitizer: every whole-token truncation of each
 * blob of a list, and a blob with one bit flipped at each of 64 positions, parsed and (when they
 * parse) translated to WGSL and SPIR-V. Every call must return one of its documented statuses,
 * never D3D9S_STATUS_PANIC, and free everything it made.
 *
 * mutate LIST MAX_BLOBS   (the list corpus.c reads; only its blob paths are used)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3d9_shader.h"
#include "read_file.h"

static int documented(D3d9sStatus s) {
    return s == D3D9S_STATUS_OK || s == D3D9S_STATUS_BAD_BLOB || s == D3D9S_STATUS_INVALID_SHADER ||
           s == D3D9S_STATUS_TRANSLATE_FAILED;
}

/* Parses and translates one (damaged) blob; 0 when a status is not one parsing or translating
 * documents. */
static int try_blob(const unsigned char *blob, size_t len) {
    D3d9sShader *shader = NULL;
    D3d9sError *error = NULL;
    D3d9sStatus s = d3d9s_shader_parse(blob, len, NULL, &shader, &error);
    d3d9s_error_free(error);
    if (s != D3D9S_STATUS_OK) return documented(s) && shader == NULL;
    D3d9sKey key;
    d3d9s_key_default(&key);
    D3d9sTranslation *t = NULL;
    s = d3d9s_shader_translate(shader, &key, &t, NULL);
    int ok = documented(s);
    if (s == D3D9S_STATUS_OK) {
        D3d9sBuffer wgsl = {0}, spv = {0};
        ok = documented(d3d9s_translation_wgsl(t, &wgsl)) && documented(d3d9s_translation_spirv(t, 0, 0, &spv));
        d3d9s_buffer_free(&wgsl);
        d3d9s_buffer_free(&spv);
    }
    d3d9s_translation_free(t);
    d3d9s_shader_free(shader);
    return ok;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: mutate LIST MAX_BLOBS\n"); return 2; }
    FILE *list = fopen(argv[1], "r");
    if (!list) { perror(argv[1]); return 2; }
    int max = atoi(argv[2]);
    char path[4096], rest[2][4096];
    int status, blobs = 0, tries = 0, bad = 0;
    while (blobs < max && fscanf(list, "%d %4095s %4095s %4095s", &status, path, rest[0], rest[1]) == 4) {
        size_t len = 0;
        unsigned char *blob = read_file(path, &len);
        if (!blob) continue;
        for (size_t cut = 0; cut < len; cut += 4, tries++) bad += !try_blob(blob, cut);
        for (size_t i = 0; i < 64 && len > 0; i++, tries++) {
            size_t bit = (i * 2654435761u) % (len * 8);
            blob[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            bad += !try_blob(blob, len);
            blob[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        }
        free(blob);
        blobs++;
    }
    fclose(list);
    printf("mutate: %d blobs, %d damaged inputs, %d undocumented results\n", blobs, tries, bad);
    return bad == 0 && blobs > 0 ? 0 : 1;
}
