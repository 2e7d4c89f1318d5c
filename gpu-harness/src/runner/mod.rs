//! Running a case: every draw on the CPU (interpreter behind the CPU rasterizer) and on the GPU
//! (translated shaders), probes checked on both, and the two images compared pixel by pixel
//! ([`crate::compare`] states the tolerance policy).
//!
//! The shader back ends plug in through two traits, so that the runner knows neither the
//! interpreter's nor the translator's types: [`ShaderCpu`] turns a program into CPU stages,
//! [`ShaderGpu`] turns a program pair into naga modules with their resources. Stages a case leaves
//! to the fixed-function pipeline use the CPU reference ([`crate::ffp_reference`]) on the CPU path
//! and [`crate::fixed_function`] on the GPU path.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use d3d9_shader::bytecode::{Opcode, Program, Usage};
pub use d3d9_shader::interp::Skew;
pub use d3d9_shader::key::FloatRules;

use crate::case::{Case, ConstantKind, Draw, FogMode, MipFilter, RenderState};
use crate::compare::{check_probe, judge_images, ProbeResult, Snapshots, Tolerance};
use crate::cpu::{self, CpuTargets, FogSource, MergeState, PixelStage, VertexStage};
use crate::device::Gpu;
use crate::ffp_reference::{ReferencePixel, ReferenceVertex};
use crate::ffp_state::{FfpState, VertexFormat};
use crate::targets::Image;
use crate::textures::DecodedTexture;
use crate::vertex::{input_map, Semantic, Vertices, D3D8_REGISTERS};

mod gpu_draws;
pub mod walk;

pub use crate::stages::{GpuStage, ShaderConstants, ShaderCpu, ShaderGpu, StageContext, TextureSlot};

/// Which paths to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// GPU only (probes on the GPU image).
    Gpu,
    /// CPU only.
    Cpu,
    /// Both, and the images compared.
    Both,
}

/// The verdict on a case.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every check passed.
    Pass,
    /// What failed.
    Fail(Vec<String>),
    /// Why the case was not run (not a pass).
    Skip(String),
}

/// One target's images, kept for the report when something failed.
#[derive(Clone, Debug)]
pub struct TargetImages {
    /// Target index.
    pub index: usize,
    /// The GPU image.
    pub gpu: Option<Image>,
    /// The CPU image.
    pub cpu: Option<Image>,
}

/// The result of one case.
#[derive(Clone, Debug)]
pub struct CaseResult {
    /// Case name.
    pub name: String,
    /// The file.
    pub path: PathBuf,
    /// Verdict.
    pub verdict: Verdict,
    /// Remarks: skipped back ends, broken() results accepted.
    pub notes: Vec<String>,
    /// Final images (kept for failures).
    pub images: Vec<TargetImages>,
}

/// Runs cases.
pub struct Runner<'a> {
    /// The GPU, if there is one.
    pub gpu: Option<&'a Gpu>,
    /// The interpreter, if built in.
    pub cpu_shaders: Option<&'a dyn ShaderCpu>,
    /// The translator, if built in.
    pub gpu_shaders: Option<&'a dyn ShaderGpu>,
    /// Folders shader names resolve against.
    pub roots: Vec<PathBuf>,
    /// Paths to run.
    pub backend: Backend,
    /// Programs known by name without a file (the sweep's generated partner stages).
    pub preloaded: BTreeMap<String, Program>,
    /// Channels compared per target (bit 0 = red … bit 3 = alpha); targets not listed compare all
    /// four. The sweep leaves out components D3D9 leaves undefined.
    pub channel_masks: Vec<u8>,
    /// The float rules of every draw (strict is D3D9's; fast and ieee are the key's cheaper modes).
    pub float_rules: FloatRules,
    /// How fixed-function halves are generated (keyed, uniform-driven from a state block, or both
    /// with their images compared).
    pub ffp_mode: crate::ffp_modes::FfpModes,
}

