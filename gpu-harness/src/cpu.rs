//! The CPU pipeline: vertex stage → [`crate::raster`] → pixel stage in 2×2 quads → output merger
//! (fog, alpha test, depth test, colour writes) into [`Image`]s.
//!
//! The stages are traits so that the interpreter and the fixed-function stand-ins plug in alike.
//! The output merger applies the render states that the interpreter (an oracle of the shader alone)
//! does not: fog (docs/d3d9-rules.md#fog) and the alpha test (docs/d3d9-rules.md#alpha-test), in D3D9's order
//! (shader, fog, alpha test, depth test, write: docs/d3d9-rules.md#merger-order).

use crate::case::{CompareFunc, CompareTest, CullMode, FogMode};
use crate::raster::{rasterize_with_ties, triangles, ClipVertex, RasterError};
use crate::targets::{to_byte, Image};
use crate::vertex::Semantic;
use d3d9_shader::bytecode::Usage;

/// What a vertex stage produces for one vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct StageVertex {
    /// Clip-space position.
    pub position: [f32; 4],
    /// Outputs by semantic (COLOR0, TEXCOORD3, FOG, …).
    pub outputs: Vec<(Semantic, [f32; 4])>,
    /// The vertex read a texel D3D9 leaves to the implementation (a vertex texture fetch at a
    /// NaN or infinite coordinate): the pixels of its triangles are ties, not held against the
    /// GPU ([`CpuTargets::ties`]).
    pub tie: bool,
    /// The vertex's own point size (a vertex shader's oPts, a PSIZE element), when it has one.
    pub point_size: Option<f32>,
}

/// A vertex stage: shader or fixed-function stand-in.
pub trait VertexStage {
    /// Runs one vertex given its input registers `v0–v15`.
    fn run(&self, inputs: &[[f32; 4]; 16]) -> Result<StageVertex, String>;
}

/// One pixel's inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct PixelIn {
    /// Interpolated vertex outputs by semantic.
    pub varyings: Vec<(Semantic, [f32; 4])>,
    /// vPos: integer pixel coordinates.
    pub vpos: [f32; 2],
    /// vFace: +1 front, −1 back.
    pub vface: f32,
    /// Whether the lane covers a pixel (false for helper lanes).
    pub covered: bool,
}

impl PixelIn {
    /// The varying of `semantic`, if the vertex stage wrote it.
    pub fn get(&self, semantic: Semantic) -> Option<[f32; 4]> {
        self.varyings.iter().find(|(s, _)| *s == semantic).map(|(_, v)| *v)
    }
}

/// One pixel's outputs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PixelOut {
    /// oC0–oC3; `None` leaves that target untouched.
    pub color: [Option<[f32; 4]>; 4],
    /// oDepth (replaces the interpolated depth).
    pub depth: Option<f32>,
    /// texkill.
    pub discarded: bool,
    /// The pixel read a texel D3D9 leaves to the implementation (a texture sampled at a NaN or
    /// infinite coordinate): it is a tie, not held against the GPU ([`CpuTargets::ties`]).
    pub tie: bool,
}

/// A pixel stage: shader or fixed-function stand-in. Runs 2×2 quads (lanes 0 TL, 1 TR, 2 BL, 3 BR).
pub trait PixelStage {
    /// Runs one quad.
    fn run_quad(&self, lanes: &[PixelIn; 4]) -> Result<[PixelOut; 4], String>;
}

/// Where the fog factor comes from (docs/d3d9-rules.md#fog), already decided from the render states and shaders.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FogSource {
    /// No fog blending.
    Off,
    /// Table fog from the pixel's depth.
    Table {
        /// LINEAR / EXP / EXP2.
        mode: FogMode,
        /// FOGSTART.
        start: f32,
        /// FOGEND.
        end: f32,
        /// FOGDENSITY.
        density: f32,
    },
    /// The interpolated FOG varying's x (0 when the vertex stage wrote none).
    Varying,
}

