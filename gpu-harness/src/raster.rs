//! A CPU rasterizer with Direct3D 9's rules.
//!
//! - Window coordinates: `X = (x/w + 1) · W/2`, `Y = (1 − y/w) · H/2`, and pixel (X, Y) is sampled
//!   at exactly (X, Y): D3D9 pixel centres are integers (README "Pixel centres"). The GPU gets the
//!   same result from a viewport shifted by +0.5 px.
//! - Vertex positions snap to 1/256 pixel (8 sub-pixel bits, as GPUs do) and coverage is decided
//!   with exact integer edge functions, so a pixel centre on an edge is decided by the rule, not by
//!   rounding.
//! - Top-left fill rule: a centre exactly on an edge belongs to the triangle when the edge is a top
//!   edge (horizontal, interior below) or a left edge.
//! - Front faces are clockwise on screen (y down) whatever the cull mode.
//! - Attributes are interpolated perspective-correctly as `a0 + b1 (a1 − a0) + b2 (a2 − a0)`, so an
//!   attribute equal at the three vertices comes out exactly; depth (z/w) is interpolated linearly in
//!   screen space. The barycentrics come from the vertices' exact (unsnapped) window positions at
//!   the pixel centre: snapping is a coverage rule (Vulkan's subPixelPrecisionBits), and
//!   interpolating from snapped positions moved values by up to 2⁻⁹ px times the attribute's
//!   gradient (about 10⁻⁴ relative on the sweep's 16 × 16 draws), far from what the GPU computes.
//! - Pixels come in 2×2 quads aligned to even coordinates; lanes outside the triangle are helper
//!   lanes whose attributes extend the triangle's planes (derivatives stay defined).
//! - Clipping: a triangle reaching past the near plane (z < 0) or the far plane (z > w) is clipped
//!   against them in clip space (attributes interpolated linearly there, which is exact for
//!   perspective-correct attributes) and drawn as a fan; this also removes every point with
//!   w ≤ 0; and against a guard band at ±4 in x and y, which keeps coordinates small without
//!   changing any pixel inside the target. A pixel whose depth still rounds outside [0, 1] is dropped.
//!   Each new vertex carries a bound on its rounding error; at huge clip-space values that moves
//!   its edges by pixels (coverage within the bound is a tie, [`Lane::edge`]), and a new vertex
//!   whose w is within rounding of 0 has no defined projection ([`RasterError::IllConditioned`]).

use crate::case::CullMode;

/// A vertex after the vertex stage.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipVertex {
    /// Clip-space position.
    pub position: [f32; 4],
    /// The varyings, in the draw's varying order.
    pub varyings: Vec<[f32; 4]>,
}

/// One lane of a quad.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// Pixel coordinates (may lie outside the target for helper lanes).
    pub x: i32,
    /// Pixel row.
    pub y: i32,
    /// Whether the pixel is covered (inside the triangle, the target and the depth range).
    pub covered: bool,
    /// Window depth z/w, in [0, 1] for covered lanes.
    pub depth: f32,
    /// Interpolated varyings.
    pub varyings: Vec<[f32; 4]>,
    /// A varying that changes across the triangle lies at a decision point here, within 2⁻²⁰
    /// relative to its vertex values: zero (texkill, cmp and the comparisons decide there) or,
    /// scaled by a bound texture's size, a texel boundary (point sampling). Two rasterizers that
    /// round the barycentrics differently may land on either side. Also set where a varying is
    /// not finite at a vertex, or so large there that the weighted sum may overflow (its
    /// interpolation is then the implementation's).
    pub tie: bool,
    /// The pixel centre lies within [`SNAP_TIE`] of an edge whose vertices snapping moved:
    /// whether it is covered depends on how the rasterizer rounds positions to its sub-pixel grid
    /// (Vulkan leaves the rounding, and `subPixelPrecisionBits` ≥ 4, to the implementation), so
    /// its coverage is a tie, covered or not. Likewise within the bound of clipping's rounding of
    /// an edge whose end a clip plane made (huge clip-space values make it wide).
    pub edge: bool,
}

/// How far from an edge a pixel centre's coverage is a tie: 2⁻⁸ px, one step of the 8-bit
/// sub-pixel grid both rasterizers here snap to (lavapipe's `subPixelPrecisionBits`), which
/// covers either side rounding each vertex by up to half a step in its own way.
pub const SNAP_TIE: f64 = 1.0 / 256.0;

/// A 2×2 quad: lanes 0 = top-left, 1 = top-right, 2 = bottom-left, 3 = bottom-right.
#[derive(Clone, Debug, PartialEq)]
pub struct Quad {
    /// The four lanes.
    pub lanes: [Lane; 4],
    /// Whether the triangle is a front face (clockwise on screen).
    pub front: bool,
}

