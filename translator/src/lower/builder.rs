//! A naga function under construction, keeping the `Emit` bookkeeping in one place.
//!
//! naga requires every expression that is not a literal, constant, override, zero value,
//! argument, global or local to be covered by exactly one `Statement::Emit` before it is used
//! (docs/architecture.md#naga-emit). The builder opens an emit range at the first such expression and closes
//! it before every statement and every nested block, so no caller ever writes an `Emit` by hand.

use naga::{Block, Expression, Function, Handle, Literal, Span, Statement};

use super::chained::{ChainKey, Chained};
pub(crate) use super::parts::{as_whole, replicated, whole, Comp, Parts, SCALAR};
pub(crate) use super::reg_values::{Pending, RegKey, RegValues};
pub(crate) use super::scoped::ScopedKey;
use super::scoped::ScopedValues;

/// The lowering's maps hold small integer keys: SipHash's resistance to chosen keys buys nothing
/// here and cost a measurable share of the lowering, so they use the Fx hash.
pub(crate) type FastMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// A fact per expression of one function, by handle index: a vector, not a map, since the
/// handles are dense and every operand of the multiply rule is looked up (hashing them was
/// several percent of the lowering, `perf` on the common list).
pub(crate) struct ExprFacts<V>(Vec<Option<V>>);

impl<V> Default for ExprFacts<V> {
    fn default() -> Self {
        ExprFacts(Vec::new())
    }
}

impl<V: Copy> ExprFacts<V> {
    /// Forgets every fact, with room for `n` expressions.
    fn reset(&mut self, n: usize) {
        self.0.clear();
        self.0.reserve(n);
    }

    /// The fact about `h`, if one was recorded.
    pub fn get(&self, h: &Handle<Expression>) -> Option<&V> {
        self.0.get(h.index()).and_then(Option::as_ref)
    }

    /// Records (or replaces) the fact about `h`.
    pub fn insert(&mut self, h: Handle<Expression>, v: V) {
        let i = h.index();
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some(v);
    }

    /// Records the fact about `h` unless one is recorded already.
    pub fn insert_if_absent(&mut self, h: Handle<Expression>, v: V) {
        if self.get(&h).is_none() {
            self.insert(h, v);
        }
    }
}

/// How deep expressions may nest before one is named (written as a `let` by the text
/// backends, which recurse into the operands of unnamed ones).
const MAX_INLINE_DEPTH: u16 = 32;

/// The nesting depth of `e` as the text backends would write it: one more than its deepest
/// operand, for the expressions the lowering nests (others are leaves). The operands are
/// looked up where they lie, not gathered into a list first: this runs for every expression.
fn nesting_depth(depth: &[u16], e: &Expression) -> u16 {
    let d = |h: Handle<Expression>| depth.get(h.index()).copied().unwrap_or(0);
    let od = |h: Option<Handle<Expression>>| h.map_or(0, d);
    1 + match *e {
        Expression::Binary { left, right, .. } => d(left).max(d(right)),
        Expression::Unary { expr, .. } | Expression::As { expr, .. } | Expression::Derivative { expr, .. } => d(expr),
        Expression::Select { condition, accept, reject } => d(condition).max(d(accept)).max(d(reject)),
        Expression::Math { arg, arg1, arg2, arg3, .. } => d(arg).max(od(arg1)).max(od(arg2)).max(od(arg3)),
        Expression::Swizzle { vector, .. } => d(vector),
        Expression::AccessIndex { base, .. } => d(base),
        Expression::Access { base, index } => d(base).max(d(index)),
        Expression::Splat { value, .. } => d(value),
        // Only the first four components counted, as before the lookup moved here.
        Expression::Compose { ref components, .. } => components.iter().take(4).map(|&c| d(c)).max().unwrap_or(0),
        _ => 0,
    }
}

