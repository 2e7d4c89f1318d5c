//! A small table of expressions by a key, kept as a chain per bucket (a vector index the key
//! names: its newest operand, its register number) rather than a hash map. The lowering asks
//! it for every pure expression and every read of read-only data, and nearly every lookup
//! misses: hashing the key field by field cost about 90 instructions a lookup (callgrind, the
//! bench's common list), while a bucket's chain is a vector index and a key or two compared.
//! The block's pure expressions (`builder`) and the function's scoped values (`scoped`) both
//! keep one.

use naga::{Expression, Handle};

/// A key of a [`Chained`] table: which chain it lies in.
pub(crate) trait ChainKey: Copy + PartialEq {
    /// The chain the key lies in: a small index, spread over the keys one function makes.
    fn bucket(&self) -> usize;
}

/// Expressions by key, a chain per bucket. The newest entries lie last, so dropping the
/// entries made since a point ([`Chained::truncate`]) is a pop per entry.
pub(crate) struct Chained<K> {
    /// Position + 1 in `entries` of the latest entry of each bucket (0: none).
    heads: Vec<u32>,
    entries: Vec<Entry<K>>,
}

struct Entry<K> {
    key: K,
    value: Handle<Expression>,
    /// Position + 1 of the bucket's previous entry (0: none).
    next: u32,
}

impl<K> Default for Chained<K> {
    fn default() -> Self {
        Chained { heads: Vec::new(), entries: Vec::new() }
    }
}

impl<K: ChainKey> Chained<K> {
    /// Forgets every entry, with room for `n` (and as many buckets).
    pub fn reset(&mut self, n: usize) {
        self.clear();
        self.heads.reserve(n);
        self.entries.reserve(n);
    }

    /// The value of `key`, which lies in chain `bucket` (`key.bucket()`, computed once by a
    /// caller that looks up and then inserts).
    #[inline]
    pub fn get(&self, key: &K, bucket: usize) -> Option<Handle<Expression>> {
        let mut at = self.heads.get(bucket).copied().unwrap_or(0);
        while at != 0 {
            let e = &self.entries[at as usize - 1];
            if e.key == *key {
                return Some(e.value);
            }
            at = e.next;
        }
        None
    }

    /// Records `value` as `key`'s, in chain `bucket` (the caller asked first: a key is
    /// recorded once while it is in the table).
    #[inline]
    pub fn insert(&mut self, key: K, bucket: usize, value: Handle<Expression>) {
        if self.heads.len() <= bucket {
            self.heads.resize(bucket + 1, 0);
        }
        let next = self.heads[bucket];
        self.entries.push(Entry { key, value, next });
        self.heads[bucket] = self.entries.len() as u32;
    }

    /// How many entries the table holds: a point to [`Chained::truncate`] back to.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Forgets the entries made since the table held `len`.
    pub fn truncate(&mut self, len: usize) {
        while self.entries.len() > len {
            let Some(e) = self.entries.pop() else { break };
            // The entries past `len` are the newest of their buckets.
            self.heads[e.key.bucket()] = e.next;
        }
    }

    /// Forgets every entry (the buckets' heads are reset one per entry, not all of them).
    pub fn clear(&mut self) {
        for e in &self.entries {
            self.heads[e.key.bucket()] = 0;
        }
        self.entries.clear();
    }

    /// About the bytes the table holds, by its capacities.
    pub fn bytes(&self) -> usize {
        self.heads.capacity() * 4 + self.entries.capacity() * std::mem::size_of::<Entry<K>>()
    }
}
