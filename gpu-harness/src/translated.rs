//! The GPU shader stages: the project's translator ([`d3d9_shader::translate`]) behind the runner's
//! [`ShaderGpu`] trait, with the resources filled in the binding layout that
//! [`d3d9_shader::lower`] documents (float/int/bool constants at bindings 0/1/2 of the stage's
//! group, the render-state block at 3, sampler n's texture and sampler at 16 + 2n and 17 + 2n).
//! A vertex shader's sampler `s n` reads the case texture on stage 257 + n
//! (`D3DVERTEXTEXTURESAMPLERn`), a pixel shader's the one on stage n.
//!
//! The draw's render states reach the pixel shader through its key (fog mode, alpha function) and
//! the render-state block (fog colour and range, alpha reference): the translation applies fog and
//! the alpha test itself. A shader pair is linked by semantic ([`d3d9_shader::lower::link`]).

use d3d9_shader::analysis::analyse;
use d3d9_shader::bytecode::{Program, TextureType, Usage};
use d3d9_shader::key::{AlphaFunc, AlphaPrecision, FogMode as KeyFog};
use d3d9_shader::lower::{self, link};
use d3d9_shader::{translate, ShaderKey, Translation};

use crate::case::{sampler_stage, CmpFunc, FogMode, TextureKind, TransformFlags};
use crate::cpu::FogSource;
use crate::fixed_function::VaryingLayout;
use crate::runner::{GpuStage, ShaderConstants, ShaderGpu, StageContext, TextureSlot};

/// The translator as the runner's GPU shader back end.
#[derive(Clone, Copy, Debug, Default)]
pub struct Translator;

fn alpha_func(f: CmpFunc) -> AlphaFunc {
    match f {
        CmpFunc::Never => AlphaFunc::Never,
        CmpFunc::Less => AlphaFunc::Less,
        CmpFunc::Equal => AlphaFunc::Equal,
        CmpFunc::LessEqual => AlphaFunc::LessEqual,
        CmpFunc::Greater => AlphaFunc::Greater,
        CmpFunc::NotEqual => AlphaFunc::NotEqual,
        CmpFunc::GreaterEqual => AlphaFunc::GreaterEqual,
        CmpFunc::Always => AlphaFunc::Always,
    }
}

fn kind_of(t: TextureType) -> TextureKind {
    match t {
        TextureType::Cube => TextureKind::Cube,
        TextureType::Volume => TextureKind::Volume,
        _ => TextureKind::Tex2D,
    }
}

fn texture_type(k: TextureKind) -> TextureType {
    match k {
        TextureKind::Tex2D => TextureType::Tex2D,
        TextureKind::Cube => TextureType::Cube,
        TextureKind::Volume => TextureType::Volume,
    }
}

