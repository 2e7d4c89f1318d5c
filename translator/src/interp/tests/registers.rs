//! Register files and modifiers: swizzles, source modifiers, write masks, saturate, ps_1_x
//! shifts and constant clamp, relative addressing, `def` over API values.

use super::*;

#[test]
fn swizzles_and_write_masks() {
    // c0 = (1, 2, 3, 4); .wzyx reverses; .y replicates; a mask keeps the other components.
    let head = "vs_2_0\ndef c0, 1, 2, 3, 4\ndef c1, 9, 9, 9, 9\n";
    assert_eq!(pos(&format!("{head}mov oPos, c0.wzyx")), [4.0, 3.0, 2.0, 1.0]);
    assert_eq!(pos(&format!("{head}mov oPos, c0.y")), [2.0; 4]);
    assert_eq!(pos(&format!("{head}mov r0, c1\nmov r0.xz, c0\nmov oPos, r0")), [1.0, 9.0, 3.0, 9.0]);
}

#[test]
fn every_source_modifier() {
    // x = c0 = (0.25, -0.75, 2, 0).
    let cases: [(&str, [f32; 4]); 11] = [
        ("-c0", [-0.25, 0.75, -2.0, -0.0]),
        ("c0_bias", [-0.25, -1.25, 1.5, -0.5]),
        ("-c0_bias", [0.25, 1.25, -1.5, 0.5]),
        ("c0_bx2", [-0.5, -2.5, 3.0, -1.0]),
        ("-c0_bx2", [0.5, 2.5, -3.0, 1.0]),
        ("1-c0", [0.75, 1.75, -1.0, 1.0]),
        ("c0_x2", [0.5, -1.5, 4.0, 0.0]),
        ("-c0_x2", [-0.5, 1.5, -4.0, -0.0]),
        ("c0_abs", [0.25, 0.75, 2.0, 0.0]),
        ("-c0_abs", [-0.25, -0.75, -2.0, -0.0]),
        ("c0", [0.25, -0.75, 2.0, 0.0]),
    ];
    for (s, want) in cases {
        assert_eq!(pos(&format!("vs_2_0\ndef c0, 0.25, -0.75, 2, 0\nmov oPos, {s}")), want, "{s}");
    }
    // The modifier applies after the swizzle: -c0.x = −0.25 replicated.
    assert_eq!(pos("vs_2_0\ndef c0, 0.25, -0.75, 2, 0\nmov oPos, -c0.x"), [-0.25; 4]);
    // _dz / _dw divide before the swizzle (ps_1_4 texcrd): t0 = (2, 4, 2, 8): _dz → (1, 2, 1, 4).
    let mut input = PixelInput::default();
    input.t[0] = [2.0, 4.0, 2.0, 8.0];
    // r0 read as the shader left it (ps1x_r0), not saturated as it leaves
    // (docs/d3d9-rules.md#ps1x-output-clamp).
    let run = |m: &str| {
        let text = format!("ps_1_4\ntexcrd r0.xyz, t0{m}\nmov r0.w, c0.w");
        ps1x_r0(&text, &input, &Constants::default(), &Options::default(), &UnboundSampler)
    };
    // texcrd does not clamp (docs/opcodes.md): (2/2, 4/2, 2/2) = (1, 2, 1).
    assert_eq!(&run("_dz")[..3], &[1.0, 2.0, 1.0]);
    assert_eq!(&run("_dw")[..3], &[0.25, 0.5, 0.25]);
}

#[test]
fn saturate_and_ps1x_shifts() {
    // _sat clamps to [0, 1].
    assert_eq!(pos("vs_2_0\ndef c0, -1, 0.5, 2, 1\nmov_sat oPos, c0"), [0.0, 0.5, 1.0, 1.0]);
    // Shifts apply before saturate: 0.375·2 = 0.75, ·4 = 1.5 (sat → 1), /2 = 0.1875.
    let base = "ps_1_1\ndef c0, 0.375, 0.375, 0.375, 0.375\n";
    assert_eq!(color(&format!("{base}mov_x2 r0, c0")), [0.75; 4]);
    assert_eq!(color(&format!("{base}mov_x4_sat r0, c0")), [1.0; 4]);
    assert_eq!(color(&format!("{base}mov_d2 r0, c0")), [0.1875; 4]);
    // ps_1_4 adds x8 and d8: 0.375·8 = 3 (read inside the shader: r0 leaves it saturated,
    // docs/d3d9-rules.md#ps1x-output-clamp), 0.375/8 = 0.046875.
    assert_eq!(inside("ps_1_4\ndef c0, 0.375, 0.375, 0.375, 0.375\nmov_x8 r0, c0"), [3.0; 4]);
    assert_eq!(color("ps_1_4\ndef c0, 0.375, 0.375, 0.375, 0.375\nmov_d8 r0, c0"), [0.046875; 4]);
}

