//! What the project's writers (`spirv/`, `wgsl/`) read about a module: each expression's type
//! and how many times it is used. naga's validator computes both as part of its analysis
//! (`ModuleInfo`); a release translation computes them here instead, without the rest of the
//! validation, which was about 14 % of its time (docs/architecture.md#naga-validation).
//!
//! The writers' output depends on both facts (the WGSL writer names a value used twice), so
//! they must equal naga's exactly: the types come from naga's own resolver, and the uses are
//! counted where naga's analyzer (`valid/analyzer.rs`, `process_expression`,
//! `process_block`, `process_function`) counts them. [`WriterFacts::differs_from`] compares the
//! two; every translation of a debug or `full-validation` build runs it (`Analysis::new`).

use naga::proc::{ResolveContext, ResolveError, TypeResolution};
use naga::valid::{FunctionInfo, ModuleInfo};
use naga::{Block, Expression, Function, Handle, Module, Statement};

use super::error::EmitError;

/// The writers' facts of one function's expressions, by expression handle: kept in two
/// arrays as they are computed (one of `ExprFacts`-like pairs cost a copy of every type).
#[derive(Debug, Default)]
pub struct FunctionFacts {
    types: Vec<TypeResolution>,
    uses: Vec<usize>,
}

impl FunctionFacts {
    /// The type of expression `h`, as naga's `ExpressionInfo::ty`.
    #[inline]
    pub fn ty(&self, h: Handle<Expression>) -> &TypeResolution {
        &self.types[h.index()]
    }

    /// How many expressions, statements and local initialisers use `h`, as naga's
    /// `ExpressionInfo::ref_count`.
    #[inline]
    pub fn ref_count(&self, h: Handle<Expression>) -> usize {
        self.uses[h.index()]
    }
}

/// The writers' facts of a module: the types of its global (constant) expressions and the
/// facts of each function and entry point, laid out as naga's `ModuleInfo` is.
#[derive(Debug, Default)]
pub struct WriterFacts {
    globals: Vec<TypeResolution>,
    functions: Vec<FunctionFacts>,
    entry_points: Vec<FunctionFacts>,
}

impl std::ops::Index<Handle<Function>> for WriterFacts {
    type Output = FunctionFacts;
    fn index(&self, h: Handle<Function>) -> &FunctionFacts {
        &self.functions[h.index()]
    }
}

impl std::ops::Index<Handle<Expression>> for WriterFacts {
    type Output = TypeResolution;
    /// The type of a global expression.
    fn index(&self, h: Handle<Expression>) -> &TypeResolution {
        &self.globals[h.index()]
    }
}

impl WriterFacts {
    /// Computes the facts. An error is a module naga's validator would refuse too (an
    /// expression whose type does not resolve, or one used before it is defined).
    pub fn new(module: &Module) -> Result<WriterFacts, EmitError> {
        let empty_locals = naga::Arena::new();
        let cx = ResolveContext::with_locals(module, &empty_locals, &[]);
        let mut globals = Vec::with_capacity(module.global_expressions.len());
        for (h, e) in module.global_expressions.iter() {
            let ty = resolve(&cx, e, |p| globals.get(p.index())).map_err(|e| failure(h, e))?;
            globals.push(ty);
        }
        let functions = module.functions.iter().map(|(_, f)| function_facts(module, f)).collect::<Result<_, _>>()?;
        let entry_points =
            module.entry_points.iter().map(|ep| function_facts(module, &ep.function)).collect::<Result<_, _>>()?;
        Ok(WriterFacts { globals, functions, entry_points })
    }

    /// The facts of entry point `index` (as `ModuleInfo::get_entry_point`).
    pub fn get_entry_point(&self, index: usize) -> &FunctionFacts {
        &self.entry_points[index]
    }

    /// Where these facts differ from naga's analysis of the same module, if anywhere: the
    /// proof that the writers read what they read from naga before.
    pub fn differs_from(&self, module: &Module, info: &ModuleInfo) -> Option<String> {
        for (h, _) in module.global_expressions.iter() {
            if self.globals.get(h.index()) != Some(&info[h]) {
                return Some(format!(
                    "global expression {h:?}: {:?} vs naga's {:?}",
                    self.globals.get(h.index()),
                    info[h]
                ));
            }
        }
        for (h, f) in module.functions.iter() {
            if let Some(d) = self.functions.get(h.index()).and_then(|ff| ff.differs_from(f, &info[h])) {
                return Some(format!("function {h:?}: {d}"));
            }
        }
        for (i, ep) in module.entry_points.iter().enumerate() {
            if let Some(d) =
                self.entry_points.get(i).and_then(|ff| ff.differs_from(&ep.function, info.get_entry_point(i)))
            {
                return Some(format!("entry point {i}: {d}"));
            }
        }
        let counts = (self.functions.len(), self.entry_points.len());
        (counts != (module.functions.len(), module.entry_points.len())).then(|| format!("{counts:?} functions"))
    }
}