/// The key of a stage under the draw's state.
fn key(program: &Program, ctx: &StageContext<'_>) -> ShaderKey {
    let mut k = ShaderKey::default();
    let sig = analyse(program);
    let vertex = !program.version.is_pixel();
    for s in &sig.samplers {
        let n = s.index as usize;
        let stage = sampler_stage(vertex, u32::from(s.index));
        match ctx.textures.iter().find(|t| t.stage == stage) {
            // Shader Model 1 does not declare texture types: the bound texture decides.
            Some(t) => {
                // Shader Model 2+: a declared type the bound texture does not have follows the
                // texture (docs/d3d9-rules.md#sampler-type-mismatch: a volume texture bound to a `dcl_2d`
                // sampler is sampled at the coordinate's z, a 2D texture bound to `dcl_volume` as the
                // 2D texture).
                let bound = texture_type(t.kind);
                let declared = s.texture_type.map(kind_of);
                if program.version.is_sm1() || declared.is_some_and(|d| d != t.kind) {
                    k.sampler_types[n] = Some(bound);
                }
                if t.shadow && n < 16 {
                    k.shadow_samplers |= 1 << n;
                }
            }
            None if n < 16 => k.unbound_samplers |= 1 << n,
            None => {}
        }
    }
    if program.version.is_pixel() && program.version.is_sm1() {
        for st in ctx.stages.iter().filter(|st| st.stage < 8) {
            let flags = st
                .texturetransformflags
                .as_deref()
                .map(TransformFlags::parse)
                .transpose()
                .ok()
                .flatten()
                .unwrap_or_default();
            if flags.projected {
                // The divisor is the last counted component (COUNT3: z); no count means w.
                k.projected[st.stage as usize] = if (1..=4).contains(&flags.count) { flags.count } else { 4 };
            }
        }
    }
    if program.version.is_pixel() {
        k.alpha_func = ctx.alpha_test.map_or(AlphaFunc::Always, |t| alpha_func(t.func));
        if ctx.alpha_test.is_some_and(|t| t.float_target) {
            k.alpha_precision = AlphaPrecision::Float;
        }
        k.fog = match ctx.fog {
            FogSource::Off => KeyFog::None,
            FogSource::Varying => KeyFog::Vertex,
            FogSource::Table { mode: FogMode::Linear, .. } => KeyFog::Linear,
            FogSource::Table { mode: FogMode::Exp, .. } => KeyFog::Exp,
            FogSource::Table { mode: FogMode::Exp2, .. } => KeyFog::Exp2,
            FogSource::Table { mode: FogMode::None, .. } => KeyFog::None,
        };
    }
    k
}

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The render-state block (layout in `d3d9_shader::lower`): fog, alpha reference, point size,
/// clip planes (none), and the ps_1_x bump-environment matrix and luminance of each stage.
fn render_state(ctx: &StageContext<'_>) -> Vec<u8> {
    let s = ctx.state;
    let [r, g, b, a] = crate::targets::color_to_rgba(s.fogcolor);
    let (start, end, density) = match ctx.fog {
        FogSource::Table { start, end, density, .. } => (start, end, density),
        _ => (s.fogstart, s.fogend, s.fogdensity),
    };
    let alpha_ref = ctx.alpha_test.map_or(0.0, |t| t.reference as f32 / 255.0);
    let mut v = vec![r, g, b, a, start, end, density, alpha_ref, 1.0, 1.0, 64.0, 0.0];
    v.resize(lower::RENDER_STATE_SIZE as usize / 4, 0.0);
    for st in ctx.stages.iter().filter(|st| st.stage < 8) {
        let n = st.stage as usize;
        let mat = [st.bumpenvmat00, st.bumpenvmat01, st.bumpenvmat10, st.bumpenvmat11].map(|m| m.unwrap_or(0.0));
        v[176 / 4 + 4 * n..][..4].copy_from_slice(&mat);
        v[304 / 4 + 4 * n] = st.bumpenvlscale.unwrap_or(0.0);
        v[304 / 4 + 4 * n + 1] = st.bumpenvloffset.unwrap_or(0.0);
    }
    f32_bytes(&v)
}

fn usage_by_name(name: &str) -> Option<Usage> {
    Usage::ALL.into_iter().find(|u| u.name() == name)
}

fn stage(
    t: Translation,
    constants: &ShaderConstants,
    ctx: &StageContext<'_>,
    vertex: bool,
) -> Result<GpuStage, String> {
    let group = t.layout.group;
    let mut buffers = Vec::new();
    if let Some(fc) = t.layout.float_constants {
        let mut regs = constants.float.clone();
        regs.resize(fc.count as usize, [0.0; 4]);
        let (low, high) = regs.split_at(fc.count.min(lower::FLOAT_CONSTANTS_PAGE) as usize);
        buffers.push(((group, fc.binding), f32_bytes(low.as_flattened())));
        if let Some(b) = fc.high_binding {
            buffers.push(((group, b), f32_bytes(high.as_flattened())));
        }
    }
    if let Some(b) = t.layout.int_constants {
        buffers.push(((group, b), constants.int.iter().flatten().flat_map(|v| v.to_le_bytes()).collect()));
    }
    if let Some(b) = t.layout.bool_constants {
        buffers.push(((group, b), constants.bool.iter().flat_map(|&v| (v as u32).to_le_bytes()).collect()));
    }
    if let Some(b) = t.layout.render_state {
        buffers.push(((group, b), render_state(ctx)));
    }
    let textures = t
        .layout
        .textures
        .iter()
        .map(|tb| TextureSlot {
            texture: (group, tb.texture_binding),
            sampler: (group, tb.sampler_binding),
            stage: sampler_stage(vertex, u32::from(tb.sampler)),
            kind: kind_of(tb.texture_type),
        })
        .collect();
    let slots = if vertex { &t.interface.outputs } else { &t.interface.inputs };
    let varyings: VaryingLayout =
        slots.iter().filter_map(|s| Some(((usage_by_name(s.usage?)?, s.usage_index), s.location?))).collect();
    let entry = t.module.entry_points.first().map(|e| e.name.clone()).ok_or("the translation has no entry point")?;
    Ok(GpuStage { module: t.module, entry, varyings, buffers, textures })
}