#[test]
fn ps1x_constants_clamp_to_unit_range_ps2_do_not() {
    // def c0 = (2, -3, 0.5, 1) and API c1 = (4, ...): ps_1_x reads (1, −1, 0.5, 1) and (1, ...).
    let c = floats(&[(1, [4.0, -4.0, 0.25, 0.0])]);
    let run = |v: &str, reg: &str, oc: &str| {
        let text = format!("{v}\ndef c0, 2, -3, 0.5, 1\nmov {oc}, {reg}");
        pixel(&text, &PixelInput::default(), &c, &Options::default(), &UnboundSampler).color[0].unwrap()
    };
    // ps_1_x r0 read as the shader left it (ps1x_r0), since r0 leaves saturated
    // (docs/d3d9-rules.md#ps1x-output-clamp) and would hide −1 as 0.
    let r0 = |v: &str, reg: &str| {
        let text = format!("{v}\ndef c0, 2, -3, 0.5, 1\nmov r0, {reg}");
        ps1x_r0(&text, &PixelInput::default(), &c, &Options::default(), &UnboundSampler)
    };
    assert_eq!(r0("ps_1_1", "c0"), [1.0, -1.0, 0.5, 1.0]);
    assert_eq!(
        r0("ps_1_4", "c0"),
        [1.0, -1.0, 0.5, 1.0],
        "ps_1_4 defs clamp too (docs/d3d9-rules.md#ps1x-constant-clamp)"
    );
    // API c1 = (4, −4, 0.25, 0) reads (1, −1, 0.25, 0).
    assert_eq!(r0("ps_1_3", "c1"), [1.0, -1.0, 0.25, 0.0]);
    // The output clamp hides −1 against −3; scaled into [0, 1] it shows: c0·0.25 + 0.5 with c0 read
    // as (1, −1, 0.5, 1) is (0.75, 0.25, 0.625, 0.75) (unclamped (2, −3, …) would give (1, 0, …)).
    let scaled =
        "ps_1_1\ndef c0, 2, -3, 0.5, 1\ndef c2, 0.25, 0.25, 0.25, 0.25\ndef c3, 0.5, 0.5, 0.5, 0.5\nmad r0, c0, c2, c3";
    let out = pixel(scaled, &PixelInput::default(), &c, &Options::default(), &UnboundSampler).color[0].unwrap();
    assert_eq!(out, [0.75, 0.25, 0.625, 0.75]);
    assert_eq!(run("ps_2_0", "c0", "oC0"), [2.0, -3.0, 0.5, 1.0]);
    assert_eq!(run("ps_2_0", "c1", "oC0"), [4.0, -4.0, 0.25, 0.0]);
}

#[test]
fn def_overrides_api_constants_also_through_relative_addressing() {
    // API: c0..c3 = 10, 11, 12, 13; def c2 = 99. c[a0.x + 1] with a0.x = 1 reads c2 = 99.
    let c = floats(&[(0, [10.0; 4]), (1, [11.0; 4]), (2, [12.0; 4]), (3, [13.0; 4]), (8, [1.0; 4])]);
    assert_eq!(pos_with("vs_2_0\ndef c2, 99, 99, 99, 99\nmov oPos, c2", &c), [99.0; 4]);
    assert_eq!(pos_with("vs_2_0\ndef c2, 99, 99, 99, 99\nmova a0.x, c8.x\nmov oPos, c[a0.x + 1]", &c), [99.0; 4]);
    assert_eq!(pos_with("vs_2_0\ndef c2, 99, 99, 99, 99\nmova a0.x, c8.x\nmov oPos, c[a0.x + 2]", &c), [13.0; 4]);
}

#[test]
fn relative_addressing_out_of_range_reads_zero() {
    // a0.x = −5: c[a0.x + 1] = c[−4] → 0; a0.y = 9000: beyond c8191 → 0.
    let c = floats(&[(0, [-5.0, 9000.0, 0.0, 0.0]), (1, [7.0; 4])]);
    assert_eq!(pos_with("vs_2_0\nmova a0.xy, c0\nmov oPos, c[a0.x + 1]", &c), [0.0; 4]);
    assert_eq!(pos_with("vs_2_0\nmova a0.xy, c0\nmov oPos, c[a0.y + 1]", &c), [0.0; 4]);
    // An API constant past the end of the caller's list reads 0, too.
    assert_eq!(pos_with("vs_2_0\nmov oPos, c200", &c), [0.0; 4]);
    // a0 components: a0.y = 9000 does not disturb a0.x reads.
    let c = floats(&[(0, [1.0, 9000.0, 0.0, 0.0]), (1, [7.0; 4]), (2, [8.0; 4])]);
    assert_eq!(pos_with("vs_2_0\nmova a0.xy, c0\nmov oPos, c[a0.x + 1]", &c), [8.0; 4]);
}

