//! The declarations and `def`s a generated program starts with: inputs and outputs by the
//! profile, samplers, and the constants the body reads (random values, the `sincos` and matrix
//! operands, the loop counters' integer constants).

use d3d9_shader::bytecode::{Decl, Opcode, Payload, Register, RegisterType as T, TextureType, Usage};

use super::{dst, inst, konst, Builder, ADDR_CONST, CONSTS, MATRIX_BASE, RELATIVE_LIMIT, SINCOS1, SINCOS2, SINCOS_ARG};
use crate::generate::{Input, Profile};

/// The input semantics in the order a program's v# registers take them.
const SEMANTICS: [(Usage, u8); 8] = [
    (Usage::Position, 0),
    (Usage::Color, 0),
    (Usage::Normal, 0),
    (Usage::TexCoord, 0),
    (Usage::TexCoord, 1),
    (Usage::TexCoord, 2),
    (Usage::Color, 1),
    (Usage::TexCoord, 3),
];

impl Builder {
    pub(super) fn dcl(&mut self, reg: Register, mask: u8, usage: Usage, index: u8, texture: TextureType) {
        let mut i = inst(Opcode::Dcl, Some(dst(reg, mask)), &[]);
        i.payload = Payload::Dcl(Decl { usage: usage as u8, usage_index: index, texture_type: texture.raw() });
        self.push(i);
    }

    pub(super) fn declarations(&mut self) {
        let p = self.p.clone();
        if !p.pixel() {
            self.declare_vertex_io(&p);
        } else if p.sm1() {
            self.declare_ps1_inputs();
        } else if p.version.major == 2 {
            self.declare_ps2_inputs();
        } else {
            self.declare_ps3_inputs(&p);
        }
        if p.pixel() && p.version.major == 3 && self.rng.chance(50) {
            self.declare_misc();
            self.misc = true;
        }
        self.declare_samplers(&p);
    }

    /// A vertex program's inputs by [`SEMANTICS`] (the position a fixed value, the others
    /// random), and vs_3_0's outputs.
    fn declare_vertex_io(&mut self, p: &Profile) {
        for (n, &(usage, index)) in SEMANTICS.iter().take(p.inputs as usize).enumerate() {
            let reg = Register::new(T::Input, n as u16);
            self.dcl(reg, 0xF, usage, index, TextureType::Unknown);
            let value = if usage == Usage::Position { [0.0, 0.0, 0.5, 1.0] } else { self.vec4() };
            self.out.inputs.push(Input { reg, usage, usage_index: index, value });
            if usage != Usage::Position {
                self.input_regs.push(reg);
            }
        }
        if p.version.major >= 3 {
            // o0 = position, o1.. = colour/texcoords, written at the end.
            for (n, (usage, index)) in
                [(Usage::Position, 0), (Usage::Color, 0), (Usage::TexCoord, 0)].into_iter().enumerate()
            {
                self.dcl(Register::new(T::Output, n as u16), 0xF, usage, index, TextureType::Unknown);
            }
        }
    }

    /// ps_1_x's inputs, random unit vectors.
    fn declare_ps1_inputs(&mut self) {
        // ps_1_x: v0/v1 colours and t0..t3 coordinates need no declaration.
        for n in 0..2 {
            let value = self.unit_vec4();
            self.out.inputs.push(Input {
                reg: Register::new(T::Input, n),
                usage: Usage::Color,
                usage_index: n as u8,
                value,
            });
            // ps_1_4 reads v# in its last phase only: the body is there.
            self.input_regs.push(Register::new(T::Input, n));
        }
        for n in 0..4 {
            let value = self.unit_vec4();
            self.out.inputs.push(Input {
                reg: Register::new(T::Texture, n),
                usage: Usage::TexCoord,
                usage_index: n as u8,
                value,
            });
        }
    }

    /// ps_2_x's inputs: v0/v1 colours and t0..t3 coordinates, `texldp`-safe.
    fn declare_ps2_inputs(&mut self) {
        for n in 0..2 {
            let reg = Register::new(T::Input, n);
            self.dcl(reg, 0xF, Usage::Position, 0, TextureType::Unknown);
            let value = self.unit_vec4();
            self.out.inputs.push(Input { reg, usage: Usage::Color, usage_index: n as u8, value });
            self.input_regs.push(reg);
        }
        for n in 0..4 {
            let reg = Register::new(T::Texture, n);
            self.dcl(reg, 0xF, Usage::Position, 0, TextureType::Unknown);
            let value = self.projective_vec4();
            self.out.inputs.push(Input { reg, usage: Usage::TexCoord, usage_index: n as u8, value });
            self.input_regs.push(reg);
        }
    }

