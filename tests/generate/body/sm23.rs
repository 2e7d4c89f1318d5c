//! Shader Model 2 and 3 features beyond plain arithmetic: `texkill`, `texldd`/`texldl` in pixel
//! shaders, `vPos`/`vFace`, predicated `if`/`breakp`/`callnz`, `v[aL]`/`o[aL]`, `oDepth` and
//! several colour outputs.

use d3d9_shader::bytecode::{
    Opcode, Register, RegisterType as T, RelAddr, ResultModifiers, SrcParam, Swizzle, TextureType, Usage,
};

use super::{dst, inst, konst, src, temp, Builder};

/// `vPos` and `vFace` within the misc register file.
const VPOS: u16 = 0;
const VFACE: u16 = 1;

impl Builder {
    /// ps_3_0: declares `vPos.xy` and `vFace` (read by [`Builder::misc_read`]).
    pub(super) fn declare_misc(&mut self) {
        self.dcl(Register::new(T::MiscType, VPOS), 0x3, Usage::Position, 0, TextureType::Unknown);
        self.dcl(Register::new(T::MiscType, VFACE), 0xF, Usage::Position, 0, TextureType::Unknown);
    }

    /// ps_3_0: a read of the pixel position (`vPos.xy`, integer pixel coordinates) or of the
    /// face sign (`vFace`, through `cmp`).
    pub(super) fn misc_read(&mut self) {
        let mask = self.random_mask();
        if self.rng.chance(50) {
            let sw = self.rng.pick(&[Swizzle::replicate(0), Swizzle::replicate(1), Swizzle(0x54), Swizzle(0x44)]);
            let pos = SrcParam { swizzle: sw, ..src(Register::new(T::MiscType, VPOS)) };
            let other = self.operand();
            let d = self.result(mask, &[other]);
            let op = self.rng.pick(&[Opcode::Mov, Opcode::Add, Opcode::Mul]);
            let operands = if op == Opcode::Mov { vec![pos] } else { vec![pos, other] };
            self.push(inst(op, Some(d), &operands));
        } else {
            let face = src(Register::new(T::MiscType, VFACE));
            let (a, b) = (self.operand(), self.operand());
            let d = self.result(mask, &[a, b]);
            self.push(inst(Opcode::Cmp, Some(d), &[face, a, b]));
        }
    }

    /// Pixel shaders from 2.0: `texkill` on a temporary (any of .xyz below zero kills).
    pub(super) fn texkill(&mut self) {
        let r = self.any_temp();
        self.push(inst(Opcode::TexKill, Some(dst(r.reg, 0xF)), &[]));
    }

    /// `texldd` (ps_2_x, ps_3_0) and `texldl` (ps_3_0): explicit gradients and level.
    pub(super) fn explicit_texture(&mut self) {
        let (s, _) = self.rng.pick(&self.out.samplers);
        let sampler = src(Register::new(T::Sampler, s));
        let coords = self.any_temp();
        let d = dst(temp(self.rng.below(self.temps as u32) as u16), 0xF);
        if self.p.version.major == 3 && self.rng.chance(50) {
            self.push(inst(Opcode::TexLdl, Some(d), &[coords, sampler]));
        } else {
            let (ddx, ddy) = (self.any_temp(), self.any_temp());
            self.push(inst(Opcode::TexLdd, Some(d), &[coords, sampler, ddx, ddy]));
        }
    }

    /// `setp` then `if p0.c` … `endif` (2_x and 3.0).
    pub(super) fn predicate_if(&mut self, depth: u32) {
        self.set_predicate();
        let c = self.rng.below(4) as u8;
        let mut p = SrcParam { swizzle: Swizzle::replicate(c), ..src(Register::new(T::Predicate, 0)) };
        if self.rng.chance(30) {
            p.modifier = d3d9_shader::bytecode::SrcModifier::Not;
        }
        self.push(inst(Opcode::If, None, &[p]));
        self.dynamic_depth += 1;
        self.block(depth + 1);
        self.dynamic_depth -= 1;
        self.push(inst(Opcode::EndIf, None, &[]));
    }

    /// `breakp p0.c` inside a loop.
    pub(super) fn predicate_break(&mut self) {
        self.set_predicate();
        let p =
            SrcParam { swizzle: Swizzle::replicate(self.rng.below(4) as u8), ..src(Register::new(T::Predicate, 0)) };
        self.push(inst(Opcode::BreakP, None, &[p]));
    }

    pub(super) fn set_predicate(&mut self) {
        let (a, b) = (self.operand(), self.operand());
        let mask = if self.rng.chance(60) { 0xF } else { 1 + self.rng.below(15) as u8 };
        let p0 = Register::new(T::Predicate, 0);
        let mut setp = inst(Opcode::Setp, Some(dst(p0, 0xF)), &[a, b]);
        if mask != 0xF && self.predicate_defined {
            setp.dst = Some(dst(p0, mask));
        }
        setp.control = self.rng.pick(&d3d9_shader::bytecode::Comparison::ALL) as u8;
        self.push(setp);
        self.predicate_defined = true;
    }

    /// Inside `loop aL`: a read of `v[aL + n]` (ps_3_0) or a write of `o[aL + n]` (vs_3_0)
    /// that stays within the declared registers for every `aL` the loop gives.
    pub(super) fn loop_relative_io(&mut self) {
        let Some((lo, hi)) = self.al_range else { return };
        let rel = RelAddr { reg: Register::new(T::Loop, 0), swizzle: Swizzle::replicate(0), implicit: false };
        if self.p.pixel() {
            let inputs = self.input_regs.iter().filter(|r| r.ty == T::Input).count() as i32;
            if lo < 0 || hi >= inputs {
                return;
            }
            let base = self.rng.below((inputs - hi) as u32) as u16;
            let s = SrcParam { relative: Some(rel), ..src(Register::new(T::Input, base)) };
            let other = self.operand();
            let mask = self.random_mask();
            let d = self.result(mask, &[other]);
            self.push(inst(Opcode::Add, Some(d), &[s, other]));
        } else {
            // o1, o2 hold colour and texcoord; o0 (position) is left alone.
            if lo < 0 || hi > 1 {
                return;
            }
            let base = 1 + self.rng.below((2 - hi) as u32) as u16;
            let mut d = dst(Register::new(T::Output, base), 0xF);
            d.relative = Some(rel);
            let s = self.any_temp();
            self.push(inst(Opcode::Mov, Some(d), &[s]));
        }
    }

    /// Pixel shaders from 2.0: `oDepth` (saturated, so that it stays a depth) and `oC1..oC3`.
    pub(super) fn extra_outputs(&mut self) {
        if self.rng.chance(20) {
            let s = SrcParam { swizzle: Swizzle::replicate(self.rng.below(4) as u8), ..self.any_temp() };
            let mut d = dst(Register::new(T::DepthOut, 0), 0xF);
            d.modifiers = ResultModifiers(ResultModifiers::SATURATE);
            self.push(inst(Opcode::Mov, Some(d), &[s]));
        }
        if self.rng.chance(30) {
            for n in 1..=self.rng.below(3) as u16 + 1 {
                let s = if self.rng.chance(50) { self.any_temp() } else { src(konst(self.rng.below(8) as u16)) };
                self.push(inst(Opcode::Mov, Some(dst(Register::new(T::ColorOut, n), 0xF)), &[s]));
            }
        }
    }
}