/// The pure expressions a block may share: the same operation on the same operands gives the
/// same value, so it is made once (four `rcp` of one replicated value, a test both guards of a
/// multiply ask for). Loads, samples, derivatives and calls depend on where they are and are
/// never shared.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PureKey {
    Binary(naga::BinaryOperator, Handle<Expression>, Handle<Expression>),
    Unary(naga::UnaryOperator, Handle<Expression>),
    Select(Handle<Expression>, Handle<Expression>, Handle<Expression>),
    Math(naga::MathFunction, [Option<Handle<Expression>>; 4]),
    Swizzle(naga::VectorSize, Handle<Expression>, [u8; 4]),
    AccessIndex(Handle<Expression>, u32),
    Splat(naga::VectorSize, Handle<Expression>),
    As(Handle<Expression>, naga::ScalarKind, Option<u8>),
    Relational(naga::RelationalFunction, Handle<Expression>),
}

impl ChainKey for PureKey {
    /// The index of the newest operand. Old operands (constants, a splat of 1) are shared by
    /// many expressions, the newest rarely.
    fn bucket(&self) -> usize {
        let i = |h: Handle<Expression>| h.index();
        match *self {
            PureKey::Binary(_, a, b) => i(a).max(i(b)),
            PureKey::Select(a, b, c) => i(a).max(i(b)).max(i(c)),
            PureKey::Math(_, args) => args.iter().flatten().map(|&h| i(h)).max().unwrap_or(0),
            PureKey::Unary(_, a)
            | PureKey::Swizzle(_, a, _)
            | PureKey::AccessIndex(a, _)
            | PureKey::Splat(_, a)
            | PureKey::As(a, _, _)
            | PureKey::Relational(_, a) => i(a),
        }
    }
}

impl PureKey {
    fn of(e: &Expression) -> Option<PureKey> {
        Some(match *e {
            Expression::Binary { op, left, right } => PureKey::Binary(op, left, right),
            Expression::Unary { op, expr } => PureKey::Unary(op, expr),
            Expression::Select { condition, accept, reject } => PureKey::Select(condition, accept, reject),
            Expression::Math { fun, arg, arg1, arg2, arg3 } => PureKey::Math(fun, [Some(arg), arg1, arg2, arg3]),
            Expression::Swizzle { size, vector, pattern } => {
                PureKey::Swizzle(size, vector, pattern.map(|c| c.index() as u8))
            }
            Expression::AccessIndex { base, index } => PureKey::AccessIndex(base, index),
            Expression::Splat { size, value } => PureKey::Splat(size, value),
            Expression::As { expr, kind, convert } => PureKey::As(expr, kind, convert),
            Expression::Relational { fun, argument } => PureKey::Relational(fun, argument),
            _ => return None,
        })
    }
}

/// The function being built and its open blocks.
pub(crate) struct FnBuilder {
    /// The function (its body is filled in [`FnBuilder::finish`]).
    pub f: Function,
    blocks: Vec<Block>,
    emit_start: Option<usize>,
    /// The lookup tables of the function's expressions and register values, kept per thread.
    pub tables: Tables,
    /// The `vec4<f32>` type.
    pub vec4f: Handle<naga::Type>,
    /// The span of what is appended now: `token..token + 1` of the instruction being lowered
    /// ([`token_span`]), so that a naga validation error names it; undefined outside
    /// instructions.
    pub span: Span,
    /// The stand-in for the +0 of a register nothing has stored to ([`FnBuilder::unstored_zero`]).
    unstored: Option<Handle<Expression>>,
}

