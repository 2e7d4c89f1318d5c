/*
 * translate BLOB OUT.wgsl
 *
 * Reads a Direct3D 9 shader blob (the DWORD tokens CreateVertexShader/CreatePixelShader take),
 * prints its reflection, translates it under the default key and writes the WGSL to OUT.wgsl
 * and the SPIR-V beside it (OUT.spv). Exits 1 with the diagnostics when the blob is refused.
 *
 *   cc -I capi/include capi/examples/translate.c target/release/libd3d9_shader_capi.a \
 *      -lpthread -ldl -lm -lrt -lgcc_s -lutil -o translate
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3d9_shader.h"

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

static int write_file(const char *path, const D3d9sBuffer *b) {
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); return 0; }
    int ok = fwrite(b->data, 1, b->len, f) == b->len;
    return fclose(f) == 0 && ok;
}

static void print_diagnostics(const D3d9sError *error) {
    fprintf(stderr, "error: %s\n", d3d9s_error_message(error));
    for (size_t i = 0; i < d3d9s_error_diagnostic_count(error); i++) {
        D3d9sDiagnostic d;
        if (d3d9s_error_diagnostic(error, i, &d) != D3D9S_STATUS_OK) continue;
        fprintf(stderr, "  [%s] token %lld (byte %lld): %s\n", d.rule ? d.rule : "decode", (long long)d.token,
                (long long)d.byte_offset, d.message);
    }
}

static void print_registers(const D3d9sShader *shader, const char *what, size_t count, int outputs) {
    for (size_t i = 0; i < count; i++) {
        D3d9sIoRegister r;
        D3d9sStatus s = outputs ? d3d9s_shader_output(shader, i, &r) : d3d9s_shader_input(shader, i, &r);
        if (s != D3D9S_STATUS_OK) continue;
        printf("  %s %s: %s%u mask 0x%x\n", what, r.name, r.usage_name ? r.usage_name : "(undeclared) ",
               r.usage_index, r.mask);
    }
}

static void print_reflection(const D3d9sShader *shader) {
    D3d9sShaderInfo info;
    if (d3d9s_shader_info(shader, &info) != D3D9S_STATUS_OK) return;
    printf("%s (%s shader), %u temps, features 0x%x\n", info.version,
           info.stage == D3D9S_STAGE_VERTEX ? "vertex" : "pixel", info.temps, info.features);
    print_registers(shader, "input", info.input_count, 0);
    print_registers(shader, "output", info.output_count, 1);
    for (size_t i = 0; i < info.sampler_count; i++) {
        D3d9sSamplerInfo s;
        if (d3d9s_shader_sampler(shader, i, &s) == D3D9S_STATUS_OK)
            printf("  sampler s%u: %s\n", s.index, s.declared ? s.declared : "(undeclared)");
    }
    static const char *const files[] = {"c", "i", "b"};
    for (uint32_t file = D3D9S_CONSTANTS_FLOAT; file <= D3D9S_CONSTANTS_BOOL; file++) {
        D3d9sConstantInfo c;
        if (d3d9s_shader_constants(shader, file, &c) != D3D9S_STATUS_OK) continue;
        for (size_t i = 0; i < c.range_count; i++) {
            uint32_t first, last;
            if (d3d9s_shader_constant_range(shader, file, i, &first, &last) == D3D9S_STATUS_OK)
                printf("  constants %s%u-%s%u\n", files[file], first, files[file], last);
        }
        if (c.relative) printf("  constants %s: relatively addressed (upload them all)\n", files[file]);
    }
}

/* OUT.wgsl -> OUT.spv (OUT -> OUT.spv without the extension). */
static char *spv_path(const char *wgsl_path) {
    size_t n = strlen(wgsl_path);
    char *p = malloc(n + 5);
    if (!p) return NULL;
    strcpy(p, wgsl_path);
    if (n > 5 && strcmp(p + n - 5, ".wgsl") == 0) p[n - 5] = '\0';
    strcat(p, ".spv");
    return p;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: translate BLOB OUT.wgsl\n");
        return 2;
    }
    size_t len = 0;
    unsigned char *blob = read_file(argv[1], &len);
    if (!blob) { perror(argv[1]); return 1; }
    D3d9sShader *shader = NULL;
    D3d9sError *error = NULL;
    D3d9sStatus status = d3d9s_shader_parse(blob, len, NULL, &shader, &error);
    free(blob);
    if (status != D3D9S_STATUS_OK) {
        print_diagnostics(error);
        d3d9s_error_free(error);
        return 1;
    }
    print_reflection(shader);
    D3d9sKey key;
    d3d9s_key_default(&key);
    D3d9sTranslation *t = NULL;
    D3d9sBuffer wgsl = {0}, spv = {0};
    int ok = 0;
    char *spv_out = spv_path(argv[2]);
    if (d3d9s_shader_translate(shader, &key, &t, &error) != D3D9S_STATUS_OK) {
        print_diagnostics(error);
    } else if (d3d9s_translation_wgsl(t, &wgsl) != D3D9S_STATUS_OK ||
               d3d9s_translation_spirv(t, 0, 0, &spv) != D3D9S_STATUS_OK) {
        fprintf(stderr, "error: %s\n", d3d9s_last_error_message());
    } else if (spv_out && write_file(argv[2], &wgsl) && write_file(spv_out, &spv)) {
        printf("wrote %s (%zu bytes) and %s (%zu bytes)\n", argv[2], wgsl.len, spv_out, spv.len);
        ok = 1;
    }
    free(spv_out);
    d3d9s_buffer_free(&wgsl);
    d3d9s_buffer_free(&spv);
    d3d9s_translation_free(t);
    d3d9s_error_free(error);
    d3d9s_shader_free(shader);
    return ok ? 0 : 1;
}
