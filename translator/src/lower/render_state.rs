//! Render-state modes that are not baked ([`crate::key::delivery`]): each mode is a `u32` read from a
//! naga `Override` (override delivery) or from the `modes` members of the render-state block
//! (uniform delivery), and the code that baked lowering specialises on the key (alpha test,
//! fog, clip planes, unbound samplers, ps_1_x projection) tests the value at run time instead.
//! Each function computes what its baked counterpart would for every value of the mode.

use naga::{BinaryOperator as B, Expression, Literal, Override, Span};

use super::builder::SharedKey;
use super::constants::rs;
use super::fog::FogSelect;
use super::parts::Width;
use super::state::Expr;
use super::{LowerError, Lowerer};
use crate::key::delivery::Delivery;
use crate::key::state_block::Modes;

/// A mode that can be delivered otherwise than baked.
#[derive(Clone, Copy)]
pub(crate) enum Mode {
    AlphaTest,
    Fog,
    FogSource,
    ClipPlaneMask,
    UnboundSamplers,
    /// ps_1_0–ps_1_3 stage n's projection count.
    Projected(u8),
}

impl Mode {
    fn name(self) -> String {
        match self {
            Mode::AlphaTest => "alpha_func".into(),
            Mode::Fog => "fog_mode".into(),
            Mode::FogSource => "fog_source".into(),
            Mode::ClipPlaneMask => "clip_plane_mask".into(),
            Mode::UnboundSamplers => "unbound_samplers".into(),
            Mode::Projected(n) => format!("stage{n}_projection"),
        }
    }

    /// The device default (the override's initial value).
    fn default_value(self) -> u32 {
        let m = Modes::default();
        match self {
            Mode::AlphaTest => m.alpha_func,
            Mode::Fog => m.fog_mode,
            Mode::FogSource => m.fog_source,
            Mode::ClipPlaneMask => m.clip_plane_mask,
            Mode::UnboundSamplers => m.unbound_samplers,
            Mode::Projected(n) => m.projected[usize::from(n)],
        }
    }
}

