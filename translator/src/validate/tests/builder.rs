//! A tiny program builder for the validator's tests (the tests build programs in memory, so
//! they do not depend on the assembler).

use crate::bytecode::{
    Decl, DstParam, Instruction, Opcode, Payload, Program, Register, RegisterType as T, SrcModifier, SrcParam, Swizzle,
    Version, WriteMask,
};
use crate::validate::{validate, Rule, Validation, ValidationOptions};

pub fn version(name: &str) -> Version {
    let kind_token = if name.starts_with("vs") { 0xFFFE_0000 } else { 0xFFFF_0000 };
    let (major, minor) = match &name[3..] {
        "1_1" => (1, 1),
        "1_3" => (1, 3),
        "1_4" => (1, 4),
        "2_0" => (2, 0),
        "2_x" => (2, 1),
        "2_sw" => (2, 255),
        "3_0" => (3, 0),
        "3_sw" => (3, 255),
        other => panic!("unknown version {other}"),
    };
    Version::from_token(kind_token | major << 8 | minor).unwrap()
}

pub fn reg(ty: T, n: u16) -> Register {
    Register::new(ty, n)
}

pub fn src(ty: T, n: u16) -> SrcParam {
    SrcParam::new(reg(ty, n))
}

/// `reg.c` (a replicate swizzle, as scalar operands are written).
pub fn scalar(ty: T, n: u16, c: u8) -> SrcParam {
    SrcParam { swizzle: Swizzle::replicate(c), ..src(ty, n) }
}

pub fn dst(ty: T, n: u16) -> DstParam {
    DstParam::new(reg(ty, n), WriteMask::ALL)
}

pub fn not(mut s: SrcParam) -> SrcParam {
    s.modifier = SrcModifier::Not;
    s
}

/// A program under construction.
pub struct B {
    pub p: Program,
}

impl B {
    pub fn new(v: &str) -> B {
        B { p: Program::new(version(v)) }
    }

    /// Appends an instruction and returns it for adjustment.
    pub fn op(&mut self, op: Opcode, d: Option<DstParam>, s: &[SrcParam]) -> &mut Instruction {
        let mut inst = Instruction::new(op);
        inst.dst = d;
        inst.src = s.iter().copied().collect();
        self.p.instructions.push(inst);
        self.p.instructions.last_mut().unwrap()
    }

    pub fn mov(&mut self, d: DstParam, s: SrcParam) -> &mut Instruction {
        self.op(Opcode::Mov, Some(d), &[s])
    }

    pub fn dcl(&mut self, d: DstParam, usage: u8, index: u8, texture_type: u8) -> &mut Instruction {
        let inst = self.op(Opcode::Dcl, Some(d), &[]);
        inst.payload = Payload::Dcl(Decl { usage, usage_index: index, texture_type });
        inst
    }

    pub fn def(&mut self, n: u16) {
        self.op(Opcode::Def, Some(dst(T::Const, n)), &[]).payload = Payload::Def([0; 4]);
    }

    pub fn defb(&mut self, n: u16) {
        self.op(Opcode::DefB, Some(dst(T::ConstBool, n)), &[]).payload = Payload::DefB(1);
    }

    pub fn defi(&mut self, n: u16) {
        self.op(Opcode::DefI, Some(dst(T::ConstInt, n)), &[]).payload = Payload::DefI([2, 0, 1, 0]);
    }

    pub fn bare(&mut self, op: Opcode) {
        self.op(op, None, &[]);
    }

    /// `if b0`.
    pub fn if_bool(&mut self) {
        self.op(Opcode::If, None, &[src(T::ConstBool, 0)]);
    }

    /// `if_gt c0.x, c1.x`.
    pub fn if_gt(&mut self) {
        self.op(Opcode::Ifc, None, &[scalar(T::Const, 0, 0), scalar(T::Const, 1, 0)]).control = 1;
    }

    /// `if p0.x`.
    pub fn if_pred(&mut self) {
        self.op(Opcode::If, None, &[scalar(T::Predicate, 0, 0)]);
    }

    /// `break_gt c0.x, c1.x`.
    pub fn break_gt(&mut self) {
        self.op(Opcode::BreakC, None, &[scalar(T::Const, 0, 0), scalar(T::Const, 1, 0)]).control = 1;
    }

    /// `setp_gt p0, c0, c1`.
    pub fn setp(&mut self) {
        self.op(Opcode::Setp, Some(dst(T::Predicate, 0)), &[src(T::Const, 0), src(T::Const, 1)]).control = 1;
    }

    /// `rep i0`.
    pub fn rep(&mut self) {
        self.op(Opcode::Rep, None, &[src(T::ConstInt, 0)]);
    }

    /// `loop aL, i0`.
    pub fn loop_(&mut self) {
        self.op(Opcode::Loop, None, &[src(T::Loop, 0), src(T::ConstInt, 0)]);
    }

    pub fn call(&mut self, label: u16) {
        self.op(Opcode::Call, None, &[src(T::Label, label)]);
    }

    pub fn callnz_bool(&mut self, label: u16) {
        self.op(Opcode::CallNz, None, &[src(T::Label, label), src(T::ConstBool, 0)]);
    }

    pub fn callnz_pred(&mut self, label: u16) {
        self.op(Opcode::CallNz, None, &[src(T::Label, label), scalar(T::Predicate, 0, 0)]);
    }

    pub fn label(&mut self, n: u16) {
        self.op(Opcode::Label, None, &[src(T::Label, n)]);
    }

    /// Something that computes (`add r0, r0, c0`; r0 is written first by [`B::start`]).
    pub fn work(&mut self) {
        self.op(Opcode::Add, Some(dst(T::Temp, 0)), &[src(T::Temp, 0), src(T::Const, 0)]);
    }

    /// The usual first lines: `mov r0, c0`.
    pub fn start(&mut self) {
        self.mov(dst(T::Temp, 0), src(T::Const, 0));
    }

    /// The usual last lines: the colour output of a pixel shader (`mov oC0, r0`), or the
    /// position of a vertex shader.
    pub fn finish(&mut self) {
        let v = self.p.version;
        if v.is_pixel() {
            self.mov(dst(T::ColorOut, 0), src(T::Temp, 0));
        } else if v.major < 3 {
            self.mov(dst(T::RastOut, 0), src(T::Temp, 0));
        } else {
            self.dcl(dst(T::Output, 0), 0, 0, 0);
            let last = self.p.instructions.pop().unwrap();
            self.p.instructions.insert(0, last);
            self.mov(dst(T::Output, 0), src(T::Temp, 0));
        }
    }

    pub fn check(&self, options: &ValidationOptions) -> Validation {
        validate(&self.p, options)
    }

    pub fn strict(&self) -> Validation {
        let swvp = self.p.version.is_sw() && self.p.version.is_vertex();
        self.check(&ValidationOptions { swvp, ..ValidationOptions::strict() })
    }
}

/// Asserts strict validation accepts `b`.
#[track_caller]
pub fn assert_valid(b: &B) {
    let r = b.strict();
    assert!(r.is_ok(), "{}: expected valid, got {:#?}", b.p.version, r.errors);
}

/// Asserts strict validation refuses `b` under `rule` with a message containing `text`.
#[track_caller]
pub fn assert_error(b: &B, rule: Rule, text: &str) {
    let r = b.strict();
    assert!(
        r.errors.iter().any(|e| e.rule == rule && e.message.contains(text)),
        "{}: expected a {rule} error containing {text:?}, got {:#?}",
        b.p.version,
        r.errors
    );
}
