//! Shader Model 1 pixel shader rules (docs/opcodes.md#ps1x-texture-ops and docs/d3d9-rules.md), expectations by hand.
//! The test evaluator's texture sample returns (u, v, w or 0, −1): the coordinates used.

use super::eval::{vec4, Outcome, Value};
use super::*;
use crate::bytecode::{Opcode as O, RegisterType as R, SrcModifier as Mod};

const PS11: u32 = 0xFFFF_0101;
const PS14: u32 = 0xFFFF_0104;

fn t(n: u16) -> SrcParam {
    src(R::Texture, n)
}
fn c(n: u16) -> SrcParam {
    src(R::Const, n)
}
fn r(n: u16) -> SrcParam {
    src(R::Temp, n)
}
fn td(n: u16) -> Option<DstParam> {
    Some(dst(R::Texture, n, "xyzw"))
}
fn rd(n: u16, m: &str) -> Option<DstParam> {
    Some(dst(R::Temp, n, m))
}

fn color(token: u32, insts: Vec<Instruction>, run: &Run) -> [f32; 4] {
    match super::run(&program(token, insts), run) {
        Outcome::Output(m) => m["oC0"].vec4(),
        Outcome::Killed => panic!("killed"),
    }
}

/// r0 as the program left it, where it lies in [−16, 16]: r0 leaves a ps_1_x shader saturated
/// (docs/d3d9-rules.md#ps1x-output-clamp), so a last `mad r0, r0, 1/32, 0.5` carries it into
/// [0, 1] and the colour is read back as (x − 0.5)·32, exact for the dyadic values used here.
/// c6 and c7 must be free.
fn inside(token: u32, insts: Vec<Instruction>, run: &Run) -> [f32; 4] {
    let mut p = vec![def(6, [0.03125; 4]), def(7, [0.5; 4])];
    p.extend(insts);
    p.push(op(O::Mad, rd(0, "xyzw"), &[r(0), c(6), c(7)]));
    color(token, p, run).map(|x| (x - 0.5) * 32.0)
}

fn coords(list: &[(u32, [f32; 4])]) -> Run {
    Run { inputs: list.to_vec(), ..Run::default() }
}

#[test]
fn r0_is_the_colour_tex_samples_its_stage_and_texcoord_saturates() {
    // tex t0 samples stage 0 at set 0 = (0.25, 0.5): the evaluator returns (0.25, 0.5, 0, −1).
    let run = coords(&[(0, [0.25, 0.5, 0.75, 1.0]), (1, [1.5, -0.5, 0.25, 7.0])]);
    assert_eq!(
        inside(PS11, vec![op(O::Tex, td(0), &[]), op(O::Mov, rd(0, "xyzw"), &[t(0)])], &run),
        [0.25, 0.5, 0.0, -1.0]
    );
    // The same r0 leaves the shader saturated (docs/d3d9-rules.md#ps1x-output-clamp): −1 reads 0.
    assert_eq!(
        color(PS11, vec![op(O::Tex, td(0), &[]), op(O::Mov, rd(0, "xyzw"), &[t(0)])], &run),
        [0.25, 0.5, 0.0, 0.0]
    );
    // texcoord t1 = (sat 1.5, sat −0.5, sat 0.25, 1) = (1, 0, 0.25, 1).
    assert_eq!(
        color(PS11, vec![op(O::TexCoord, td(1), &[]), op(O::Mov, rd(0, "xyzw"), &[t(1)])], &run),
        [1.0, 0.0, 0.25, 1.0]
    );
}

#[test]
fn constants_clamp_to_plus_minus_one_and_shifts_apply_before_saturate() {
    let p = vec![def(0, [2.0, -3.0, 0.5, 1.0]), op(O::Mov, rd(0, "xyzw"), &[c(0)])];
    // def c0 = (2, −3, 0.5, 1) reads (1, −1, 0.5, 1) (docs/d3d9-rules.md#ps1x-constant-clamp).
    assert_eq!(inside(PS11, p, &Run::default()), [1.0, -1.0, 0.5, 1.0]);
    // mul_x2 (0.5, 0.25, 0.75, 1)·(0.5) = (0.5, 0.25, 0.75, 1); with _sat after ×4: (1, 0.5, 1, 1).
    let mut x2 = op(O::Mul, rd(0, "xyzw"), &[c(0), c(1)]);
    x2.dst.as_mut().unwrap().shift = 1;
    let p = vec![def(0, [0.5, 0.25, 0.75, 1.0]), def(1, [0.5; 4]), x2];
    assert_eq!(color(PS11, p, &Run::default()), [0.5, 0.25, 0.75, 1.0]);
    let mut x4 = op(O::Mul, rd(0, "xyzw"), &[c(0), c(1)]);
    x4.dst.as_mut().unwrap().shift = 2;
    x4.dst.as_mut().unwrap().modifiers.0 = crate::bytecode::ResultModifiers::SATURATE;
    let p = vec![def(0, [0.5, 0.25, 0.75, 1.0]), def(1, [0.5; 4]), x4];
    assert_eq!(color(PS11, p, &Run::default()), [1.0, 0.5, 1.0, 1.0]);
    // _d2 halves.
    let mut d2 = op(O::Mov, rd(0, "xyzw"), &[c(0)]);
    d2.dst.as_mut().unwrap().shift = -1;
    assert_eq!(color(PS11, vec![def(0, [0.5, 0.25, 0.75, 1.0]), d2], &Run::default()), [0.25, 0.125, 0.375, 0.5]);
}

