/*
 * The C API's successful paths give what the D3D9 rules say: reflection of a vs_3_0/ps_3_0
 * pair, its linkage, the binding layout, minimal keys and keys from device state, the cache
 * hash, override delivery with its pipeline constants and specialisation, and one shader
 * translated by several threads at once. Run under AddressSanitizer by capi/tests/c_api.rs.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "d3d9_shader.h"

static const char VS[] =
    "vs_3_0\n dcl_position v0\n dcl_texcoord v1\n dcl_position o0\n dcl_texcoord o1\n"
    " m4x4 o0, v0, c0\n mov o1, v1\n";
static const char PS[] =
    "ps_3_0\n dcl_texcoord v0.xy\n dcl_color1 v1\n dcl_2d s0\n texld r0, v0, s0\n mul oC0, r0, v1\n";
/* A ps_2_0: fixed-function fog applies to it (not to ps_3_0). */
static const char PS2[] = "ps_2_0\n dcl v0\n mov oC0, v0\n";
static const char DEF[] = "ps_2_0\n def c0, 1, 0.5, 0.25, 1\n mov oC0, c0\n";

/* D3DDECLUSAGE codes and D3DSPR register files. */
enum { USAGE_POSITION = 0, USAGE_TEXCOORD = 5, USAGE_COLOR = 10 };
enum { SPR_INPUT = 1, SPR_OUTPUT = 6 };

static D3d9sShader *assemble(const char *text) {
    D3d9sShader *s = NULL;
    EXPECT(d3d9s_shader_assemble(text, strlen(text), NULL, &s, NULL), D3D9S_STATUS_OK);
    return s;
}

static void reflection(D3d9sShader *vs, D3d9sShader *ps) {
    D3d9sShaderInfo info;
    EXPECT(d3d9s_shader_info(vs, &info), D3D9S_STATUS_OK);
    CHECK(info.stage == D3D9S_STAGE_VERTEX && info.major == 3 && info.minor == 0);
    CHECK(strcmp(info.version, "vs_3_0") == 0);
    CHECK(info.input_count == 2 && info.output_count == 2 && info.sampler_count == 0 && info.ctab_count == 0);
    CHECK(info.fits_stable_interface == 1 && info.warning_count == 0);
    D3d9sIoRegister io;
    EXPECT(d3d9s_shader_input(vs, 1, &io), D3D9S_STATUS_OK);
    CHECK(io.file == SPR_INPUT && io.index == 1 && io.usage == USAGE_TEXCOORD && io.usage_index == 0);
    CHECK(strcmp(io.name, "v1") == 0 && strcmp(io.usage_name, "texcoord") == 0);
    EXPECT(d3d9s_shader_output(vs, 0, &io), D3D9S_STATUS_OK);
    CHECK(io.file == SPR_OUTPUT && io.index == 0 && io.usage == USAGE_POSITION);
    /* m4x4 o0, v0, c0 reads c0-c3. */
    D3d9sConstantInfo c;
    EXPECT(d3d9s_shader_constants(vs, D3D9S_CONSTANTS_FLOAT, &c), D3D9S_STATUS_OK);
    CHECK(c.range_count == 1 && c.relative == 0 && c.defined_count == 0);
    uint32_t first = 99, last = 99;
    EXPECT(d3d9s_shader_constant_range(vs, D3D9S_CONSTANTS_FLOAT, 0, &first, &last), D3D9S_STATUS_OK);
    CHECK(first == 0 && last == 3);
    EXPECT(d3d9s_shader_info(ps, &info), D3D9S_STATUS_OK);
    CHECK(info.stage == D3D9S_STAGE_PIXEL && info.sampler_count == 1 && info.input_count == 2);
    D3d9sSamplerInfo s;
    EXPECT(d3d9s_shader_sampler(ps, 0, &s), D3D9S_STATUS_OK);
    CHECK(s.index == 0 && s.texture_type == 2 && strcmp(s.declared, "2d") == 0);
    EXPECT(d3d9s_shader_input(ps, 1, &io), D3D9S_STATUS_OK);
    CHECK(io.usage == USAGE_COLOR && io.usage_index == 1);
    /* def c0, 1, 0.5, 0.25, 1: the raw bits of the floats. */
    D3d9sShader *def = assemble(DEF);
    EXPECT(d3d9s_shader_constants(def, D3D9S_CONSTANTS_FLOAT, &c), D3D9S_STATUS_OK);
    CHECK(c.defined_count == 1);
    D3d9sDefinedConstant d;
    EXPECT(d3d9s_shader_constant_defined(def, D3D9S_CONSTANTS_FLOAT, 0, &d), D3D9S_STATUS_OK);
    CHECK(d.register_index == 0 && d.value[0] == 0x3F800000u && d.value[1] == 0x3F000000u);
    CHECK(d.value[2] == 0x3E800000u && d.value[3] == 0x3F800000u);
    d3d9s_shader_free(def);
}

