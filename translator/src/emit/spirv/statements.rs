//! Statements: naga's structured control flow as SPIR-V's structured control flow (SPIR-V
//! 2.11): `If` as a selection with its merge block, `Loop` as a loop header, body, continue
//! construct and merge block, `Switch` as a selection with one block per case. A block ends at
//! its first terminator; what follows it in the IR cannot run and is not written.

use naga::{Block, Statement as S};
use spirv::{LoopControl, Op, SelectionControl};

use super::functions::Cx;
use super::state::Target;
use super::{Result, Unsupported, Writer};

impl<'m> Writer<'m> {
    pub(super) fn write_block(&mut self, cx: Cx<'m>, block: &'m Block) -> Result<()> {
        for statement in block.iter() {
            if !self.buf.fx.open {
                break;
            }
            self.write_statement(cx, statement)?;
        }
        Ok(())
    }

    fn write_statement(&mut self, cx: Cx<'m>, statement: &'m S) -> Result<()> {
        match *statement {
            S::Emit(ref range) => {
                for h in range.clone() {
                    self.write_expression(cx, h)?;
                }
            }
            S::Block(ref b) => self.write_block(cx, b)?,
            S::If { condition, ref accept, ref reject } => self.write_if(cx, condition, accept, reject)?,
            S::Switch { selector, ref cases } => self.write_switch(cx, selector, cases)?,
            S::Loop { ref body, ref continuing, break_if } => self.write_loop(cx, body, continuing, break_if)?,
            S::Break => {
                let target = self.buf.fx.targets.last().ok_or(Unsupported("break outside a loop"))?.merge;
                self.terminate(Op::Branch, &[target]);
            }
            S::Continue => {
                let target = self.buf.fx.targets.iter().rev().find_map(|t| t.next);
                let target = target.ok_or(Unsupported("continue outside a loop"))?;
                self.terminate(Op::Branch, &[target]);
            }
            S::Return { value } => self.write_return(cx, value)?,
            S::Kill => self.terminate(Op::Kill, &[]),
            S::Store { pointer, value } => {
                let p = self.value(cx, pointer)?;
                let v = self.value(cx, value)?;
                self.buf.fx.body.op(Op::Store, &[p, v]);
            }
            S::Call { function, ref arguments, result } => {
                let ty = match self.module.functions[function].result {
                    Some(ref r) => self.type_id(r.ty)?,
                    None => self.void_type()?,
                };
                // Every argument's id first (finding one may write its instructions); the
                // lowering's calls take two arguments, so no list is allocated for them.
                let mut ids = [0u32; 4];
                let mut more = Vec::new();
                for (i, &a) in arguments.iter().enumerate() {
                    let v = self.value(cx, a)?;
                    match ids.get_mut(i) {
                        Some(slot) => *slot = v,
                        None => more.push(v),
                    }
                }
                let id = self.id();
                let start = self.buf.fx.body.begin(Op::FunctionCall);
                for word in [ty, id, self.buf.function_ids[function.index()]] {
                    self.buf.fx.body.push(word);
                }
                for &a in ids.iter().take(arguments.len()).chain(&more) {
                    self.buf.fx.body.push(a);
                }
                self.buf.fx.body.end(start);
                if let Some(r) = result {
                    self.buf.fx.ids[r.index()] = id;
                }
            }
            _ => return Err(Unsupported("statement")),
        }
        Ok(())
    }

    /// Ends the current block with `op`.
    fn terminate(&mut self, op: Op, operands: &[u32]) {
        self.buf.fx.body.op(op, operands);
        self.buf.fx.open = false;
    }

    /// Starts block `label`.
    fn label(&mut self, label: u32) {
        self.buf.fx.body.op(Op::Label, &[label]);
        self.buf.fx.open = true;
    }

    /// Writes `block` as the block `label`, then branches to `next` if it did not end itself.
    fn write_branch(&mut self, cx: Cx<'m>, label: u32, block: &'m Block, next: u32) -> Result<()> {
        self.label(label);
        self.write_block(cx, block)?;
        if self.buf.fx.open {
            self.terminate(Op::Branch, &[next]);
        }
        Ok(())
    }

