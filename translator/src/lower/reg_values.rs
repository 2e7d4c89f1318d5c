//! The register values a straight-line block knows ([`RegValues`]): what each register holds
//! now, per component, and whether it still waits for its store (docs/architecture.md#values-per-component).

use naga::{Expression, Handle};

use super::parts::{as_whole, Parts};

/// Where a register value that is not yet in memory is to be stored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Pending {
    /// Through this pointer.
    At(Handle<Expression>),
    /// Into its register's variable, which the lowering makes only when the store is written
    /// (`Lowerer::sync_values`, before every statement and block boundary): a register whose
    /// values never reach memory (each overwritten in its block, or dead when the entry point
    /// returns) then has no variable at all.
    Variable,
}

/// A register value known in a straight-line block.
#[derive(Clone, Copy)]
pub(crate) struct RegValue {
    pub key: RegKey,
    pub parts: Parts,
    /// Where to store it, while it is not yet in memory.
    pub pending: Option<Pending>,
    /// The value as one `vec4` expression, once one exists.
    pub vector: Option<Handle<Expression>>,
}

/// Register values known in a straight-line block, in the order they became known (which
/// orders the stores and compositions, so the output). Every register read and write looks its
/// register up: a table by file and number finds the entry without a search (searching the
/// list was 10% of the lowering on the common list); the rare register numbered past the table
/// (out of range, which lenient validation lets through) is searched for.
#[derive(Default)]
pub(crate) struct RegValues {
    /// Position + 1 in `entries` of each register's value (0: none), by [`slot`]; empty until
    /// the first value.
    slots: Vec<u32>,
    entries: Vec<RegValue>,
}

/// A register: file and number.
pub(crate) type RegKey = (crate::bytecode::RegisterType, u16);

/// Registers per file in [`RegValues::slots`]: every register of the files kept per value
/// (r0–r31 in vs_3_0 is the most; c#, i#, b# and s# are read, never kept) in range. The table is
/// zeroed once per function, so its size is a fixed cost of every translation.
const SLOT_NUMBERS: usize = 32;
/// The table's length: 32 files (19 exist) of [`SLOT_NUMBERS`] registers.
const SLOTS: usize = 32 * SLOT_NUMBERS;

/// A register's place in [`RegValues::slots`], when it has one.
fn slot(key: &RegKey) -> Option<usize> {
    let n = usize::from(key.1);
    (n < SLOT_NUMBERS).then(|| key.0 as usize * SLOT_NUMBERS + n)
}

impl RegValues {
    fn position(&self, key: &RegKey) -> Option<usize> {
        match slot(key) {
            Some(s) => self.slots.get(s).filter(|&&p| p != 0).map(|&p| p as usize - 1),
            None => self.entries.iter().position(|e| e.key == *key),
        }
    }

    /// The known value of a register.
    pub fn get(&self, key: &RegKey) -> Option<&RegValue> {
        self.position(key).map(|i| &self.entries[i])
    }

    fn get_mut(&mut self, key: &RegKey) -> Option<&mut RegValue> {
        self.position(key).map(|i| &mut self.entries[i])
    }

    /// Points the slots of the entries from `start` on at them.
    fn index_from(&mut self, start: usize) {
        if self.slots.is_empty() {
            self.slots.resize(SLOTS, 0);
        }
        for (i, e) in self.entries.iter().enumerate().skip(start) {
            if let Some(s) = slot(&e.key) {
                self.slots[s] = i as u32 + 1;
            }
        }
    }

    /// Sets a register's value (`pending`: where to store it, when it is not in memory yet).
    pub fn insert(&mut self, key: RegKey, parts: Parts, pending: Option<Pending>) {
        let vector = as_whole(&parts);
        let entry = RegValue { key, parts, pending, vector };
        match self.get_mut(&key) {
            Some(e) => *e = entry,
            None => {
                self.entries.push(entry);
                self.index_from(self.entries.len() - 1);
            }
        }
    }

    /// Records the vector expression of a register's value.
    pub fn set_vector(&mut self, key: &RegKey, vector: Handle<Expression>) {
        if let Some(e) = self.get_mut(key) {
            e.vector = Some(vector);
        }
    }

    /// The values waiting for a store that have no vector expression yet.
    pub fn unmaterialised(&self) -> impl Iterator<Item = (RegKey, Parts)> + '_ {
        self.entries.iter().filter(|e| e.pending.is_some() && e.vector.is_none()).map(|e| (e.key, e.parts))
    }

    /// The registers of values waiting for a store into a variable not yet given.
    pub fn unplaced(&self) -> impl Iterator<Item = RegKey> + '_ {
        self.entries.iter().filter(|e| e.pending == Some(Pending::Variable)).map(|e| e.key)
    }

    /// Gives a value waiting for its variable the pointer to store it through.
    pub fn place(&mut self, key: &RegKey, pointer: Handle<Expression>) {
        if let Some(e) = self.get_mut(key) {
            e.pending = Some(Pending::At(pointer));
        }
    }

    /// Forgets every value (a block boundary).
    pub fn clear(&mut self) {
        for e in &self.entries {
            if let Some(s) = slot(&e.key) {
                self.slots[s] = 0;
            }
        }
        self.entries.clear();
    }

    /// About what the table and the list hold, by their capacities.
    pub fn bytes(&self) -> usize {
        4 * self.slots.capacity() + std::mem::size_of::<RegValue>() * self.entries.capacity()
    }

    /// Drops every pending store: the values are dead.
    pub fn forget_pending(&mut self) {
        for e in &mut self.entries {
            e.pending = None;
        }
    }

    /// Whether some value waits for its store.
    pub(super) fn any_pending(&self) -> bool {
        self.entries.iter().any(|e| e.pending.is_some())
    }

    /// The values in register order (deterministic stores), for taking their pending stores.
    pub(super) fn sorted_mut(&mut self) -> &mut [RegValue] {
        self.entries.sort_unstable_by_key(|e| e.key);
        self.index_from(0);
        &mut self.entries
    }
}
