//! One test per lowering rule of whole programs: malformed ones, vs_1_1's address register, clip
//! planes, linking and fog across the stages, relative output writes, predicated calls and
//! the software-vertex-processing constant files; expectations derived by hand in each test.

use super::eval::{Outcome, Value};
use super::rules::*;
use super::*;
use crate::bytecode::{Comparison, Opcode as O, RegisterType as R, SrcModifier as Mod};
use crate::key::FogMode;

#[test]
fn odd_programs_are_errors_not_panics() {
    let cases = vec![
        vec![op(O::EndIf, None, &[])],
        vec![op(O::Else, None, &[])],
        vec![op(O::If, None, &[src(R::ConstBool, 0)])],
        vec![op(O::EndLoop, None, &[])],
        vec![op(O::Break, None, &[])],
        vec![op(O::Rep, None, &[c(0)]), op(O::EndRep, None, &[])],
        vec![op(O::Mov, Some(dst(R::Const, 0, "xyzw")), &[c(1)])],
        vec![op(O::Mov, ot0("xyzw"), &[src(R::Sampler, 0)])],
        vec![op(O::Mov, ot0("xyzw"), &[])],
        // v20: a vertex shader has 16 attribute slots (wine's vs_3_0_test_14).
        vec![op(O::Mov, ot0("xyzw"), &[src(R::Input, 20)])],
        vec![
            op(O::Call, None, &[src(R::Label, 1)]),
            op(O::Ret, None, &[]),
            op(O::Label, None, &[src(R::Label, 1)]),
            op(O::Call, None, &[src(R::Label, 1)]),
        ],
    ];
    for insts in cases {
        let p = program(VS2X, insts.clone());
        let sig = analyse(&p);
        assert!(super::super::lower(&p, &sig, &ShaderKey::default()).is_err(), "{insts:?}");
    }
}

#[test]
fn vs_1_1_mov_a0_floors_and_expp_logp_have_their_sm1_shape() {
    // mov a0.x, 1.7 floors to 1; c[a0.x + 2] = c3 = 3. (−1.2 would floor to −2.)
    let mut rel = c(2);
    rel.relative =
        Some(crate::bytecode::RelAddr { reg: a0(), swizzle: crate::bytecode::Swizzle::replicate(0), implicit: true });
    let p = program(
        0xFFFE_0101,
        vec![
            def(10, [1.7, 2.5, 8.0, 0.0]),
            op(O::Mov, Some(dst(R::Addr, 0, "x")), &[c(10).sw("x")]),
            op(O::Mov, ot0("xyzw"), &[rel]),
        ],
    );
    assert_eq!(output(&p, &consts(&[(3, [3.0; 4]), (2, [2.0; 4])]), "oT0"), [3.0; 4]);
    // expp 2.5 = (2^2, 0.5, 2^2.5, 1); logp 8 = (3, 8/2^3, 3, 1).
    let p = program(0xFFFE_0101, vec![def(10, [1.7, 2.5, 8.0, 0.0]), op(O::ExpP, ot0("xyzw"), &[c(10).sw("y")])]);
    let v = output(&p, &Run::default(), "oT0");
    assert_eq!((v[0], v[1], v[3]), (4.0, 0.5, 1.0));
    assert!((v[2] - 2f32.powf(2.5)).abs() < 1e-5);
    let p = program(0xFFFE_0101, vec![def(10, [1.7, 2.5, 8.0, 0.0]), op(O::LogP, ot0("xyzw"), &[c(10).sw("z")])]);
    assert_eq!(output(&p, &Run::default(), "oT0"), [3.0, 1.0, 3.0, 1.0]);
}

