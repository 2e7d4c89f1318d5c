//! Shader Model 1 pixel shaders on the same lowering: the texture-addressing instructions of
//! ps_1_0–ps_1_3 (docs/opcodes.md#ps1x-texture-ops), ps_1_4's texld/texcrd/bem/texdepth, and co-issue.
//!
//! In ps_1_0–1_3, `t n` is both the texture coordinate set n (seeded at entry) and a writable
//! register; the instructions sample stage n where n is the destination's number. The
//! `texm3x2pad`/`texm3x3pad` rows are kept in the pad's destination register (replicated): D3D9
//! makes that register unreadable afterwards, so nothing observes the difference.

use naga::{BinaryOperator as B, Expression};

use super::constants::rs;
use super::modifiers::Width;
use super::registers::Expr;
use super::textures::Level;
use super::{LowerError, Lowerer};
use crate::bytecode::{Instruction, Opcode, Register, RegisterType, WriteMask};

impl Lowerer<'_> {
    /// The interpolated coordinates of set `n` (the value `t n` held at entry), projected when
    /// the key says so: divided by the last counted component (D3DTTFF_PROJECTED with COUNTn).
    fn coords(&mut self, n: u16) -> Expr {
        let v = match self.texcoords.get(&n) {
            Some(&v) => v,
            None => self.splat(0.0),
        };
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

    /// Lowers a Shader Model 1 pixel texture instruction.
    pub fn sm1_texture_op(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        use Opcode as O;
        let dst = self.dst(inst)?;
        let m = dst.reg.num;
        let ps14 = self.version.minor >= 4;
        // The second operand (tN) as a plain register value.
        let tn = |l: &mut Self| -> Result<Expr, LowerError> {
            let s = *inst.src.get(0).ok_or_else(|| l.invalid("missing source"))?;
            l.src(&s)
        };
        let value = match inst.opcode {
            O::Tex if ps14 => {
                let c = tn(self)?;
                self.sample_stage(m, c)?
            }
            O::Tex => {
                let c = self.coords(m);
                self.sample_stage(m, c)?
            }
            O::TexCoord if ps14 => tn(self)?,
            O::TexCoord => {
                // (sat(u), sat(v), sat(w), 1).
                let c = self.coords(m);
                let s = self.saturate(c, Width::Vec4);
                let (x, y, z) = (self.component(s, 0), self.component(s, 1), self.component(s, 2));
                let one = self.fconst(1.0, Width::Scalar);
                self.compose4([x, y, z, one])
            }
            O::TexBem | O::TexBemL => {
                let t = tn(self)?;
                let c = self.coords(m);
                let shifted = self.bump(m, c, t)?;
                let mut v = self.sample_stage(m, shifted)?;
                if inst.opcode == O::TexBemL {
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
                    v = self.fmul(v, scale, Width::Vec4);
                }
                v
            }
            O::Bem => {
                let a = self.src_n(inst, 0)?;
                let b = self.src_n(inst, 1)?;
                let v = self.bump(m, a, b)?;
                return self.write_masked(inst, dst, WriteMask(dst.mask.0 & 0b0011), v);
            }
            O::TexReg2Ar | O::TexReg2Gb | O::TexReg2Rgb => {
                let t = tn(self)?;
                use crate::bytecode::Swizzle as S;
                let sw = match inst.opcode {
                    O::TexReg2Ar => S::new(3, 0, 0, 0),
                    O::TexReg2Gb => S::new(1, 2, 2, 2),
                    _ => S::new(0, 1, 2, 2),
                };
                let c = self.swizzle(t, sw);
                self.sample_stage(m, c)?
            }
            O::TexM3x2Pad | O::TexM3x3Pad => {
                let t = tn(self)?;
                let c = self.coords(m);
                let d = self.dot3(c, t);
                self.splat_expr(d)
            }
            O::TexDp3 => {
                let t = tn(self)?;
                let c = self.coords(m);
                let d = self.dot3(c, t);
                self.splat_expr(d)
            }
            O::TexDp3Tex => {
                let t = tn(self)?;
                let c = self.coords(m);
                let d = self.dot3(c, t);
                let zero = self.fconst(0.0, Width::Scalar);
                let v = self.vec4_of([d, zero, zero]);
                self.sample_stage(m, v)?
            }
            O::TexM3x2Tex | O::TexM3x2Depth => {
                let t = tn(self)?;
                let c = self.coords(m);
                let last = self.dot3(c, t);
                let u = self.row(m, 1)?;
                if inst.opcode == O::TexM3x2Depth {
                    // depth = (w == 0) ? 1 : u / w.
                    let zero = self.fconst(0.0, Width::Scalar);
                    let one = self.fconst(1.0, Width::Scalar);
                    let is0 = self.bin(B::Equal, last, zero);
                    let q = self.bin(B::Divide, u, last);
                    let d = self.fb.expr(Expression::Select { condition: is0, accept: one, reject: q });
                    return self.write_depth(d);
                }
                let zero = self.fconst(0.0, Width::Scalar);
                let v = self.vec4_of([u, last, zero]);
                self.sample_stage(m, v)?
            }
            O::TexM3x3Tex | O::TexM3x3 | O::TexM3x3Spec | O::TexM3x3VSpec => {
                let t = tn(self)?;
                let c = self.coords(m);
                let r2 = self.dot3(c, t);
                let r0 = self.row(m, 2)?;
                let r1 = self.row(m, 1)?;
                let n = self.vec4_of([r0, r1, r2]);
                match inst.opcode {
                    O::TexM3x3 => {
                        let one = self.fconst(1.0, Width::Scalar);
                        self.compose4([r0, r1, r2, one])
                    }
                    O::TexM3x3Tex => self.sample_stage(m, n)?,
                    _ => {
                        let eye = if inst.opcode == O::TexM3x3Spec {
                            let s = *inst.src.get(1).ok_or_else(|| self.invalid("missing eye constant"))?;
                            self.src(&s)?
                        } else {
                            let mut w = [self.fconst(0.0, Width::Scalar); 3];
                            for (k, slot) in w.iter_mut().enumerate() {
                                let set = m
                                    .checked_sub(2 - k as u16)
                                    .ok_or_else(|| self.invalid("texm3x3vspec needs its pads"))?;
                                let cs = self.coords(set);
                                *slot = self.component(cs, 3);
                            }
                            self.vec4_of(w)
                        };
                        // R = 2·n·(n·E)/(n·n) − E. A zero normal gives NaN: D3D9 leaves the
                        // texel of a NaN or zero direction undefined (the driver picks a face).
                        let ne = self.dot3(n, eye);
                        let nn = self.dot3(n, n);
                        let two = self.fconst(2.0, Width::Scalar);
                        let k = self.fmul(two, ne, Width::Scalar);
                        let k = self.bin(B::Divide, k, nn);
                        let ks = self.splat_expr(k);
                        let scaled = self.fmul(n, ks, Width::Vec4);
                        let r = self.bin(B::Subtract, scaled, eye);
                        self.sample_stage(m, r)?
                    }
                }
            }
            O::TexDepth => {
                // depth = r5.r / r5.g, 1 when r5.g = 0.
                let v = self.reg(RegisterType::Temp, m)?;
                let (r, g) = (self.component(v, 0), self.component(v, 1));
                let zero = self.fconst(0.0, Width::Scalar);
                let one = self.fconst(1.0, Width::Scalar);
                let is0 = self.bin(B::Equal, g, zero);
                let q = self.bin(B::Divide, r, g);
                let d = self.fb.expr(Expression::Select { condition: is0, accept: one, reject: q });
                return self.write_depth(d);
            }
            other => return Err(self.unsupported(format!("{other:?} in {}", self.version))),
        };
        self.write(inst, value)
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