/* TEXCOORD0 passes at location 0; COLOR1 is not written by the vertex shader: the pixel shader
 * reads D3D9's default (0, 0, 0, 1) for it. */
static void linking(D3d9sShader *vs, D3d9sShader *ps) {
    D3d9sLinkage *l = NULL;
    D3d9sError *e = NULL;
    EXPECT(d3d9s_link(ps, vs, &l, &e), D3D9S_STATUS_WRONG_STAGE);
    CHECK(l == NULL && e != NULL);
    d3d9s_error_free(e);
    EXPECT(d3d9s_link(vs, ps, &l, &e), D3D9S_STATUS_OK);
    CHECK(e == NULL);
    size_t n = 0;
    uint32_t stable = 9;
    EXPECT(d3d9s_linkage_info(l, &n, &stable), D3D9S_STATUS_OK);
    CHECK(n == 2 && stable == 0);
    D3d9sLinkSlot slot;
    EXPECT(d3d9s_linkage_slot(l, 0, &slot), D3D9S_STATUS_OK);
    CHECK(slot.usage == USAGE_TEXCOORD && slot.usage_index == 0 && slot.location == 0);
    EXPECT(d3d9s_linkage_slot(l, 1, &slot), D3D9S_STATUS_OK);
    CHECK(slot.usage == USAGE_COLOR && slot.usage_index == 1 && slot.location == D3D9S_NONE);
    EXPECT(d3d9s_linkage_slot(l, 2, &slot), D3D9S_STATUS_INVALID_ARGUMENT);
    D3d9sKey key;
    d3d9s_key_default(&key);
    key.linkage = l;
    D3d9sTranslation *vt = NULL, *pt = NULL;
    EXPECT(d3d9s_shader_translate(vs, &key, &vt, NULL), D3D9S_STATUS_OK);
    EXPECT(d3d9s_shader_translate(ps, &key, &pt, NULL), D3D9S_STATUS_OK);
    /* Constants in group 0 for vertex shaders, 1 for pixel shaders; s0 at bindings 16/17. */
    D3d9sBindingLayout layout;
    EXPECT(d3d9s_translation_layout(vt, &layout), D3D9S_STATUS_OK);
    CHECK(layout.group == 0 && layout.float_constants == 0 && layout.texture_count == 0);
    EXPECT(d3d9s_translation_layout(pt, &layout), D3D9S_STATUS_OK);
    CHECK(layout.group == 1 && layout.float_constants == D3D9S_NONE && layout.texture_count == 1);
    D3d9sTextureBinding tb;
    EXPECT(d3d9s_translation_texture(pt, 0, &tb), D3D9S_STATUS_OK);
    CHECK(tb.sampler == 0 && tb.texture_binding == 16 && tb.sampler_binding == 17 && tb.texture_type == 2);
    size_t inputs = 0;
    EXPECT(d3d9s_translation_interface(pt, D3D9S_INTERFACE_INPUTS, 0, NULL, &inputs), D3D9S_STATUS_OK);
    int saw_color1 = 0;
    for (size_t i = 0; i < inputs; i++) {
        D3d9sInterfaceSlot s;
        EXPECT(d3d9s_translation_interface(pt, D3D9S_INTERFACE_INPUTS, i, &s, NULL), D3D9S_STATUS_OK);
        if (s.usage == USAGE_COLOR && s.usage_index == 1) {
            saw_color1 = 1;
            CHECK(s.location == D3D9S_NONE && s.has_default == 1);
            CHECK(s.default_value[0] == 0.0f && s.default_value[3] == 1.0f);
        }
        if (s.usage == USAGE_TEXCOORD) CHECK(s.location == 0);
    }
    CHECK(saw_color1);
    D3d9sBuffer wgsl = {0}, spv = {0};
    EXPECT(d3d9s_translation_wgsl(pt, &wgsl), D3D9S_STATUS_OK);
    CHECK(wgsl.len > 0 && memmem(wgsl.data, wgsl.len, "@fragment", 9) != NULL);
    EXPECT(d3d9s_translation_spirv(vt, 1, 3, &spv), D3D9S_STATUS_OK);
    /* The SPIR-V magic number 0x07230203, little-endian; the version word 1.3 = 0x00010300. */
    CHECK(spv.len >= 20 && spv.len % 4 == 0 && spv.data[0] == 0x03 && spv.data[3] == 0x07);
    CHECK(spv.data[4] == 0x00 && spv.data[5] == 0x03 && spv.data[6] == 0x01);
    d3d9s_buffer_free(&wgsl);
    d3d9s_buffer_free(&spv);
    CHECK(wgsl.data == NULL && spv.data == NULL);
    d3d9s_translation_free(vt);
    d3d9s_translation_free(pt);
    d3d9s_linkage_free(l);
    EXPECT(d3d9s_linkage_stable(&l), D3D9S_STATUS_OK);
    EXPECT(d3d9s_linkage_info(l, &n, NULL), D3D9S_STATUS_OK);
    CHECK(n == 16);
    d3d9s_linkage_free(l);
}