/// Translates a draw's shaders as the GPU path does: each under the key of the draw's state, a
/// pair linked by semantic ([`link`]). Either stage may be the fixed-function `None`.
pub fn translate_pair(
    vs: Option<&Program>,
    ps: Option<&Program>,
    ctx: &StageContext<'_>,
) -> Result<(Option<Translation>, Option<Translation>), String> {
    let mut vkey = vs.map(|p| key(p, ctx));
    let mut pkey = ps.map(|p| key(p, ctx));
    if let (Some(v), Some(p), Some(vk), Some(pk)) = (vs, ps, vkey.as_mut(), pkey.as_mut()) {
        let linkage = link(v.version, &analyse(v), p.version, &analyse(p));
        vk.linkage = Some(linkage.clone());
        pk.linkage = Some(linkage);
    }
    let v = match (vs, vkey) {
        (Some(p), Some(k)) => Some(translate(p, &k).map_err(|e| format!("translating the vertex shader: {e}"))?),
        _ => None,
    };
    let f = match (ps, pkey) {
        (Some(p), Some(k)) => Some(translate(p, &k).map_err(|e| format!("translating the pixel shader: {e}"))?),
        _ => None,
    };
    Ok((v, f))
}

impl ShaderGpu for Translator {
    fn translate(
        &self,
        vs: Option<(&Program, &ShaderConstants)>,
        ps: Option<(&Program, &ShaderConstants)>,
        ctx: StageContext<'_>,
    ) -> Result<(Option<GpuStage>, Option<GpuStage>), String> {
        let (tv, tp) = translate_pair(vs.map(|v| v.0), ps.map(|p| p.0), &ctx)?;
        let v = match (tv, vs) {
            (Some(t), Some((_, c))) => Some(stage(t, c, &ctx, true)?),
            _ => None,
        };
        let f = match (tp, ps) {
            (Some(t), Some((_, c))) => Some(stage(t, c, &ctx, false)?),
            _ => None,
        };
        Ok((v, f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::RenderState;

    #[test]
    fn a_vertex_shaders_sampler_n_reads_stage_257_plus_n() {
        let vs = d3d9_shader::asm::assemble(
            "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\ndcl_cube s1\ndcl_2d s3\nmov o0, v0\ntexldl r0, v0, s1\ntexldl r1, r0, s3\nmov o1, r1\n",
        )
        .unwrap();
        let ps =
            d3d9_shader::asm::assemble("ps_3_0\ndcl_texcoord0 v0\ndcl_2d s1\ntexld r0, v0, s1\nmov oC0, r0\n").unwrap();
        let texture = |stage, kind, faces| {
            crate::textures::DecodedTexture::decode(&crate::case::Texture {
                stage,
                kind,
                width: 1,
                height: 1,
                depth: 1,
                format: crate::case::TextureFormat::A8R8G8B8,
                mip_levels: 1,
                filter: Default::default(),
                mip_filter: Default::default(),
                address: Default::default(),
                texels: vec![0; faces],
            })
        };
        let textures = [
            texture(1, TextureKind::Tex2D, 1),
            texture(258, TextureKind::Cube, 6),
            texture(260, TextureKind::Tex2D, 1),
        ];
        let state = RenderState::default();
        let ctx = StageContext::with_textures(&textures, &state);
        let c = ShaderConstants::default();
        let (v, p) = Translator.translate(Some((&vs, &c)), Some((&ps, &c)), ctx).unwrap();
        let stages = |s: Option<GpuStage>| s.unwrap().textures.iter().map(|t| (t.stage, t.kind)).collect::<Vec<_>>();
        // D3DVERTEXTEXTURESAMPLER1 and 3; the pixel shader's s1 stays stage 1. (Had the vertex
        // shader looked for stages 1 and 3, it would have found s3 unbound and the cube typed 2D.)
        let mut vertex = stages(v);
        vertex.sort_by_key(|t| t.0);
        assert_eq!(vertex, [(258, TextureKind::Cube), (260, TextureKind::Tex2D)]);
        assert_eq!(stages(p), [(1, TextureKind::Tex2D)]);
    }
}
