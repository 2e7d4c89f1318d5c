//! The arithmetic instructions of a random body: an opcode the profile has, its operands and
//! write mask within the forms the D3D9 pages allow.

use d3d9_shader::bytecode::{Instruction, Opcode, RegisterType as T, ResultModifiers, SrcModifier, SrcParam, Swizzle};

use super::{inst, konst, src, temp, Builder, MATRIX_BASE, SINCOS1, SINCOS2, SINCOS_ARG};

impl Builder {
    pub(super) fn arithmetic(&mut self) -> Instruction {
        let mut i = self.any_arithmetic();
        if !self.p.pixel() && matches!(i.opcode, Opcode::Frc | Opcode::SinCos) {
            // Vertex shaders refuse _sat on frc and sincos (vertex shader instruction modifiers).
            if let Some(d) = i.dst.as_mut() {
                d.modifiers = ResultModifiers::default();
            }
        }
        i
    }

    /// The opcodes the body may pick from: the profile's arithmetic, and the derivatives in
    /// ps_2_x and later outside dynamic flow control and loops.
    fn arithmetic_opcodes(&self) -> Vec<Opcode> {
        use Opcode::*;
        let p = &self.p;
        let mut ops: Vec<Opcode> = [Mov, Add, Sub, Mad, Mul, Dp3, Dp4, Min, Max, Slt, Sge, Lrp, Cmp, Cnd, Dp2Add, Abs]
            .into_iter()
            .filter(|&op| p.has(op))
            .collect();
        for op in [Rcp, Rsq, Exp, Log, Frc, Pow, Nrm, Crs, Lit, Dst, SinCos, Sgn, M4x4, M3x3, M3x2, ExpP, LogP] {
            if p.has(op) {
                ops.push(op);
            }
        }
        if p.pixel() && p.version.at_least(2, 1) && self.dynamic_depth == 0 && self.loop_depth == 0 {
            ops.extend([Dsx, Dsy]);
        }
        ops
    }

    fn any_arithmetic(&mut self) -> Instruction {
        use Opcode::*;
        let p = self.p.clone();
        let ps1 = p.sm1() && p.pixel();
        let ops = self.arithmetic_opcodes();
        let op = self.rng.pick(&ops);
        match op {
            Rcp | Rsq | Exp | Log | ExpP | LogP => {
                let s = self.scalar_operand();
                let mask = if p.sm1() && !p.pixel() && matches!(op, ExpP | LogP) { 0xF } else { self.random_mask() };
                inst(op, Some(self.result(mask, &[])), &[s])
            }
            Pow => {
                let (a, b) = (self.scalar_operand(), self.scalar_operand());
                let mask = self.random_mask();
                let d = self.result(mask, &[a, b]);
                inst(op, Some(d), &[a, b])
            }
            Frc => {
                let s = self.operand();
                let mask = if p.sm1() { self.rng.pick(&[0x2, 0x3]) } else { self.random_mask() };
                inst(op, Some(self.result(mask, &[s])), &[s])
            }
            Nrm => {
                let s = self.operand();
                let mask = if p.pixel() { 0x7 } else { 0xF };
                inst(op, Some(self.result(mask, &[s])), &[s])
            }
            Crs => self.cross_product(),
            Lit | Dst => {
                let s: Vec<SrcParam> = (0..if op == Lit { 1 } else { 2 }).map(|_| self.operand()).collect();
                let d = self.result(0xF, &s);
                inst(op, Some(d), &s)
            }
            SinCos => self.sincos(),
            Sgn => self.sign(),
            M4x4 | M3x3 | M3x2 => self.matrix_product(op),
            Cnd if ps1 && p.version.minor < 4 => {
                let r0a = SrcParam { swizzle: Swizzle::replicate(3), ..src(temp(0)) };
                let (a, b) = (self.operand(), self.operand());
                let mask = self.random_mask();
                let d = self.result(mask, &[]);
                inst(op, Some(d), &[r0a, a, b])
            }
            Dp2Add => {
                let (a, b, c) = (self.operand(), self.operand(), self.scalar_operand());
                let mask = self.random_mask();
                inst(op, Some(self.result(mask, &[])), &[a, b, c])
            }
            Dsx | Dsy => {
                let s = self.operand();
                let mask = self.random_mask();
                inst(op, Some(self.result(mask, &[])), &[s])
            }
            _ => self.plain_arithmetic(op),
        }
    }

    /// `crs`: no swizzle and no source modifier (the crs page), xyz written.
    fn cross_product(&mut self) -> Instruction {
        let (a, b) = (self.operand(), self.operand());
        let (a, b) = (SrcParam { swizzle: Swizzle::IDENTITY, ..a }, SrcParam { swizzle: Swizzle::IDENTITY, ..b });
        let a = SrcParam { modifier: SrcModifier::None, ..a };
        let b = SrcParam { modifier: SrcModifier::None, ..b };
        let d = self.result(0x7, &[a, b]);
        inst(Opcode::Crs, Some(d), &[a, b])
    }

    /// `sincos` of an angle in [−π, π] (c9), no result modifier; SM2 adds its two constants.
    fn sincos(&mut self) -> Instruction {
        let mut s = SrcParam { swizzle: Swizzle::replicate(self.rng.below(4) as u8), ..src(konst(SINCOS_ARG)) };
        if self.rng.chance(30) {
            s.modifier = SrcModifier::Neg;
        }
        let mask = self.rng.pick(&[1, 2, 3]);
        let mut d = self.result(mask, &[s]);
        d.modifiers = ResultModifiers::default();
        if self.p.version.major == 2 {
            inst(Opcode::SinCos, Some(d), &[s, src(konst(SINCOS1)), src(konst(SINCOS2))])
        } else {
            inst(Opcode::SinCos, Some(d), &[s])
        }
    }

    /// `sgn`: vs_2_x takes two scratch temporaries, distinct from the others (a `mov` where
    /// there are not two).
    fn sign(&mut self) -> Instruction {
        let s = self.operand();
        let mask = self.random_mask();
        let d = self.result(mask, &[s]);
        if self.p.version.major != 2 {
            return inst(Opcode::Sgn, Some(d), &[s]);
        }
        let scratch: Vec<u16> =
            (0..self.temps).filter(|&t| t != d.reg.num && !(s.reg.ty == T::Temp && s.reg.num == t)).take(2).collect();
        if scratch.len() < 2 {
            return inst(Opcode::Mov, Some(d), &[s]);
        }
        inst(Opcode::Sgn, Some(d), &[s, src(temp(scratch[0])), src(temp(scratch[1]))])
    }

    /// The matrix macros over the four constants from `MATRIX_BASE`, their rows written.
    fn matrix_product(&mut self, op: Opcode) -> Instruction {
        let v = SrcParam { swizzle: Swizzle::IDENTITY, ..self.operand() };
        let m = src(konst(MATRIX_BASE));
        let mask = match op {
            Opcode::M4x4 => 0xF,
            Opcode::M3x3 => 0x7,
            _ => 0x3,
        };
        let d = self.result(mask, &[v]);
        inst(op, Some(d), &[v, m])
    }

    /// An instruction of the opcode table's source count, SM1's read-port limit applied.
    fn plain_arithmetic(&mut self, op: Opcode) -> Instruction {
        let n = op.form(self.p.version).map_or(1, |f| f.shape.srcs as usize);
        let mut s: Vec<SrcParam> = (0..n).map(|_| self.operand()).collect();
        if self.p.sm1() {
            self.limit_read_ports(&mut s);
        }
        let mask = self.random_mask();
        let d = self.result(mask, &s);
        inst(op, Some(d), &s)
    }
}
