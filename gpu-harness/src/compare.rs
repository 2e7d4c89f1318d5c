//! Judging results: probes against the case's expectations, and the GPU image against the CPU
//! image.
//!
//! # Tolerance policy (GPU image against CPU image)
//!
//! Both images come from the same inputs, the same decoded textures and the same D3D9 raster rules,
//! so they differ only where the two sides may round differently:
//!
//! - **8-bit targets**: ±1 per channel (a value at an exact half of a step, e.g. 0.5 → 0x7f or 0x80,
//!   docs/d3d9-rules.md#quantisation, may land on either side).
//! - **Float targets**: `|gpu − cpu| ≤ 4 ulp(max(|gpu|, |cpu|))` or `≤ 2⁻²⁰ · (1 + |cpu|)`: interpolated
//!   inputs are computed with different operation orders on the two sides (a few ulps of the
//!   barycentrics), and the relative floor absorbs that for values near zero. Both NaN, or equal
//!   infinities, are equal.
//! - **Wider where a rule says so**: a draw that filters linearly (D3DTEXF_LINEAR, mip LINEAR) is
//!   compared with ±4 steps on 8-bit targets and 2⁻¹⁰ on float targets, because GPUs compute filter
//!   weights at reduced precision (8 fractional bits is the Vulkan minimum); a shader that takes
//!   derivatives (dsx/dsy, texldd, implicit-LOD sampling of a mipmapped texture) gets the same
//!   width, because GPUs may compute them per quad row or per pixel; and so does a shader using
//!   the instructions D3D9 itself defines as approximations (exp, log, expp, logp, rcp, rsq, pow,
//!   nrm, sincos, lit: about 21–22 bits, not correctly rounded), which GPUs evaluate with their
//!   own approximations; and so does a draw with perspective (w differing between a triangle's
//!   vertices): perspective-correct interpolation divides by w, and the two sides' different
//!   operation orders then differ by more than a few ulps where the attributes are steep.
//! - **Measured where the computation amplifies rounding** (float targets): when a pixel of a
//!   draw that runs shaders disagrees under the rules above, the runner draws the CPU side twice
//!   more with every approximate instruction's result
//!   (`exp`, `log`, `rcp`, `rsq`, `pow`, `sincos`, and `nrm`, `lit`, `expp`, `logp` through them)
//!   and every product moved to one end of the error the Vulkan specification allows a GPU
//!   ("Precision and Operation of SPIR-V Instructions": exp2 3 + 2|x| ulp, log2 3 ulp or 2⁻²¹
//!   absolute, 1/x 2.5 ulp, inversesqrt 2 ulp, sin/cos 2⁻¹¹ absolute; a product may be fused
//!   into the next add, skipping its rounding), once up and once down
//!   (`d3d9_shader::interp::Skew`, whose module lists the bounds). A value within the interval
//!   those runs span, widened by their spread ([`within_skew`]), agrees; where the CPU value or a
//!   skewed run is NaN, any value agrees (Vulkan does not require NaNs to be generated, and an
//!   `exp2` of an infinity has no bound). A strict product with a zero factor is a zero of
//!   either sign (docs/d3d9-rules.md#zero-product): the plain run gives +0, the run skewed down
//!   −0, so where the sign decides the result (the sign of `rcp(±0)`'s infinity, which the
//!   skewed runs make NaN) the GPU's choice agrees. The skewed runs therefore keep a NaN where D3D9 would
//!   decide on it (saturation, min, max, cmp, slt, sge): what D3D9 makes of a NaN the GPU need
//!   not have produced is not held against it. Their adds move by an ulp where inexact, as a
//!   driver may reassociate a sum or fuse a product into it, and a sum that continues one from
//!   an earlier instruction by an ulp of that chain's largest term, however small the result
//!   (a reassociated `c + (w − z)` with z = w = 10³⁰ is 0, not c: `interp`'s reassociation
//!   module). They flush subnormal sums, products and `rcp`/`rsq`/`log` operands to zero, as a
//!   driver may (docs/d3d9-rules.md#float-rules). This is the error bound
//!   carried through the computation: a shader that cancels after an `exp`, or takes `frc` of a
//!   scaled sum, gets the width its own arithmetic implies, and no per-shader list is kept.
//!
//! - **Level of detail** (docs/d3d9-rules.md#mip-selection): the CPU computes λ = log2(max(ρx, ρy)) + bias
//!   with ρ the exact length of the scaled derivatives, clamps it to the levels, rounds it (POINT)
//!   or blends ⌊λ⌋ and ⌊λ⌋ + 1 (LINEAR), as Vulkan defines it. Vulkan lets a GPU take ρ anywhere
//!   between the largest derivative component and their sum (λ within ±log2 √2 where a derivative
//!   has two non-zero components), and quantise the blend to `mipLodPrecisionBits`; implicit-LOD
//!   sampling of a mipmapped texture is therefore compared with the wide tolerance, as a derivative.
//!   Filters are nested lerps on both sides, so equal texels filter to themselves exactly (no
//!   tolerance is needed there: a shader's `frc` would turn an ulp into a whole step).
//!
//! Coverage must match exactly, except at a pixel centre within 2⁻⁸ px (one step of the 8-bit
//! sub-pixel grid) of a triangle edge whose vertices snapping moved: Vulkan leaves the snapping
//! to the implementation (`subPixelPrecisionBits` ≥ 4), so such a pixel is a tie
//! ([`crate::raster::Lane::edge`]); likewise within the rounding bound a clip plane's new vertex
//! carries (the intersection of a plane with an edge between clip-space values of 10¹² is exact
//! to no better than 10⁵ units, and each clipper rounds it its own way), and a draw where
//! clipping leaves a vertex's w within rounding of 0 has no defined coverage at all, like a
//! vertex at the clip-space origin. The CPU rasterizer otherwise follows Vulkan's rules: samples at
//! pixel centres (the D3D9 half-pixel offset is in the viewport), the top-left fill rule on the
//! snapped positions, and perspective-correct barycentrics from the exact (unsnapped) positions,
//! so plain `add`/`mad` vertex shaders agree within the Exact bound above.
//!
//! Pixels drawn from a tie are left out of the comparison (the runner reports how many differ):
//! coverage at a moved edge (above), an interpolated input at a decision point (zero, or a texel
//! boundary of a point-sampled texture), which two rasterizers may break either way, an
//! interpolated input that is infinite or NaN at a vertex, or whose vertex values' magnitudes sum
//! past FLT_MAX (Vulkan defines interpolation as a weighted sum, and inf · 0, inf − inf or an
//! overflow make its value depend on the evaluation order), every
//! pixel of a triangle one of whose vertices fetched a vertex texture at a NaN or infinite
//! coordinate, where D3D9 defines no texel, and every pixel that itself sampled a texture there
//! (or a cube map in the zero direction, docs/d3d9-rules.md#float-rules).

