//! One test per lowering rule of the pixel stage and of texture sampling; expectations derived by
//! hand in each test.

use super::eval::{Outcome, Value};
use super::rules::*;
use super::*;
use crate::bytecode::registers::misc;
use crate::bytecode::{Opcode as O, RegisterType as R};
use crate::key::delivery::Delivery;
use crate::key::{AlphaPrecision, CompareFunc, FogMode, FogSource};

#[test]
fn cmp_picks_src1_for_negative_zero_and_cnd_compares_with_half() {
    // cmp: (−0 ≥ 0, −1 ≥ 0, 0 ≥ 0, NaN ≥ 0) = (T, F, T, F).
    let p = vec![
        def(0, [-0.0, -1.0, 0.0, f32::NAN]),
        def(1, [1.0; 4]),
        def(2, [2.0; 4]),
        op(O::Cmp, oc0("xyzw"), &[c(0), c(1), c(2)]),
    ];
    assert_eq!(color(ps(PS2X, p, &Run::default())), [1.0, 2.0, 1.0, 2.0]);
}

#[test]
fn texkill_kills_on_any_negative_written_component_and_alpha_test_runs_after() {
    let kill = |m: &str| op(O::TexKill, Some(dst(R::Temp, 0, m)), &[]);
    let base =
        vec![def(0, [1.0, -1.0, 1.0, 0.5]), op(O::Mov, rd(0, "xyzw"), &[c(0)]), op(O::Mov, oc0("xyzw"), &[c(0)])];
    let mut p = base.clone();
    p.push(kill("xz"));
    assert!(matches!(ps(PS2X, p, &Run::default()), Outcome::Output(_)), "x and z are not negative");
    let mut p = base.clone();
    p.push(kill("xyzw"));
    assert!(matches!(ps(PS2X, p, &Run::default()), Outcome::Killed));
    // Alpha test greater than 0.6: alpha 0.5 fails.
    let key = ShaderKey { alpha_func: CompareFunc::Greater, ..ShaderKey::default() };
    let rs = |v: f32| vec![(4usize, Value::F(v))];
    let run = Run { key: key.clone(), render_state: rs(0.6), ..Run::default() };
    assert!(matches!(ps(PS2X, base.clone(), &run), Outcome::Killed));
    let run = Run { key, render_state: rs(0.4), ..Run::default() };
    assert_eq!(color(ps(PS2X, base, &run)), [1.0, -1.0, 1.0, 0.5]);
}

#[test]
fn alpha_test_compares_eight_bit_values() {
    // docs/d3d9-rules.md#alpha-test: alpha 0.25 is the byte round(63.75) = 64, equal to ALPHAREF 64 (stored as
    // 64/255 = 0.25098): GREATEREQUAL passes and LESS fails, although 0.25 < 0.25098 as floats.
    let p = vec![def(0, [0.25, 0.5, 0.75, 0.25]), op(O::Mov, oc0("xyzw"), &[c(0)])];
    let run = |f: CompareFunc| Run {
        key: ShaderKey { alpha_func: f, ..ShaderKey::default() },
        render_state: vec![(4usize, Value::F(64.0 / 255.0))],
        ..Run::default()
    };
    assert_eq!(color(ps(PS2X, p.clone(), &run(CompareFunc::GreaterEqual))), [0.25, 0.5, 0.75, 0.25]);
    assert_eq!(color(ps(PS2X, p.clone(), &run(CompareFunc::Equal))), [0.25, 0.5, 0.75, 0.25]);
    assert!(matches!(ps(PS2X, p.clone(), &run(CompareFunc::Less)), Outcome::Killed));
    assert!(matches!(ps(PS2X, p, &run(CompareFunc::Greater)), Outcome::Killed));
}