/// An empty arena with room for `n` values. naga's `Arena` has no constructor with a capacity,
/// and growing the function's expressions one doubling at a time (each a copy of the whole
/// arena) was about 4 % of the lowering (callgrind, the bench's common list). Its `Deserialize`
/// makes the values' vector with the room the input announces (serde caps it at 1 MiB), so an
/// input that announces `n` values and holds none gives an empty arena with that room. Should
/// that ever fail, the arena is an empty one that grows as before: nothing but the time differs.
fn arena_with_room<T: serde::de::DeserializeOwned>(n: usize) -> naga::Arena<T> {
    /// A sequence that announces `n` values and holds none.
    struct Announced(usize);
    impl Iterator for Announced {
        type Item = ();
        fn next(&mut self) -> Option<()> {
            None
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (self.0, Some(self.0))
        }
    }
    use serde::de::value::{Error, SeqDeserializer};
    use serde::Deserialize;
    naga::Arena::deserialize(SeqDeserializer::<_, Error>::new(Announced(n))).unwrap_or_default()
}

/// The span the lowering gives what instruction `offset` (its token index) makes: undefined for
/// offset 0, the version token, which is what built programs give every instruction.
pub(crate) fn token_span(offset: u32) -> Span {
    if offset == 0 {
        Span::UNDEFINED
    } else {
        Span::new(offset, offset + 1)
    }
}

/// Keys of the per-function cache of expressions that need no `Emit`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum SharedKey {
    F32(u32),
    I32(i32),
    U32(u32),
    Bool(bool),
    Constant(Handle<naga::Constant>),
    Global(Handle<naga::GlobalVariable>),
    Local(Handle<naga::LocalVariable>),
    Argument(u32),
}

impl FnBuilder {
    /// A builder for a function named `name`, sized for `instructions` instructions: the
    /// per-expression tables and the block's pure-expression map start at the size the lowering
    /// reaches (about two expressions per instruction on the common list), so that they are not
    /// grown and rehashed as the function fills (the growth was 9% of the lowering, `perf`).
    pub fn new(name: &str, vec4f: Handle<naga::Type>, instructions: usize) -> FnBuilder {
        FnBuilder {
            f: Function {
                name: Some(name.to_string()),
                expressions: arena_with_room(instructions + instructions / 2),
                ..Function::default()
            },
            // About one statement (an emit, a store, a call) per two instructions on the
            // common list under the strict rules (each product of the multiply rule is an
            // emit and a call): room up front saves growing the body's two lists several times.
            blocks: vec![Block::with_capacity(instructions * 3 / 4 + 4)],
            emit_start: None,
            tables: Tables::take(instructions),
            vec4f,
            span: Span::UNDEFINED,
            unstored: None,
        }
    }

    /// A builder that holds nothing and allocates nothing: what stays in the lowering's place
    /// once it takes the entry function out to finish it. A builder made with
    /// [`FnBuilder::new`] for the purpose cost four allocations, their frees and a table take
    /// per shader; nothing is built into this one.
    pub fn placeholder(vec4f: Handle<naga::Type>) -> FnBuilder {
        FnBuilder {
            f: Function::default(),
            blocks: Vec::new(),
            emit_start: None,
            tables: Tables::default(),
            vec4f,
            span: Span::UNDEFINED,
            unstored: None,
        }
    }

    /// The stand-in for the +0 that a register nothing has stored to holds, kept in the
    /// components a partial write leaves (`mov r0.xy, t0` on a fresh `r0`). The lowering makes
    /// it a run-time zero only where such a component is read (`Lowerer::resolve_unstored`),
    /// so a shader that overwrites or never reads those components has no zero at all. The
    /// stand-in itself is never an operand: a zero value, it needs no `Emit`, and an unused one
    /// is written by neither writer.
    pub fn unstored_zero(&mut self, f32_ty: Handle<naga::Type>) -> Handle<Expression> {
        if let Some(h) = self.unstored {
            return h;
        }
        let h = self.append(Expression::ZeroValue(f32_ty));
        self.unstored = Some(h);
        h
    }

    /// The stand-in of [`FnBuilder::unstored_zero`], if this function has made it.
    pub fn unstored(&self) -> Option<Handle<Expression>> {
        self.unstored
    }

