//! Render state inside the shader, driven by the key: fog (ps < 3.0), alpha test after fog and
//! the deferred texkill in the pixel epilogue; user clip planes and point size in the vertex
//! epilogue. Values come from the render-state block (layout in the module documentation).

use naga::{BinaryOperator as B, Binding, BuiltIn, Expression, MathFunction as M, Statement, StructMember};

use super::constants::rs;
use super::fog::FogSelect;
use super::parts::Width;
use super::render_state::Mode;
use super::state::Expr;
use super::{LowerError, Lowerer};
use crate::key::{AlphaPrecision, CompareFunc, FogMode, FogSource};

impl Lowerer<'_> {
    /// Whether the key reads values from the render-state block.
    pub fn needs_render_state(&self) -> bool {
        let k = self.key;
        if self.dynamic_needs_render_state() {
            return true;
        }
        if self.is_pixel() {
            !matches!(k.alpha_func, CompareFunc::Always | CompareFunc::Never)
                || (k.fog != FogMode::None && self.version.profile().fixed_function_fog)
                || self.sig.features.bump_env
        } else {
            k.clip_planes != 0 || k.point_size || k.point_expansion != crate::key::PointExpansion::Off
        }
    }

    /// Fog, alpha test and kill; returns the final oC0.
    pub fn pixel_epilogue(&mut self, c0: Expr) -> Result<Expr, LowerError> {
        let mut c0 = c0;
        let fixed_fog = self.version.profile().fixed_function_fog;
        if fixed_fog && self.dynamic(Mode::Fog) {
            let (f, on) = self.dynamic_fog_factor()?;
            let fogged = self.fog_blend(c0, f)?;
            c0 = self.fb.expr(Expression::Select { condition: on, accept: fogged, reject: c0 });
        } else if self.key.fog != FogMode::None && fixed_fog {
            c0 = self.fog(c0)?;
        }
        let func = if self.dynamic(Mode::AlphaTest) { CompareFunc::Less } else { self.key.alpha_func };
        let kill_alpha = match func {
            CompareFunc::Always => None,
            CompareFunc::Never => Some(self.fb.shared(super::builder::SharedKey::Bool(true))),
            func => {
                // At render target 0's precision (docs/d3d9-rules.md#alpha-test): on 8-bit targets
                // round(sat(alpha) * 255) against ALPHAREF & 0xff (stored as ALPHAREF / 255); on float
                // targets the unclamped alpha against ALPHAREF / 255.
                let a = self.component(c0, 3);
                let mut r = self.render_state(rs::ALPHA_REF)?;
                let a = match self.key.alpha_precision {
                    AlphaPrecision::Float => a,
                    AlphaPrecision::Unorm8 => {
                        let scale = self.fconst(255.0, Width::Scalar);
                        let a = self.saturate(a, Width::Scalar);
                        let a = self.bin(B::Multiply, a, scale);
                        let r255 = self.bin(B::Multiply, r, scale);
                        r = self.math1(M::Round, r255);
                        self.math1(M::Round, a)
                    }
                };
                if self.dynamic(Mode::AlphaTest) {
                    let kill = self.dynamic_alpha_kill(a, r)?;
                    return self.finish_kill(c0, Some(kill));
                }
                let op = match func {
                    CompareFunc::Less => B::Less,
                    CompareFunc::Equal => B::Equal,
                    CompareFunc::LessEqual => B::LessEqual,
                    CompareFunc::Greater => B::Greater,
                    CompareFunc::NotEqual => B::NotEqual,
                    _ => B::GreaterEqual,
                };
                let pass = self.bin(op, a, r);
                Some(self.fb.expr(Expression::Unary { op: naga::UnaryOperator::LogicalNot, expr: pass }))
            }
        };
        self.finish_kill(c0, kill_alpha)
    }

    /// The kill of the epilogue: the alpha test's condition or the deferred texkill.
    fn finish_kill(&mut self, c0: Expr, kill_alpha: Option<Expr>) -> Result<Expr, LowerError> {
        let killed = match self.killed {
            Some(v) => {
                let p = self.var_ptr(v);
                Some(self.load(p))
            }
            None => None,
        };
        let kill = match (kill_alpha, killed) {
            (Some(a), Some(k)) => Some(self.bin(B::LogicalOr, a, k)),
            (a, k) => a.or(k),
        };
        if let Some(condition) = kill {
            let mut accept = naga::Block::new();
            accept.push(Statement::Kill, naga::Span::UNDEFINED);
            self.stmt(Statement::If { condition, accept, reject: naga::Block::new() });
        }
        Ok(c0)
    }

    /// oC0.rgb = mix(fog colour, oC0.rgb, f) under the key's fog mode; alpha unchanged.
    fn fog(&mut self, c0: Expr) -> Result<Expr, LowerError> {
        let w_source = self.key.fog_source == FogSource::W;
        let f = self.fog_factor(FogSelect::Baked { mode: self.key.fog, w_source })?;
        self.fog_blend(c0, f)
    }

    /// mix(fog colour, oC0.rgb, saturate(f)), alpha unchanged.
    fn fog_blend(&mut self, c0: Expr, f: Expr) -> Result<Expr, LowerError> {
        let f = self.saturate(f, Width::Scalar);
        let color = self.render_state(rs::FOG_COLOR)?;
        let fs = self.splat_expr(f);
        let mixed =
            self.fb.expr(Expression::Math { fun: M::Mix, arg: color, arg1: Some(c0), arg2: Some(fs), arg3: None });
        let (r, g, b) = (self.component(mixed, 0), self.component(mixed, 1), self.component(mixed, 2));
        let a = self.component(c0, 3);
        Ok(self.compose4([r, g, b, a]))
    }

    /// The clip-distances output member.
    fn clip_distances_member(
        &mut self,
        dists: Vec<Expr>,
        members: &mut Vec<StructMember>,
        offset: &mut u32,
        values: &mut Vec<Expr>,
    ) {
        let n = dists.len() as u32;
        let ty = super::types::Types::array(&mut self.module, self.t.f32, n, 4);
        let v = self.fb.expr(Expression::Compose { ty, components: dists });
        members.push(StructMember {
            name: Some("clip_distances".into()),
            ty,
            binding: Some(Binding::BuiltIn(BuiltIn::ClipDistances)),
            offset: *offset,
        });
        *offset += 4 * n;
        values.push(v);
    }

    /// Clip distances and point size.
    pub fn vertex_epilogue(
        &mut self,
        pos: Expr,
        point_size: Option<Expr>,
        members: &mut Vec<StructMember>,
        offset: &mut u32,
        values: &mut Vec<Expr>,
    ) -> Result<(), LowerError> {
        let planes = if self.dynamic(Mode::ClipPlaneMask) { 0 } else { self.key.clip_planes };
        if self.dynamic(Mode::ClipPlaneMask) {
            let dists = self.dynamic_clip_distances(pos)?;
            self.clip_distances_member(dists, members, offset, values);
        }
        if planes != 0 {
            let n = 8 - planes.leading_zeros();
            let mut dists = Vec::new();
            for i in 0..n {
                let d = if planes & (1 << i) != 0 {
                    let all = self.render_state(rs::CLIP_PLANES)?;
                    let plane = self.component(all, i as usize);
                    self.dot(pos, plane, 4)
                } else {
                    self.fconst(1.0, Width::Scalar)
                };
                dists.push(d);
            }
            self.clip_distances_member(dists, members, offset, values);
        }
        if self.key.point_size && self.key.point_expansion == crate::key::PointExpansion::Off {
            let size = match point_size {
                Some(s) => s,
                None => self.render_state(rs::POINT_SIZE)?,
            };
            let lo = self.render_state(rs::POINT_SIZE_MIN)?;
            let hi = self.render_state(rs::POINT_SIZE_MAX)?;
            let v =
                self.fb.expr(Expression::Math { fun: M::Clamp, arg: size, arg1: Some(lo), arg2: Some(hi), arg3: None });
            members.push(StructMember {
                name: Some("point_size".into()),
                ty: self.t.f32,
                binding: Some(Binding::BuiltIn(BuiltIn::PointSize)),
                offset: *offset,
            });
            *offset += 4;
            values.push(v);
        }
        Ok(())
    }
}
