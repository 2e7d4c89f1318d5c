//! `cargo xtask bench --gpu --ffp [--cases DIR]... [--rounds N]`: what the fixed-function halves
//! cost on the adapter in the keyed mode against the uniform-driven mode (docs/layers.md#fixed-function).
//!
//! The subjects are the draws of the fixed-function cases (default `../shared/conformance-ffp`
//! and `shaders/cases/ffp`) whose two stages are both fixed-function and that draw triangles,
//! with the state in force at the draw (the runner's `FfpState` and `RenderState`), through the
//! harness's generator glue (`ffp_gpu::vertex_stage`, `pixel_stage`) and pipelines. Per subject
//! and mode one sample is, as in [`crate::bench_gpu`]:
//! - `create`: the pipeline and a first one-instance draw, waited for (llvmpipe compiles at the
//!   first draw);
//! - `draw`: then `INSTANCES` instances of the draw into a `TARGET`² target, waited for.
//!
//! Samples are interleaved (round by round, subject by subject, keyed then uniform), a subject's
//! time is the median over rounds after a warm-up round, and the report gives the uniform / keyed
//! ratios' geometric means. It also counts the distinct modules each mode needs for all the
//! subjects, which is what a layer compiles: one per key keyed, one per interface uniform-driven.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Instant;

use d3d9_shader::ffp::FfpMode;
use gpu_harness::case::{self, Case, Primitive, RenderState, ShadeMode, TextureDimension};
use gpu_harness::device::Gpu;
use gpu_harness::ffp_gpu::{self, PixelSetup, VertexSetup};
use gpu_harness::ffp_state::{FfpState, VertexFormat};
use gpu_harness::gpu::{self, DrawCall, FixedState, Resource};
use gpu_harness::runner::{self, GpuStage};
use gpu_harness::targets::GpuTargets;
use gpu_harness::textures::{self, DecodedTexture, GpuTexture};
use gpu_harness::vertex::Vertices;

use crate::stats::{geomean, median};

/// Instances of a draw per timed sample.
const INSTANCES: u32 = 64;
/// The target's width and height.
const TARGET: u32 = 128;
/// The modes compared, in sample order.
const MODES: [(FfpMode, &str); 2] = [(FfpMode::Keyed, "keyed"), (FfpMode::Uniform, "uniform")];

/// One draw in both modes, ready to time.
struct Subject {
    name: String,
    /// Per mode: the two stages.
    stages: [[GpuStage; 2]; 2],
    vertices: Vec<[[f32; 4]; 16]>,
    strip: bool,
    cull: case::CullMode,
    /// The case's textures, uploaded as the stages sample them.
    uploaded: Vec<(u32, TextureDimension, GpuTexture)>,
}

/// The default case folders: the shared Windows-measured ones and the project's own.
pub fn default_dirs(root: &std::path::Path) -> Vec<PathBuf> {
    let shared = crate::conformance::shared_dir().map(|d| d.join("conformance-ffp")).filter(|p| p.is_dir());
    shared.into_iter().chain([root.join("shaders/cases/ffp")]).collect()
}

/// Runs `cargo xtask bench --gpu --ffp`; the exit status.
pub fn run(dirs: &[PathBuf], rounds: usize) -> i32 {
    let Some(gpu) = crate::bench_gpu::bench_device("xtask bench --gpu --ffp") else { return 1 };
    let (mut subjects, modules) = match subjects(&gpu, dirs) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("xtask bench --gpu --ffp: {e}");
            return 1;
        }
    };
    if subjects.is_empty() {
        eprintln!("xtask bench --gpu --ffp: no fixed-function draw in {dirs:?}");
        return 1;
    }
    let targets = GpuTargets::new(&gpu.device, TARGET, TARGET, &[case::TargetFormat::A8R8G8B8]);
    match time(&gpu, &targets, &mut subjects, rounds) {
        Ok(samples) => {
            report(&subjects, &samples, &modules, rounds);
            0
        }
        Err(e) => {
            eprintln!("xtask bench --gpu --ffp: {e}");
            1
        }
    }
}

/// Distinct modules per mode and stage: [mode][vertex | pixel].
type Modules = [[BTreeSet<String>; 2]; 2];

