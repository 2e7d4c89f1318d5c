//! Pixel Shader 1.x: the texture-address block (ps_1_1–1_3), the two phases of ps_1_4, and
//! co-issued instruction pairs.
//!
//! The rules kept here are the ones that make a value undefined, so that GPU and CPU need not
//! agree on it: a `texm3x2pad`/`texm3x3pad` register holds no readable value, a register read by
//! `texbem`/`texbeml` cannot be read again (ps_1_1–1_3), `texkill`, `texm3x2depth` and
//! `texdepth` leave their register unwritten, and `texcrd` leaves `.w` undefined.

use d3d9_shader::bytecode::{
    Instruction, Opcode, Register, RegisterType as T, SrcModifier, SrcParam, Swizzle, TextureType,
};

use super::{dst, inst, konst, src, temp, Builder};

/// What a stage's texture must be for the instruction that samples it.
fn stage_type(op: Opcode) -> TextureType {
    match op {
        Opcode::TexM3x3Tex | Opcode::TexM3x3Spec | Opcode::TexM3x3VSpec => TextureType::Cube,
        _ => TextureType::Tex2D,
    }
}

/// The ps_1_1–1_3 texture-address instructions open to the next stage (`left` stages remain,
/// `have_sources` when an earlier stage holds a value to read), `tex` weighted double.
fn ps11_choices(minor: u8, have_sources: bool, left: u16) -> Vec<&'static str> {
    let mut choices = vec!["tex", "tex", "texcoord", "texkill", "none"];
    if !have_sources {
        return choices;
    }
    choices.extend(["texbem", "texbeml", "texreg2ar", "texreg2gb"]);
    if minor >= 2 {
        choices.extend(["texreg2rgb", "texdp3tex", "texdp3"]);
    }
    if left >= 2 {
        choices.extend(["texm3x2tex", "texm3x2tex"]);
        if minor >= 3 {
            choices.push("texm3x2depth");
        }
    }
    if left >= 3 {
        choices.extend(["texm3x3tex", "texm3x3spec", "texm3x3vspec"]);
        if minor >= 2 {
            choices.push("texm3x3");
        }
    }
    choices
}

impl Builder {
    /// ps_1_1–1_3: one texture instruction (or none) per stage t0..t3, in order; every `t#`
    /// that holds a defined value afterwards becomes readable by the arithmetic.
    pub(super) fn ps11_texture_block(&mut self) {
        let minor = self.p.version.minor;
        let mut types = [TextureType::Tex2D; 4];
        // Registers a texture-address instruction may take as its source.
        let mut sources: Vec<u16> = Vec::new();
        let mut n = 0u16;
        while n < 4 {
            let left = 4 - n;
            let t = |k: u16| Register::new(T::Texture, k);
            let choice = self.rng.pick(&ps11_choices(minor, !sources.is_empty(), left));
            let from = if sources.is_empty() { 0 } else { self.rng.pick(&sources) };
            // _bx2 on the source: texm* take it in ps_1_1, the others from ps_1_2.
            let bx2 = |b: &mut Builder, matrix: bool| {
                let mut s = src(t(from));
                if (matrix || minor >= 2) && b.rng.chance(30) {
                    s.modifier = SrcModifier::Sign;
                }
                s
            };
            match choice {
                "tex" | "texcoord" => {
                    let op = if choice == "tex" { Opcode::Tex } else { Opcode::TexCoord };
                    self.push(inst(op, Some(dst(t(n), 0xF)), &[]));
                    sources.push(n);
                    self.input_regs.push(t(n));
                    n += 1;
                }
                "texkill" => {
                    // Kills on the stage's texture coordinates; t# stays unwritten.
                    self.push(inst(Opcode::TexKill, Some(dst(t(n), 0xF)), &[]));
                    n += 1;
                }
                "none" => n += 1,
                "texbem" | "texbeml" | "texreg2ar" | "texreg2gb" | "texreg2rgb" | "texdp3tex" | "texdp3" => {
                    let op = match choice {
                        "texbem" => Opcode::TexBem,
                        "texbeml" => Opcode::TexBemL,
                        "texreg2ar" => Opcode::TexReg2Ar,
                        "texreg2gb" => Opcode::TexReg2Gb,
                        "texreg2rgb" => Opcode::TexReg2Rgb,
                        "texdp3tex" => Opcode::TexDp3Tex,
                        _ => Opcode::TexDp3,
                    };
                    let s = bx2(self, false);
                    self.push(inst(op, Some(dst(t(n), 0xF)), &[s]));
                    if matches!(op, Opcode::TexBem | Opcode::TexBemL) {
                        // Data read by texbem/texbeml cannot be read again (except by texbem).
                        sources.retain(|&k| k != from);
                        self.input_regs.retain(|r| *r != t(from));
                        self.bump_stages.push(n);
                    }
                    types[n as usize] = stage_type(op);
                    sources.push(n);
                    self.input_regs.push(t(n));
                    n += 1;
                }
                "texm3x2tex" | "texm3x2depth" => {
                    let s = bx2(self, true);
                    self.ps11_matrix3x2(choice, n, s, &mut sources);
                    n += 2;
                }
                _ => {
                    let s = bx2(self, true);
                    let op = self.ps11_matrix3x3(choice, n, s, &mut sources);
                    types[n as usize + 2] = stage_type(op);
                    n += 3;
                }
            }
        }
        self.out.samplers = (0..4).map(|s| (s, types[s as usize])).collect();
    }