use crate::case::{Compare, Probe, TargetFormat};
use crate::targets::{to_byte, Image};

/// How closely two images must agree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tolerance {
    /// The default rules above.
    Exact,
    /// Linear filtering or derivatives involved.
    Wide,
}

fn ulp(x: f32) -> f32 {
    let x = x.abs();
    if !x.is_finite() {
        return 0.0;
    }
    f32::from_bits(x.to_bits() + 1) - x
}

/// Whether two float channel values agree under `tol`.
pub fn floats_agree(a: f32, b: f32, tol: Tolerance) -> bool {
    if a == b || (a.is_nan() && b.is_nan()) {
        return true;
    }
    if !a.is_finite() || !b.is_finite() {
        return false;
    }
    let d = (a - b).abs();
    match tol {
        Tolerance::Exact => d <= 4.0 * ulp(a.abs().max(b.abs())) || d <= (1.0 + b.abs()) / (1u32 << 20) as f32,
        Tolerance::Wide => d <= (1.0 + b.abs()) / 1024.0,
    }
}

/// Whether the GPU's value lies within what the skewed CPU runs allow around the CPU's: equal
/// (under `tol`) to one of them, or inside the interval they span with `cpu`, widened on each side
/// by their largest distance from `cpu`. The widening doubles the measured spread because the
/// two runs move every approximate result the same way, while a GPU's errors may have either sign
/// at each instruction and so add where the runs' partly cancel.
///
/// A NaN on the CPU side, or in a skewed run, leaves the value unconstrained: Vulkan does not
/// require NaNs to be generated ("Precision and Operation of SPIR-V Instructions"), so where IEEE
/// arithmetic gives NaN a GPU may give any value, and the skewed runs give NaN where an
/// approximate instruction's allowed error is unbounded (an `exp2` of an infinity).
pub fn within_skew(gpu: f32, cpu: f32, skewed: &[f32], tol: Tolerance) -> bool {
    if cpu.is_nan() || skewed.iter().any(|s| s.is_nan()) {
        return true;
    }
    if skewed.iter().any(|&s| floats_agree(gpu, s, tol)) {
        return true;
    }
    if !gpu.is_finite() || !cpu.is_finite() || skewed.iter().any(|s| !s.is_finite()) {
        return false;
    }
    let spread = skewed.iter().map(|s| (s - cpu).abs()).fold(0.0f32, f32::max);
    let lo = skewed.iter().fold(cpu, |m, &s| m.min(s)) - spread;
    let hi = skewed.iter().fold(cpu, |m, &s| m.max(s)) + spread;
    (lo..=hi).contains(&gpu)
}

