//! Points on the CPU, with Direct3D 9's rules (docs/d3d9-rules.md#point-sprites).
//!
//! A point of size S is the square (X ± S/2, Y ± S/2) around its window position, with the
//! window mapping and integer pixel centres of [`crate::raster`]. A pixel is covered when its
//! centre lies inside the square, the left and top edges included and the right and bottom ones
//! excluded (the top-left rule of the two triangles D3D9 draws). Every varying keeps the vertex's
//! value, except the sprite coordinates, which run from (0, 0) at the top-left corner to (1, 1) at
//! the bottom-right (u = (x − left) / S, v = (y − top) / S). A point whose depth z/w lies outside
//! [0, 1] or whose w ≤ 0 is not drawn; a point partly off the target is drawn where it covers it.
//!
//! This file shares nothing with the translator's point expansion: it is the independent side.

use crate::raster::{ClipVertex, Lane, Quad, RasterError, SNAP_TIE};

/// How a point is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct PointRaster<'a> {
    /// The clamped screen size S in pixels.
    pub size: f32,
    /// Indices of the varyings replaced by the sprite coordinates (u, v, 0, 1): every TEXCOORD
    /// when POINTSPRITEENABLE is TRUE, none otherwise.
    pub sprite: &'a [usize],
    /// Scales at which a sprite coordinate marks a tie, as [`crate::raster::rasterize_with_ties`]
    /// takes them (1 for zero crossings, the sizes of the bound textures).
    pub tie_scales: &'a [f32],
}

/// The covered pixel range along one axis: centres c with `lo <= c < hi`, clipped to `[0, n)`.
fn span(lo: f64, hi: f64, n: u32) -> (i64, i64) {
    let first = lo.ceil().max(0.0) as i64;
    let end = (hi.ceil() as i64).min(n as i64);
    (first, end)
}

/// Whether a sprite coordinate times a tie scale lies within rounding of an integer.
fn at_decision(c: f64, scales: &[f32]) -> bool {
    scales.iter().any(|&s| {
        let t = c * s as f64;
        (t - t.round()).abs() <= 2f64.powi(-20) * t.abs().max(1.0)
    })
}

/// Rasterizes one point for a `width` × `height` target into 2×2 quads aligned to even
/// coordinates (lanes outside the square are helper lanes whose sprite coordinates extend the
/// square's, so derivatives stay defined). Points are front-facing.
pub fn rasterize_point(
    v: &ClipVertex,
    p: &PointRaster,
    width: u32,
    height: u32,
    mut emit: impl FnMut(Quad),
) -> Result<(), RasterError> {
    let [x, y, z, w] = v.position;
    if v.position.iter().any(|c| !c.is_finite()) {
        return Err(RasterError::BehindEye(w));
    }
    if w <= 0.0 || z < 0.0 || z > w || p.size.is_nan() || p.size <= 0.0 {
        return Ok(());
    }
    let (sx, sy) = (x as f64 / w as f64, y as f64 / w as f64);
    let cx = (sx + 1.0) * width as f64 / 2.0;
    let cy = (1.0 - sy) * height as f64 / 2.0;
    let half = p.size as f64 / 2.0;
    let (left, right, top, bottom) = (cx - half, cx + half, cy - half, cy + half);
    let (x0, x1) = span(left, right, width);
    let (y0, y1) = span(top, bottom, height);
    if x0 >= x1 || y0 >= y1 {
        return Ok(());
    }
    let depth = z / w;
    let near_edge = |c: f64, a: f64, b: f64| (c - a).abs() < SNAP_TIE || (c - b).abs() < SNAP_TIE;
    let mut qy = y0 & !1;
    while qy < y1 {
        let mut qx = x0 & !1;
        while qx < x1 {
            let lanes: [Lane; 4] = std::array::from_fn(|i| {
                let (px, py) = (qx + (i as i64 & 1), qy + (i as i64 >> 1));
                let covered = (x0..x1).contains(&px) && (y0..y1).contains(&py);
                let (u, t) = ((px as f64 - left) / p.size as f64, (py as f64 - top) / p.size as f64);
                let mut varyings = v.varyings.clone();
                for &k in p.sprite {
                    varyings[k] = [u as f32, t as f32, 0.0, 1.0];
                }
                let tie = !p.sprite.is_empty() && (at_decision(u, p.tie_scales) || at_decision(t, p.tie_scales));
                let edge = near_edge(px as f64, left, right) || near_edge(py as f64, top, bottom);
                // A centre within a sub-pixel step of an edge is a tie, covered or not (inside the
                // target).
                let inside = (0..width as i64).contains(&px) && (0..height as i64).contains(&py);
                Lane { x: px as i32, y: py as i32, covered, depth, varyings, tie, edge: edge && inside }
            });
            emit(Quad { lanes, front: true });
            qx += 2;
        }
        qy += 2;
    }
    Ok(())
}

