//! The key's tests: `set`, `from_state` (values by the D3D9 state rules) and `minimal` (two states
//! that differ only in what a shader ignores give equal keys and the same code).

use super::*;
use crate::bytecode::{ShaderKind, Version};
use crate::{ParseOptions, Shader};

#[test]
fn set_parses_every_field_kind() {
    let mut k = ShaderKey::default();
    k.set("float_rules=fast").unwrap();
    k.set("alpha_func=greaterequal").unwrap();
    k.set("alpha_precision=float").unwrap();
    k.set("clip_planes=0x3").unwrap();
    k.set("sampler2=cube").unwrap();
    k.set("point_sprite=1").unwrap();
    k.set("fetch4_samplers=0x5").unwrap();
    assert_eq!(k.fetch4_samplers, 5);
    assert!(k.set("fetch4_samplers=0x10000").is_err());
    assert_eq!(k.float_rules, FloatRules::Fast);
    assert_eq!(k.alpha_func, CompareFunc::GreaterEqual);
    assert_eq!(k.alpha_precision, AlphaPrecision::Float);
    assert_eq!(k.clip_planes, 3);
    assert_eq!(k.sampler_type(2, Some(TextureType::Tex2D)), TextureType::Cube);
    assert_eq!(k.sampler_type(3, None), TextureType::Tex2D);
    assert!(k.point_sprite);
    assert!(k.set("clip_planes=300").is_err());
    assert!(k.set("nonsense=1").is_err());
    assert!(k.set("sampler16=2d").is_err());
    // A mask projects by w (COUNT4); `projected<N>` sets one stage's count.
    k.set("projected=5").unwrap();
    k.set("projected1=3").unwrap();
    assert_eq!(k.projected, [4, 3, 4, 0, 0, 0, 0, 0]);
    assert!(k.set("projected1=5").is_err());
    assert!(k.set("projected8=4").is_err());
}

fn v(kind: ShaderKind, major: u8) -> Version {
    Version { kind, major, minor: 0 }
}

#[test]
fn pixel_state_reaches_only_pixel_keys() {
    let mut s = DeviceState {
        alpha_test_enable: true,
        alpha_func: 7,
        fog_enable: true,
        fog_table_mode: 3,
        ..DeviceState::default()
    };
    s.textures[0] = Some(BoundTexture::Tex2D);
    s.textures[2] = Some(BoundTexture::Depth2D);
    let ps = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
    assert_eq!(ps.alpha_func, CompareFunc::GreaterEqual);
    assert_eq!(ps.fog, FogMode::Linear);
    // Samplers 1 and 3..15 have nothing bound.
    assert_eq!(ps.unbound_samplers, 0b1111_1111_1111_1010);
    assert_eq!(ps.shadow_samplers, 0b100);
    // The vertex shader's key ignores all of it: the cache keeps one translation.
    let vs = ShaderKey::from_state(v(ShaderKind::Vertex, 2), &s);
    assert_eq!(vs, ShaderKey::default());
}

#[test]
fn fetch4_follows_get4_and_get1_on_bound_2d_pixel_samplers() {
    // The FOURCC is the characters in memory order: 'G' 0x47, 'E' 0x45, 'T' 0x54, '4' 0x34.
    assert_eq!((FOURCC_GET4, FOURCC_GET1), (0x3454_4547, 0x3154_4547));
    let mut s = DeviceState::default();
    s.set_mipmap_lod_bias(0, FOURCC_GET4);
    s.set_mipmap_lod_bias(1, FOURCC_GET4);
    s.set_mipmap_lod_bias(2, FOURCC_GET4);
    s.set_mipmap_lod_bias(3, FOURCC_GET4);
    // A real bias (1.0f as bits) keeps the mode; GET1 ends it; sampler 16 does not exist.
    s.set_mipmap_lod_bias(0, 1.0f32.to_bits());
    s.set_mipmap_lod_bias(3, FOURCC_GET1);
    s.set_mipmap_lod_bias(16, FOURCC_GET4);
    assert_eq!(s.fetch4_samplers, 0b0111);
    s.textures[0] = Some(BoundTexture::Tex2D);
    s.textures[1] = Some(BoundTexture::Cube);
    s.textures[2] = Some(BoundTexture::Depth2D);
    s.textures[3] = Some(BoundTexture::Tex2D);
    // Only s0: s1 is a cube, s2 a shadow map, s3 has GET1.
    assert_eq!(ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s).fetch4_samplers, 0b1);
    s.vertex_textures[0] = Some(BoundTexture::Tex2D);
    assert_eq!(ShaderKey::from_state(v(ShaderKind::Vertex, 3), &s).fetch4_samplers, 0);
}

