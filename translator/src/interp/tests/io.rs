//! Inputs and outputs: vertex output saturation and defaults, pixel outputs, vPos/vFace.

use super::*;
use crate::bytecode::Usage;

#[test]
fn vertex_colour_and_fog_outputs_saturate_before_vs_3_0() {
    // c0 = (2, −1, 0.5, 1.5): oD0 → (1, 0, 0.5, 1); oFog.x = 2 → 1; oT0 and oPos are not clamped.
    let p = "vs_1_1\ndef c0, 2, -1, 0.5, 1.5\nmov oPos, c0\nmov oD0, c0\nmov oD1, c0\nmov oFog, c0.x\nmov oT0, c0\nmov oPts, c0.x";
    let out = vs_full(p, &[], &Constants::default(), &Options::default());
    assert_eq!(out.colors[0].value, [1.0, 0.0, 0.5, 1.0]);
    assert_eq!(out.colors[1].value, [1.0, 0.0, 0.5, 1.0]);
    assert_eq!(out.fog.value[0], 1.0);
    assert_eq!(out.texcoords[0].value, [2.0, -1.0, 0.5, 1.5]);
    assert_eq!(out.position.value, [2.0, -1.0, 0.5, 1.5]);
    assert_eq!(out.point_size.value[0], 2.0);
    // vs_3_0 outputs are not saturated (docs/d3d9-rules.md#output-saturation).
    let p = "vs_3_0\ndcl_position o0\ndcl_color o1\ndef c0, 2, -1, 0.5, 1.5\nmov o0, c0\nmov o1, c0";
    let out = vs_full(p, &[], &Constants::default(), &Options::default());
    assert_eq!(out.outputs[1].value, [2.0, -1.0, 0.5, 1.5]);
    assert_eq!(out.semantics[1], Some((Usage::Color, 0)));
    assert_eq!(out.position.value, [2.0, -1.0, 0.5, 1.5], "position found by its dcl");
}

