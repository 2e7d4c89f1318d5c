/*
 * The boolean and integer constants of the key from C: their deliveries and values, and a key
 * of the first layout (before they were in it) still read. capi/tests/c_api.rs compares what
 * this writes with what the Rust API gives for the same keys.
 *
 * constants SHADER.asm OUT
 *
 * Writes into the folder OUT:
 * - baked.wgsl: both constants baked, b1 TRUE and i2 = (3, 0, 1, 0), the rest as set below;
 * - override.txt: under override delivery, the translation's pipeline constants, one
 *   "NAME VALUE" line each (VALUE printed with %.17g);
 * - specialised.wgsl: that translation specialised with the same key;
 * - v1.wgsl: translated under a key whose size is the first layout's (the default deliveries).
 * Exits 0 when every call gives its documented status, 1 otherwise.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "d3d9_shader.h"

/* The first D3d9sKey layout's size: the fields up to normalised_samplers. */
#define KEY_SIZE_V1 offsetof(D3d9sKey, delivery_bool_constants)

enum { BAKED = 0, OVERRIDE = 1, UNIFORM = 2 };

static char *read_text(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *text = malloc(65536);
    *len = text ? fread(text, 1, 65536, f) : 0;
    fclose(f);
    return text;
}

static void write_buffer(const char *dir, const char *name, const D3d9sBuffer *b) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    CHECK(fwrite(b->data, 1, b->len, f) == b->len);
    fclose(f);
}

/* Translates `shader` under `key` and writes its WGSL to DIR/NAME; the translation (or NULL). */
static D3d9sTranslation *translate_to(D3d9sShader *shader, const D3d9sKey *key, const char *dir, const char *name) {
    D3d9sTranslation *t = NULL;
    EXPECT(d3d9s_shader_translate(shader, key, &t, NULL), D3D9S_STATUS_OK);
    if (!t) return NULL;
    D3d9sBuffer wgsl = {0};
    EXPECT(d3d9s_translation_wgsl(t, &wgsl), D3D9S_STATUS_OK);
    write_buffer(dir, name, &wgsl);
    d3d9s_buffer_free(&wgsl);
    return t;
}

/* The key of the test: b1 TRUE (and b0, which the shader does not read), i2 = (3, 0, 1, 0). */
static D3d9sKey constants_key(uint32_t delivery) {
    D3d9sKey key;
    EXPECT(d3d9s_key_default(&key), D3D9S_STATUS_OK);
    CHECK(key.size == sizeof key && key.delivery_bool_constants == UNIFORM && key.delivery_int_constants == UNIFORM);
    key.delivery_bool_constants = delivery;
    key.delivery_int_constants = delivery;
    key.bool_constants = 0x3;
    const int32_t i2[4] = {3, 0, 1, 0};
    memcpy(key.int_constants[2], i2, sizeof i2);
    return key;
}

static void overrides(D3d9sShader *shader, const char *dir) {
    D3d9sKey key = constants_key(OVERRIDE);
    D3d9sTranslation *t = NULL;
    EXPECT(d3d9s_shader_translate(shader, &key, &t, NULL), D3D9S_STATUS_OK);
    if (!t) return;
    size_t count = 0;
    EXPECT(d3d9s_translation_pipeline_constants(t, &key, NULL, 0, &count), D3D9S_STATUS_OK);
    CHECK(count > 0);
    D3d9sPipelineConstant *c = calloc(count ? count : 1, sizeof *c);
    size_t again = 0;
    EXPECT(d3d9s_translation_pipeline_constants(t, &key, c, count, &again), D3D9S_STATUS_OK);
    CHECK(again == count);
    char path[4096];
    snprintf(path, sizeof path, "%s/override.txt", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    for (size_t i = 0; f && i < count; i++) fprintf(f, "%s %.17g\n", c[i].name, c[i].value);
    if (f) fclose(f);
    free(c);
    D3d9sTranslation *s = NULL;
    EXPECT(d3d9s_translation_specialise(t, &key, &s), D3D9S_STATUS_OK);
    D3d9sBuffer wgsl = {0};
    EXPECT(d3d9s_translation_wgsl(s, &wgsl), D3D9S_STATUS_OK);
    write_buffer(dir, "specialised.wgsl", &wgsl);
    d3d9s_buffer_free(&wgsl);
    d3d9s_translation_free(s);
    d3d9s_translation_free(t);
}

/* A caller built against the first header: its key is KEY_SIZE_V1 bytes, in a buffer of that
 * size exactly (AddressSanitizer catches a read or write past it). */
static void first_layout(D3d9sShader *shader, const char *dir) {
    D3d9sKey full;
    EXPECT(d3d9s_key_default(&full), D3D9S_STATUS_OK);
    D3d9sKey *old = malloc(KEY_SIZE_V1);
    D3d9sKey *minimal = malloc(KEY_SIZE_V1);
    memcpy(old, &full, KEY_SIZE_V1);
    old->size = (uint32_t)KEY_SIZE_V1;
    d3d9s_translation_free(translate_to(shader, old, dir, "v1.wgsl"));
    EXPECT(d3d9s_shader_minimal_key(shader, old, minimal), D3D9S_STATUS_OK);
    CHECK(minimal->size == KEY_SIZE_V1);
    old->size = (uint32_t)KEY_SIZE_V1 - 4;
    D3d9sTranslation *t = NULL;
    EXPECT(d3d9s_shader_translate(shader, old, &t, NULL), D3D9S_STATUS_BAD_STRUCT_SIZE);
    CHECK(t == NULL);
    free(minimal);
    free(old);
}

static void refusals(D3d9sShader *shader) {
    D3d9sTranslation *t = NULL;
    D3d9sKey key = constants_key(BAKED);
    key.delivery_int_constants = 3;
    EXPECT(d3d9s_shader_translate(shader, &key, &t, NULL), D3D9S_STATUS_INVALID_ARGUMENT);
    key = constants_key(BAKED);
    key.bool_constants = 0x10000; /* b16: there are 16 boolean registers */
    EXPECT(d3d9s_shader_translate(shader, &key, &t, NULL), D3D9S_STATUS_INVALID_ARGUMENT);
    CHECK(t == NULL);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: constants SHADER.asm OUT\n");
        return 2;
    }
    size_t len = 0;
    char *text = read_text(argv[1], &len);
    CHECK(text != NULL);
    if (!text) return 1;
    D3d9sShader *shader = NULL;
    EXPECT(d3d9s_shader_assemble(text, len, NULL, &shader, NULL), D3D9S_STATUS_OK);
    free(text);
    if (!shader) return 1;
    D3d9sKey baked = constants_key(BAKED);
    /* The minimal key keeps b1 (b0 is not read) and i2. */
    D3d9sKey minimal;
    EXPECT(d3d9s_shader_minimal_key(shader, &baked, &minimal), D3D9S_STATUS_OK);
    CHECK(minimal.bool_constants == 0x2 && minimal.int_constants[2][0] == 3 && minimal.int_constants[2][2] == 1);
    CHECK(minimal.delivery_bool_constants == BAKED && minimal.delivery_int_constants == BAKED);
    d3d9s_translation_free(translate_to(shader, &baked, argv[2], "baked.wgsl"));
    overrides(shader, argv[2]);
    first_layout(shader, argv[2]);
    refusals(shader);
    d3d9s_shader_free(shader);
    if (failures) {
        fprintf(stderr, "constants: %d checks failed\n", failures);
        return 1;
    }
    printf("constants: baked, override and first-layout keys checked\n");
    return 0;
}