#[test]
fn alpha_test_off_means_always_whatever_the_function() {
    let s = DeviceState { alpha_func: 2, ..DeviceState::default() };
    assert_eq!(ShaderKey::from_state(v(ShaderKind::Pixel, 3), &s).alpha_func, CompareFunc::Always);
}

#[test]
fn alpha_test_on_a_float_target_compares_at_float_precision() {
    let s = DeviceState { alpha_test_enable: true, alpha_func: 5, float_render_target: true, ..DeviceState::default() };
    let k = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
    assert_eq!((k.alpha_func, k.alpha_precision), (CompareFunc::Greater, AlphaPrecision::Float));
    // Without the test the precision does not split the cache.
    let s = DeviceState { alpha_test_enable: false, ..s };
    let k = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
    assert_eq!((k.alpha_func, k.alpha_precision), (CompareFunc::Always, AlphaPrecision::Unorm8));
}

#[test]
fn fog_table_none_is_vertex_fog_and_ps_3_0_has_none() {
    let s = DeviceState { fog_enable: true, fog_table_mode: 0, w_fog: true, ..DeviceState::default() };
    let k = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
    assert_eq!((k.fog, k.fog_source), (FogMode::Vertex, FogSource::Z));
    assert_eq!(ShaderKey::from_state(v(ShaderKind::Pixel, 3), &s).fog, FogMode::None);
    let s = DeviceState { fog_table_mode: 2, ..s };
    let k = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
    assert_eq!((k.fog, k.fog_source), (FogMode::Exp2, FogSource::W));
}

#[test]
fn vertex_state_and_sm1_texture_types() {
    let mut s = DeviceState { clip_plane_enable: 0b11, point_list: true, shade_mode: 1, ..DeviceState::default() };
    s.textures[1] = Some(BoundTexture::Cube);
    let vs = ShaderKey::from_state(v(ShaderKind::Vertex, 2), &s);
    assert_eq!((vs.clip_planes, vs.point_size, vs.flat_shading, vs.unbound_samplers), (3, true, true, 0));
    let ps = ShaderKey::from_state(Version { kind: ShaderKind::Pixel, major: 1, minor: 4 }, &s);
    assert_eq!(ps.sampler_types[1], Some(TextureType::Cube));
    assert_eq!(ps.sampler_types[0], None);
    // D3DTTFF_COUNT4 | D3DTTFF_PROJECTED on stage 2: ps_1_1 projects, ps_1_4 and ps_2_0 do not.
    s.texture_transform_flags[2] = 4 | 256;
    let p11 = ShaderKey::from_state(Version { kind: ShaderKind::Pixel, major: 1, minor: 1 }, &s);
    assert_eq!(p11.projected, [0, 0, 4, 0, 0, 0, 0, 0]);
    assert_eq!(ShaderKey::from_state(Version { kind: ShaderKind::Pixel, major: 1, minor: 4 }, &s).projected, [0; 8]);
    assert_eq!(ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s).projected, [0; 8]);
    // COUNT3 | PROJECTED divides by z: the count is kept.
    s.texture_transform_flags[2] = 3 | 256;
    let p11 = ShaderKey::from_state(Version { kind: ShaderKind::Pixel, major: 1, minor: 1 }, &s);
    assert_eq!(p11.projected[2], 3);
    // No valid count (PROJECTED alone; 0xffffffff's low byte 0xff): w behind a vertex shader,
    // the last supplied component behind the fixed-function vertex stage, which Windows draws
    // for a three-component coordinate as COUNT3 | PROJECTED (docs/d3d9-rules.md#ffp-texcoords).
    let p13 = Version { kind: ShaderKind::Pixel, major: 1, minor: 3 };
    for flags in [256, 0xffff_ffff] {
        s.texture_transform_flags[2] = flags;
        s.fixed_function_texcoords = None;
        assert_eq!(ShaderKey::from_state(p13, &s).projected[2], 4);
        s.fixed_function_texcoords = Some([2, 2, 3, 2, 0, 0, 0, 0]);
        assert_eq!(ShaderKey::from_state(p13, &s).projected[2], 3);
    }
    // A valid count wins over the supplied size.
    s.texture_transform_flags[2] = 2 | 256;
    assert_eq!(ShaderKey::from_state(p13, &s).projected[2], 2);
    s.fixed_function_texcoords = None;
    // SM2 declares its types: the bound texture does not override them.
    let ps2 = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
    assert_eq!(ps2.sampler_types, [None; 16]);
}

fn shader(text: &str) -> Shader {
    Shader::from_asm(text, &ParseOptions::default()).unwrap()
}

