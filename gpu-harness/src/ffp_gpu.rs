//! The GPU path's fixed-function stages: the library's generator (`d3d9_shader::ffp`) fed with the
//! key and constants of the state in force ([`crate::ffp_state`]). This file only maps the case's
//! names onto the library's types; every pipeline rule is the generator's.

use d3d9_shader::ffp::{
    self, key_pixel as kp, key_vertex as kv, FfpMode, LightValues, PixelConstants, PixelKey, Varyings, VertexConstants,
    VertexKey,
};

use crate::case::{self, CompareFunc, FogMode, RenderState, TextureDimension};
use crate::cpu::FogSource;
use crate::ffp_state::{FfpState, VertexFormat};
use crate::fixed_function::VaryingLayout;
use crate::stages::{GpuStage, TextureSlot};
use crate::textures::DecodedTexture;

fn varyings(layout: &VaryingLayout) -> Varyings {
    Varyings(layout.iter().map(|&((u, i), l)| (u, i, l)).collect())
}

fn argb(c: u32) -> [f32; 4] {
    crate::targets::color_to_rgba(c)
}

fn formula(m: FogMode) -> Option<kp::FogFormula> {
    match m {
        FogMode::None => None,
        FogMode::Linear => Some(kp::FogFormula::Linear),
        FogMode::Exp => Some(kp::FogFormula::Exp),
        FogMode::Exp2 => Some(kp::FogFormula::Exp2),
    }
}

fn light_type(t: case::LightType) -> kv::LightType {
    match t {
        case::LightType::Point => kv::LightType::Point,
        case::LightType::Spot => kv::LightType::Spot,
        case::LightType::Directional => kv::LightType::Directional,
    }
}

fn material_source(s: case::MaterialSource) -> kv::MaterialSource {
    match s {
        case::MaterialSource::Material => kv::MaterialSource::Material,
        case::MaterialSource::Color1 => kv::MaterialSource::Color1,
        case::MaterialSource::Color2 => kv::MaterialSource::Color2,
    }
}

fn tex_gen(g: case::TexGen) -> kv::TexGen {
    match g {
        case::TexGen::PassThru => kv::TexGen::PassThru,
        case::TexGen::CameraSpaceNormal => kv::TexGen::CameraSpaceNormal,
        case::TexGen::CameraSpacePosition => kv::TexGen::CameraSpacePosition,
        case::TexGen::CameraSpaceReflectionVector => kv::TexGen::CameraSpaceReflectionVector,
        case::TexGen::SphereMap => kv::TexGen::SphereMap,
    }
}

/// The settings of the generated vertex half besides the state.
pub struct VertexSetup {
    /// Flat COLOR varyings.
    pub flat: bool,
    /// The render target's size (pre-transformed vertices, point sizes).
    pub target_size: (u32, u32),
    /// A point list, expanded into quads (the runner draws 6 vertices per point).
    pub points: bool,
    /// Keyed or uniform-driven.
    pub mode: FfpMode,
}

/// The generated vertex half of a draw, writing the varyings where `layout` puts them.
pub fn vertex_stage(
    ffp: &FfpState,
    state: &RenderState,
    format: &VertexFormat,
    layout: &VaryingLayout,
    setup: &VertexSetup,
) -> Result<GpuStage, String> {
    let key = vertex_key(ffp, state, format, layout, setup);
    let mut buffers = Vec::new();
    let shader = match setup.mode {
        FfpMode::Keyed => ffp::generate_vertex(&key),
        FfpMode::Uniform => {
            buffers.push((ffp::state::VERTEX_STATE_BINDING, key.state_bytes()));
            ffp::generate_vertex_uniform(&key.interface())
        }
    }
    .map_err(|e| e.to_string())?;
    let constants = vertex_constants(ffp, state, setup.target_size);
    Ok(GpuStage {
        module: shader.module,
        entry: shader.entry.to_string(),
        varyings: layout.clone(),
        buffers: [(ffp::constants::VERTEX_BINDING, constants.to_bytes())].into_iter().chain(buffers).collect(),
        textures: vec![],
        constants: Vec::new(),
    })
}

