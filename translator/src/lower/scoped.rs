//! The values a function may reuse wherever the first one is in scope ([`ScopedKey`]): read-only
//! data and pure calls, valid in the block that made them and the blocks nested in it.
//!
//! Kept in a [`Chained`] table by the key's register number, index or newest operand, not a
//! hash map: every strict product asks for its call here first and nearly every lookup misses,
//! and hashing the key twice (lookup, insert) cost about 160 instructions a product
//! (callgrind, the bench's common list). The entries of the open blocks lie last, so closing a
//! block drops them.

use naga::{Expression, Function, Handle};

use super::chained::{ChainKey, Chained};

/// What a value of [`super::builder::FnBuilder::scoped`] is: read-only data or a pure call,
/// which give the same value wherever the first one is in scope.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum ScopedKey {
    /// `c#` read from the constant buffer.
    Constant(u32),
    /// The value of `def c#`.
    Def(u16),
    /// The load of a bit-pattern variable (`literals::special`), by its index.
    Special(usize),
    /// A relative read of the float constants, by its index expression: the constants do not
    /// change during a draw.
    Relative(Handle<Expression>),
    /// A call of a function of the module without side effects, by its arguments
    /// ([`super::builder::FnBuilder::pure_call`]).
    Call(Handle<Function>, Handle<Expression>, Handle<Expression>),
}

impl ChainKey for ScopedKey {
    fn bucket(&self) -> usize {
        match *self {
            ScopedKey::Constant(n) => n as usize,
            ScopedKey::Def(n) => usize::from(n),
            ScopedKey::Special(i) => i,
            ScopedKey::Relative(h) => h.index(),
            ScopedKey::Call(_, a, b) => a.index().max(b.index()),
        }
    }
}

/// The scoped values of one function.
#[derive(Default)]
pub(crate) struct ScopedValues {
    table: Chained<ScopedKey>,
    /// Where each open nested block's entries start.
    marks: Vec<usize>,
}

impl ScopedValues {
    /// Forgets every entry, with room for `n`.
    pub fn reset(&mut self, n: usize) {
        self.table.reset(n);
        self.marks.clear();
    }

    /// The value of `key`, if one is in scope.
    pub fn get(&self, key: &ScopedKey) -> Option<Handle<Expression>> {
        self.table.get(key, key.bucket())
    }

    /// Records `value` as `key`'s for the current block and the blocks nested in it (the
    /// caller asked first: a key is recorded once while it is in scope).
    pub fn insert(&mut self, key: ScopedKey, value: Handle<Expression>) {
        self.table.insert(key, key.bucket(), value);
    }

    /// A nested block begins.
    pub fn open(&mut self) {
        self.marks.push(self.table.len());
    }

    /// The innermost nested block ends: what it recorded goes out of scope.
    pub fn close(&mut self) {
        let mark = self.marks.pop().expect("one mark per nested block");
        self.table.truncate(mark);
    }

    /// About the bytes the table holds, by its capacities.
    pub fn bytes(&self) -> usize {
        self.table.bytes() + self.marks.capacity() * std::mem::size_of::<usize>()
    }
}
