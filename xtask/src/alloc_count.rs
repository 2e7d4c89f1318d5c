//! A counting global allocator for `cargo xtask bench`: the heap calls and bytes a closure
//! makes, so that the bench can report allocations per translated shader.
//!
//! Counting is off except inside [`count`]; outside it the wrapper costs one relaxed load per
//! call, so the timed runs (which never count) see the system allocator's own speed.
//!
//! While counting, the wrapper also follows the bytes live (allocated and not yet freed since
//! [`count`] began) and their high-water mark: the peak heap a translation needs on top of
//! what was live before it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};

/// The system allocator, counting while [`count`] runs.
pub struct Counting;

static ON: AtomicBool = AtomicBool::new(false);
static CALLS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
/// Bytes allocated minus bytes freed since [`count`] began: negative when the closure frees
/// what was allocated before it.
static LIVE: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);

/// An allocation call of `bytes` that changes the live bytes by `growth`.
fn note(bytes: usize, growth: i64) {
    if ON.load(Relaxed) {
        CALLS.fetch_add(1, Relaxed);
        BYTES.fetch_add(bytes as u64, Relaxed);
        grow(growth);
    }
}

/// The live bytes change by `growth` (counting is on); the peak follows.
fn grow(growth: i64) {
    let live = LIVE.fetch_add(growth, Relaxed) + growth;
    PEAK.fetch_max(live, Relaxed);
}

// SAFETY: every call is passed unchanged to `System`, which upholds `GlobalAlloc`'s contract;
// the counters touch no allocation.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size(), layout.size() as i64);
        // SAFETY: the caller's guarantees for `layout` are `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size(), layout.size() as i64);
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A growing `Vec` is a call like any other: the bench counts it.
        note(new_size, new_size as i64 - layout.size() as i64);
        // SAFETY: `ptr` came from this allocator, i.e. from `System`, with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if ON.load(Relaxed) {
            grow(-(layout.size() as i64));
        }
        // SAFETY: `ptr` came from `System` with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Heap use of one closure: allocation calls (`alloc`, `alloc_zeroed` and `realloc`), the
/// bytes they asked for, and the most bytes live at once beyond those live when it began.
#[derive(Clone, Copy, Debug, Default)]
pub struct Allocs {
    pub calls: u64,
    pub bytes: u64,
    pub peak: u64,
}

/// Runs `f` with counting on. One thread only: the bench runs on one, and another thread's
/// calls during `f` would be counted too.
pub fn count<T>(f: impl FnOnce() -> T) -> (T, Allocs) {
    CALLS.store(0, Relaxed);
    BYTES.store(0, Relaxed);
    LIVE.store(0, Relaxed);
    PEAK.store(0, Relaxed);
    ON.store(true, Relaxed);
    let out = std::hint::black_box(f());
    ON.store(false, Relaxed);
    let peak = PEAK.load(Relaxed).max(0) as u64;
    (out, Allocs { calls: CALLS.load(Relaxed), bytes: BYTES.load(Relaxed), peak })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_is_the_most_live_at_once_not_the_sum_asked_for() {
        const MIB: usize = 1 << 20;
        let ((), a) = count(|| {
            drop(std::hint::black_box(vec![1u8; MIB]));
            drop(std::hint::black_box(vec![2u8; MIB]));
        });
        // Other test threads may allocate meanwhile: bounds, not exact values.
        assert!(a.bytes >= 2 * MIB as u64, "{a:?}");
        assert!(a.peak >= MIB as u64 && a.peak < (MIB + MIB / 2) as u64, "{a:?}");
    }
}