impl<'a> Runner<'a> {
    /// A runner of `backend` over `roots` with both shader back ends, and every option at its
    /// default: no preloaded programs, all four channels compared, D3D9's strict float rules,
    /// keyed fixed-function halves. Callers change the rest with struct-update syntax.
    pub fn new(
        gpu: Option<&'a Gpu>,
        cpu_shaders: &'a dyn ShaderCpu,
        gpu_shaders: &'a dyn ShaderGpu,
        roots: Vec<PathBuf>,
        backend: Backend,
    ) -> Self {
        Runner {
            gpu,
            cpu_shaders: Some(cpu_shaders),
            gpu_shaders: Some(gpu_shaders),
            roots,
            backend,
            preloaded: BTreeMap::new(),
            channel_masks: vec![],
            float_rules: FloatRules::default(),
            ffp_mode: Default::default(),
        }
    }

    /// A GPU-path runner with no device and no interpreter: for checks that only build the GPU
    /// path's programs (pipeline creation under Tint, the override cache) and draw nothing.
    /// Options at their defaults as in [`Runner::new`].
    pub fn without_gpu(gpu_shaders: Option<&'a dyn ShaderGpu>, roots: Vec<PathBuf>) -> Self {
        Runner {
            gpu: None,
            cpu_shaders: None,
            gpu_shaders,
            roots,
            backend: Backend::Gpu,
            preloaded: BTreeMap::new(),
            channel_masks: vec![],
            float_rules: FloatRules::default(),
            ffp_mode: Default::default(),
        }
    }
}

/// A draw's shaders (`None`: fixed function), fog source and alpha test.
pub(crate) struct DrawSetup<'p> {
    pub(crate) vs: Option<&'p Program>,
    pub(crate) ps: Option<&'p Program>,
    pub(crate) fog: FogSource,
    pub(crate) alpha: Option<crate::cpu::AlphaTest>,
    pub(crate) point_list: bool,
    /// Without a vertex shader: the component count of each TEXCOORD set the draw declares.
    pub(crate) ffp_texcoord_sets: Option<[u8; 8]>,
}

impl DrawSetup<'_> {
    /// What the stages of this draw of `case` see: the case's textures and stage states, the
    /// draw's render state, fog source and alpha test.
    pub(crate) fn context<'a>(
        &self,
        case: &'a Case,
        prepared: &'a Prepared,
        state: &'a RenderState,
        float_rules: FloatRules,
    ) -> StageContext<'a> {
        StageContext {
            api: case.api,
            textures: &prepared.textures,
            stages: &case.texture_stages,
            target_size: (case.render_target.width, case.render_target.height),
            state,
            fog: self.fog,
            alpha_test: self.alpha,
            float_rules,
            skew: Skew::None,
            point_list: self.point_list,
            ffp_texcoord_sizes: self.ffp_texcoord_sets.map(|sets| {
                std::array::from_fn(|s| {
                    let stage = case.texture_stages.iter().find(|t| t.stage as usize == s);
                    let set = stage.and_then(|t| t.texcoordindex).map_or(s, |t| usize::from(t.index));
                    sets.get(set).copied().unwrap_or(0)
                })
            }),
        }
    }
}

pub(crate) struct Prepared {
    pub(crate) programs: BTreeMap<String, Program>,
    pub(crate) textures: Vec<DecodedTexture>,
}

fn merge_state(state: &RenderState, fog: FogSource, alpha_test: Option<crate::cpu::AlphaTest>) -> MergeState {
    MergeState {
        cull: state.cullmode,
        z_enable: state.zenable,
        z_func: state.zfunc,
        z_write: state.zwriteenable,
        fog,
        flat: state.shademode == crate::case::ShadeMode::Flat,
        table_depth_from_fog: false,
        blend: state.alphablendenable.then_some((state.srcblend, state.destblend)),
        fog_color: {
            let [r, g, b, _] = crate::targets::color_to_rgba(state.fogcolor);
            [r, g, b]
        },
        alpha_test,
    }
}