/// Why a triangle cannot be rasterized here.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RasterError {
    /// A vertex whose position is not finite (after clipping, every w is positive): neither
    /// D3D9 nor Vulkan defines the coverage of such a primitive.
    #[error("a vertex position is not finite (w = {0}): no defined coverage")]
    BehindEye(f32),
    /// A vertex at the clip-space origin (x = y = z = w = 0) lies on every clip plane and has no
    /// projection: its triangles are degenerate cones whose clipped coverage is whatever the
    /// clipper's rounding makes of zero area (lavapipe draws some pixels of it).
    #[error("a vertex position is the clip-space origin (0, 0, 0, 0): no defined coverage")]
    Origin,
    /// Clipping made a vertex whose w lies within twice its rounding error of 0 (a plane cut
    /// the triangle where w crosses 0 too): its projection, and the polygon's coverage, are
    /// decided by how each clipper rounds.
    #[error("a clipped vertex has w = {w}, within rounding ({err}) of 0: no defined coverage")]
    IllConditioned {
        /// The clipped vertex's w.
        w: f32,
        /// The bound on its rounding error.
        err: f32,
    },
}

const SUBPIXEL: f64 = 256.0;

/// Triangles reaching beyond ±4 in NDC x or y are clipped there (a guard band, as GPUs have), so
/// window coordinates stay small enough for exact integer edge functions. Clipping against planes
/// outside the target changes no pixel inside it.
const GUARD_BAND: f32 = 4.0;

fn snap(v: f64) -> i64 {
    (v * SUBPIXEL).round() as i64
}

/// A vertex of a clipped polygon, with a bound on each clip-space component's rounding error
/// (0 for the vertex stage's own vertices).
struct Clipped {
    vertex: ClipVertex,
    err: [f32; 4],
}

/// Clips a polygon against the plane `k · position >= 0` (Sutherland–Hodgman), interpolating in
/// clip space, and carries the rounding error of each new vertex: the plane distances, the
/// parameter t = da / (da − db) (da and db have opposite signs, so the subtraction does not
/// cancel), and the lerp a + t (b − a) each round at most once per operation.
fn clip_polygon(poly: Vec<Clipped>, k: [f32; 4]) -> Vec<Clipped> {
    let eps = f32::EPSILON;
    let distance = |v: &Clipped| {
        let d = (0..4).fold(0.0, |d, c| d + k[c] * v.vertex.position[c]);
        let err = (0..4).map(|c| k[c].abs() * (eps * v.vertex.position[c].abs() + v.err[c])).sum::<f32>();
        (d, err)
    };
    let mut out = Vec::with_capacity(poly.len() + 1);
    for i in 0..poly.len() {
        let (a, b) = (&poly[i], &poly[(i + 1) % poly.len()]);
        let ((da, ea), (db, eb)) = (distance(a), distance(b));
        if (da >= 0.0) != (db >= 0.0) {
            let t = da / (da - db);
            let et = (ea + eb) / (da - db).abs() + 2.0 * eps;
            let lerp4 = |p: &[f32; 4], q: &[f32; 4]| -> [f32; 4] { std::array::from_fn(|c| p[c] + t * (q[c] - p[c])) };
            let (pa, pb) = (&a.vertex.position, &b.vertex.position);
            let err = std::array::from_fn(|c| {
                a.err[c].max(b.err[c]) + (pb[c] - pa[c]).abs() * et + 2.0 * eps * (pa[c].abs() + pb[c].abs())
            });
            let vertex = ClipVertex {
                position: lerp4(pa, pb),
                varyings: a.vertex.varyings.iter().zip(&b.vertex.varyings).map(|(p, q)| lerp4(p, q)).collect(),
            };
            if da >= 0.0 {
                out.push(Clipped { vertex: a.vertex.clone(), err: a.err });
            }
            out.push(Clipped { vertex, err });
        } else if da >= 0.0 {
            out.push(Clipped { vertex: a.vertex.clone(), err: a.err });
        }
    }
    out
}

/// Rasterizes one triangle into quads for a `width` × `height` target, clipping it against the
/// near and far planes first when it crosses them.
pub fn rasterize(
    tri: [&ClipVertex; 3],
    width: u32,
    height: u32,
    cull: CullMode,
    emit: impl FnMut(Quad),
) -> Result<(), RasterError> {
    rasterize_with_ties(tri, width, height, cull, &[1.0], emit)
}