    /// ps_1_1–1_3: `texm3x2pad` on stage `n` then `choice` (`texm3x2tex` or `texm3x2depth`) on
    /// stage `n + 1`, both from source `s`. A `texm3x2tex` result becomes a source and readable;
    /// `texm3x2depth` writes depth and leaves its register unwritten.
    fn ps11_matrix3x2(&mut self, choice: &str, n: u16, s: SrcParam, sources: &mut Vec<u16>) {
        let t = |k: u16| Register::new(T::Texture, k);
        self.push(inst(Opcode::TexM3x2Pad, Some(dst(t(n), 0xF)), &[s]));
        let op = if choice == "texm3x2tex" { Opcode::TexM3x2Tex } else { Opcode::TexM3x2Depth };
        self.push(inst(op, Some(dst(t(n + 1), 0xF)), &[s]));
        if op == Opcode::TexM3x2Tex {
            sources.push(n + 1);
            self.input_regs.push(t(n + 1));
        } else {
            self.writes_depth = true;
        }
    }

    /// ps_1_1–1_3: two `texm3x3pad` on stages `n` and `n + 1`, then the `texm3x3*` instruction
    /// `choice` (`texm3x3spec` with a constant eye vector) on stage `n + 2`, all from source `s`;
    /// its result becomes a source and readable. Returns the opcode, for its stage's texture type.
    fn ps11_matrix3x3(&mut self, choice: &str, n: u16, s: SrcParam, sources: &mut Vec<u16>) -> Opcode {
        let t = |k: u16| Register::new(T::Texture, k);
        self.push(inst(Opcode::TexM3x3Pad, Some(dst(t(n), 0xF)), &[s]));
        self.push(inst(Opcode::TexM3x3Pad, Some(dst(t(n + 1), 0xF)), &[s]));
        let (op, extra) = match choice {
            "texm3x3tex" => (Opcode::TexM3x3Tex, None),
            "texm3x3spec" => (Opcode::TexM3x3Spec, Some(src(konst(self.rng.below(8) as u16)))),
            "texm3x3vspec" => (Opcode::TexM3x3VSpec, None),
            _ => (Opcode::TexM3x3, None),
        };
        let mut operands = vec![s];
        operands.extend(extra);
        self.push(inst(op, Some(dst(t(n + 2), 0xF)), &operands));
        sources.push(n + 2);
        self.input_regs.push(t(n + 2));
        op
    }

