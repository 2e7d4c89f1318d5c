//! The GPU shader stages: the project's translator ([`d3d9_shader::translate`]) behind the runner's
//! [`ShaderGpu`] trait, with the resources filled in the binding layout that
//! [`d3d9_shader::lower`] documents (float/int/bool constants at bindings 0/1/2 of the stage's
//! group, the render-state block at 3, sampler n's texture and sampler at 16 + 2n and 17 + 2n).
//! A vertex shader's sampler `s n` reads the case texture on stage 257 + n
//! (`D3DVERTEXTEXTURESAMPLERn`), a pixel shader's the one on stage n.
//!
//! The draw's render states reach the pixel shader through its key (fog mode, alpha function) and
//! the render-state block (fog colour and range, alpha reference): the translation applies fog and
//! the alpha test itself. The draw's boolean and integer constants follow the delivery of the
//! modes: baked into the key ([`Translator`]), pipeline constants, or their buffers. A shader pair is linked by semantic ([`d3d9_shader::lower::link`]).

use d3d9_shader::analysis::analyse;
use d3d9_shader::bytecode::{Program, TextureType};
use d3d9_shader::key::linkage::fits_stable;
use d3d9_shader::key::state_block::Modes;
use d3d9_shader::key::{AlphaPrecision, CompareFunc, FloatRules, FogMode as KeyFog};
use d3d9_shader::lower::{self, link, Linkage};
use d3d9_shader::{translate, Deliveries, Delivery, RenderState, ShaderKey, Translation};

use crate::case::{sampler_stage, FogMode, TransformFlags};
use crate::cpu::FogSource;
use crate::fixed_function::VaryingLayout;
use crate::stages::{GpuStage, ShaderConstants, ShaderGpu, StageContext, TextureSlot};

/// The translator as the runner's GPU shader back end under the library's default deliveries:
/// render-state modes baked, the boolean and integer constants read from their buffers (what a
/// layer gets unless it asks otherwise; [`Delivering`] chooses one delivery for all).
#[derive(Clone, Copy, Debug, Default)]
pub struct Translator;

/// The translator with the render-state modes delivered as overrides (passed to wgpu as
/// pipeline constants) or read from the render-state block ([`d3d9_shader::key::delivery`]): the
/// draw's modes reach the GPU as data, the translation is the same for every draw (the runner
/// binds a stand-in texture to a declared sampler with nothing bound). The boolean and integer
/// constants are delivered the same way (as pipeline constants, or from their buffers);
/// `Delivering(Delivery::Baked)` bakes the draw's values into the key.
#[derive(Clone, Copy, Debug, Default)]
pub struct Delivering(pub Delivery);

/// Every mode and the boolean and integer constants delivered by `d` — but the constants stay
/// in their buffers (uniform) where the draw's values are not known to bake them.
fn deliveries(d: Option<Delivery>, constants_known: bool) -> Deliveries {
    let Some(d) = d else { return Deliveries::default() };
    let mut all = Deliveries::all(d);
    if d == Delivery::Baked && !constants_known {
        (all.bool_constants, all.int_constants) = (Delivery::Uniform, Delivery::Uniform);
    }
    all
}

/// What the key takes of the draw's constants when they are known: the other fact a layer
/// knows (every float constant it uploads is finite), and the boolean and integer constants,
/// read where their delivery is baked.
fn draw_constants(k: &mut ShaderKey, constants: Option<&ShaderConstants>) {
    k.finite_constants = constants.is_some_and(|c| c.float.iter().flatten().all(|x| x.is_finite()));
    if let Some(c) = constants {
        k.set_constants(&c.bool, &c.int);
    }
}