#[test]
fn alpha_test_on_a_float_target_compares_the_unclamped_alpha() {
    // docs/d3d9-rules.md#alpha-test: on a float target alpha 1.5 passes GREATER against ALPHAREF 255 (1.0) and
    // fails EQUAL; the 8-bit comparison would saturate it to 255 (GREATER fails, EQUAL passes). Alpha 0.25 is
    // below 64/255 = 0.25098 as a float: GREATEREQUAL fails, LESS passes.
    let p = |a: f32| vec![def(0, [0.0, 1.0, 0.0, a]), op(O::Mov, oc0("xyzw"), &[c(0)])];
    let run = |f: CompareFunc, precision: AlphaPrecision, reference: f32| Run {
        key: ShaderKey { alpha_func: f, alpha_precision: precision, ..ShaderKey::default() },
        render_state: vec![(4usize, Value::F(reference / 255.0))],
        ..Run::default()
    };
    let (fl, u8p) = (AlphaPrecision::Float, AlphaPrecision::Unorm8);
    assert_eq!(color(ps(PS2X, p(1.5), &run(CompareFunc::Greater, fl, 255.0))), [0.0, 1.0, 0.0, 1.5]);
    assert!(matches!(ps(PS2X, p(1.5), &run(CompareFunc::Equal, fl, 255.0)), Outcome::Killed));
    assert!(matches!(ps(PS2X, p(1.5), &run(CompareFunc::Greater, u8p, 255.0)), Outcome::Killed));
    assert!(matches!(ps(PS2X, p(0.25), &run(CompareFunc::GreaterEqual, fl, 64.0)), Outcome::Killed));
    assert_eq!(color(ps(PS2X, p(0.25), &run(CompareFunc::Less, fl, 64.0))), [0.0, 1.0, 0.0, 0.25]);
}

#[test]
fn vpos_is_the_top_left_corner_and_vface_is_plus_minus_one() {
    let dcl_misc = |n: u16, m: &str| {
        let mut i = op(O::Dcl, Some(dst(R::MiscType, n, m)), &[]);
        i.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: 0 });
        i
    };
    let p = vec![
        dcl_misc(misc::POSITION, "xy"),
        dcl_misc(misc::FACE, "x"),
        op(O::Mov, oc0("xy"), &[src(R::MiscType, misc::POSITION)]),
        op(O::Mov, oc0("z"), &[src(R::MiscType, misc::FACE).sw("x")]),
    ];
    let run = Run { frag_coord: [10.5, 3.5, 0.25, 1.0], back_face: true, ..Run::default() };
    let v = color(ps(PS3, p.clone(), &run));
    assert_eq!(&v[..3], &[10.0, 3.0, -1.0]);
    let run = Run { frag_coord: [0.5, 0.5, 0.0, 1.0], ..Run::default() };
    assert_eq!(color(ps(PS3, p, &run))[2], 1.0);
}

#[test]
fn depth_output_is_clamped() {
    let p = vec![def(0, [1.5, 0.0, 0.0, 0.0]), op(O::Mov, Some(dst(R::DepthOut, 0, "xyzw")), &[c(0).sw("x")])];
    let Outcome::Output(m) = ps(PS2X, p, &Run::default()) else { panic!() };
    assert_eq!(m["oDepth"], Value::F(1.0));
}

#[test]
fn linear_fog_mixes_the_fog_colour_by_depth() {
    // start 0, end 1, depth 0.25: f = (1 − 0.25) / 1 = 0.75; rgb = 0.75·(1,1,1) + 0.25·(0,0,1).
    let p = vec![def(0, [1.0, 1.0, 1.0, 0.5]), op(O::Mov, oc0("xyzw"), &[c(0)])];
    let run = Run {
        key: ShaderKey { fog: FogMode::Linear, ..ShaderKey::default() },
        frag_coord: [0.5, 0.5, 0.25, 1.0],
        render_state: vec![(0, super::eval::vec4([0.0, 0.0, 1.0, 1.0])), (1, Value::F(0.0)), (2, Value::F(1.0))],
        ..Run::default()
    };
    assert_eq!(color(ps(0xFFFF_0200, p, &run)), [0.75, 0.75, 1.0, 0.5]);
}

#[test]
fn a_run_time_fog_mode_keeps_the_baked_w_source() {
    // FOGTABLEMODE read at run time (3, linear), the source baked as w (docs/d3d9-rules.md#fog:
    // table fog then reads 1 / w): a fragment w of 4 gives depth 1/4 where z would give 0.5.
    // start 0, end 1: f = 1 − 0.25 = 0.75; rgb = 0.75·(1,1,1) + 0.25·(0,0,1).
    let p = vec![def(0, [1.0, 1.0, 1.0, 0.5]), op(O::Mov, oc0("xyzw"), &[c(0)])];
    let mut key = ShaderKey { fog: FogMode::Linear, fog_source: FogSource::W, ..ShaderKey::default() };
    key.delivery.fog = Delivery::Uniform;
    let run = Run {
        key,
        frag_coord: [0.5, 0.5, 0.5, 4.0],
        render_state: vec![
            (0, super::eval::vec4([0.0, 0.0, 1.0, 1.0])),
            (1, Value::F(0.0)),
            (2, Value::F(1.0)),
            (14, Value::U(3)),
        ],
        ..Run::default()
    };
    assert_eq!(color(ps(0xFFFF_0200, p, &run)), [0.75, 0.75, 1.0, 0.5]);
}

