//! Structured execution: `if`/`ifc`/`else`, `loop`/`rep` (the 255 limit, the `i#` count, start
//! and step), `break`/`breakc`/`breakp`, `call`/`callnz`/`label`/`ret`, and `ret` in main.
//!
//! The flat instruction list is first parsed into a tree ([`Flow`]); a program whose blocks do
//! not nest is an error, never a wild jump. Execution walks the tree with a lane mask, as a GPU
//! does for a quad: a lane leaves the active set when a per-lane condition is false, when it
//! breaks out of the innermost loop (`brk`) or when it returns from the current function (`ret`).
//! Uniform conditions (`if b#`, loop counts) are the same for every lane.

use crate::bytecode::{Instruction, Nesting, Opcode, Program, RegisterType, SrcModifier};

use super::execute::Machine;
use super::{InterpError, InterpErrorKind as K, MAX_CALL_DEPTH, MAX_NESTING};

/// One node of the structured program.
#[derive(Debug)]
pub(super) enum Node {
    /// A straight-line instruction (also `break*`, `call*`, `ret`).
    Op(usize),
    /// A ps_1_x co-issued pair: both read the registers as they were before the pair.
    Pair(usize, usize),
    /// `if`/`ifc` with its `else` part (empty when absent).
    If { at: usize, then: Vec<Node>, els: Vec<Node> },
    /// `loop` or `rep` (the opcode at `at` tells which).
    Loop { at: usize, body: Vec<Node> },
}

/// The program as a tree: the main function and the subroutines by label number.
#[derive(Debug)]
pub(super) struct Flow {
    pub main: Vec<Node>,
    pub labels: Vec<(u16, Vec<Node>)>,
}

fn error(program: &Program, at: usize, kind: K) -> InterpError {
    let offset = program.instructions.get(at).map_or(0, |i| i.offset);
    InterpError { instruction: at, offset, kind }
}

impl Flow {
    /// Parses the instruction list into blocks.
    pub fn parse(program: &Program) -> Result<Flow, InterpError> {
        let mut p = Parser { program, pos: 0 };
        let (main, end) = p.block(0)?;
        let mut labels = Vec::new();
        let mut end = end;
        loop {
            match end {
                End::Stream => break,
                End::Label(at) => {
                    let num = program[at].src.get(0).map_or(0, |s| s.reg.num);
                    let (body, next) = p.block(0)?;
                    // The first definition of a label wins; a validator rejects duplicates.
                    if !labels.iter().any(|(n, _)| *n == num) {
                        labels.push((num, body));
                    }
                    end = next;
                }
                End::Closer(at, _) => return Err(error(program, at, K::Unbalanced("block end without a block start"))),
            }
        }
        Ok(Flow { main, labels })
    }

    /// The body of subroutine `l#num`.
    pub fn label(&self, num: u16) -> Option<&[Node]> {
        self.labels.iter().find(|(n, _)| *n == num).map(|(_, b)| b.as_slice())
    }
}

enum End {
    Stream,
    Label(usize),
    Closer(usize, Opcode),
}

struct Parser<'p> {
    program: &'p Program,
    pos: usize,
}