/// The fog factor's source for a draw (docs/d3d9-rules.md#fog).
pub fn fog_source(state: &RenderState, vs: Option<&Program>, ps: Option<&Program>) -> Result<FogSource, String> {
    if !state.fogenable || ps.is_some_and(|p| p.version.major >= 3) {
        return Ok(FogSource::Off);
    }
    if state.fogtablemode != FogMode::None {
        return Ok(FogSource::Table {
            mode: state.fogtablemode,
            start: state.fogstart,
            end: state.fogend,
            density: state.fogdensity,
        });
    }
    // A vertex shader's oFog, or the fixed-function vertex stage's FOG: its vertex fog, else the
    // specular alpha (docs/d3d9-rules.md#ffp-fog).
    let _ = vs;
    Ok(FogSource::Varying)
}

/// Input registers of the fixed-function vertex stage: the numbering of docs/d3d9-rules.md#d3d8-inputs,
/// POSITIONT at v0; when tweening, NORMAL1 at v1 in place of the blend weights tweening excludes
/// (the generator's interface, translator/src/ffp/mod.rs).
pub fn fixed_input_map(tween: bool) -> Vec<(u16, Semantic)> {
    let mut m: Vec<(u16, Semantic)> = D3D8_REGISTERS.iter().copied().filter(|(r, _)| *r < 16).collect();
    m.push((0, (Usage::PositionT, 0)));
    if tween {
        m.retain(|&(r, _)| r != 1);
        m.push((1, (Usage::Normal, 1)));
    }
    m
}

/// Whether `p` uses an instruction D3D9 defines as an approximation (docs/d3d9-rules.md#float-rules).
fn uses_approximations(p: &Program) -> bool {
    p.instructions.iter().any(|i| {
        matches!(
            i.opcode,
            Opcode::Exp
                | Opcode::Log
                | Opcode::ExpP
                | Opcode::LogP
                | Opcode::Rcp
                | Opcode::Rsq
                | Opcode::Pow
                | Opcode::Nrm
                | Opcode::SinCos
                | Opcode::Lit
        )
    })
}

/// Whether comparing the images of this case needs the wide tolerance (linear filtering, mip
/// selection from derivatives, derivative instructions, approximate instructions).
fn tolerance(textures: &[DecodedTexture], programs: &BTreeMap<String, Program>) -> Tolerance {
    let filtering = textures.iter().any(|t| {
        t.filter == crate::case::Filter::Linear
            || t.mip_filter == MipFilter::Linear
            || (t.mip_levels > 1 && t.mip_filter != MipFilter::None)
    });
    let derivatives = programs
        .values()
        .any(|p| p.instructions.iter().any(|i| matches!(i.opcode, Opcode::Dsx | Opcode::Dsy | Opcode::TexLdd)));
    let approximate = programs.values().any(uses_approximations);
    if filtering || derivatives || approximate {
        Tolerance::Wide
    } else {
        Tolerance::Exact
    }
}