/* A pixel shader ignores the clip planes, a vertex shader the alpha test. */
static void keys(D3d9sShader *vs, D3d9sShader *ps) {
    D3d9sKey key, min;
    d3d9s_key_default(&key);
    key.alpha_func = 5; /* D3DCMP_GREATER */
    key.clip_planes = 3;
    EXPECT(d3d9s_shader_minimal_key(vs, &key, &min), D3D9S_STATUS_OK);
    CHECK(min.alpha_func == 8 && min.clip_planes == 3 && min.size == sizeof(D3d9sKey));
    EXPECT(d3d9s_shader_minimal_key(ps, &key, &min), D3D9S_STATUS_OK);
    CHECK(min.alpha_func == 5 && min.clip_planes == 0);
    uint8_t a[16], b[16], c[16];
    D3d9sKey plain;
    d3d9s_key_default(&plain);
    EXPECT(d3d9s_shader_cache_hash(ps, &plain, a), D3D9S_STATUS_OK);
    plain.clip_planes = 3;
    EXPECT(d3d9s_shader_cache_hash(ps, &plain, b), D3D9S_STATUS_OK);
    EXPECT(d3d9s_shader_cache_hash(ps, &key, c), D3D9S_STATUS_OK);
    CHECK(memcmp(a, b, 16) == 0 && memcmp(a, c, 16) != 0);
    /* Alpha test GREATER and linear table fog: the pixel shaders take the alpha function; only
     * the ps_2_0 takes the fog (ps_3_0 does its own), the vertex shader neither. */
    D3d9sDeviceState state;
    EXPECT(d3d9s_device_state_default(&state), D3D9S_STATUS_OK);
    CHECK(state.alpha_func == 8 && state.shade_mode == 2);
    state.alpha_test_enable = 1;
    state.alpha_func = 5;
    state.fog_enable = 1;
    state.fog_table_mode = 3;
    EXPECT(d3d9s_shader_key_from_state(ps, &state, &key), D3D9S_STATUS_OK);
    CHECK(key.alpha_func == 5 && key.fog == 0);
    EXPECT(d3d9s_shader_key_from_state(vs, &state, &key), D3D9S_STATUS_OK);
    CHECK(key.alpha_func == 8 && key.fog == 0);
    D3d9sShader *ps2 = assemble(PS2);
    EXPECT(d3d9s_shader_key_from_state(ps2, &state, &key), D3D9S_STATUS_OK);
    CHECK(key.alpha_func == 5 && key.fog == 3);
    d3d9s_shader_free(ps2);
}

/* ps_1_3 `tex t0` with D3DTSS_TEXTURETRANSFORMFLAGS 0xffffffff (PROJECTED, no valid count):
 * behind the fixed-function vertex stage with a three-component coordinate it divides by z (the
 * key's projected 3), behind a vertex shader by w (4); a state of the first layout (without the
 * fixed-function fields) reads as behind a vertex shader. */