#[test]
fn clip_planes_become_clip_distances_of_the_position() {
    // Position (2, 0, 3, 1). Plane 0 = (1, 0, 0, 0) gives x = 2; plane 1 is off (1.0, never
    // clipped); plane 2 = (0, 0, 1, −1) gives z − w = 3 − 1 = 2.
    let p = program(VS2X, vec![def(0, [2.0, 0.0, 3.0, 1.0]), op(O::Mov, Some(dst(R::RastOut, 0, "xyzw")), &[c(0)])]);
    let mut planes = vec![super::eval::vec4([0.0; 4]); 8];
    planes[0] = super::eval::vec4([1.0, 0.0, 0.0, 0.0]);
    planes[2] = super::eval::vec4([0.0, 0.0, 1.0, -1.0]);
    let run = Run {
        key: ShaderKey { clip_planes: 0b101, ..ShaderKey::default() },
        render_state: vec![(9, Value::Agg(planes))],
        ..Run::default()
    };
    let Outcome::Output(m) = super::run(&p, &run) else { panic!() };
    assert_eq!(m["clip_distances"], Value::Agg(vec![Value::F(2.0), Value::F(1.0), Value::F(2.0)]));
}

#[test]
fn link_passes_what_the_pixel_shader_reads_and_defaults_the_rest() {
    use crate::lower::io_map::{link, LinkSlot};
    // VS writes oT0, oT3 and oD0; PS (ps_2_0) reads t3 and v1 (COLOR1, not written).
    let vs = program(
        0xFFFE_0200,
        vec![
            def(0, [1.0, 2.0, 3.0, 4.0]),
            op(O::Mov, Some(dst(R::TexCrdOut, 0, "xyzw")), &[c(0)]),
            op(O::Mov, Some(dst(R::TexCrdOut, 3, "xyzw")), &[c(0)]),
            op(O::Mov, Some(dst(R::AttrOut, 0, "xyzw")), &[c(0)]),
        ],
    );
    let psp = program(0xFFFF_0200, vec![op(O::Add, oc0("xyzw"), &[src(R::Texture, 3), src(R::Input, 1)])]);
    let linkage = link(vs.version, &analyse(&vs), psp.version, &analyse(&psp));
    let tex3 = (crate::bytecode::Usage::TexCoord as u8, 3);
    let col1 = (crate::bytecode::Usage::Color as u8, 1);
    assert!(linkage.slots.contains(&(tex3.0, tex3.1, LinkSlot::Location(0))), "{linkage:?}");
    assert!(linkage.slots.contains(&(col1.0, col1.1, LinkSlot::Missing)), "{linkage:?}");
    // A ps_2_0 is followed by the fog blend, which reads FOG: the VS writes no oFog.
    let fog = (crate::bytecode::Usage::Fog as u8, 0);
    assert!(linkage.slots.contains(&(fog.0, fog.1, LinkSlot::Missing)), "{linkage:?}");
    assert_eq!(linkage.slots.len(), 3);
    let key = ShaderKey { linkage: Some(linkage), ..ShaderKey::default() };
    // The VS outputs only oT3, at location 0; the PS reads t3 there and COLOR1's default
    // (0, 0, 0, 1) for v1: t3 + v1 = (1, 2, 3, 5).
    let Outcome::Output(m) = super::run(&vs, &Run { key: key.clone(), ..Run::default() }) else { panic!() };
    assert_eq!(m.len(), 2, "oT3 and the position: {:?}", m.keys());
    assert_eq!(m["oT3"].vec4(), [1.0, 2.0, 3.0, 4.0]);
    let run = Run { key, inputs: vec![(0, [1.0, 2.0, 3.0, 4.0])], ..Run::default() };
    assert_eq!(color(ps(0xFFFF_0200, psp.instructions.clone(), &run)), [1.0, 2.0, 3.0, 5.0]);
}

