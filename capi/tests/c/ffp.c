/*
 * Generates the fixed-function pair of a state file through the C API in both modes and writes
 * each half's WGSL, SPIR-V and state block to OUTDIR/{keyed,uniform}.{vs,ps}.{wgsl,spv,state}
 * and the constant buffers of fixed values to OUTDIR/{vertex,pixel}.constants, for
 * capi/tests/c_api.rs to compare with the Rust API's.
 *
 * ffp STATE.toml OUTDIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3d9_shader.h"

static int write_file(const char *dir, const char *name, const D3d9sBuffer *b) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) { perror(path); return 0; }
    int ok = b->len == 0 || fwrite(b->data, 1, b->len, f) == b->len;
    return fclose(f) == 0 && ok;
}

static int half(const D3d9sFfp *ffp, uint32_t stage, const char *mode, const char *dir) {
    static const char *const stages[] = {"vs", "ps"};
    D3d9sBuffer wgsl = {0}, spv = {0}, state = {0};
    int ok = d3d9s_ffp_wgsl(ffp, stage, &wgsl) == D3D9S_STATUS_OK && d3d9s_ffp_spirv(ffp, stage, &spv) == D3D9S_STATUS_OK &&
             d3d9s_ffp_state_bytes(ffp, stage, &state) == D3D9S_STATUS_OK;
    char name[64];
    snprintf(name, sizeof name, "%s.%s.wgsl", mode, stages[stage]);
    ok = ok && write_file(dir, name, &wgsl);
    snprintf(name, sizeof name, "%s.%s.spv", mode, stages[stage]);
    ok = ok && write_file(dir, name, &spv);
    snprintf(name, sizeof name, "%s.%s.state", mode, stages[stage]);
    ok = ok && write_file(dir, name, &state);
    d3d9s_buffer_free(&wgsl);
    d3d9s_buffer_free(&spv);
    d3d9s_buffer_free(&state);
    return ok;
}

/* The values c_api.rs gives the Rust API too: the world matrix translates x by 2, one red light
 * of range 10; texture factor (0.2, 0.4, 1, 0.8), ALPHAREF 0x180 (low byte 0x80). */
static int constants(const char *dir) {
    D3d9sFfpVertexConstants vc;
    D3d9sFfpPixelConstants pc;
    if (d3d9s_ffp_vertex_constants_default(&vc) != D3D9S_STATUS_OK) return 0;
    if (d3d9s_ffp_pixel_constants_default(&pc) != D3D9S_STATUS_OK) return 0;
    vc.world[0][12] = 2.0f;
    vc.light_count = 1;
    vc.lights[0].diffuse[0] = 1.0f;
    vc.lights[0].diffuse[3] = 1.0f;
    vc.lights[0].range = 10.0f;
    pc.texture_factor[0] = 0.2f;
    pc.texture_factor[1] = 0.4f;
    pc.texture_factor[2] = 1.0f;
    pc.texture_factor[3] = 0.8f;
    pc.alpha_ref = 0x180;
    D3d9sBuffer v = {0}, p = {0};
    int ok = d3d9s_ffp_vertex_constants_bytes(&vc, &v) == D3D9S_STATUS_OK &&
             d3d9s_ffp_pixel_constants_bytes(&pc, &p) == D3D9S_STATUS_OK && write_file(dir, "vertex.constants", &v) &&
             write_file(dir, "pixel.constants", &p);
    d3d9s_buffer_free(&v);
    d3d9s_buffer_free(&p);
    return ok;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: ffp STATE.toml OUTDIR\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 2; }
    char text[65536];
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    static const char *const modes[] = {"keyed", "uniform"};
    for (uint32_t mode = D3D9S_FFP_KEYED; mode <= D3D9S_FFP_UNIFORM; mode++) {
        D3d9sFfp *ffp = NULL;
        D3d9sError *error = NULL;
        if (d3d9s_ffp_generate(text, len, mode, &ffp, &error) != D3D9S_STATUS_OK) {
            fprintf(stderr, "%s: %s\n", argv[1], d3d9s_error_message(error));
            d3d9s_error_free(error);
            return 1;
        }
        int ok = half(ffp, D3D9S_FFP_VERTEX, modes[mode], argv[2]) && half(ffp, D3D9S_FFP_PIXEL, modes[mode], argv[2]);
        d3d9s_ffp_free(ffp);
        if (!ok) return 1;
    }
    return constants(argv[2]) ? 0 : 1;
}