/// The fog factor of `mode` at depth `z` (LINEAR, EXP, EXP2; NONE gives 1), clamped to [0, 1].
pub fn fog_factor(mode: FogMode, z: f32, start: f32, end: f32, density: f32) -> f32 {
    let f = match mode {
        FogMode::None => 1.0,
        FogMode::Linear => (end - z) / (end - start),
        FogMode::Exp => (-density * z).exp(),
        FogMode::Exp2 => (-(density * z) * (density * z)).exp(),
    };
    if f > 0.0 {
        f.min(1.0)
    } else {
        0.0
    }
}

/// Per-draw fixed state of the output merger and rasterizer.
#[derive(Clone, Debug, PartialEq)]
pub struct MergeState {
    /// Cull mode.
    pub cull: CullMode,
    /// Depth test on.
    pub z_enable: bool,
    /// Depth function.
    pub z_func: CompareFunc,
    /// Depth writes.
    pub z_write: bool,
    /// Fog factor source.
    pub fog: FogSource,
    /// FOGCOLOR (RGB used).
    pub fog_color: [f32; 3],
    /// ALPHABLENDENABLE: (SRCBLEND, DESTBLEND) on target 0: result = src x SRC + dst x DEST.
    pub blend: Option<(crate::case::Blend, crate::case::Blend)>,
    /// Table fog reads the FOG varying's y instead of the depth (pre-transformed vertices with
    /// CLIPPING FALSE, whose z may lie outside [0, 1]).
    pub table_depth_from_fog: bool,
    /// SHADEMODE FLAT: COLOR varyings take each triangle's first vertex's values (in a strip,
    /// triangle i starts at vertex i; docs/d3d9-rules.md#ffp-fog).
    pub flat: bool,
    /// Alpha test; `None` when off.
    pub alpha_test: Option<AlphaTest>,
}

/// The alpha test of the output merger (docs/d3d9-rules.md#alpha-test).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlphaTest {
    /// D3DRS_ALPHAFUNC.
    pub func: CompareFunc,
    /// `ALPHAREF & 0xff`.
    pub reference: u8,
    /// Render target 0 has a float format: the test compares at its precision, the unclamped
    /// alpha against `reference / 255`, instead of the 8-bit alpha against `reference`.
    pub float_target: bool,
}

impl AlphaTest {
    /// Whether a pixel with output alpha `alpha` passes.
    pub fn passes(&self, alpha: f32) -> bool {
        if self.float_target {
            self.func.test(alpha, self.reference as f32 / 255.0)
        } else {
            self.func.test(to_byte(alpha), self.reference)
        }
    }
}

/// The CPU's render targets and depth buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuTargets {
    /// Colour targets 0..n.
    pub colors: Vec<Image>,
    /// Depth buffer, row-major.
    pub depth: Vec<f32>,
    /// Pixels drawn from a tie ([`crate::raster::Lane::tie`], a vertex whose texture fetch
    /// D3D9 leaves undefined, [`StageVertex::tie`], or such a pixel sample, [`PixelOut::tie`]): the image comparison does not hold them
    /// against the GPU.
    pub ties: Vec<bool>,
    /// Whether a drawn triangle had different w at its vertices (perspective interpolation).
    pub perspective: bool,
}

impl CpuTargets {
    /// D3D9 `Clear`.
    pub fn clear(&mut self, color: Option<u32>, depth: Option<f32>) {
        if let Some(c) = color {
            self.colors.iter_mut().for_each(|img| img.clear(c));
        }
        if let Some(d) = depth {
            self.depth.iter_mut().for_each(|x| *x = d);
        }
    }
}

/// The first vertex of triangle `t` in submission order (strip triangles of odd index are wound
/// the other way round by [`triangles`]).
fn first_vertex(strip: bool, t: [usize; 3]) -> usize {
    if strip {
        t[0].min(t[1])
    } else {
        t[0]
    }
}

/// Runs the vertex stage on every vertex of a draw, and gives one varying order for the whole
/// draw: the union of the vertices' semantics, in first-seen order.
fn run_vertices(inputs: &[[[f32; 4]; 16]], vs: &dyn VertexStage) -> Result<(Vec<StageVertex>, Vec<Semantic>), String> {
    let outs = inputs.iter().map(|v| vs.run(v)).collect::<Result<Vec<_>, _>>()?;
    let mut semantics: Vec<Semantic> = Vec::new();
    for o in &outs {
        for (s, _) in &o.outputs {
            if !semantics.contains(s) {
                semantics.push(*s);
            }
        }
    }
    Ok((outs, semantics))
}

