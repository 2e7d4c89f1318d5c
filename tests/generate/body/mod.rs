//! Building one program: declarations and definitions (`declarations`), initialisation, random
//! body, outputs.

use d3d9_shader::bytecode::{
    Comparison, DstParam, Instruction, Opcode, Program, RegisterType as T, RelAddr, ResultModifiers, SrcModifier,
    SrcParam, Swizzle, WriteMask,
};
use d3d9_shader::bytecode::{Register, Sources};

use super::{Generated, Profile, Rng};

mod arithmetic;
mod declarations;
mod ps1x;
mod sm23;

/// Registers the body reads as constants: c0..c(CONSTS-1) hold API values or `def`s.
const CONSTS: u16 = 8;
/// `c8`: integer values for address-register loads (x = 1, y = 2, z = 0, w = 3).
const ADDR_CONST: u16 = 8;
/// `c10`, `c11`: the SM2 `sincos` constants (D3DSINCOSCONST1/2).
const SINCOS1: u16 = 10;
const SINCOS2: u16 = 11;
/// `c9`: angles in [-π, π] for `sincos`, whose result is undefined outside that range (the
/// sincos pages: "src must be between -pi and +pi"); fuzz-diff found GPU and CPU disagreeing on
/// cos(1e30).
const SINCOS_ARG: u16 = 9;
/// First of four consecutive constants read by the matrix macros.
const MATRIX_BASE: u16 = 12;
/// Relative reads use c[base + index] with base + index < RELATIVE_LIMIT, all defined.
const RELATIVE_LIMIT: u16 = 16;
/// Body length.
const MIN_BODY: u32 = 6;
const MAX_BODY: u32 = 18;
/// The SM2 static flow-control count is capped at 16 in vs_2_0/2_x; stay well below.
const STATIC_FLOW_BUDGET: u32 = 12;

pub struct Builder {
    p: Profile,
    rng: Rng,
    insts: Vec<Instruction>,
    subroutines: Vec<Vec<Instruction>>,
    out: Generated,
    /// Temporaries the body may read and write.
    temps: u16,
    /// Input registers declared (read with `v#`, or `t#` in ps 1.x/2.x).
    input_regs: Vec<Register>,
    static_flow: u32,
    /// Current nesting: loops, dynamic blocks, and the aL range of the innermost `loop`.
    loop_depth: u32,
    dynamic_depth: u32,
    al_range: Option<(i32, i32)>,
    in_subroutine: bool,
    /// The last defined `i#`.
    next_int: u16,
    /// ps_1_x stages whose instruction reads the bump-environment matrix.
    bump_stages: Vec<u16>,
    /// `texm3x2depth`/`texdepth` replaced the depth.
    writes_depth: bool,
    /// `p0` has been written in full.
    predicate_defined: bool,
    /// ps_3_0: `vPos` and `vFace` are declared.
    misc: bool,
}

fn dst(reg: Register, mask: u8) -> DstParam {
    DstParam::new(reg, WriteMask(mask))
}

fn src(reg: Register) -> SrcParam {
    SrcParam::new(reg)
}

fn inst(op: Opcode, d: Option<DstParam>, s: &[SrcParam]) -> Instruction {
    let mut i = Instruction::new(op);
    i.dst = d;
    i.src = s.iter().copied().collect::<Sources>();
    i
}

fn temp(n: u16) -> Register {
    Register::new(T::Temp, n)
}

fn konst(n: u16) -> Register {
    Register::new(T::Const, n)
}

impl Builder {
    pub fn new(p: Profile, seed: u64) -> Builder {
        let temps = if p.sm1() && p.pixel() { p.temps } else { p.temps.min(8) };
        let version = p.version;
        Builder {
            p,
            rng: Rng::new(seed),
            insts: Vec::new(),
            subroutines: Vec::new(),
            out: Generated {
                program: Program::new(version),
                float_consts: Vec::new(),
                int_consts: Vec::new(),
                bool_consts: Vec::new(),
                inputs: Vec::new(),
                samplers: Vec::new(),
                bump_env: Vec::new(),
            },
            temps,
            input_regs: Vec::new(),
            static_flow: 0,
            loop_depth: 0,
            dynamic_depth: 0,
            al_range: None,
            in_subroutine: false,
            next_int: 0,
            bump_stages: Vec::new(),
            writes_depth: false,
            predicate_defined: false,
            misc: false,
        }
    }