#[test]
fn texld_variants_choose_coordinates_and_level() {
    // The evaluator's sample returns (u, v, 0, level): −1 automatic, else the bias/level.
    let dcl_s = |n: u16| {
        let mut i = op(O::Dcl, Some(dst(R::Sampler, n, "xyzw")), &[]);
        i.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: 2 });
        i
    };
    let tex = |variant: u8| {
        let mut i = op(O::Tex, oc0("xyzw"), &[c(0), src(R::Sampler, 0)]);
        i.control = variant;
        i
    };
    let base = |i| vec![dcl_s(0), def(0, [2.0, 4.0, 6.0, 2.0]), i];
    assert_eq!(color(ps(PS2X, base(tex(0)), &Run::default())), [2.0, 4.0, 0.0, -1.0]);
    // texldp divides by w = 2.
    assert_eq!(color(ps(PS2X, base(tex(1)), &Run::default())), [1.0, 2.0, 0.0, -1.0]);
    // texldb biases by w.
    assert_eq!(color(ps(PS2X, base(tex(2)), &Run::default())), [2.0, 4.0, 0.0, 2.0]);
    // An unbound sampler reads (0, 0, 0, 1).
    let run = Run { key: ShaderKey { unbound_samplers: 1, ..ShaderKey::default() }, ..Run::default() };
    assert_eq!(color(ps(PS2X, base(tex(0)), &run)), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn a_swizzled_sampler_selects_the_texel_components() {
    // ps_2_x `texld r0, c0, s0.yzwx`: the texel (2, 4, 0, −1) of the evaluator is swizzled by
    // the sampler's swizzle, giving (t.y, t.z, t.w, t.x) = (4, 0, −1, 2) — what the
    // wine ps_code_swizzle shader relies on.
    let mut dcl = op(O::Dcl, Some(dst(R::Sampler, 0, "xyzw")), &[]);
    dcl.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: 2 });
    let texld = op(O::Tex, oc0("xyzw"), &[c(0), src(R::Sampler, 0).sw("yzwx")]);
    let p = vec![dcl, def(0, [2.0, 4.0, 6.0, 2.0]), texld];
    assert_eq!(color(ps(PS2X, p, &Run::default())), [4.0, 0.0, -1.0, 2.0]);
}

#[test]
fn shadow_samplers_compare_with_z_and_cube_overrides_use_xyz() {
    let dcl_s = |n: u16, ty: u8| {
        let mut i = op(O::Dcl, Some(dst(R::Sampler, n, "xyzw")), &[]);
        i.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: ty });
        i
    };
    let p = vec![dcl_s(0, 2), def(0, [0.25, 0.5, 0.75, 2.0]), op(O::Tex, oc0("xyzw"), &[c(0), src(R::Sampler, 0)])];
    // The evaluator's comparison sample returns the reference: z = 0.75, replicated.
    let run = Run { key: ShaderKey { shadow_samplers: 1, ..ShaderKey::default() }, ..Run::default() };
    assert_eq!(color(ps(PS2X, p.clone(), &run)), [0.75; 4]);
    // A cube override samples with xyz (the evaluator echoes u, v, w).
    let mut key = ShaderKey::default();
    key.sampler_types[0] = Some(crate::bytecode::TextureType::Cube);
    let run = Run { key, ..Run::default() };
    assert_eq!(color(ps(PS2X, p, &run)), [0.25, 0.5, 0.75, -1.0]);
}

#[test]
fn vertex_texture_fetch_uses_the_explicit_level() {
    let mut s = op(O::Dcl, Some(dst(R::Sampler, 1, "xyzw")), &[]);
    s.payload = Payload::Dcl(crate::bytecode::Decl { usage: 0, usage_index: 0, texture_type: 2 });
    let mut v = vec![
        dcl_out(0, 5, 0),
        s,
        def(0, [0.5, 0.25, 0.0, 3.0]),
        op(O::TexLdl, ot0("xyzw"), &[c(0), src(R::Sampler, 1)]),
    ];
    v.iter_mut().for_each(retarget_ot0);
    assert_eq!(output(&program(VS3, v), &Run::default(), "o0"), [0.5, 0.25, 0.0, 3.0]);
}