/// [`rasterize`], marking lanes where a varying times one of `tie_scales` (1 for zero crossings,
/// and the sizes of the bound textures) is within rounding of an integer.
pub fn rasterize_with_ties(
    tri: [&ClipVertex; 3],
    width: u32,
    height: u32,
    cull: CullMode,
    tie_scales: &[f32],
    mut emit: impl FnMut(Quad),
) -> Result<(), RasterError> {
    if tri.iter().any(|v| v.position.iter().any(|c| !c.is_finite())) {
        let w = tri.iter().map(|v| v.position[3]).find(|w| !w.is_finite()).unwrap_or(f32::NAN);
        return Err(RasterError::BehindEye(w));
    }
    if tri.iter().any(|v| v.position.iter().all(|&c| c == 0.0)) {
        return Err(RasterError::Origin);
    }
    let g = GUARD_BAND;
    let inside = |v: &ClipVertex| {
        let [x, y, z, w] = v.position;
        z >= 0.0 && z <= w && w > 0.0 && x.abs() <= g * w && y.abs() <= g * w
    };
    if tri.iter().all(|v| inside(v)) {
        return rasterize_clipped(tri, [[0.0; 4]; 3], width, height, cull, tie_scales, &mut emit);
    }
    let mut poly: Vec<Clipped> = tri.iter().map(|v| Clipped { vertex: (*v).clone(), err: [0.0; 4] }).collect();
    // z >= 0, w − z >= 0, then the guard band's four planes (k · (x, y, z, w) >= 0).
    let planes: [[f32; 4]; 6] = [
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, -1.0, 1.0],
        [-1.0, 0.0, 0.0, g],
        [1.0, 0.0, 0.0, g],
        [0.0, -1.0, 0.0, g],
        [0.0, 1.0, 0.0, g],
    ];
    for k in planes {
        poly = clip_polygon(poly, k);
    }
    // A new vertex whose w is within its rounding error of 0 projects anywhere: the polygon's
    // coverage is whatever each clipper's rounding makes of it.
    if let Some(v) = poly.iter().find(|v| v.err[3] > 0.0 && v.vertex.position[3].abs() <= 2.0 * v.err[3]) {
        return Err(RasterError::IllConditioned { w: v.vertex.position[3], err: v.err[3] });
    }
    if poly.len() < 3 || poly.iter().any(|v| v.vertex.position[3].is_nan() || v.vertex.position[3] <= 0.0) {
        return Ok(());
    }
    for i in 1..poly.len() - 1 {
        let fan = [&poly[0], &poly[i], &poly[i + 1]];
        let err = fan.map(|v| v.err);
        rasterize_clipped(fan.map(|v| &v.vertex), err, width, height, cull, tie_scales, &mut emit)?;
    }
    Ok(())
}

/// Rasterizes a triangle inside the clip volume; `err` bounds the rounding error of each vertex's
/// clip-space position (from clipping).
fn rasterize_clipped(
    tri: [&ClipVertex; 3],
    err: [[f32; 4]; 3],
    width: u32,
    height: u32,
    cull: CullMode,
    tie_scales: &[f32],
    emit: &mut impl FnMut(Quad),
) -> Result<(), RasterError> {
    for v in tri {
        let w = v.position[3];
        if w.is_nan() || w <= 0.0 || !w.is_finite() || v.position.iter().any(|c| !c.is_finite()) {
            return Err(RasterError::BehindEye(w));
        }
    }
    let (w2, h2) = (width as f64 / 2.0, height as f64 / 2.0);
    // Window position (snapped), 1/w and z/w of each vertex.
    let exact: Vec<(f64, f64)> = tri
        .iter()
        .map(|v| {
            let p = v.position.map(|c| c as f64);
            ((p[0] / p[3] + 1.0) * w2, (1.0 - p[1] / p[3]) * h2)
        })
        .collect();
    let win: Vec<(i64, i64)> = exact.iter().map(|&(x, y)| (snap(x), snap(y))).collect();
    let area = edge(win[0], win[1], win[2]);
    if area == 0 {
        return Ok(());
    }
    // Clockwise on screen with y down = positive area = front (D3D9).
    let front = area > 0;
    match cull {
        CullMode::Ccw if !front => return Ok(()),
        CullMode::Cw if front => return Ok(()),
        _ => {}
    }
    // Order the vertices so that the area is positive; keep the original indices for attributes.
    let order = if front { [0, 1, 2] } else { [0, 2, 1] };
    let p: [(i64, i64); 3] = order.map(|i| win[i]);
    let err_px: [f64; 3] = order.map(|i| window_error(tri[i], err[i], (w2, h2)));
    // The target region any of the moved positions could reach.
    let grow = err_px.iter().fold(0.0f64, |a, &b| a.max(b)).min((width + height) as f64).ceil() as i64;
    let sub = SUBPIXEL as i64;
    let min_x = (p.iter().map(|q| q.0).min().unwrap().div_euclid(sub) - grow).max(0);
    let max_x = (p.iter().map(|q| q.0).max().unwrap().div_euclid(sub) + grow).min(width as i64 - 1);
    let min_y = (p.iter().map(|q| q.1).min().unwrap().div_euclid(sub) - grow).max(0);
    let max_y = (p.iter().map(|q| q.1).max().unwrap().div_euclid(sub) + grow).min(height as i64 - 1);
    if min_x > max_x || min_y > max_y {
        return Ok(());
    }
    // Interpolation uses the vertices' exact window positions (coverage alone uses the snapped
    // ones), as the GPU's attribute planes do.
    let q: [(f64, f64); 3] = order.map(|i| exact[i]);
    let (lengths, tie_width) = edge_ties(p, q, err_px);
    let edges = [(p[1], p[2]), (p[2], p[0]), (p[0], p[1])];
    let setup = Setup {
        edges,
        bias: edges.map(|(a, b)| top_left_bias(a, b)),
        q,
        area_f: edge_f(q[0], q[1], q[2]),
        lengths,
        tie_width,
        inv_w: order.map(|i| 1.0 / tri[i].position[3] as f64),
        z: order.map(|i| tri[i].position[2] as f64 / tri[i].position[3] as f64),
        attrs: order.map(|i| &tri[i].varyings),
        size: (width, height),
        tie_scales,
    };
    setup.quads((min_x, max_x), (min_y, max_y), front, emit);
    Ok(())
}

