//! Structured execution: `if`/`ifc`/`else`, `loop`/`rep` (the 255 limit, the `i#` count, start
//! and step), `break`/`breakc`/`breakp`, `call`/`callnz`/`label`/`ret`, and `ret` in main.
//!
//! The flat instruction list is first parsed into a tree ([`Flow`], `flow.rs`). Execution walks
//! the tree with a lane mask, as a GPU does for a quad: a lane leaves the active set when a per-lane condition is false, when it
//! breaks out of the innermost loop (`brk`) or when it returns from the current function (`ret`).
//! Uniform conditions (`if b#`, loop counts) are the same for every lane.

use crate::bytecode::{Instruction, Opcode, RegisterType, SrcModifier};

use super::flow::{lanes, Flow, Node};
use super::machine::Machine;
use super::{InterpError, InterpErrorKind as K, MAX_CALL_DEPTH};

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