static void projection(void) {
    D3d9sShader *ps = assemble("ps_1_3\n tex t0\n mov r0, t0\n");
    D3d9sDeviceState state;
    D3d9sKey key;
    d3d9s_device_state_default(&state);
    CHECK(state.fixed_function_vertex == 0);
    state.texture_transform_flags[0] = 0xffffffffu;
    EXPECT(d3d9s_shader_key_from_state(ps, &state, &key), D3D9S_STATUS_OK);
    CHECK(key.projected[0] == 4);
    state.fixed_function_vertex = 1;
    state.fixed_function_texcoord_sizes[0] = 3;
    EXPECT(d3d9s_shader_key_from_state(ps, &state, &key), D3D9S_STATUS_OK);
    CHECK(key.projected[0] == 3);
    state.size = (uint32_t)offsetof(D3d9sDeviceState, fixed_function_vertex);
    EXPECT(d3d9s_shader_key_from_state(ps, &state, &key), D3D9S_STATUS_OK);
    CHECK(key.projected[0] == 4);
    d3d9s_shader_free(ps);
}

/* The alpha function and the fog mode delivered as overrides: one translation, the state's
 * modes as pipeline constants (D3DCMP_GREATER = 5, D3DFOG_LINEAR = 3). */
static void overrides(void) {
    D3d9sShader *ps = assemble(PS2);
    D3d9sKey key, modes;
    d3d9s_key_default(&key);
    key.delivery.alpha_func = 1;
    key.delivery.fog = 1;
    D3d9sTranslation *t = NULL, *special = NULL;
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_OK);
    size_t n = d3d9s_translation_override_count(t);
    CHECK(n >= 2);
    CHECK(d3d9s_translation_override_name(t, n) == NULL);
    D3d9sBuffer spv = {0};
    EXPECT(d3d9s_translation_spirv(t, 0, 0, &spv), D3D9S_STATUS_HAS_OVERRIDES);
    D3d9sDeviceState state;
    d3d9s_device_state_default(&state);
    state.alpha_test_enable = 1;
    state.alpha_func = 5;
    state.fog_enable = 1;
    state.fog_table_mode = 3;
    EXPECT(d3d9s_shader_key_from_state(ps, &state, &modes), D3D9S_STATUS_OK);
    size_t count = 0;
    EXPECT(d3d9s_translation_pipeline_constants(t, &modes, NULL, 0, &count), D3D9S_STATUS_OK);
    CHECK(count == n);
    D3d9sPipelineConstant constants[32];
    EXPECT(d3d9s_translation_pipeline_constants(t, &modes, constants, 32, &count), D3D9S_STATUS_OK);
    int alpha = 0, fog = 0;
    for (size_t i = 0; i < count && i < 32; i++) {
        if (strcmp(constants[i].name, "alpha_func") == 0) alpha = constants[i].value == 5.0;
        if (strcmp(constants[i].name, "fog_mode") == 0) fog = constants[i].value == 3.0;
    }
    CHECK(alpha && fog);
    EXPECT(d3d9s_translation_specialise(t, &modes, &special), D3D9S_STATUS_OK);
    CHECK(d3d9s_translation_override_count(special) == 0);
    EXPECT(d3d9s_translation_spirv(special, 0, 0, &spv), D3D9S_STATUS_OK);
    CHECK(spv.len > 0);
    d3d9s_buffer_free(&spv);
    d3d9s_translation_free(special);
    d3d9s_translation_free(t);
    d3d9s_shader_free(ps);
}

/* The render-state block: fog colour at byte 0, the alpha reference's low byte as a float at
 * byte 28, the alpha function (uniform delivery) at byte 464 (the library's block layout); and
 * D3DDECLTYPE_D3DCOLOR, stored B, G, R, A, as unorm8x4 with the red/blue swap. */
