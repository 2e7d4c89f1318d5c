//! `cargo xtask bench --gpu [--corpus DIR] [--list FILE] [--heavy N] [--rounds N] [--rules R]`:
//! what the generated code costs on the adapter (lavapipe where there is no GPU), under the
//! strict float rules (D3D9's 0 · anything = 0, docs/d3d9-rules.md) against the IEEE rules, or
//! with `--rules fast` under the fast rules (IEEE multiplies, clamped rcp/rsq/log) against IEEE:
//! what a layer choosing between the modes trades.
//!
//! The subjects are the `--heavy` (default 5) ps_3_0 and vertex shaders of the selection with
//! the most instructions. Each is drawn as the sweep draws it (gpu-harness: `sweep::case_for`'s
//! constants, textures and vertices; a pixel shader behind the fixed-function vertex stand-in,
//! a vertex shader in front of the sweep's pass-through ps_3_0), through the harness's device
//! and pipelines (`gpu::Pipeline`). Per subject and float rule, one sample is:
//! - `create`: the pipeline (both shader modules, the bind groups, `create_render_pipeline`)
//!   and a first one-instance draw, waited for: llvmpipe compiles the fragment shader's variant
//!   at the first draw, so creation alone would leave part of the compile out;
//! - `draw`: then the fastest of `DRAW_REPEATS` draws of many instances of the case's quad, each
//!   waited for: a pixel shader `PS_INSTANCES` over a `PS_TARGET`² target (pixel work), a vertex
//!   shader `VS_INSTANCES` into a 1 × 1 target (vertex work).
//!
//! Samples are interleaved (round by round, subject by subject, the two rules back to back, the
//! one that goes first alternating by round) so that load on the machine hits both rules alike.
//! A subject's ratio is the median over `--rounds` rounds (after one warm-up round) of each
//! round's strict / IEEE ratio: the two samples of a round are taken a few milliseconds apart,
//! so a slow spell of a shared machine, which lasts longer, cancels out of the ratio, where a
//! ratio of two medians could pair samples of different rounds. With one draw per sample and
//! that ratio, runs on 2-core machines read the heavy pixel shaders' geometric mean anywhere
//! from 0.97 to 1.10; with both changes the middle half of a shader's rounds spans a few percent.
//! The report gives each subject's median times, its median ratio and the middle half of its
//! per-round draw ratios, and the ratios' geometric mean per stage. Mesa's on-disk shader cache is turned off
//! (`MESA_SHADER_CACHE_DISABLE`), or every round after the first would read the compile from it.
//!
//! Then the code itself, without drawing (`bench_code`): every shader of the selection
//! translated to SPIR-V under both rules and optimised by `spirv-opt -O`, the strict / IEEE ratio
//! of the instruction counts per stage, under the plain key and with the draw's facts, and the
//! strict products by the zero guards they kept. A missing `spirv-opt` skips this part with a
//! message.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use d3d9_shader::bytecode::{Program, ShaderKind};
use d3d9_shader::key::FloatRules;
use d3d9_shader::{ParseOptions, Shader};
use gpu_harness::case::{Case, ConstantKind, RenderState, TextureDimension};
use gpu_harness::device::Gpu;
use gpu_harness::gpu::{self, DrawCall, FixedState, Resource};
use gpu_harness::runner::{self, ShaderConstants, ShaderGpu, StageContext, TextureSlot};
use gpu_harness::targets::GpuTargets;
use gpu_harness::textures::{self, DecodedTexture, GpuTexture};
use gpu_harness::translated::WithFloatRules;
use gpu_harness::vertex::{input_map, Vertices};

use crate::bench_corpus::Entry;
use crate::stats::{geomean, median, middle_half, paired_ratios};

