/*
 * The C API's error paths: NULL pointers, bad struct sizes, bad blobs (with their token and
 * byte offset), invalid shaders, out-of-range fields and indices each return their documented
 * code, and a failing call leaves its outputs NULL or empty.
 * Run under AddressSanitizer by capi/tests/c_api.rs: every output is freed.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "d3d9_shader.h"

static const char PS[] =
    "ps_3_0\n dcl_texcoord v0.xy\n dcl_color1 v1\n dcl_2d s0\n texld r0, v0, s0\n mul oC0, r0, v1\n";
/* Reads r0 before writing it: the runtime refuses it, lenient validation warns. */
static const char UNINIT[] = "ps_2_0\nmov oC0, r0\n";

static D3d9sShader *assemble(const char *text) {
    D3d9sShader *s = NULL;
    EXPECT(d3d9s_shader_assemble(text, strlen(text), NULL, &s, NULL), D3D9S_STATUS_OK);
    return s;
}

static void null_pointers(void) {
    D3d9sShader *s = NULL;
    D3d9sError *e = NULL;
    EXPECT(d3d9s_shader_parse(NULL, 4, NULL, &s, &e), D3D9S_STATUS_NULL_POINTER);
    CHECK(s == NULL && e != NULL && d3d9s_error_status(e) == D3D9S_STATUS_NULL_POINTER);
    d3d9s_error_free(e);
    CHECK(strstr(d3d9s_last_error_message(), "bytes") != NULL);
    unsigned char blob[4] = {0x00, 0x02, 0xff, 0xff};
    EXPECT(d3d9s_shader_parse(blob, 4, NULL, NULL, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_shader_assemble(NULL, 0, NULL, &s, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_key_default(NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_parse_options_default(NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_device_state_default(NULL), D3D9S_STATUS_NULL_POINTER);
    D3d9sKey key;
    d3d9s_key_default(&key);
    D3d9sTranslation *t = NULL;
    EXPECT(d3d9s_shader_translate(NULL, &key, &t, NULL), D3D9S_STATUS_NULL_POINTER);
    CHECK(t == NULL);
    D3d9sShader *ps = assemble(PS);
    EXPECT(d3d9s_shader_translate(ps, NULL, &t, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_shader_translate(ps, &key, NULL, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_shader_info(ps, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_shader_info(NULL, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_shader_minimal_key(ps, &key, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_shader_cache_hash(ps, &key, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_link(NULL, ps, NULL, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_linkage_stable(NULL), D3D9S_STATUS_NULL_POINTER);
    D3d9sBuffer b = {0};
    EXPECT(d3d9s_translation_wgsl(NULL, &b), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_translation_spirv(NULL, 0, 0, &b), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_OK);
    EXPECT(d3d9s_translation_wgsl(t, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_translation_spirv(t, 0, 0, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_translation_layout(t, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_translation_interface(t, D3D9S_INTERFACE_INPUTS, 0, NULL, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_translation_pipeline_constants(t, &key, NULL, 0, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_translation_specialise(t, &key, NULL), D3D9S_STATUS_NULL_POINTER);
    CHECK(d3d9s_translation_override_count(NULL) == 0 && d3d9s_translation_override_name(NULL, 0) == NULL);
    CHECK(d3d9s_error_message(NULL) == NULL && d3d9s_error_diagnostic_count(NULL) == 0);
    EXPECT(d3d9s_error_status(NULL), D3D9S_STATUS_NULL_POINTER);
    /* Frees take NULL. */
    d3d9s_shader_free(NULL);
    d3d9s_translation_free(NULL);
    d3d9s_linkage_free(NULL);
    d3d9s_error_free(NULL);
    d3d9s_buffer_free(NULL);
    d3d9s_buffer_free(&b);
    d3d9s_translation_free(t);
    d3d9s_shader_free(ps);
}

static void bad_sizes_and_fields(void) {
    D3d9sShader *ps = assemble(PS);
    D3d9sKey key;
    D3d9sTranslation *t = NULL;
    d3d9s_key_default(&key);
    CHECK(key.size == sizeof(D3d9sKey));
    key.size = 4;
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_BAD_STRUCT_SIZE);
    key.size = sizeof(D3d9sKey) + 4;
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_BAD_STRUCT_SIZE);
    EXPECT(d3d9s_shader_minimal_key(ps, &key, &key), D3D9S_STATUS_BAD_STRUCT_SIZE);
    CHECK(t == NULL);
    /* D3DCMPFUNC runs from 1 (never) to 8 (always); the fog mode from 0 to 4. */
    d3d9s_key_default(&key);
    key.alpha_func = 0;
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_INVALID_ARGUMENT);
    d3d9s_key_default(&key);
    key.fog = 5;
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_INVALID_ARGUMENT);
    d3d9s_key_default(&key);
    key.point_sprite = 2;
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_INVALID_ARGUMENT);
    d3d9s_key_default(&key);
    key.sampler_types[0] = 1; /* 1D is not a type the key takes */
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_INVALID_ARGUMENT);
    d3d9s_key_default(&key);
    key.vertex_inputs[0] = 18;
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_INVALID_ARGUMENT);
    d3d9s_key_default(&key);
    key.delivery.fog = 3;
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_INVALID_ARGUMENT);
    CHECK(t == NULL);
    D3d9sParseOptions options;
    d3d9s_parse_options_default(&options);
    D3d9sShader *s = NULL;
    options.size = 0;
    EXPECT(d3d9s_shader_assemble(PS, strlen(PS), &options, &s, NULL), D3D9S_STATUS_BAD_STRUCT_SIZE);
    d3d9s_parse_options_default(&options);
    options.api = 7;
    EXPECT(d3d9s_shader_assemble(PS, strlen(PS), &options, &s, NULL), D3D9S_STATUS_INVALID_ARGUMENT);
    D3d9sDeviceState state;
    d3d9s_device_state_default(&state);
    state.size = 8;
    EXPECT(d3d9s_shader_key_from_state(ps, &state, &key), D3D9S_STATUS_BAD_STRUCT_SIZE);
    d3d9s_device_state_default(&state);
    state.textures[3] = 9;
    EXPECT(d3d9s_shader_key_from_state(ps, &state, &key), D3D9S_STATUS_INVALID_ARGUMENT);
    /* Indices past the counts. */
    D3d9sShaderInfo info;
    EXPECT(d3d9s_shader_info(ps, &info), D3D9S_STATUS_OK);
    D3d9sIoRegister io;
    EXPECT(d3d9s_shader_input(ps, info.input_count, &io), D3D9S_STATUS_INVALID_ARGUMENT);
    D3d9sSamplerInfo sampler;
    EXPECT(d3d9s_shader_sampler(ps, info.sampler_count, &sampler), D3D9S_STATUS_INVALID_ARGUMENT);
    D3d9sConstantInfo constants;
    EXPECT(d3d9s_shader_constants(ps, 3, &constants), D3D9S_STATUS_INVALID_ARGUMENT);
    d3d9s_key_default(&key);
    EXPECT(d3d9s_shader_translate(ps, &key, &t, NULL), D3D9S_STATUS_OK);
    D3d9sBuffer spv = {0};
    EXPECT(d3d9s_translation_spirv(t, 2, 0, &spv), D3D9S_STATUS_INVALID_ARGUMENT);
    EXPECT(d3d9s_translation_spirv(t, 1, 7, &spv), D3D9S_STATUS_INVALID_ARGUMENT);
    EXPECT(d3d9s_translation_interface(t, 2, 0, NULL, &(size_t){0}), D3D9S_STATUS_INVALID_ARGUMENT);
    CHECK(spv.data == NULL && spv.len == 0);
    d3d9s_translation_free(t);
    d3d9s_shader_free(ps);
}

static void bad_blobs(void) {
    D3d9sShader *s = NULL;
    D3d9sError *e = NULL;
    /* Five bytes: not a whole number of DWORD tokens. */
    unsigned char odd[5] = {0x00, 0x02, 0xff, 0xff, 0x00};
    EXPECT(d3d9s_shader_parse(odd, sizeof odd, NULL, &s, &e), D3D9S_STATUS_BAD_BLOB);
    CHECK(s == NULL && e != NULL && d3d9s_error_status(e) == D3D9S_STATUS_BAD_BLOB);
    CHECK(d3d9s_error_message(e) != NULL && d3d9s_error_message(e)[0] != '\0');
    d3d9s_error_free(e);
    /* ps_2_0 (0xFFFF0200), then token 1 with opcode 0xEE, which D3D9 does not define. */
    uint32_t tokens[3] = {0xFFFF0200u, 0x000000EEu, 0x0000FFFFu};
    EXPECT(d3d9s_shader_parse((const uint8_t *)tokens, sizeof tokens, NULL, &s, &e), D3D9S_STATUS_BAD_BLOB);
    D3d9sDiagnostic d;
    CHECK(d3d9s_error_diagnostic_count(e) == 1);
    EXPECT(d3d9s_error_diagnostic(e, 0, &d), D3D9S_STATUS_OK);
    CHECK(d.token == 1 && d.byte_offset == 4 && d.message != NULL);
    EXPECT(d3d9s_error_diagnostic(e, 1, &d), D3D9S_STATUS_INVALID_ARGUMENT);
    EXPECT(d3d9s_error_diagnostic(e, 0, NULL), D3D9S_STATUS_NULL_POINTER);
    d3d9s_error_free(e);
    /* An empty blob has no version token. */
    EXPECT(d3d9s_shader_parse(odd, 0, NULL, &s, NULL), D3D9S_STATUS_BAD_BLOB);
    /* Strict validation refuses the read of an unwritten r0 at the mov, token 1 (byte 4). */
    D3d9sParseOptions strict;
    d3d9s_parse_options_default(&strict);
    strict.strict = 1;
    EXPECT(d3d9s_shader_assemble(UNINIT, strlen(UNINIT), &strict, &s, &e), D3D9S_STATUS_INVALID_SHADER);
    CHECK(e != NULL && d3d9s_error_diagnostic_count(e) >= 1);
    EXPECT(d3d9s_error_diagnostic(e, 0, &d), D3D9S_STATUS_OK);
    CHECK(d.rule != NULL && d.token == 1 && d.byte_offset == 4 && d.instruction == 0);
    d3d9s_error_free(e);
    /* Lenient validation lets it through with the same diagnostic as a warning. */
    EXPECT(d3d9s_shader_assemble(UNINIT, strlen(UNINIT), NULL, &s, &e), D3D9S_STATUS_OK);
    CHECK(e == NULL);
    D3d9sShaderInfo info;
    EXPECT(d3d9s_shader_info(s, &info), D3D9S_STATUS_OK);
    CHECK(info.warning_count >= 1);
    EXPECT(d3d9s_shader_warning(s, 0, &d), D3D9S_STATUS_OK);
    CHECK(d.token == 1 && d.rule != NULL);
    EXPECT(d3d9s_shader_warning(s, info.warning_count, &d), D3D9S_STATUS_INVALID_ARGUMENT);
    d3d9s_shader_free(s);
    /* An effect starts with 0xFEFF0901 (or XNA's wrapper): another word at byte 0 is refused. */
    uint32_t not_fx[4] = {0x12345678u, 0, 0, 0};
    D3d9sEffect *fx = NULL;
    EXPECT(d3d9s_effect_parse((const uint8_t *)not_fx, sizeof not_fx, &fx, &e), D3D9S_STATUS_BAD_EFFECT);
    CHECK(fx == NULL && e != NULL && strstr(d3d9s_error_message(e), "byte 0") != NULL);
    d3d9s_error_free(e);
    EXPECT(d3d9s_effect_parse(NULL, 0, &fx, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_effect_parse((const uint8_t *)not_fx, sizeof not_fx, NULL, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_effect_info(NULL, NULL), D3D9S_STATUS_NULL_POINTER);
    d3d9s_effect_free(NULL);
    /* The smallest effect (docs/effects.md's layout): the magic, structure offset 0, then no
     * parameters, no techniques, the unknown word, no objects, no inline objects, no resources.
     * Its run-time has no technique to begin, no parameter to find, no pass to end. */
    uint32_t empty_fx[8] = {0xFEFF0901u, 0, 0, 0, 0, 0, 0, 0};
    EXPECT(d3d9s_effect_parse((const uint8_t *)empty_fx, sizeof empty_fx, &fx, NULL), D3D9S_STATUS_OK);
    D3d9sEffectRuntime *rt = NULL;
    EXPECT(d3d9s_effect_runtime_new(fx, &rt), D3D9S_STATUS_OK);
    /* D3DXCreateEffectEx's skip list: names no shader binds are accepted, NULL skips nothing. */
    D3d9sEffectRuntime *skipping = NULL;
    EXPECT(d3d9s_effect_runtime_new_skipping(fx, " a; b[1] ", &skipping), D3D9S_STATUS_OK);
    d3d9s_effect_runtime_free(skipping);
    EXPECT(d3d9s_effect_runtime_new_skipping(fx, NULL, &skipping), D3D9S_STATUS_OK);
    d3d9s_effect_runtime_free(skipping);
    EXPECT(d3d9s_effect_runtime_new_skipping(NULL, "a", &skipping), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_effect_runtime_new_skipping(fx, "a", NULL), D3D9S_STATUS_NULL_POINTER);
    d3d9s_effect_free(fx); /* the run-time keeps the effect alive */
    size_t passes = 9;
    EXPECT(d3d9s_effect_runtime_begin(rt, &passes), D3D9S_STATUS_EFFECT_REFUSED);
    EXPECT(d3d9s_effect_runtime_set_technique(rt, 0), D3D9S_STATUS_BAD_HANDLE);
    uint32_t h = 0;
    EXPECT(d3d9s_effect_runtime_parameter(rt, "World", &h), D3D9S_STATUS_EFFECT_REFUSED);
    EXPECT(d3d9s_effect_runtime_parameter(rt, NULL, &h), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_effect_runtime_end_pass(rt), D3D9S_STATUS_EFFECT_REFUSED);
    D3d9sPassState *pass = NULL;
    EXPECT(d3d9s_effect_runtime_begin_pass(rt, 0, &pass), D3D9S_STATUS_EFFECT_REFUSED);
    EXPECT(d3d9s_effect_runtime_commit(rt, &pass), D3D9S_STATUS_EFFECT_REFUSED);
    CHECK(pass == NULL);
    EXPECT(d3d9s_effect_runtime_set_floats(rt, 0, NULL, 4), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_effect_runtime_end(rt), D3D9S_STATUS_OK);
    d3d9s_effect_runtime_free(rt);
    EXPECT(d3d9s_effect_runtime_end(NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_pass_state_info(NULL, NULL), D3D9S_STATUS_NULL_POINTER);
    CHECK(d3d9s_pass_state_error(NULL, 0) == NULL);
    d3d9s_effect_runtime_free(NULL);
    d3d9s_pass_state_free(NULL);
    /* A fixed-function state with a render state D3D9 does not have names it. */
    static const char BAD_STATE[] = "[render_states]\nNOT_A_STATE = 1\n";
    D3d9sFfp *ffp = NULL;
    EXPECT(d3d9s_ffp_generate(BAD_STATE, strlen(BAD_STATE), D3D9S_FFP_KEYED, &ffp, &e), D3D9S_STATUS_INVALID_ARGUMENT);
    CHECK(ffp == NULL && e != NULL && strstr(d3d9s_error_message(e), "NOT_A_STATE") != NULL);
    d3d9s_error_free(e);
    EXPECT(d3d9s_ffp_generate("", 0, 2, &ffp, NULL), D3D9S_STATUS_INVALID_ARGUMENT);
    EXPECT(d3d9s_ffp_generate(NULL, 0, D3D9S_FFP_KEYED, &ffp, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_ffp_generate("", 0, D3D9S_FFP_KEYED, &ffp, NULL), D3D9S_STATUS_OK);
    D3d9sBuffer b = {0};
    EXPECT(d3d9s_ffp_wgsl(ffp, 2, &b), D3D9S_STATUS_INVALID_ARGUMENT);
    EXPECT(d3d9s_ffp_wgsl(ffp, D3D9S_FFP_PIXEL, NULL), D3D9S_STATUS_NULL_POINTER);
    EXPECT(d3d9s_ffp_spirv(NULL, D3D9S_FFP_PIXEL, &b), D3D9S_STATUS_NULL_POINTER);
    /* Keyed halves read no state block. */
    EXPECT(d3d9s_ffp_state_bytes(ffp, D3D9S_FFP_PIXEL, &b), D3D9S_STATUS_OK);
    CHECK(b.len == 0 && b.data == NULL);
    d3d9s_ffp_free(ffp);
    d3d9s_ffp_free(NULL);
    D3d9sFfpVertexConstants vc;
    EXPECT(d3d9s_ffp_vertex_constants_default(&vc), D3D9S_STATUS_OK);
    vc.light_count = 9; /* at most 8 lights */
    EXPECT(d3d9s_ffp_vertex_constants_bytes(&vc, &b), D3D9S_STATUS_INVALID_ARGUMENT);
    vc.size = 0;
    EXPECT(d3d9s_ffp_vertex_constants_bytes(&vc, &b), D3D9S_STATUS_BAD_STRUCT_SIZE);
    EXPECT(d3d9s_ffp_pixel_constants_bytes(NULL, &b), D3D9S_STATUS_NULL_POINTER);
    CHECK(b.data == NULL);
}

int main(void) {
    null_pointers();
    bad_sizes_and_fields();
    bad_blobs();
    if (failures) {
        fprintf(stderr, "errors: %d checks failed\n", failures);
        return 1;
    }
    printf("errors: every check passed\n");
    return 0;
}
