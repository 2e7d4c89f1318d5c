use super::*;
use crate::ParseOptions;

fn shader(text: &str) -> Shader {
    Shader::from_asm(text, &ParseOptions::default()).unwrap()
}

const POSITION: VertexElement =
    VertexElement { stream: 0, offset: 0, ty: DeclType::Float3, usage: Usage::Position, usage_index: 0 };

/// A vs_2_0/ps_2_0 pair: both fit the stable interface, which uses 16 locations.
#[test]
fn the_stable_interface_needs_sixteen_locations_and_says_so() {
    let vs = shader("vs_2_0\ndcl_position v0\nmov oPos, v0\nmov oT0, v0\n");
    let ps = shader("ps_2_0\ndcl t0\nmov oC0, t0\n");
    let pair = Pair::new(&vs, &ps, &[POSITION]).unwrap();
    assert_eq!(pair.linkage().unwrap(), Linkage::stable());
    let prepared = pair.prepare(&DeviceState::default(), Default::default(), &mut ArtifactCache::default()).unwrap();
    assert_eq!(prepared.attributes, [(POSITION, 0)]);
    assert_eq!(prepared.inter_stage_variables(), 16);
    assert_eq!(prepared.check_inter_stage_limit(16), Ok(()));
    // WebGPU's downlevel limit.
    let e = prepared.check_inter_stage_limit(15).unwrap_err();
    assert_eq!(e, InterStageLimitError { needed: 16, limit: 15, stable: true });
    let message = e.to_string();
    assert!(message.contains("16") && message.contains("15") && message.contains("link"), "{message}");
    assert_eq!(Linkage::stable().check_inter_stage_limit(15), Err(e));
    // The same pair linked passes TEXCOORD0 alone: the fog blend of ps_2_0 reads FOG, which the
    // vertex shader does not write, so it is a default with no location.
    let linked = link(&vs, &ps).unwrap();
    assert_eq!(linked.inter_stage_locations(), 1);
    assert_eq!(linked.check_inter_stage_limit(0).map_err(|e| (e.needed, e.stable)), Err((1, false)));
}

/// A linked vs_3_0/ps_3_0 pair (TANGENT0 is outside the stable map) with user clip planes 0
/// and 2: three clip distances, one location (WebGPU counts them four to a location) beside
/// the two the pair passes.
#[test]
fn clip_distances_count_four_to_a_location() {
    let vs = shader(
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord o1\ndcl_tangent o2\nmov o0, v0\nmov o1, v0\nmov o2, v0\n",
    );
    let ps = shader("ps_3_0\ndcl_texcoord v0\ndcl_tangent v1\nadd oC0, v0, v1\n");
    let mut pair = Pair::new(&vs, &ps, &[POSITION]).unwrap();
    pair.delivery = Deliveries::all(Delivery::Baked);
    assert!(!pair.linkage().unwrap().stable);
    let state = DeviceState { clip_plane_enable: 0b101, ..DeviceState::default() };
    let prepared = pair.prepare(&state, Default::default(), &mut ArtifactCache::default()).unwrap();
    assert_eq!(prepared.inter_stage_variables(), 3);
    assert_eq!(prepared.check_inter_stage_limit(2).map_err(|e| (e.needed, e.limit)), Err((3, 2)));
    // Without clip planes: the two locations.
    let prepared = pair.prepare(&DeviceState::default(), Default::default(), &mut ArtifactCache::default()).unwrap();
    assert_eq!(prepared.inter_stage_variables(), 2);
}

#[test]
fn an_input_the_declaration_does_not_give_is_refused_and_the_cache_is_used() {
    let vs = shader("vs_2_0\ndcl_position v0\ndcl_color v1\nmov oPos, v0\nmov oD0, v1\n");
    let ps = shader("ps_2_0\ndcl v0\nmov oC0, v0\n");
    let e = Pair::new(&vs, &ps, &[POSITION]).unwrap().keys(&DeviceState::default()).unwrap_err();
    assert!(matches!(e, Error::MissingVertexElement { register: 1, usage: Some(Usage::Color), usage_index: 0 }), "{e}");
    assert!(Pair::new(&ps, &vs, &[POSITION]).is_err(), "stages swapped");
    // D3DCOLOR feeds v1: the key says so; two states differing in an overridden mode (the alpha
    // function) share the translations.
    let color = VertexElement { offset: 12, ty: DeclType::D3dColor, usage: Usage::Color, ..POSITION };
    let declaration = [POSITION, color];
    let pair = Pair::new(&vs, &ps, &declaration).unwrap();
    let mut cache = ArtifactCache::default();
    let a = DeviceState { alpha_test_enable: true, alpha_func: 5, ..DeviceState::default() };
    let b = DeviceState { alpha_func: 2, ..a };
    let pa = pair.prepare(&a, Default::default(), &mut cache).unwrap();
    assert_eq!(pa.vertex.key.vertex_inputs[1], Some(DeclType::D3dColor));
    let pb = pair.prepare(&b, Default::default(), &mut cache).unwrap();
    assert_eq!((cache.translations(), cache.len()), (2, 2));
    // D3DCMP_GREATER = 5, D3DCMP_LESS = 2: from the device state, not the key.
    assert_eq!((pa.pixel.constants.get("alpha_func"), pb.pixel.constants.get("alpha_func")), (Some(5.0), Some(2.0)));
}
