//! The draws of a case as the GPU side translates them, without a GPU: each draw with a shader,
//! its programs, constants and [`StageContext`], for checks that need the translations of a
//! conformance run but not its images (tests/tests/override_cache.rs).

use super::{load_constants, Runner, ShaderConstants, StageContext, Verdict};
use crate::case::{Case, RenderState};
use d3d9_shader::bytecode::Program;

/// A draw's stage: its program and the constants the case set for it so far.
pub type WalkStage<'a> = Option<(&'a Program, &'a ShaderConstants)>;

impl Runner<'_> {
    /// Calls `visit` with each draw of `case` that has a shader, as the GPU draws of a run give
    /// them to the [`super::ShaderGpu`]: the same programs, constants and context. A case the run
    /// would skip or fail before translating is that verdict; an error of `visit` is a failure.
    pub fn walk_shader_draws(
        &self,
        case: &Case,
        visit: &mut dyn FnMut(WalkStage<'_>, WalkStage<'_>, StageContext<'_>) -> Result<(), String>,
    ) -> Result<(), Verdict> {
        let prepared = self.prepare(case)?;
        let mut state = RenderState::default();
        state.apply(&case.render_states);
        let (mut vsc, mut psc) = (ShaderConstants::default(), ShaderConstants::default());
        for (i, draw) in case.draws.iter().enumerate() {
            if let Some(rs) = &draw.render_states {
                state.apply(rs);
            }
            load_constants(draw, &mut vsc, &mut psc);
            let setup = self.draw_setup(&prepared, draw, &state, case.render_target.format)?;
            let ctx = setup.context(case, &prepared, &state, self.float_rules);
            if setup.vs.is_none() && setup.ps.is_none() {
                continue;
            }
            visit(setup.vs.map(|p| (p, &vsc)), setup.ps.map(|p| (p, &psc)), ctx)
                .map_err(|e| Verdict::Fail(vec![format!("draw {i}: {e}")]))?;
        }
        Ok(())
    }
}
