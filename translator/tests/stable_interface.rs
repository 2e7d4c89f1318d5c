//! The stable interface: each stage translated once, alone, under `Linkage::stable()`, and any
//! vertex shader pairs with any pixel shader (docs: `d3d9_shader::key::linkage`).

use d3d9_shader::bytecode::Usage;
use d3d9_shader::lower::{InterfaceSlot, Linkage};
use d3d9_shader::{ParseOptions, Shader, ShaderKey};

fn shader(text: &str) -> Shader {
    Shader::from_asm(text, &ParseOptions::default()).unwrap()
}

fn stable_key() -> ShaderKey {
    ShaderKey { linkage: Some(Linkage::stable()), ..ShaderKey::default() }
}

fn locations(slots: &[InterfaceSlot]) -> Vec<(Option<Usage>, u8, u32)> {
    let mut v: Vec<_> = slots.iter().filter_map(|s| Some((s.usage, s.usage_index, s.location?))).collect();
    v.sort_by_key(|s| s.2);
    v
}

#[test]
fn every_vertex_shader_outputs_all_sixteen_locations_with_d3d9_defaults() {
    // vs_1_1 writing oT0 only; vs_3_0 writing TEXCOORD9 and NORMAL0.
    let vs11 = shader("vs_1_1\ndcl_position v0\nmov oPos, v0\nmov oT0, v0\n");
    let vs30 = shader(
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord9 o1\ndcl_normal o2\nmov o0, v0\nmov o1, v0\nmov o2, v0\n",
    );
    for vs in [&vs11, &vs30] {
        assert!(vs.fits_stable_interface());
        let t = vs.translate(&stable_key()).unwrap();
        let locs: Vec<u32> = locations(&t.interface.outputs).iter().map(|s| s.2).collect();
        assert_eq!(locs, (0..16).collect::<Vec<_>>());
        t.to_wgsl().unwrap();
    }
    let t = vs11.translate(&stable_key()).unwrap();
    let slot = |usage, index| {
        t.interface.outputs.iter().find(|s| s.usage == Some(usage) && s.usage_index == index).unwrap().clone()
    };
    // D3D9's values for what the vertex shader does not write: COLOR0 = 1, COLOR1 = (0, 0, 0, 1),
    // every other semantic 0; FOG 0, the fixed-function blend's factor for an unwritten oFog
    // (measured on Windows, docs/d3d9-rules.md#fog).
    assert_eq!((slot(Usage::Color, 0).location, slot(Usage::Color, 0).default), (Some(8), Some([1.0; 4])));
    assert_eq!(slot(Usage::Color, 1).default, Some([0.0, 0.0, 0.0, 1.0]));
    assert_eq!((slot(Usage::Fog, 0).location, slot(Usage::Fog, 0).default), (Some(10), Some([0.0; 4])));
    assert_eq!((slot(Usage::Normal, 0).location, slot(Usage::Normal, 0).default), (Some(14), Some([0.0; 4])));
    assert_eq!((slot(Usage::TexCoord, 0).location, slot(Usage::TexCoord, 0).default), (Some(0), None));
}

#[test]
fn pixel_inputs_sit_at_their_stable_locations_and_outside_the_map_is_refused() {
    let ps = shader("ps_3_0\ndcl_texcoord8 v0\ndcl_color1 v1\ndcl_position v2\nadd r0, v0, v1\nadd oC0, r0, v2\n");
    assert!(ps.fits_stable_interface());
    let t = ps.translate(&stable_key()).unwrap();
    assert_eq!(
        locations(&t.interface.inputs),
        [(Some(Usage::Color), 1, 9), (Some(Usage::TexCoord), 8, 11), (Some(Usage::Position), 0, 13)]
    );
    // A ps_3_0 FOG input reads an unwritten FOG as 1, the map's FOG is the blend's 0: link.
    let ps = shader("ps_3_0\ndcl_fog v0\nmov oC0, v0\n");
    assert!(!ps.fits_stable_interface());
    assert!(ps.translate(&stable_key()).is_err());
    let ps = shader("ps_3_0\ndcl_tangent v0\nmov oC0, v0\n");
    assert!(!ps.fits_stable_interface());
    let e = ps.translate(&stable_key()).unwrap_err().to_string();
    assert!(e.contains("tangent0 has no location in the stable interface"), "{e}");
    // A ps_2_0 reads t# and v# at the fixed-function locations of the default map.
    let ps = shader("ps_2_0\ndcl t3\ndcl v0\nadd r0, t3, v0\nmov oC0, r0\n");
    let t = ps.translate(&stable_key()).unwrap();
    assert_eq!(locations(&t.interface.inputs), [(Some(Usage::TexCoord), 3, 3), (Some(Usage::Color), 0, 8)]);
}