/// Twice the signed area of (a, b, p) on the snapped grid.
fn edge(a: (i64, i64), b: (i64, i64), p: (i64, i64)) -> i64 {
    (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
}

/// Twice the signed area of (a, b, p) at exact positions.
fn edge_f(a: (f64, f64), b: (f64, f64), p: (f64, f64)) -> f64 {
    (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
}

/// What the edge a→b adds to its edge function before the `>= 0` coverage test: 0 for a top
/// or left edge, which owns the pixels on it, −1 for the others (the top-left rule).
fn top_left_bias(a: (i64, i64), b: (i64, i64)) -> i64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    if (dy == 0 && dx > 0) || dy < 0 {
        0
    } else {
        -1
    }
}

/// How far a vertex's window position may lie from the exact one, in pixels: clipping's
/// rounding (`err`) through the projection, doubled because the GPU's clipper rounds too.
fn window_error(v: &ClipVertex, err: [f32; 4], (w2, h2): (f64, f64)) -> f64 {
    let (e, [x, y, _, w]) = (err.map(|c| c as f64), v.position.map(|c| c as f64));
    if e == [0.0; 4] {
        return 0.0;
    }
    let projected = |c: f64, ec: f64| (ec + (c / w).abs() * e[3]) / (w.abs() - e[3]);
    2.0 * (projected(x, e[0]) * w2 + projected(y, e[1]) * h2)
}

/// Per edge (opposite vertex 0, 1, 2) of a triangle with snapped positions `p` and exact ones
/// `q`: its length, and how far from it coverage is a tie: a sub-pixel step where snapping
/// moved an end, and as far as clipping's rounding (`err_px`) may move either end.
fn edge_ties(p: [(i64, i64); 3], q: [(f64, f64); 3], err_px: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let snapped = |i: usize| p[i].0 as f64 == q[i].0 * SUBPIXEL && p[i].1 as f64 == q[i].1 * SUBPIXEL;
    let edge_ends = [(1, 2), (2, 0), (0, 1)];
    let lengths = edge_ends.map(|(a, b)| (q[b].0 - q[a].0).hypot(q[b].1 - q[a].1));
    let moved = edge_ends.map(|(a, b)| !(snapped(a) && snapped(b)));
    let tie_width = std::array::from_fn::<f64, 3, _>(|i| {
        let (a, b) = edge_ends[i];
        let snap = if moved[i] { SNAP_TIE } else { 0.0 };
        snap.max(err_px[a]).max(err_px[b])
    });
    (lengths, tie_width)
}

/// A triangle set up for its lanes, its vertices ordered for a positive area.
struct Setup<'a> {
    /// The edges opposite vertex 0, 1, 2 on the snapped grid.
    edges: [((i64, i64), (i64, i64)); 3],
    /// Each edge's [`top_left_bias`].
    bias: [i64; 3],
    /// Exact window positions.
    q: [(f64, f64); 3],
    /// Twice the signed area at the exact positions.
    area_f: f64,
    lengths: [f64; 3],
    tie_width: [f64; 3],
    inv_w: [f64; 3],
    /// Window depth z/w of each vertex.
    z: [f64; 3],
    attrs: [&'a Vec<[f32; 4]>; 3],
    size: (u32, u32),
    tie_scales: &'a [f32],
}

impl Setup<'_> {
    /// Emits the 2×2 quads over columns `min_x..=max_x` and rows `min_y..=max_y` that have a
    /// covered lane or a lane on an edge.
    fn quads(&self, (min_x, max_x): (i64, i64), (min_y, max_y): (i64, i64), front: bool, emit: &mut impl FnMut(Quad)) {
        let mut qy = min_y & !1;
        while qy <= max_y {
            let mut qx = min_x & !1;
            while qx <= max_x {
                let lanes =
                    [self.lane(qx, qy), self.lane(qx + 1, qy), self.lane(qx, qy + 1), self.lane(qx + 1, qy + 1)];
                if lanes.iter().any(|l| l.covered || l.edge) {
                    emit(Quad { lanes, front });
                }
                qx += 2;
            }
            qy += 2;
        }
    }

    /// Pixel (x, y): its coverage, depth and varyings.
    fn lane(&self, x: i64, y: i64) -> Lane {
        let (q, sub) = (self.q, SUBPIXEL as i64);
        let c = (x * sub, y * sub);
        let e = self.edges.map(|(a, b)| edge(a, b, c));
        let inside = (0..3).all(|i| e[i] + self.bias[i] >= 0);
        // Screen-space barycentrics (of the vertex opposite each edge).
        let pf = (x as f64, y as f64);
        let ef = [edge_f(q[1], q[2], pf), edge_f(q[2], q[0], pf), edge_f(q[0], q[1], pf)];
        let near_edge = (0..3).any(|i| {
            self.tie_width[i] > 0.0 && (ef[i] / self.area_f.signum()).abs() <= self.tie_width[i] * self.lengths[i]
        });
        let l = ef.map(|v| v / self.area_f);
        let (z, inv_w) = (self.z, self.inv_w);
        let depth = l[0] * z[0] + l[1] * z[1] + l[2] * z[2];
        let pw = [l[0] * inv_w[0], l[1] * inv_w[1], l[2] * inv_w[2]];
        let sum = pw[0] + pw[1] + pw[2];
        let (b1, b2) = ((pw[1] / sum) as f32, (pw[2] / sum) as f32);
        let (varyings, tie) = interpolate(self.attrs, (b1, b2), self.tie_scales);
        let on_target = (0..self.size.0 as i64).contains(&x) && (0..self.size.1 as i64).contains(&y);
        let depth = depth as f32;
        let covered = inside && on_target && (0.0..=1.0).contains(&depth);
        let edge = near_edge && on_target;
        Lane { x: x as i32, y: y as i32, covered, depth, varyings, tie, edge }
    }
}