/// Both states' keys are equal, and so are the translations under the unreduced keys (the
/// fields dropped were not read).
fn same(s: &Shader, a: &DeviceState, b: &DeviceState) {
    assert_eq!(s.key(a), s.key(b));
    let wgsl = |st: &DeviceState| s.translate(&s.key(st)).unwrap().to_wgsl().unwrap();
    let full = |st: &DeviceState| s.translate(&ShaderKey::from_state(s.version(), st)).unwrap().to_wgsl().unwrap();
    assert_eq!(wgsl(a), full(a));
    assert_eq!(wgsl(b), full(b));
}

#[test]
fn a_vertex_shader_ignores_pixel_state_and_unused_vertex_samplers() {
    let vs = shader("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_2d s1\ntexldl r0, v0, s1\nadd o0, v0, r0\n");
    let a = DeviceState { vertex_textures: [None, Some(BoundTexture::Tex2D), None, None], ..Default::default() };
    let mut b = DeviceState {
        alpha_test_enable: true,
        alpha_func: 5,
        fog_enable: true,
        fog_table_mode: 3,
        w_fog: true,
        point_sprite_enable: true,
        // Flat shading: the shader passes no COLOR.
        shade_mode: 1,
        // Only s1 is sampled: s0, s2 and s3 are not looked at.
        vertex_textures: [Some(BoundTexture::Cube), Some(BoundTexture::Tex2D), None, Some(BoundTexture::Depth2D)],
        // No float constant is read: software vertex processing changes nothing.
        software_vertex_processing: true,
        ..Default::default()
    };
    b.textures[3] = Some(BoundTexture::Volume);
    b.texture_transform_flags[0] = 256 | 3;
    same(&vs, &a, &b);
    // What it reads does change the key: s1 unbound, clip planes.
    let c = DeviceState { clip_plane_enable: 1, ..a.clone() };
    assert_ne!(vs.key(&a), vs.key(&c));
    let d = DeviceState { vertex_textures: [None; 4], ..a.clone() };
    assert_ne!(vs.key(&a), vs.key(&d));
}

#[test]
fn a_ps_3_0_ignores_fog_vertex_state_and_unused_samplers() {
    let ps = shader("ps_3_0\ndcl_texcoord0 v0\ndcl_2d s2\ntexld r0, v0, s2\nmov oC0, r0\n");
    let mut a = DeviceState::default();
    a.textures[2] = Some(BoundTexture::Tex2D);
    let mut b = DeviceState {
        // ps_3_0 does its own fog.
        fog_enable: true,
        fog_table_mode: 1,
        clip_plane_enable: 0xff,
        point_list: true,
        software_vertex_processing: true,
        shade_mode: 1,
        ..a.clone()
    };
    b.textures[0] = Some(BoundTexture::Depth2D);
    b.textures[7] = Some(BoundTexture::Cube);
    same(&ps, &a, &b);
    // The alpha test is read by every pixel shader; point sprites by one with a TEXCOORD.
    assert_ne!(ps.key(&a), ps.key(&DeviceState { alpha_test_enable: true, alpha_func: 2, ..a.clone() }));
    assert_ne!(ps.key(&a), ps.key(&DeviceState { point_sprite_enable: true, ..a.clone() }));
}

#[test]
fn fog_source_matters_only_for_table_fog_and_projection_only_for_coordinates_read() {
    // ps_1_1 reading t0 only (tex t0): stage 1's D3DTTFF_PROJECTED is not looked at.
    let ps = shader("ps_1_1\ntex t0\nmov r0, t0\n");
    let mut a = DeviceState { fog_enable: true, fog_table_mode: 0, ..DeviceState::default() };
    a.textures[0] = Some(BoundTexture::Tex2D);
    let mut b = DeviceState { w_fog: true, ..a.clone() };
    b.texture_transform_flags[1] = 256 | 4;
    same(&ps, &a, &b);
    let mut c = a.clone();
    c.texture_transform_flags[0] = 256 | 4;
    assert_ne!(ps.key(&a), ps.key(&c));
    // Table fog: now w-fog selects the depth.
    let a = DeviceState { fog_table_mode: 3, ..a };
    assert_ne!(ps.key(&a), ps.key(&DeviceState { w_fog: true, ..a.clone() }));
}