    pub fn build(mut self) -> Generated {
        self.declarations();
        self.definitions();
        self.initialise();
        // ps_1_x counts 8 arithmetic slots (per phase in ps_1_4): initialisation and the final
        // colour move take up to three of them.
        let n = if self.p.sm1() && self.p.pixel() {
            1 + self.rng.below(4)
        } else {
            MIN_BODY + self.rng.below(MAX_BODY - MIN_BODY + 1)
        };
        for _ in 0..n {
            self.statement(0);
        }
        self.outputs();
        let mut program = std::mem::replace(&mut self.out.program, Program::new(self.p.version));
        program.instructions = std::mem::take(&mut self.insts);
        if !self.subroutines.is_empty() {
            program.instructions.push(Instruction::new(Opcode::Ret));
            for body in std::mem::take(&mut self.subroutines) {
                program.instructions.extend(body);
            }
        }
        self.out.program = program;
        let mut stages = std::mem::take(&mut self.bump_stages);
        stages.sort_unstable();
        stages.dedup();
        for stage in stages {
            let m = [0; 4].map(|_| (self.rng.below(9) as f32 - 4.0) / 8.0);
            let scale = self.rng.below(5) as f32 / 2.0;
            let offset = (self.rng.below(5) as f32 - 2.0) / 4.0;
            self.out.bump_env.push((stage, [[m[0], m[1]], [m[2], m[3]]], scale, offset));
        }
        self.out
    }

    fn push(&mut self, mut i: Instruction) {
        // The vertex shader instruction-modifier page: _sat goes on any instruction except
        // frc, sincos and texldl.
        if !self.p.pixel() && matches!(i.opcode, Opcode::Frc | Opcode::SinCos | Opcode::TexLdl) {
            if let Some(d) = i.dst.as_mut() {
                d.modifiers.0 &= !ResultModifiers::SATURATE;
            }
        }
        self.insts.push(i);
    }

    // ---- initialisation -------------------------------------------------------------------

    fn initialise(&mut self) {
        if self.p.sm1() && self.p.pixel() {
            self.ps1_texture_block();
        }
        // ps_1_4's texld already wrote r0..r3.
        let first =
            if self.p.pixel() && self.p.version == d3d9_shader::bytecode::VersionId::Ps14.version() { 4 } else { 0 };
        for t in first..self.temps {
            let from = self.read_source(true);
            self.push(inst(Opcode::Mov, Some(dst(temp(t), 0xF)), &[from]));
        }
    }

    /// ps_1_x: texture instructions come before arithmetic (ps_1_4: in two phases).
    fn ps1_texture_block(&mut self) {
        if self.p.version.minor < 4 {
            self.ps11_texture_block();
        } else {
            self.ps14_phases();
        }
    }

    // ---- operands -------------------------------------------------------------------------

    /// A source reading an initialised register: a temporary, a constant or an input.
    fn read_source(&mut self, initialising: bool) -> SrcParam {
        let ps1 = self.p.sm1() && self.p.pixel();
        let choice = self.rng.below(10);
        let reg = if initialising || choice < 3 {
            if !self.input_regs.is_empty() && (choice < 2 || initialising && self.rng.chance(50)) {
                self.rng.pick(&self.input_regs)
            } else {
                konst(self.rng.below(if ps1 { 8 } else { CONSTS as u32 }) as u16)
            }
        } else if choice < 5 {
            konst(self.rng.below(if ps1 { 8 } else { CONSTS as u32 }) as u16)
        } else if self.temps > 0 {
            temp(self.rng.below(self.temps as u32) as u16)
        } else {
            konst(0)
        };
        src(reg)
    }

    fn swizzled(&mut self, mut s: SrcParam) -> SrcParam {
        let ps1 = self.p.sm1() && self.p.pixel();
        s.swizzle = if ps1 {
            if self.rng.chance(25) {
                Swizzle::replicate(3)
            } else {
                Swizzle::IDENTITY
            }
        } else if self.rng.chance(50) {
            Swizzle::IDENTITY
        } else if self.p.pixel() && self.p.version.major == 2 && self.p.version.minor == 0 {
            // ps_2_0 swizzles: identity, replicates, .yzxw, .zxyw, .wzyx.
            self.rng.pick(&[
                Swizzle::replicate(0),
                Swizzle::replicate(1),
                Swizzle::replicate(2),
                Swizzle::replicate(3),
                Swizzle(0xC9),
                Swizzle(0xD2),
                Swizzle(0x1B),
            ])
        } else {
            Swizzle(self.rng.below(256) as u8)
        };
        s
    }

