/*
 * Lists every effect of a list through the C API: its techniques and passes, each stored shader
 * translated under the default key (with the FNV-1a 64 hash of its WGSL), and what each pass of
 * its first technique sets through the run-time (states, shaders, constants), in a text that
 * capi/tests/c_api.rs compares with the same listing made through the Rust API.
 *
 * effects LIST   (one effect blob path per line)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3d9_shader.h"
#include "read_file.h"

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

static void print_state(const D3d9sAppliedState *s, const char *indent) {
    printf("%sstate %s %u %u %u %u %zu", indent, s->name, s->state_class, s->code, s->index, s->kind, s->word_count);
    for (size_t w = 0; w < s->word_count; w++) printf(" %08x", s->words[w]);
    printf(" %u %u %zu\n", s->object, s->parameter, s->sampler_state_count);
}

/* Technique 0 through the run-time: what each pass sets, with its parameters at their defaults. */
static void run_passes(const D3d9sEffect *effect) {
    D3d9sEffectRuntime *rt = NULL;
    size_t passes = 0;
    if (d3d9s_effect_runtime_new(effect, &rt) != D3D9S_STATUS_OK) { printf("runtime refused\n"); return; }
    /* The matrices the stock effects read, set to 2 x identity with a translation (1, 2, 3). */
    static const char *const matrices[] = {"World", "WorldViewProj", "WorldViewProjection", "View", "Projection"};
    static const float m[16] = {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1};
    for (size_t i = 0; i < sizeof matrices / sizeof matrices[0]; i++) {
        uint32_t h = 0;
        if (d3d9s_effect_runtime_parameter(rt, matrices[i], &h) == D3D9S_STATUS_OK)
            printf("set %s %d\n", matrices[i], (int)d3d9s_effect_runtime_set_floats(rt, h, m, 16));
    }
    if (d3d9s_effect_runtime_begin(rt, &passes) != D3D9S_STATUS_OK) passes = 0;
    for (size_t p = 0; p < passes; p++) {
        D3d9sPassState *ps = NULL;
        D3d9sStatus status = d3d9s_effect_runtime_begin_pass(rt, p, &ps);
        D3d9sPassStateInfo info;
        if (status != D3D9S_STATUS_OK || d3d9s_pass_state_info(ps, &info) != D3D9S_STATUS_OK) {
            printf("begin_pass %zu refused %d\n", p, (int)status);
            continue;
        }
        printf("begin_pass %zu: %zu %u %u %u %u %zu %zu %zu %zu %zu\n", p, info.state_count, info.sets_vertex_shader,
               info.vertex_shader, info.sets_pixel_shader, info.pixel_shader, info.light_count, info.error_count,
               info.vertex_float_count + info.vertex_int_count + info.vertex_bool_count,
               info.pixel_float_count + info.pixel_int_count + info.pixel_bool_count, (size_t)info.has_material);
        for (size_t i = 0; i < info.state_count; i++) {
            D3d9sAppliedState s;
            d3d9s_pass_state_state(ps, i, &s);
            print_state(&s, "");
            for (size_t j = 0; j < s.sampler_state_count; j++) {
                D3d9sAppliedState sub;
                d3d9s_pass_state_sampler_state(ps, i, j, &sub);
                print_state(&sub, "  ");
            }
        }
        for (uint32_t stage = 0; stage < 2; stage++) {
            size_t counts[3] = {stage ? info.pixel_float_count : info.vertex_float_count,
                                stage ? info.pixel_int_count : info.vertex_int_count,
                                stage ? info.pixel_bool_count : info.vertex_bool_count};
            for (uint32_t file = 0; file < 3; file++) {
                for (size_t i = 0; i < counts[file]; i++) {
                    uint32_t reg = 0, v[4] = {0};
                    d3d9s_pass_state_constant(ps, stage, file, i, &reg, v);
                    printf("c %u %u %u %08x %08x %08x %08x\n", stage, file, reg, v[0], v[1], v[2], v[3]);
                }
            }
        }
        for (size_t i = 0; i < info.light_count; i++) {
            uint32_t n = 0, w[D3D9S_LIGHT_WORDS];
            d3d9s_pass_state_light(ps, i, &n, w);
            printf("light %u", n);
            for (size_t k = 0; k < D3D9S_LIGHT_WORDS; k++) printf(" %08x", w[k]);
            printf("\n");
        }
        if (info.has_material) {
            uint32_t w[D3D9S_MATERIAL_WORDS];
            d3d9s_pass_state_material(ps, w);
            printf("material");
            for (size_t k = 0; k < D3D9S_MATERIAL_WORDS; k++) printf(" %08x", w[k]);
            printf("\n");
        }
        for (size_t i = 0; i < info.error_count; i++) printf("error %s\n", d3d9s_pass_state_error(ps, i));
        d3d9s_pass_state_free(ps);
        printf("end_pass %d\n", (int)d3d9s_effect_runtime_end_pass(rt));
    }
    d3d9s_effect_runtime_end(rt);
    d3d9s_effect_runtime_free(rt);
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
    run_passes(effect);
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
