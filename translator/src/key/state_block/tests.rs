use super::*;
use crate::key::delivery::{Deliveries, Delivery};
use crate::key::ShaderKey;
use crate::{ParseOptions, Shader};

fn ps20() -> Shader {
    // Reads s0 so that the unbound mask has something to act on; ps_2_0 has fixed-function fog.
    Shader::from_asm("ps_2_0\ndcl t0\ndcl_2d s0\ntexld r0, t0, s0\nmov oC0, r0\n", &ParseOptions::default()).unwrap()
}

fn key(assignments: &[&str], deliver: Delivery) -> ShaderKey {
    let mut k = ShaderKey { delivery: Deliveries::all(deliver), ..ShaderKey::default() };
    for a in assignments {
        k.set(a).unwrap();
    }
    k
}

/// The RenderState struct of a translation's module: (name, offset) of each member and the span.
fn module_layout(t: &crate::Translation) -> (Vec<(String, u32)>, u32) {
    let g = t.module.global_variables.iter().find(|(_, g)| g.name.as_deref() == Some("render_state")).unwrap().1;
    match &t.module.types[g.ty].inner {
        naga::TypeInner::Struct { members, span } => {
            (members.iter().map(|m| (m.name.clone().unwrap(), m.offset)).collect(), *span)
        }
        other => panic!("render_state is {other:?}"),
    }
}

#[test]
fn the_module_the_docs_and_the_bytes_agree_on_the_layout() {
    let t = ps20().translate(&key(&[], Delivery::Uniform)).unwrap();
    let (members, span) = module_layout(&t);
    let table: Vec<(String, u32)> = LAYOUT.iter().map(|&(n, o, _)| (n.to_string(), o)).collect();
    assert_eq!(members, table);
    assert_eq!(span, SIZE);
    // Each member is drawn in lower/mod.rs's table as `name: type, // offset`.
    let docs = include_str!("../../lower/mod.rs");
    for &(name, offset, _) in &LAYOUT {
        let line = docs.lines().find(|l| l.trim_start_matches("//!").trim_start().starts_with(&format!("{name}:")));
        let line = line.unwrap_or_else(|| panic!("{name} is not in the documented layout"));
        let after = line.split("//").nth(2).unwrap_or_else(|| panic!("{line}: no offset comment"));
        assert_eq!(after.split_whitespace().next(), Some(offset.to_string().as_str()), "{line}");
    }
    assert!(docs.contains(&format!("// size {SIZE}")));
}

#[test]
fn to_bytes_puts_each_value_at_its_offset() {
    let mut s = RenderState {
        fog_color: [0.25, 0.5, 0.75, 1.0],
        fog_start: 2.0,
        fog_end: 8.0,
        fog_density: 0.5,
        // Only the low byte counts: 0x180 compares as 0x80 = 128, stored as 128 / 255.
        alpha_ref: 0x180,
        point_size: 3.0,
        point_size_min: 1.5,
        point_size_max: 9.0,
        ..RenderState::default()
    };
    s.clip_planes[7] = [1.0, 2.0, 3.0, 4.0];
    s.bump_env[2] = [0.1, 0.2, 0.3, 0.4];
    s.bump_luminance[5] = [6.0, 7.0];
    s.modes = Modes {
        alpha_func: 5,
        fog_mode: 3,
        fog_source: 1,
        clip_plane_mask: 0x81,
        unbound_samplers: 0x4,
        projected: [0, 0, 0, 4, 0, 0, 3, 0],
    };
    let b = s.to_bytes();
    assert_eq!(b.len(), 496);
    let f = |o: usize| f32::from_le_bytes(b[o..o + 4].try_into().unwrap());
    let u = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
    assert_eq!([f(0), f(4), f(8), f(12)], [0.25, 0.5, 0.75, 1.0]);
    assert_eq!([f(16), f(20), f(24)], [2.0, 8.0, 0.5]);
    assert_eq!(f(28), 128.0 / 255.0);
    assert_eq!([f(32), f(36), f(40)], [3.0, 1.5, 9.0]);
    // clip plane 7 at 48 + 7 · 16 = 160; bump_env[2] at 176 + 32 = 208; luminance[5] at 304 + 80.
    assert_eq!([f(160), f(164), f(168), f(172)], [1.0, 2.0, 3.0, 4.0]);
    assert_eq!([f(208), f(212), f(216), f(220)], [0.1, 0.2, 0.3, 0.4]);
    assert_eq!([f(384), f(388), f(392)], [6.0, 7.0, 0.0]);
    // projected[3] at 432 + 12, projected[6] at 432 + 24.
    assert_eq!([u(444), u(456), u(432)], [4, 3, 0]);
    assert_eq!([u(464), u(468), u(472), u(476), u(480)], [5, 3, 1, 0x81, 4]);
}