    /// Appends an expression, opening an emit range when it needs one.
    pub fn expr(&mut self, e: Expression) -> Handle<Expression> {
        // A component of a vector of literals (a `defi` register) is that literal. Besides
        // being shorter, this keeps naga 30's pipeline-constant pass working on the WGSL:
        // there `v.z` of a `let v = vec4(3i, 0i, 1i, 0i)` folds to the literal's existing
        // handle, and an `Emit` that starts with it is widened back over `v` itself, which
        // fails validation (`ExpressionAlreadyInScope`; docs/layers.md).
        if let Expression::AccessIndex { base, index } = e {
            if let Expression::Compose { components, .. } = &self.f.expressions[base] {
                let c = components.get(index as usize).copied();
                // An override too (an override-delivered `i#`): a handle needing no emit, like a literal.
                let plain = |c: &Handle<Expression>| {
                    matches!(self.f.expressions[*c], Expression::Literal(_) | Expression::Override(_))
                };
                if let Some(c) = c.filter(plain) {
                    return c;
                }
            }
        }
        let Some(key) = PureKey::of(&e) else { return self.append(e) };
        let bucket = key.bucket();
        if let Some(h) = self.tables.pure.get(&key, bucket) {
            return h;
        }
        let h = self.append(e);
        self.tables.pure.insert(key, bucket, h);
        h
    }

    /// Appends an expression that is not shared, opening an emit range when it needs one.
    fn append(&mut self, e: Expression) -> Handle<Expression> {
        if e.needs_pre_emit() {
            self.flush();
        } else if self.emit_start.is_none() {
            self.emit_start = Some(self.f.expressions.len());
        }
        let depth = nesting_depth(&self.tables.depth, &e);
        // Pointers (and the accesses naga's writers always inline) are never named.
        let nameable = !matches!(e, Expression::Access { .. } | Expression::AccessIndex { .. });
        let h = self.f.expressions.append(e, self.span);
        let depth = if depth > MAX_INLINE_DEPTH && nameable {
            // naga's text writers print a value used once inside its user, recursively: a long
            // chain of such values (a register rewritten by many instructions) would recurse as
            // deep. A named expression is written as its own `let`.
            self.f.named_expressions.insert(h, "t".into());
            0
        } else {
            depth
        };
        self.set_depth(h, depth);
        h
    }

    /// Records the nesting depth of the new expression `h`.
    fn set_depth(&mut self, h: Handle<Expression>, depth: u16) {
        // Only this builder appends expressions, so the list is one short of the new handle:
        // a push, not a resize.
        if self.tables.depth.len() == h.index() {
            self.tables.depth.push(depth);
        } else {
            if self.tables.depth.len() < h.index() {
                self.tables.depth.resize(h.index() + 1, 0);
            }
            self.tables.depth[h.index()] = depth;
        }
    }

    /// Closes the open emit range, if any, into an `Emit` statement.
    pub fn flush(&mut self) {
        if let Some(start) = self.emit_start.take() {
            let range = self.f.expressions.range_from(start);
            let span = self.span;
            self.block().push(Statement::Emit(range), span);
        }
    }

    fn block(&mut self) -> &mut Block {
        self.blocks.last_mut().expect("the body block is never popped")
    }

    /// Appends a statement after the expressions it uses.
    pub fn stmt(&mut self, s: Statement) {
        self.store_dirty();
        self.flush();
        if matches!(s, Statement::Call { .. }) {
            // A subroutine may write any register.
            self.tables.values.clear();
        }
        let span = self.span;
        self.block().push(s, span);
    }

    /// Starts a nested block (the body of an `If` or `Loop`).
    pub fn open(&mut self) {
        self.store_dirty();
        self.flush();
        self.blocks.push(Block::new());
        self.tables.values.clear();
        self.tables.composed.clear();
        self.tables.pure.clear();
        self.tables.scoped.open();
    }