/// The varyings at perspective-correct weights (b1, b2) of vertices 1 and 2, and whether one of
/// them is a tie ([`Lane::tie`]).
fn interpolate(attrs: [&Vec<[f32; 4]>; 3], (b1, b2): (f32, f32), tie_scales: &[f32]) -> (Vec<[f32; 4]>, bool) {
    let mut tie = false;
    let varyings = (0..attrs[0].len())
        .map(|k| {
            let (a0, a1, a2) = (attrs[0][k], attrs[1][k], attrs[2][k]);
            std::array::from_fn(|c| {
                let v = a0[c] + b1 * (a1[c] - a0[c]) + b2 * (a2[c] - a0[c]);
                // A vertex value that is not finite: the weighted sum Vulkan defines
                // interpolation as gives inf, −inf or NaN depending on how it is evaluated
                // (inf · 0, inf − inf), so the pixel's inputs are the implementation's.
                if !(a0[c].is_finite() && a1[c].is_finite() && a2[c].is_finite()) {
                    tie = true;
                } else if f64::from(a0[c].abs()) + f64::from(a1[c].abs()) + f64::from(a2[c].abs()) > f64::from(f32::MAX)
                {
                    // Finite vertex values whose weighted sum may overflow: whether it does
                    // (inf, or inf − inf = NaN) depends on the evaluation order too.
                    tie = true;
                } else if a0[c] != a1[c] || a0[c] != a2[c] {
                    let scale = a0[c].abs().max(a1[c].abs()).max(a2[c].abs());
                    tie |= tie_scales.iter().any(|&s| {
                        let x = v * s;
                        (x - x.round()).abs() <= s * scale / (1u32 << 20) as f32
                    });
                }
                v
            })
        })
        .collect();
    (varyings, tie)
}

