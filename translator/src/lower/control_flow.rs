//! Structured control flow: if/ifc/else, loop and rep with a hard iteration bound, break,
//! breakc, breakp, and call/callnz/label/ret as naga functions.

use std::collections::HashMap;

use naga::{BinaryOperator as B, Block, Expression, Statement, UnaryOperator};

use super::builder::{FnBuilder, SharedKey};
use super::operands::Op;
use super::state::{Expr, Frame};
use super::{LowerError, Lowerer};
use crate::bytecode::{Comparison, Instruction, Nesting, Opcode, Register, RegisterType, SrcModifier, SrcParam};

/// D3D9 loop counts are at most 255; every emitted loop stops after this many iterations.
pub const MAX_ITERATIONS: i32 = 255;

impl Lowerer<'_> {
    /// `if b#` / `if p0.c`.
    pub fn open_if(&mut self, op: &Op) -> Result<(), LowerError> {
        let condition = self.bool_condition(&op.src(0))?;
        self.push_if(condition);
        Ok(())
    }

    /// `if_cmp a, b`.
    pub fn open_ifc(&mut self, op: &Op) -> Result<(), LowerError> {
        let condition = self.comparison(op)?;
        self.push_if(condition);
        Ok(())
    }

    fn push_if(&mut self, condition: Expr) {
        self.open();
        self.flow.push(Frame::If { condition, accept: None });
    }

    /// `else`: the accept block is done, the reject block opens.
    pub fn else_branch(&mut self) -> Result<(), LowerError> {
        if !matches!(self.flow.last(), Some(Frame::If { accept: None, .. })) {
            return Err(self.invalid("else without if"));
        }
        let block = self.close();
        if let Some(Frame::If { accept, .. }) = self.flow.last_mut() {
            *accept = Some(block);
        }
        self.open();
        Ok(())
    }

    /// `endif`.
    pub fn close_if(&mut self) -> Result<(), LowerError> {
        match self.flow.pop() {
            Some(Frame::If { condition, accept }) => {
                let block = self.close();
                let (accept, reject) = match accept {
                    Some(a) => (a, block),
                    None => (block, Block::new()),
                };
                self.stmt(Statement::If { condition, accept, reject });
                Ok(())
            }
            _ => Err(self.invalid("endif without if")),
        }
    }

    /// `break`, `break_cmp a, b` and `breakp p0.c`.
    pub fn break_op(&mut self, op: &Op) -> Result<(), LowerError> {
        let condition = match op.opcode() {
            Opcode::BreakC => Some(self.comparison(op)?),
            Opcode::BreakP => Some(self.bool_condition(&op.src(0))?),
            _ => None,
        };
        self.brk(condition)
    }

    /// `call l#` and `callnz l#, b#/p0.c`.
    pub fn call(&mut self, op: &Op) -> Result<(), LowerError> {
        let l = op.src(0).reg.num;
        // Lenient: a call to a label that does not exist does nothing (the strict
        // validator rejects such programs).
        let Some(&function) = self.functions.get(&l) else { return Ok(()) };
        let call = Statement::Call { function, arguments: Vec::new(), result: None };
        if op.opcode() == Opcode::Call {
            self.stmt(call);
            return Ok(());
        }
        let condition = self.bool_condition(&op.src(1))?;
        let mut accept = Block::new();
        accept.push(call, naga::Span::UNDEFINED);
        self.stmt(Statement::If { condition, accept, reject: Block::new() });
        // The subroutine may have written any register: forget the cached values,
        // as `stmt` does for a bare call (fuzz-diff found main reading the value
        // from before a `callnz`).
        self.fb.tables.values.clear();
        Ok(())
    }

    /// `ret` before the end of a function body returns early.
    pub fn ret(&mut self) -> Result<(), LowerError> {
        self.stmt(Statement::Return { value: None });
        Ok(())
    }

    /// A `b#`, `p0.c` or `!p0.c` condition.
    pub fn bool_condition(&mut self, s: &SrcParam) -> Result<Expr, LowerError> {
        let v = match s.reg.ty {
            RegisterType::ConstBool => self.read_bool_constant(s.reg.num)?,
            RegisterType::Predicate => {
                let p = self.reg_value(s.reg)?;
                self.fb.expr(Expression::AccessIndex { base: p, index: s.swizzle.get(0) as u32 })
            }
            _ => return Err(self.invalid(format!("{} is not a condition", s.reg.name()))),
        };
        Ok(if s.modifier == SrcModifier::Not {
            self.fb.expr(Expression::Unary { op: UnaryOperator::LogicalNot, expr: v })
        } else {
            v
        })
    }

    /// Comparison with D3D9's rules: ordered, except `ne`, which is true when a NaN is involved.
    pub fn compare(&mut self, cmp: Comparison, a: Expr, b: Expr) -> Expr {
        match cmp {
            Comparison::Gt => self.bin(B::Greater, a, b),
            Comparison::Ge => self.bin(B::GreaterEqual, a, b),
            Comparison::Lt => self.bin(B::Less, a, b),
            Comparison::Le => self.bin(B::LessEqual, a, b),
            Comparison::Eq => self.bin(B::Equal, a, b),
            Comparison::Ne => {
                let eq = self.bin(B::Equal, a, b);
                self.fb.expr(Expression::Unary { op: UnaryOperator::LogicalNot, expr: eq })
            }
        }
    }

    /// `ifc`/`breakc`: compares the scalar sources.
    fn comparison(&mut self, op: &Op) -> Result<Expr, LowerError> {
        let cmp = op.comparison();
        let a = self.src_scalar_n(op, 0)?;
        let b = self.src_scalar_n(op, 1)?;
        Ok(self.compare(cmp, a, b))
    }

    /// `setp_cmp p0, a, b`: per component.
    pub fn setp(&mut self, op: &Op) -> Result<(), LowerError> {
        let cmp = op.comparison();
        let dst = op.dst();
        if dst.reg.ty != RegisterType::Predicate {
            return Err(self.invalid("setp writes p0"));
        }
        let a = self.src_n(op, 0)?;
        let b = self.src_n(op, 1)?;
        let v = self.compare(cmp, a, b);
        self.store_vec4(op, dst, dst.mask, v, self.t.vec4b)
    }

    fn brk(&mut self, condition: Option<Expr>) -> Result<(), LowerError> {
        if !self.flow.iter().any(|f| matches!(f, Frame::Loop { .. })) {
            return Err(self.invalid("break outside a loop"));
        }
        match condition {
            None => self.stmt(Statement::Break),
            Some(condition) => {
                let mut accept = Block::new();
                accept.push(Statement::Break, naga::Span::UNDEFINED);
                self.stmt(Statement::If { condition, accept, reject: Block::new() });
            }
        }
        Ok(())
    }

    /// `loop aL, i#` (count i#.x, start i#.y, step i#.z) and `rep i#` (count i#.x).
    pub fn open_loop(&mut self, op: &Op) -> Result<(), LowerError> {
        let is_loop = op.opcode() == Opcode::Loop;
        let int_src = op.src(if is_loop { 1 } else { 0 });
        if int_src.reg.ty != RegisterType::ConstInt {
            return Err(self.invalid("loop count must be an i# register"));
        }
        let i = self.read_int_constant(int_src.reg.num)?;
        let count = self.component(i, 0);
        let bound = self.fb.shared(SharedKey::I32(MAX_ITERATIONS));
        let count = self.math2(naga::MathFunction::Min, count, bound);
        let (step, saved_al) = if is_loop {
            let al = self.reg_var(Register::new(RegisterType::Loop, 0));
            let al_ptr = self.var_ptr(al);
            let saved = self.local_var(self.t.i32, "saved_aL".into());
            let saved_ptr = self.var_ptr(saved);
            let old = self.load(al_ptr);
            self.stmt(Statement::Store { pointer: saved_ptr, value: old });
            let start = self.component(i, 1);
            self.stmt(Statement::Store { pointer: al_ptr, value: start });
            (Some(self.component(i, 2)), Some(saved))
        } else {
            (None, None)
        };
        let counter = self.local_var(self.t.i32, "iteration".into());
        let cp = self.var_ptr(counter);
        let zero = self.fb.shared(SharedKey::I32(0));
        self.stmt(Statement::Store { pointer: cp, value: zero });
        self.open();
        // The bound check opens the body: a count of 0 (or less) runs nothing.
        let n = self.load(cp);
        let done = self.bin(B::GreaterEqual, n, count);
        let mut accept = Block::new();
        accept.push(Statement::Break, naga::Span::UNDEFINED);
        self.stmt(Statement::If { condition: done, accept, reject: Block::new() });
        self.flow.push(Frame::Loop { counter, step, saved_al });
        Ok(())
    }

    pub fn close_loop(&mut self, is_loop: bool) -> Result<(), LowerError> {
        let Some(Frame::Loop { counter, step, saved_al }) = self.flow.pop() else {
            return Err(self.invalid("endloop/endrep without loop/rep"));
        };
        if is_loop != step.is_some() {
            return Err(self.invalid("endloop closes a rep, or endrep a loop"));
        }
        let body = self.close();
        self.open();
        let cp = self.var_ptr(counter);
        let n = self.load(cp);
        let one = self.fb.shared(SharedKey::I32(1));
        let n1 = self.bin(B::Add, n, one);
        self.stmt(Statement::Store { pointer: cp, value: n1 });
        if let Some(step) = step {
            let al = self.reg_var(Register::new(RegisterType::Loop, 0));
            let ap = self.var_ptr(al);
            let a = self.load(ap);
            let a1 = self.bin(B::Add, a, step);
            self.stmt(Statement::Store { pointer: ap, value: a1 });
        }
        let continuing = self.close();
        self.stmt(Statement::Loop { body, continuing, break_if: None });
        if let Some(saved) = saved_al {
            let al = self.reg_var(Register::new(RegisterType::Loop, 0));
            let ap = self.var_ptr(al);
            let sp = self.var_ptr(saved);
            let v = self.load(sp);
            self.stmt(Statement::Store { pointer: ap, value: v });
        }
        Ok(())
    }

    /// Lowers every subroutine into a naga function, callees first.
    pub fn lower_subroutines(&mut self) -> Result<(), LowerError> {
        let program = self.program;
        // label -> (first instruction, end)
        let mut bodies: HashMap<u16, (usize, usize)> = HashMap::new();
        let mut order_seen = Vec::new();
        let mut i = self.sig.main_end;
        while i < program.len() {
            if program[i].opcode == Opcode::Label {
                let l = program[i].src.get(0).map(|s| s.reg.num).unwrap_or(0);
                let start = i + 1;
                let mut end = start;
                while end < program.len() && program[end].opcode != Opcode::Label {
                    end += 1;
                }
                self.offset = program[i].offset;
                if bodies.insert(l, (start, end)).is_some() {
                    return Err(self.invalid(format!("label l{l} defined twice")));
                }
                order_seen.push(l);
                i = end;
            } else {
                i += 1;
            }
        }
        // Depth-first post-order over the call graph; a cycle is recursion, which D3D9 forbids.
        let mut state: HashMap<u16, u8> = HashMap::new();
        let mut order = Vec::new();
        fn visit(
            l: u16,
            program: &[Instruction],
            bodies: &HashMap<u16, (usize, usize)>,
            state: &mut HashMap<u16, u8>,
            order: &mut Vec<u16>,
        ) -> Result<(), LowerError> {
            match state.get(&l) {
                Some(2) => return Ok(()),
                Some(_) => return Err(LowerError::Invalid { offset: 0, what: format!("recursive call of l{l}") }),
                None => {}
            }
            state.insert(l, 1);
            let (s, e) = bodies[&l];
            for inst in &program[s..e] {
                if matches!(inst.opcode, Opcode::Call | Opcode::CallNz) {
                    let t = inst.src.get(0).map(|x| x.reg.num).unwrap_or(0);
                    if !bodies.contains_key(&t) {
                        continue;
                    }
                    visit(t, program, bodies, state, order)?;
                }
            }
            state.insert(l, 2);
            order.push(l);
            Ok(())
        }
        for &l in &order_seen {
            visit(l, program, &bodies, &mut state, &mut order)?;
        }
        for l in order {
            let (s, e) = bodies[&l];
            let mut fb = FnBuilder::new(&format!("l{l}"), self.t.vec4f, e.saturating_sub(s));
            std::mem::swap(&mut self.fb, &mut fb);
            let result = self.lower_subroutine_body(s, e);
            self.sync_values();
            std::mem::swap(&mut self.fb, &mut fb);
            result?;
            let h = self.module.functions.append(fb.finish(), naga::Span::UNDEFINED);
            self.functions.insert(l, h);
        }
        Ok(())
    }

    fn lower_subroutine_body(&mut self, start: usize, end: usize) -> Result<(), LowerError> {
        // The closing `ret` at depth 0 ends the body; anything after it is unreachable.
        let mut depth = 0usize;
        let mut stop = end;
        for (i, inst) in self.program[start..end].iter().enumerate() {
            match inst.opcode.info().nesting {
                Nesting::Open { .. } => depth += 1,
                Nesting::Close => depth = depth.saturating_sub(1),
                _ if inst.opcode == Opcode::Ret && depth == 0 => {
                    stop = start + i;
                    break;
                }
                _ => {}
            }
        }
        self.lower_range(start, stop)
    }
}