#[test]
fn vertex_fog_reads_the_linked_ofog_and_a_missing_one_fogs_fully() {
    use crate::lower::io_map::{link, LinkSlot};
    let fog = crate::bytecode::Usage::Fog as u8;
    // docs/d3d9-rules.md#fog: with FOGTABLEMODE NONE the blend factor is the vertex shader's oFog.x.
    // A vs_1_1 writing oFog links it to the ps_1_1 (which does not name it) …
    let vs =
        program(0xFFFE_0101, vec![def(0, [0.25, 0.0, 0.0, 0.0]), op(O::Mov, Some(dst(R::RastOut, 1, "x")), &[c(0)])]);
    let ps_prog =
        program(0xFFFF_0101, vec![def(0, [1.0, 1.0, 1.0, 0.5]), op(O::Mov, Some(dst(R::Temp, 0, "xyzw")), &[c(0)])]);
    let linkage = link(vs.version, &analyse(&vs), ps_prog.version, &analyse(&ps_prog));
    assert_eq!(linkage.slots, vec![(fog, 0, LinkSlot::Location(0))]);
    // … and the pixel shader blends by it: f = 0.25, rgb = 0.25·(1,1,1) + 0.75·(0,0,1).
    let fog_color = (0, super::eval::vec4([0.0, 0.0, 1.0, 1.0]));
    let key = ShaderKey { fog: FogMode::Vertex, linkage: Some(linkage), ..ShaderKey::default() };
    let run =
        Run { key, inputs: vec![(0, [0.25, 0.0, 0.0, 0.0])], render_state: vec![fog_color.clone()], ..Run::default() };
    assert_eq!(color(ps(0xFFFF_0101, ps_prog.instructions.clone(), &run)), [0.25, 0.25, 1.0, 0.5]);
    // A vertex shader that never writes oFog gives f = 0 (measured on Windows): the fog colour.
    let vs = program(0xFFFE_0101, vec![def(0, [1.0; 4]), op(O::Mov, Some(dst(R::AttrOut, 0, "xyzw")), &[c(0)])]);
    let linkage = link(vs.version, &analyse(&vs), ps_prog.version, &analyse(&ps_prog));
    assert_eq!(linkage.slots, vec![(fog, 0, LinkSlot::Missing)]);
    let key = ShaderKey { fog: FogMode::Vertex, linkage: Some(linkage), ..ShaderKey::default() };
    let run = Run { key, render_state: vec![fog_color], ..Run::default() };
    assert_eq!(color(ps(0xFFFF_0101, ps_prog.instructions, &run)), [0.0, 0.0, 1.0, 0.5]);
}

#[test]
fn relative_output_writes_and_input_reads_check_their_bounds() {
    // vs_3_0: loop aL, i0 = (3, 0, 1) writes o[aL] = c[aL] for aL = 0, 1, 2; o1 and o2 are
    // TEXCOORD1/2, o0 TEXCOORD0 (locations 1, 2, 0); then o[aL + 10] with aL = 5 is o15, out
    // of range (12 outputs): nothing is written — in particular not o11 (TEXCOORD3), where an
    // index clamped without the bounds check would land.
    let mut v = vec![
        dcl_out(0, 5, 0),
        dcl_out(1, 5, 1),
        dcl_out(2, 5, 2),
        dcl_out(11, 5, 3),
        defi(0, [3, 0, 1, 0]),
        defi(1, [1, 5, 0, 0]),
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 0)]),
        {
            let mut i = op(O::Mov, Some(dst(R::Output, 0, "xyzw")), &[c(0).rel(al(), "x")]);
            i.dst.as_mut().unwrap().relative =
                Some(crate::bytecode::RelAddr { reg: al(), swizzle: swz("x"), implicit: false });
            i
        },
        op(O::EndLoop, None, &[]),
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 1)]),
        {
            let mut i = op(O::Mov, Some(dst(R::Output, 10, "xyzw")), &[c(9)]);
            i.dst.as_mut().unwrap().relative =
                Some(crate::bytecode::RelAddr { reg: al(), swizzle: swz("x"), implicit: false });
            i
        },
        op(O::EndLoop, None, &[]),
    ];
    v.iter_mut().for_each(retarget_ot0);
    let run = consts(&[(0, [10.0; 4]), (1, [11.0; 4]), (2, [12.0; 4]), (9, [99.0; 4])]);
    let Outcome::Output(m) = super::run(&program(VS3, v), &run) else { panic!() };
    assert_eq!((m["o0"].vec4(), m["o1"].vec4(), m["o2"].vec4()), ([10.0; 4], [11.0; 4], [12.0; 4]));
    assert_eq!(m["o11"].vec4(), [0.0; 4]);
    // ps_3_0: v[aL] over inputs v0, v1 (TEXCOORD0, TEXCOORD1 at locations 0, 1), aL from 0 to
    // 2: v2 is not an input (reads 0): sum = v0 + v1.
    let dcl_in = |n: u16, index: u8| {
        let mut i = op(O::Dcl, Some(dst(R::Input, n, "xyzw")), &[]);
        i.payload = Payload::Dcl(crate::bytecode::Decl { usage: 5, usage_index: index, texture_type: 0 });
        i
    };
    let p = vec![
        dcl_in(0, 0),
        dcl_in(1, 1),
        defi(0, [3, 0, 1, 0]),
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 0)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), src(R::Input, 0).rel(al(), "x")]),
        op(O::EndLoop, None, &[]),
        op(O::Mov, oc0("xyzw"), &[r(0)]),
    ];
    let run = Run { inputs: vec![(0, [1.0, 2.0, 3.0, 4.0]), (1, [10.0, 20.0, 30.0, 40.0])], ..Run::default() };
    assert_eq!(color(ps(PS3, p, &run)), [11.0, 22.0, 33.0, 44.0]);
}

