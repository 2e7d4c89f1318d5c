//! The two ways the library generates fixed-function halves (`d3d9_shader::ffp::FfpMode`) drawn
//! side by side: keyed halves are specialised per state, uniform-driven ones read the same state
//! from a state block, and both are written from the same statements per state value, so a draw
//! gives the same pixels either way (docs/layers.md#fixed-function). "The same" is bit for bit
//! but for the driver's freedom: SPIR-V float arithmetic without `NoContraction` may be
//! reassociated or fused, and a compiler does so differently in the two shapes of code (Mesa's
//! llvmpipe does), so a pixel may land one rounding step of the target away; the images must
//! agree under the exact tolerance of GPU against CPU ([`crate::compare`]), and the pixels that
//! are not bit-identical are counted in the case's notes.

use d3d9_shader::ffp::FfpMode;

use crate::case::Case;
use crate::compare::{image_mismatches, Snapshots, Tolerance};

/// Which generation modes a run draws fixed-function halves with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FfpModes {
    /// Keyed halves only.
    #[default]
    Keyed,
    /// Uniform-driven halves only.
    Uniform,
    /// Keyed, and again uniform-driven: every image of the two GPU runs must be identical.
    Both,
}

impl FfpModes {
    /// The mode of the run whose images are checked against the probes and the CPU.
    pub fn primary(self) -> FfpMode {
        match self {
            FfpModes::Uniform => FfpMode::Uniform,
            FfpModes::Keyed | FfpModes::Both => FfpMode::Keyed,
        }
    }

    /// Whether `case` is drawn a second time, uniform-driven.
    pub(crate) fn cross_checks(self, case: &Case) -> bool {
        self == FfpModes::Both && case.draws.iter().any(|d| d.vs_is_none() || d.ps_is_none())
    }
}

/// How the uniform-driven run compares with the keyed one: the first pixel where they disagree
/// (an error), else how many pixels are not bit-identical.
pub(crate) fn compare_runs(keyed: &Snapshots, uniform: &Snapshots) -> Result<usize, String> {
    let mut inexact = 0;
    for (draw, images) in keyed {
        let Some(other) = uniform.get(draw) else { return Err(format!("after draw {draw}: no uniform-driven image")) };
        for (t, (a, b)) in images.iter().zip(other).enumerate() {
            if let Some(&(x, y)) = image_mismatches(a, b, Tolerance::Exact, 0xf, &[]).first() {
                return Err(format!(
                    "after draw {draw}, target {t}, pixel ({x}, {y}): keyed {:?}, uniform-driven {:?}",
                    a.get(x, y),
                    b.get(x, y)
                ));
            }
            let bits = |p: &[f32; 4]| p.map(f32::to_bits);
            inexact += a.pixels.iter().zip(&b.pixels).filter(|(p, q)| bits(p) != bits(q)).count();
        }
    }
    Ok(inexact)
}