/// Draws one primitive batch: `inputs` are the vertices' input registers; `tie_scales` are the
/// scales at which an interpolated input marks a tie ([`crate::raster::Lane::tie`]).
#[allow(clippy::too_many_arguments)]
pub fn draw(
    targets: &mut CpuTargets,
    inputs: &[[[f32; 4]; 16]],
    strip: bool,
    primitive_count: u32,
    vs: &dyn VertexStage,
    ps: &dyn PixelStage,
    state: &MergeState,
    tie_scales: &[f32],
) -> Result<(), String> {
    let (width, height) = (targets.colors[0].width, targets.colors[0].height);
    let (outs, semantics) = run_vertices(inputs, vs)?;
    let clip: Vec<ClipVertex> = outs
        .iter()
        .map(|o| ClipVertex {
            position: o.position,
            varyings: semantics
                .iter()
                .map(|s| o.outputs.iter().find(|(t, _)| t == s).map(|(_, v)| *v).unwrap_or([0.0; 4]))
                .collect(),
        })
        .collect();
    let mut error = None;
    let colors: Vec<usize> = (0..semantics.len()).filter(|&k| semantics[k].0 == Usage::Color).collect();
    for t in triangles(strip, primitive_count) {
        let provoking = first_vertex(strip, t);
        let flat_copy = state.flat.then(|| {
            t.map(|i| {
                let mut v = clip[i].clone();
                for &k in &colors {
                    v.varyings[k] = clip[provoking].varyings[k];
                }
                v
            })
        });
        let tri = match &flat_copy {
            Some(f) => [&f[0], &f[1], &f[2]],
            None => [&clip[t[0]], &clip[t[1]], &clip[t[2]]],
        };
        let w = tri.map(|v| v.position[3]);
        let vertex_tie = t.iter().any(|&i| outs[i].tie);
        targets.perspective |= w[0] != w[1] || w[0] != w[2];
        let result = rasterize_with_ties(tri, width, height, state.cull, tie_scales, |quad| {
            if error.is_none() {
                error = shade_quad(targets, ps, &semantics, &quad, vertex_tie, state).err();
            }
        });
        result.map_err(|e: RasterError| e.to_string())?;
        if let Some(e) = error.take() {
            return Err(e);
        }
    }
    Ok(())
}

/// Runs the pixel stage on one quad and merges its covered lanes.
fn shade_quad(
    targets: &mut CpuTargets,
    ps: &dyn PixelStage,
    semantics: &[Semantic],
    quad: &crate::raster::Quad,
    vertex_tie: bool,
    state: &MergeState,
) -> Result<(), String> {
    let width = targets.colors[0].width;
    let vface = if quad.front { 1.0 } else { -1.0 };
    let lanes: [PixelIn; 4] = std::array::from_fn(|i| {
        let l = &quad.lanes[i];
        PixelIn {
            varyings: semantics.iter().copied().zip(l.varyings.iter().copied()).collect(),
            vpos: [l.x as f32, l.y as f32],
            vface,
            covered: l.covered,
        }
    });
    let outs = ps.run_quad(&lanes)?;
    for (i, out) in outs.iter().enumerate() {
        let lane = &quad.lanes[i];
        let at = (lane.y as u32 * width + lane.x as u32) as usize;
        if lane.edge {
            targets.ties[at] = true;
        }
        if lane.covered {
            if lane.tie || vertex_tie || out.tie {
                targets.ties[at] = true;
            }
            merge(targets, lane.x as u32, lane.y as u32, lane.depth, &lanes[i], out, state);
        }
    }
    Ok(())
}

/// How a point list's sizes and sprite coordinates come about (docs/d3d9-rules.md#point-sprites).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointState {
    /// POINTSIZE: the size of a vertex without its own.
    pub size: f32,
    /// POINTSIZE_MIN.
    pub min: f32,
    /// POINTSIZE_MAX (already the smaller of it and the device's MaxPointSize).
    pub max: f32,
    /// POINTSPRITEENABLE: every TEXCOORD varying is replaced by the sprite coordinates.
    pub sprite: bool,
}

