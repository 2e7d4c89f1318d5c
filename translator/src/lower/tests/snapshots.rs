//! WGSL snapshots of a handful of the project's shaders (reviewed by hand: see the comments on
//! each for what to look for). `cargo insta review` after an intended change.

use super::*;
use crate::bytecode::{Comparison, Decl, Opcode as O, RegisterType as R};

fn dcl(ty: R, n: u16, m: &str, usage: u8, index: u8, texture_type: u8) -> Instruction {
    let mut i = op(O::Dcl, Some(dst(ty, n, m)), &[]);
    i.payload = Payload::Dcl(Decl { usage, usage_index: index, texture_type });
    i
}

fn wgsl(p: &Program) -> String {
    let t = crate::translate(p, &ShaderKey::default()).expect("translates");
    t.to_wgsl().expect("WGSL")
}

/// vs_2_0: m4x4 oPos, v0, c0 / mov oT0.xy, v1 / mov oD0, c4.
/// Look for: four explicit strict dot products into an invariant position; oT0 keeps zw = 0;
/// oD0 saturated; v0 at location 0 and v1 at location 1.
#[test]
fn vs_2_0_transform() {
    let p = program(
        0xFFFE_0200,
        vec![
            dcl(R::Input, 0, "xyzw", 0, 0, 0),
            dcl(R::Input, 1, "xyzw", 5, 0, 0),
            op(O::M4x4, Some(dst(R::RastOut, 0, "xyzw")), &[src(R::Input, 0), src(R::Const, 0)]),
            op(O::Mov, Some(dst(R::TexCrdOut, 0, "xy")), &[src(R::Input, 1)]),
            op(O::Mov, Some(dst(R::AttrOut, 0, "xyzw")), &[src(R::Const, 4)]),
        ],
    );
    insta::assert_snapshot!(wgsl(&p));
}

/// ps_2_0: texld r0, t0, s0 / mul r0, r0, v0 / mov oC0, r0.
/// Look for: t0 at location 0, v0 at location 8 with centroid sampling; the sample at t0.xy;
/// the strict multiply; no loads of r0 (its value is forwarded).
#[test]
fn ps_2_0_modulate() {
    let p = program(
        0xFFFF_0200,
        vec![
            dcl(R::Texture, 0, "xy", 0, 0, 0),
            dcl(R::Input, 0, "xyzw", 0, 0, 0),
            dcl(R::Sampler, 0, "xyzw", 0, 0, 2),
            op(O::Tex, Some(dst(R::Temp, 0, "xyzw")), &[src(R::Texture, 0), src(R::Sampler, 0)]),
            op(O::Mul, Some(dst(R::Temp, 0, "xyzw")), &[src(R::Temp, 0), src(R::Input, 0)]),
            op(O::Mov, Some(dst(R::ColorOut, 0, "xyzw")), &[src(R::Temp, 0)]),
        ],
    );
    insta::assert_snapshot!(wgsl(&p));
}

/// ps_3_0: loop aL, i0 summing c[aL + 1]; setp_gt p0, r0, c0; (p0) mov r1, c0; texkill r1.
/// Look for: the iteration bound (min(count, 255)) breaking at the top of the body; aL saved
/// and restored; the bounds-checked relative read; the predicated select; the kill deferred
/// to the end.
#[test]
fn ps_3_0_loop_predicate_texkill() {
    let mut setp = op(O::Setp, Some(dst(R::Predicate, 0, "xyzw")), &[src(R::Temp, 0), src(R::Const, 0)]);
    setp.control = Comparison::Gt as u8;
    let mut pmov = op(O::Mov, Some(dst(R::Temp, 1, "xyzw")), &[src(R::Const, 0)]);
    pmov.predicate = Some(src(R::Predicate, 0));
    let p = program(
        0xFFFF_0300,
        vec![
            defi(0, [4, 0, 1, 0]),
            def(0, [0.5, -1.0, 0.0, 1.0]),
            op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 0)]),
            op(
                O::Add,
                Some(dst(R::Temp, 0, "xyzw")),
                &[src(R::Temp, 0), src(R::Const, 1).rel(Register::new(R::Loop, 0), "x")],
            ),
            op(O::EndLoop, None, &[]),
            setp,
            pmov,
            op(O::TexKill, Some(dst(R::Temp, 1, "xyzw")), &[]),
            op(O::Mov, Some(dst(R::ColorOut, 0, "xyzw")), &[src(R::Temp, 0)]),
        ],
    );
    insta::assert_snapshot!(wgsl(&p));
}