/// The key of a stage under the draw's state, with its float constants when known.
fn key(program: &Program, constants: Option<&ShaderConstants>, ctx: &StageContext<'_>) -> ShaderKey {
    let mut k = ShaderKey { float_rules: ctx.float_rules, ..ShaderKey::default() };
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
                let bound = TextureType::from(t.kind);
                let declared = s.texture_type.map(|t| t.dimension().unwrap_or_default());
                if program.version.is_sm1() || declared.is_some_and(|d| d != t.kind) {
                    k.sampler_types[n] = Some(bound);
                }
                if t.shadow && n < 16 {
                    k.shadow_samplers |= 1 << n;
                }
                // GET4 on a pixel sampler (the key drops it where it does not apply).
                if t.fetch4 && !vertex && n < 16 {
                    k.fetch4_samplers |= 1 << n;
                }
                // A fact of the draw that spares zero guards (docs/d3d9-rules.md#zero-product):
                // every texel in [−1, 1], as a layer knows from a normalised format.
                if n < 16 && t.data.iter().flatten().flatten().all(|x| (-1.0..=1.0).contains(x)) {
                    k.normalised_samplers |= 1 << n;
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
            let supplied = ctx.ffp_texcoord_sizes.map(|sizes| sizes[st.stage as usize]);
            if let Some(d) = flags.divisor(supplied) {
                k.projected[st.stage as usize] = d + 1;
            }
        }
    }
    // Point lists: WebGPU draws 1-pixel points, so the vertex shader expands each point into a
    // quad and gives the sprite coordinates (docs/d3d9-rules.md#point-sprites); the pixel shader
    // reads its TEXCOORD inputs as usual.
    if vertex && ctx.point_list {
        k.point_expansion = d3d9_shader::key::PointExpansion::List;
        k.point_sprite = ctx.state.pointspriteenable;
    }
    draw_constants(&mut k, constants);
    // SHADEMODE FLAT: both stages of the pair declare COLOR flat.
    k.flat_shading = ctx.state.shademode == crate::case::ShadeMode::Flat;
    if program.version.is_pixel() {
        k.alpha_func = ctx.alpha_test.map_or(CompareFunc::Always, |t| t.func);
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
/// clip planes (none), the ps_1_x bump-environment matrix and luminance of each stage, and the
/// modes of the stage's baked key (read under uniform delivery).
fn render_state(ctx: &StageContext<'_>, modes: Modes) -> RenderState {
    let s = ctx.state;
    let [r, g, b, a] = crate::targets::color_to_rgba(s.fogcolor);
    let (fog_start, fog_end, fog_density) = match ctx.fog {
        FogSource::Table { start, end, density, .. } => (start, end, density),
        _ => (s.fogstart, s.fogend, s.fogdensity),
    };
    let mut rs = RenderState {
        fog_color: [r, g, b, a],
        fog_start,
        fog_end,
        fog_density,
        alpha_ref: ctx.alpha_test.map_or(0, |t| u32::from(t.reference)),
        point_size: s.pointsize,
        point_size_min: s.pointsize_min,
        point_size_max: s.pointsize_max,
        viewport: [ctx.target_size.0 as f32, ctx.target_size.1 as f32],
        modes,
        ..RenderState::default()
    };
    for st in ctx.stages.iter().filter(|st| st.stage < 8) {
        let n = st.stage as usize;
        rs.bump_env[n] = [st.bumpenvmat00, st.bumpenvmat01, st.bumpenvmat10, st.bumpenvmat11].map(|m| m.unwrap_or(0.0));
        rs.bump_luminance[n] = [st.bumpenvlscale.unwrap_or(0.0), st.bumpenvloffset.unwrap_or(0.0)];
    }
    rs
}

fn stage(
    (t, modes): (Translation, Modes),
    constants: &ShaderConstants,
    ctx: &StageContext<'_>,
    vertex: bool,
) -> Result<GpuStage, String> {
    let group = t.layout.group;
    let state = render_state(ctx, modes);
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
        buffers.push(((group, b), state.to_bytes()));
    }
    let textures = t
        .layout
        .textures
        .iter()
        .map(|tb| TextureSlot {
            texture: (group, tb.texture_binding),
            sampler: (group, tb.sampler_binding),
            stage: sampler_stage(vertex, u32::from(tb.sampler)),
            kind: tb.texture_type.dimension().unwrap_or_default(),
        })
        .collect();
    let slots = if vertex { &t.interface.outputs } else { &t.interface.inputs };
    let varyings: VaryingLayout = slots.iter().filter_map(|s| Some(((s.usage?, s.usage_index), s.location?))).collect();
    let entry = t.module.entry_points.first().map(|e| e.name.clone()).ok_or("the translation has no entry point")?;
    // Under override delivery the draw's boolean and integer constants are pipeline constants.
    let bools = constants.bool.iter().enumerate().fold(0u16, |m, (n, &b)| m | u16::from(b) << n);
    let pipeline =
        t.pipeline_constants(&state.modes, bools, &constants.int).iter().map(|(n, v)| (n.to_string(), v)).collect();
    Ok(GpuStage { module: t.module, entry, varyings, buffers, textures, constants: pipeline })
}