/// The images of one side: every target's, after each draw a probe reads and after the last.
pub(crate) type Snapshots = std::collections::BTreeMap<usize, Vec<Image>>;

/// What comparing one case's GPU images with its CPU images found.
pub(crate) struct Judgement {
    /// One message per target that disagrees beyond the rules above.
    pub failures: Vec<String>,
    /// Disagreements the rules leave out (ties).
    pub notes: Vec<String>,
}

/// Compares every target after every draw, GPU against CPU, under `tol`; `masks` are the
/// channels compared per target (all when absent), `ties` the CPU's tied pixels. `skewed` makes
/// the skewed runs' images: called once, only when some pixel disagrees, since it costs two more
/// CPU draws.
pub(crate) fn judge_images(
    gpu: &Snapshots,
    cpu: &Snapshots,
    ties: &[bool],
    tol: Tolerance,
    masks: &[u8],
    skewed: impl FnOnce() -> Vec<Snapshots>,
) -> Judgement {
    let mut judged = Judgement { failures: vec![], notes: vec![] };
    let mut skewed = Some(skewed);
    let mut runs: Option<Vec<Snapshots>> = None;
    for (draw, images) in gpu {
        for (t, img) in images.iter().enumerate() {
            let want = &cpu[draw][t];
            let mask = masks.get(t).copied().unwrap_or(0xf);
            let mut all = image_mismatches(img, want, tol, mask, &[]);
            if !all.is_empty() {
                let runs = runs.get_or_insert_with(|| skewed.take().map(|f| f()).unwrap_or_default());
                let bounds: Vec<&Image> = runs.iter().map(|s| &s[draw][t]).collect();
                if !bounds.is_empty() {
                    all = image_mismatches(img, want, tol, mask, &bounds);
                }
            }
            let (tied, bad): (Vec<_>, Vec<_>) =
                all.into_iter().partition(|&(x, y)| ties.get((y * img.width + x) as usize).copied().unwrap_or(false));
            if !tied.is_empty() {
                judged.notes.push(format!(
                    "target {t} after draw {draw}: {} pixels differ at a decision point: a pixel centre within a sub-pixel step (or clipping's rounding) of an edge, an interpolated input at zero or a texel boundary (a tie either rasterizer may break), or a texture sample D3D9 leaves undefined",
                    tied.len()
                ));
            }
            if let Some(&(x, y)) = bad.first() {
                // The skewed runs' values there, when they ran: the interval the CPU allows.
                let skews: Vec<[f32; 4]> = runs.iter().flatten().map(|s| s[draw][t].get(x, y)).collect();
                let skews = if skews.is_empty() { String::new() } else { format!(" skewed {skews:?}") };
                judged.failures.push(format!(
                    "GPU and CPU images of target {t} after draw {draw} differ at {} pixels (first ({x}, {y}): gpu {:?} cpu {:?}{skews}; {tol:?} tolerance)",
                    bad.len(),
                    img.get(x, y),
                    want.get(x, y)
                ));
            }
        }
    }
    judged
}

