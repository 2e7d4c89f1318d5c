//! Shader Model 1 pixel shaders on the same lowering: the texture-addressing instructions of
//! ps_1_0–ps_1_3 (docs/opcodes.md#ps1x-texture-ops), ps_1_4's texld/texcrd/bem/texdepth, and co-issue.
//!
//! In ps_1_0–1_3, `t n` is both the texture coordinate set n (seeded at entry) and a writable
//! register; the instructions sample stage n where n is the destination's number. The
//! `texm3x2pad`/`texm3x3pad` rows are kept in the pad's destination register (replicated): D3D9
//! makes that register unreadable afterwards, so nothing observes the difference.

use naga::{BinaryOperator as B, Expression};

use super::constants::rs;
use super::operands::Op;
use super::parts::Width;
use super::state::Expr;
use super::textures::Level;
use super::{LowerError, Lowerer};
use crate::bytecode::{Opcode, Register, RegisterType, WriteMask};

impl Lowerer<'_> {
    /// The interpolated coordinates of set `n` (the value `t n` held at entry), projected when
    /// the key says so: divided by the last counted component (D3DTTFF_PROJECTED with COUNTn).
    fn coords(&mut self, n: u16) -> Expr {
        let v = match self.texcoords.get(&n) {
            Some(&v) => v,
            None => self.runtime_zero(Width::Vec4),
        };
        if n < 8 && self.dynamic(super::render_state::Mode::Projected(0)) {
            // The block is declared whenever the counts are read from it
            // (`dynamic_needs_render_state`), so this cannot fail.
            return self.dynamic_projection(n, v).unwrap_or(v);
        }
        match self.key.projected.get(usize::from(n)) {
            Some(&count @ 1..=4) => {
                let q = self.component(v, usize::from(count) - 1);
                let qs = self.splat_expr(q);
                self.bin(B::Divide, v, qs)
            }
            _ => v,
        }
    }

    fn dot3(&mut self, a: Expr, b: Expr) -> Expr {
        self.dot(a, b, 3)
    }

    /// A register's current value as a source (plain swizzle, no modifier).
    fn reg(&mut self, ty: RegisterType, n: u16) -> Result<Expr, LowerError> {
        self.reg_value(Register::new(ty, n))
    }

    fn row(&mut self, m: u16, back: u16) -> Result<Expr, LowerError> {
        let n = m.checked_sub(back).ok_or_else(|| self.invalid("texm3x* needs its pad instructions"))?;
        let v = self.reg(RegisterType::Texture, n)?;
        Ok(self.component(v, 0))
    }

    /// Samples stage `m` at `coords` (a vec4; the texture's dimension picks the components).
    fn sample_stage(&mut self, m: u16, coords: Expr) -> Result<Expr, LowerError> {
        self.sample(Some(m), coords, Level::Auto, false)
    }

    fn vec4_of(&mut self, c: [Expr; 3]) -> Expr {
        let zero = self.fconst(0.0, Width::Scalar);
        self.compose4([c[0], c[1], c[2], zero])
    }

    fn write_depth(&mut self, d: Expr) -> Result<(), LowerError> {
        let v = self.splat_expr(d);
        self.set_reg_value(Register::new(RegisterType::DepthOut, 0), v)
    }

    /// Source 0 (`tN`, or ps_1_4's source register) as a value.
    fn tn(&mut self, op: &Op) -> Result<Expr, LowerError> {
        self.src(&op.src(0))
    }

    /// Lowers a Shader Model 1 pixel texture instruction: `m`, the destination's number, names
    /// the stage sampled and the coordinate set read.
    pub fn sm1_texture_op(&mut self, op: &Op) -> Result<(), LowerError> {
        use Opcode as O;
        let m = op.dst().reg.num;
        let value = match op.opcode() {
            O::Tex => self.ps1x_tex(op, m)?,
            O::TexCoord => self.ps1x_texcoord(op, m)?,
            O::TexBem | O::TexBemL => self.texbem(op, m)?,
            O::Bem => return self.bem(op, m),
            O::TexReg2Ar | O::TexReg2Gb | O::TexReg2Rgb => self.texreg2(op, m)?,
            O::TexM3x2Pad | O::TexM3x3Pad | O::TexDp3 | O::TexDp3Tex => self.texdp3(op, m)?,
            O::TexM3x2Tex => self.texm3x2(op, m)?,
            O::TexM3x2Depth => return self.texm3x2depth(op, m),
            O::TexM3x3Tex | O::TexM3x3 | O::TexM3x3Spec | O::TexM3x3VSpec => self.texm3x3(op, m)?,
            O::TexDepth => return self.texdepth(m),
            other => return Err(self.unsupported(format!("{other:?} in {}", self.version))),
        };
        self.write(op, value)
    }

    /// `tex tN` samples stage N at coordinate set N; ps_1_4's `texld rN, src` at `src`.
    fn ps1x_tex(&mut self, op: &Op, m: u16) -> Result<Expr, LowerError> {
        let c = if self.version.profile().ps_1_4 { self.tn(op)? } else { self.coords(m) };
        self.sample_stage(m, c)
    }

    /// `texcoord tN`: (sat(u), sat(v), sat(w), 1); ps_1_4's `texcrd rN, src`: the source.
    fn ps1x_texcoord(&mut self, op: &Op, m: u16) -> Result<Expr, LowerError> {
        if self.version.profile().ps_1_4 {
            return self.tn(op);
        }
        let c = self.coords(m);
        let s = self.saturate(c, Width::Vec4);
        let (x, y, z) = (self.component(s, 0), self.component(s, 1), self.component(s, 2));
        let one = self.fconst(1.0, Width::Scalar);
        Ok(self.compose4([x, y, z, one]))
    }

    /// `texbem`/`texbeml tM, tN`: stage M sampled at its coordinates offset by the bump-env
    /// matrix times tN's (du, dv); texbeml also scales by the luminance.
    fn texbem(&mut self, op: &Op, m: u16) -> Result<Expr, LowerError> {
        let t = self.tn(op)?;
        let c = self.coords(m);
        let shifted = self.bump(m, c, t)?;
        let v = self.sample_stage(m, shifted)?;
        if op.opcode() != Opcode::TexBemL {
            return Ok(v);
        }
        // All four channels scaled by tN.b · LSCALE + LOFFSET: the texbeml page's
        // "t(m)RGBA = t(m)RGBA * [(t(n)B * LSCALE(m)) + LOFFSET(m)]", as the
        // interpreter does (fuzz-diff found the alpha left unscaled here).
        let lum = self.render_state(rs::BUMP_LUMINANCE)?;
        let l = self.component(lum, m as usize);
        let (ls, lo) = (self.component(l, 0), self.component(l, 1));
        let b = self.component(t, 2);
        let p = self.fmul(b, ls, Width::Scalar);
        let f = self.bin(B::Add, p, lo);
        let scale = self.compose4([f, f, f, f]);
        Ok(self.fmul(v, scale, Width::Vec4))
    }

    /// ps_1_4 `bem rM.xy, a, b`: a's (u, v) offset by the bump-env matrix of stage M times b.
    fn bem(&mut self, op: &Op, m: u16) -> Result<(), LowerError> {
        let dst = op.dst();
        let a = self.src_n(op, 0)?;
        let b = self.src_n(op, 1)?;
        let v = self.bump(m, a, b)?;
        self.write_masked(op, dst, WriteMask(dst.mask.0 & op.info().writes), v)
    }

    /// `texreg2ar`/`texreg2gb`/`texreg2rgb tM, tN`: stage M sampled at tN's (a, r), (g, b) or
    /// (r, g, b).
    fn texreg2(&mut self, op: &Op, m: u16) -> Result<Expr, LowerError> {
        use crate::bytecode::Swizzle as S;
        let t = self.tn(op)?;
        let sw = match op.opcode() {
            Opcode::TexReg2Ar => S::new(3, 0, 0, 0),
            Opcode::TexReg2Gb => S::new(1, 2, 2, 2),
            _ => S::new(0, 1, 2, 2),
        };
        let c = self.swizzle(t, sw);
        self.sample_stage(m, c)
    }

    /// The row instructions `texm3x2pad`/`texm3x3pad` and `texdp3 tM, tN`: coordinate set M ·
    /// tN, replicated; `texdp3tex` samples stage M at (that, 0, 0).
    fn texdp3(&mut self, op: &Op, m: u16) -> Result<Expr, LowerError> {
        let t = self.tn(op)?;
        let c = self.coords(m);
        let d = self.dot3(c, t);
        if op.opcode() != Opcode::TexDp3Tex {
            return Ok(self.splat_expr(d));
        }
        let zero = self.fconst(0.0, Width::Scalar);
        let v = self.vec4_of([d, zero, zero]);
        self.sample_stage(m, v)
    }

    /// `texm3x2tex tM, tN`: stage M sampled at (the pad's row, coordinate set M · tN).
    fn texm3x2(&mut self, op: &Op, m: u16) -> Result<Expr, LowerError> {
        let t = self.tn(op)?;
        let c = self.coords(m);
        let last = self.dot3(c, t);
        let u = self.row(m, 1)?;
        let zero = self.fconst(0.0, Width::Scalar);
        let v = self.vec4_of([u, last, zero]);
        self.sample_stage(m, v)
    }

    /// `texm3x2depth tM, tN`: depth = (w == 0) ? 1 : u / w, u the pad's row and w = coordinate
    /// set M · tN.
    fn texm3x2depth(&mut self, op: &Op, m: u16) -> Result<(), LowerError> {
        let t = self.tn(op)?;
        let c = self.coords(m);
        let last = self.dot3(c, t);
        let u = self.row(m, 1)?;
        let zero = self.fconst(0.0, Width::Scalar);
        let one = self.fconst(1.0, Width::Scalar);
        let is0 = self.bin(B::Equal, last, zero);
        let q = self.bin(B::Divide, u, last);
        let d = self.fb.expr(Expression::Select { condition: is0, accept: one, reject: q });
        self.write_depth(d)
    }

    /// `texm3x3 tM, tN` and the instructions built on its product n = (row M−2, row M−1,
    /// coordinate set M · tN): texm3x3 writes (n, 1), texm3x3tex samples stage M at n, and
    /// texm3x3spec/texm3x3vspec at the eye vector reflected about n.
    fn texm3x3(&mut self, op: &Op, m: u16) -> Result<Expr, LowerError> {
        let t = self.tn(op)?;
        let c = self.coords(m);
        let r2 = self.dot3(c, t);
        let r0 = self.row(m, 2)?;
        let r1 = self.row(m, 1)?;
        let n = self.vec4_of([r0, r1, r2]);
        match op.opcode() {
            Opcode::TexM3x3 => {
                let one = self.fconst(1.0, Width::Scalar);
                Ok(self.compose4([r0, r1, r2, one]))
            }
            Opcode::TexM3x3Tex => self.sample_stage(m, n),
            _ => self.texm3x3_reflection(op, m, n),
        }
    }

    /// texm3x3spec (eye vector in source 1) and texm3x3vspec (eye vector in the w of the three
    /// coordinate sets): stage M sampled at R = 2·n·(n·E)/(n·n) − E.
    fn texm3x3_reflection(&mut self, op: &Op, m: u16, n: Expr) -> Result<Expr, LowerError> {
        let eye = if op.opcode() == Opcode::TexM3x3Spec {
            self.src(&op.src(1))?
        } else {
            let mut w = [self.fconst(0.0, Width::Scalar); 3];
            for (k, slot) in w.iter_mut().enumerate() {
                let set = m.checked_sub(2 - k as u16).ok_or_else(|| self.invalid("texm3x3vspec needs its pads"))?;
                let cs = self.coords(set);
                *slot = self.component(cs, 3);
            }
            self.vec4_of(w)
        };
        // A zero normal gives NaN: D3D9 leaves the texel of a NaN or zero direction undefined
        // (the driver picks a face).
        let ne = self.dot3(n, eye);
        let nn = self.dot3(n, n);
        let two = self.fconst(2.0, Width::Scalar);
        let k = self.fmul(two, ne, Width::Scalar);
        let k = self.bin(B::Divide, k, nn);
        let ks = self.splat_expr(k);
        let scaled = self.fmul(n, ks, Width::Vec4);
        let r = self.bin(B::Subtract, scaled, eye);
        self.sample_stage(m, r)
    }

    /// ps_1_4 `texdepth rM`: depth = r.r / r.g, 1 when r.g = 0.
    fn texdepth(&mut self, m: u16) -> Result<(), LowerError> {
        let v = self.reg(RegisterType::Temp, m)?;
        let (r, g) = (self.component(v, 0), self.component(v, 1));
        let zero = self.fconst(0.0, Width::Scalar);
        let one = self.fconst(1.0, Width::Scalar);
        let is0 = self.bin(B::Equal, g, zero);
        let q = self.bin(B::Divide, r, g);
        let d = self.fb.expr(Expression::Select { condition: is0, accept: one, reject: q });
        self.write_depth(d)
    }

    /// (u, v) + bump-env matrix of stage `m` × (du, dv): u' = u + M00·du + M10·dv,
    /// v' = v + M01·du + M11·dv; z and w pass through.
    fn bump(&mut self, m: u16, uv: Expr, d: Expr) -> Result<Expr, LowerError> {
        let env = self.render_state(rs::BUMP_ENV)?;
        let mat = self.component(env, usize::from(m.min(7)));
        let (m00, m01, m10, m11) =
            (self.component(mat, 0), self.component(mat, 1), self.component(mat, 2), self.component(mat, 3));
        let (du, dv) = (self.component(d, 0), self.component(d, 1));
        let (u, v) = (self.component(uv, 0), self.component(uv, 1));
        let a = self.fmul(m00, du, Width::Scalar);
        let b = self.fmul(m10, dv, Width::Scalar);
        let u1 = self.bin(B::Add, u, a);
        let u2 = self.bin(B::Add, u1, b);
        let a = self.fmul(m01, du, Width::Scalar);
        let b = self.fmul(m11, dv, Width::Scalar);
        let v1 = self.bin(B::Add, v, a);
        let v2 = self.bin(B::Add, v1, b);
        let (z, w) = (self.component(uv, 2), self.component(uv, 3));
        Ok(self.compose4([u2, v2, z, w]))
    }
}
