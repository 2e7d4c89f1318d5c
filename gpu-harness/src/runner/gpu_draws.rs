//! The GPU side of a case: each draw's stages (the translator's, or the fixed-function
//! generator's halves standing in for a missing shader), their textures and buffers, and the
//! draw itself.

use std::collections::BTreeMap;

use d3d9_shader::ffp::FfpMode;

use super::{
    load_constants, needs_snapshot, DrawSetup, GpuStage, Prepared, Runner, ShaderConstants, TextureSlot, Verdict,
};
use crate::case::{Case, RenderState, TextureDimension};
use crate::compare::Snapshots;
use crate::device::Gpu;
use crate::ffp_gpu::{PixelSetup, VertexSetup};
use crate::ffp_state::{FfpState, VertexFormat};
use crate::fixed_function as ff;
use crate::gpu::{self, DrawCall, FixedState, Resource};
use crate::targets::GpuTargets;
use crate::textures::{self, DecodedTexture, GpuTexture};

/// The textures uploaded so far, by texture stage and the kind the shaders sample them as.
type Uploaded = Vec<(u32, TextureDimension, GpuTexture)>;

impl Runner<'_> {
    pub(super) fn render_gpu(&self, case: &Case, prepared: &Prepared, ffp_mode: FfpMode) -> Result<Snapshots, Verdict> {
        let Some(gpu) = self.gpu else { return Err(Verdict::Skip("no GPU adapter".into())) };
        let uses_shaders = !prepared.programs.is_empty();
        if uses_shaders && self.gpu_shaders.is_none() {
            return Err(Verdict::Skip("the translator is not built in".into()));
        }
        let rt = &case.render_target;
        let size = (rt.width, rt.height);
        let formats: Vec<_> = case.targets().iter().map(|t| t.1).collect();
        let targets = GpuTargets::new(&gpu.device, rt.width, rt.height, &formats);
        // Each target starts with its own clear colour.
        for (t, (_, _, clear)) in case.targets().iter().enumerate() {
            clear_one(gpu, &targets, t, *clear);
        }
        targets.clear(&gpu.device, &gpu.queue, None, Some(rt.clear_depth));
        let mut uploaded: Uploaded = Vec::new();
        let mut state = RenderState::default();
        state.apply(&case.render_states);
        let (mut vsc, mut psc) = (ShaderConstants::default(), ShaderConstants::default());
        let mut snaps = Snapshots::new();
        let mut ffp = FfpState::new(case);
        for (i, draw) in case.draws.iter().enumerate() {
            let fail = |e: String| Verdict::Fail(vec![format!("draw {i}: {e}")]);
            ffp.before_draw(draw);
            if let Some(c) = &draw.clear {
                targets.clear(&gpu.device, &gpu.queue, c.color, c.depth);
            }
            if let Some(rs) = &draw.render_states {
                state.apply(rs);
            }
            load_constants(draw, &mut vsc, &mut psc);
            let setup = self.draw_setup(prepared, draw, &state, case.render_target.format)?;
            let ctx = setup.context(case, prepared, &state, self.float_rules);
            let DrawSetup { vs, ps, fog, alpha, .. } = setup;
            let inputs = self.inputs(case, draw, vs, &state)?;
            let translated = match (vs, ps) {
                (None, None) => (None, None),
                _ => self
                    .gpu_shaders
                    .expect("checked above")
                    .translate(vs.map(|p| (p, &vsc)), ps.map(|p| (p, &psc)), ctx)
                    .map_err(fail)?,
            };
            let format = VertexFormat::of(draw);
            let flat = state.shademode == crate::case::ShadeMode::Flat;
            let points = draw.primitive == crate::case::Primitive::PointList;
            let vertex = VertexSetup { flat, target_size: size, points, mode: ffp_mode };
            let pixel = PixelSetup {
                vertex: vs.is_none().then_some(&format),
                fog,
                alpha: alpha.map(|t| (t.func, t.reference)),
                flat,
                mode: ffp_mode,
            };
            let (tvs, tps) =
                fixed_halves(translated, &ffp, &state, &prepared.textures, &format, (&vertex, &pixel)).map_err(fail)?;
            upload_textures(gpu, &prepared.textures, [&tvs, &tps], &mut uploaded, i)?;
            let call = DrawCall {
                vs: (&tvs.module, tvs.entry.as_str()),
                ps: (&tps.module, tps.entry.as_str()),
                constants: [tvs.constants.clone(), tps.constants.clone()],
                sources: [None, None],
                vertices: match draw.primitive {
                    crate::case::Primitive::PointList => &inputs[..(draw.primitive_count as usize).min(inputs.len())],
                    _ => &inputs,
                },
                strip: draw.primitive == crate::case::Primitive::TriangleStrip,
                points,
                resources: resources([&tvs, &tps], &uploaded),
                state: fixed_state(&state),
            };
            gpu::draw(gpu, &targets, &call).map_err(|e| fail(e.to_string()))?;
            if needs_snapshot(case, i) {
                snaps.insert(i, (0..formats.len()).map(|t| targets.read(&gpu.device, &gpu.queue, t)).collect());
            }
        }
        Ok(snaps)
    }
}