#[test]
fn loop_counter_relative_addressing_of_constants_inputs_and_outputs() {
    // loop aL from 0, 3 iterations: o[aL] = c[aL + 1]: o0..o2 = c1..c3.
    let p = "vs_3_0\ndcl_position o0\ndcl_texcoord0 o1\ndcl_texcoord1 o2\ndefi i0, 3, 0, 1, 0\n\
             def c1, 1, 1, 1, 1\ndef c2, 2, 2, 2, 2\ndef c3, 3, 3, 3, 3\nloop aL, i0\nmov o[aL], c[aL + 1]\nendloop";
    let out = vs_full(p, &[], &Constants::default(), &Options::default());
    assert_eq!(out.outputs[0].value, [1.0; 4]);
    assert_eq!(out.outputs[1].value, [2.0; 4]);
    assert_eq!(out.outputs[2].value, [3.0; 4]);
    // v[aL] in ps_3_0: aL = 1 → v1.
    let mut input = PixelInput::default();
    input.v[1] = [0.5; 4];
    let p = "ps_3_0\ndcl_texcoord0 v0\ndcl_texcoord1 v1\ndefi i0, 1, 1, 0, 0\nloop aL, i0\nmov r0, v[aL]\nendloop\nmov oC0, r0";
    assert_eq!(
        pixel(p, &input, &Constants::default(), &Options::default(), &UnboundSampler).color[0].unwrap(),
        [0.5; 4]
    );
}

#[test]
fn api_int_and_bool_constants_with_def_overrides() {
    // API i0 = (2, 0, 1, 0) counts 2 iterations; defi i1 overrides API i1 = (50, ...).
    let mut c = Constants::default();
    c.int[0] = [2, 0, 1, 0];
    c.int[1] = [50, 0, 0, 0];
    c.bool[0] = true;
    c.float = vec![[1.0; 4]];
    let p = "vs_2_0\ndefi i1, 3, 0, 0, 0\nmov r0, c1\nrep i0\nadd r0, r0, c0\nendrep\nrep i1\nadd r0, r0, c0\nendrep\nmov oPos, r0";
    assert_eq!(pos_with(p, &c), [5.0; 4], "2 + 3 iterations of +1");
    // defb b0 = false wins over the API's true.
    let p = "vs_2_0\ndefb b0, false\nmov r0, c1\nif b0\nmov r0, c0\nendif\nmov oPos, r0";
    assert_eq!(pos_with(p, &c), [0.0; 4]);
    let p = "vs_2_0\nmov r0, c1\nif b0\nmov r0, c0\nendif\nmov oPos, r0";
    assert_eq!(pos_with(p, &c), [1.0; 4]);
}

#[test]
fn sw_models_have_2048_integer_and_boolean_constants() {
    // vs_2_sw numbers i#/b# up to 2047 (the `_sw` register tables): `defi i20, 3` runs the
    // body three times, `defb b100, true` takes the branch, and an i# the program does not
    // define (the API sets only i0–i15) counts zero iterations.
    let c = Constants { float: vec![[1.0; 4]], ..Constants::default() };
    let p = "vs_2_sw\ndefi i20, 3, 0, 0, 0\ndefb b100, true\nmov r0, c1\nrep i20\nadd r0, r0, c0\nendrep\nif b100\nadd r0, r0, c0\nendif\nrep i21\nadd r0, r0, c0\nendrep\nmov oPos, r0";
    assert_eq!(pos_with(p, &c), [4.0; 4], "3 iterations, then the branch");
}

#[test]
fn coissued_pair_reads_values_from_before_the_pair() {
    // r0 = (0.25, 0.25, 0.25, 0.25); `mov r0.a, c1` + `add r0.rgb, r0, r0.a`: the add reads the old
    // r0.a = 0.25 → rgb 0.5, not 1.25.
    let p =
        "ps_1_1\ndef c0, 0.25, 0.25, 0.25, 0.25\ndef c1, 1, 1, 1, 1\nmov r0, c0\nmov r0.a, c1\n+add r0.rgb, r0, r0.a";
    assert_eq!(color(p), [0.5, 0.5, 0.5, 1.0]);
}
