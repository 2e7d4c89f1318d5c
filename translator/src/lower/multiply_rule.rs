//! The strict multiply rule (docs/d3d9-rules.md#float-rules: 0 · anything = 0, inf and NaN
//! included) as a function of the module, called once per product whose factors the lowering
//! knows nothing about.
//!
//! Inline, the rule is five expressions per product (two tests, two selects, the multiply);
//! a call is one. naga's validation and both writers cost in proportion to the expressions of
//! a module, and under the strict rules these guarded products were a quarter of them on the
//! bench corpus (`examples/expression_count.rs`). The function computes exactly the inline
//! form, so no result changes; drivers inline a function this small (`spirv-opt -O` does, and
//! so do Mesa's and Tint's compilers), so the code a GPU runs is the same.

use naga::{
    BinaryOperator as B, Block, Expression, Function, FunctionArgument, FunctionResult, Handle, Span, Statement,
};

use super::parts::Width;
use super::state::Expr;
use super::Lowerer;

impl Lowerer<'_> {
    /// `(b == 0 ? 0 : a) · (a == 0 ? 0 : b)` for factors of width `w`, as a call of the rule's
    /// function (made once per block for the same factors).
    pub fn rule_product(&mut self, a: Expr, b: Expr, w: Width) -> Expr {
        let function = self.rule_function(w);
        self.fb.pure_call(function, a, b)
    }

    /// The module's function of the rule for `w`, added when first needed: before the
    /// function that calls it, as naga requires of a callee.
    fn rule_function(&mut self, w: Width) -> Handle<Function> {
        let slot = match w {
            Width::Scalar => 0,
            Width::Vec4 => 1,
        };
        if let Some(f) = self.rule_functions[slot] {
            return f;
        }
        let (ty, zero, name) = match w {
            Width::Scalar => (self.t.f32, Expression::Literal(naga::Literal::F32(0.0)), "mul_rule_scalar"),
            Width::Vec4 => (self.t.vec4f, Expression::Constant(self.vec4_constant([0; 4])), "mul_rule_vector"),
        };
        let f = rule_function_body(name, ty, zero);
        let h = self.module.functions.append(f, Span::UNDEFINED);
        self.rule_functions[slot] = Some(h);
        h
    }
}

/// `fn name(a: ty, b: ty) -> ty { return select(a, 0, b == 0) * select(b, 0, a == 0); }`,
/// with `zero` the +0 of `ty`.
fn rule_function_body(name: &str, ty: Handle<naga::Type>, zero: Expression) -> Function {
    let argument = |name: &str| FunctionArgument { name: Some(name.into()), ty, binding: None };
    let mut f = Function {
        name: Some(name.into()),
        arguments: vec![argument("a"), argument("b")],
        result: Some(FunctionResult { ty, binding: None }),
        ..Function::default()
    };
    let e = &mut f.expressions;
    let span = Span::UNDEFINED;
    let a = e.append(Expression::FunctionArgument(0), span);
    let b = e.append(Expression::FunctionArgument(1), span);
    let zero = e.append(zero, span);
    let first = e.len();
    let a_zero = e.append(Expression::Binary { op: B::Equal, left: a, right: zero }, span);
    let b_zero = e.append(Expression::Binary { op: B::Equal, left: b, right: zero }, span);
    let a_kept = e.append(Expression::Select { condition: b_zero, accept: zero, reject: a }, span);
    let b_kept = e.append(Expression::Select { condition: a_zero, accept: zero, reject: b }, span);
    let product = e.append(Expression::Binary { op: B::Multiply, left: a_kept, right: b_kept }, span);
    let mut body = Block::new();
    body.push(Statement::Emit(e.range_from(first)), span);
    body.push(Statement::Return { value: Some(product) }, span);
    f.body = body;
    f
}