/// Translates a draw's shaders as the GPU path does: each under the key of the draw's state, a
/// pair under the stable interface ([`Linkage::stable`]) when both stages fit it, else linked by
/// semantic ([`link`]). Either stage may be the fixed-function `None`.
pub fn translate_pair(
    vs: Option<&Program>,
    ps: Option<&Program>,
    ctx: &StageContext<'_>,
) -> Result<(Option<Translation>, Option<Translation>), String> {
    let (v, p) = translate_pair_with(vs.map(|p| (p, None)), ps.map(|p| (p, None)), ctx, None)?;
    Ok((v.map(|v| v.0), p.map(|p| p.0)))
}

/// A translated stage with the modes its draw needs (as data under override or uniform delivery).
type Delivered = Option<(Translation, Modes)>;

/// A stage to translate: its program, and the float constants the draw sets where known (the
/// key then says whether they are all finite).
pub type StageInput<'a> = (&'a Program, Option<&'a ShaderConstants>);

/// [`translate_pair`] with every mode and constant delivered by `delivery` (`None`: the
/// library's defaults): each stage's modes are those its baked key would have had.
pub fn translate_pair_with(
    vs: Option<StageInput<'_>>,
    ps: Option<StageInput<'_>>,
    ctx: &StageContext<'_>,
    delivery: Option<Delivery>,
) -> Result<(Delivered, Delivered), String> {
    let (vkey, pkey) = pair_keys(vs, ps, ctx, delivery);
    let (vs, ps) = (vs.map(|v| v.0), ps.map(|p| p.0));
    let v = match (vs, vkey) {
        (Some(p), Some((k, m))) => {
            Some((translate(p, &k).map_err(|e| format!("translating the vertex shader: {e}"))?, m))
        }
        _ => None,
    };
    let f = match (ps, pkey) {
        (Some(p), Some((k, m))) => {
            Some((translate(p, &k).map_err(|e| format!("translating the pixel shader: {e}"))?, m))
        }
        _ => None,
    };
    Ok((v, f))
}

/// A runner's stage as a [`StageInput`], its constants known.
fn with_constants<'a>(s: Option<(&'a Program, &'a ShaderConstants)>) -> Option<StageInput<'a>> {
    s.map(|(p, c)| (p, Some(c)))
}

/// A stage's key, with the modes its baked key would have had.
pub type KeyAndModes = Option<(ShaderKey, Modes)>;

/// The keys of a draw's stages under `delivery`, with the modes of their baked keys (what
/// [`translate_pair_with`] translates under).
pub fn pair_keys(
    vs: Option<StageInput<'_>>,
    ps: Option<StageInput<'_>>,
    ctx: &StageContext<'_>,
    delivery: Option<Delivery>,
) -> (KeyAndModes, KeyAndModes) {
    let modes = |k: &mut ShaderKey, known: bool| {
        // The draw's key, before its deliveries are set: every mode still baked.
        let m = Modes::from_key(k).expect("a draw's key bakes every mode until its deliveries are set");
        k.delivery = deliveries(delivery, known);
        m
    };
    let known = |s: Option<StageInput<'_>>| s.is_some_and(|s| s.1.is_some());
    let (vknown, pknown) = (known(vs), known(ps));
    let mut vkey = vs.map(|(p, c)| key(p, c, ctx));
    let mut pkey = ps.map(|(p, c)| key(p, c, ctx));
    let (vs, ps) = (vs.map(|v| v.0), ps.map(|p| p.0));
    let vmodes = vkey.as_mut().map(|k| modes(k, vknown));
    let pmodes = pkey.as_mut().map(|k| modes(k, pknown));
    if let (Some(v), Some(p), Some(vk), Some(pk)) = (vs, ps, vkey.as_mut(), pkey.as_mut()) {
        let (vsig, psig) = (analyse(v), analyse(p));
        // The stable interface when both stages fit it (each translated alone, as a layer
        // would), else the pair's own linkage.
        let linkage = if fits_stable(v.version, &vsig) && fits_stable(p.version, &psig) {
            Linkage::stable()
        } else {
            link(v.version, &vsig, p.version, &psig)
        };
        vk.linkage = Some(linkage.clone());
        pk.linkage = Some(linkage);
    }
    (vkey.zip(vmodes), pkey.zip(pmodes))
}

/// [`Delivering`] that also records, for every stage it translates, the shader (its tokens'
/// hash) and the translation a layer would cache ([`d3d9_shader::artifact::cache_hash`] of the
/// minimal key): how many translations a layer needs for the draws it has seen.
#[derive(Debug, Default)]
pub struct Counting {
    /// The delivery of the modes.
    pub delivery: Delivery,
    /// (shader hash, translation hash) pairs seen.
    pub seen: std::sync::Mutex<std::collections::BTreeSet<(u128, u128)>>,
}