impl Parser<'_> {
    /// Parses nodes until the end of the stream, a top-level `label`, or a block closer
    /// (`else`, `endif`, `endloop`, `endrep`), which is consumed and returned.
    fn block(&mut self, depth: usize) -> Result<(Vec<Node>, End), InterpError> {
        if depth > MAX_NESTING {
            return Err(error(self.program, self.pos.saturating_sub(1), K::NestingTooDeep));
        }
        let mut nodes = Vec::new();
        while let Some(ins) = self.program.instructions.get(self.pos) {
            let at = self.pos;
            self.pos += 1;
            match ins.opcode {
                Opcode::Dcl | Opcode::Def | Opcode::DefI | Opcode::DefB | Opcode::Nop | Opcode::Phase => {}
                Opcode::Label => {
                    if depth > 0 {
                        return Err(error(self.program, at, K::Unbalanced("label inside a block")));
                    }
                    return Ok((nodes, End::Label(at)));
                }
                _ if matches!(ins.opcode.info().nesting, Nesting::Else | Nesting::Close) => {
                    return Ok((nodes, End::Closer(at, ins.opcode)));
                }
                Opcode::If | Opcode::Ifc => {
                    let (then, end) = self.block(depth + 1)?;
                    let els = match end {
                        End::Closer(_, Opcode::EndIf) => Vec::new(),
                        End::Closer(_, Opcode::Else) => match self.block(depth + 1)? {
                            (els, End::Closer(_, Opcode::EndIf)) => els,
                            _ => return Err(error(self.program, at, K::Unbalanced("else without endif"))),
                        },
                        _ => return Err(error(self.program, at, K::Unbalanced("if without endif"))),
                    };
                    nodes.push(Node::If { at, then, els });
                }
                Opcode::Loop | Opcode::Rep => {
                    let closer = match ins.opcode.info().nesting {
                        Nesting::Open { closer } => Some(closer),
                        _ => None,
                    };
                    match self.block(depth + 1)? {
                        (body, End::Closer(_, c)) if Some(c) == closer => nodes.push(Node::Loop { at, body }),
                        _ => return Err(error(self.program, at, K::Unbalanced("loop or rep without its end"))),
                    }
                }
                _ => match nodes.last() {
                    Some(&Node::Op(prev)) if ins.coissue => {
                        *nodes.last_mut().expect("just matched") = Node::Pair(prev, at)
                    }
                    _ => nodes.push(Node::Op(at)),
                },
            }
        }
        Ok((nodes, End::Stream))
    }
}