#[test]
fn override_and_uniform_delivery_give_one_module_for_every_mode() {
    let ps = ps20();
    let a = ["alpha_func=less", "fog=linear", "unbound_samplers=1"];
    let b = ["alpha_func=greater", "fog=exp", "fog_source=w"];
    for d in [Delivery::Override, Delivery::Uniform] {
        let wa = ps.translate(&key(&a, d)).unwrap().to_wgsl().unwrap();
        let wb = ps.translate(&key(&b, d)).unwrap().to_wgsl().unwrap();
        assert_eq!(wa, wb, "{d}");
        // The minimal keys agree too: one cache entry.
        assert_eq!(ps.minimal_key(&key(&a, d)), ps.minimal_key(&key(&b, d)));
        let overrides = wa.contains("override alpha_func: u32 = 8u;") && wa.contains("override fog_mode: u32 = 0u;");
        assert_eq!(overrides, d == Delivery::Override, "{wa}");
        assert_eq!(wa.contains("override"), d == Delivery::Override);
    }
    // Baked: the two states are two modules.
    let wa = ps.translate(&key(&a, Delivery::Baked)).unwrap().to_wgsl().unwrap();
    let wb = ps.translate(&key(&b, Delivery::Baked)).unwrap().to_wgsl().unwrap();
    assert_ne!(wa, wb);
}

#[test]
fn pipeline_constants_name_only_the_modules_overrides_and_specialise_removes_them() {
    let t = ps20().translate(&key(&[], Delivery::Override)).unwrap();
    let mut names = t.overrides();
    names.sort();
    // A ps_2_0 reads the alpha function, the fog mode and source and the unbound mask; no clip
    // planes (vertex), no projection counts (ps_1_0–1_3).
    assert_eq!(names, ["alpha_func", "fog_mode", "fog_source", "unbound_samplers"]);
    let state = RenderState { modes: Modes { alpha_func: 4, ..Modes::default() }, ..RenderState::default() };
    let mut c = t.pipeline_constants(&state.modes, 0, &[[0; 4]; 16]).as_slice().to_vec();
    c.sort_by(|x, y| x.0.cmp(y.0));
    assert_eq!(c[0], ("alpha_func", 4.0));
    assert_eq!(c.len(), 4);
    assert!(t.to_spirv().is_err(), "naga's SPIR-V writer has no overrides");
    let s = t.specialise(&state).unwrap();
    let f = &s.module.entry_points[0].function;
    assert!(!f.expressions.iter().any(|(_, e)| matches!(e, naga::Expression::Override(_))));
    assert_eq!(s.to_spirv().unwrap()[0], 0x0723_0203);
}

#[test]
fn modes_from_a_key_are_the_d3d9_values() {
    let k =
        key(&["alpha_func=greaterequal", "fog=exp2", "fog_source=w", "clip_planes=5", "projected2=3"], Delivery::Baked);
    let m = Modes::from_key(&k).unwrap();
    // D3DCMP_GREATEREQUAL = 7, D3DFOG_EXP2 = 2.
    assert_eq!((m.alpha_func, m.fog_mode, m.fog_source, m.clip_plane_mask), (7, 2, 1, 5));
    assert_eq!(m.projected, [0, 0, 3, 0, 0, 0, 0, 0]);
    assert_eq!(Modes::from_key(&ShaderKey::default()), Ok(Modes::default()));
}

#[test]
fn wgsl_with_overrides_survives_naga_pipeline_constants_after_a_text_round_trip() {
    // What wgpu does with `constants`: parse the WGSL, then naga's pipeline-constant pass. A
    // `defi` register read component by component inside a loop (`loop aL, i0` reads i0.x, .y,
    // .z) once made that pass fail (`ExpressionAlreadyInScope`): the lowering now reads a
    // component of a literal vector as the literal (lower/builder.rs).
    let ps = Shader::from_asm(
        "ps_3_0\ndefi i0, 3, 0, 1, 0\ndef c0, 0.5, 0, 0, 1\ndcl_color v0\nmov r0, v0\n\
         loop aL, i0\nmul r0, r0, c0.x\nendloop\nmov oC0, r0\n",
        &ParseOptions::default(),
    )
    .unwrap();
    let t = ps.translate(&key(&[], Delivery::Override)).unwrap();
    assert_eq!(t.overrides(), ["alpha_func"]);
    let module = naga::front::wgsl::parse_str(&t.to_wgsl().unwrap()).unwrap();
    let info = crate::emit::validate(&module).unwrap();
    let mut constants = naga::back::PipelineConstants::default();
    constants.insert("alpha_func".into(), 5.0);
    naga::back::pipeline_constants::process_overrides(&module, &info, None, &constants).unwrap();
}

/// A vs_3_0 whose flow reads b1, i0 (`loop`) and i2 (`rep`) from the application.
fn flow_vs() -> Shader {
    Shader::from_asm(
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndef c0, 0.5, 0, 0, 1\nmov r0, v0\n\
         loop aL, i0\nadd r0, r0, c0.x\nendloop\nrep i2\nmul r0, r0, c0.x\nendrep\n\
         if b1\nmov r0, -r0\nendif\nmov o0, r0\n",
        &ParseOptions::default(),
    )
    .unwrap()
}