#[test]
fn fetch4_is_kept_only_on_read_2d_colour_samplers_of_pixel_shaders() {
    let ps = shader("ps_2_0\ndcl t0\ndcl_2d s0\ndcl_cube s1\ntexld r0, t0, s0\ntexld r1, t0, s1\nmov oC0, r0\n");
    let mut a = DeviceState::default();
    a.textures[0] = Some(BoundTexture::Tex2D);
    a.textures[1] = Some(BoundTexture::Cube);
    let mut b = a.clone();
    // s1 is a cube and s5 is not sampled: GET4 there changes nothing.
    b.set_mipmap_lod_bias(1, FOURCC_GET4);
    b.set_mipmap_lod_bias(5, FOURCC_GET4);
    same(&ps, &a, &b);
    b.set_mipmap_lod_bias(0, FOURCC_GET4);
    assert_eq!(ps.key(&b).fetch4_samplers, 0b1);
    // A shadow map keeps its comparison: no fetch4 bit.
    let mut c = b.clone();
    c.textures[0] = Some(BoundTexture::Depth2D);
    assert_eq!(ps.key(&c).fetch4_samplers, 0);
    // A key set by hand is reduced the same way, and a vertex shader never keeps one.
    let key = ShaderKey { fetch4_samplers: 0xffff, ..Default::default() };
    assert_eq!(ps.minimal_key(&key).fetch4_samplers, 0b1);
    let vs = shader("vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_2d s0\ntexldl r0, v0, s0\nadd o0, v0, r0\n");
    assert_eq!(vs.minimal_key(&key).fetch4_samplers, 0);
}

#[test]
fn a_declared_type_equal_to_the_bound_one_is_not_an_override() {
    // SM1 has no dcl: the bound type is the sampler's type, and 2D is the default.
    let ps = shader("ps_1_4\ntexld r0, t0\n");
    let mut a = DeviceState::default();
    a.textures[0] = Some(BoundTexture::Tex2D);
    let k = ps.key(&a);
    assert_eq!(k.sampler_types, [None; 16]);
    a.textures[0] = Some(BoundTexture::Cube);
    assert_eq!(ps.key(&a).sampler_types[0], Some(crate::bytecode::TextureType::Cube));
}

#[test]
fn compare_functions_have_the_d3dcmpfunc_values_and_one_spelling_each() {
    // D3DCMP_NEVER = 1 … D3DCMP_ALWAYS = 8 (d3d9types.h).
    let d3d = [
        (CompareFunc::Never, 1, "never"),
        (CompareFunc::Less, 2, "less"),
        (CompareFunc::Equal, 3, "equal"),
        (CompareFunc::LessEqual, 4, "lessequal"),
        (CompareFunc::Greater, 5, "greater"),
        (CompareFunc::NotEqual, 6, "notequal"),
        (CompareFunc::GreaterEqual, 7, "greaterequal"),
        (CompareFunc::Always, 8, "always"),
    ];
    for (f, value, name) in d3d {
        assert_eq!((f.d3d(), CompareFunc::from_d3d(value)), (value, Some(f)));
        assert_eq!((f.name(), f.to_string()), (name, name.to_string()));
        // The CLI writes lower case, a case file upper case (`ZFUNC = "LESSEQUAL"`).
        assert_eq!(name.to_uppercase().parse::<CompareFunc>(), Ok(f));
    }
    assert_eq!((CompareFunc::from_d3d(0), CompareFunc::from_d3d(9)), (None, None));
    let e = "sometimes".parse::<CompareFunc>().unwrap_err();
    assert!(e.to_string().contains("lessequal"), "{e}");
    let from_toml: toml::Table = toml::from_str("f = \"GREATEREQUAL\"\nr = \"ieee\"").unwrap();
    assert_eq!(from_toml["f"].clone().try_into::<CompareFunc>().unwrap(), CompareFunc::GreaterEqual);
    assert_eq!(from_toml["r"].clone().try_into::<FloatRules>().unwrap(), FloatRules::Ieee);
}

#[test]
fn every_mode_spelling_is_read_back_by_set() {
    let mut k = ShaderKey::default();
    for &r in FloatRules::ALL {
        k.set(&format!("float_rules={r}")).unwrap();
        assert_eq!(k.float_rules, r);
    }
    for &f in FogMode::ALL {
        k.set(&format!("fog={}", f.name().to_uppercase())).unwrap();
        assert_eq!(k.fog, f);
    }
    for &p in PointExpansion::ALL {
        k.set(&format!("point_expansion={p}")).unwrap();
        assert_eq!(k.point_expansion, p);
    }
    k.set("sampler3=3d").unwrap();
    k.set("vertex_input2=d3dcolor").unwrap();
    assert_eq!(k.sampler_types[3], Some(TextureType::Volume));
    assert_eq!(k.vertex_inputs[2], Some(vertex_formats::DeclType::D3dColor));
    assert!(k.set("sampler3=1d").is_err());
    assert!(k.set("fog_source=y").unwrap_err().to_string().contains("bad value"));
}