/// Instances of the quad per timed draw of a pixel shader (a full target each).
const PS_INSTANCES: u32 = 64;
/// Instances of the quad per timed draw of a vertex shader: 4 vertices each, enough vertex
/// work to time (a 1 × 1 target keeps the pixel work small).
const VS_INSTANCES: u32 = 16384;
/// Timed draws per sample, of which the fastest is kept: what else runs on the machine can only
/// add to a draw's time, and on a shared 2-core machine two draws of one pipeline in a row
/// differed by up to 20 %.
const DRAW_REPEATS: usize = 5;
/// A pixel shader's target: width and height.
const PS_TARGET: u32 = 128;
/// The rules compared, in sample order: `measured` against IEEE, each with its name.
pub type RulePair = [(FloatRules, &'static str); 2];

/// `measured` (strict or fast) against IEEE.
pub fn rule_pair(measured: FloatRules) -> RulePair {
    let name = match measured {
        FloatRules::Strict => "strict",
        FloatRules::Fast => "fast",
        FloatRules::Ieee => "ieee",
    };
    [(measured, name), (FloatRules::Ieee, "ieee")]
}

/// A shader to draw.
struct Subject {
    name: String,
    program: Program,
}

/// Runs `cargo xtask bench --gpu`; the exit status.
/// `peers`: the peers' programs (`../shared/peers`), whose vkd3d-shader translation the code
/// counts are compared with.
pub fn run(entries: &[Entry], heavy: usize, rounds: usize, rules: RulePair, peers: Option<&Path>) -> i32 {
    let subjects = heaviest(entries, heavy);
    if subjects.is_empty() {
        eprintln!("xtask bench --gpu: no ps_3_0 or vertex shader in the selection parses");
        return 1;
    }
    let Some(gpu) = bench_device("xtask bench --gpu") else { return 1 };
    let status = match time_draws(&gpu, &subjects, rounds, rules, None) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("xtask bench --gpu: {e}");
            1
        }
    };
    crate::bench_code::spirv_opt_counts(entries, rules, peers);
    status
}

/// The device a GPU benchmark times on, its adapter printed, with Mesa's shader cache off (every
/// round must compile, see the module notes); `None` after saying why under the command name
/// `what`.
pub fn bench_device(what: &str) -> Option<Gpu> {
    if std::env::var_os("MESA_SHADER_CACHE_DISABLE").is_none() {
        // Single-threaded here: no other thread reads the environment yet.
        std::env::set_var("MESA_SHADER_CACHE_DISABLE", "true");
    }
    match Gpu::new(None) {
        Ok(gpu) => {
            println!("adapter: {}", gpu.describe());
            Some(gpu)
        }
        Err(e) => {
            eprintln!("{what}: {e}");
            None
        }
    }
}

/// The draw timings alone (no code counts) on `gpu`, for `cargo xtask gpu-check`: the summary
/// line (`bench-gpu: strict/ieee …`) and the rounds timed, fewer than `rounds` when `deadline`
/// passed first (at least one is timed).
pub fn time_on(
    gpu: &Gpu,
    entries: &[Entry],
    heavy: usize,
    rounds: usize,
    rules: RulePair,
    deadline: Instant,
) -> Result<(String, usize), String> {
    let subjects = heaviest(entries, heavy);
    if subjects.is_empty() {
        return Err("no ps_3_0 or vertex shader in the selection parses".into());
    }
    time_draws(gpu, &subjects, rounds, rules, Some(deadline))
}

/// The `n` ps_3_0 and the `n` vertex shaders with the most instructions.
fn heaviest(entries: &[Entry], n: usize) -> Vec<Subject> {
    let mut ps = Vec::new();
    let mut vs = Vec::new();
    for e in entries {
        let Ok(file) = std::fs::read(&e.path) else { continue };
        let Ok(loaded) = d3d9_shader::input::load(&file, &e.path.to_string_lossy()) else { continue };
        let Some(first) = loaded.first() else { continue };
        let Ok(shader) = Shader::from_tokens(&first.tokens, &ParseOptions::lenient()) else { continue };
        let program = shader.program().clone();
        let v = program.version;
        let subject = Subject { name: e.name.clone(), program };
        match v.kind {
            ShaderKind::Pixel if v.major == 3 => ps.push(subject),
            ShaderKind::Vertex => vs.push(subject),
            ShaderKind::Pixel => {}
        }
    }
    let mut out = Vec::new();
    for mut list in [ps, vs] {
        list.sort_by_key(|s| std::cmp::Reverse(s.program.len()));
        out.extend(list.into_iter().take(n));
    }
    out
}