#[test]
fn unwritten_vertex_outputs_keep_their_defaults_per_component() {
    // Only oD0.x written (0.5): y, z, w stay 1 (docs/d3d9-rules.md#unwritten-outputs: 0xff7fffff);
    // oD1 = (0, 0, 0, 1).
    let p = "vs_1_1\ndef c0, 0.5, 0, 0, 0\nmov oPos, c0\nmov oD0.x, c0.x";
    let out = vs_full(p, &[], &Constants::default(), &Options::default());
    assert_eq!(out.colors[0].value, [0.5, 1.0, 1.0, 1.0]);
    assert_eq!(out.colors[0].written, 0b0001);
    assert_eq!(out.colors[1].value, [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(out.colors[1].written, 0);
    assert_eq!(out.texcoords[3].written, 0);
}

#[test]
fn vertex_inputs_by_register() {
    let p = "vs_1_1\ndcl_position v0\ndcl_normal v3\nadd oPos, v0, v3";
    let out = vs_full(p, &[(0, [1.0, 2.0, 3.0, 1.0]), (3, [0.5; 4])], &Constants::default(), &Options::default());
    assert_eq!(out.position.value, [1.5, 2.5, 3.5, 1.5]);
}

#[test]
fn pixel_outputs_mrt_depth_clamp_and_ps1x_r0() {
    let p = "ps_2_0\ndef c0, 0.25, 0.5, 0.75, 1\ndef c1, 2, 2, 2, 2\nmov oC0, c0\nmov oC1, c1\nmov oDepth, c1.x";
    let out = pixel(p, &PixelInput::default(), &Constants::default(), &Options::default(), &UnboundSampler);
    assert_eq!(out.color[0], Some([0.25, 0.5, 0.75, 1.0]));
    assert_eq!(out.color[1], Some([2.0; 4]), "colour outputs are not clamped by the shader");
    assert_eq!(out.color[2], None, "an unwritten target keeps its contents (docs/d3d9-rules.md#mrt)");
    assert_eq!(out.depth, Some(1.0), "oDepth 2 clamps to 1");
    // ps_1_x: r0 is the colour; no oDepth.
    let out = pixel(
        "ps_1_1\ndef c0, 0.25, 0.5, 0.75, 1\nmov r0, c0",
        &PixelInput::default(),
        &Constants::default(),
        &Options::default(),
        &UnboundSampler,
    );
    assert_eq!(out.color[0], Some([0.25, 0.5, 0.75, 1.0]));
    assert_eq!(out.depth, None);
    // r0 leaves a ps_1_x shader saturated (docs/d3d9-rules.md#ps1x-output-clamp): c0 + c0 =
    // (2, −2, 1, 1.5) inside reads (1, 0, 1, 1); the same sum through ps_2_0 oC0 is not clamped.
    let sum = |v: &str, oc: &str| {
        let text = format!("{v}\ndef c0, 1, -1, 0.5, 0.75\nadd r0, c0, c0\nmov {oc}, r0");
        pixel(&text, &PixelInput::default(), &Constants::default(), &Options::default(), &UnboundSampler).color[0]
    };
    assert_eq!(sum("ps_1_1", "r0"), Some([1.0, 0.0, 1.0, 1.0]));
    assert_eq!(sum("ps_1_4", "r0"), Some([1.0, 0.0, 1.0, 1.0]));
    assert_eq!(sum("ps_2_0", "oC0"), Some([2.0, -2.0, 1.0, 1.5]));
}

#[test]
fn pixel_inputs_vpos_vface_colours_texcoords() {
    // vPos = (X, Y) integers (docs/d3d9-rules.md#vpos): frc(vPos) = 0; vFace sign.
    let mut input = PixelInput { vpos: [12.0, 7.0], vface: -1.0, ..PixelInput::default() };
    input.v[0] = [0.1, 0.2, 0.3, 0.4];
    let p =
        "ps_3_0\ndcl vPos.xy\ndcl vFace\ndcl_color0 v0\nmov r0.xy, vPos\nmov r0.z, vFace\nmov r0.w, v0.w\nmov oC0, r0";
    let out = pixel(p, &input, &Constants::default(), &Options::default(), &UnboundSampler);
    assert_eq!(out.color[0], Some([12.0, 7.0, -1.0, 0.4]));
    // ps_2_0 t# and v# inputs.
    let mut input = PixelInput::default();
    input.t[2] = [0.5; 4];
    input.v[1] = [0.25; 4];
    let p = "ps_2_0\ndcl t2\ndcl v1\nadd r0, t2, v1\nmov oC0, r0";
    assert_eq!(pixel(p, &input, &Constants::default(), &Options::default(), &UnboundSampler).color[0], Some([0.75; 4]));
}

#[test]
fn wrong_kind_and_bad_registers_are_errors() {
    let vs = asm("vs_2_0\nmov oPos, c0");
    let e = run_pixel(&vs, &PixelInput::default(), &Constants::default(), &Options::default(), &UnboundSampler)
        .unwrap_err();
    assert!(matches!(e.kind, InterpErrorKind::WrongKind { .. }));
    // r40 is beyond every version's temporaries.
    let p = asm("vs_2_0\nmov r40, c0");
    let e = run_vertex(&p, &VertexInput::default(), &Constants::default(), &Options::default(), &UnboundSampler)
        .unwrap_err();
    assert_eq!(e.kind, InterpErrorKind::RegisterOutOfRange("r40".into()));
    assert_eq!(e.instruction, 0);
}

#[test]
fn linking_vertex_outputs_to_pixel_inputs_by_semantic() {
    // vs_1_1 writes oD0.x = 0.5 and oT1: COLOR0 reads (0.5, 1, 1, 1) (the unwritten components
    // keep the default), COLOR1 (0, 0, 0, 1), TEXCOORD1 the written value, TEXCOORD0 zeros.
    let vs = vs_full(
        "vs_1_1\ndef c0, 0.5, 0.25, 0, 1\nmov oPos, c0\nmov oD0.x, c0.x\nmov oT1, c0",
        &[],
        &Constants::default(),
        &Options::default(),
    );
    let ps = asm("ps_2_0\ndcl v0\ndcl t1\nmov oC0, v0");
    let input = PixelInput::from_vertex(&ps, &vs);
    assert_eq!(input.v[0], [0.5, 1.0, 1.0, 1.0]);
    assert_eq!(input.v[1], [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(input.t[1], [0.5, 0.25, 0.0, 1.0]);
    assert_eq!(input.t[0], [0.0; 4]);
    // vs_3_0 → ps_3_0 by (usage, index), not by register number (docs/d3d9-rules.md#linkage): o3 is
    // TEXCOORD2 and the pixel shader reads it through v1; FOG is missing → (1, 0, 0, 0).
    let vs = vs_full(
        "vs_3_0\ndcl_position o0\ndcl_texcoord2 o3\ndef c0, 0.5, 0.25, 0, 1\nmov o0, c0\nmov o3.xy, c0",
        &[],
        &Constants::default(),
        &Options::default(),
    );
    let ps = asm("ps_3_0\ndcl_texcoord2 v1\ndcl_fog v2\nmov oC0, v1");
    let input = PixelInput::from_vertex(&ps, &vs);
    assert_eq!(input.v[1], [0.5, 0.25, 0.0, 0.0]);
    assert_eq!(input.v[2], [1.0, 0.0, 0.0, 0.0]);
}

#[test]
fn a_hand_built_program_missing_operands_is_an_error() {
    use crate::bytecode::{
        DstParam, Instruction, Opcode, Program, Register, RegisterType, SrcParam, Version, WriteMask,
    };
    // `mad r0, c0` (two sources missing) built directly in the model.
    let mut p = Program::new(Version::from_token(0xFFFE_0200).unwrap());
    let mut mad = Instruction::new(Opcode::Mad);
    mad.dst = Some(DstParam::new(Register::new(RegisterType::Temp, 0), WriteMask::ALL));
    mad.src.push(SrcParam::new(Register::new(RegisterType::Const, 0)));
    p.instructions.push(mad);
    let e = run_vertex(&p, &VertexInput::default(), &Constants::default(), &Options::default(), &UnboundSampler)
        .unwrap_err();
    assert_eq!(e.kind, InterpErrorKind::MissingOperand);
}

#[test]
fn skewed_runs_keep_nan_through_every_clamp_and_decision() {
    // A Vulkan GPU need not generate NaN (docs/d3d9-rules.md#float-rules), so where D3D9 decides
    // on one (oD#/oFog saturation, texcoord's clamp, cnd's comparison) the reference gives the
    // D3D9 answer and the skewed runs carry the NaN on, which the comparison reads as any value.
    let nan = f32::NAN;
    let skewed = Options { skew: Skew::Up, ..Options::default() };
    let p = "vs_1_1\ndcl_position v0\ndcl_color v1\nmov oPos, v0\nmov oD0, v1\nmov oFog, v1.x";
    let v = [(0, [0.0, 0.0, 0.0, 1.0]), (1, [nan, 0.5, 2.0, -1.0])];
    let plain = vs_full(p, &v, &Constants::default(), &Options::default());
    assert_eq!(plain.colors[0].value, [0.0, 0.5, 1.0, 0.0], "NaN saturates to +0");
    assert_eq!(plain.fog.value[0], 0.0);
    let up = vs_full(p, &v, &Constants::default(), &skewed);
    assert!(up.colors[0].value[0].is_nan() && up.fog.value[0].is_nan());
    assert_eq!(up.colors[0].value[1..], [0.5, 1.0, 0.0], "numbers saturate alike");

    // ps_1_4: texcrd keeps t0 unclamped; cnd picks c1 where NaN > 0.5 is false.
    let p = "ps_1_4\ndef c0, 1, 1, 1, 1\ndef c1, 0, 0, 0, 0\ntexcrd r1.rgb, t0\nmov r1.a, c0\ncnd r0, r1, c0, c1";
    let mut input = PixelInput::default();
    input.t[0] = [nan, 0.75, 0.25, 0.0];
    let got = |o: &Options| pixel(p, &input, &Constants::default(), o, &UnboundSampler).color[0].unwrap();
    assert_eq!(got(&Options::default()), [0.0, 1.0, 0.0, 1.0]);
    let up = got(&skewed);
    assert!(up[0].is_nan());
    assert_eq!(up[1..], [1.0, 0.0, 1.0]);

    // ps_1_1 texcoord clamps to [0, 1].
    let p = "ps_1_1\ntexcoord t0\nmov r0, t0";
    let got = |o: &Options| pixel(p, &input, &Constants::default(), o, &UnboundSampler).color[0].unwrap();
    assert_eq!(got(&Options::default()), [0.0, 0.75, 0.25, 1.0]);
    assert!(got(&skewed)[0].is_nan());
}