/// The triangles of a primitive: vertex indices, with strips alternating their winding back so
/// that every triangle keeps the strip's orientation (D3D9 strip order 0-1-2, 1-3-2, 2-3-4, …).
pub fn triangles(strip: bool, count: u32) -> Vec<[usize; 3]> {
    (0..count as usize)
        .map(|i| {
            if !strip {
                [3 * i, 3 * i + 1, 3 * i + 2]
            } else if i % 2 == 0 {
                [i, i + 1, i + 2]
            } else {
                [i + 1, i, i + 2]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32, attr: f32) -> ClipVertex {
        ClipVertex { position: [x, y, 0.5, 1.0], varyings: vec![[attr; 4]] }
    }

    fn covered(tri: [&ClipVertex; 3], w: u32, h: u32, cull: CullMode) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        rasterize(tri, w, h, cull, |q| out.extend(q.lanes.iter().filter(|l| l.covered).map(|l| (l.x, l.y)))).unwrap();
        out.sort();
        out
    }

    #[test]
    fn full_screen_quad_covers_every_pixel_once() {
        // The cases' quad: strip (-1,-1), (-1,1), (1,-1), (1,1) on a 4x4 target.
        let vs = [v(-1.0, -1.0, 0.0), v(-1.0, 1.0, 0.0), v(1.0, -1.0, 0.0), v(1.0, 1.0, 0.0)];
        let mut all = Vec::new();
        for t in triangles(true, 2) {
            all.extend(covered([&vs[t[0]], &vs[t[1]], &vs[t[2]]], 4, 4, CullMode::None));
        }
        all.sort();
        let expect: Vec<(i32, i32)> = (0..4).flat_map(|x| (0..4).map(move |y| (x, y))).collect();
        assert_eq!(all, expect, "each pixel exactly once: the shared diagonal obeys the fill rule");
    }

    #[test]
    fn pixel_centres_are_integers_and_edges_follow_top_left() {
        // On an 8x8 target, NDC x = X/4 - 1. A rectangle from window x = 2 to 6, y = 2 to 6: the
        // centres on its left (x = 2) and top (y = 2) edges are in, those on the right (x = 6) and
        // bottom (y = 6) edges are out: pixels 2..=5 in each direction.
        let (l, r, t, b) = (2.0 / 4.0 - 1.0, 6.0 / 4.0 - 1.0, 1.0 - 2.0 / 4.0, 1.0 - 6.0 / 4.0);
        let vs = [v(l, b, 0.0), v(l, t, 0.0), v(r, b, 0.0), v(r, t, 0.0)];
        let mut all = Vec::new();
        for tri in triangles(true, 2) {
            all.extend(covered([&vs[tri[0]], &vs[tri[1]], &vs[tri[2]]], 8, 8, CullMode::None));
        }
        all.sort();
        let expect: Vec<(i32, i32)> = (2..6).flat_map(|x| (2..6).map(move |y| (x, y))).collect();
        assert_eq!(all, expect);
    }

    #[test]
    fn strip_winding_and_cull_modes() {
        // (-1,-1), (-1,1), (1,-1): bottom-left, top-left, bottom-right on screen: clockwise = front.
        let vs = [v(-1.0, -1.0, 0.0), v(-1.0, 1.0, 0.0), v(1.0, -1.0, 0.0)];
        let tri = [&vs[0], &vs[1], &vs[2]];
        let mut front = None;
        rasterize(tri, 4, 4, CullMode::None, |q| front = Some(q.front)).unwrap();
        assert_eq!(front, Some(true));
        assert!(covered(tri, 4, 4, CullMode::Cw).is_empty(), "CW culls front faces");
        assert!(!covered(tri, 4, 4, CullMode::Ccw).is_empty(), "CCW keeps them");
        let back = [&vs[0], &vs[2], &vs[1]];
        assert!(covered(back, 4, 4, CullMode::Ccw).is_empty(), "the default CCW culls back faces");
        assert_eq!(triangles(true, 3), vec![[0, 1, 2], [2, 1, 3], [2, 3, 4]]);
    }

    #[test]
    fn interpolation_is_perspective_correct_and_exact_for_constants() {
        // A triangle whose right vertex has w = 3 (its clip x, y scaled so it lands at the same
        // screen spot as with w = 1); attribute 0 at the left vertices and 1 at the right one.
        let a = ClipVertex { position: [-1.0, -1.0, 0.0, 1.0], varyings: vec![[0.0; 4], [0.25; 4]] };
        let b = ClipVertex { position: [-1.0, 1.0, 0.0, 1.0], varyings: vec![[0.0; 4], [0.25; 4]] };
        let c = ClipVertex { position: [3.0, -3.0, 0.0, 3.0], varyings: vec![[1.0; 4], [0.25; 4]] };
        let mut seen = Vec::new();
        rasterize([&a, &b, &c], 8, 8, CullMode::None, |q| seen.extend(q.lanes.into_iter().filter(|l| l.covered)))
            .unwrap();
        let p = seen.iter().find(|l| (l.x, l.y) == (4, 7)).expect("pixel (4, 7) covered");
        // Screen barycentric of c at X = 4 on the bottom edge (y = 8 is the edge; row 7 is one
        // pixel above): solve directly: screen weights (l_a, l_b, l_c) with l_c = X / 8 = 0.5 and
        // l_b = 1/8 (one row up of 8), l_a = 3/8. Perspective: b_c = (0.5/3) / (3/8 + 1/8 + 0.5/3).
        let want = (0.5f64 / 3.0) / (3.0 / 8.0 + 1.0 / 8.0 + 0.5 / 3.0);
        assert!((p.varyings[0][0] as f64 - want).abs() < 1e-6, "{} vs {want}", p.varyings[0][0]);
        assert!(seen.iter().all(|l| l.varyings[1] == [0.25; 4]), "constant attribute is exact");
    }

    /// The triangle a = window (0, 8), b = (0, 0), c = (8 + 1/1024, 8) on an 8 × 8 target, with an
    /// attribute 0 at a and b and 1 at c. c is off the 1/256 sub-pixel grid (1/1024 · 256 = 0.25
    /// rounds to 0): snapped, it lies at (8, 8).
    fn off_grid_triangle() -> [ClipVertex; 3] {
        // NDC x = 2X/8 − 1 = X/4 − 1; y = 1 − 2Y/8.
        let c_x = (8.0f64 + 1.0 / 1024.0) / 4.0 - 1.0;
        [
            ClipVertex { position: [-1.0, -1.0, 0.5, 1.0], varyings: vec![[0.0; 4]] },
            ClipVertex { position: [-1.0, 1.0, 0.5, 1.0], varyings: vec![[0.0; 4]] },
            ClipVertex { position: [c_x as f32, -1.0, 0.5, 1.0], varyings: vec![[1.0; 4]] },
        ]
    }

    fn lanes_of(tri: &[ClipVertex; 3]) -> Vec<Lane> {
        let mut seen = Vec::new();
        rasterize([&tri[0], &tri[1], &tri[2]], 8, 8, CullMode::None, |q| seen.extend(q.lanes)).unwrap();
        seen
    }

    #[test]
    fn interpolation_uses_exact_positions_not_snapped_ones() {
        // At pixel (4, 7) the weight of c is the ratio of the distances to the line ab (x = 0):
        // 4 / (8 + 1/1024) = 0.4999389… exactly; the snapped c would give 4 / 8 = 0.5, which is
        // 1.2e-4 relative away (what the GPU does not compute).
        let lanes = lanes_of(&off_grid_triangle());
        let p = lanes.iter().find(|l| (l.x, l.y) == (4, 7) && l.covered).expect("pixel (4, 7) covered");
        let want = 4.0 / (8.0 + 1.0 / 1024.0);
        assert!((p.varyings[0][0] as f64 - want).abs() < 1e-7, "{} vs {want}", p.varyings[0][0]);
    }

    #[test]
    fn coverage_near_a_moved_edge_is_a_tie() {
        // The edge bc runs from (0, 0) to (8 + 1/1024, 8): the centre (4, 4) lies
        // 4 · (1/1024) / (8 · √2) ≈ 3.5e-4 px from it, within the 2^-8 px a sub-pixel step
        // can move it; (4, 5) lies 0.7 px away and (2, 6) 2.8 px.
        let lanes = lanes_of(&off_grid_triangle());
        let edge = |x: i32, y: i32| lanes.iter().any(|l| (l.x, l.y) == (x, y) && l.edge);
        assert!(edge(4, 4) && edge(1, 1) && edge(7, 7));
        assert!(!edge(4, 5) && !edge(2, 6));
        // Vertices on the grid do not move: the full-target quad's shared diagonal, through pixel
        // centres, is decided by the fill rule alone, not a tie.
        let vs = [v(-1.0, -1.0, 0.0), v(-1.0, 1.0, 0.0), v(1.0, -1.0, 0.0), v(1.0, 1.0, 0.0)];
        for t in triangles(true, 2) {
            rasterize([&vs[t[0]], &vs[t[1]], &vs[t[2]]], 8, 8, CullMode::None, |q| {
                assert!(q.lanes.iter().all(|l| !l.edge))
            })
            .unwrap();
        }
    }

    #[test]
    fn triangles_crossing_the_near_plane_are_clipped() {
        // A triangle from z = -1 (w = 1) to z = 1: the part with z >= 0 remains; a vertex behind
        // the eye (w = -1) no longer stops the draw.
        let a = ClipVertex { position: [-1.0, -1.0, -1.0, 1.0], varyings: vec![] };
        let b = ClipVertex { position: [-1.0, 1.0, 1.0, 1.0], varyings: vec![] };
        let c = ClipVertex { position: [1.0, -1.0, 1.0, 1.0], varyings: vec![] };
        let px = covered([&a, &b, &c], 8, 8, CullMode::None);
        assert!(!px.is_empty() && px.len() < 28, "part of the 28-pixel triangle remains: {}", px.len());
        let d = ClipVertex { position: [0.0, 0.0, 0.5, -1.0], varyings: vec![] };
        assert!(rasterize([&b, &c, &d], 8, 8, CullMode::None, |_| {}).is_ok());
        let all_behind = [d.clone(), d.clone(), d];
        assert!(covered([&all_behind[0], &all_behind[1], &all_behind[2]], 8, 8, CullMode::None).is_empty());
    }

    #[test]
    fn ties_mark_zero_crossings_and_texel_boundaries() {
        // Attribute u = X / 8 across an 8-wide target (0 at the left edge, 1 at the right).
        let a = ClipVertex { position: [-1.0, -1.0, 0.5, 1.0], varyings: vec![[0.0; 4]] };
        let b = ClipVertex { position: [-1.0, 3.0, 0.5, 1.0], varyings: vec![[0.0; 4]] };
        let c = ClipVertex { position: [3.0, -1.0, 0.5, 1.0], varyings: vec![[2.0; 4]] };
        let mut ties = Vec::new();
        rasterize_with_ties([&a, &b, &c], 8, 8, CullMode::None, &[1.0, 4.0], |q| {
            ties.extend(q.lanes.iter().filter(|l| l.covered && l.y == 7).map(|l| (l.x, l.tie)))
        })
        .unwrap();
        ties.sort();
        // u = X / 8: a tie where u * 4 is an integer (X even) or u is 0.
        let want: Vec<(i32, bool)> = (0..8).map(|x| (x, x % 2 == 0)).collect();
        assert_eq!(ties, want);
    }

    #[test]
    fn depth_outside_0_1_is_clipped() {
        let mut a = v(-1.0, -1.0, 0.0);
        let mut b = v(-1.0, 1.0, 0.0);
        let mut c = v(1.0, -1.0, 0.0);
        for x in [&mut a, &mut b, &mut c] {
            x.position[2] = -0.25;
        }
        assert!(covered([&a, &b, &c], 4, 4, CullMode::None).is_empty());
    }

    #[test]
    fn clipping_huge_positions_widens_the_edge_ties_and_a_w_lost_in_rounding_has_no_coverage() {
        // c lies at x = 1e9 · w: the guard band (x = 4w) cuts a–c and b–c, and each new vertex's
        // x is rounded by about 2^-23 · 1e9 ≈ 120 clip units, hundreds of pixels: every lane
        // the triangle touches is then a coverage tie. The same triangle with c at x = 3 (inside
        // the guard band, nothing clipped) has no tie at all (all its vertices are on the grid).
        let a = ClipVertex { position: [-0.5, -0.5, 0.5, 1.0], varyings: vec![] };
        let b = ClipVertex { position: [-0.5, 0.5, 0.5, 1.0], varyings: vec![] };
        let lanes = |c: [f32; 4]| {
            let c = ClipVertex { position: c, varyings: vec![] };
            let mut lanes = Vec::new();
            rasterize([&a, &b, &c], 8, 8, CullMode::None, |q| lanes.extend(q.lanes)).unwrap();
            lanes
        };
        let far = lanes([1e9, 0.0, 0.5, 1.0]);
        assert!(far.iter().any(|l| l.covered) && far.iter().filter(|l| l.covered).all(|l| l.edge));
        let near = lanes([3.0, 0.0, 0.5, 1.0]);
        assert!(near.iter().any(|l| l.covered) && near.iter().all(|l| !l.edge));
        // z = 1e-6 · w at every vertex, and w runs from +1e12 to −1e12: the near plane z = 0 cuts
        // where w is 0 too, and the new vertices' w is rounding noise (about ±1e6 around 0).
        let v = |x: f32, w: f32| ClipVertex { position: [x, x, 1e-6 * w, w], varyings: vec![] };
        let (p, q, r) = (v(0.0, 1e12), v(0.0, -1e12), v(1e12, 2e12));
        let result = rasterize([&p, &q, &r], 8, 8, CullMode::None, |_| {});
        assert!(matches!(result, Err(RasterError::IllConditioned { .. })), "{result:?}");
    }
}
