//! Statements, and the choice of which expressions become `let`s at their `Emit`.

use naga::{Block, Expression, Handle, Statement, SwitchValue};

use super::expressions::Indirection;
use super::text::{push_baked, push_i32, push_indent, push_u32};
use super::{Cx, Unsupported, Writer};

impl Writer<'_> {
    /// Each statement of `block` at indentation `level`.
    pub(super) fn write_block(&mut self, cx: &Cx, block: &Block, level: usize) -> Result<(), Unsupported> {
        for s in block.iter() {
            self.write_statement(cx, s, level)?;
        }
        Ok(())
    }

    fn write_statement(&mut self, cx: &Cx, s: &Statement, level: usize) -> Result<(), Unsupported> {
        match *s {
            Statement::Emit(ref range) => {
                for h in range.clone() {
                    if self.bakes(cx, h) {
                        self.write_let(cx, h, level)?;
                    }
                }
            }
            Statement::Store { pointer, value } => {
                push_indent(&mut self.out, level);
                self.write_expr_as(cx, pointer, Indirection::Reference)?;
                self.out.push_str(" = ");
                self.write_expr(cx, value)?;
                self.out.push_str(";\n");
            }
            Statement::If { condition, ref accept, ref reject } => {
                push_indent(&mut self.out, level);
                self.out.push_str("if ");
                self.write_expr(cx, condition)?;
                self.out.push_str(" {\n");
                self.write_block(cx, accept, level + 1)?;
                if !reject.is_empty() {
                    push_indent(&mut self.out, level);
                    self.out.push_str("} else {\n");
                    self.write_block(cx, reject, level + 1)?;
                }
                self.close(level);
            }
            Statement::Loop { ref body, ref continuing, break_if } => {
                self.write_loop(cx, body, continuing, break_if, level)?
            }
            Statement::Switch { selector, ref cases } => self.write_switch(cx, selector, cases, level)?,
            Statement::Call { function, ref arguments, result } => {
                push_indent(&mut self.out, level);
                if let Some(r) = result {
                    self.out.push_str("let ");
                    push_baked(&mut self.out, r.index());
                    self.out.push_str(" = ");
                    self.baked[r.index()] = true;
                }
                self.push_name(self.names.functions[function.index()]);
                self.out.push('(');
                for (i, &a) in arguments.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.write_expr(cx, a)?;
                }
                self.out.push_str(");\n");
            }
            Statement::Return { value } => {
                push_indent(&mut self.out, level);
                self.out.push_str("return");
                if let Some(v) = value {
                    self.out.push(' ');
                    self.write_expr(cx, v)?;
                }
                self.out.push_str(";\n");
            }
            Statement::Block(ref b) => {
                push_indent(&mut self.out, level);
                self.out.push_str("{\n");
                self.write_block(cx, b, level + 1)?;
                self.close(level);
            }
            Statement::Kill => self.line(level, "discard;\n"),
            Statement::Break => self.line(level, "break;\n"),
            Statement::Continue => self.line(level, "continue;\n"),
            _ => return Err(Unsupported("a statement outside the translator's set")),
        }
        Ok(())
    }

    /// Whether `h` becomes a `let` where its `Emit` stands. Loads, samples, image queries and
    /// derivatives depend on where they are evaluated (a later store, a branch), so they are
    /// named there; so is any value used more than once (computed once) and any the lowering
    /// named (which bounds how deeply a chain of single uses nests). Accesses are never named:
    /// one into a variable is a reference, which a `let` cannot hold. An unused pure value is
    /// not written at all, as in naga's text; an unused sample still is.
    fn bakes(&self, cx: &Cx, h: Handle<Expression>) -> bool {
        let uses = cx.fi.ref_count(h);
        match cx.f.expressions[h] {
            Expression::Access { .. } | Expression::AccessIndex { .. } => false,
            Expression::ImageSample { .. } | Expression::ImageLoad { .. } | Expression::ImageQuery { .. } => true,
            Expression::Load { .. } | Expression::Derivative { .. } => uses >= 1,
            _ => uses >= 2 || self.named[h.index()],
        }
    }

    /// `let _eN = <expression>;`
    fn write_let(&mut self, cx: &Cx, h: Handle<Expression>, level: usize) -> Result<(), Unsupported> {
        push_indent(&mut self.out, level);
        self.out.push_str("let ");
        push_baked(&mut self.out, h.index());
        self.out.push_str(" = ");
        self.write_expr(cx, h)?;
        self.out.push_str(";\n");
        // Only now: the right side is the expression itself, later uses its name.
        self.baked[h.index()] = true;
        Ok(())
    }

    /// `loop { body continuing { ... break if c; } }`; the continuing block is written only
    /// when it has statements or a `break if`.
    fn write_loop(
        &mut self,
        cx: &Cx,
        body: &Block,
        continuing: &Block,
        break_if: Option<Handle<Expression>>,
        level: usize,
    ) -> Result<(), Unsupported> {
        self.line(level, "loop {\n");
        self.write_block(cx, body, level + 1)?;
        if !continuing.is_empty() || break_if.is_some() {
            self.line(level + 1, "continuing {\n");
            self.write_block(cx, continuing, level + 2)?;
            if let Some(c) = break_if {
                self.line(level + 2, "break if ");
                self.write_expr(cx, c)?;
                self.out.push_str(";\n");
            }
            self.close(level + 1);
        }
        self.close(level);
        Ok(())
    }

    /// `switch s { case 1, 2: { ... } default: { ... } }`: a falling-through empty case joins
    /// the next case's selector list (a fall-through with statements has no WGSL form).
    fn write_switch(
        &mut self,
        cx: &Cx,
        selector: Handle<Expression>,
        cases: &[naga::SwitchCase],
        level: usize,
    ) -> Result<(), Unsupported> {
        self.line(level, "switch ");
        self.write_expr(cx, selector)?;
        self.out.push_str(" {\n");
        let mut new_case = true;
        for case in cases {
            if case.fall_through && !case.body.is_empty() {
                return Err(Unsupported("a switch case falling through after statements"));
            }
            if new_case {
                push_indent(&mut self.out, level + 1);
                // naga writes `default` alone, or `case ..., default` inside a list.
                if !matches!(case.value, SwitchValue::Default) || case.fall_through {
                    self.out.push_str("case ");
                }
            }
            match case.value {
                SwitchValue::I32(v) => push_i32(&mut self.out, v),
                SwitchValue::U32(v) => {
                    push_u32(&mut self.out, v);
                    self.out.push('u');
                }
                SwitchValue::Default => self.out.push_str("default"),
            }
            new_case = !case.fall_through;
            if case.fall_through {
                self.out.push_str(", ");
            } else {
                self.out.push_str(": {\n");
                self.write_block(cx, &case.body, level + 2)?;
                self.close(level + 1);
            }
        }
        self.close(level);
        Ok(())
    }

    /// `text` at indentation `level`.
    fn line(&mut self, level: usize, text: &str) {
        push_indent(&mut self.out, level);
        self.out.push_str(text);
    }

    /// `}` closing a block opened at `level`.
    fn close(&mut self, level: usize) {
        self.line(level, "}\n");
    }
}