impl FunctionFacts {
    fn differs_from(&self, f: &Function, info: &FunctionInfo) -> Option<String> {
        if self.types.len() != f.expressions.len() || self.uses.len() != f.expressions.len() {
            return Some(format!("{} expressions of {}", self.types.len(), f.expressions.len()));
        }
        f.expressions.iter().find_map(|(h, _)| {
            let (ty, uses, naga) = (self.ty(h), self.ref_count(h), &info[h]);
            (*ty != naga.ty || uses != naga.ref_count)
                .then(|| format!("{h:?}: {ty:?} used {uses} times vs naga's {:?} used {}", naga.ty, naga.ref_count))
        })
    }
}

/// A resolution error as naga's validator reports one.
fn failure(h: Handle<Expression>, e: ResolveError) -> EmitError {
    EmitError::Validation { token: None, message: format!("type of {h:?}: {e}") }
}

/// naga's type of `e`, given the types of the expressions before it (`past`).
fn resolve<'a>(
    cx: &ResolveContext<'a>,
    e: &Expression,
    past: impl Fn(Handle<Expression>) -> Option<&'a TypeResolution>,
) -> Result<TypeResolution, ResolveError> {
    cx.resolve(e, |p| {
        past(p).ok_or_else(|| ResolveError::IncompatibleOperands(format!("{p:?} used before it is defined")))
    })
}

/// One function's facts: types in arena order (each expression's operands come before it),
/// then uses, counted as naga's analyzer counts them.
fn function_facts(module: &Module, f: &Function) -> Result<FunctionFacts, EmitError> {
    let cx = ResolveContext::with_locals(module, &f.local_variables, &f.arguments);
    let mut types: Vec<TypeResolution> = Vec::with_capacity(f.expressions.len());
    for (h, e) in f.expressions.iter() {
        let ty = resolve_local(&cx, e, &types).map_err(|e| failure(h, e))?;
        types.push(ty);
    }
    let mut uses = Uses { counts: vec![0; f.expressions.len()], bad: None };
    for (_, e) in f.expressions.iter() {
        uses.expression(e);
    }
    for (_, local) in f.local_variables.iter() {
        if let Some(init) = local.init {
            uses.add(init);
        }
    }
    uses.block(&f.body);
    if let Some(h) = uses.bad {
        return Err(failure(h, ResolveError::IncompatibleOperands("a use of an expression that is not there".into())));
    }
    Ok(FunctionFacts { types, uses: uses.counts })
}

/// `resolve` over a function's types so far (a separate function so the borrow of `types`
/// ends before the caller pushes the result).
fn resolve_local(
    cx: &ResolveContext,
    e: &Expression,
    types: &[TypeResolution],
) -> Result<TypeResolution, ResolveError> {
    resolve(cx, e, |p| types.get(p.index()))
}

/// Use counts of a function's expressions.
struct Uses {
    counts: Vec<usize>,
    /// A handle outside the arena (a module naga refuses).
    bad: Option<Handle<Expression>>,
}

impl Uses {
    fn add(&mut self, h: Handle<Expression>) {
        match self.counts.get_mut(h.index()) {
            Some(c) => *c += 1,
            None => self.bad = Some(h),
        }
    }

    fn add_opt(&mut self, h: Option<Handle<Expression>>) {
        if let Some(h) = h {
            self.add(h);
        }
    }