/// D3D9's point size for a programmable vertex stage: the vertex's oPts when it writes one, else
/// POINTSIZE, clamped to [POINTSIZE_MIN, POINTSIZE_MAX] (MaxPointSize is above every case's
/// maximum). POINTSCALEENABLE does not apply to vertex shaders (docs/d3d9-rules.md#point-sprites).
pub fn shader_point_size(opts: Option<f32>, pointsize: f32, min: f32, max: f32) -> f32 {
    opts.unwrap_or(pointsize).max(min).min(max)
}

/// D3D9's point size for fixed-function vertex processing: `size` (the vertex's PSIZE or
/// POINTSIZE), scaled by `viewport_height · sqrt(1 / (A + B·d + C·d²))` at eye-space distance `d`
/// when `scale` is `Some((A, B, C, d))`, then clamped to [min, max].
pub fn fixed_point_size(size: f32, scale: Option<([f32; 3], f32, f32)>, min: f32, max: f32) -> f32 {
    let scaled = match scale {
        Some(([a, b, c], d, viewport_height)) => viewport_height * size * (1.0 / (a + b * d + c * d * d)).sqrt(),
        None => size,
    };
    scaled.max(min).min(max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(x: f32, y: f32) -> ClipVertex {
        ClipVertex { position: [x, y, 0.5, 1.0], varyings: vec![[0.25, 0.5, 0.75, 1.0], [9.0; 4]] }
    }

    fn covered(v: &ClipVertex, size: f32, w: u32, h: u32) -> Vec<Lane> {
        let p = PointRaster { size, sprite: &[1], tie_scales: &[1.0] };
        let mut out = Vec::new();
        rasterize_point(v, &p, w, h, |q| out.extend(q.lanes.into_iter().filter(|l| l.covered))).unwrap();
        out.sort_by_key(|l| (l.y, l.x));
        out
    }

    #[test]
    fn a_square_between_pixel_centres_covers_its_pixels() {
        // 16 × 16 target, NDC (0.0625, -0.0625) → window (8.5, 8.5); size 4 → [6.5, 10.5):
        // columns and rows 7..=10, 16 pixels.
        let lanes = covered(&vertex(0.0625, -0.0625), 4.0, 16, 16);
        let xy: Vec<(i32, i32)> = lanes.iter().map(|l| (l.x, l.y)).collect();
        let want: Vec<(i32, i32)> = (7..=10).flat_map(|y| (7..=10).map(move |x| (x, y))).collect();
        assert_eq!(xy, want);
        // Sprite coordinates: pixel (7, 7) is 0.5 px right of and below the corner: (0.125, 0.125);
        // (10, 10): (0.875, 0.875). The other varying keeps the vertex's value.
        assert_eq!(lanes[0].varyings[1], [0.125, 0.125, 0.0, 1.0]);
        assert_eq!(lanes[15].varyings[1], [0.875, 0.875, 0.0, 1.0]);
        assert_eq!(lanes[5].varyings[0], [0.25, 0.5, 0.75, 1.0]);
        assert!(lanes.iter().all(|l| !l.edge && l.depth == 0.5));
    }

    #[test]
    fn edges_on_pixel_centres_follow_the_top_left_rule() {
        // Window (8, 8), size 4 → [6, 10): the left and top edges (6) are in, the right and bottom
        // ones (10) out; each edge pixel is marked as a sub-pixel tie.
        let lanes = covered(&vertex(0.0, 0.0), 4.0, 16, 16);
        assert_eq!(lanes.len(), 16);
        assert_eq!((lanes[0].x, lanes[0].y, lanes[15].x, lanes[15].y), (6, 6, 9, 9));
        assert_eq!(lanes[0].varyings[1], [0.0, 0.0, 0.0, 1.0]);
        assert!(lanes[0].edge && lanes[0].tie && !lanes[5].edge);
    }

    #[test]
    fn points_are_clipped_by_depth_and_cut_by_the_target() {
        // z > w: not drawn; w < 0: not drawn.
        let mut far = vertex(0.0, 0.0);
        far.position[2] = 1.5;
        assert!(covered(&far, 4.0, 16, 16).is_empty());
        let mut behind = vertex(0.0, 0.0);
        behind.position[3] = -1.0;
        assert!(covered(&behind, 4.0, 16, 16).is_empty());
        // Window (0.5, 0.5), size 4 → [-1.5, 2.5): only columns and rows 0..=2 inside the target.
        let lanes = covered(&vertex(-0.9375, 0.9375), 4.0, 16, 16);
        assert_eq!(lanes.len(), 9);
        // Pixel (0, 0) is 1.5 px from the corner: (0.375, 0.375).
        assert_eq!(lanes[0].varyings[1], [0.375, 0.375, 0.0, 1.0]);
    }

    #[test]
    fn quads_are_aligned_and_helpers_extend_the_sprite_coordinates() {
        let p = PointRaster { size: 1.0, sprite: &[1], tie_scales: &[] };
        let mut quads = Vec::new();
        // NDC (−0.03125, 0.03125) → window (7.75, 7.75); size 1 → [7.25, 8.25): pixel (8, 8) only.
        rasterize_point(&vertex(-0.03125, 0.03125), &p, 16, 16, |q| quads.push(q)).unwrap();
        assert_eq!(quads.len(), 1);
        let q = &quads[0];
        assert_eq!((q.lanes[0].x, q.lanes[0].y), (8, 8));
        assert!(q.lanes[0].covered && !q.lanes[1].covered && !q.lanes[3].covered);
        // Lane 1 (9, 8): u = (9 − 7.25) / 1 = 1.75.
        assert_eq!(q.lanes[1].varyings[1][0], 1.75);
        assert!(q.front);
    }

    #[test]
    fn sizes_follow_d3d9s_formula_and_clamp_after_scaling() {
        assert_eq!(shader_point_size(Some(40.0), 2.0, 1.0, 32.0), 32.0);
        assert_eq!(shader_point_size(None, 0.5, 1.0, 32.0), 1.0);
        assert_eq!(shader_point_size(None, 6.0, 1.0, 32.0), 6.0);
        // H = 16, Si = 2, A = 0, B = 0, C = 1, d = 4: 16 · 2 · sqrt(1/16) = 8.
        assert_eq!(fixed_point_size(2.0, Some(([0.0, 0.0, 1.0], 4.0, 16.0)), 1.0, 64.0), 8.0);
        // Clamped after scaling: 8 → 6.
        assert_eq!(fixed_point_size(2.0, Some(([0.0, 0.0, 1.0], 4.0, 16.0)), 1.0, 6.0), 6.0);
        assert_eq!(fixed_point_size(2.0, None, 3.0, 64.0), 3.0);
    }
}