/// Every fixed-function triangle draw of the folders' cases, and the distinct modules.
fn subjects(gpu: &Gpu, dirs: &[PathBuf]) -> Result<(Vec<Subject>, Modules), String> {
    let mut out = Vec::new();
    let mut modules: Modules = Default::default();
    for dir in dirs {
        let files = case::case_files(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for path in files {
            let case = Case::load(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let decoded: Vec<DecodedTexture> = case.textures.iter().map(DecodedTexture::decode).collect();
            let mut state = RenderState::default();
            state.apply(&case.render_states);
            let mut ffp = FfpState::new(&case);
            for (i, draw) in case.draws.iter().enumerate() {
                ffp.before_draw(draw);
                if let Some(rs) = &draw.render_states {
                    state.apply(rs);
                }
                if !draw.vs_is_none() || !draw.ps_is_none() || draw.primitive == Primitive::PointList {
                    continue;
                }
                let name = format!("{}#{i}", case.name);
                let s = subject(gpu, &name, draw, &ffp, &state, &decoded).map_err(|e| format!("{name}: {e}"))?;
                for (m, stages) in s.stages.iter().enumerate() {
                    for (k, stage) in stages.iter().enumerate() {
                        modules[m][k].insert(wgsl(&stage.module)?);
                    }
                }
                out.push(s);
            }
        }
    }
    Ok((out, modules))
}

/// A module's WGSL, which tells distinct modules apart.
fn wgsl(module: &naga::Module) -> Result<String, String> {
    let analysis = d3d9_shader::emit::Analysis::validated(module).map_err(|e| e.to_string())?;
    d3d9_shader::emit::wgsl(module, &analysis).map_err(|e| e.to_string())
}

fn subject(
    gpu: &Gpu,
    name: &str,
    draw: &case::Draw,
    ffp: &FfpState,
    state: &RenderState,
    decoded: &[DecodedTexture],
) -> Result<Subject, String> {
    let format = VertexFormat::of(draw);
    let layout = gpu_harness::fixed_function::default_layout();
    let flat = state.shademode == ShadeMode::Flat;
    let fog = runner::fog_source(state, None, None)?;
    let alpha = state.alphatestenable.then_some((state.alphafunc, (state.alpharef & 0xff) as u8));
    let stages = MODES.map(|(mode, _)| -> Result<[GpuStage; 2], String> {
        let vs = VertexSetup { flat, target_size: (TARGET, TARGET), points: false, mode };
        let ps = PixelSetup { vertex: Some(&format), fog, alpha, flat, mode };
        Ok([
            ffp_gpu::vertex_stage(ffp, state, &format, &layout, &vs)?,
            ffp_gpu::pixel_stage(ffp, state, decoded, &layout, &ps)?,
        ])
    });
    let [keyed, uniform] = stages;
    let stages = [keyed?, uniform?];
    let tween = state.vertexblend == case::VertexBlend::Tweening;
    let registers = Vertices::from_draw(draw)?.registers(&runner::fixed_input_map(tween));
    let vertices = match &draw.indices {
        Some(indices) => indices[..draw.vertices_needed() as usize].iter().map(|&i| registers[i as usize]).collect(),
        None => registers,
    };
    let mut uploaded: Vec<(u32, TextureDimension, GpuTexture)> = Vec::new();
    for slot in stages.iter().flatten().flat_map(|s| &s.textures) {
        if uploaded.iter().any(|(s, k, _)| *s == slot.stage && *k == slot.kind) {
            continue;
        }
        let stand_in;
        let t = match decoded.iter().find(|d| d.stage == slot.stage) {
            Some(t) => t,
            None => {
                stand_in = textures::stand_in(slot.stage, slot.kind);
                &stand_in
            }
        };
        let g = textures::upload(&gpu.device, &gpu.queue, t, slot.kind)
            .ok_or_else(|| format!("a {:?} texture sampled as {:?}", t.kind, slot.kind))?;
        uploaded.push((slot.stage, slot.kind, g));
    }
    Ok(Subject {
        name: name.to_string(),
        stages,
        vertices,
        strip: draw.primitive == Primitive::TriangleStrip,
        cull: state.cullmode,
        uploaded,
    })
}

fn call<'a>(s: &'a Subject, stages: &'a [GpuStage; 2]) -> DrawCall<'a> {
    let mut resources = BTreeMap::new();
    for stage in stages {
        for (key, data) in &stage.buffers {
            resources.insert(*key, Resource::Buffer(data.clone()));
        }
        for slot in &stage.textures {
            if let Some((_, _, g)) = s.uploaded.iter().find(|(t, k, _)| *t == slot.stage && *k == slot.kind) {
                resources.insert(slot.texture, Resource::Texture(&g.view));
                resources.insert(slot.sampler, Resource::Sampler(&g.sampler));
            }
        }
    }
    let [vs, ps] = stages;
    DrawCall {
        vs: (&vs.module, &vs.entry),
        ps: (&ps.module, &ps.entry),
        vertices: &s.vertices,
        strip: s.strip,
        points: false,
        resources,
        state: FixedState {
            cull: s.cull,
            z_enable: false,
            z_func: case::CompareFunc::Always,
            z_write: false,
            blend: None,
        },
        constants: [vs.constants.clone(), ps.constants.clone()],
        sources: [None, None],
    }
}

/// samples[subject][mode][create | draw], in milliseconds.
type Samples = Vec<[[Vec<f64>; 2]; 2]>;

fn time(gpu: &Gpu, targets: &GpuTargets, subjects: &mut [Subject], rounds: usize) -> Result<Samples, String> {
    let mut samples: Samples = subjects.iter().map(|_| Default::default()).collect();
    let bar = crate::progress::bar(rounds as u64 + 1);
    for round in 0..=rounds {
        bar.inc(1);
        for (s, out) in subjects.iter().zip(samples.iter_mut()) {
            for (m, stages) in s.stages.iter().enumerate() {
                let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
                let call = call(s, stages);
                let start = Instant::now();
                let pipeline = gpu::Pipeline::new(gpu, targets, &call).map_err(|e| format!("{}: {e}", s.name))?;
                pipeline.draw(gpu, targets, 1);
                gpu.wait();
                let create = start.elapsed().as_secs_f64() * 1e3;
                let start = Instant::now();
                pipeline.draw(gpu, targets, INSTANCES);
                gpu.wait();
                let draw = start.elapsed().as_secs_f64() * 1e3;
                if let Some(e) = pollster::block_on(scope.pop()) {
                    return Err(format!("{}: wgpu: {e}", s.name));
                }
                if round > 0 {
                    out[m][0].push(create);
                    out[m][1].push(draw);
                }
            }
        }
    }
    bar.finish_and_clear();
    Ok(samples)
}

fn report(subjects: &[Subject], samples: &Samples, modules: &Modules, rounds: usize) {
    println!(
        "{} fixed-function draws, {rounds} rounds interleaved after a warm-up; ms, median over rounds; create = \
         pipeline + first draw, draw = {INSTANCES} instances into a {TARGET}x{TARGET} target",
        subjects.len()
    );
    let (mut create, mut draw) = (Vec::new(), Vec::new());
    let mut totals = [[0.0f64; 2]; 2];
    for [keyed, uniform] in samples {
        let [ck, dk] = [median(&mut keyed[0].clone()), median(&mut keyed[1].clone())];
        let [cu, du] = [median(&mut uniform[0].clone()), median(&mut uniform[1].clone())];
        create.push(cu / ck);
        draw.push(du / dk);
        totals[0][0] += ck;
        totals[0][1] += dk;
        totals[1][0] += cu;
        totals[1][1] += du;
    }
    for (m, (_, mode)) in MODES.iter().enumerate() {
        let [v, p] = [modules[m][0].len(), modules[m][1].len()];
        println!(
            "  {mode:<8} modules: {v} vertex, {p} pixel; create summed over draws {:.1} ms; draw summed {:.1} ms",
            totals[m][0], totals[m][1]
        );
    }
    println!(
        "bench-gpu-ffp: uniform/keyed create {:.3}, draw {:.3} (geometric means over {} draws); modules keyed {} vs uniform {}",
        geomean(&create),
        geomean(&draw),
        subjects.len(),
        modules[0][0].len() + modules[0][1].len(),
        modules[1][0].len() + modules[1][1].len()
    );
}