    fn modified(&mut self, mut s: SrcParam) -> SrcParam {
        let p = &self.p;
        let mut options = vec![SrcModifier::None, SrcModifier::None, SrcModifier::Neg];
        if p.abs_modifier {
            options.extend([SrcModifier::Abs, SrcModifier::AbsNeg]);
        }
        if p.sm1() && p.pixel() {
            options.extend([SrcModifier::Bias, SrcModifier::Sign, SrcModifier::SignNeg, SrcModifier::Comp]);
            if p.version.minor == 4 {
                options.extend([SrcModifier::X2, SrcModifier::X2Neg]);
            }
        }
        s.modifier = self.rng.pick(&options);
        if p.sm1() && p.pixel() && p.version.minor == 4 && s.reg.ty == T::Const {
            // ps_1_4 takes no source modifier on a constant register.
            s.modifier = SrcModifier::None;
        }
        s
    }

    fn operand(&mut self) -> SrcParam {
        let s = self.read_source(false);
        let s = self.swizzled(s);
        self.modified(s)
    }

    fn scalar_operand(&mut self) -> SrcParam {
        let mut s = self.operand();
        s.swizzle = Swizzle::replicate(self.rng.below(4) as u8);
        s
    }

    fn random_mask(&mut self) -> u8 {
        if self.p.sm1() && self.p.pixel() && self.p.version.minor < 4 {
            self.rng.pick(&[0xF, 0x7, 0x8])
        } else if self.rng.chance(50) {
            0xF
        } else {
            1 + self.rng.below(15) as u8
        }
    }

    fn result(&mut self, mask: u8, exclude: &[SrcParam]) -> DstParam {
        let avoid: Vec<u16> = exclude.iter().filter(|s| s.reg.ty == T::Temp).map(|s| s.reg.num).collect();
        let candidates: Vec<u16> = (0..self.temps).filter(|t| !avoid.contains(t)).collect();
        let n = if candidates.is_empty() { 0 } else { self.rng.pick(&candidates) };
        let mut d = dst(temp(n), mask);
        if self.p.saturate && self.rng.chance(20) {
            d.modifiers = ResultModifiers(ResultModifiers::SATURATE);
        }
        if self.p.sm1() && self.p.pixel() && self.rng.chance(20) {
            d.shift = if self.p.version.minor == 4 {
                self.rng.pick(&[1, 2, 3, -1, -2, -3])
            } else {
                self.rng.pick(&[1, 2, -1])
            };
        }
        d
    }

    // ---- statements -----------------------------------------------------------------------

    fn statement(&mut self, depth: u32) {
        let p = self.p.clone();
        let roll = self.rng.below(100);
        let flow_ok = depth < 2 && self.static_flow < STATIC_FLOW_BUDGET && !self.in_subroutine;
        if roll < 8 && flow_ok && p.static_flow && p.int_bool_consts {
            self.static_if(depth);
        } else if roll < 14 && flow_ok && p.static_flow && p.int_bool_consts && self.loop_depth < p.loop_depth {
            let with_al = p.loops && self.rng.chance(50);
            self.repeat(depth, with_al);
        } else if roll < 19 && flow_ok && p.dynamic_flow {
            self.dynamic_if(depth);
        } else if roll < 23 && p.dynamic_flow && self.dynamic_depth == 0 && self.loop_depth == 0 {
            self.predicated();
        } else if roll < 26 && flow_ok && p.static_flow && p.int_bool_consts && depth == 0 && self.subroutines.len() < 2
        {
            self.call();
        } else if roll < 30 && p.samplers > 0 && depth == 0 && self.loop_depth == 0 && self.dynamic_depth == 0 {
            self.texture();
        } else if roll < 34 && !p.pixel() && !self.in_subroutine {
            self.relative_read();
        } else if roll < 44 && p.sm1() && p.pixel() {
            self.coissue_pair();
        } else if roll < 37 && p.pixel() && !p.sm1() {
            self.texkill();
        } else if roll < 40 && p.samplers > 0 && p.pixel() && p.version.at_least(2, 1) {
            self.explicit_texture();
        } else if roll < 44 && self.misc {
            self.misc_read();
        } else if roll < 48 && flow_ok && p.dynamic_flow {
            self.predicate_if(depth);
        } else if roll < 51 && p.dynamic_flow && self.loop_depth > 0 {
            self.predicate_break();
        } else if roll < 56 && p.version.major == 3 && self.al_range.is_some() {
            self.loop_relative_io();
        } else {
            let i = self.arithmetic();
            self.push(i);
        }
    }

    /// Shader Model 1 reads at most one constant and one input register per instruction.
    fn limit_read_ports(&mut self, s: &mut [SrcParam]) {
        for ty in [T::Const, T::Input, T::Texture] {
            let first = s.iter().find(|x| x.reg.ty == ty).map(|x| x.reg);
            if let Some(first) = first {
                for x in s.iter_mut() {
                    if x.reg.ty == ty && x.reg != first {
                        x.reg = temp(self.rng.below(self.temps.max(1) as u32) as u16);
                    }
                }
            }
        }
    }