#[test]
fn breakp_callnz_on_a_predicate_and_derivatives() {
    // setp_lt p0.x, c0.x (1), c0.y (2) → true; rep 5 { r0 += 1; breakp p0.x } → 1.
    // callnz l0, !p0.x does not call (r1 stays 0).
    let mut setp = op(O::Setp, Some(dst(R::Predicate, 0, "x")), &[c(0).sw("x"), c(0).sw("y")]);
    setp.control = Comparison::Lt as u8;
    let p = vec![
        def(0, [1.0, 2.0, 0.0, 0.0]),
        defi(0, [5, 0, 0, 0]),
        setp,
        op(O::Rep, None, &[src(R::ConstInt, 0)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(0).sw("x")]),
        op(O::BreakP, None, &[src(R::Predicate, 0).sw("x")]),
        op(O::EndRep, None, &[]),
        op(O::CallNz, None, &[src(R::Label, 0), src(R::Predicate, 0).sw("x").md(Mod::Not)]),
        op(O::Add, oc0("xyzw"), &[r(0), r(1)]),
        op(O::Ret, None, &[]),
        op(O::Label, None, &[src(R::Label, 0)]),
        op(O::Mov, rd(1, "xyzw"), &[c(0).sw("y")]),
        op(O::Ret, None, &[]),
    ];
    assert_eq!(color(ps(PS2X, p, &Run::default())), [1.0; 4]);
    // dsx of a value constant over the quad is 0 (the evaluator's derivative is 0).
    let p = vec![def(0, [1.0; 4]), op(O::Dsx, oc0("xyzw"), &[c(0)])];
    assert_eq!(color(ps(PS2X, p, &Run::default())), [0.0; 4]);
}

#[test]
fn sw_versions_keep_constants_in_the_uniform_array_unless_a_read_may_reach_past_it() {
    // ps_3_sw reading only c5 directly: the usual 224-register array holds it.
    let layout = |insts: Vec<Instruction>| {
        let p = program(0xFFFF_03FF, insts);
        let lowered = super::super::lower(&p, &analyse(&p), &ShaderKey::default()).expect("lowers");
        lowered.layout.float_constants.map(|f| (f.count, f.high_binding))
    };
    assert_eq!(layout(vec![op(O::Mov, oc0("xyzw"), &[c(5)])]), Some((224, None)));
    // A direct read of c300 lies past it: all 8192 registers, in two 64 KiB uniform arrays.
    let both = Some((8192, Some(super::super::FLOAT_CONSTANTS_HIGH_BINDING)));
    assert_eq!(layout(vec![op(O::Mov, oc0("xyzw"), &[c(300)])]), both);
    // A relative read may reach any register (ps_3_0 relative `c[aL + n]` inside a loop).
    let rel = vec![
        op(O::Loop, None, &[src(R::Loop, 0), src(R::ConstInt, 0)]),
        op(O::Mov, oc0("xyzw"), &[c(2).rel(al(), "x")]),
        op(O::EndLoop, None, &[]),
    ];
    assert_eq!(layout(rel), both);
    // The value read through the uniform array is the constant itself.
    let p = vec![op(O::Mov, oc0("xyzw"), &[c(5)])];
    assert_eq!(color(ps(0xFFFF_03FF, p, &consts(&[(5, [2.25, -1.75, 3.5, 0.5])]))), [2.25, -1.75, 3.5, 0.5]);
}