#[test]
fn baked_and_override_constants_give_wgsl_that_naga_validates() {
    let vs = flow_vs();
    let mut ints = [[0; 4]; 16];
    (ints[0], ints[2]) = ([3, 1, 2, 0], [4, 0, 0, 0]);
    // Baked: literal values, no constant buffers, and valid WGSL.
    let mut k = key(&["bool_constants=2", "int0=3,1,2", "int2=4,0,0"], Delivery::Baked);
    let t = vs.translate(&k).unwrap();
    assert_eq!((t.layout.int_constants, t.layout.bool_constants), (None, None));
    assert!(t.overrides().is_empty());
    let wgsl = t.to_wgsl().unwrap();
    crate::emit::validate(&naga::front::wgsl::parse_str(&wgsl).unwrap()).unwrap();
    assert!(t.to_spirv().is_ok());
    // Another b1: another module.
    k.set("bool_constants=0").unwrap();
    assert_ne!(vs.translate(&k).unwrap().to_wgsl().unwrap(), wgsl);
    // Override: one module for every value; the overrides are named as the delivery table says.
    let overrides = |assignments: &[&str]| {
        let mut k = key(assignments, Delivery::Baked);
        k.delivery.set("bool_constants=override").unwrap();
        k.delivery.set("int_constants=override").unwrap();
        vs.translate(&k).unwrap()
    };
    let t = overrides(&[]);
    let mut names = t.overrides();
    names.sort();
    let expected = [
        "bool_constants",
        "int_constant0_count",
        "int_constant0_start",
        "int_constant0_step",
        "int_constant0_w",
        "int_constant2_count",
        "int_constant2_start",
        "int_constant2_step",
        "int_constant2_w",
    ];
    assert_eq!(names, expected);
    assert_eq!(overrides(&["bool_constants=2", "int0=3,1,2"]).to_wgsl().unwrap(), t.to_wgsl().unwrap());
    // What wgpu does with the WGSL and `constants`.
    let module = naga::front::wgsl::parse_str(&t.to_wgsl().unwrap()).unwrap();
    let info = crate::emit::validate(&module).unwrap();
    let values = constant_overrides(&module, 2, &ints);
    assert_eq!(values.len(), 9);
    assert!(
        values.contains(&("int_constant0_step".to_string(), 2.0)) && values.contains(&("bool_constants".into(), 2.0))
    );
    let mut constants = naga::back::PipelineConstants::default();
    constants.extend(values);
    naga::back::pipeline_constants::process_overrides(&module, &info, None, &constants).unwrap();
    // And the SPIR-V path: specialised first.
    let s = t.specialise_with_constants(&RenderState::default(), 2, &ints).unwrap();
    let m = &s.module;
    let mut functions = m.functions.iter().map(|(_, f)| f).chain(m.entry_points.iter().map(|e| &e.function));
    assert!(!functions.any(|f| f.expressions.iter().any(|(_, e)| matches!(e, naga::Expression::Override(_)))));
    assert_eq!(s.to_spirv().unwrap()[0], 0x0723_0203);
}

/// The trap of issue 44: a layer translates under the minimal key with the alpha function
/// delivered as an override, so the key's `alpha_func` is reset to ALWAYS; pipeline constants
/// taken from that key would run the alpha test off while the device said GREATER. The key is
/// refused; the modes come from the device state.
#[test]
fn the_modes_of_an_override_key_are_the_device_states_not_the_minimal_keys() {
    use crate::key::device::{BoundTexture, DeviceState};
    let ps = ps20();
    // D3DRS_ALPHATESTENABLE TRUE, D3DRS_ALPHAFUNC D3DCMP_GREATER (5); s0 bound.
    let mut state = DeviceState { alpha_test_enable: true, alpha_func: 5, ..DeviceState::default() };
    state.textures[0] = Some(BoundTexture::Tex2D);
    let mut layer_key = ps.key(&state);
    layer_key.delivery.set("alpha_func=override").unwrap();
    let minimal = ps.minimal_key(&layer_key);
    let refused = Modes::from_key(&minimal).unwrap_err();
    assert_eq!((refused.field, refused.delivery), ("alpha_func", Delivery::Override));
    let modes = ps.modes(&state);
    // D3DCMP_GREATER, as the device state says; nothing bound to s1–s15.
    assert_eq!(modes, Modes { alpha_func: 5, unbound_samplers: 0xfffe, ..Modes::default() });
    let pipeline = ps.translate(&minimal).unwrap().pipeline_constants(&modes, 0, &[[0; 4]; 16]);
    assert_eq!(pipeline.as_slice(), [("alpha_func", 5.0)]);
    // The SPIR-V path: specialised with the state's modes, the alpha test is in the code.
    let t = ps.translate(&minimal).unwrap();
    let on = t.specialise(&RenderState { modes, ..RenderState::default() }).unwrap().to_spirv().unwrap();
    let off = t.specialise(&RenderState::default()).unwrap().to_spirv().unwrap();
    assert_ne!(on, off);
}
