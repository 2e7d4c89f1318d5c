//! What `cargo xtask bench --gpu` draws and how one sample is timed: a subject's case with its
//! textures and targets ([`Bench`]), the two stages of one variant of it ([`Stages`]: ours under a
//! float rule, or vkd3d-shader's translation), and the sample itself ([`sample`]). The module
//! notes of `bench_gpu` say what a sample is and why it is taken that way.

use std::collections::BTreeMap;
use std::time::Instant;

use d3d9_shader::bytecode::Program;
use gpu_harness::case::{Case, ConstantKind, Draw, TextureDimension};
use gpu_harness::device::Gpu;
use gpu_harness::gpu::{self, DrawCall, FixedState, Resource, Source};
use gpu_harness::runner::{ShaderConstants, TextureSlot};
use gpu_harness::targets::GpuTargets;
use gpu_harness::textures::{self, DecodedTexture, GpuTexture};

/// Instances of the quad per timed draw of a pixel shader (a full target each).
const PS_INSTANCES: u32 = 64;
/// Instances of the quad per timed draw of a vertex shader: 4 vertices each, enough vertex
/// work to time (a 1 × 1 target keeps the pixel work small).
const VS_INSTANCES: u32 = 16384;
/// Timed draws per sample, of which the fastest is kept: what else runs on the machine can only
/// add to a draw's time, and on a shared 2-core machine two draws of one pipeline in a row
/// differed by up to 20 %.
pub const DRAW_REPEATS: usize = 5;
/// A pixel shader's target: width and height.
pub const PS_TARGET: u32 = 128;

/// What one timed draw is, for the report's header.
pub fn describe_draw() -> String {
    format!(
        "draw = fastest of {DRAW_REPEATS} draws of ps {PS_INSTANCES} instances of a {PS_TARGET}x{PS_TARGET} quad, vs {VS_INSTANCES} of a 1x1 one"
    )
}

/// One subject ready to draw: the case, its textures on the GPU and its targets.
pub struct Bench {
    pub case: Case,
    pub decoded: Vec<DecodedTexture>,
    uploaded: Vec<(u32, TextureDimension, GpuTexture)>,
    targets: GpuTargets,
}

impl Bench {
    /// The sweep's case for `program` (its constants, textures and vertices), on a target of
    /// `PS_TARGET`² for a pixel shader and 1 × 1 for a vertex shader.
    pub fn new(gpu: &Gpu, name: &str, program: &Program) -> Bench {
        let tokens = d3d9_shader::bytecode::encode(program);
        let mut rng = gpu_harness::sweep::Rng::from_tokens(&tokens, 0);
        let mut case = gpu_harness::sweep::case_for(name, program, &mut rng, gpu_harness::sweep::InputSet::of_set(0));
        let size = if program.version.is_pixel() { PS_TARGET } else { 1 };
        case.render_target.width = size;
        case.render_target.height = size;
        let decoded: Vec<DecodedTexture> = case.textures.iter().map(DecodedTexture::decode).collect();
        let formats: Vec<_> = case.targets().iter().map(|t| t.1).collect();
        let targets = GpuTargets::new(&gpu.device, size, size, &formats);
        Bench { case, decoded, uploaded: Vec::new(), targets }
    }

    /// The draw every sample repeats: the case's first.
    pub fn draw(&self) -> &Draw {
        &self.case.draws[0]
    }

    /// Uploads the textures `t` samples that are not on the GPU yet.
    pub fn upload(&mut self, gpu: &Gpu, t: &Stages) -> Result<(), String> {
        for slot in &t.textures {
            if self.uploaded.iter().any(|(s, k, _)| *s == slot.stage && *k == slot.kind) {
                continue;
            }
            let Some(d) = self.decoded.iter().find(|d| d.stage == slot.stage) else { continue };
            let g = textures::upload(&gpu.device, &gpu.queue, d, slot.kind)
                .ok_or_else(|| format!("a {:?} texture sampled as {:?}", d.kind, slot.kind))?;
            self.uploaded.push((slot.stage, slot.kind, g));
        }
        Ok(())
    }
}

/// The vertex and pixel constants of `draw`, as each stage reads them.
pub fn stage_constants(draw: &Draw) -> [ShaderConstants; 2] {
    let (mut vsc, mut psc) = (ShaderConstants::default(), ShaderConstants::default());
    for block in &draw.constants {
        match block.kind {
            ConstantKind::VsFloat | ConstantKind::VsInt | ConstantKind::VsBool => vsc.load(block),
            _ => psc.load(block),
        }
    }
    [vsc, psc]
}

/// A stage's code handed to wgpu as it is ([`Source`]), owned.
pub enum OwnedSource {
    SpirV(Vec<u32>),
    Wgsl(String),
}

impl OwnedSource {
    fn as_source(&self) -> Source<'_> {
        match self {
            OwnedSource::SpirV(words) => Source::SpirV(words),
            OwnedSource::Wgsl(text) => Source::Wgsl(text),
        }
    }
}

/// The modules, inputs and resources of one variant of a subject.
pub struct Stages {
    pub vs: naga::Module,
    pub vs_entry: String,
    pub ps: naga::Module,
    pub ps_entry: String,
    /// Per stage, the code wgpu gets where not the module's WGSL.
    pub sources: [Option<OwnedSource>; 2],
    pub vertices: Vec<[[f32; 4]; 16]>,
    pub buffers: Vec<((u32, u32), Vec<u8>)>,
    pub textures: Vec<TextureSlot>,
}

fn call<'a>(b: &'a Bench, t: &'a Stages) -> DrawCall<'a> {
    let mut resources = BTreeMap::new();
    for (key, data) in &t.buffers {
        resources.insert(*key, Resource::Buffer(data.clone()));
    }
    for slot in &t.textures {
        if let Some((_, _, g)) = b.uploaded.iter().find(|(s, k, _)| *s == slot.stage && *k == slot.kind) {
            resources.insert(slot.texture, Resource::Texture(&g.view));
            resources.insert(slot.sampler, Resource::Sampler(&g.sampler));
        }
    }
    DrawCall {
        vs: (&t.vs, &t.vs_entry),
        ps: (&t.ps, &t.ps_entry),
        vertices: &t.vertices,
        strip: true,
        points: false,
        resources,
        state: FixedState {
            cull: gpu_harness::case::CullMode::None,
            z_enable: false,
            z_func: gpu_harness::case::CompareFunc::Always,
            z_write: false,
            blend: None,
        },
        constants: [Vec::new(), Vec::new()],
        sources: t.sources.each_ref().map(|s| s.as_ref().map(OwnedSource::as_source)),
    }
}

/// One sample: milliseconds to create and first-draw, and to draw.
pub fn sample(gpu: &Gpu, b: &Bench, t: &Stages) -> Result<[f64; 2], String> {
    let call = call(b, t);
    let start = Instant::now();
    let pipeline = gpu::Pipeline::new(gpu, &b.targets, &call).map_err(|e| e.to_string())?;
    pipeline.draw(gpu, &b.targets, 1);
    gpu.wait();
    let create = start.elapsed().as_secs_f64() * 1e3;
    let instances = if b.case.render_target.width == 1 { VS_INSTANCES } else { PS_INSTANCES };
    let mut draw = f64::INFINITY;
    for _ in 0..DRAW_REPEATS {
        let start = Instant::now();
        pipeline.draw(gpu, &b.targets, instances);
        gpu.wait();
        draw = draw.min(start.elapsed().as_secs_f64() * 1e3);
    }
    Ok([create, draw])
}