static void state_block_and_formats(D3d9sShader *ps) {
    D3d9sRenderState rs;
    EXPECT(d3d9s_render_state_default(&rs), D3D9S_STATUS_OK);
    CHECK(rs.fog_end == 1.0f && rs.point_size_max == 64.0f);
    rs.fog_color[2] = 1.0f;
    rs.alpha_ref = 0x180;
    D3d9sDeviceState state;
    d3d9s_device_state_default(&state);
    state.alpha_test_enable = 1;
    state.alpha_func = 5;
    D3d9sKey modes;
    EXPECT(d3d9s_shader_key_from_state(ps, &state, &modes), D3D9S_STATUS_OK);
    D3d9sBuffer b = {0};
    EXPECT(d3d9s_render_state_bytes(&rs, &modes, &b), D3D9S_STATUS_OK);
    CHECK(b.len == D3D9S_RENDER_STATE_SIZE);
    if (b.len == D3D9S_RENDER_STATE_SIZE) {
        float f;
        uint32_t u;
        memcpy(&f, b.data + 8, 4);
        CHECK(f == 1.0f);
        memcpy(&f, b.data + 28, 4);
        CHECK(f == 128.0f / 255.0f);
        memcpy(&u, b.data + 464, 4);
        CHECK(u == 5);
    }
    d3d9s_buffer_free(&b);
    rs.size = 0;
    EXPECT(d3d9s_render_state_bytes(&rs, NULL, &b), D3D9S_STATUS_BAD_STRUCT_SIZE);
    D3d9sVertexFormat vf;
    EXPECT(d3d9s_vertex_format(4, &vf), D3D9S_STATUS_OK);
    CHECK(strcmp(vf.format, "unorm8x4") == 0 && vf.components == 4 && vf.size == 4 && vf.conversion == 1);
    EXPECT(d3d9s_vertex_format(2, &vf), D3D9S_STATUS_OK);
    CHECK(strcmp(vf.format, "float32x3") == 0 && vf.components == 3 && vf.size == 12);
    CHECK(vf.scalar == D3D9S_SCALAR_FLOAT && vf.conversion == 0);
    EXPECT(d3d9s_vertex_format(D3D9S_DECLTYPE_UNUSED, &vf), D3D9S_STATUS_INVALID_ARGUMENT);
}

/* The same shader handle translated by four threads at once gives the same WGSL each time. */
static void *translate_twice(void *arg) {
    D3d9sShader *ps = arg;
    D3d9sKey key;
    d3d9s_key_default(&key);
    size_t len = 0;
    for (int i = 0; i < 8; i++) {
        D3d9sTranslation *t = NULL;
        D3d9sBuffer wgsl = {0};
        if (d3d9s_shader_translate(ps, &key, &t, NULL) != D3D9S_STATUS_OK) return (void *)1;
        if (d3d9s_translation_wgsl(t, &wgsl) != D3D9S_STATUS_OK) return (void *)1;
        if (i > 0 && wgsl.len != len) return (void *)1;
        len = wgsl.len;
        d3d9s_buffer_free(&wgsl);
        d3d9s_translation_free(t);
    }
    return NULL;
}

static void threads(D3d9sShader *ps) {
    pthread_t th[4];
    for (int i = 0; i < 4; i++) CHECK(pthread_create(&th[i], NULL, translate_twice, ps) == 0);
    for (int i = 0; i < 4; i++) {
        void *result = (void *)1;
        CHECK(pthread_join(th[i], &result) == 0);
        CHECK(result == NULL);
    }
}

/* Direct3D 8's rules: vertex shaders need no dcl (the declaration maps the inputs), and the
 * models stop at vs_1_1 and ps_1_4. */
static void d3d8(void) {
    static const char VS11[] = "vs_1_1\nmov oPos, v0\n";
    static const char VS20[] = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
    D3d9sParseOptions options;
    EXPECT(d3d9s_parse_options_default(&options), D3D9S_STATUS_OK);
    options.api = D3D9S_API_D3D8;
    options.strict = 1;
    D3d9sShader *s = NULL;
    EXPECT(d3d9s_shader_assemble(VS11, strlen(VS11), &options, &s, NULL), D3D9S_STATUS_OK);
    d3d9s_shader_free(s);
    s = NULL;
    EXPECT(d3d9s_shader_assemble(VS20, strlen(VS20), &options, &s, NULL), D3D9S_STATUS_INVALID_SHADER);
    CHECK(s == NULL);
}

int main(void) {
    CHECK(strlen(d3d9s_version()) > 0);
    d3d8();
    D3d9sShader *vs = assemble(VS);
    D3d9sShader *ps = assemble(PS);
    reflection(vs, ps);
    linking(vs, ps);
    keys(vs, ps);
    overrides();
    projection();
    state_block_and_formats(ps);
    threads(ps);
    d3d9s_shader_free(vs);
    d3d9s_shader_free(ps);
    if (failures) {
        fprintf(stderr, "api: %d checks failed\n", failures);
        return 1;
    }
    printf("api: every check passed\n");
    return 0;
}
