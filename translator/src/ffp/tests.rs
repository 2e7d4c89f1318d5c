//! Every op, argument modifier, coordinate mode, light type and fog mode generates a module naga
//! validates (values are checked by the harness against the CPU reference and Windows cases).

use crate::bytecode::TextureDimension;
use arrayvec::ArrayVec;

use super::key_pixel::*;
use super::key_vertex::*;
use super::known::StateValue;
use super::*;

fn stage(op: TextureOp, texture: Option<TextureDimension>) -> StageState {
    let a = |s| Arg { source: s, complement: true, alpha_replicate: false };
    StageState {
        color_op: op,
        color_args: [a(ArgSource::Constant), Arg::plain(ArgSource::Texture), a(ArgSource::Temp)],
        alpha_op: op,
        alpha_args: [
            Arg { source: ArgSource::Specular, complement: false, alpha_replicate: true },
            Arg::plain(ArgSource::Texture),
            Arg::plain(ArgSource::TFactor),
        ],
        result_temp: false,
        texture,
        divide_by: Some(3),
    }
}

#[test]
fn every_op_and_texture_type_validates() {
    for ty in [TextureDimension::Tex2D, TextureDimension::Cube, TextureDimension::Volume] {
        for &op in TextureOp::ALL {
            let stages = [stage(op, Some(ty)), stage(TextureOp::Modulate, Some(ty))];
            let fog = PixelFog::Table(FogFormula::Exp2);
            let key = PixelKey::new(&stages, true, fog, Some(CompareFunc::GreaterEqual), false, Varyings::default());
            generate_pixel(&key).unwrap_or_else(|e| panic!("{op:?} {ty:?}: {e}"));
        }
    }
}

#[test]
fn every_vertex_feature_validates() {
    let inputs = VertexInputs {
        pretransformed: false,
        normal: true,
        diffuse: true,
        specular: true,
        blend_weights: 3,
        blend_indices: true,
        texcoord_sizes: [2, 3, 1, 4, 0, 0, 0, 0],
        point_size: true,
        position1: false,
        normal1: false,
    };
    let gens = [
        TexGen::PassThru,
        TexGen::CameraSpaceNormal,
        TexGen::CameraSpacePosition,
        TexGen::CameraSpaceReflectionVector,
        TexGen::SphereMap,
    ];
    for (i, fog) in [
        VertexFog::None,
        VertexFog::SpecularAlpha,
        VertexFog::Formula(FogFormula::Linear, false),
        VertexFog::Formula(FogFormula::Exp, true),
        VertexFog::Formula(FogFormula::Exp2, false),
    ]
    .into_iter()
    .enumerate()
    {
        let mut texcoords = [None; 8];
        for (s, g) in gens.iter().enumerate() {
            texcoords[s] = Some(TexCoordKey { set: (s % 4) as u8, gen: *g, count: (s % 5) as u8 });
        }
        let lights: ArrayVec<LightType, 8> =
            [LightType::Point, LightType::Spot, LightType::Directional].into_iter().collect();
        let key = VertexKey {
            inputs,
            lighting: Some(LightingKey {
                lights,
                specular: i % 2 == 0,
                sources: [ColorSource::Diffuse, ColorSource::Specular, ColorSource::Material, ColorSource::Material],
            }),
            blend_weights: (i % 4) as u8,
            indexed_blend: i == 2,
            tween: false,
            texcoords,
            fog,
            unclipped_z: i == 3,
            local_viewer: i % 3 == 0,
            normalize_normals: true,
            flat: i == 1,
            varyings: Varyings::default(),
            // Points with scale and sprites on half of the keys (PSIZE is read then).
            points: (i % 2 == 1).then_some(super::points::PointKey {
                expansion: crate::key::PointExpansion::List,
                scale: true,
                sprite: true,
            }),
        };
        generate_vertex(&key).unwrap_or_else(|e| panic!("{fog:?}: {e}"));
        let pre = VertexKey { inputs: VertexInputs { pretransformed: true, ..inputs }, ..key.clone() };
        generate_vertex(&pre).unwrap_or_else(|e| panic!("XYZRHW {fog:?}: {e}"));
        let tween =
            VertexKey { inputs: VertexInputs { position1: true, normal1: i % 2 == 0, ..inputs }, tween: true, ..key };
        generate_vertex(&tween).unwrap_or_else(|e| panic!("tween {fog:?}: {e}"));
    }
}

#[test]
fn tweening_excludes_blending_and_keeps_second_sets_only_when_on() {
    let inputs =
        VertexInputs { normal: true, blend_weights: 2, position1: true, normal1: true, ..VertexInputs::default() };
    let on =
        VertexKey { inputs, blend_weights: 2, indexed_blend: true, tween: true, ..VertexKey::default() }.normalised();
    // Tweening excludes weighted and indexed blending, and NORMAL1 takes the weights' location.
    assert_eq!((on.blend_weights, on.indexed_blend, on.inputs.blend_weights), (0, false, 0));
    assert!(on.tween && on.inputs.position1 && on.inputs.normal1);
    let off = VertexKey { inputs, blend_weights: 2, ..VertexKey::default() }.normalised();
    assert!(!off.tween && !off.inputs.position1 && !off.inputs.normal1);
    assert_eq!(off.inputs.blend_weights, 2);
    // Without a second set there is nothing to mix.
    let bare = VertexInputs { position1: false, normal1: false, ..inputs };
    assert!(!VertexKey { inputs: bare, tween: true, ..VertexKey::default() }.normalised().tween);
    // The generated half reads POSITION1 at location 15 and NORMAL1 at location 1.
    let wgsl = generate_vertex(&on).unwrap().source;
    assert!(wgsl.contains("@location(15) v15") && wgsl.contains("@location(1) v1"), "{wgsl}");
    assert!(wgsl.contains("ffp.factors.y"), "{wgsl}");
}

#[test]
fn uniform_halves_validate_for_every_interface_shape() {
    let full = VertexInputs {
        pretransformed: false,
        normal: true,
        diffuse: true,
        specular: true,
        blend_weights: 3,
        blend_indices: true,
        texcoord_sizes: [2, 3, 1, 4, 0, 0, 0, 2],
        point_size: true,
        position1: false,
        normal1: false,
    };
    let tweened = VertexInputs { blend_weights: 0, position1: true, normal1: true, ..full };
    for inputs in [full, tweened, VertexInputs::default(), VertexInputs { pretransformed: true, ..full }] {
        for points in [None, Some(crate::key::PointExpansion::Strip)] {
            let interface = VertexInterface { inputs, flat: false, varyings: Varyings::default(), points };
            let vs = generate_vertex_uniform(&interface).unwrap_or_else(|e| panic!("{inputs:?}: {e}"));
            assert!(vs.source.contains("ffp_state.fog"));
        }
    }
    let tex = [TextureDimension::Tex2D, TextureDimension::Cube, TextureDimension::Volume];
    for textures in [[None; 8], std::array::from_fn(|i| Some(tex[i % 3]))] {
        let interface = PixelInterface { textures, flat: true, varyings: Varyings::default() };
        generate_pixel_uniform(&interface).unwrap_or_else(|e| panic!("{textures:?}: {e}"));
    }
}

#[test]
fn state_blocks_have_the_wgsl_sizes() {
    // FfpVertexState: 4 + 4 + 8 + 4 + 4 words, then 8 vec4 (224 bytes); FfpPixelState: 8 stages
    // of 16 words, then 4 words (528 bytes).
    assert_eq!(VertexKey::default().state_bytes().len(), 224);
    assert_eq!(PixelKey::default().state_bytes().len(), 528);
}