/// Compares two images of one target: the differing pixels' coordinates. Only the channels in
/// `mask` (bit 0 = red … bit 3 = alpha) are compared. `skewed` holds the CPU images of the runs
/// with the approximate instructions' results at either end of their allowed error (empty when
/// the draw uses none): a float channel within their spread agrees ([`within_skew`]).
pub fn image_mismatches(gpu: &Image, cpu: &Image, tol: Tolerance, mask: u8, skewed: &[&Image]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for y in 0..gpu.height.min(cpu.height) {
        for x in 0..gpu.width.min(cpu.width) {
            let (a, b) = (gpu.get(x, y), cpu.get(x, y));
            let alts: Vec<[f32; 4]> = skewed.iter().map(|s| s.get(x, y)).collect();
            let ok = match gpu.format {
                TargetFormat::A8R8G8B8 => {
                    let steps = if tol == Tolerance::Exact { 1 } else { 4 };
                    (0..4).all(|k| mask & (1 << k) == 0 || to_byte(a[k]).abs_diff(to_byte(b[k])) <= steps)
                }
                TargetFormat::A32B32G32R32F => (0..4).all(|k| {
                    let others: Vec<f32> = alts.iter().map(|p| p[k]).collect();
                    mask & (1 << k) == 0 || floats_agree(a[k], b[k], tol) || within_skew(a[k], b[k], &others, tol)
                }),
            };
            if !ok {
                out.push((x, y));
            }
        }
    }
    out
}

/// The result of one probe on one image.
#[derive(Clone, Debug, PartialEq)]
pub enum ProbeResult {
    /// Within `tolerance` of `expected`.
    Pass,
    /// Matches an `accept_also` value or lies within `broken_tolerance`: a broken() result that the
    /// test accepts on some Windows driver (the message says which).
    Broken(String),
    /// No accepted result.
    Fail(String),
}

fn channel_diff(a: u32, b: u32, compare: Compare) -> u32 {
    let channels = if compare == Compare::Argb { 4 } else { 3 };
    (0..channels).map(|k| ((a >> (8 * k)) & 0xff).abs_diff((b >> (8 * k)) & 0xff)).max().unwrap_or(0)
}

/// Checks `probe` against `image` (the target it reads): its pixel, or every pixel of its `rect`
/// (the first failure, else the first broken() result).
pub fn check_probe(probe: &Probe, image: &Image) -> ProbeResult {
    let Some([x0, y0, x1, y1]) = probe.rect else { return check_pixel(probe, image, probe.x, probe.y) };
    let mut broken = None;
    for y in y0..y1 {
        for x in x0..x1 {
            match check_pixel(probe, image, x, y) {
                ProbeResult::Pass => {}
                ProbeResult::Broken(m) => broken = broken.or(Some(m)),
                fail => return fail,
            }
        }
    }
    broken.map_or(ProbeResult::Pass, ProbeResult::Broken)
}

