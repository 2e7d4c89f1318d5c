/*
 * Lists every effect of a list through the C API: its techniques and passes, and each stored
 * shader translated under the default key (with the FNV-1a 64 hash of its WGSL), in a text that
 * capi/tests/c_api.rs compares with the same listing made through the Rust API.
 *
 * effects LIST   (one effect blob path per line)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3d9_shader.h"

static unsigned char *read_file(const char *path, size_t *len) {
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

static unsigned long long fnv1a64(const unsigned char *p, size_t n) {
    unsigned long long h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* One stored shader: status of parsing and translating, and the WGSL's hash on success. */
static void shader_line(const D3d9sEffect *effect, size_t i) {
    uint32_t id = 0;
    const char *version = NULL;
    D3d9sShader *shader = NULL;
    D3d9sStatus status = d3d9s_effect_shader(effect, i, NULL, &id, &version, &shader, NULL);
    unsigned long long hash = 0;
    if (status == D3D9S_STATUS_OK) {
        D3d9sKey key;
        d3d9s_key_default(&key);
        D3d9sTranslation *t = NULL;
        D3d9sBuffer wgsl = {0};
        status = d3d9s_shader_translate(shader, &key, &t, NULL);
        if (status == D3D9S_STATUS_OK) status = d3d9s_translation_wgsl(t, &wgsl);
        if (status == D3D9S_STATUS_OK) hash = fnv1a64(wgsl.data, wgsl.len);
        d3d9s_buffer_free(&wgsl);
        d3d9s_translation_free(t);
    }
    d3d9s_shader_free(shader);
    printf("shader %u %s %d %016llx\n", id, version ? version : "?", (int)status, hash);
}

static int list_effect(const char *path) {
    size_t len = 0;
    unsigned char *blob = read_file(path, &len);
    if (!blob) { fprintf(stderr, "%s: cannot read\n", path); return 0; }
    D3d9sEffect *effect = NULL;
    D3d9sStatus status = d3d9s_effect_parse(blob, len, &effect, NULL);
    free(blob);
    if (status != D3D9S_STATUS_OK) {
        printf("effect refused %d\n", (int)status);
        return 1;
    }
    D3d9sEffectInfo info;
    d3d9s_effect_info(effect, &info);
    printf("effect %zu %zu %zu\n", info.technique_count, info.parameter_count, info.shader_count);
    for (size_t t = 0; t < info.technique_count; t++) {
        const char *name = NULL;
        size_t passes = 0;
        d3d9s_effect_technique(effect, t, &name, &passes);
        printf("technique %s %zu\n", name, passes);
        for (size_t p = 0; p < passes; p++) {
            const char *pass = NULL;
            d3d9s_effect_pass(effect, t, p, &pass);
            printf("pass %s\n", pass);
        }
    }
    for (size_t i = 0; i < info.shader_count; i++) shader_line(effect, i);
    d3d9s_effect_free(effect);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: effects LIST\n"); return 2; }
    FILE *list = fopen(argv[1], "r");
    if (!list) { perror(argv[1]); return 2; }
    char path[4096];
    int ok = 1;
    while (fscanf(list, "%4095s", path) == 1) ok &= list_effect(path);
    fclose(list);
    return ok ? 0 : 1;
}