/// vs_3_0 with a subroutine: registers become private globals; the entry point copies the
/// inputs, calls the main body, and returns the outputs (o0 = position, o1 = TEXCOORD0 at
/// location 0).
#[test]
fn vs_3_0_subroutine() {
    let p = program(
        0xFFFE_0300,
        vec![
            dcl(R::Input, 0, "xyzw", 0, 0, 0),
            dcl(R::Output, 0, "xyzw", 0, 0, 0),
            dcl(R::Output, 1, "xy", 5, 0, 0),
            op(O::Mov, Some(dst(R::Output, 0, "xyzw")), &[src(R::Input, 0)]),
            op(O::Call, None, &[src(R::Label, 0)]),
            op(O::Mov, Some(dst(R::Output, 1, "xy")), &[src(R::Temp, 0)]),
            op(O::Ret, None, &[]),
            op(O::Label, None, &[src(R::Label, 0)]),
            op(O::Mova, Some(dst(R::Addr, 0, "x")), &[src(R::Input, 0).sw("x")]),
            op(O::Mov, Some(dst(R::Temp, 0, "xyzw")), &[src(R::Const, 2).rel(Register::new(R::Addr, 0), "x")]),
            op(O::Ret, None, &[]),
        ],
    );
    insta::assert_snapshot!(wgsl(&p));
}

#[test]
fn output_is_deterministic() {
    let p = program(
        0xFFFF_0200,
        vec![
            dcl(R::Sampler, 0, "xyzw", 0, 0, 2),
            op(O::Tex, Some(dst(R::Temp, 0, "xyzw")), &[src(R::Texture, 0), src(R::Sampler, 0)]),
            op(O::Mov, Some(dst(R::ColorOut, 0, "xyzw")), &[src(R::Temp, 0)]),
        ],
    );
    let t = crate::translate(&p, &ShaderKey::default()).unwrap();
    let (a, b) = (t.to_spirv().unwrap(), crate::translate(&p, &ShaderKey::default()).unwrap().to_spirv().unwrap());
    assert_eq!(a, b);
    assert_eq!(wgsl(&p), wgsl(&p));
}

/// D3D9 arithmetic on `def` values may overflow to inf; naga's WGSL front end evaluates
/// constant expressions and rejects such results, so def values must reach the code as runtime
/// values. nrm/mul/rcp on defs alone must still give WGSL that parses.
#[test]
fn wgsl_of_overflowing_def_arithmetic_reparses() {
    let p = program(
        0xFFFE_0200,
        vec![
            def(0, [1e30, -1e30, 3e38, 0.0]),
            op(O::Nrm, Some(dst(R::Temp, 0, "xyzw")), &[src(R::Const, 0)]),
            op(O::Mul, Some(dst(R::Temp, 1, "xyzw")), &[src(R::Const, 0), src(R::Const, 0)]),
            op(O::Rcp, Some(dst(R::Temp, 2, "x")), &[src(R::Const, 0).sw("w")]),
            op(O::Add, Some(dst(R::TexCrdOut, 0, "xyzw")), &[src(R::Temp, 0), src(R::Temp, 1)]),
            op(O::Add, Some(dst(R::TexCrdOut, 1, "xyzw")), &[src(R::Temp, 2), src(R::Const, 0).sw("z")]),
        ],
    );
    let text = wgsl(&p);
    naga::front::wgsl::parse_str(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.emit_to_string(&text)));
}

/// The optional backends accept the modules (built with `--features msl,glsl,hlsl`).
#[cfg(all(feature = "msl", feature = "glsl", feature = "hlsl"))]
#[test]
fn optional_backends_emit() {
    let p = program(
        0xFFFE_0300,
        vec![
            dcl(R::Input, 0, "xyzw", 0, 0, 0),
            dcl(R::Output, 0, "xyzw", 0, 0, 0),
            op(O::Mov, Some(dst(R::Output, 0, "xyzw")), &[src(R::Input, 0)]),
        ],
    );
    let t = crate::translate(&p, &ShaderKey::default()).unwrap();
    assert!(t.to_msl().unwrap().contains("[[position, invariant]]"));
    assert!(t.to_glsl().unwrap().starts_with("#version 450"));
    assert!(t.to_hlsl().unwrap().contains("SV_Position"));
}