    fn write_if(
        &mut self,
        cx: Cx<'m>,
        condition: naga::Handle<naga::Expression>,
        accept: &'m Block,
        reject: &'m Block,
    ) -> Result<()> {
        let c = self.value(cx, condition)?;
        let merge = self.id();
        let accept_label = if accept.is_empty() { merge } else { self.id() };
        let reject_label = if reject.is_empty() { merge } else { self.id() };
        self.buf.fx.body.op(Op::SelectionMerge, &[merge, SelectionControl::NONE.bits()]);
        self.terminate(Op::BranchConditional, &[c, accept_label, reject_label]);
        if !accept.is_empty() {
            self.write_branch(cx, accept_label, accept, merge)?;
        }
        if !reject.is_empty() {
            self.write_branch(cx, reject_label, reject, merge)?;
        }
        self.label(merge);
        Ok(())
    }

    fn write_switch(
        &mut self,
        cx: Cx<'m>,
        selector: naga::Handle<naga::Expression>,
        cases: &'m [naga::SwitchCase],
    ) -> Result<()> {
        let s = self.value(cx, selector)?;
        let merge = self.id();
        let labels: Vec<u32> = cases.iter().map(|_| self.id()).collect();
        let default = cases.iter().position(|c| c.value == naga::SwitchValue::Default).map_or(merge, |i| labels[i]);
        self.buf.fx.body.op(Op::SelectionMerge, &[merge, SelectionControl::NONE.bits()]);
        let start = self.buf.fx.body.begin(Op::Switch);
        self.buf.fx.body.push(s);
        self.buf.fx.body.push(default);
        for (case, &label) in cases.iter().zip(&labels) {
            let value = match case.value {
                naga::SwitchValue::I32(v) => v as u32,
                naga::SwitchValue::U32(v) => v,
                naga::SwitchValue::Default => continue,
            };
            self.buf.fx.body.push(value);
            self.buf.fx.body.push(label);
        }
        self.buf.fx.body.end(start);
        self.buf.fx.open = false;
        self.buf.fx.targets.push(Target { merge, next: None });
        for (i, case) in cases.iter().enumerate() {
            // A fall-through case continues into the next case's block.
            let next = if case.fall_through { labels.get(i + 1).copied().unwrap_or(merge) } else { merge };
            self.write_branch(cx, labels[i], &case.body, next)?;
        }
        self.buf.fx.targets.pop();
        self.label(merge);
        Ok(())
    }

    fn write_loop(
        &mut self,
        cx: Cx<'m>,
        body: &'m Block,
        continuing: &'m Block,
        break_if: Option<naga::Handle<naga::Expression>>,
    ) -> Result<()> {
        let (header, body_label, next, merge) = (self.id(), self.id(), self.id(), self.id());
        self.terminate(Op::Branch, &[header]);
        self.label(header);
        self.buf.fx.body.op(Op::LoopMerge, &[merge, next, LoopControl::NONE.bits()]);
        self.terminate(Op::Branch, &[body_label]);
        self.buf.fx.targets.push(Target { merge, next: Some(next) });
        self.write_branch(cx, body_label, body, next)?;
        // The continue construct: a `Break` there is not allowed (naga's validator), so the
        // target stack needs nothing new.
        self.label(next);
        self.write_block(cx, continuing)?;
        if self.buf.fx.open {
            match break_if {
                Some(condition) => {
                    let c = self.value(cx, condition)?;
                    self.terminate(Op::BranchConditional, &[c, merge, header]);
                }
                None => self.terminate(Op::Branch, &[header]),
            }
        }
        self.buf.fx.targets.pop();
        self.label(merge);
        Ok(())
    }

    fn write_return(&mut self, cx: Cx<'m>, value: Option<naga::Handle<naga::Expression>>) -> Result<()> {
        let Some(value) = value else {
            self.terminate(Op::Return, &[]);
            return Ok(());
        };
        let v = self.value(cx, value)?;
        if !cx.entry {
            self.terminate(Op::ReturnValue, &[v]);
            return Ok(());
        }
        if !self.buf.fx.result_is_struct {
            let out = self.buf.fx.outputs[0];
            self.buf.fx.body.op(Op::Store, &[out, v]);
        } else {
            let module = self.module;
            let Some(ref result) = cx.fun.result else { return Err(Unsupported("return without a result")) };
            let naga::TypeInner::Struct { ref members, .. } = module.types[result.ty].inner else {
                return Err(Unsupported("struct result"));
            };
            for (i, m) in members.iter().enumerate() {
                let ty = self.type_id(m.ty)?;
                let part = self.binary(Op::CompositeExtract, ty, v, i as u32);
                let out = self.buf.fx.outputs[i];
                self.buf.fx.body.op(Op::Store, &[out, part]);
            }
        }
        self.terminate(Op::Return, &[]);
        Ok(())
    }
}