/// The vertex half's key: the vertex format's inputs and the render and stage states.
fn vertex_key(
    ffp: &FfpState,
    state: &RenderState,
    format: &VertexFormat,
    layout: &VaryingLayout,
    setup: &VertexSetup,
) -> VertexKey {
    let inputs = kv::VertexInputs {
        pretransformed: format.pretransformed,
        normal: format.normal,
        diffuse: format.diffuse,
        specular: format.specular,
        blend_weights: format.blend_weights,
        blend_indices: format.blend_indices,
        texcoord_sizes: format.texcoord_sizes,
        point_size: format.psize,
        position1: format.position1,
        normal1: format.normal1,
    };
    let lighting = state.lighting.then(|| kv::LightingKey {
        lights: ffp.lights.iter().take(8).map(|l| light_type(l.kind)).collect(),
        specular: state.specularenable,
        sources: VertexKey::color_sources(
            &inputs,
            state.colorvertex,
            [
                state.diffusematerialsource,
                state.specularmaterialsource,
                state.ambientmaterialsource,
                state.emissivematerialsource,
            ]
            .map(material_source),
        ),
    });
    let blend_weights = match state.vertexblend {
        case::VertexBlend::Weights1 => 1,
        case::VertexBlend::Weights2 => 2,
        case::VertexBlend::Weights3 => 3,
        _ => 0,
    };
    let texcoords = std::array::from_fn(|s| {
        let st = &ffp.stages[s];
        Some(kv::TexCoordKey { set: st.texcoord.index, gen: tex_gen(st.texcoord.gen), count: st.transform.count })
    });
    let fog = if !state.fogenable || state.fogtablemode != FogMode::None {
        kv::VertexFog::None
    } else {
        match formula(state.fogvertexmode) {
            Some(f) => kv::VertexFog::Formula(f, state.rangefogenable),
            None => kv::VertexFog::SpecularAlpha,
        }
    };
    VertexKey {
        inputs,
        lighting,
        blend_weights,
        indexed_blend: state.indexedvertexblendenable,
        tween: state.vertexblend == case::VertexBlend::Tweening,
        texcoords,
        fog,
        unclipped_z: format.pretransformed && !state.clipping,
        local_viewer: state.localviewer,
        normalize_normals: state.normalizenormals,
        flat: setup.flat,
        varyings: varyings(layout),
        points: setup.points.then_some(ffp::points::PointKey {
            expansion: d3d9_shader::key::PointExpansion::List,
            scale: state.pointscaleenable,
            sprite: state.pointspriteenable,
        }),
    }
}

/// The vertex half's constants: transforms, material, lights, fog and point parameters.
fn vertex_constants(ffp: &FfpState, state: &RenderState, target_size: (u32, u32)) -> VertexConstants {
    let m = &ffp.material;
    VertexConstants {
        world: std::array::from_fn(|i| ffp.world(i as u8)),
        view: ffp.view,
        projection: ffp.projection,
        texture: ffp.texture,
        material: [m.diffuse, m.ambient, m.specular, m.emissive],
        power: m.power,
        tween_factor: state.tweenfactor,
        ambient: argb(state.ambient),
        fog: [state.fogstart, state.fogend, state.fogdensity],
        viewport: [target_size.0 as f32, target_size.1 as f32],
        lights: ffp
            .lights
            .iter()
            .map(|l| LightValues {
                diffuse: l.diffuse,
                specular: l.specular,
                ambient: l.ambient,
                position: l.position,
                direction: l.direction,
                range: l.range,
                falloff: l.falloff,
                attenuation: [l.attenuation0, l.attenuation1, l.attenuation2],
                theta: l.theta,
                phi: l.phi,
            })
            .collect(),
        point: [state.pointsize, state.pointsize_min, state.pointsize_max],
        point_scale: [state.pointscale_a, state.pointscale_b, state.pointscale_c],
    }
}

/// The kind of the texture bound to stage `s`, if any.
fn texture_kind(textures: &[DecodedTexture], s: usize) -> Option<TextureDimension> {
    textures.iter().find(|t| t.stage as usize == s).map(|t| t.kind)
}

/// The pixel half's eight texture stages: operations, arguments, the bound texture's type and
/// the projective divide (by the last coordinate the stage's transform or, without one, the
/// vertex format gives it; `vertex` is `None` behind a vertex shader).
fn stage_states(ffp: &FfpState, textures: &[DecodedTexture], vertex: Option<&VertexFormat>) -> Vec<kp::StageState> {
    (0..8)
        .map(|s| {
            let st = &ffp.stages[s];
            let t = st.transform;
            let divide_by = match (t.projected, t.count, vertex) {
                (false, _, _) => None,
                (true, n @ 1..=4, Some(_)) => Some(n - 1),
                (true, _, None) => Some(3),
                (true, _, Some(f)) => Some(f.texcoord_sizes[st.texcoord.index as usize].max(1) - 1),
            };
            kp::StageState {
                color_op: op(st.color_op),
                color_args: st.color_args.map(arg),
                alpha_op: op(st.alpha_op),
                alpha_args: st.alpha_args.map(arg),
                result_temp: st.result == case::ResultArg::Temp,
                texture: texture_kind(textures, s),
                divide_by,
            }
        })
        .collect()
}