impl Machine<'_> {
    /// Counts `n` executed instructions against the step limit.
    pub(super) fn step(&mut self, at: usize, n: u64) -> Result<(), InterpError> {
        self.steps += n;
        if self.steps > self.options.step_limit {
            return Err(self.err(at, K::StepLimit(self.options.step_limit)));
        }
        Ok(())
    }

    /// Runs the lanes of `mask` through `block`.
    pub(super) fn run_block(&mut self, flow: &Flow, block: &[Node], mask: u8) -> Result<(), InterpError> {
        for node in block {
            let m = mask & !self.ret_mask & !self.brk_mask;
            if m == 0 {
                return Ok(());
            }
            match node {
                Node::Op(at) => {
                    self.step(*at, 1)?;
                    self.op(flow, *at, m)?;
                }
                Node::Pair(a, b) => {
                    self.step(*b, 2)?;
                    self.coissue(*a, *b, m)?;
                }
                Node::If { at, then, els } => {
                    self.step(*at, 1)?;
                    let cond = self.condition(*at, m)?;
                    if m & cond != 0 {
                        self.run_block(flow, then, m & cond)?;
                    }
                    if m & !cond != 0 && !els.is_empty() {
                        self.run_block(flow, els, m & !cond)?;
                    }
                }
                Node::Loop { at, body } => self.run_loop(flow, *at, body, m)?,
            }
        }
        Ok(())
    }

    /// `loop aL, i#` / `rep i#`: i#.x iterations (at most 255); `loop` sets aL = i#.y and adds
    /// i#.z after each iteration.
    fn run_loop(&mut self, flow: &Flow, at: usize, body: &[Node], mask: u8) -> Result<(), InterpError> {
        self.step(at, 1)?;
        let ins = self.program[at];
        let is_loop = ins.opcode == Opcode::Loop;
        let int_src = ins.src.get(if is_loop { 1 } else { 0 }).ok_or_else(|| self.err(at, K::MissingOperand))?;
        let i =
            self.consts.int(int_src.reg.num).ok_or_else(|| self.err(at, K::RegisterOutOfRange(int_src.reg.name())))?;
        let count = i[0].clamp(0, 255);
        let saved_brk = self.brk_mask;
        self.brk_mask = 0;
        if is_loop {
            self.loop_stack.push(i[1]);
        }
        for _ in 0..count {
            let m = mask & !self.ret_mask & !self.brk_mask;
            if m == 0 {
                break;
            }
            self.run_block(flow, body, m)?;
            // endloop / endrep
            self.step(at, 1)?;
            if is_loop {
                let al = self.loop_stack.last_mut().expect("pushed above");
                *al = al.wrapping_add(i[2]);
            }
        }
        if is_loop {
            self.loop_stack.pop();
        }
        self.brk_mask = saved_brk;
        Ok(())
    }

    /// The lanes of `mask` for which the condition of `if`/`ifc`/`callnz`/`breakc`/`breakp` at
    /// `at` holds.
    pub(super) fn condition(&self, at: usize, mask: u8) -> Result<u8, InterpError> {
        let ins = &self.program[at];
        let src = |i: usize| ins.src.get(i).ok_or_else(|| self.err(at, K::MissingOperand));
        let mut out = 0;
        match ins.opcode {
            Opcode::Ifc | Opcode::BreakC => {
                let cmp = ins.comparison().ok_or_else(|| self.err(at, K::BadComparison(ins.control)))?;
                let (a, b) = (src(0)?, src(1)?);
                for lane in lanes(mask) {
                    let x = self.read_src(lane, a).map_err(|k| self.err(at, k))?[3];
                    let y = self.read_src(lane, b).map_err(|k| self.err(at, k))?[3];
                    if cmp.eval(x, y) {
                        out |= 1 << lane;
                    }
                }
            }
            _ => {
                // if b# / if p0.c / breakp p0.c / callnz l#, b# / callnz l#, p0.c
                let s = if ins.opcode == Opcode::CallNz { src(1)? } else { src(0)? };
                let not = s.modifier == SrcModifier::Not;
                for lane in lanes(mask) {
                    let v = match s.reg.ty {
                        RegisterType::ConstBool => self
                            .consts
                            .bool(s.reg.num)
                            .ok_or_else(|| self.err(at, K::RegisterOutOfRange(s.reg.name())))?,
                        RegisterType::Predicate => self.lanes[lane].p0[s.swizzle.get(0)],
                        _ => self.read_src(lane, s).map_err(|k| self.err(at, k))?[s.swizzle.get(0)] != 0.0,
                    };
                    if v != not {
                        out |= 1 << lane;
                    }
                }
            }
        }
        Ok(out)
    }

    /// Flow-control instructions that are single nodes: break*, call*, ret.
    pub(super) fn flow_op(&mut self, flow: &Flow, at: usize, ins: &Instruction, mask: u8) -> Result<(), InterpError> {
        match ins.opcode {
            Opcode::Ret => self.ret_mask |= mask,
            Opcode::Break => self.brk_mask |= mask,
            Opcode::BreakC | Opcode::BreakP => self.brk_mask |= self.condition(at, mask)?,
            Opcode::Call | Opcode::CallNz => {
                let m = if ins.opcode == Opcode::CallNz { self.condition(at, mask)? } else { mask };
                if m == 0 {
                    return Ok(());
                }
                let num = ins.src.get(0).ok_or_else(|| self.err(at, K::MissingOperand))?.reg.num;
                // A call to a label the program does not define (the assembler accepts it) runs
                // an empty subroutine.
                let Some(body) = flow.label(num) else { return Ok(()) };
                if self.call_depth >= MAX_CALL_DEPTH {
                    return Err(self.err(at, K::CallDepth));
                }
                self.call_depth += 1;
                let (saved_ret, saved_brk) = (self.ret_mask, self.brk_mask);
                self.ret_mask = 0;
                self.brk_mask = 0;
                self.run_block(flow, body, m)?;
                self.ret_mask = saved_ret;
                self.brk_mask = saved_brk;
                self.call_depth -= 1;
            }
            _ => unreachable!("flow_op is called for flow instructions only"),
        }
        Ok(())
    }
}

/// The lane numbers set in `mask`.
pub(super) fn lanes(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |l| mask & (1 << l) != 0)
}