impl Counting {
    /// (distinct shaders, distinct translations) so far.
    pub fn counts(&self) -> (usize, usize) {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let mut shaders: Vec<u128> = seen.iter().map(|s| s.0).collect();
        shaders.dedup();
        (shaders.len(), seen.len())
    }

    fn record(&self, program: &Program, key: &ShaderKey) {
        let tokens = d3d9_shader::bytecode::encode(program);
        let minimal = key.minimal(program.version, &analyse(program));
        let shader = d3d9_shader::artifact::cache_hash(&tokens, &ShaderKey::default());
        let translation = d3d9_shader::artifact::cache_hash(&tokens, &minimal);
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).insert((shader, translation));
    }
}

impl ShaderGpu for Counting {
    fn translate(
        &self,
        vs: Option<(&Program, &ShaderConstants)>,
        ps: Option<(&Program, &ShaderConstants)>,
        ctx: StageContext<'_>,
    ) -> Result<(Option<GpuStage>, Option<GpuStage>), String> {
        let (vk, pk) = pair_keys(with_constants(vs), with_constants(ps), &ctx, Some(self.delivery));
        for (p, k) in [(vs.map(|v| v.0), vk), (ps.map(|p| p.0), pk)] {
            if let (Some(p), Some((k, _))) = (p, k) {
                self.record(p, &k);
            }
        }
        Delivering(self.delivery).translate(vs, ps, ctx)
    }
}

impl ShaderGpu for Translator {
    fn translate(
        &self,
        vs: Option<(&Program, &ShaderConstants)>,
        ps: Option<(&Program, &ShaderConstants)>,
        ctx: StageContext<'_>,
    ) -> Result<(Option<GpuStage>, Option<GpuStage>), String> {
        delivered(vs, ps, ctx, None)
    }
}

/// The translator under chosen float rules (the [`Translator`] uses the draw's): `cargo xtask
/// bench --gpu` draws the same shaders under the strict and the IEEE rules.
#[derive(Clone, Copy, Debug)]
pub struct WithFloatRules(pub FloatRules);

impl ShaderGpu for WithFloatRules {
    fn translate(
        &self,
        vs: Option<(&Program, &ShaderConstants)>,
        ps: Option<(&Program, &ShaderConstants)>,
        ctx: StageContext<'_>,
    ) -> Result<(Option<GpuStage>, Option<GpuStage>), String> {
        delivered(vs, ps, StageContext { float_rules: self.0, ..ctx }, None)
    }
}

impl ShaderGpu for Delivering {
    fn translate(
        &self,
        vs: Option<(&Program, &ShaderConstants)>,
        ps: Option<(&Program, &ShaderConstants)>,
        ctx: StageContext<'_>,
    ) -> Result<(Option<GpuStage>, Option<GpuStage>), String> {
        delivered(vs, ps, ctx, Some(self.0))
    }
}

/// The GPU stages of a draw's shaders under `delivery` (`None`: the library's defaults).
fn delivered(
    vs: Option<(&Program, &ShaderConstants)>,
    ps: Option<(&Program, &ShaderConstants)>,
    ctx: StageContext<'_>,
    delivery: Option<Delivery>,
) -> Result<(Option<GpuStage>, Option<GpuStage>), String> {
    let (tv, tp) = translate_pair_with(with_constants(vs), with_constants(ps), &ctx, delivery)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::{RenderState, TextureDimension};

    #[test]
    fn a_vertex_shaders_sampler_n_reads_stage_257_plus_n() {
        let vs = d3d9_shader::asm::assemble(
            "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\ndcl_cube s1\ndcl_2d s3\nmov o0, v0\ntexldl r0, v0, s1\ntexldl r1, r0, s3\nmov o1, r1\n",
        )
        .unwrap();
        let ps =
            d3d9_shader::asm::assemble("ps_3_0\ndcl_texcoord0 v0\ndcl_2d s1\ntexld r0, v0, s1\nmov oC0, r0\n").unwrap();
        // Black 1×1 textures: only their stages and kinds matter here.
        let texture = crate::textures::stand_in;
        let textures = [
            texture(1, TextureDimension::Tex2D),
            texture(258, TextureDimension::Cube),
            texture(260, TextureDimension::Tex2D),
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
        assert_eq!(vertex, [(258, TextureDimension::Cube), (260, TextureDimension::Tex2D)]);
        assert_eq!(stages(p), [(1, TextureDimension::Tex2D)]);
    }
}
