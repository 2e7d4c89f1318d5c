//! Unit tests of the lowering rules: small programs are lowered, validated by naga, and run by a
//! test evaluator of naga IR ([`eval`]); every expected value is derived by hand from the D3D9
//! rule named in the test.

mod eval;
mod fetch4;
mod multiply_forms;
mod operands;
mod rules;
mod rules_pixel;
mod rules_programs;
mod sm1;
mod sm1_modifiers;
mod sm1_ops;
mod snapshots;
mod spans;
mod static_constants;
mod unread_components;
mod vs1;

use std::collections::HashMap;

use eval::{Evaluator, Outcome, Value};

use crate::analysis::analyse;
use crate::bytecode::{
    DstParam, Instruction, Opcode, Payload, Program, Register, RegisterType as R, RelAddr, SrcModifier, SrcParam,
    Swizzle, Version, WriteMask,
};
use crate::key::ShaderKey;

pub fn version(token: u32) -> Version {
    Version::from_token(token).expect("known version")
}

/// `.xyzw`-style swizzle from letters (one letter replicates).
pub fn swz(s: &str) -> Swizzle {
    let c: Vec<u8> = s
        .bytes()
        .map(|b| match b {
            b'x' | b'r' => 0,
            b'y' | b'g' => 1,
            b'z' | b'b' => 2,
            _ => 3,
        })
        .collect();
    let at = |i: usize| *c.get(i).unwrap_or(c.last().expect("non-empty"));
    Swizzle::new(at(0), at(1), at(2), at(3))
}

pub fn mask(s: &str) -> WriteMask {
    WriteMask(
        s.bytes()
            .map(|b| match b {
                b'x' => 1,
                b'y' => 2,
                b'z' => 4,
                _ => 8,
            })
            .sum(),
    )
}

pub fn dst(ty: R, n: u16, m: &str) -> DstParam {
    DstParam::new(Register::new(ty, n), mask(m))
}

pub fn src(ty: R, n: u16) -> SrcParam {
    SrcParam::new(Register::new(ty, n))
}

pub trait SrcExt {
    fn sw(self, s: &str) -> SrcParam;
    fn md(self, m: SrcModifier) -> SrcParam;
    fn rel(self, reg: Register, comp: &str) -> SrcParam;
}

impl SrcExt for SrcParam {
    fn sw(mut self, s: &str) -> SrcParam {
        self.swizzle = swz(s);
        self
    }
    fn md(mut self, m: SrcModifier) -> SrcParam {
        self.modifier = m;
        self
    }
    fn rel(mut self, reg: Register, comp: &str) -> SrcParam {
        self.relative = Some(RelAddr { reg, swizzle: swz(comp), implicit: false });
        self
    }
}

pub fn op(opcode: Opcode, d: Option<DstParam>, s: &[SrcParam]) -> Instruction {
    let mut i = Instruction::new(opcode);
    i.dst = d;
    i.src = s.iter().copied().collect();
    i
}

pub fn def(n: u16, v: [f32; 4]) -> Instruction {
    def_bits(n, v.map(f32::to_bits))
}

pub fn def_bits(n: u16, v: [u32; 4]) -> Instruction {
    let mut i = op(Opcode::Def, Some(dst(R::Const, n, "xyzw")), &[]);
    i.payload = Payload::Def(v);
    i
}

pub fn defi(n: u16, v: [i32; 4]) -> Instruction {
    let mut i = op(Opcode::DefI, Some(dst(R::ConstInt, n, "xyzw")), &[]);
    i.payload = Payload::DefI(v);
    i
}

pub fn program(token: u32, insts: Vec<Instruction>) -> Program {
    let mut p = Program::new(version(token));
    p.instructions = insts;
    p
}

/// What a run needs besides the program.
#[derive(Default)]
pub struct Run {
    pub key: ShaderKey,
    pub consts: Vec<(usize, [f32; 4])>,
    pub ints: Vec<(usize, [i32; 4])>,
    pub bools: Vec<(usize, bool)>,
    pub inputs: Vec<(u32, [f32; 4])>,
    pub frag_coord: [f32; 4],
    pub back_face: bool,
    /// Render-state members by index (see `constants::rs`).
    pub render_state: Vec<(usize, Value)>,
    /// Evaluate GLSL.std.450's undefined results as NaN ([`Evaluator::undefined_as_nan`]).
    pub undefined_as_nan: bool,
}

/// Lowers, validates with naga, and evaluates `p`.
pub fn run(p: &Program, r: &Run) -> Outcome {
    let sig = analyse(p);
    let lowered = super::lower(p, &sig, &r.key).unwrap_or_else(|e| panic!("lowering failed: {e}"));
    crate::emit::validate_fully(&lowered.module).unwrap_or_else(|e| panic!("naga rejects the module: {e}"));
    evaluate(&lowered, r)
}

/// Evaluates a lowered (and validated) module with the buffers, inputs and state of `r`.
pub fn evaluate(lowered: &super::Lowered, r: &Run) -> Outcome {
    let mut ev = Evaluator::new(&lowered.module);
    ev.undefined_as_nan = r.undefined_as_nan;
    let page = super::FLOAT_CONSTANTS_PAGE as usize;
    for &(i, v) in &r.consts {
        match lowered.layout.float_constants.and_then(|f| f.high_binding) {
            Some(_) if i >= page => ev.set_element("c_high", i - page, eval::vec4(v)),
            _ => ev.set_element("c", i, eval::vec4(v)),
        }
    }
    for &(i, v) in &r.ints {
        ev.set_element("i", i, Value::Agg(v.iter().map(|&x| Value::I(x)).collect()));
    }
    // b n is component n % 4 of element n / 4; only the elements holding a set register.
    let mut bools = std::collections::BTreeMap::<usize, [u32; 4]>::new();
    for &(n, b) in &r.bools {
        bools.entry(n / 4).or_default()[n % 4] = b as u32;
    }
    for (i, e) in bools {
        ev.set_element("b", i, Value::Agg(e.iter().map(|&x| Value::U(x)).collect()));
    }
    for (i, v) in &r.render_state {
        ev.set_element("render_state", *i, v.clone());
    }
    let inputs: HashMap<u32, Value> = r.inputs.iter().map(|&(l, v)| (l, eval::vec4(v))).collect();
    ev.run(&inputs, r.frag_coord, !r.back_face)
}

/// `p` lowered with the default key (the strict rules).
pub fn lowered(p: &Program) -> naga::Module {
    super::lower(p, &analyse(p), &ShaderKey::default()).expect("lowers").module
}

/// How many of the entry point's expressions are of `kind`: the form a lowering took.
pub fn entry_count(module: &naga::Module, kind: impl Fn(&naga::Expression) -> bool) -> usize {
    module.entry_points[0].function.expressions.iter().filter(|(_, e)| kind(e)).count()
}

/// Runs and returns output member `name` as a vec4.
pub fn output(p: &Program, r: &Run, name: &str) -> [f32; 4] {
    match run(p, r) {
        Outcome::Output(m) => m.get(name).unwrap_or_else(|| panic!("no output {name}: {:?}", m.keys())).vec4(),
        Outcome::Killed => panic!("the pixel was killed"),
    }
}
