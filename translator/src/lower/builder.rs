//! A naga function under construction, keeping the `Emit` bookkeeping in one place.
//!
//! naga requires every expression that is not a literal, constant, override, zero value,
//! argument, global or local to be covered by exactly one `Statement::Emit` before it is used
//! (docs/architecture.md#naga-emit). The builder opens an emit range at the first such expression and closes
//! it before every statement and every nested block, so no caller ever writes an `Emit` by hand.

use std::collections::HashMap;

use naga::{Block, Expression, Function, Handle, Literal, Span, Statement};

/// A multiply-rotate hasher (the lowering's maps hold small integer keys; SipHash's DoS
/// resistance buys nothing here and costs a measurable share of the lowering).
#[derive(Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

/// A `HashMap` with [`FastHasher`].
pub(crate) type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<FastHasher>>;

/// Register values known in a straight-line block: (register, value, pointer while the value is
/// not yet stored). A handful per block, so a vector beats a map.
#[derive(Default)]
pub(crate) struct RegValues(Vec<(RegKey, Handle<Expression>, Option<Handle<Expression>>)>);

/// A register: file and number.
pub(crate) type RegKey = (crate::bytecode::RegisterType, u16);

impl RegValues {
    /// The known value of a register and whether it still needs a store.
    pub fn get(&self, key: &RegKey) -> Option<(Handle<Expression>, Option<Handle<Expression>>)> {
        self.0.iter().find(|e| e.0 == *key).map(|e| (e.1, e.2))
    }

    /// Sets a register's value (`pointer`: where to store it, when it is not in memory yet).
    pub fn insert(&mut self, key: RegKey, entry: (Handle<Expression>, Option<Handle<Expression>>)) {
        match self.0.iter_mut().find(|e| e.0 == key) {
            Some(e) => (e.1, e.2) = entry,
            None => self.0.push((key, entry.0, entry.1)),
        }
    }

    /// Forgets every value (a block boundary).
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// The function being built and its open blocks.
pub(crate) struct FnBuilder {
    /// The function (its body is filled in [`FnBuilder::finish`]).
    pub f: Function,
    blocks: Vec<Block>,
    emit_start: Option<usize>,
    /// Expressions that need no emit and may be shared by the whole function: literals (by bit
    /// pattern), module constants, variable pointers.
    shared: FastMap<SharedKey, Handle<Expression>>,
    /// Register values known in the current straight-line block (stored or loaded since the
    /// block began), so reads need no `Load`; with the variable's pointer while the value is
    /// not yet stored. Dirty values are stored before every statement and block boundary, so
    /// memory is current wherever control can leave straight-line code.
    pub values: RegValues,
    /// Loads of read-only data (constant buffers), valid in the block that loaded them and
    /// the blocks nested in it: one layer per open block.
    readonly: Vec<FastMap<u32, Handle<Expression>>>,
    /// Expressions whose value is a known constant (module constants, literals), by bit
    /// pattern per component (scalars repeat their value), for folding.
    pub known: FastMap<Handle<Expression>, [u32; 4]>,
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
    /// A builder for a function named `name`.
    pub fn new(name: &str) -> FnBuilder {
        FnBuilder {
            f: Function { name: Some(name.to_string()), ..Function::default() },
            blocks: vec![Block::new()],
            emit_start: None,
            shared: FastMap::default(),
            values: RegValues::default(),
            readonly: vec![FastMap::default()],
            known: FastMap::default(),
        }
    }

    /// Appends an expression, opening an emit range when it needs one.
    pub fn expr(&mut self, e: Expression) -> Handle<Expression> {
        if e.needs_pre_emit() {
            self.flush();
        } else if self.emit_start.is_none() {
            self.emit_start = Some(self.f.expressions.len());
        }
        self.f.expressions.append(e, Span::UNDEFINED)
    }

    /// Closes the open emit range, if any, into an `Emit` statement.
    pub fn flush(&mut self) {
        if let Some(start) = self.emit_start.take() {
            let range = self.f.expressions.range_from(start);
            self.block().push(Statement::Emit(range), Span::UNDEFINED);
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
            self.values.clear();
        }
        self.block().push(s, Span::UNDEFINED);
    }

    /// Starts a nested block (the body of an `If` or `Loop`).
    pub fn open(&mut self) {
        self.store_dirty();
        self.flush();
        self.blocks.push(Block::new());
        self.values.clear();
        self.readonly.push(FastMap::default());
    }

    /// Ends the innermost nested block and returns it.
    pub fn close(&mut self) -> Block {
        self.store_dirty();
        self.flush();
        self.values.clear();
        if self.blocks.len() > 1 {
            self.readonly.pop();
            self.blocks.pop().expect("checked")
        } else {
            Block::new()
        }
    }

    /// Stores every register value not yet in memory (in register order: deterministic).
    pub fn store_dirty(&mut self) {
        if !self.values.0.iter().any(|e| e.2.is_some()) {
            return;
        }
        self.flush();
        self.values.0.sort_unstable_by_key(|e| e.0);
        let block = self.blocks.last_mut().expect("the body block is never popped");
        for e in self.values.0.iter_mut() {
            if let Some(pointer) = e.2.take() {
                block.push(Statement::Store { pointer, value: e.1 }, Span::UNDEFINED);
            }
        }
    }

    /// Drops pending stores: the values are dead (the entry point is about to return them).
    pub fn forget_dirty(&mut self) {
        for e in self.values.0.iter_mut() {
            e.2 = None;
        }
    }

    /// A cached load of read-only data (`key` names it), valid here.
    pub fn readonly(&self, key: u32) -> Option<Handle<Expression>> {
        self.readonly.iter().rev().find_map(|layer| layer.get(&key).copied())
    }

    /// Remembers a load of read-only data for this block and the blocks nested in it.
    pub fn remember_readonly(&mut self, key: u32, value: Handle<Expression>) {
        self.readonly.last_mut().expect("one layer per block").insert(key, value);
    }

    /// Depth of nested blocks (0 in the function body).
    #[allow(dead_code)]
    pub fn depth(&self) -> usize {
        self.blocks.len() - 1
    }

    /// An expression that needs no emit, shared across the function.
    pub fn shared(&mut self, key: SharedKey) -> Handle<Expression> {
        if let Some(&h) = self.shared.get(&key) {
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
        self.shared.insert(key, h);
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
        self.f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use naga::{BinaryOperator, Range};

    #[test]
    fn every_emittable_expression_is_covered_once_and_literals_never() {
        let mut b = FnBuilder::new("t");
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

    fn b_shared_is_cached() -> bool {
        let mut b = FnBuilder::new("t");
        b.shared(SharedKey::I32(3)) == b.shared(SharedKey::I32(3))
    }
}