    /// Ends the innermost nested block and returns it.
    pub fn close(&mut self) -> Block {
        self.store_dirty();
        self.flush();
        self.tables.values.clear();
        self.tables.composed.clear();
        self.tables.pure.clear();
        if self.blocks.len() > 1 {
            self.tables.scoped.close();
            self.blocks.pop().expect("checked")
        } else {
            Block::new()
        }
    }

    /// Stores every register value not yet in memory (in register order: deterministic).
    pub fn store_dirty(&mut self) {
        if !self.tables.values.any_pending() {
            return;
        }
        // The lowering gives every value waiting for a store its vector first (it knows the
        // cheapest form); a value without one is composed from its components here.
        let missing: Vec<(RegKey, Parts)> = self.tables.values.unmaterialised().collect();
        for (key, parts) in missing {
            let v = self.compose_parts(parts);
            self.tables.values.set_vector(&key, v);
        }
        self.flush();
        let block = self.blocks.last_mut().expect("the body block is never popped");
        for e in self.tables.values.sorted_mut() {
            debug_assert!(e.pending != Some(Pending::Variable), "sync_values places every pending value");
            if let (Some(Pending::At(pointer)), Some(value)) = (e.pending.take(), e.vector) {
                block.push(Statement::Store { pointer, value }, self.span);
            }
        }
    }

    /// Drops pending stores: the values are dead (the entry point is about to return them).
    pub fn forget_dirty(&mut self) {
        self.tables.values.forget_pending();
    }

    /// `vec4(x, y, z, w)` of four components (each a scalar or a vector's component).
    pub fn compose_parts(&mut self, parts: Parts) -> Handle<Expression> {
        debug_assert!(
            self.unstored.is_none_or(|z| parts.iter().all(|c| c.base != z)),
            "the lowering resolves the stand-in zero before composing"
        );
        let components = parts.iter().map(|c| self.scalar_of(*c)).collect();
        self.expr(Expression::Compose { ty: self.vec4f, components })
    }

    /// A component as a scalar expression (one `AccessIndex` per block for a vector's: the
    /// block's pure expressions are made once).
    pub fn scalar_of(&mut self, c: Comp) -> Handle<Expression> {
        if c.index == SCALAR {
            return c.base;
        }
        let h = self.expr(Expression::AccessIndex { base: c.base, index: u32::from(c.index) });
        if let Some(bits) = self.tables.known.get(&c.base).copied() {
            self.tables.known.insert(h, [bits[usize::from(c.index)]; 4]);
        }
        h
    }

    /// The value `key` names, if one made here or in an enclosing block is in scope.
    pub fn scoped(&self, key: ScopedKey) -> Option<Handle<Expression>> {
        self.tables.scoped.get(&key)
    }

    /// Remembers `value` as `key`'s for this block and the blocks nested in it.
    pub fn remember_scoped(&mut self, key: ScopedKey, value: Handle<Expression>) {
        self.tables.scoped.insert(key, value);
    }

    /// The result of `function(a, b)`, a function without side effects: made once for the
    /// same arguments where an earlier call's result is in scope. The call only closes the
    /// emit range (its arguments are evaluated before it); register values stay as they are,
    /// unlike a subroutine call ([`FnBuilder::stmt`]).
    pub fn pure_call(
        &mut self,
        function: Handle<Function>,
        a: Handle<Expression>,
        b: Handle<Expression>,
    ) -> Handle<Expression> {
        let key = ScopedKey::Call(function, a, b);
        if let Some(h) = self.scoped(key) {
            return h;
        }
        self.flush();
        // A call's result is evaluated by the call, never by an `Emit`, and named where the
        // text backends write it: a leaf for the nesting depth.
        let h = self.f.expressions.append(Expression::CallResult(function), self.span);
        self.set_depth(h, 0);
        let span = self.span;
        self.block().push(Statement::Call { function, arguments: vec![a, b], result: Some(h) }, span);
        self.remember_scoped(key, h);
        h
    }

