/*
 * Bad handles into the effect run-time: a parameter handle past the effect's (made up, or from
 * another effect), a technique or pass index past the count. Every call that takes one answers
 * D3D9S_STATUS_BAD_HANDLE with a message naming it, never D3D9S_STATUS_PANIC, writes no output,
 * and leaves the run-time usable.
 *
 * handles SAMPLE.fx   (the library's sample effect, which capi/tests/c_api.rs writes: one
 *                      parameter `float4 g_Color = (1, 0.5, 0, 1)` with one annotation, so
 *                      handles 0 and 1; one technique of one pass)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3d9_shader.h"
#include "read_file.h"
#include "check.h"

/* The call answered BAD_HANDLE and the thread's message names `what`. */
#define EXPECT_BAD(call, what)                                                                 \
    do {                                                                                       \
        EXPECT(call, D3D9S_STATUS_BAD_HANDLE);                                                 \
        CHECK(strstr(d3d9s_last_error_message(), what) != NULL);                               \
        if (strstr(d3d9s_last_error_message(), what) == NULL)                                  \
            fprintf(stderr, "  message: %s (wanted %s)\n", d3d9s_last_error_message(), what); \
    } while (0)

/* Each call that takes a parameter handle, with handle `h`, which names nothing in `rt`'s
 * effect; `name` is how the message names it. The outputs stay as they were. */
static void parameter_calls(D3d9sEffectRuntime *rt, uint32_t h, const char *name) {
    static const float FOUR[4] = {1, 2, 3, 4};
    static const int32_t INTS[4] = {1, 2, 3, 4};
    float matrix[16] = {0};
    const float *pointers[1] = {matrix};
    EXPECT_BAD(d3d9s_effect_runtime_set_floats(rt, h, FOUR, 4), name);
    EXPECT_BAD(d3d9s_effect_runtime_set_ints(rt, h, INTS, 4), name);
    EXPECT_BAD(d3d9s_effect_runtime_set_matrix_transpose_array(rt, h, matrix, 1), name);
    EXPECT_BAD(d3d9s_effect_runtime_set_matrix_transpose_pointer_array(rt, h, pointers, 1), name);
    EXPECT_BAD(d3d9s_effect_runtime_set_array_range(rt, h, 0, 1), name);
    float got[16];
    for (int i = 0; i < 16; i++) got[i] = 7.0f;
    EXPECT_BAD(d3d9s_effect_runtime_get_matrix_transpose(rt, h, got), name);
    /* No count of matrices makes a bad handle good. */
    EXPECT_BAD(d3d9s_effect_runtime_get_matrix_transpose_array(rt, h, got, 1), name);
    EXPECT_BAD(d3d9s_effect_runtime_get_matrix_transpose_array(rt, h, NULL, 0), name);
    for (int i = 0; i < 16; i++) CHECK(got[i] == 7.0f);
    int32_t value = 5;
    EXPECT_BAD(d3d9s_effect_runtime_get_int(rt, h, &value), name);
    CHECK(value == 5);
    /* A NULL output is found first, as for a good handle. */
    EXPECT(d3d9s_effect_runtime_get_int(rt, h, NULL), D3D9S_STATUS_NULL_POINTER);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: handles SAMPLE.fx\n");
        return 2;
    }
    size_t len = 0;
    unsigned char *blob = read_file(argv[1], &len);
    if (!blob) {
        fprintf(stderr, "handles: cannot read %s\n", argv[1]);
        return 2;
    }
    D3d9sEffect *fx = NULL;
    D3d9sEffectRuntime *rt = NULL;
    EXPECT(d3d9s_effect_parse(blob, len, &fx, NULL), D3D9S_STATUS_OK);
    free(blob);
    EXPECT(d3d9s_effect_runtime_new(fx, &rt), D3D9S_STATUS_OK);
    uint32_t color = 99;
    EXPECT(d3d9s_effect_runtime_parameter(rt, "g_Color", &color), D3D9S_STATUS_OK);
    CHECK(color == 0);

    /* Handles 0 (g_Color) and 1 (its annotation) exist; 2 on do not. */
    parameter_calls(rt, 2, "parameter handle 2 is out of range (valid: below 2)");
    parameter_calls(rt, UINT32_MAX, "parameter handle 4294967295");
    /* A handle of another effect: the smallest effect (errors.c) has no parameter at all, so
     * g_Color's handle names nothing in its run-time. */
    uint32_t empty_fx[8] = {0xFEFF0901u, 0, 0, 0, 0, 0, 0, 0};
    D3d9sEffect *empty = NULL;
    D3d9sEffectRuntime *other = NULL;
    EXPECT(d3d9s_effect_parse((const uint8_t *)empty_fx, sizeof empty_fx, &empty, NULL), D3D9S_STATUS_OK);
    EXPECT(d3d9s_effect_runtime_new(empty, &other), D3D9S_STATUS_OK);
    parameter_calls(other, color, "parameter handle 0 is out of range (valid: below 0)");
    EXPECT_BAD(d3d9s_effect_runtime_set_technique(other, 0), "technique 0 is out of range (valid: below 0)");
    d3d9s_effect_runtime_free(other);
    d3d9s_effect_free(empty);

    /* Techniques and passes: one of each. */
    EXPECT_BAD(d3d9s_effect_runtime_set_technique(rt, 1), "technique 1 is out of range (valid: below 1)");
    EXPECT_BAD(d3d9s_effect_runtime_set_technique(rt, SIZE_MAX), "technique ");
    EXPECT(d3d9s_effect_runtime_set_technique(rt, 0), D3D9S_STATUS_OK);
    size_t passes = 0;
    EXPECT(d3d9s_effect_runtime_begin(rt, &passes), D3D9S_STATUS_OK);
    CHECK(passes == 1);
    D3d9sPassState *state = NULL;
    EXPECT_BAD(d3d9s_effect_runtime_begin_pass(rt, 1, &state), "pass 1 is out of range (valid: below 1)");
    EXPECT_BAD(d3d9s_effect_runtime_begin_pass(rt, SIZE_MAX, &state), "pass ");
    CHECK(state == NULL);

    /* The run-time is as it was: the pass begins, and g_Color reads its default, packed as the
     * D3DCOLOR 0xAARRGGBB of (1, 0.5, 0, 1): a = r = ff, g = trunc(0.5 x 255) = 7f, b = 00. */
    EXPECT(d3d9s_effect_runtime_begin_pass(rt, 0, &state), D3D9S_STATUS_OK);
    CHECK(state != NULL);
    d3d9s_pass_state_free(state);
    EXPECT(d3d9s_effect_runtime_end_pass(rt), D3D9S_STATUS_OK);
    EXPECT(d3d9s_effect_runtime_end(rt), D3D9S_STATUS_OK);
    int32_t packed = 0;
    EXPECT(d3d9s_effect_runtime_get_int(rt, color, &packed), D3D9S_STATUS_OK);
    CHECK((uint32_t)packed == 0xffff7f00u);

    d3d9s_effect_runtime_free(rt);
    d3d9s_effect_free(fx);
    if (failures) {
        fprintf(stderr, "handles: %d checks failed\n", failures);
        return 1;
    }
    printf("handles: every bad handle answered BAD_HANDLE\n");
    return 0;
}
