//! Dot products and what is built on them: dp3, dp4, dp2add, nrm, crs (the cross product's
//! differences of products), and the m#x# matrix macros (one dot product per row, the rows in
//! consecutive registers from source 1's).

use naga::{BinaryOperator as B, MathFunction as M};

use super::operands::Op;
use super::parts::Width;
use super::{LowerError, Lowerer};
use crate::bytecode::{Matrix, Opcode, Swizzle, WriteMask};

impl Lowerer<'_> {
    /// Lowers dp3, dp4, dp2add, nrm and crs.
    pub fn dot_product(&mut self, op: &Op) -> Result<(), LowerError> {
        use Opcode as O;
        let value = match op.opcode() {
            O::Dp3 | O::Dp4 => {
                let n = if op.opcode() == O::Dp3 { 3 } else { 4 };
                let (a, b) = (self.src_lanes(&op.src(0), summed(n))?, self.src_lanes(&op.src(1), summed(n))?);
                let d = self.dot(a, b, n);
                return self.write_scalar(op, d);
            }
            O::Dp2Add => {
                let (a, b) = (self.src_lanes(&op.src(0), summed(2))?, self.src_lanes(&op.src(1), summed(2))?);
                let c = self.src_scalar_n(op, 2)?;
                let d = self.dot(a, b, 2);
                let r = self.bin(B::Add, d, c);
                return self.write_scalar(op, r);
            }
            O::Nrm => {
                let a = self.src_n(op, 0)?;
                let len2 = self.dot(a, a, 3);
                let len = self.math1(M::Sqrt, len2);
                let inv = self.rcp(len, Width::Scalar);
                let invv = self.splat_expr(inv);
                self.fmul_lanes(a, invv, Width::Vec4, op.dst().mask)
            }
            O::Crs => {
                let a = self.src_n(op, 0)?;
                return self.cross_product(op, a);
            }
            other => return Err(self.unsupported(format!("{other:?}"))),
        };
        self.write(op, value)
    }

    /// `crs d.xyz, a, b`: a.yzx · b.zxy − a.zxy · b.yzx, into x, y and z only.
    fn cross_product(&mut self, op: &Op, a: super::state::Expr) -> Result<(), LowerError> {
        let dst = op.dst();
        let b = self.src_n(op, 1)?;
        let (yzx, zxy) = (Swizzle::new(1, 2, 0, 3), Swizzle::new(2, 0, 1, 3));
        let (a1, b1) = (self.swizzle(a, yzx), self.swizzle(b, zxy));
        let (a2, b2) = (self.swizzle(a, zxy), self.swizzle(b, yzx));
        let written = WriteMask(dst.mask.0 & op.info().writes);
        let p1 = self.fmul_lanes(a1, b1, Width::Vec4, written);
        let p2 = self.fmul_lanes(a2, b2, Width::Vec4, written);
        let v = self.bin(B::Subtract, p1, p2);
        self.write_masked(op, dst, written, v)
    }

    /// `m{width}x{rows} d, a, c#`: d.k = dot_width(a, c#+k) for each row k (the shape from the
    /// opcode table); the other components are not written.
    pub fn matrix_product(&mut self, op: &Op) -> Result<(), LowerError> {
        let info = op.info();
        let Some(Matrix { width, rows }) = info.matrix else {
            return Err(self.unsupported(format!("{:?}", op.opcode())));
        };
        let dst = op.dst();
        let summed = summed(width);
        let a = self.src_lanes(&op.src(0), summed)?;
        let base = op.src(1);
        let zero = self.fconst(0.0, Width::Scalar);
        let mut out = [zero; 4];
        for (k, slot) in out.iter_mut().enumerate().take(usize::from(rows)) {
            let mut row = base;
            row.reg.num = base.reg.num.checked_add(k as u16).ok_or_else(|| self.invalid("matrix row out of range"))?;
            let r = self.src_lanes(&row, summed)?;
            *slot = self.dot(a, r, width);
        }
        let v = self.scalars4(out);
        self.write_parts(op, dst, WriteMask(dst.mask.0 & info.writes), v)
    }
}

/// The components a dot product of `n` sums: all it reads of its sources.
pub(super) fn summed(n: u8) -> WriteMask {
    WriteMask((1 << n) - 1)
}