/// One subject ready to draw: the case, its textures on the GPU and its targets.
struct Bench {
    case: Case,
    decoded: Vec<DecodedTexture>,
    uploaded: Vec<(u32, TextureDimension, GpuTexture)>,
    targets: GpuTargets,
}

/// The modules, inputs and resources of one subject under one rule.
struct Translated {
    vs: naga::Module,
    vs_entry: String,
    ps: naga::Module,
    ps_entry: String,
    vertices: Vec<[[f32; 4]; 16]>,
    buffers: Vec<((u32, u32), Vec<u8>)>,
    textures: Vec<TextureSlot>,
}

fn bench_for(gpu: &Gpu, s: &Subject) -> Bench {
    let tokens = d3d9_shader::bytecode::encode(&s.program);
    let mut rng = gpu_harness::sweep::Rng::from_tokens(&tokens, 0);
    let mut case = gpu_harness::sweep::case_for(&s.name, &s.program, &mut rng, gpu_harness::sweep::InputSet::of_set(0));
    let size = if s.program.version.is_pixel() { PS_TARGET } else { 1 };
    case.render_target.width = size;
    case.render_target.height = size;
    let decoded: Vec<DecodedTexture> = case.textures.iter().map(DecodedTexture::decode).collect();
    let formats: Vec<_> = case.targets().iter().map(|t| t.1).collect();
    let targets = GpuTargets::new(&gpu.device, size, size, &formats);
    Bench { case, decoded, uploaded: Vec::new(), targets }
}

/// Translates `s` under `rules` as the harness's GPU path does, and the stand-in stage.
fn translate(b: &Bench, s: &Subject, rules: FloatRules) -> Result<Translated, String> {
    let partner = gpu_harness::sweep::partner_pixel_shader();
    let vertex = s.program.version.is_vertex();
    let (vs, ps) = if vertex { (Some(&s.program), &partner) } else { (None, &s.program) };
    let draw = &b.case.draws[0];
    let mut state = RenderState::default();
    state.apply(&b.case.render_states);
    let (mut vsc, mut psc) = (ShaderConstants::default(), ShaderConstants::default());
    for block in &draw.constants {
        match block.kind {
            ConstantKind::VsFloat | ConstantKind::VsInt | ConstantKind::VsBool => vsc.load(block),
            _ => psc.load(block),
        }
    }
    let size = (b.case.render_target.width, b.case.render_target.height);
    let ctx = StageContext {
        api: b.case.api,
        textures: &b.decoded,
        stages: &b.case.texture_stages,
        target_size: size,
        state: &state,
        fog: runner::fog_source(&state, vs, Some(ps))?,
        alpha_test: None,
        float_rules: rules,
        skew: runner::Skew::None,
        point_list: false,
        ffp_texcoord_sizes: None,
    };
    let (tvs, tps) = WithFloatRules(rules).translate(vs.map(|p| (p, &vsc)), Some((ps, &psc)), ctx)?;
    let tps = tps.ok_or("no pixel stage")?;
    // A pixel shader is drawn with the fixed-function vertex half, as the sweep draws it.
    let tvs = match tvs {
        Some(t) => t,
        None => {
            let mut ffp = gpu_harness::ffp_state::FfpState::new(&b.case);
            ffp.before_draw(draw);
            let format = gpu_harness::ffp_state::VertexFormat::of(draw);
            let setup = gpu_harness::ffp_gpu::VertexSetup {
                flat: false,
                target_size: size,
                points: false,
                mode: d3d9_shader::ffp::FfpMode::Keyed,
            };
            gpu_harness::ffp_gpu::vertex_stage(&ffp, &state, &format, &tps.varyings, &setup)?
        }
    };
    let map = if vertex { input_map(&s.program, b.case.api) } else { runner::fixed_input_map(false) };
    let (vs_module, vs_entry) = (tvs.module.clone(), tvs.entry.clone());
    let tvs = Some(tvs);
    let vertices = Vertices::from_draw(draw)?.registers(&map);
    let mut buffers = tps.buffers.clone();
    let mut textures = tps.textures.clone();
    if let Some(t) = &tvs {
        buffers.extend(t.buffers.iter().cloned());
        textures.extend(t.textures.iter().copied());
    }
    Ok(Translated { vs: vs_module, vs_entry, ps: tps.module, ps_entry: tps.entry, vertices, buffers, textures })
}