impl Runner<'_> {
    /// Runs one case.
    pub fn run_case(&self, case: &Case, path: &Path) -> CaseResult {
        let mut result = CaseResult {
            name: case.name.clone(),
            path: path.into(),
            verdict: Verdict::Pass,
            notes: vec![],
            images: vec![],
        };
        let prepared = match self.prepare(case) {
            Ok(p) => p,
            Err(Verdict::Skip(s)) => {
                result.verdict = Verdict::Skip(s);
                return result;
            }
            Err(v) => {
                result.verdict = v;
                return result;
            }
        };
        let mut failures = Vec::new();
        let mut runs: Vec<(&str, Snapshots)> = Vec::new();
        let mut skipped = Vec::new();
        let mut ties = Vec::new();
        let mut perspective = false;
        if self.backend != Backend::Cpu {
            match self.render_gpu(case, &prepared, self.ffp_mode.primary()) {
                Ok(s) => {
                    if self.ffp_mode.cross_checks(case) {
                        self.cross_check_ffp(case, &prepared, &s, &mut result.notes, &mut failures);
                    }
                    runs.push(("gpu", s))
                }
                Err(Verdict::Skip(s)) => skipped.push(format!("GPU skipped: {s}")),
                Err(Verdict::Fail(f)) => failures.extend(f.into_iter().map(|f| format!("GPU: {f}"))),
                Err(Verdict::Pass) => {}
            }
        }
        if self.backend != Backend::Gpu {
            match self.render_cpu(case, &prepared, Skew::None) {
                Ok((s, t, p)) => {
                    runs.push(("cpu", s));
                    ties = t;
                    perspective = p;
                }
                Err(Verdict::Skip(s)) => skipped.push(format!("CPU skipped: {s}")),
                Err(Verdict::Fail(f)) => failures.extend(f.into_iter().map(|f| format!("CPU: {f}"))),
                Err(Verdict::Pass) => {}
            }
        }
        result.notes.extend(skipped.iter().cloned());
        let last = case.draws.len() - 1;
        check_probes(case, &runs, &mut result.notes, &mut failures);
        if let [("gpu", g), ("cpu", c)] = runs.as_slice() {
            let tol = if perspective { Tolerance::Wide } else { tolerance(&prepared.textures, &prepared.programs) };
            let judged = judge_images(g, c, &ties, tol, &self.channel_masks, || self.skewed_runs(case, &prepared));
            failures.extend(judged.failures);
            result.notes.extend(judged.notes);
        }
        if !failures.is_empty() {
            let n = case.render_target.render_targets.len() + 1;
            let find = |side: &str, t: usize| runs.iter().find(|(s, _)| *s == side).map(|(_, s)| s[&last][t].clone());
            result.images =
                (0..n).map(|t| TargetImages { index: t, gpu: find("gpu", t), cpu: find("cpu", t) }).collect();
            result.verdict = Verdict::Fail(failures);
        } else if !skipped.is_empty() {
            // A case is proved only when every requested path ran.
            result.verdict = Verdict::Skip(skipped.join("; "));
        }
        result
    }

    /// The GPU images with uniform-driven fixed-function halves against `keyed`, the images with
    /// keyed ones: at most one rounding step apart.
    fn cross_check_ffp(
        &self,
        case: &Case,
        prepared: &Prepared,
        keyed: &Snapshots,
        notes: &mut Vec<String>,
        failures: &mut Vec<String>,
    ) {
        match self.render_gpu(case, prepared, d3d9_shader::ffp::FfpMode::Uniform) {
            Ok(u) => match crate::ffp_modes::compare_runs(keyed, &u) {
                Ok(0) => {}
                Ok(n) => notes.push(format!("uniform-driven fixed function: {n} pixels one rounding step from keyed")),
                Err(d) => failures.push(format!("GPU: the uniform-driven fixed function differs: {d}")),
            },
            Err(e) => failures.push(format!("GPU, uniform-driven fixed function: {e:?}")),
        }
    }

    /// The CPU images with every approximate result and every product at either end of the
    /// error Vulkan allows it (`d3d9_shader::interp::Skew`), for draws that run shaders: how far
    /// they move is the error the draw amplifies ([`crate::compare`]). Empty otherwise.
    fn skewed_runs(&self, case: &Case, prepared: &Prepared) -> Vec<Snapshots> {
        if prepared.programs.is_empty() {
            return vec![];
        }
        [Skew::Up, Skew::Down]
            .into_iter()
            .filter_map(|skew| self.render_cpu(case, prepared, skew).ok().map(|(s, _, _)| s))
            .collect()
    }

    pub(crate) fn prepare(&self, case: &Case) -> Result<Prepared, Verdict> {
        let mut state = RenderState::default();
        state.apply(&case.render_states);
        let mut programs = BTreeMap::new();
        for draw in &case.draws {
            if let Some(rs) = &draw.render_states {
                state.apply(rs);
            }
            let unsupported = state.unsupported();
            if !unsupported.is_empty() {
                return Err(Verdict::Skip(format!(
                    "render state not drawn by the harness: {}",
                    unsupported.join(", ")
                )));
            }
            for name in [&draw.vertex_shader, &draw.pixel_shader] {
                if let Some(p) = self.preloaded.get(name) {
                    programs.insert(name.clone(), p.clone());
                } else if name != "none" && !programs.contains_key(name) {
                    let (_, program) =
                        crate::shaders::load(name, &self.roots).map_err(|e| Verdict::Fail(vec![e.to_string()]))?;
                    programs.insert(name.clone(), program);
                }
            }
        }
        let textures = case.textures.iter().map(DecodedTexture::decode).collect();
        Ok(Prepared { programs, textures })
    }

    pub(crate) fn draw_setup<'p>(
        &self,
        prepared: &'p Prepared,
        draw: &Draw,
        state: &RenderState,
        target: crate::case::TargetFormat,
    ) -> Result<DrawSetup<'p>, Verdict> {
        let vs = (!draw.vs_is_none()).then(|| &prepared.programs[&draw.vertex_shader]);
        let ps = (!draw.ps_is_none()).then(|| &prepared.programs[&draw.pixel_shader]);
        let fog = fog_source(state, vs, ps).map_err(Verdict::Skip)?;
        // The test compares at render target 0's precision (docs/d3d9-rules.md#alpha-test).
        let float_target = target == crate::case::TargetFormat::A32B32G32R32F;
        let alpha = state.alphatestenable.then_some(crate::cpu::AlphaTest {
            func: state.alphafunc,
            reference: (state.alpharef & 0xff) as u8,
            float_target,
        });
        let ffp_texcoord_sets = vs.is_none().then(|| crate::ffp_state::VertexFormat::of(draw).texcoord_sizes);
        Ok(DrawSetup {
            vs,
            ps,
            fog,
            alpha,
            point_list: draw.primitive == crate::case::Primitive::PointList,
            ffp_texcoord_sets,
        })
    }

    fn inputs(
        &self,
        case: &Case,
        draw: &Draw,
        vs: Option<&Program>,
        state: &RenderState,
    ) -> Result<Vec<[[f32; 4]; 16]>, Verdict> {
        let vertices = Vertices::from_draw(draw).map_err(|e| Verdict::Fail(vec![e]))?;
        let map = match vs {
            Some(p) => input_map(p, case.api),
            None => fixed_input_map(state.vertexblend == crate::case::VertexBlend::Tweening),
        };
        let registers = vertices.registers(&map);
        // Indexed draws are drawn as the vertices the indices pick, in order (checked by the case).
        Ok(match &draw.indices {
            Some(indices) => {
                indices[..draw.vertices_needed() as usize].iter().map(|&i| registers[i as usize]).collect()
            }
            None => registers,
        })
    }

    /// The CPU images, the pixels drawn from a tie, and whether a triangle was drawn with
    /// perspective (w differing between its vertices).
    fn render_cpu(
        &self,
        case: &Case,
        prepared: &Prepared,
        skew: Skew,
    ) -> Result<(Snapshots, Vec<bool>, bool), Verdict> {
        let uses_shaders = !prepared.programs.is_empty();
        if uses_shaders && self.cpu_shaders.is_none() {
            return Err(Verdict::Skip("the CPU interpreter is not built in".into()));
        }
        let rt = &case.render_target;
        let size = (rt.width, rt.height);
        let mut targets = CpuTargets {
            colors: case.targets().iter().map(|&(_, f, c)| Image::new(rt.width, rt.height, f, c)).collect(),
            depth: vec![rt.clear_depth; (rt.width * rt.height) as usize],
            ties: vec![false; (rt.width * rt.height) as usize],
            perspective: false,
        };
        let mut state = RenderState::default();
        state.apply(&case.render_states);
        let (mut vsc, mut psc) = (ShaderConstants::default(), ShaderConstants::default());
        let mut snaps = Snapshots::new();
        let mut ffp = FfpState::new(case);
        let tie_scales = tie_scales(&prepared.textures);
        for (i, draw) in case.draws.iter().enumerate() {
            if let Some(c) = &draw.clear {
                targets.clear(c.color, c.depth);
            }
            if let Some(rs) = &draw.render_states {
                state.apply(rs);
            }
            load_constants(draw, &mut vsc, &mut psc);
            ffp.before_draw(draw);
            let setup = self.draw_setup(prepared, draw, &state, case.render_target.format)?;
            let ctx = StageContext { skew, ..setup.context(case, prepared, &state, self.float_rules) };
            let DrawSetup { vs, ps, fog, alpha, .. } = setup;
            let inputs = self.inputs(case, draw, vs, &state)?;
            let format = VertexFormat::of(draw);
            let fail = |e: String| Verdict::Fail(vec![format!("draw {i}: {e}")]);
            let vstage: Box<dyn VertexStage> = match vs {
                Some(p) => self.cpu_shaders.expect("checked above").vertex(p, &vsc, ctx).map_err(fail)?,
                None => Box::new(ReferenceVertex { ffp: ffp.clone(), state: state.clone(), format, target_size: size }),
            };
            let pstage: Box<dyn PixelStage> = match ps {
                Some(p) => self.cpu_shaders.expect("checked above").pixel(p, &psc, ctx).map_err(fail)?,
                None => Box::new(
                    ReferencePixel::new(
                        &ffp,
                        &prepared.textures,
                        vs.is_none().then_some(&format),
                        state.texturefactor,
                        state.specularenable,
                    )
                    .map_err(fail)?,
                ),
            };
            let mut merge = merge_state(&state, fog, alpha);
            merge.table_depth_from_fog = vs.is_none() && ps.is_none() && format.pretransformed && !state.clipping;
            let stages = (vstage.as_ref(), pstage.as_ref());
            cpu_draw(&mut targets, draw, &inputs, stages, &merge, &state, &tie_scales).map_err(fail)?;
            if needs_snapshot(case, i) {
                snaps.insert(i, targets.colors.clone());
            }
        }
        Ok((snaps, targets.ties, targets.perspective))
    }
}