    /// Depth of nested blocks (0 in the function body).
    pub fn depth(&self) -> usize {
        self.blocks.len() - 1
    }

    /// An expression that needs no emit, shared across the function.
    pub fn shared(&mut self, key: SharedKey) -> Handle<Expression> {
        if let Some(&h) = self.tables.shared.get(&key) {
            return h;
        }
        let e = match key {
            SharedKey::F32(bits) => Expression::Literal(Literal::F32(f32::from_bits(bits))),
            SharedKey::I32(v) => Expression::Literal(Literal::I32(v)),
            SharedKey::U32(v) => Expression::Literal(Literal::U32(v)),
            SharedKey::Bool(v) => Expression::Literal(Literal::Bool(v)),
            SharedKey::Constant(c) => Expression::Constant(c),
            SharedKey::Global(g) => Expression::GlobalVariable(g),
            SharedKey::Local(l) => Expression::LocalVariable(l),
            SharedKey::Argument(i) => Expression::FunctionArgument(i),
        };
        let h = self.expr(e);
        self.tables.shared.insert(key, h);
        h
    }

    /// Closes every open block and returns the finished function.
    pub fn finish(mut self) -> Function {
        self.store_dirty();
        self.flush();
        while self.blocks.len() > 1 {
            let inner = self.blocks.pop().expect("checked");
            self.block().push(Statement::Block(inner), Span::UNDEFINED);
        }
        self.f.body = self.blocks.pop().expect("body");
        self.tables.give_back();
        self.f
    }
}

/// A builder's lookup tables, which serve one function: a thread keeps the last function's for
/// the next one, emptied, so that a translation does not allocate and free them again (about
/// 45 KB a shader on the bench's common list, most of the lowering's large blocks; their
/// churn had glibc trimming and faulting the heap's top back in).
#[derive(Default)]
pub(crate) struct Tables {
    /// Expressions that need no emit and may be shared by the whole function: literals (by bit
    /// pattern), module constants, variable pointers.
    shared: FastMap<SharedKey, Handle<Expression>>,
    /// Register values known in the current straight-line block (stored or loaded since the
    /// block began), so reads need no `Load`; with the variable's pointer while the value is
    /// not yet stored. Dirty values are stored before every statement and block boundary, so
    /// memory is current wherever control can leave straight-line code.
    pub values: RegValues,
    /// Values that cannot change while the function runs ([`ScopedKey`]), valid in the block
    /// that made them and the blocks nested in it.
    scoped: ScopedValues,
    /// Expressions whose value is a known constant (module constants, literals), by bit
    /// pattern per component (scalars repeat their value), for folding.
    pub known: ExprFacts<[u32; 4]>,
    /// What is known of expressions' values (`value_range`): recorded where the expression does
    /// not say it, computed and kept where a strict product asks.
    pub ranges: ExprFacts<super::interval::Ranges>,
    /// Vectors composed from components in the current block, by their components.
    pub composed: FastMap<Parts, Handle<Expression>>,
    /// The pure expressions of the current block, by what they compute.
    pure: Chained<PureKey>,
    /// Nesting depth of each expression (by index) as the text backends would write it.
    depth: Vec<u16>,
}

thread_local! {
    static TABLES: std::cell::RefCell<Option<Tables>> = const { std::cell::RefCell::new(None) };
}

/// Tables past this size (a huge function's) are dropped rather than kept for the next one.
const KEEP_BYTES: usize = 1 << 20;

impl Tables {
    /// The thread's tables (new ones when another builder holds them), empty, with room for a
    /// function of `instructions` instructions: the lowering makes about two expressions per
    /// instruction on the common list, so the per-expression tables are not grown as the
    /// function fills (the growth was 9% of the lowering, `perf`).
    fn take(instructions: usize) -> Tables {
        let mut t = TABLES.with_borrow_mut(Option::take).unwrap_or_default();
        let expressions = 2 * instructions;
        t.shared.clear();
        t.shared.reserve(instructions.min(64));
        t.values.clear();
        // Sized once: the reads of constants and the strict products of a function.
        t.scoped.reset(instructions / 2);
        t.known.reset(expressions);
        t.ranges.reset(expressions);
        t.composed.clear();
        t.composed.reserve(instructions / 2);
        t.pure.reset(expressions);
        t.depth.clear();
        t.depth.reserve(expressions);
        t
    }