#[test]
fn co_issued_instructions_read_the_values_from_before_the_pair() {
    // r0 = (0.1, 0.2, 0.3, 0.4); mov r0.rgb, c0 (0.5) + mov r0.a, r0.r: a gets the old 0.1.
    let mut second = op(O::Mov, rd(0, "w"), &[r(0).sw("x")]);
    second.coissue = true;
    let p = vec![
        def(0, [0.5; 4]),
        def(1, [0.1, 0.2, 0.3, 0.4]),
        op(O::Mov, rd(0, "xyzw"), &[c(1)]),
        op(O::Mov, rd(0, "xyz"), &[c(0)]),
        second,
    ];
    assert_eq!(color(PS11, p, &Run::default()), [0.5, 0.5, 0.5, 0.1]);
}

#[test]
fn texm3x2_pads_then_samples_with_the_two_dot_products() {
    // t0 = (0.25, 0.5, 0.75); set 1 = x̂, set 2 = ŷ: u = 0.25, v = 0.5 → sample(2, (0.25, 0.5)).
    let run = coords(&[(0, [0.25, 0.5, 0.75, 1.0]), (1, [1.0, 0.0, 0.0, 0.0]), (2, [0.0, 1.0, 0.0, 0.0])]);
    let p = vec![
        op(O::TexCoord, td(0), &[]),
        op(O::TexM3x2Pad, td(1), &[t(0)]),
        op(O::TexM3x2Tex, td(2), &[t(0)]),
        op(O::Mov, rd(0, "xyzw"), &[t(2)]),
    ];
    assert_eq!(inside(PS11, p, &run), [0.25, 0.5, 0.0, -1.0]);
    // texm3x3 with sets 1–3 = x̂, ŷ, ẑ gives (0.25, 0.5, 0.75, 1), no lookup.
    let run = coords(&[
        (0, [0.25, 0.5, 0.75, 1.0]),
        (1, [1.0, 0.0, 0.0, 0.0]),
        (2, [0.0, 1.0, 0.0, 0.0]),
        (3, [0.0, 0.0, 1.0, 0.0]),
    ]);
    let p = vec![
        op(O::TexCoord, td(0), &[]),
        op(O::TexM3x3Pad, td(1), &[t(0)]),
        op(O::TexM3x3Pad, td(2), &[t(0)]),
        op(O::TexM3x3, td(3), &[t(0)]),
        op(O::Mov, rd(0, "xyzw"), &[t(3)]),
    ];
    assert_eq!(color(0xFFFF_0102, p, &run), [0.25, 0.5, 0.75, 1.0]);
}

#[test]
fn texbem_offsets_by_the_bump_matrix() {
    // Matrix (m00, m01, m10, m11) = (1, 0, 0, 2); t0 = (0.5, 0.25); set 1 = (0.1, 0.2):
    // u' = 0.1 + 1·0.5 + 0·0.25 = 0.6; v' = 0.2 + 0·0.5 + 2·0.25 = 0.7.
    let mut env = vec![vec4([0.0; 4]); 8];
    env[1] = vec4([1.0, 0.0, 0.0, 2.0]);
    let run = Run {
        inputs: vec![(0, [0.5, 0.25, 0.0, 1.0]), (1, [0.1, 0.2, 0.0, 1.0])],
        render_state: vec![(10, Value::Agg(env))],
        ..Run::default()
    };
    let p = vec![op(O::TexCoord, td(0), &[]), op(O::TexBem, td(1), &[t(0)]), op(O::Mov, rd(0, "xyzw"), &[t(1)])];
    let v = color(PS11, p, &run);
    assert!((v[0] - 0.6).abs() < 1e-6 && (v[1] - 0.7).abs() < 1e-6, "{v:?}");
}

#[test]
fn cnd_reads_r0_alpha_and_texkill_tests_xyz_only() {
    // r0.a = 0.75 > 0.5 picks c1; then r0.a = 0.5 (not > 0.5) picks c2.
    let p = |a: f32| {
        vec![
            def(0, [0.0, 0.0, 0.0, a]),
            def(1, [1.0; 4]),
            def(2, [-1.0; 4]),
            op(O::Mov, rd(0, "xyzw"), &[c(0)]),
            op(O::Cnd, rd(0, "xyzw"), &[r(0).sw("w"), c(1), c(2)]),
        ]
    };
    assert_eq!(color(PS11, p(0.75), &Run::default()), [1.0; 4]);
    assert_eq!(inside(PS11, p(0.5), &Run::default()), [-1.0; 4]);
    // texkill t0 with w < 0 only does not kill; with y < 0 it does.
    let kill = |v: [f32; 4]| {
        let run = coords(&[(0, v)]);
        super::run(&program(PS11, vec![op(O::TexKill, td(0), &[])]), &run)
    };
    assert!(matches!(kill([0.0, 0.0, 0.0, -1.0]), Outcome::Output(_)));
    assert!(matches!(kill([0.0, -0.1, 0.0, 1.0]), Outcome::Killed));
}

#[test]
fn ps_1_4_texcrd_divides_by_z_and_texld_samples_the_destination_stage() {
    // texcrd r0.xyz, t0_dz with t0 = (1, 2, 4, 8) = (0.25, 0.5, 1); texld r1, r0 → stage 1.
    let run = coords(&[(0, [1.0, 2.0, 4.0, 8.0])]);
    let p = vec![
        op(O::TexCoord, rd(0, "xyz"), &[t(0).md(Mod::Dz)]),
        op(O::Tex, rd(1, "xyzw"), &[r(0)]),
        op(O::Mov, rd(0, "xyzw"), &[r(1)]),
    ];
    assert_eq!(inside(PS14, p, &run), [0.25, 0.5, 0.0, -1.0]);
}
