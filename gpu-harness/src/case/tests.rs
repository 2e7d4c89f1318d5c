//! The case format's parsing and checks, on small hand-written cases.

use super::*;

const MINIMAL: &str = r#"
name = "t"
description = "d"
[render_target]
clear_color = 0xff000000
[[draw]]
vertex_shader = "none"
pixel_shader = "none"
primitive = "triangle_strip"
primitive_count = 2
elements = [{ stream = 0, offset = 0, type = "FLOAT3", usage = "POSITION", usage_index = 0 }]
vertices = [[-1.0, -1.0, 0.0], [-1.0, 1.0, 0.0], [1.0, -1.0, 0.0], [1.0, 1.0, 0.0]]
[[probe]]
x = 1
y = 2
expected = 0x00ffffff
"#;

fn parse(text: &str) -> Result<Case, CaseError> {
    Case::parse(text, Path::new("test.toml"))
}

#[test]
fn minimal_case_takes_the_documented_defaults() {
    let c = parse(MINIMAL).unwrap();
    assert_eq!((c.render_target.width, c.render_target.height), (640, 480));
    assert_eq!(c.render_target.clear_depth, 1.0);
    assert_eq!(c.api, Api::D3d9);
    assert_eq!(c.probes[0].compare, Compare::Rgb);
    let mut state = RenderState::default();
    state.apply(&c.render_states);
    // README: ZENABLE on, ZFUNC LESSEQUAL, CULLMODE CCW, LIGHTING TRUE.
    assert!(state.zenable && state.lighting);
    assert_eq!((state.zfunc, state.cullmode), (CompareFunc::LessEqual, CullMode::Ccw));
}

#[test]
fn unknown_fields_are_errors_everywhere() {
    for (from, to) in [
        ("description = \"d\"", "description = \"d\"\nbogus = 1"),
        ("clear_color = 0xff000000", "clear_color = 0xff000000\nbogus = 1"),
        ("usage_index = 0 }", "usage_index = 0, bogus = 1 }"),
        ("expected = 0x00ffffff", "expected = 0x00ffffff\nbogus = 1"),
        ("primitive_count = 2", "primitive_count = 2\nbogus = 1"),
        ("[[draw]]", "[render_states]\nNOT_A_STATE = true\n[[draw]]"),
    ] {
        let text = MINIMAL.replacen(from, to, 1);
        assert!(matches!(parse(&text), Err(CaseError::Parse { .. })), "accepted: {to}");
    }
}

#[test]
fn inconsistent_sizes_are_errors() {
    for (from, to) in [
        ("primitive_count = 2", "primitive_count = 3"),
        ("[-1.0, -1.0, 0.0], [-1.0, 1.0", "[-1.0, -1.0], [-1.0, 1.0"),
        ("x = 1", "x = 640"),
        ("x = 1", "x = 1\ntarget = 1"),
        ("x = 1", "x = 1\nafter_draw = 1"),
        ("expected = 0x00ffffff", "expected_float = [1.0, 1.0, 1.0, 1.0]\ncompare = \"rgba\""),
    ] {
        let text = MINIMAL.replacen(from, to, 1);
        assert!(matches!(parse(&text), Err(CaseError::Invalid { .. })), "accepted: {to}");
    }
}

#[test]
fn texture_stages_are_pixel_samplers_or_d3d9_vertex_samplers() {
    let with = |stages: &[u32]| {
        let textures: String = stages
            .iter()
            .map(|s| format!("[[texture]]\nstage = {s}\ntype = \"2d\"\nwidth = 1\nheight = 1\nformat = \"A8R8G8B8\"\ntexels = [0]\n"))
            .collect();
        parse(&MINIMAL.replacen("[[draw]]", &format!("{textures}[[draw]]"), 1))
    };
    // 0..=15 pixel samplers; D3DVERTEXTEXTURESAMPLER0..3 = 257..=260 (vs_3_0 s0..s3).
    let c = with(&[0, 15, 257, 260]).unwrap();
    assert_eq!(c.textures.iter().map(Texture::vertex_sampler).collect::<Vec<_>>(), [None, None, Some(0), Some(3)]);
    assert_eq!((sampler_stage(false, 2), sampler_stage(true, 2)), (2, 259));
    for bad in [&[16][..], &[256], &[261], &[257, 257], &[3, 3]] {
        let e = with(bad).unwrap_err();
        assert!(matches!(e, CaseError::Invalid { .. }), "accepted stages {bad:?}");
    }
    let e = with(&[256]).unwrap_err().to_string();
    assert!(e.contains("257..=260"), "{e}");
}

#[test]
fn texel_count_follows_faces_levels_and_slices() {
    let t = Texture {
        stage: 0,
        kind: TextureDimension::Cube,
        width: 4,
        height: 4,
        depth: 1,
        format: TextureFormat::A8R8G8B8,
        mip_levels: 3,
        filter: Filter::Point,
        mip_filter: MipFilter::Point,
        address: Address::Wrap,
        texels: vec![],
        fill: None,
        fetch4: false,
    };
    // 6 faces x (16 + 4 + 1).
    assert_eq!(t.expected_texels(), 126);
    let v = Texture { kind: TextureDimension::Volume, width: 4, height: 2, depth: 2, mip_levels: 3, ..t };
    // 4x2x2 + 2x1x1 + 1x1x1.
    assert_eq!(v.expected_texels(), 16 + 2 + 1);
}

#[test]
fn transform_flags_parse() {
    assert_eq!(TransformFlags::parse("COUNT4|PROJECTED"), Ok(TransformFlags { count: 4, projected: true }));
    assert_eq!(TransformFlags::parse("DISABLE"), Ok(TransformFlags::default()));
    assert!(TransformFlags::parse("COUNT5").is_err());
}
