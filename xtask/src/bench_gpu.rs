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
//! With the peers' `vkd3ddrv` (`--peers`, default `../shared/peers`), vkd3d-shader's translation
//! of each subject is a third variant in the same rounds, drawn from its SPIR-V as it is with the
//! stand-in stages `bench_vkd3d` writes, and a second table gives ours / vkd3d per round, under
//! the measured rule and under IEEE (`bench-gpu-vkd3d:`).
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
use gpu_harness::case::RenderState;
use gpu_harness::device::Gpu;
use gpu_harness::runner::{self, ShaderGpu, StageContext};
use gpu_harness::translated::WithFloatRules;
use gpu_harness::vertex::{input_map, Vertices};

use crate::bench_corpus::Entry;
use crate::bench_draw::{describe_draw, sample, stage_constants, Bench, Stages};
use crate::stats::{geomean, median, middle_half, paired_ratios};

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
/// `peers`: the peers' programs (`../shared/peers`), whose vkd3d-shader translation is drawn
/// beside ours (`bench_vkd3d`) and its code counted with ours.
pub fn run(entries: &[Entry], heavy: usize, rounds: usize, rules: RulePair, peers: Option<&Path>) -> i32 {
    let subjects = heaviest(entries, heavy);
    if subjects.is_empty() {
        eprintln!("xtask bench --gpu: no ps_3_0 or vertex shader in the selection parses");
        return 1;
    }
    let Some(gpu) = bench_device("xtask bench --gpu") else { return 1 };
    let vkd3d = peers.map(|p| p.join("vkd3ddrv")).filter(|p| p.is_file());
    if vkd3d.is_none() {
        println!("vkd3d-shader's draws: no peers' vkd3ddrv (--peers DIR), skipped");
    }
    let status = match time_draws(&gpu, &subjects, rounds, rules, None, vkd3d.as_deref()) {
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
    time_draws(gpu, &subjects, rounds, rules, Some(deadline), None)
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

/// Translates `s` under `rules` as the harness's GPU path does, and the stand-in stage.
fn translate(b: &Bench, s: &Subject, rules: FloatRules) -> Result<Stages, String> {
    let partner = gpu_harness::sweep::partner_pixel_shader();
    let vertex = s.program.version.is_vertex();
    let (vs, ps) = if vertex { (Some(&s.program), &partner) } else { (None, &s.program) };
    let draw = &b.case.draws[0];
    let mut state = RenderState::default();
    state.apply(&b.case.render_states);
    let [vsc, psc] = stage_constants(draw);
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
    Ok(Stages {
        vs: vs_module,
        vs_entry,
        ps: tps.module,
        ps_entry: tps.entry,
        sources: [None, None],
        vertices,
        buffers,
        textures,
    })
}

/// Times every subject under both rules, and vkd3d-shader's translation of it where `vkd3d` (the
/// peers' `vkd3ddrv`) is given, interleaved, and prints the ratios; returns the summary line and
/// the rounds timed (after the warm-up, at least one, fewer than `rounds` when `deadline` passed).
fn time_draws(
    gpu: &Gpu,
    subjects: &[Subject],
    rounds: usize,
    rules: RulePair,
    deadline: Option<Instant>,
    vkd3d: Option<&Path>,
) -> Result<(String, usize), String> {
    let mut benches: Vec<Bench> = subjects.iter().map(|s| Bench::new(gpu, &s.name, &s.program)).collect();
    // Per subject: ours under each rule, then vkd3d-shader's where it draws.
    let mut variants = Vec::new();
    for (b, s) in benches.iter_mut().zip(subjects) {
        let pair = rules
            .iter()
            .map(|&(r, _)| translate(b, s, r))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{}: {e}", s.name))?;
        for t in &pair {
            b.upload(gpu, t).map_err(|e| format!("{}: {e}", s.name))?;
        }
        variants.push(pair);
    }
    if let Some(program) = vkd3d {
        add_vkd3d(gpu, program, subjects, &mut benches, &mut variants);
    }
    // samples[subject][variant][create | draw]
    let mut samples: Vec<Vec<[Vec<f64>; 2]>> =
        variants.iter().map(|v| v.iter().map(|_| [Vec::new(), Vec::new()]).collect()).collect();
    let bar = crate::progress::bar(rounds as u64 + 1);
    let mut timed = 0;
    for round in 0..=rounds {
        if round > 1 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        timed = round;
        bar.inc(1);
        for (i, (b, v)) in benches.iter().zip(&variants).enumerate() {
            // Each round starts one variant later (with two: the measured rule first in even
            // rounds, IEEE in odd ones): whatever the second of back-to-back draws gains or loses
            // (caches, clocks) falls on every variant alike.
            for k in 0..v.len() {
                let r = (k + round) % v.len();
                let times = checked_sample(gpu, b, &v[r]).map_err(|e| format!("{}: {e}", subjects[i].name))?;
                if round > 0 {
                    samples[i][r][0].push(times[0]);
                    samples[i][r][1].push(times[1]);
                }
            }
        }
    }
    bar.finish_and_clear();
    let summary = report(subjects, &samples, timed, rules[0].1);
    if vkd3d.is_some() {
        report_vkd3d(subjects, &samples, rules[0].1);
    }
    Ok((summary, timed))
}

/// One sample ([`sample`]) with wgpu's validation errors caught as errors.
fn checked_sample(gpu: &Gpu, b: &Bench, t: &Stages) -> Result<[f64; 2], String> {
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let times = sample(gpu, b, t);
    match pollster::block_on(scope.pop()) {
        Some(e) => Err(format!("wgpu: {e}")),
        None => times,
    }
}

/// vkd3d-shader's translation of each subject, as the last variant of the subjects it translates
/// and that draw once; the others are printed with the reason.
fn add_vkd3d(gpu: &Gpu, program: &Path, subjects: &[Subject], benches: &mut [Bench], variants: &mut [Vec<Stages>]) {
    let named: Vec<(&str, &Program)> = subjects.iter().map(|s| (s.name.as_str(), &s.program)).collect();
    let words = crate::bench_vkd3d::translations(program, &named);
    for (((s, b), v), w) in subjects.iter().zip(benches.iter_mut()).zip(variants.iter_mut()).zip(words) {
        let drawn = w.and_then(|w| crate::bench_vkd3d::stages(w, &s.program, b)).and_then(|t| {
            b.upload(gpu, &t)?;
            checked_sample(gpu, b, &t)?;
            Ok(t)
        });
        match drawn {
            Ok(t) => v.push(t),
            Err(e) => println!("vkd3d-shader's {}: not drawn: {e}", s.name),
        }
    }
}

/// Prints the table and the geometric means, and returns the last line; `measured` names the
/// rule timed against IEEE.
fn report(subjects: &[Subject], samples: &[Vec<[Vec<f64>; 2]>], rounds: usize, measured: &str) -> String {
    println!(
        "{} subjects, {rounds} rounds interleaved after a warm-up; ms, median over rounds; ratio = median of the rounds' {measured} / ieee ratios, middle = their middle half (draw); create = pipeline + first draw, {}",
        subjects.len(),
        describe_draw()
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
    for (s, v) in subjects.iter().zip(samples) {
        let (mut timed, mut ieee) = (v[0].clone(), v[1].clone());
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

/// Prints the draws of vkd3d-shader's translation against ours, per subject that has them: the
/// median over rounds of each round's ours / vkd3d ratio, under the measured rule and under IEEE,
/// and their geometric means per stage.
fn report_vkd3d(subjects: &[Subject], samples: &[Vec<[Vec<f64>; 2]>], measured: &str) {
    println!("against vkd3d-shader's SPIR-V, drawn as it is (bench_vkd3d); ms, median over rounds; ratio = median of the rounds' ours / vkd3d (draw)");
    println!("  {:<34} {:>8} {:>8} {:>9} {:>9}", "shader", "create-v", "draw-v", format!("{measured}/v"), "ieee/v");
    let mut ratios: BTreeMap<&str, [Vec<f64>; 2]> = BTreeMap::new();
    for (s, v) in subjects.iter().zip(samples) {
        let [ours, ieee, theirs] = &v[..] else { continue };
        let (mut ct, mut dt) = (theirs[0].clone(), theirs[1].clone());
        let m = median(&mut paired_ratios(&ours[1], &theirs[1]));
        let i = median(&mut paired_ratios(&ieee[1], &theirs[1]));
        println!("  {:<34} {:>8.2} {:>8.2} {m:>9.3} {i:>9.3}", s.name, median(&mut ct), median(&mut dt));
        let r = ratios.entry(if s.program.version.is_pixel() { "ps" } else { "vs" }).or_default();
        r[0].push(m);
        r[1].push(i);
    }
    let mut line = Vec::new();
    for (stage, [m, i]) in &ratios {
        line.push(format!(
            "{stage}-draw {measured}/vkd3d {:.3} ieee/vkd3d {:.3} ({} shaders)",
            geomean(m),
            geomean(i),
            m.len()
        ));
    }
    println!("bench-gpu-vkd3d: {}", if line.is_empty() { "no subject drawn".to_string() } else { line.join(", ") });
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