/// Decision points of interpolated inputs: zero, and the texel boundaries of every texture the
/// pixel stage may sample (vertex textures are read before interpolation).
fn tie_scales(textures: &[DecodedTexture]) -> Vec<f32> {
    let mut tie_scales = vec![1.0f32];
    for t in textures.iter().filter(|t| crate::case::vertex_sampler(t.stage).is_none()) {
        for d in [t.size.0, t.size.1, t.size.2] {
            if !tie_scales.contains(&(d as f32)) {
                tie_scales.push(d as f32);
            }
        }
    }
    tie_scales
}

/// Draws `draw`'s primitives (vertex registers `inputs`) on the CPU: points with the render
/// state's point size, else triangles.
fn cpu_draw(
    targets: &mut CpuTargets,
    draw: &Draw,
    inputs: &[[[f32; 4]; 16]],
    (vstage, pstage): (&dyn VertexStage, &dyn PixelStage),
    merge: &MergeState,
    state: &RenderState,
    tie_scales: &[f32],
) -> Result<(), String> {
    if draw.primitive == crate::case::Primitive::PointList {
        let points = cpu::PointState {
            size: state.pointsize,
            min: state.pointsize_min,
            max: state.pointsize_max,
            sprite: state.pointspriteenable,
        };
        let n = (draw.primitive_count as usize).min(inputs.len());
        cpu::draw_points(targets, &inputs[..n], vstage, pstage, merge, &points, tie_scales)
    } else {
        let strip = draw.primitive == crate::case::Primitive::TriangleStrip;
        cpu::draw(targets, inputs, strip, draw.primitive_count, vstage, pstage, merge, tie_scales)
    }
}

/// The case's probes on each side's images (after their draw, else the last).
fn check_probes(case: &Case, runs: &[(&str, Snapshots)], notes: &mut Vec<String>, failures: &mut Vec<String>) {
    let last = case.draws.len() - 1;
    for (side, snaps) in runs {
        for (i, probe) in case.probes.iter().enumerate() {
            let image = &snaps[&probe.after_draw.unwrap_or(last)][probe.target as usize];
            match check_probe(probe, image) {
                ProbeResult::Pass => {}
                ProbeResult::Broken(m) => notes.push(format!("{side} probe {i}: broken() result accepted: {m}")),
                ProbeResult::Fail(m) => failures.push(format!("{} probe {i} {m}", side.to_uppercase())),
            }
        }
    }
}

fn needs_snapshot(case: &Case, draw: usize) -> bool {
    draw + 1 == case.draws.len() || case.probes.iter().any(|p| p.after_draw == Some(draw))
}

fn load_constants(draw: &Draw, vs: &mut ShaderConstants, ps: &mut ShaderConstants) {
    for block in &draw.constants {
        match block.kind {
            ConstantKind::VsFloat | ConstantKind::VsInt | ConstantKind::VsBool => vs.load(block),
            _ => ps.load(block),
        }
    }
}