#[test]
fn sw_versions_have_2048_integer_and_boolean_constants() {
    // vs_3_sw: rep i100 (3 iterations) adds c0 three times; `if b50` then adds c1 once, b51 not.
    let o0 = || Some(dst(R::Output, 0, "xyzw"));
    let p = vec![
        dcl_out(0, 5, 0),
        op(O::Mov, rd(0, "xyzw"), &[c(2)]),
        op(O::Rep, None, &[src(R::ConstInt, 100)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(0)]),
        op(O::EndRep, None, &[]),
        op(O::If, None, &[src(R::ConstBool, 50)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(1)]),
        op(O::EndIf, None, &[]),
        op(O::If, None, &[src(R::ConstBool, 51)]),
        op(O::Add, rd(0, "xyzw"), &[r(0), c(1)]),
        op(O::EndIf, None, &[]),
        op(O::Mov, o0(), &[r(0)]),
    ];
    let run = Run {
        consts: vec![(0, [1.0; 4]), (1, [10.0; 4]), (2, [0.0; 4])],
        ints: vec![(100, [3, 0, 0, 0])],
        bools: vec![(50, true), (51, false)],
        ..Run::default()
    };
    // 0 + 3·1 + 10 = 13.
    assert_eq!(output(&program(0xFFFE_03FF, p), &run, "o0"), [13.0; 4]);
}

#[test]
fn sw_constants_past_4095_come_from_the_second_array() {
    // vs_3_sw: c5000 is register 5000 − 4096 = 904 of the second array; c4095 the last of the first.
    let run =
        consts(&[(4095, [1.0, 2.0, 3.0, 4.0]), (4096, [5.0; 4]), (5000, [-6.5, 7.0, 0.25, 8.0]), (8191, [9.0; 4])]);
    let vs_sw = |insts: Vec<Instruction>| output(&program(0xFFFE_03FF, insts), &run, "o0");
    let o0 = || Some(dst(R::Output, 0, "xyzw"));
    assert_eq!(vs_sw(vec![dcl_out(0, 5, 0), op(O::Mov, o0(), &[c(5000)])]), [-6.5, 7.0, 0.25, 8.0]);
    assert_eq!(vs_sw(vec![dcl_out(0, 5, 0), op(O::Mov, o0(), &[c(4095)])]), [1.0, 2.0, 3.0, 4.0]);
    // Relatively: a0.x = 4000 or 8000 plus the base picks either array; past 8191 (and below 0)
    // reads 0.
    let relative = |a: f32, base: u16| {
        vec![
            dcl_out(0, 5, 0),
            def(0, [a; 4]),
            op(O::Mova, Some(dst(R::Addr, 0, "x")), &[c(0)]),
            op(O::Mov, o0(), &[c(base).rel(a0(), "x")]),
        ]
    };
    assert_eq!(vs_sw(relative(4000.0, 95)), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(vs_sw(relative(4000.0, 96)), [5.0; 4]);
    assert_eq!(vs_sw(relative(4000.0, 1000)), [-6.5, 7.0, 0.25, 8.0]);
    assert_eq!(vs_sw(relative(8000.0, 191)), [9.0; 4]);
    assert_eq!(vs_sw(relative(8000.0, 192)), [0.0; 4]);
    assert_eq!(vs_sw(relative(-10.0, 9)), [0.0; 4]);
}