    fn relative_read(&mut self) {
        let p = self.p.clone();
        // a0.x only: vs_1_1 has nothing else, and it keeps vs_2_0 within the documented forms.
        let component = 0u8;
        let index = [1, 2, 0, 3][component as usize];
        let load = if p.sm1() { Opcode::Mov } else { Opcode::Mova };
        let a0 = Register::new(T::Addr, 0);
        let addr_src = SrcParam { swizzle: Swizzle::replicate(component), ..src(konst(ADDR_CONST)) };
        let mask = 1 << component;
        self.push(inst(load, Some(dst(a0, mask)), &[addr_src]));
        let base = MATRIX_BASE - 1 - self.rng.below(2) as u16;
        debug_assert!(base + index < RELATIVE_LIMIT);
        let rel =
            RelAddr { reg: a0, swizzle: Swizzle::replicate(if p.sm1() { 0 } else { component }), implicit: p.sm1() };
        let s = SrcParam { relative: Some(rel), ..src(konst(base)) };
        // The other operand is a temporary: SM1 reads one constant register per instruction.
        let other = self.any_temp();
        let mask = self.random_mask();
        let d = self.result(mask, &[]);
        self.push(inst(Opcode::Add, Some(d), &[s, other]));
        let _ = index;
    }

    fn static_if(&mut self, depth: u32) {
        self.static_flow += 1;
        let b = src(Register::new(T::ConstBool, self.rng.below(2) as u16));
        self.push(inst(Opcode::If, None, &[b]));
        self.block(depth + 1);
        if self.rng.chance(40) {
            self.static_flow += 1;
            self.push(Instruction::new(Opcode::Else));
            self.block(depth + 1);
        }
        self.push(Instruction::new(Opcode::EndIf));
    }

    fn repeat(&mut self, depth: u32, with_al: bool) {
        self.static_flow += 1;
        let (n, count, start, step) = self.loop_constant();
        let i = src(Register::new(T::ConstInt, n));
        self.loop_depth += 1;
        let saved = self.al_range;
        if with_al {
            let end = start + step * (count - 1);
            self.al_range = Some((start.min(end), start.max(end)));
            self.push(inst(Opcode::Loop, None, &[src(Register::new(T::Loop, 0)), i]));
        } else {
            self.push(inst(Opcode::Rep, None, &[i]));
        }
        self.block(depth + 1);
        if self.p.dynamic_flow && self.rng.chance(30) {
            let (a, b) = (self.scalar_operand(), self.scalar_operand());
            let mut brk = inst(Opcode::BreakC, None, &[a, b]);
            brk.control = self.rng.pick(&Comparison::ALL) as u8;
            self.push(brk);
        }
        if with_al && self.rng.chance(60) {
            // c[aL + base] stays inside c0..c15 since aL ∈ 0..=8.
            let rel = RelAddr { reg: Register::new(T::Loop, 0), swizzle: Swizzle::replicate(0), implicit: false };
            let s = SrcParam { relative: Some(rel), ..src(konst(self.rng.below(RELATIVE_LIMIT as u32 - 8) as u16)) };
            let mask = self.random_mask();
            let d = self.result(mask, &[]);
            let other = self.read_source(false);
            self.push(inst(Opcode::Add, Some(d), &[s, other]));
        }
        self.al_range = saved;
        self.loop_depth -= 1;
        self.push(Instruction::new(if with_al { Opcode::EndLoop } else { Opcode::EndRep }));
    }

    fn dynamic_if(&mut self, depth: u32) {
        let (a, b) = (self.scalar_operand(), self.scalar_operand());
        let mut i = inst(Opcode::Ifc, None, &[a, b]);
        i.control = self.rng.pick(&Comparison::ALL) as u8;
        self.push(i);
        self.dynamic_depth += 1;
        self.block(depth + 1);
        if self.rng.chance(40) {
            self.push(Instruction::new(Opcode::Else));
            self.block(depth + 1);
        }
        self.dynamic_depth -= 1;
        self.push(Instruction::new(Opcode::EndIf));
    }