    /// ps_3_0's inputs by [`SEMANTICS`] after the position, `texldp`-safe.
    fn declare_ps3_inputs(&mut self, p: &Profile) {
        for (n, &(usage, index)) in SEMANTICS.iter().skip(1).take(p.inputs as usize - 1).enumerate() {
            let reg = Register::new(T::Input, n as u16);
            self.dcl(reg, 0xF, usage, index, TextureType::Unknown);
            let value = self.projective_vec4();
            self.out.inputs.push(Input { reg, usage, usage_index: index, value });
            self.input_regs.push(reg);
        }
    }

    /// The samplers: s0 2D, s1 cube, s2 volume as the profile allows; ps_1_x samples t0..t3 as 2D
    /// without declarations.
    fn declare_samplers(&mut self, p: &Profile) {
        let types = [TextureType::Tex2D, TextureType::Cube, TextureType::Volume];
        for s in 0..p.samplers.min(3) {
            let ty = types[s as usize];
            self.dcl(Register::new(T::Sampler, s), 0xF, Usage::Position, 0, ty);
            self.out.samplers.push((s, ty));
        }
        if p.sm1() && p.pixel() {
            for s in 0..4 {
                self.out.samplers.push((s, TextureType::Tex2D));
            }
        }
    }

    pub(super) fn vec4(&mut self) -> [f32; 4] {
        [self.rng.value(), self.rng.value(), self.rng.value(), self.rng.value()]
    }

    /// Pixel inputs that `texldp` may divide by: a w of 0 would make the coordinates infinite
    /// and the texel undefined (fuzz-diff found GPU and CPU picking different cube faces).
    pub(super) fn projective_vec4(&mut self) -> [f32; 4] {
        let mut v = self.vec4();
        v[3] = self.rng.pick(&[0.5, 1.0, 2.0, -1.0, 4.0, 0.75]);
        v
    }

    /// Colours and texture coordinates of ps_1_x stay in [0, 1], as the interpolators give them.
    pub(super) fn unit_vec4(&mut self) -> [f32; 4] {
        [0; 4].map(|_| self.rng.below(257) as f32 / 256.0)
    }

    pub(super) fn def(&mut self, reg: u16, value: [f32; 4]) {
        let mut i = inst(Opcode::Def, Some(dst(konst(reg), 0xF)), &[]);
        i.payload = Payload::Def(value.map(f32::to_bits));
        self.push(i);
    }

    pub(super) fn definitions(&mut self) {
        let p = self.p.clone();
        if p.sm1() && p.pixel() {
            // ps_1_x has c0..c7 only; every one is set, half by def, half by the API.
            for c in 0..8 {
                let v = self.vec4();
                if self.rng.chance(50) {
                    self.def(c, v);
                } else {
                    self.out.float_consts.push((c, v));
                }
            }
            return;
        }
        for c in 0..CONSTS {
            let v = self.vec4();
            if self.rng.chance(30) {
                self.def(c, v);
            } else {
                self.out.float_consts.push((c, v));
            }
        }
        self.def(ADDR_CONST, [1.0, 2.0, 0.0, 3.0]);
        if p.has(Opcode::SinCos) {
            // Just inside −π, the lower end of sincos's argument range (not π itself).
            #[allow(clippy::approx_constant)]
            self.def(SINCOS_ARG, [-3.14159, -1.0, 0.5, 3.0]);
        }
        if p.has(Opcode::SinCos) && p.version.major == 2 {
            self.def(SINCOS1, [-1.550_099_2e-6, -2.170_139e-5, 0.002_604_166_7, 0.000_260_416_68]);
            self.def(SINCOS2, [-0.020_833_334, -0.125, 1.0, 0.5]);
        }
        for c in MATRIX_BASE..RELATIVE_LIMIT {
            let v = self.vec4();
            self.out.float_consts.push((c, v));
        }
        if p.int_bool_consts {
            for b in 0..2 {
                let v = self.rng.chance(50);
                if self.rng.chance(50) {
                    let mut i = inst(Opcode::DefB, Some(dst(Register::new(T::ConstBool, b), 0xF)), &[]);
                    i.payload = Payload::DefB(v as u32);
                    self.push(i);
                } else {
                    self.out.bool_consts.push((b, v));
                }
            }
        }
    }

    /// Defines a fresh `i#` for a loop or rep: (count, start, step, 0), with `aL` staying in 0..=8.
    pub(super) fn loop_constant(&mut self) -> (u16, i32, i32, i32) {
        let n = self.next_int;
        self.next_int += 1;
        let count = self.rng.range(1, 4);
        let start = self.rng.range(0, 2);
        let step = self.rng.range(0, 2);
        let value = [count, start, step, 0];
        if self.rng.chance(50) {
            let mut i = inst(Opcode::DefI, Some(dst(Register::new(T::ConstInt, n), 0xF)), &[]);
            i.payload = Payload::DefI(value);
            // Definitions go before the first instruction that is not a declaration.
            let at = self
                .insts
                .iter()
                .position(|i| !matches!(i.opcode, Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB))
                .unwrap_or(self.insts.len());
            self.insts.insert(at, i);
        } else {
            self.out.int_consts.push((n, value));
        }
        (n, count, start, step)
    }
}