    /// The operands of `e`, each counted once per mention (naga's `process_expression`).
    fn expression(&mut self, e: &Expression) {
        use naga::{Expression as E, SampleLevel as L};
        match *e {
            E::Access { base, index } => {
                self.add(base);
                self.add(index);
            }
            E::AccessIndex { base, .. } => self.add(base),
            E::Splat { value: h, .. }
            | E::Swizzle { vector: h, .. }
            | E::Load { pointer: h }
            | E::Unary { expr: h, .. }
            | E::Derivative { expr: h, .. }
            | E::Relational { argument: h, .. }
            | E::As { expr: h, .. }
            | E::ArrayLength(h)
            | E::RayQueryGetIntersection { query: h, .. }
            | E::RayQueryVertexPositions { query: h, .. } => self.add(h),
            E::Compose { ref components, .. } => components.iter().for_each(|&c| self.add(c)),
            E::ImageSample { image, sampler, coordinate, array_index, offset, level, depth_ref, .. } => {
                self.add_opt(array_index);
                match level {
                    L::Auto | L::Zero => {}
                    L::Exact(h) | L::Bias(h) => self.add(h),
                    L::Gradient { x, y } => {
                        self.add(x);
                        self.add(y);
                    }
                }
                self.add_opt(depth_ref);
                self.add_opt(offset);
                [image, sampler, coordinate].into_iter().for_each(|h| self.add(h));
            }
            E::ImageLoad { image, coordinate, array_index, sample, level } => {
                [array_index, sample, level, Some(image), Some(coordinate)].into_iter().for_each(|h| self.add_opt(h));
            }
            E::ImageQuery { image, query } => {
                if let naga::ImageQuery::Size { level: Some(h) } = query {
                    self.add(h);
                }
                self.add(image);
            }
            E::Binary { left, right, .. } => {
                self.add(left);
                self.add(right);
            }
            E::Select { condition, accept, reject } => {
                [condition, accept, reject].into_iter().for_each(|h| self.add(h))
            }
            E::Math { arg, arg1, arg2, arg3, .. } => {
                [Some(arg), arg1, arg2, arg3].into_iter().for_each(|h| self.add_opt(h));
            }
            E::CooperativeLoad { ref data, .. } => {
                self.add(data.pointer);
                self.add(data.stride);
            }
            E::CooperativeMultiplyAdd { a, b, c } => [a, b, c].into_iter().for_each(|h| self.add(h)),
            E::Literal(_)
            | E::Constant(_)
            | E::Override(_)
            | E::ZeroValue(_)
            | E::FunctionArgument(_)
            | E::GlobalVariable(_)
            | E::LocalVariable(_)
            | E::CallResult(_)
            | E::AtomicResult { .. }
            | E::RayQueryProceedResult
            | E::WorkGroupUniformLoadResult { .. }
            | E::SubgroupBallotResult
            | E::SubgroupOperationResult { .. } => {}
        }
    }

    /// The expressions a block's statements use (naga's `process_block`; `Emit` uses none).
    fn block(&mut self, block: &Block) {
        for statement in block {
            self.statement(statement);
        }
    }

    fn statement(&mut self, s: &Statement) {
        use naga::{RayQueryFunction as Rq, Statement as S};
        match *s {
            S::Block(ref b) => self.block(b),
            S::If { condition, ref accept, ref reject } => {
                self.add(condition);
                self.block(accept);
                self.block(reject);
            }
            S::Switch { selector, ref cases } => {
                self.add(selector);
                cases.iter().for_each(|c| self.block(&c.body));
            }
            S::Loop { ref body, ref continuing, break_if } => {
                self.block(body);
                self.block(continuing);
                self.add_opt(break_if);
            }
            S::Return { value } => self.add_opt(value),
            S::Store { pointer, value } => {
                self.add(pointer);
                self.add(value);
            }
            S::ImageStore { image, coordinate, array_index, value } => {
                [Some(image), array_index, Some(coordinate), Some(value)].into_iter().for_each(|h| self.add_opt(h));
            }
            S::Call { ref arguments, .. } => arguments.iter().for_each(|&a| self.add(a)),
            S::Atomic { pointer, ref fun, value, .. } => {
                self.add(pointer);
                self.add(value);
                if let naga::AtomicFunction::Exchange { compare: Some(c) } = *fun {
                    self.add(c);
                }
            }
            S::ImageAtomic { image, coordinate, array_index, value, .. } => {
                [Some(image), Some(coordinate), array_index, Some(value)].into_iter().for_each(|h| self.add_opt(h));
            }
            S::WorkGroupUniformLoad { pointer, .. } => self.add(pointer),
            S::RayQuery { query, ref fun } => {
                self.add(query);
                match *fun {
                    Rq::Initialize { acceleration_structure, descriptor } => {
                        self.add(acceleration_structure);
                        self.add(descriptor);
                    }
                    Rq::GenerateIntersection { hit_t } => self.add(hit_t),
                    Rq::Proceed { .. } | Rq::ConfirmIntersection | Rq::Terminate => {}
                }
            }
            _ => self.rare_statement(s),
        }
    }

    /// Statements the translator never makes, counted all the same.
    fn rare_statement(&mut self, s: &Statement) {
        use naga::{GatherMode as G, Statement as S};
        match *s {
            S::SubgroupBallot { predicate, .. } => self.add_opt(predicate),
            S::SubgroupCollectiveOperation { argument, .. } => self.add(argument),
            S::SubgroupGather { mode, argument, .. } => {
                self.add(argument);
                match mode {
                    G::BroadcastFirst | G::QuadSwap(_) => {}
                    G::Broadcast(i) | G::Shuffle(i) | G::ShuffleDown(i) | G::ShuffleUp(i) | G::ShuffleXor(i) => {
                        self.add(i)
                    }
                    G::QuadBroadcast(i) => self.add(i),
                }
            }
            S::CooperativeStore { target, ref data } => {
                [target, data.pointer, data.stride].into_iter().for_each(|h| self.add(h));
            }
            S::RayPipelineFunction(naga::RayPipelineFunction::TraceRay {
                acceleration_structure,
                descriptor,
                payload,
            }) => [acceleration_structure, descriptor, payload].into_iter().for_each(|h| self.add(h)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