/// The draw's two stages: the translated ones, and the fixed-function generator's halves for
/// the stages without a shader, each on the varying layout of the other stage.
fn fixed_halves(
    (tvs, tps): (Option<GpuStage>, Option<GpuStage>),
    ffp: &FfpState,
    state: &RenderState,
    textures: &[DecodedTexture],
    format: &VertexFormat,
    (vertex, pixel): (&VertexSetup, &PixelSetup<'_>),
) -> Result<(GpuStage, GpuStage), String> {
    // Stand-ins for fixed-function stages, following the other stage's varying layout.
    let layout = tps
        .as_ref()
        .map(|s| s.varyings.clone())
        .or_else(|| tvs.as_ref().map(|s| s.varyings.clone()))
        .unwrap_or_else(ff::default_layout);
    let tvs = match tvs {
        Some(s) => s,
        None => crate::ffp_gpu::vertex_stage(ffp, state, format, &layout, vertex)
            .map_err(|e| format!("fixed-function vertex half: {e}"))?,
    };
    let tps = match tps {
        Some(s) => s,
        None => crate::ffp_gpu::pixel_stage(ffp, state, textures, &layout, pixel)
            .map_err(|e| format!("fixed-function pixel half: {e}"))?,
    };
    Ok((tvs, tps))
}

/// Uploads each texture the stages of draw `i` sample that is not uploaded yet (as the kind
/// they sample it as).
fn upload_textures(
    gpu: &Gpu,
    textures: &[DecodedTexture],
    stages: [&GpuStage; 2],
    uploaded: &mut Uploaded,
    i: usize,
) -> Result<(), Verdict> {
    for stage in stages {
        for &TextureSlot { stage: tex_stage, kind, .. } in &stage.textures {
            if uploaded.iter().any(|(s, k, _)| *s == tex_stage && *k == kind) {
                continue;
            }
            let stand_in;
            let t = match textures.iter().find(|t| t.stage == tex_stage) {
                Some(t) => t,
                None => {
                    // A sampler the translation declares with nothing bound: the unbound mask
                    // is run-time data there, and the shader reads (0, 0, 0, 1) itself; any
                    // texture of the kind fills the binding.
                    stand_in = textures::stand_in(tex_stage, kind);
                    &stand_in
                }
            };
            if textures::needs_float_filtering(t) && !gpu.features.contains(wgpu::Features::FLOAT32_FILTERABLE) {
                return Err(Verdict::Skip(
                    "linear filtering of float textures is not supported by this adapter".into(),
                ));
            }
            let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let g = textures::upload(&gpu.device, &gpu.queue, t, kind);
            if let Some(e) = pollster::block_on(scope.pop()) {
                return Err(Verdict::Fail(vec![format!("draw {i}: uploading the texture of stage {tex_stage}: {e}")]));
            }
            let g = g.ok_or_else(|| Verdict::Skip(format!("a {:?} texture sampled as {kind:?}", t.kind)))?;
            uploaded.push((tex_stage, kind, g));
        }
    }
    Ok(())
}

/// The stages' buffers and their textures and samplers, by (group, binding).
fn resources<'u>(stages: [&GpuStage; 2], uploaded: &'u Uploaded) -> BTreeMap<(u32, u32), Resource<'u>> {
    let mut resources = BTreeMap::new();
    for stage in stages {
        for (key, data) in &stage.buffers {
            resources.insert(*key, Resource::Buffer(data.clone()));
        }
    }
    for stage in stages {
        for &TextureSlot { texture: tb, sampler: sb, stage: tex_stage, kind } in &stage.textures {
            if let Some((_, _, g)) = uploaded.iter().find(|(s, k, _)| *s == tex_stage && *k == kind) {
                resources.insert(tb, Resource::Texture(&g.view));
                resources.insert(sb, Resource::Sampler(&g.sampler));
            }
        }
    }
    resources
}

/// The depth, cull and blend state of the pipeline.
fn fixed_state(state: &RenderState) -> FixedState {
    FixedState {
        cull: state.cullmode,
        z_enable: state.zenable,
        z_func: state.zfunc,
        z_write: state.zwriteenable,
        blend: state.alphablendenable.then_some((state.srcblend, state.destblend)),
    }
}

/// Clears colour target `index` alone (targets start with their own clear colours).
fn clear_one(gpu: &Gpu, targets: &GpuTargets, index: usize, argb: u32) {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    let [r, g, b, a] = crate::targets::color_to_rgba(argb).map(f64::from);
    let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("initial clear"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: &targets.colors[index].1,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    });
    drop(pass);
    gpu.queue.submit([encoder.finish()]);
}