fn check_pixel(probe: &Probe, image: &Image, x: u32, y: u32) -> ProbeResult {
    if let Some(want) = probe.expected_float {
        let got = image.get(x, y);
        let tol = probe.tolerance_float.unwrap_or(0.0);
        let ok = (0..4)
            .all(|k| (got[k] - want[k]).abs() <= tol || got[k] == want[k] || (got[k].is_nan() && want[k].is_nan()));
        return if ok {
            ProbeResult::Pass
        } else {
            ProbeResult::Fail(format!("({x}, {y}): got {got:?}, expected {want:?} ± {tol}"))
        };
    }
    let want = probe.expected.unwrap_or(0);
    let got = image.argb(x, y);
    let mask = if probe.compare == Compare::Argb { 0xffff_ffff } else { 0x00ff_ffff };
    let shown = got & mask;
    if channel_diff(got, want, probe.compare) <= probe.tolerance {
        return ProbeResult::Pass;
    }
    if let Some(alt) = probe.accept_also.iter().find(|&&alt| channel_diff(got, alt, probe.compare) <= probe.tolerance) {
        return ProbeResult::Broken(format!(
            "({x}, {y}): got 0x{shown:08x}, an alternative (0x{alt:08x}) rather than 0x{want:08x}"
        ));
    }
    if let Some(bt) = probe.broken_tolerance {
        if channel_diff(got, want, probe.compare) <= bt {
            return ProbeResult::Broken(format!(
                "({x}, {y}): got 0x{shown:08x}, within the broken() tolerance {bt} of 0x{want:08x}"
            ));
        }
    }
    ProbeResult::Fail(format!(
        "({x}, {y}){}: got 0x{shown:08x}, expected 0x{want:08x} ± {}{}",
        if probe.target != 0 { format!(" target {}", probe.target) } else { String::new() },
        probe.tolerance,
        if probe.accept_also.is_empty() {
            String::new()
        } else {
            format!(" (or {})", probe.accept_also.iter().map(|a| format!("0x{a:08x}")).collect::<Vec<_>>().join(", "))
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(expected: u32, tolerance: u32) -> Probe {
        Probe {
            x: 0,
            y: 0,
            rect: None,
            target: 0,
            expected: Some(expected),
            expected_float: None,
            tolerance,
            tolerance_float: None,
            compare: Compare::Rgb,
            accept_also: vec![],
            broken_tolerance: None,
            note: None,
            message: None,
            after_draw: None,
        }
    }

    #[test]
    fn rgb_probes_ignore_alpha_and_honour_tolerance() {
        let img = Image::new(1, 1, TargetFormat::A8R8G8B8, 0x00807f01);
        assert_eq!(check_probe(&probe(0xff807f01, 0), &img), ProbeResult::Pass);
        assert_eq!(check_probe(&probe(0x00817f01, 1), &img), ProbeResult::Pass);
        assert!(matches!(check_probe(&probe(0x00827f01, 1), &img), ProbeResult::Fail(_)));
        let mut p = probe(0x00ffffff, 0);
        p.accept_also = vec![0x00807f02];
        assert!(matches!(check_probe(&p, &img), ProbeResult::Fail(_)), "0x02 vs 0x01 is outside tolerance 0");
        p.tolerance = 1;
        assert!(matches!(check_probe(&p, &img), ProbeResult::Broken(_)));
        let mut p = probe(0x00ffffff, 0);
        p.compare = Compare::Argb;
        p.expected = Some(0x00807f01);
        assert_eq!(check_probe(&p, &img), ProbeResult::Pass);
        p.expected = Some(0xff807f01);
        assert!(matches!(check_probe(&p, &img), ProbeResult::Fail(_)), "argb compares alpha");
    }

    #[test]
    fn skewed_runs_bound_the_disagreement() {
        // CPU 1.0, runs at the two ends 1.01 and 0.995: spread 0.01, interval [0.985, 1.02].
        let alts = [1.01, 0.995];
        assert!(within_skew(1.019, 1.0, &alts, Tolerance::Exact));
        assert!(within_skew(0.986, 1.0, &alts, Tolerance::Exact));
        assert!(!within_skew(1.021, 1.0, &alts, Tolerance::Exact));
        assert!(!within_skew(0.984, 1.0, &alts, Tolerance::Exact));
        // An overflow at one end makes the infinity an accepted value, but not NaN.
        assert!(within_skew(f32::INFINITY, 3.0e38, &[f32::INFINITY, 3.0e38], Tolerance::Exact));
        assert!(!within_skew(f32::NAN, 3.0e38, &[f32::INFINITY, 3.0e38], Tolerance::Exact));
        // No skewed runs: nothing beyond the tolerance itself.
        assert!(!within_skew(1.001, 1.0, &[], Tolerance::Exact));
        // NaN on the CPU side, or an unbounded error in a skewed run: any value.
        assert!(within_skew(2.0, f32::NAN, &[], Tolerance::Exact));
        assert!(within_skew(0.0, f32::INFINITY, &[f32::NAN, f32::INFINITY], Tolerance::Exact));
        // An infinity every run agrees on is kept: rcp(0) = +inf is D3D9's rule.
        assert!(!within_skew(f32::MAX, f32::INFINITY, &[f32::INFINITY, f32::INFINITY], Tolerance::Exact));
    }

    #[test]
    fn float_agreement_policy() {
        assert!(floats_agree(1.0, 1.0 + f32::EPSILON, Tolerance::Exact));
        assert!(!floats_agree(1.0, 1.001, Tolerance::Exact));
        assert!(floats_agree(1.0, 1.0005, Tolerance::Wide));
        assert!(floats_agree(f32::NAN, f32::NAN, Tolerance::Exact));
        assert!(!floats_agree(f32::INFINITY, f32::MAX, Tolerance::Exact));
        assert!(floats_agree(0.0, 1e-7, Tolerance::Exact), "relative floor near zero");
        // A zero product's sign is unspecified (docs/d3d9-rules.md#zero-product): −0 on the GPU
        // agrees with the reference's +0, and an infinity whose sign came from it (rcp(−0) on
        // the GPU, rcp(+0) on the CPU) agrees through the skewed runs, which make it NaN.
        assert!(floats_agree(-0.0, 0.0, Tolerance::Exact));
        assert!(within_skew(f32::NEG_INFINITY, f32::INFINITY, &[f32::NAN, f32::NAN], Tolerance::Exact));
    }
}