fn op(o: case::TextureOp) -> kp::TextureOp {
    use case::TextureOp as C;
    use kp::TextureOp as K;
    match o {
        C::Disable => K::Disable,
        C::SelectArg1 => K::SelectArg1,
        C::SelectArg2 => K::SelectArg2,
        C::Modulate => K::Modulate,
        C::Modulate2x => K::Modulate2x,
        C::Modulate4x => K::Modulate4x,
        C::Add => K::Add,
        C::AddSigned => K::AddSigned,
        C::AddSigned2x => K::AddSigned2x,
        C::Subtract => K::Subtract,
        C::AddSmooth => K::AddSmooth,
        C::BlendDiffuseAlpha => K::BlendDiffuseAlpha,
        C::BlendTextureAlpha => K::BlendTextureAlpha,
        C::BlendFactorAlpha => K::BlendFactorAlpha,
        C::BlendTextureAlphaPm => K::BlendTextureAlphaPm,
        C::BlendCurrentAlpha => K::BlendCurrentAlpha,
        C::Premodulate => K::Premodulate,
        C::ModulateAlphaAddColor => K::ModulateAlphaAddColor,
        C::ModulateColorAddAlpha => K::ModulateColorAddAlpha,
        C::ModulateInvAlphaAddColor => K::ModulateInvAlphaAddColor,
        C::ModulateInvColorAddAlpha => K::ModulateInvColorAddAlpha,
        C::BumpEnvMap => K::BumpEnvMap,
        C::BumpEnvMapLuminance => K::BumpEnvMapLuminance,
        C::DotProduct3 => K::DotProduct3,
        C::MultiplyAdd => K::MultiplyAdd,
        C::Lerp => K::Lerp,
    }
}

fn arg(a: case::Arg) -> kp::Arg {
    use case::ArgSource as C;
    use kp::ArgSource as K;
    let source = match a.source {
        C::Diffuse => K::Diffuse,
        C::Current => K::Current,
        C::Texture => K::Texture,
        C::TFactor => K::TFactor,
        C::Specular => K::Specular,
        C::Temp => K::Temp,
        C::Constant => K::Constant,
    };
    kp::Arg { source, complement: a.complement, alpha_replicate: a.alpha_replicate }
}

/// The settings of the generated pixel half besides the stages.
pub struct PixelSetup<'a> {
    /// The vertex format behind a fixed-function vertex half (`None`: a vertex shader).
    pub vertex: Option<&'a VertexFormat>,
    /// The fog source.
    pub fog: FogSource,
    /// Alpha test.
    pub alpha: Option<(CompareFunc, u8)>,
    /// Flat COLOR varyings.
    pub flat: bool,
    /// Keyed or uniform-driven.
    pub mode: FfpMode,
}

/// The generated pixel half of a draw, reading the varyings where `layout` puts them.
pub fn pixel_stage(
    ffp: &FfpState,
    state: &RenderState,
    textures: &[DecodedTexture],
    layout: &VaryingLayout,
    setup: &PixelSetup,
) -> Result<GpuStage, String> {
    let kind = |s: usize| texture_kind(textures, s);
    let stages = stage_states(ffp, textures, setup.vertex);
    let fog = match setup.fog {
        FogSource::Off => kp::PixelFog::Off,
        FogSource::Varying => kp::PixelFog::Varying,
        FogSource::Table { mode, .. } => formula(mode).map_or(kp::PixelFog::Off, kp::PixelFog::Table),
    };
    let alpha_test = setup.alpha.map(|(f, _)| f);
    let mut key = PixelKey::new(&stages, state.specularenable, fog, alpha_test, setup.flat, varyings(layout));
    key.table_depth_from_fog = setup.vertex.is_some_and(|f| f.pretransformed) && !state.clipping;
    let mut buffers = vec![(ffp::constants::PIXEL_BINDING, Vec::new())];
    let (shader, textures) = match setup.mode {
        FfpMode::Keyed => (ffp::generate_pixel(&key), key.sampled_textures()),
        FfpMode::Uniform => {
            let interface = ffp::PixelInterface {
                textures: std::array::from_fn(|s| stages[s].texture),
                flat: setup.flat,
                varyings: varyings(layout),
            };
            debug_assert!(key.fits(&interface));
            buffers.push((ffp::state::PIXEL_STATE_BINDING, key.state_bytes()));
            (ffp::generate_pixel_uniform(&interface), interface.textures)
        }
    };
    let shader = shader.map_err(|e| e.to_string())?;
    let [r, g, b, _] = argb(state.fogcolor);
    let constants = PixelConstants {
        texture_factor: argb(state.texturefactor),
        fog_color: [r, g, b],
        fog: [state.fogstart, state.fogend, state.fogdensity],
        alpha_ref: setup.alpha.map_or(0, |(_, r)| r),
        constant: std::array::from_fn(|s| argb(ffp.stages[s].constant)),
        bump_matrix: std::array::from_fn(|s| ffp.stages[s].bump_matrix),
        bump_luminance: std::array::from_fn(|s| [ffp.stages[s].bump_lscale, ffp.stages[s].bump_loffset]),
    };
    buffers[0].1 = constants.to_bytes();
    let mut slots = Vec::new();
    for (index, t) in textures.iter().enumerate() {
        if t.is_none() {
            continue;
        }
        let b = ffp::constants::texture_binding(index as u32);
        let kind = kind(index).unwrap_or(TextureDimension::Tex2D);
        slots.push(TextureSlot { texture: (1, b), sampler: (1, b + 1), stage: index as u32, kind });
    }
    Ok(GpuStage {
        module: shader.module,
        entry: shader.entry.to_string(),
        varyings: layout.clone(),
        buffers,
        textures: slots,
        constants: Vec::new(),
    })
}