/// Draws a point list of `inputs.len()` points with a programmable or fixed-function vertex
/// stage whose [`StageVertex::point_size`] is the unclamped screen size (see
/// [`crate::point_raster`]).
#[allow(clippy::too_many_arguments)]
pub fn draw_points(
    targets: &mut CpuTargets,
    inputs: &[[[f32; 4]; 16]],
    vs: &dyn VertexStage,
    ps: &dyn PixelStage,
    state: &MergeState,
    points: &PointState,
    tie_scales: &[f32],
) -> Result<(), String> {
    use crate::point_raster::{rasterize_point, shader_point_size, PointRaster};
    let (width, height) = (targets.colors[0].width, targets.colors[0].height);
    let (outs, mut semantics) = run_vertices(inputs, vs)?;
    // The sprite coordinates replace every texture coordinate set, written or not.
    if points.sprite {
        for n in 0..8 {
            if !semantics.contains(&(Usage::TexCoord, n)) {
                semantics.push((Usage::TexCoord, n));
            }
        }
    }
    let sprite: Vec<usize> = if points.sprite {
        (0..semantics.len()).filter(|&k| semantics[k].0 == Usage::TexCoord).collect()
    } else {
        vec![]
    };
    for o in &outs {
        let v = ClipVertex {
            position: o.position,
            varyings: semantics
                .iter()
                .map(|s| o.outputs.iter().find(|(t, _)| t == s).map(|(_, v)| *v).unwrap_or([0.0; 4]))
                .collect(),
        };
        let size = shader_point_size(o.point_size, points.size, points.min, points.max);
        let raster = PointRaster { size, sprite: &sprite, tie_scales };
        let mut error = None;
        rasterize_point(&v, &raster, width, height, |quad| {
            if error.is_none() {
                error = shade_quad(targets, ps, &semantics, &quad, o.tie, state).err();
            }
        })
        .map_err(|e: RasterError| e.to_string())?;
        if let Some(e) = error {
            return Err(e);
        }
    }
    Ok(())
}