#[test]
fn set_errors_name_the_field_and_the_spellings() {
    let mut k = ShaderKey::default();
    assert_eq!(k.set("fog"), Err(KeySetError::MissingEquals { assignment: "fog".into() }));
    assert_eq!(k.set("colour=1"), Err(KeySetError::UnknownField { field: "colour".into() }));
    assert_eq!(
        k.set("sampler16=2d"),
        Err(KeySetError::IndexOutOfRange { field: "sampler16".into(), what: "sampler index" })
    );
    let e = k.set("fog = Fast").unwrap_err();
    assert_eq!(e, KeySetError::BadValue { field: "fog".into(), value: "fast".into(), expected: FogMode::NAMES });
    assert_eq!(e.to_string(), "`fog`: bad value `fast` (one of none, vertex, linear, exp, exp2)");
    let e = k.set("clip_planes=300").unwrap_err();
    assert_eq!(e.to_string(), "`clip_planes`: bad value `300`");
    assert!(k.set("sampler0=1d").unwrap_err().to_string().ends_with("(one of 2d, cube, volume)"));
}

#[test]
fn the_value_facts_follow_their_stage_and_stay_only_where_a_strict_product_can_use_them() {
    let mut k = ShaderKey::default();
    k.set("finite_constants=1").unwrap();
    k.set("normalised_samplers=0x5").unwrap();
    assert!(k.finite_constants && k.normalised_samplers == 5);
    assert!(k.set("normalised_samplers=0x10000").is_err());
    // Each stage takes its own facts; an unbound sampler has no texture to be normalised.
    let mut s = DeviceState { finite_pixel_constants: true, normalised_textures: 0b11, ..DeviceState::default() };
    s.normalised_vertex_textures = 0b1;
    s.textures[0] = Some(BoundTexture::Tex2D);
    s.vertex_textures[0] = Some(BoundTexture::Tex2D);
    let p = ShaderKey::from_state(v(ShaderKind::Pixel, 2), &s);
    assert_eq!((p.finite_constants, p.normalised_samplers), (true, 0b1));
    let vk = ShaderKey::from_state(v(ShaderKind::Vertex, 3), &s);
    assert_eq!((vk.finite_constants, vk.normalised_samplers), (false, 0b1));
    // Minimal: only a shader that reads buffer constants keeps finite_constants, only sampled
    // samplers keep their bits, and neither survives other rules than strict.
    let facts = ShaderKey { finite_constants: true, normalised_samplers: 0xffff, ..ShaderKey::default() };
    let reads = shader("ps_2_0\ndcl t0\ndcl_2d s1\ntexld r0, t0, s1\nmul oC0, r0, c3\n");
    let m = reads.minimal_key(&facts);
    assert_eq!((m.finite_constants, m.normalised_samplers), (true, 0b10));
    let defs_only = shader("ps_2_0\ndef c0, 1, 2, 3, 4\ndcl t0\nmul oC0, t0, c0\n");
    let m = defs_only.minimal_key(&facts);
    assert_eq!((m.finite_constants, m.normalised_samplers), (false, 0));
    let ieee = ShaderKey { float_rules: FloatRules::Ieee, ..facts };
    let m = reads.minimal_key(&ieee);
    assert_eq!((m.finite_constants, m.normalised_samplers), (false, 0));
}

#[test]
fn a_key_displays_what_differs_from_the_default() {
    assert_eq!(ShaderKey::default().to_string(), "default");
    let mut k = ShaderKey::default();
    for a in ["alpha_func=greater", "fog=linear", "unbound_samplers=0xfffe", "sampler1=cube", "int2=3,0,1"] {
        k.set(a).unwrap();
    }
    k.delivery.set("fog=override").unwrap();
    assert_eq!(
        k.to_string(),
        "alpha_func=greater fog=linear unbound_samplers=0xfffe sampler1=cube int2=3,0,1,0 deliver.fog=override"
    );
    let mut other = k.clone();
    other.set("alpha_func=less").unwrap();
    let d = k.diff(&other);
    assert_eq!(d.fields, [("alpha_func".to_string(), "greater".to_string(), "less".to_string())]);
    assert_eq!(d.to_string(), "alpha_func=greater");
    // Every spelling reads back with `set`.
    let mut back = ShaderKey::default();
    for part in k.to_string().split(' ').filter(|p| !p.starts_with("deliver.")) {
        back.set(part).unwrap();
    }
    back.delivery = k.delivery;
    assert_eq!(back, k);
}