    /// Keeps the tables for the thread's next function.
    fn give_back(self) {
        if self.bytes() <= KEEP_BYTES {
            TABLES.with_borrow_mut(|t| *t = Some(self));
        }
    }

    /// About what the tables hold, by their capacities.
    fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.known.0.capacity() * size_of::<Option<[u32; 4]>>()
            + self.ranges.0.capacity() * size_of::<Option<super::interval::Ranges>>()
            + self.pure.bytes()
            + self.depth.capacity() * 2
            + self.scoped.bytes()
            + self.composed.capacity() * size_of::<(Parts, Handle<Expression>)>()
            + self.values.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use naga::{BinaryOperator, Range};

    #[test]
    fn every_emittable_expression_is_covered_once_and_literals_never() {
        let mut b = FnBuilder::new("t", vec4f(), 0);
        let one = b.shared(SharedKey::F32(1.0f32.to_bits()));
        let two = b.shared(SharedKey::F32(2.0f32.to_bits()));
        let sum = b.expr(Expression::Binary { op: BinaryOperator::Add, left: one, right: two });
        b.open();
        let inner = b.expr(Expression::Binary { op: BinaryOperator::Multiply, left: sum, right: two });
        let block = b.close();
        b.stmt(Statement::Block(block));
        let f = b.finish();
        let mut covered = Vec::new();
        fn walk(block: &Block, out: &mut Vec<Range<Expression>>) {
            for s in block.iter() {
                match s {
                    Statement::Emit(r) => out.push(r.clone()),
                    Statement::Block(b) => walk(b, out),
                    _ => {}
                }
            }
        }
        walk(&f.body, &mut covered);
        let handles: Vec<_> = covered.iter().flat_map(|r| r.clone()).collect();
        assert_eq!(handles, vec![sum, inner], "sum and the product each emitted once, literals never");
        assert!(b_shared_is_cached());
    }

    #[test]
    fn a_block_shares_pure_expressions_but_not_loads_or_outer_blocks() {
        let mut b = FnBuilder::new("t", vec4f(), 0);
        let one = b.shared(SharedKey::F32(1.0f32.to_bits()));
        let two = b.shared(SharedKey::F32(2.0f32.to_bits()));
        let add = |b: &mut FnBuilder| b.expr(Expression::Binary { op: BinaryOperator::Add, left: one, right: two });
        let sum = add(&mut b);
        assert_eq!(add(&mut b), sum, "the same operation on the same operands is made once");
        let other = b.expr(Expression::Binary { op: BinaryOperator::Subtract, left: one, right: two });
        assert_ne!(other, sum);
        let l =
            b.f.local_variables.append(naga::LocalVariable { name: None, ty: vec4f(), init: None }, Span::UNDEFINED);
        let p = b.shared(SharedKey::Local(l));
        let load1 = b.expr(Expression::Load { pointer: p });
        assert_ne!(b.expr(Expression::Load { pointer: p }), load1, "a load depends on the stores before it");
        b.open();
        assert_ne!(add(&mut b), sum, "a nested block makes its own");
        let _ = b.close();
    }

    fn vec4f() -> Handle<naga::Type> {
        let mut m = naga::Module::default();
        super::super::types::Types::new(&mut m).vec4f
    }

    fn b_shared_is_cached() -> bool {
        let mut b = FnBuilder::new("t", vec4f(), 0);
        b.shared(SharedKey::I32(3)) == b.shared(SharedKey::I32(3))
    }
}