fn merge(targets: &mut CpuTargets, x: u32, y: u32, z: f32, input: &PixelIn, out: &PixelOut, s: &MergeState) {
    if out.discarded {
        return;
    }
    let depth = out.depth.unwrap_or(z);
    let mut colors = out.color;
    // Fog (ps < 3.0 and fixed function): blended into oC0.rgb, alpha unchanged.
    let f = match s.fog {
        FogSource::Off => None,
        FogSource::Table { mode, start, end, density } => {
            let fog_y = input.get((d3d9_shader::bytecode::Usage::Fog, 0)).map(|v| v[1]);
            let d = if s.table_depth_from_fog { fog_y.unwrap_or(depth) } else { depth };
            Some(fog_factor(mode, d, start, end, density))
        }
        FogSource::Varying => {
            let f = input.get((d3d9_shader::bytecode::Usage::Fog, 0)).map_or(0.0, |v| v[0]);
            Some(if f > 0.0 { f.min(1.0) } else { 0.0 })
        }
    };
    if let (Some(f), Some(c)) = (f, colors[0].as_mut()) {
        for (ch, fog) in c.iter_mut().zip(s.fog_color) {
            *ch = f * *ch + (1.0 - f) * fog;
        }
    }
    // Alpha test at render target 0's precision (docs/d3d9-rules.md#alpha-test).
    if let Some(test) = s.alpha_test {
        if !test.passes(colors[0].map_or(1.0, |c| c[3])) {
            return;
        }
    }
    let at = (y * targets.colors[0].width + x) as usize;
    if s.z_enable && !s.z_func.test(depth, targets.depth[at]) {
        return;
    }
    if s.z_enable && s.z_write {
        targets.depth[at] = depth;
    }
    if let (Some((sf, df)), Some(c)) = (s.blend, colors[0].as_mut()) {
        let dst = targets.colors[0].get(x, y);
        let factor = |b: crate::case::Blend| match b {
            crate::case::Blend::Zero => 0.0,
            crate::case::Blend::One => 1.0,
            crate::case::Blend::SrcAlpha => c[3],
            crate::case::Blend::InvSrcAlpha => 1.0 - c[3],
        };
        let (fs, fd) = (factor(sf), factor(df));
        for (ch, d) in c.iter_mut().zip(dst) {
            *ch = (*ch * fs + d * fd).clamp(0.0, 1.0);
        }
    }
    for (img, c) in targets.colors.iter_mut().zip(colors) {
        if let Some(c) = c {
            img.put(x, y, c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Quad {
        tie_vertex: usize,
    }

    impl VertexStage for Quad {
        fn run(&self, v: &[[f32; 4]; 16]) -> Result<StageVertex, String> {
            Ok(StageVertex {
                position: v[0],
                outputs: vec![],
                tie: v[1][0] as usize == self.tie_vertex,
                point_size: None,
            })
        }
    }

    struct White;

    impl PixelStage for White {
        fn run_quad(&self, _: &[PixelIn; 4]) -> Result<[PixelOut; 4], String> {
            Ok(std::array::from_fn(|_| PixelOut { color: [Some([1.0; 4]), None, None, None], ..PixelOut::default() }))
        }
    }

    #[test]
    fn a_vertex_tie_marks_the_pixels_of_its_triangles() {
        // Strip (-1,-1), (-1,1), (1,-1), (1,1) on a 4x4 target: triangle 0-1-2 holds the pixels
        // below the diagonal from v1 (window (0, 0)) to v2 (window (4, 4)), triangle 2-1-3 those
        // above it. Every pixel of a triangle with a flagged vertex is a tie.
        let corners = [[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]];
        let inputs: Vec<[[f32; 4]; 16]> = corners
            .iter()
            .enumerate()
            .map(|(i, [x, y])| {
                let mut v = [[0.0; 4]; 16];
                v[0] = [*x, *y, 0.5, 1.0];
                v[1] = [i as f32; 4];
                v
            })
            .collect();
        let state = MergeState {
            cull: CullMode::None,
            z_enable: false,
            z_func: CompareFunc::Always,
            z_write: false,
            fog: FogSource::Off,
            fog_color: [0.0; 3],
            flat: false,
            table_depth_from_fog: false,
            blend: None,
            alpha_test: None,
        };
        let targets = |tie_vertex| {
            let mut t = CpuTargets {
                colors: vec![Image::new(4, 4, crate::case::TargetFormat::A32B32G32R32F, 0)],
                depth: vec![1.0; 16],
                ties: vec![false; 16],
                perspective: false,
            };
            draw(&mut t, &inputs, true, 2, &Quad { tie_vertex }, &White, &state, &[1.0]).unwrap();
            t
        };
        // Vertex 1 (-1, 1) and 2 (1, -1) are in both triangles: every pixel is a tie.
        assert!(targets(1).ties.iter().all(|&t| t));
        // No vertex flagged: no pixel is (the quad's attributes are constant, no raster tie).
        assert!(targets(9).ties.iter().all(|&t| !t));
        // Vertex 0 (-1, -1) is in triangle 0-1-2 only: some pixels are ties, not all.
        let ties = targets(0).ties;
        assert!(ties.iter().any(|&t| t) && !ties.iter().all(|&t| t));
        // Pixel (0, 3) (bottom-left, next to vertex 0) is in triangle 0-1-2; pixel (3, 0) in 2-1-3.
        assert!(ties[3 * 4] && !ties[3]);
    }

    #[test]
    fn fog_factors_follow_the_formulas_and_clamp() {
        // Linear: (end - z) / (end - start) with start 0.1, end 0.9: z = 0.5 -> 0.5; z = 0.001 -> 1.
        assert!((fog_factor(FogMode::Linear, 0.5, 0.1, 0.9, 1.0) - 0.5).abs() < 1e-6);
        assert_eq!(fog_factor(FogMode::Linear, 0.001, 0.1, 0.9, 1.0), 1.0);
        assert_eq!(fog_factor(FogMode::Linear, 0.999, 0.1, 0.9, 1.0), 0.0);
        // EXP: e^(-d z); EXP2: e^(-(d z)^2).
        assert!((fog_factor(FogMode::Exp, 0.5, 0.0, 1.0, 2.0) - (-1.0f32).exp()).abs() < 1e-6);
        assert!((fog_factor(FogMode::Exp2, 0.5, 0.0, 1.0, 2.0) - (-1.0f32).exp()).abs() < 1e-6);
    }
}