/// Uploads the textures `t` samples that are not on the GPU yet.
fn upload(gpu: &Gpu, b: &mut Bench, t: &Translated) -> Result<(), String> {
    for slot in &t.textures {
        if b.uploaded.iter().any(|(s, k, _)| *s == slot.stage && *k == slot.kind) {
            continue;
        }
        let Some(d) = b.decoded.iter().find(|d| d.stage == slot.stage) else { continue };
        let g = textures::upload(&gpu.device, &gpu.queue, d, slot.kind)
            .ok_or_else(|| format!("a {:?} texture sampled as {:?}", d.kind, slot.kind))?;
        b.uploaded.push((slot.stage, slot.kind, g));
    }
    Ok(())
}

fn call<'a>(b: &'a Bench, t: &'a Translated) -> DrawCall<'a> {
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
    }
}

/// One sample: milliseconds to create and first-draw, and to draw.
fn sample(gpu: &Gpu, b: &Bench, t: &Translated) -> Result<[f64; 2], String> {
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

/// Times every subject under both rules, interleaved, and prints the ratios; returns the summary
/// line and the rounds timed (after the warm-up, at least one, fewer than `rounds` when
/// `deadline` passed).
fn time_draws(
    gpu: &Gpu,
    subjects: &[Subject],
    rounds: usize,
    rules: RulePair,
    deadline: Option<Instant>,
) -> Result<(String, usize), String> {
    let mut benches: Vec<Bench> = subjects.iter().map(|s| bench_for(gpu, s)).collect();
    let mut translated = Vec::new();
    for (b, s) in benches.iter_mut().zip(subjects) {
        let pair = rules
            .iter()
            .map(|&(r, _)| translate(b, s, r))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{}: {e}", s.name))?;
        for t in &pair {
            upload(gpu, b, t).map_err(|e| format!("{}: {e}", s.name))?;
        }
        translated.push(pair);
    }
    // samples[subject][rule][create | draw]
    let mut samples = vec![[[const { Vec::new() }, const { Vec::new() }], [Vec::new(), Vec::new()]]; subjects.len()];
    let bar = crate::progress::bar(rounds as u64 + 1);
    let mut timed = 0;
    for round in 0..=rounds {
        if round > 1 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        timed = round;
        bar.inc(1);
        // The measured rule first in even rounds, IEEE first in odd ones: whatever the second of two
        // back-to-back draws gains or loses (caches, clocks) falls on both rules alike.
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for (i, (b, pair)) in benches.iter().zip(&translated).enumerate() {
            for r in order {
                let t = &pair[r];
                let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
                let times = sample(gpu, b, t).map_err(|e| format!("{}: {e}", subjects[i].name))?;
                if let Some(e) = pollster::block_on(scope.pop()) {
                    return Err(format!("{}: wgpu: {e}", subjects[i].name));
                }
                if round > 0 {
                    samples[i][r][0].push(times[0]);
                    samples[i][r][1].push(times[1]);
                }
            }
        }
    }
    bar.finish_and_clear();
    Ok((report(subjects, samples, timed, rules[0].1), timed))
}

/// Prints the table and the geometric means, and returns the last line; `measured` names the
/// rule timed against IEEE.
fn report(subjects: &[Subject], samples: Vec<[[Vec<f64>; 2]; 2]>, rounds: usize, measured: &str) -> String {
    println!(
        "{} subjects, {rounds} rounds interleaved after a warm-up; ms, median over rounds; ratio = median of the rounds' {measured} / ieee ratios, middle = their middle half (draw); create = pipeline + first draw, draw = fastest of {DRAW_REPEATS} draws of ps {PS_INSTANCES} instances of a {PS_TARGET}x{PS_TARGET} quad, vs {VS_INSTANCES} of a 1x1 one",
        subjects.len()
    );
    // The measured rule's columns end in its initial, IEEE's in `i`.
    let m = &measured[..1];
    println!(
        "  {:<34} {:>8} {:>8} {:>6}   {:>8} {:>8} {:>6}  {:>13}",
        "shader",
        format!("create-{m}"),
        "create-i",
        "ratio",
        format!("draw-{m}"),
        "draw-i",
        "ratio",
        "middle"
    );
    let mut ratios: BTreeMap<&str, [Vec<f64>; 2]> = BTreeMap::new();
    for (s, [mut timed, mut ieee]) in subjects.iter().zip(samples) {
        let (mut create, mut draw) = (paired_ratios(&timed[0], &ieee[0]), paired_ratios(&timed[1], &ieee[1]));
        let (cr, dr) = (median(&mut create), median(&mut draw));
        let (low, high) = middle_half(&mut draw);
        let [ct, dt] = timed.each_mut().map(|v| median(v));
        let [ci, di] = ieee.each_mut().map(|v| median(v));
        println!(
            "  {:<34} {ct:>8.2} {ci:>8.2} {cr:>6.3}   {dt:>8.2} {di:>8.2} {dr:>6.3}  {low:>6.3}-{high:.3}",
            s.name
        );
        let stage = if s.program.version.is_pixel() { "ps" } else { "vs" };
        let r = ratios.entry(stage).or_default();
        r[0].push(cr);
        r[1].push(dr);
    }
    let mut line = Vec::new();
    for (stage, [create, draw]) in &ratios {
        println!(
            "  {stage}: {measured} / ieee geometric mean: create {:.3}, draw {:.3} ({} shaders)",
            geomean(create),
            geomean(draw),
            create.len()
        );
        line.push(format!("{stage}-create {:.3}, {stage}-draw {:.3}", geomean(create), geomean(draw)));
    }
    let summary = format!("bench-gpu: {measured}/ieee {}", line.join(", "));
    println!("{summary}");
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_round_cancels_out_of_the_paired_ratio() {
        // Round 2 ran three times as slow for both rules, and in round 3 only the IEEE sample
        // was slowed. The rounds' ratios are 1.25, 1.25 and 0.8125, whose median is 1.25; the
        // two lists' medians are both round 3's samples, so their ratio would read 13 / 16.
        let strict = [10.0, 30.0, 13.0];
        let ieee = [8.0, 24.0, 16.0];
        let ratios = paired_ratios(&strict, &ieee);
        assert!((median(&mut ratios.clone()) - 1.25).abs() < 1e-9, "{ratios:?}");
        assert!((median(&mut strict.clone()) / median(&mut ieee.clone()) - 0.8125).abs() < 1e-9);
    }

    #[test]
    fn fast_is_timed_against_ieee() {
        assert_eq!(rule_pair(FloatRules::Fast), [(FloatRules::Fast, "fast"), (FloatRules::Ieee, "ieee")]);
        assert_eq!(rule_pair(FloatRules::Strict)[0], (FloatRules::Strict, "strict"));
    }
}