impl Lowerer<'_> {
    /// The delivery of `mode` under the key.
    pub(crate) fn delivery(&self, mode: Mode) -> Delivery {
        let d = &self.key.delivery;
        match mode {
            Mode::AlphaTest => d.alpha_func,
            Mode::Fog => d.fog,
            Mode::FogSource => d.fog_source,
            Mode::ClipPlaneMask => d.clip_planes,
            Mode::UnboundSamplers => d.unbound_samplers,
            Mode::Projected(_) => d.projected,
        }
    }

    /// Whether `mode` is read at run time (override or uniform).
    pub(crate) fn dynamic(&self, mode: Mode) -> bool {
        self.delivery(mode) != Delivery::Baked
    }

    /// Whether the delivered modes need the render-state block: uniform delivery reads it, and
    /// a dynamic alpha test, fog or clip planes read its values as baked code does.
    pub(crate) fn dynamic_needs_render_state(&self) -> bool {
        let fog = self.version.profile().fixed_function_fog;
        let (uniform, any) = if self.is_pixel() {
            let mut modes = vec![Mode::AlphaTest, Mode::UnboundSamplers];
            if fog {
                modes.extend([Mode::Fog, Mode::FogSource]);
            }
            if self.version.profile().ps_1_0_to_1_3() {
                modes.push(Mode::Projected(0));
            }
            let uniform = modes.iter().any(|&m| self.delivery(m) == Delivery::Uniform);
            (uniform, self.dynamic(Mode::AlphaTest) || (fog && self.dynamic(Mode::Fog)))
        } else {
            let modes = [Mode::ClipPlaneMask, Mode::UnboundSamplers];
            (modes.iter().any(|&m| self.delivery(m) == Delivery::Uniform), self.dynamic(Mode::ClipPlaneMask))
        };
        uniform || any
    }

    /// The value of `mode` (a `u32`): the override (declared on first use) or the block member.
    pub(crate) fn mode(&mut self, mode: Mode) -> Result<Expr, LowerError> {
        match self.delivery(mode) {
            Delivery::Uniform => match mode {
                Mode::Projected(n) => {
                    let all = self.render_state(rs::PROJECTED)?;
                    let half = self.component(all, usize::from(n / 4));
                    Ok(self.component(half, usize::from(n % 4)))
                }
                Mode::AlphaTest => self.render_state(rs::ALPHA_FUNC),
                Mode::Fog => self.render_state(rs::FOG_MODE),
                Mode::FogSource => self.render_state(rs::FOG_SOURCE),
                Mode::ClipPlaneMask => self.render_state(rs::CLIP_PLANE_MASK),
                Mode::UnboundSamplers => self.render_state(rs::UNBOUND_SAMPLERS),
            },
            _ => Ok(self.named_override(mode.name(), Literal::U32(mode.default_value()))),
        }
    }

    /// The naga `Override` named `name` (declared on first use, `init` its type and initial
    /// value) as an expression of the current function.
    pub(crate) fn named_override(&mut self, name: String, init: Literal) -> Expr {
        let found = self.module.overrides.iter().find(|(_, o)| o.name.as_deref() == Some(name.as_str()));
        let h = match found {
            Some((h, _)) => h,
            None => {
                let ty = self
                    .module
                    .types
                    .insert(naga::Type { name: None, inner: naga::TypeInner::Scalar(init.scalar()) }, Span::UNDEFINED);
                let init = self.module.global_expressions.append(Expression::Literal(init), Span::UNDEFINED);
                let o = Override { name: Some(name), id: None, ty, init: Some(init) };
                self.module.overrides.append(o, Span::UNDEFINED)
            }
        };
        self.fb.expr(Expression::Override(h))
    }

    fn u32_const(&mut self, v: u32) -> Expr {
        self.fb.shared(SharedKey::U32(v))
    }

    /// `mode == v`.
    pub(super) fn mode_is(&mut self, mode: Expr, v: u32) -> Expr {
        let c = self.u32_const(v);
        self.bin(B::Equal, mode, c)
    }

    /// `(mask & bit) != 0`.
    pub(super) fn bit_set(&mut self, mask: Expr, bit: u32) -> Expr {
        let (b, zero) = (self.u32_const(bit), self.u32_const(0));
        let m = self.bin(B::And, mask, b);
        self.bin(B::NotEqual, m, zero)
    }

    /// The alpha test's kill condition for a run-time D3DCMPFUNC `f`: with m = f − 1, bit 0 of m
    /// passes "less", bit 1 "equal", bit 2 "greater" (NEVER = 1 → 0b000, LESS = 2 → 0b001, …,
    /// GREATEREQUAL = 7 → 0b110, ALWAYS = 8 → 0b111), the encoding of D3DCMPFUNC itself. The
    /// operands are rounded to 8 bits as in the baked test (docs/d3d9-rules.md#alpha-test).
    pub(crate) fn dynamic_alpha_kill(&mut self, a: Expr, r: Expr) -> Result<Expr, LowerError> {
        let f = self.mode(Mode::AlphaTest)?;
        let one = self.u32_const(1);
        let m = self.bin(B::Subtract, f, one);
        let always = self.mode_is(m, 7);
        let mut pass = always;
        for (op, bit) in [(B::Less, 1), (B::Equal, 2), (B::Greater, 4)] {
            let cmp = self.bin(op, a, r);
            let on = self.bit_set(m, bit);
            let both = self.bin(B::LogicalAnd, cmp, on);
            pass = self.bin(B::LogicalOr, pass, both);
        }
        Ok(self.fb.expr(Expression::Unary { op: naga::UnaryOperator::LogicalNot, expr: pass }))
    }

    /// Table fog's depth: z, or 1 / w, by the key or at run time.
    pub(crate) fn fog_depth(&mut self, w_source: bool) -> Result<Expr, LowerError> {
        let fc = self.frag_coord();
        let z = self.component(fc, 2);
        let w = self.component(fc, 3);
        let one = self.fconst(1.0, Width::Scalar);
        let inv_w = self.bin(B::Divide, one, w);
        if !self.dynamic(Mode::FogSource) {
            return Ok(if w_source { inv_w } else { z });
        }
        let src = self.mode(Mode::FogSource)?;
        let is_w = self.mode_is(src, 1);
        Ok(self.select(is_w, inv_w, z))
    }

    /// The fog factor for a run-time fog mode (1 exp, 2 exp2, 3 linear, 4 vertex; the factor is
    /// not used for 0), and the condition "fog is on".
    pub(crate) fn dynamic_fog_factor(&mut self) -> Result<(Expr, Expr), LowerError> {
        let mode = self.mode(Mode::Fog)?;
        let f = self.fog_factor(FogSelect::RunTime(mode))?;
        let zero = self.u32_const(0);
        let on = self.bin(B::NotEqual, mode, zero);
        Ok((f, on))
    }

    /// The eight clip distances under a run-time plane mask: plane n's distance where bit n is
    /// set, 1 (inside) elsewhere, as the baked code gives the planes it skips.
    pub(crate) fn dynamic_clip_distances(&mut self, pos: Expr) -> Result<Vec<Expr>, LowerError> {
        let mask = self.mode(Mode::ClipPlaneMask)?;
        let one = self.fconst(1.0, Width::Scalar);
        let mut out = Vec::new();
        for i in 0..8 {
            let all = self.render_state(rs::CLIP_PLANES)?;
            let plane = self.component(all, i);
            let d = self.dot(pos, plane, 4);
            let on = self.bit_set(mask, 1 << i);
            out.push(self.select(on, d, one));
        }
        Ok(out)
    }

    /// A bound sampler's texel, replaced by (0, 0, 0, 1) when the run-time mask says nothing is
    /// bound to `s n` (the caller binds some texture of the declared type there).
    pub(crate) fn dynamic_unbound(&mut self, n: u16, texel: Expr) -> Result<Expr, LowerError> {
        if !self.dynamic(Mode::UnboundSamplers) {
            return Ok(texel);
        }
        let mask = self.mode(Mode::UnboundSamplers)?;
        let unbound = self.bit_set(mask, 1 << n);
        let (zero, one) = (self.fconst(0.0, Width::Scalar), self.fconst(1.0, Width::Scalar));
        let default = self.compose4([zero, zero, zero, one]);
        Ok(self.select(unbound, default, texel))
    }

    /// ps_1_0–ps_1_3 coordinates of stage `n` under a run-time projection count: divided by
    /// component count − 1 for counts 1–4, unchanged for 0.
    pub(crate) fn dynamic_projection(&mut self, n: u16, v: Expr) -> Result<Expr, LowerError> {
        let count = self.mode(Mode::Projected(n as u8))?;
        let mut q = self.component(v, 3);
        for c in [3u32, 2, 1] {
            let is = self.mode_is(count, c);
            let comp = self.component(v, c as usize - 1);
            q = self.select(is, comp, q);
        }
        let qs = self.splat_expr(q);
        let divided = self.bin(B::Divide, v, qs);
        let zero = self.u32_const(0);
        let on = self.bin(B::NotEqual, count, zero);
        Ok(self.select(on, divided, v))
    }
}
