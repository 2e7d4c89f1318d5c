//! The translations a case's draws use on the GPU path, without drawing: each draw's shaders
//! translated as [`crate::translated`] translates them (keys from the draw's render state and
//! textures, a pair linked by semantic), with the draw's colour targets. For checks of the
//! translations themselves that need no GPU, such as handing a linked pair to another WebGPU
//! implementation's pipeline validation (`tests/tests/tint_pairs.rs`).

use d3d9_shader::bytecode::Version;
use d3d9_shader::Translation;

use crate::case::{Case, RenderState, TargetFormat};
use crate::runner::{Runner, Verdict};

/// One translated shader of a draw.
#[derive(Debug)]
pub struct TranslatedStage {
    /// The shader's name in the case.
    pub name: String,
    /// Its version (the binding sizes of the `_sw` versions differ).
    pub version: Version,
    /// The translation.
    pub translation: Translation,
}

/// One draw's translated shaders.
#[derive(Debug)]
pub struct DrawTranslation {
    /// Index of the draw in the case.
    pub draw: usize,
    /// The vertex shader (`None`: fixed function).
    pub vs: Option<TranslatedStage>,
    /// The pixel shader (`None`: fixed function).
    pub ps: Option<TranslatedStage>,
    /// Colour targets 0..n.
    pub targets: Vec<TargetFormat>,
}

impl Runner<'_> {
    /// Translates every draw of `case` that runs a shader. A case the runner would skip is
    /// `Err(Verdict::Skip)`; a shader that does not load or translate is `Err(Verdict::Fail)`.
    pub fn translations(&self, case: &Case) -> Result<Vec<DrawTranslation>, Verdict> {
        let prepared = self.prepare(case)?;
        let targets: Vec<TargetFormat> = case.targets().iter().map(|t| t.1).collect();
        let mut state = RenderState::default();
        state.apply(&case.render_states);
        let mut out = Vec::new();
        for (i, draw) in case.draws.iter().enumerate() {
            if let Some(rs) = &draw.render_states {
                state.apply(rs);
            }
            if draw.vs_is_none() && draw.ps_is_none() {
                continue;
            }
            let setup = self.draw_setup(&prepared, draw, &state, case.render_target.format)?;
            let ctx = setup.context(case, &prepared, &state, self.float_rules);
            let (vs, ps) = crate::translated::translate_pair(setup.vs, setup.ps, &ctx)
                .map_err(|e| Verdict::Fail(vec![format!("draw {i}: {e}")]))?;
            let stage = |name: &str, program: Option<&d3d9_shader::bytecode::Program>, t: Option<Translation>| {
                Some(TranslatedStage { name: name.to_string(), version: program?.version, translation: t? })
            };
            out.push(DrawTranslation {
                draw: i,
                vs: stage(&draw.vertex_shader, setup.vs, vs),
                ps: stage(&draw.pixel_shader, setup.ps, ps),
                targets: targets.clone(),
            });
        }
        Ok(out)
    }
}