    /// ps_1_4: an optional first phase (texld/texcrd from t#, constants moved into registers,
    /// perhaps a `bem`), `phase`, then texld r0..r3 whose coordinates are t# or registers of the
    /// first phase (dependent reads), perhaps `texkill` and `texdepth`. The arithmetic after it
    /// rewrites every other register in full, so that no value crosses the phase boundary
    /// except through texture coordinates.
    pub(super) fn ps14_phases(&mut self) {
        let t = |k: u16| Register::new(T::Texture, k);
        // Registers of the first phase with defined .xyz, usable as coordinates.
        let mut coords: Vec<u16> = Vec::new();
        let mut r5_defined = false;
        if self.rng.chance(50) {
            for n in 0..1 + self.rng.below(3) as u16 {
                let from = self.rng.below(4) as u16;
                if self.rng.chance(50) {
                    self.push(inst(Opcode::Tex, Some(dst(temp(n), 0xF)), &[src(t(from))]));
                } else {
                    self.push(inst(Opcode::TexCoord, Some(dst(temp(n), 0x7)), &[src(t(from))]));
                }
                coords.push(n);
            }
            // Constants in the other registers: a coordinate source too.
            let k = 3 + self.rng.below(3) as u16;
            let c = konst(self.rng.below(8) as u16);
            self.push(inst(Opcode::Mov, Some(dst(temp(k), 0xF)), &[src(c)]));
            coords.push(k);
            r5_defined = k == 5;
            if coords.len() >= 2 && self.rng.chance(40) {
                // bem: dst.rg = src0.rg + bump matrix × src1.rg (stage of dst).
                let d = self.rng.pick(&coords[..coords.len() - 1]);
                let (a, b) = (self.rng.pick(&coords), self.rng.pick(&coords));
                self.push(inst(Opcode::Bem, Some(dst(temp(d), 0x3)), &[src(temp(a)), src(temp(b))]));
                self.bump_stages.push(d);
            }
            self.push(Instruction::new(Opcode::Phase));
        }
        for n in 0..4u16 {
            let coordinates = if !coords.is_empty() && self.rng.chance(40) {
                let r = self.rng.pick(&coords);
                src(temp(r))
            } else {
                let mut s = src(t(self.rng.below(4) as u16));
                if self.rng.chance(15) {
                    s.modifier = self.rng.pick(&[SrcModifier::Dz, SrcModifier::Dw]);
                    if s.modifier == SrcModifier::Dz {
                        s.swizzle = Swizzle(0xA4); // .xyz: _dz divides by z
                    }
                }
                s
            };
            self.push(inst(Opcode::Tex, Some(dst(temp(n), 0xF)), &[coordinates]));
        }
        if self.rng.chance(20) {
            let k = Register::new(T::Texture, self.rng.below(4) as u16);
            self.push(inst(Opcode::TexKill, Some(dst(k, 0xF)), &[]));
        }
        if r5_defined && self.rng.chance(50) {
            self.push(inst(Opcode::TexDepth, Some(dst(temp(5), 0xF)), &[]));
            self.writes_depth = true;
        }
    }

    /// ps_1_x: a co-issued pair, one writing .rgb and the other .a (either order); both read
    /// their sources before either writes.
    pub(super) fn coissue_pair(&mut self) {
        use Opcode::*;
        let ops: Vec<Opcode> = [Mov, Add, Sub, Mul, Mad, Lrp, Cmp].into_iter().filter(|&op| self.p.has(op)).collect();
        let masks = if self.rng.chance(50) { [0x7, 0x8] } else { [0x8, 0x7] };
        for (k, mask) in masks.into_iter().enumerate() {
            let op = self.rng.pick(&ops);
            let n = op.form(self.p.version).map_or(1, |f| f.shape.srcs as usize);
            let mut s: Vec<SrcParam> = (0..n).map(|_| self.operand()).collect();
            self.limit_read_ports(&mut s);
            let d = self.result(mask, &s);
            let mut i = inst(op, Some(d), &s);
            i.coissue = k == 1;
            self.push(i);
        }
    }
}
