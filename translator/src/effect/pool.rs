//! Effect pools (D3DXCreateEffectPool): effects created into one pool share the storage of their
//! `shared` parameters, so a value set through one effect is what every other reads, and counts
//! as a change for their next commit (docs/effects.md#effect-pools).

use std::sync::{Arc, Mutex, MutexGuard};

use super::parameters::Parameter;
use super::types::ParameterType;

/// D3DX_PARAMETER_SHARED.
pub const SHARED: u32 = 1;

/// A pool. Clones are the same pool.
#[derive(Clone, Debug, Default)]
pub struct EffectPool(Arc<Mutex<Entries>>);

#[derive(Debug, Default)]
struct Entries {
    /// Freed entries stay as `None` so that indices held by effects stay valid.
    entries: Vec<Option<Entry>>,
    clock: u64,
}

/// One shared parameter: the first effect's declaration and the current value.
#[derive(Debug)]
struct Entry {
    declaration: Parameter,
    values: Vec<u32>,
    version: u64,
    users: usize,
}

impl EffectPool {
    /// An empty pool.
    pub fn new() -> EffectPool {
        EffectPool::default()
    }

    fn lock(&self) -> MutexGuard<'_, Entries> {
        // A panic elsewhere cannot leave an entry half written: every write is one assignment.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Joins parameter `p` (with its current `values`) to the pool: the entry declared the same
    /// way, or a new one holding `values`. Returns the entry and the value now current, which
    /// is the entry's when it already existed (the first effect's value wins).
    pub(super) fn join(&self, p: &Parameter, values: &[u32]) -> (usize, Vec<u32>, u64) {
        let mut pool = self.lock();
        let found = pool.entries.iter().position(|e| e.as_ref().is_some_and(|e| same_declaration(&e.declaration, p)));
        if let Some(i) = found {
            let e = pool.entries[i].as_mut().expect("found entries are live");
            e.users += 1;
            return (i, e.values.clone(), e.version);
        }
        let entry = Entry { declaration: p.clone(), values: values.to_vec(), version: 0, users: 1 };
        let i = match pool.entries.iter().position(Option::is_none) {
            Some(free) => {
                pool.entries[free] = Some(entry);
                free
            }
            None => {
                pool.entries.push(Some(entry));
                pool.entries.len() - 1
            }
        };
        (i, values.to_vec(), 0)
    }

    /// Another user of entry `i` (a cloned effect).
    pub(super) fn retain(&self, i: usize) {
        if let Some(e) = self.lock().entries.get_mut(i).and_then(Option::as_mut) {
            e.users += 1;
        }
    }

    /// One user of entry `i` fewer; the last frees it, so the next effect to declare the
    /// parameter brings its own default again.
    pub(super) fn release(&self, i: usize) {
        let mut pool = self.lock();
        if let Some(slot) = pool.entries.get_mut(i) {
            if let Some(e) = slot.as_mut() {
                e.users -= 1;
                if e.users == 0 {
                    *slot = None;
                }
            }
        }
    }

    /// Writes entry `i`'s value; returns its new version.
    pub(super) fn store(&self, i: usize, values: &[u32]) -> u64 {
        let mut pool = self.lock();
        pool.clock += 1;
        let clock = pool.clock;
        if let Some(e) = pool.entries.get_mut(i).and_then(Option::as_mut) {
            e.values.clear();
            e.values.extend_from_slice(values);
            e.version = clock;
        }
        clock
    }

    /// Entry `i`'s value when its version is past `seen`.
    pub(super) fn newer(&self, i: usize, seen: u64) -> Option<(Vec<u32>, u64)> {
        let pool = self.lock();
        let e = pool.entries.get(i)?.as_ref()?;
        (e.version > seen).then(|| (e.values.clone(), e.version))
    }

    /// How many shared parameters the pool holds.
    pub fn len(&self) -> usize {
        self.lock().entries.iter().flatten().count()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Whether a parameter takes part in sharing: flagged `shared`, and not an object (a sampler's
/// states, a shader's or texture's object id are each effect's own).
pub fn is_shared(p: &Parameter) -> bool {
    p.flags & SHARED != 0 && !is_object(p.ty)
}

fn is_object(ty: ParameterType) -> bool {
    ty.is_sampler() || ty.is_shader() || ty.is_texture() || ty == ParameterType::String
}

/// D3DX shares two declarations when name, class, type, rows, columns, element count and
/// every member (by the same rule, names included) agree; semantics, annotations and defaults
/// do not count (wine_shared_parameters `value[0]`: `float arr2[1]` and `float arr2[2]` are
/// two parameters).
fn same_declaration(a: &Parameter, b: &Parameter) -> bool {
    a.name == b.name
        && (a.class, a.ty, a.rows, a.columns, a.elements) == (b.class, b.ty, b.rows, b.columns, b.elements)
        && a.value.len() == b.value.len()
        && a.members.len() == b.members.len()
        && a.members.iter().zip(&b.members).all(|(x, y)| same_declaration(x, y))
        && match (a.element_list.first(), b.element_list.first()) {
            (Some(x), Some(y)) => same_declaration(x, y),
            (x, y) => x.is_none() && y.is_none(),
        }
}