    fn predicated(&mut self) {
        let (a, b) = (self.operand(), self.operand());
        let p0 = Register::new(T::Predicate, 0);
        let mut setp = inst(Opcode::Setp, Some(dst(p0, 0xF)), &[a, b]);
        setp.control = self.rng.pick(&Comparison::ALL) as u8;
        self.push(setp);
        let mut i = self.arithmetic();
        if matches!(i.opcode, Opcode::Dsx | Opcode::Dsy) {
            return self.push(i);
        }
        let swizzle = if self.rng.chance(50) { Swizzle::IDENTITY } else { Swizzle::replicate(self.rng.below(4) as u8) };
        let modifier = if self.rng.chance(30) { SrcModifier::Not } else { SrcModifier::None };
        i.predicate = Some(SrcParam { swizzle, modifier, ..src(p0) });
        self.push(i);
    }

    fn call(&mut self) {
        self.static_flow += 1;
        let label = self.subroutines.len() as u16;
        let l = src(Register::new(T::Label, label));
        if self.rng.chance(50) {
            self.push(inst(Opcode::Call, None, &[l]));
        } else {
            let b = src(Register::new(T::ConstBool, self.rng.below(2) as u16));
            self.push(inst(Opcode::CallNz, None, &[l, b]));
        }
        let saved = std::mem::take(&mut self.insts);
        self.in_subroutine = true;
        self.push(inst(Opcode::Label, None, &[l]));
        for _ in 0..1 + self.rng.below(3) {
            let i = self.arithmetic();
            self.push(i);
        }
        self.push(Instruction::new(Opcode::Ret));
        self.in_subroutine = false;
        let body = std::mem::replace(&mut self.insts, saved);
        self.subroutines.push(body);
    }

    fn block(&mut self, depth: u32) {
        for _ in 0..1 + self.rng.below(3) {
            self.statement(depth);
        }
    }

    fn texture(&mut self) {
        let (s, ty) = self.rng.pick(&self.out.samplers);
        let sampler = src(Register::new(T::Sampler, s));
        let coords = if self.p.pixel() && self.rng.chance(60) {
            src(Register::new(T::Texture, self.rng.below(4) as u16))
        } else {
            src(temp(self.rng.below(self.temps as u32) as u16))
        };
        let _ = ty;
        let d = dst(temp(self.rng.below(self.temps as u32) as u16), 0xF);
        if !self.p.pixel() {
            return self.push(inst(Opcode::TexLdl, Some(d), &[SrcParam { reg: coords.reg, ..coords }, sampler]));
        }
        let coords = if self.p.version.major == 3 && coords.reg.ty == T::Texture {
            src(Register::new(T::Input, 2 + self.rng.below(3) as u16))
        } else {
            coords
        };
        let mut i = inst(Opcode::Tex, Some(d), &[coords, sampler]);
        i.control = self.rng.below(3) as u8;
        if i.control == 1 && coords.reg.ty == T::Temp {
            // texldp divides by w: only inputs have a w known to be safe (projective_vec4).
            i.control = 0;
        }
        self.push(i);
    }

    // ---- outputs --------------------------------------------------------------------------

    fn any_temp(&mut self) -> SrcParam {
        src(temp(self.rng.below(self.temps.max(1) as u32) as u16))
    }

    fn outputs(&mut self) {
        let p = self.p.clone();
        if !p.pixel() {
            let position = src(Register::new(T::Input, 0));
            if p.version.major >= 3 {
                self.push(inst(Opcode::Mov, Some(dst(Register::new(T::Output, 0), 0xF)), &[position]));
                for o in 1..3 {
                    let s = self.any_temp();
                    self.push(inst(Opcode::Mov, Some(dst(Register::new(T::Output, o), 0xF)), &[s]));
                }
            } else {
                self.push(inst(Opcode::Mov, Some(dst(Register::new(T::RastOut, 0), 0xF)), &[position]));
                for (ty, n) in [(T::AttrOut, 0), (T::AttrOut, 1), (T::TexCrdOut, 0), (T::TexCrdOut, 1)] {
                    let s = self.any_temp();
                    self.push(inst(Opcode::Mov, Some(dst(Register::new(ty, n), 0xF)), &[s]));
                }
                let s = SrcParam { swizzle: Swizzle::replicate(0), ..self.any_temp() };
                self.push(inst(Opcode::Mov, Some(dst(Register::new(T::RastOut, 1), 0x1)), &[s]));
            }
        } else if p.sm1() {
            // r0 is the colour: make its last write a plain move of an initialised value.
            let s = self.any_temp();
            if s.reg.num != 0 {
                self.push(inst(Opcode::Mov, Some(dst(temp(0), 0xF)), &[s]));
            }
        } else {
            let s = self.any_temp();
            self.push(inst(Opcode::Mov, Some(dst(Register::new(T::ColorOut, 0), 0xF)), &[s]));
            self.extra_outputs();
        }
    }
}
